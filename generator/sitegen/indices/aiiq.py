"""AI IQ (kind `ai-iq`): anchor-mapped benchmark IQs, family match and min-of-two imputation, dimension means,
composite."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
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


def family_benchmarks(definition: Mapping) -> frozenset[str]:
    """The benchmarks family match runs on: all of the definition's when its `family_match` is on, less those
    whose own entry says `family_match: false` (where held-out error showed it worse than the fallback)."""
    if not definition.get("family_match"):
        return frozenset()
    return frozenset(b["benchmark"] for d in definition["dimensions"] for b in d["benchmarks"]
                     if b.get("family_match", True))


def reasoning_mode(value) -> bool | None:
    """True (reasoning) or False (non-reasoning) where the registry states the mode; None for anything else
    (missing, NA, or a 'not stated' marker): a configuration whose mode is unknown neither gives nor takes."""
    return bool(value) if isinstance(value, (bool, np.bool_)) else None


def family_siblings(models: pd.DataFrame, real: Mapping[str, Mapping], benchmarks: Iterable[str] | None = None):
    """siblings(model, benchmark) -> the configurations whose real score the model may take, sorted by id.

    A sibling is another configuration of the same release, in the same stated reasoning mode (a reasoning
    configuration never takes a non-reasoning one's score, nor the reverse), at a known reasoning effort strictly
    lower than the model's own (a conservative bound: more effort is not assumed to score less; configurations
    the registry cannot order, at equal or unknown effort, never match), with a real score on the benchmark.
    Only the nearest such effort counts, so every sibling returned has the same effort. A configuration whose
    mode or effort is unknown has no sibling and is no one's. `benchmarks` limits the rule to those benchmarks
    (None: all). Needs the frame's release, reasoning and effort_rank columns; `real` is only asked who has a
    real score.
    """
    if models is None or models.empty or not {"release", "reasoning", "effort_rank"} <= set(models.columns):
        return lambda model, bench: []
    allowed = None if benchmarks is None else frozenset(benchmarks)
    info = {}
    for model, r in model_lookup(models).items():
        release, mode, rank = r["release"], reasoning_mode(r["reasoning"]), r["effort_rank"]
        if isinstance(release, str) and release and mode is not None and _finite(rank):
            info[model] = (release, mode, float(rank))
    by_group: dict[tuple[str, bool], list[tuple[float, str]]] = {}
    for model, (release, mode, rank) in info.items():
        by_group.setdefault((release, mode), []).append((rank, model))

    def siblings(model: str, bench: str) -> list[str]:
        if model not in info or (allowed is not None and bench not in allowed):
            return []
        release, mode, own = info[model]
        eligible = [(rank, sib) for rank, sib in by_group[(release, mode)] if rank < own and sib in real[bench]]
        nearest = max((rank for rank, _ in eligible), default=None)
        return sorted(sib for rank, sib in eligible if rank == nearest)

    return siblings


def _finite(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) and math.isfinite(x)


def family_matcher(models: pd.DataFrame, real: Mapping[str, Mapping[str, float]],
                   benchmarks: Iterable[str] | None = None):
    """match(model, benchmark) -> the sibling whose real score a configuration may take, or None: of the
    siblings at the nearest lower effort (`family_siblings`), the one with the lower IQ, then the lower id."""
    siblings = family_siblings(models, real, benchmarks)

    def match(model: str, bench: str) -> str | None:
        return min(siblings(model, bench), key=lambda sib: (real[bench][sib], sib), default=None)

    return match


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

    # Pass 1: benchmark level, per model and dimension. Family match (when the definition switches it on) comes
    # before min-of-two; sibling scores never enter a P80 population: the dimension P80 is taken over the
    # dimension values computed without them.
    family = family_matcher(models, real, family_benchmarks(definition))
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
            bench_values, plain = {}, []
            for b in active[d["id"]]:
                if b in reals:
                    bench_values[b] = ("observed", reals[b], None, None)
                    plain.append(reals[b])
                    continue
                imputed = min(own, p80_bench[b])
                why = (f"min(own mean IQ over real {d['id']} benchmarks {_fmt(own)}, "
                       f"{pct} of {b} {_fmt(p80_bench[b])})")
                plain.append(imputed)
                sibling = family(model, b)
                if sibling is None:
                    bench_values[b] = ("imputed", imputed, why, p80_bench[b])
                else:
                    bench_values[b] = ("family", real[b][sibling], sibling, None)
            value = mean([v for _, v, _, _ in bench_values.values()])
            entry[d["id"]] = {"scored": True, "benchmarks": bench_values, "value": value}
            dim_iq[d["id"]][model] = mean(plain)
        per_model[model] = entry
    p80_dim = {d: nearest_rank(v.values(), level) for d, v in dim_iq.items()}

    # Pass 2: dimension level, composite, status, components.
    people = model_lookup(models)
    manual_cfg = definition.get("manual_fallback")
    statuses = sorted(definition["status"], key=lambda s: -s["min_scored"])
    rows = []
    for model in sorted(set(model_ids) | _manual_models(people, manual_cfg)):
        entry = per_model[model] if model in per_model else {d["id"]: {"scored": False, "benchmarks": {}}
                                                             for d in dims}
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
            comps.extend(_benchmark_components(d, e, active[did], chosen, model, precision, pct, people))
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


def _effort(info: Mapping) -> str:
    label, rank = info.get("effort") or "", info.get("effort_rank")
    return f"{label or 'unlabelled'}, rank {rank:g}" if rank is not None else (label or "unknown")


def _mode(info: Mapping) -> str:
    return {True: "reasoning", False: "non-reasoning"}.get(reasoning_mode(info.get("reasoning")), "mode unknown")


def _benchmark_components(d: Mapping, e: Mapping, active: list[str], chosen: Mapping, model: str,
                          precision: int, pct: str, people: Mapping[str, dict]) -> list[dict]:
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
            elif how == "family":
                sibling, rec = why, chosen[(why, bid)]
                own, sib = people.get(model, {}), people.get(sibling, {})
                out.append(from_result(bid, rec, value, raw=rec["value"], how="imputed", precision=precision, reason=(
                    f"family match: the real score of {sibling} (effort {_effort(sib)}), a configuration of the "
                    f"same release {own.get('release')}, also {_mode(own)}, at a lower reasoning effort than this "
                    f"one's ({_effort(own)})")))
                out[-1]["sibling"] = sibling
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


# ------------------------------------------------------------------------ family match against its fallback

HOLDOUT_FOLDS = 5
HOLDOUT_SEED = "ai-iq family holdout"
# A setting is contradicted by the measurement only on at least this many held-out cases, and only when one rule's
# RMSE exceeds the other's by more than FAMILY_MARGIN of the smaller: a clear margin, so that a setting does not
# flip with one model more or less.
FAMILY_MIN_CASES = 10
FAMILY_MARGIN = 0.10


def holdout_folds(model_ids: Sequence[str], k: int = HOLDOUT_FOLDS, seed: str = HOLDOUT_SEED) -> dict[str, int]:
    """{model: fold in 0..k-1}: the sorted ids in a permutation seeded by sha256 of `seed` (the same on every
    machine), dealt out in turn, so the folds differ in size by at most one."""
    ids = sorted(model_ids)
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    order = np.random.Generator(np.random.PCG64(int.from_bytes(digest[:16], "big"))).permutation(len(ids))
    return {ids[i]: place % k for place, i in enumerate(order)}


def family_holdout(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame,
                   folds: int = HOLDOUT_FOLDS, seed: str = HOLDOUT_SEED) -> list[dict]:
    """Out-of-fold error of family match and of its fallback rule on the same held-out cases, per benchmark.

    A case is a model with a real score on benchmark b, another real benchmark in b's dimension and a family
    sibling with a real b (the rule as `family_siblings` has it, on every benchmark whatever the `family_match`
    settings: this is what decides them). Its b is hidden and imputed twice: family match takes the lower IQ of
    the siblings at the nearest lower effort; the fallback takes min(the model's mean IQ over its other real
    benchmarks in the dimension, the P80 of b fitted on the models outside the model's fold; `holdout_folds`).
    Error = imputed - observed, in IQ points. One row per benchmark of the definition, in its order:
    {benchmark, dimension, cases, models (the cases' ids), family: {bias, rmse}, fallback: {bias, rmse}}, the
    bias and rmse None without a case (rmse also with one).
    """
    level = definition["percentile"]["level"]
    _, real = benchmark_iqs(definition, results)
    siblings = family_siblings(models, real)
    fold = holdout_folds({m for iqs in real.values() for m in iqs}, folds, seed)
    rows = []
    for d in definition["dimensions"]:
        benches = [b["benchmark"] for b in d["benchmarks"]]
        for bid in benches:
            cases, fam, fallback, truth = [], [], [], []
            for model in sorted(real[bid]):
                others = [real[o][model] for o in benches if o != bid and model in real[o]]
                sibs = siblings(model, bid)
                if not others or not sibs:
                    continue
                p80 = nearest_rank([iq for m, iq in real[bid].items() if fold[m] != fold[model]], level)
                if p80 is None:
                    continue
                cases.append(model)
                truth.append(real[bid][model])
                fam.append(min(real[bid][s] for s in sibs))
                fallback.append(min(mean(others), p80))
            rows.append({"benchmark": bid, "dimension": d["id"], "cases": len(cases), "models": cases,
                         "family": _error(fam, truth), "fallback": _error(fallback, truth)})
    return rows


def _error(imputed: Sequence[float], truth: Sequence[float]) -> dict:
    err = np.asarray(imputed, float) - np.asarray(truth, float)
    n = err.size
    return {"bias": float(err.mean()) if n else None, "rmse": float(np.sqrt((err ** 2).mean())) if n >= 2 else None}


def family_verdict(row: Mapping) -> str | None:
    """What a family_holdout row says of family match on its benchmark: 'worse' or 'better' than the fallback by
    more than FAMILY_MARGIN of the smaller RMSE on at least FAMILY_MIN_CASES cases, else None (no clear answer:
    either setting stands)."""
    fam, fallback = row["family"]["rmse"], row["fallback"]["rmse"]
    if row["cases"] < FAMILY_MIN_CASES or fam is None or fallback is None:
        return None
    if fam > fallback * (1 + FAMILY_MARGIN):
        return "worse"
    if fallback > fam * (1 + FAMILY_MARGIN):
        return "better"
    return None
