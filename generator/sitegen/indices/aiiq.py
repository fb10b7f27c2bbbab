"""AI IQ (kind `ai-iq`): anchor-mapped benchmark IQs, min-of-two imputation, dimension means, composite."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .common import (board, component, from_result, interpolate, mean, model_lookup, nearest_rank,
                     round_half_up, select_by_benchmark)


def _fmt(x: float) -> str:
    return f"{x:.2f}"


def benchmark_iqs(definition: Mapping, results: pd.DataFrame) -> tuple[dict, dict]:
    """Selected results and real implied IQs: ({(model, bench): result}, {bench: {model: iq}})."""
    overrides = {b["benchmark"]: b.get("selection") for d in definition["dimensions"] for b in d["benchmarks"]}
    chosen = select_by_benchmark(results, definition.get("selection"), overrides)
    anchors = {b["benchmark"]: b["anchors"] for d in definition["dimensions"] for b in d["benchmarks"]}
    real: dict[str, dict[str, float]] = {b: {} for b in anchors}
    for (model, bench), rec in chosen.items():
        real[bench][model] = interpolate(anchors[bench], rec["value"])
    return chosen, real


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """The AI IQ board: one row per model with a real benchmark score or a sourced manual IQ."""
    precision = definition.get("precision", 4)
    level = definition["percentile"]["level"]
    min_dims = definition["min_dimensions"]
    dims = definition["dimensions"]
    chosen, real = benchmark_iqs(definition, results)
    p80_bench = {b: nearest_rank(iqs.values(), level) for b, iqs in real.items()}
    active = {d["id"]: [b["benchmark"] for b in d["benchmarks"] if real[b["benchmark"]]] for d in dims}
    pct = f"P{round(level * 100):d}"

    # Pass 1: benchmark level, per model and dimension.
    model_ids = sorted({m for iqs in real.values() for m in iqs})
    per_model: dict[str, dict] = {}
    dim_iq: dict[str, dict[str, float]] = {d["id"]: {} for d in dims}
    for model in model_ids:
        entry: dict[str, dict] = {}
        for d in dims:
            reals = {b: real[b][model] for b in active[d["id"]] if model in real[b]}
            if not reals:
                entry[d["id"]] = {"scored": False, "benchmarks": {}}
                continue
            own = mean(list(reals.values()))
            bench_values = {}
            for b in active[d["id"]]:
                if b in reals:
                    bench_values[b] = ("observed", reals[b], None, None)
                else:
                    imputed = min(own, p80_bench[b])
                    why = (f"min(own mean IQ over real {d['id']} benchmarks {_fmt(own)}, "
                           f"{pct} of {b} {_fmt(p80_bench[b])})")
                    bench_values[b] = ("imputed", imputed, why, p80_bench[b])
            value = mean([v for _, v, _, _ in bench_values.values()])
            entry[d["id"]] = {"scored": True, "benchmarks": bench_values, "value": value}
            dim_iq[d["id"]][model] = value
        per_model[model] = entry
    p80_dim = {d: nearest_rank(v.values(), level) for d, v in dim_iq.items()}

    # Pass 2: dimension level, composite, status, components.
    people = model_lookup(models)
    manual_cfg = definition.get("manual_fallback")
    statuses = sorted(definition["status"], key=lambda s: -s["min_scored"])
    rows = []
    for model in sorted(set(model_ids) | _manual_models(people, manual_cfg)):
        entry = per_model.get(model, {d["id"]: {"scored": False, "benchmarks": {}} for d in dims})
        scored = [d["id"] for d in dims if entry[d["id"]]["scored"]]
        scored_mean = mean([entry[d]["value"] for d in scored])
        used: list[float] = []
        comps: list[dict] = []
        for d in dims:
            did = d["id"]
            e = entry[did]
            if e["scored"]:
                used.append(e["value"])
                comps.append(component(did, "dimension", "observed", e["value"], precision=precision))
            elif len(scored) < min_dims:
                comps.append(component(did, "dimension", "missing", precision=precision, reason=(
                    f"no real benchmark in this dimension, and fewer than {min_dims} scored dimensions")))
            elif not d["imputable"]:
                comps.append(component(did, "dimension", "missing", precision=precision, reason=(
                    f"no real benchmark in this dimension; {did} is never imputed at dimension level")))
            elif p80_dim[did] is None:
                comps.append(component(did, "dimension", "missing", precision=precision, reason=(
                    f"no model has real data in this dimension, so it has no {pct}")))
            else:
                imputed = min(scored_mean, p80_dim[did])
                used.append(imputed)
                comps.append(component(did, "dimension", "imputed", imputed, precision=precision, reason=(
                    f"min(mean of {len(scored)} scored dimensions {_fmt(scored_mean)}, "
                    f"{pct} of {did} {_fmt(p80_dim[did])})")))
                comps[-1]["percentile"] = percentile(pct, did, p80_dim[did], precision)
            comps.extend(_benchmark_components(d, e, active[did], chosen, model, precision, pct))
        status = next(s for s in statuses if len(scored) >= s["min_scored"])
        composite = mean(used) if len(scored) >= min_dims else None
        row = {
            "model": model, "value": round_half_up(composite, precision), "rank": None,
            "status": status["status"], "coverage": {"have": len(scored), "of": len(dims)},
            "components": comps, "_ranked": status["ranked"] and composite is not None,
        }
        if composite is None and manual_cfg:
            info = people.get(model, {})
            manual, source = info.get(manual_cfg["field"]), info.get(manual_cfg["source_field"])
            if manual is not None and source:
                row["manual"] = {"value": round_half_up(manual, precision), "source": source}
        if composite is None and not scored and "manual" not in row:
            continue
        rows.append(row)
    return board(definition, rows)


def _manual_models(people: Mapping[str, dict], manual_cfg: Mapping | None) -> set[str]:
    """Models that carry a sourced manual value (listed even without benchmark data)."""
    if not manual_cfg:
        return set()
    return {m for m, info in people.items()
            if info.get(manual_cfg["field"]) is not None and info.get(manual_cfg["source_field"])}


def _benchmark_components(d: Mapping, e: Mapping, active: list[str], chosen: Mapping, model: str,
                          precision: int, pct: str) -> list[dict]:
    out = []
    for b in d["benchmarks"]:
        bid = b["benchmark"]
        if bid not in active:
            out.append(component(bid, "benchmark", "excluded", precision=precision,
                                 reason="no model has a real score on this benchmark; left out of the dimension"))
        elif bid in e["benchmarks"]:
            how, value, why, p80 = e["benchmarks"][bid]
            if how == "observed":
                rec = chosen[(model, bid)]
                out.append(from_result(bid, rec, value, raw=rec["value"], precision=precision))
            else:
                out.append(component(bid, "benchmark", "imputed", value, reason=why, precision=precision))
                out[-1]["percentile"] = percentile(pct, bid, p80, precision)
        else:
            out.append(component(bid, "benchmark", "missing", precision=precision, reason=(
                "no real benchmark in this dimension, so benchmark-level imputation does not run")))
    return out


def percentile(name: str, of: str, value: float, precision: int) -> dict:
    """The percentile an imputed value was capped by, as data (the reason says it in words)."""
    return {"name": name, "of": of, "value": round_half_up(value, precision)}
