"""AI IQ (kind `ai-iq`): anchor-mapped benchmark IQs, family match and min-of-two imputation, dimension means,
composite."""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import cast

import numpy as np
import pandas as pd

from ..known import known
from . import mcerror
from .parts import (
    board,
    component,
    from_result,
    interpolate,
    interpolate_rows,
    mean,
    model_lookup,
    nearest_rank,
    nearest_rank_rows,
    round_half_up,
    select_by_benchmark,
)

#: siblings(model, benchmark) -> the configurations whose real score the model may take (family_siblings)
Siblings = Callable[[str, str], list[str]]


def _fmt(x: float) -> str:
    return f"{x:.2f}"


def selected(definition: Mapping, results: pd.DataFrame) -> dict[tuple[str, str], dict]:
    """{(model, benchmark): result} for the definition's benchmarks, each with its own selection."""
    overrides = {b["benchmark"]: b.get("selection") for d in definition["dimensions"] for b in d["benchmarks"]}
    return select_by_benchmark(results, definition.get("selection"), overrides)


def models_with_scores(definition: Mapping, chosen: Mapping) -> dict[str, set[str]]:
    """{benchmark: the models with a selected (real) score}, in the definition's order."""
    have: dict[str, set[str]] = {b["benchmark"]: set() for d in definition["dimensions"] for b in d["benchmarks"]}
    for model, bench in chosen:
        have[bench].add(model)
    return have


def benchmark_iqs(definition: Mapping, results: pd.DataFrame) -> tuple[dict, dict]:
    """Selected results and real implied IQs: ({(model, bench): result}, {bench: {model: iq}})."""
    chosen = selected(definition, results)
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
    return frozenset(
        b["benchmark"] for d in definition["dimensions"] for b in d["benchmarks"] if b.get("family_match", True)
    )


def reasoning_mode(value: object) -> bool | None:
    """True (reasoning) or False (non-reasoning) where the registry states the mode; None for anything else
    (missing, NA, or a 'not stated' marker): a configuration whose mode is unknown neither gives nor takes."""
    return bool(value) if isinstance(value, (bool, np.bool_)) else None


def family_siblings(
    models: pd.DataFrame, real: Mapping[str, Collection[str]], benchmarks: Iterable[str] | None = None
) -> Siblings:
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
    return _siblings_among(_placed(models), real, benchmarks)


def _placed(models: pd.DataFrame | None) -> dict[str, tuple[str, bool, float]]:
    """{model: (release, reasoning mode, effort rank)} of the configurations family match can place: a release,
    a stated mode and a known effort (needs the frame's release, reasoning and effort_rank columns)."""
    if models is None or models.empty or not {"release", "reasoning", "effort_rank"} <= set(models.columns):
        return {}
    info = {}
    for model, r in model_lookup(models).items():
        release, mode, rank = r["release"], reasoning_mode(r["reasoning"]), r["effort_rank"]
        if isinstance(release, str) and release and mode is not None and known(rank) is not None:
            info[model] = (release, mode, float(rank))
    return info


def _siblings_among(
    info: Mapping[str, tuple[str, bool, float]],
    real: Mapping[str, Collection[str]],
    benchmarks: Iterable[str] | None = None,
) -> Siblings:
    """family_siblings over the configurations `_placed` gives."""
    allowed = None if benchmarks is None else frozenset(benchmarks)
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


@dataclasses.dataclass
class _PointParts:
    """The one-draw values of index_values(detail=True) that compute's rows and reasons quote, by column."""

    model_ids: list[str]
    pct: str  # the percentile's name, "P80"
    active: dict[str, list[str]]  # {dimension: its benchmarks with an implied IQ}
    iq: dict[str, dict[int, float]]  # {benchmark: {column: real IQ}}
    own: dict[str, dict[int, float]]  # {dimension: {column: own mean IQ over real benchmarks}}
    dim_value: dict[str, dict[int, float]]
    p80_bench: dict[str, float]
    p80_dim: dict[str, float | None]
    gaps: dict[str, dict[int, tuple[float, int]]]  # {benchmark: {column: (value, sibling column or -1)}}
    imputed_dim: dict[str, dict[int, float]]
    scored_mean: dict[int, float]
    composite: dict[int, float]

    @classmethod
    def of(cls, out: Mapping, dims: Sequence[Mapping], model_ids: list[str], level: float) -> _PointParts:
        parts = out["detail"]
        return cls(
            model_ids=model_ids,
            pct=f"P{round(level * 100):d}",
            active={d["id"]: [b["benchmark"] for b in d["benchmarks"] if b["benchmark"] in parts["iq"]] for d in dims},
            iq={b: _point(pair) for b, pair in parts["iq"].items()},
            own={d: _point(pair) for d, pair in parts["own"].items()},
            dim_value={d: _point(pair) for d, pair in out["dims"].items()},
            p80_bench={b: float(v[0, 0]) for b, v in parts["p80"].items()},
            p80_dim={d: None if v is None else float(v[0, 0]) for d, v in parts["p80_dim"].items()},
            gaps={
                b: dict(zip(cols.tolist(), zip(values[0].tolist(), sibling[0].tolist())))
                for b, (cols, values, sibling) in parts["gaps"].items()
            },
            imputed_dim={d: _point(pair) for d, pair in out["imputed"].items()},
            scored_mean=_point(parts["scored_mean"]),
            composite=_point(out["composite"]),
        )

    def bench_values(self, did: str, j: int) -> dict[str, tuple]:
        """{benchmark: (how, value, sibling or reason, percentile)} of the values dimension `did` takes for the
        model in column j: real, a family match or min-of-two."""
        bench_values: dict[str, tuple] = {}
        for b in self.active[did]:
            if j in self.iq[b]:
                bench_values[b] = ("observed", self.iq[b][j], None, None)
                continue
            value, sibling = self.gaps[b][j]
            if sibling >= 0:
                bench_values[b] = ("family", value, self.model_ids[sibling], None)
            else:
                why = (
                    f"min(own mean IQ over real {did} benchmarks {_fmt(self.own[did][j])}, "
                    f"{self.pct} of {b} {_fmt(self.p80_bench[b])})"
                )
                bench_values[b] = ("imputed", value, why, self.p80_bench[b])
        return bench_values

    def per_model(self, dims: Sequence[Mapping]) -> dict[str, dict]:
        """Per model and dimension, whether it is scored, its benchmark values and its value."""
        per_model: dict[str, dict] = {}
        for j, model in enumerate(self.model_ids):
            entry: dict[str, dict] = {}
            for d in dims:
                did = d["id"]
                if j not in self.dim_value[did]:
                    entry[did] = {"scored": False, "benchmarks": {}}
                    continue
                entry[did] = {"scored": True, "benchmarks": self.bench_values(did, j), "value": self.dim_value[did][j]}
            per_model[model] = entry
        return per_model

    def dimension_component(
        self, d: Mapping, e: Mapping, scored: list[str], j: int, min_dims: int, precision: int
    ) -> dict:
        """A dimension's component: observed, missing (and why) or imputed at dimension level with its percentile."""
        did, pct, p80 = d["id"], self.pct, self.p80_dim[d["id"]]
        if e["scored"]:
            return component(did, "dimension", "observed", e["value"], precision=precision)
        if len(scored) < min_dims:
            why = f"no real benchmark in this dimension, and fewer than {min_dims} scored dimensions"
        elif not d["imputable"]:
            why = f"no real benchmark in this dimension; {did} is never imputed at dimension level"
        elif p80 is None:
            why = f"no model has real data in this dimension, so it has no {pct}"
        else:
            comp = component(
                did,
                "dimension",
                "imputed",
                self.imputed_dim[did][j],
                precision=precision,
                reason=(
                    f"min(mean of {len(scored)} scored dimensions {_fmt(self.scored_mean[j])}, {pct} of {did} {_fmt(p80)})"
                ),
            )
            comp["percentile"] = percentile(pct, did, p80, precision)
            return comp
        return component(did, "dimension", "missing", precision=precision, reason=why)


def _manual_value(row: dict, info: Mapping, manual_cfg: Mapping, precision: int) -> None:
    """A row without a computed value shows the model's sourced manual value, when it has one."""
    manual, source = info.get(manual_cfg["field"]), info.get(manual_cfg["source_field"])
    if manual is not None and source:
        row["manual"] = {"value": round_half_up(manual, precision), "source": source}


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """The AI IQ board: one row per model with a real benchmark score or a sourced manual IQ. Every value comes
    from index_values on the selected scores (one draw); this builds the rows, components and reasons."""
    precision = definition.get("precision", 4)
    level = definition["percentile"]["level"]
    min_dims = definition["min_dimensions"]
    dims = definition["dimensions"]
    chosen = selected(definition, results)
    have = models_with_scores(definition, chosen)
    model_ids = sorted({m for m, _ in chosen})
    relatives = family_relatives(definition, models, model_ids, have)
    out = index_values(definition, point_scores(definition, chosen, model_ids), relatives=relatives, detail=True)
    parts = _PointParts.of(out, dims, model_ids, level)
    per_model = parts.per_model(dims)
    column = {m: j for j, m in enumerate(model_ids)}

    # Pass 2: dimension level, composite, status, components.
    people = model_lookup(models)
    manual_cfg = definition.get("manual_fallback")
    statuses = sorted(definition["status"], key=lambda s: -s["min_scored"])
    rows = []
    for model in sorted(set(model_ids) | _manual_models(people, manual_cfg)):
        entry = per_model[model] if model in per_model else {d["id"]: {"scored": False, "benchmarks": {}} for d in dims}
        j = column.get(model, -1)
        scored = [d["id"] for d in dims if entry[d["id"]]["scored"]]
        comps: list[dict] = []
        for d in dims:
            comps.append(parts.dimension_component(d, entry[d["id"]], scored, j, min_dims, precision))
            comps.extend(
                _benchmark_components(
                    d, entry[d["id"]], parts.active[d["id"]], chosen, model, precision, parts.pct, people
                )
            )
        status = next(s for s in statuses if len(scored) >= s["min_scored"])
        value = parts.composite.get(j)
        row = {
            "model": model,
            "value": round_half_up(value, precision),
            "rank": None,
            "status": status["status"],
            "coverage": {"have": len(scored), "of": len(dims)},
            "components": comps,
            "_ranked": status["ranked"] and value is not None,
        }
        if value is None and manual_cfg:
            _manual_value(row, people.get(model, {}), manual_cfg, precision)
        if value is None and not scored and "manual" not in row:
            continue
        rows.append(row)
    return board(definition, rows)


def _point(pair: tuple[np.ndarray, np.ndarray]) -> dict[int, float]:
    """{column: value} of a (columns, draws x columns) result's first draw."""
    cols, values = pair
    return dict(zip(cols.tolist(), values[0].tolist()))


def _manual_models(people: Mapping[str, dict], manual_cfg: Mapping | None) -> set[str]:
    """Models that carry a sourced manual value (listed even without benchmark data)."""
    if not manual_cfg:
        return set()
    return {
        m
        for m, info in people.items()
        if info.get(manual_cfg["field"]) is not None and info.get(manual_cfg["source_field"])
    }


def _effort(info: Mapping) -> str:
    label, rank = info.get("effort") or "", info.get("effort_rank")
    return f"{label or 'unlabelled'}, rank {rank:g}" if rank is not None else (label or "unknown")


def _mode(info: Mapping) -> str:
    labels: dict[bool | None, str] = {True: "reasoning", False: "non-reasoning"}
    return labels.get(reasoning_mode(info.get("reasoning")), "mode unknown")


def _benchmark_components(
    d: Mapping,
    e: Mapping,
    active: list[str],
    chosen: Mapping,
    model: str,
    precision: int,
    pct: str,
    people: Mapping[str, dict],
) -> list[dict]:
    out = []
    for b in d["benchmarks"]:
        bid = b["benchmark"]
        if bid not in active:
            out.append(
                component(
                    bid,
                    "benchmark",
                    "excluded",
                    precision=precision,
                    reason="no model has a real score on this benchmark; left out of the dimension",
                )
            )
        elif bid in e["benchmarks"]:
            how, value, why, p80 = e["benchmarks"][bid]
            if how == "observed":
                rec = chosen[(model, bid)]
                out.append(from_result(bid, rec, value, raw=rec["value"], precision=precision))
            elif how == "family":
                sibling, rec = why, chosen[(why, bid)]
                own, sib = people.get(model, {}), people.get(sibling, {})
                out.append(
                    from_result(
                        bid,
                        rec,
                        value,
                        raw=rec["value"],
                        how="imputed",
                        precision=precision,
                        reason=(
                            f"family match: the real score of {sibling} (effort {_effort(sib)}), a configuration of the "
                            f"same release {own.get('release')}, also {_mode(own)}, at a lower reasoning effort than this "
                            f"one's ({_effort(own)})"
                        ),
                    )
                )
                out[-1]["sibling"] = sibling
            else:
                out.append(component(bid, "benchmark", "imputed", value, reason=why, precision=precision))
                out[-1]["percentile"] = percentile(pct, bid, p80, precision)
        else:
            out.append(
                component(
                    bid,
                    "benchmark",
                    "missing",
                    precision=precision,
                    reason=("no real benchmark in this dimension, so benchmark-level imputation does not run"),
                )
            )
    return out


def percentile(name: str, of: str, value: float, precision: int) -> dict:
    """The percentile an imputed value was capped by, as data (the reason says it in words)."""
    return {"name": name, "of": of, "value": round_half_up(value, precision)}


# ------------------------------------------------------------------------------ the index on draws x models


@dataclasses.dataclass
class Scores:
    """Raw benchmark scores, per benchmark only for the models that have it, so that memory grows with the
    results, not with models x benchmarks: by_benchmark[b] = (those models' columns among the `models` columns,
    ascending; draws x those columns). The board's are one draw of the selected values (`point_scores`); the
    simulation's are drawn from each value's interval and given already `mapped` through each benchmark's anchor
    table (uncertainty.aiiq_raw: the implied IQs, which its two runs and the next month's share)."""

    models: int
    sims: int
    by_benchmark: Mapping[str, tuple[np.ndarray, np.ndarray]]
    mapped: bool = False

    @classmethod
    def from_dense(cls, arrays: Mapping[str, np.ndarray]) -> Scores:
        """From draws x models arrays with NaN where a model has no score (in its first draw)."""
        sims, m = next(iter(arrays.values())).shape
        by = {}
        for bid, values in arrays.items():
            cols = np.flatnonzero(~np.isnan(values[0]))
            by[bid] = (cols, values[:, cols])
        return cls(m, sims, by)

    def first_draw(self, bid: str) -> np.ndarray:
        """The first draw of benchmark `bid` for all models, NaN where a model has no score."""
        return first_row(self.by_benchmark[bid], self.models)


def first_row(pair: tuple[np.ndarray, np.ndarray], models: int) -> np.ndarray:
    """The first draw of a (columns, draws x columns) result for all `models` columns, NaN elsewhere."""
    cols, values = pair
    out = np.full(models, np.nan)
    out[cols] = values[0]
    return out


def point_scores(definition: Mapping, chosen: Mapping, model_ids: Sequence[str]) -> Scores:
    """The selected values as one draw (the undisturbed inputs index_values computes the board from)."""
    by = {}
    for d in definition["dimensions"]:
        for b in d["benchmarks"]:
            bid = b["benchmark"]
            cols = [j for j, m in enumerate(model_ids) if (m, bid) in chosen]  # a selected result has a value
            by[bid] = (
                np.array(cols, dtype=np.intp),
                np.array([[chosen[(model_ids[j], bid)]["value"] for j in cols]], float),
            )
    return Scores(len(model_ids), 1, by)


def family_relatives(
    definition: Mapping, models: pd.DataFrame | None, model_ids: Sequence[str], real: Mapping[str, Collection[str]]
) -> dict:
    """{benchmark: {column: sibling columns}} for every model with siblings on that benchmark (`family_siblings`:
    same release and reasoning mode, the nearest lower effort, with a real score), on the benchmarks the
    definition runs family match on (`family_benchmarks`; {} when none)."""
    benches = family_benchmarks(definition)
    if not benches:
        return {}
    placed = _placed(models)
    siblings = _siblings_among(placed, real, benches)
    col = {mid: j for j, mid in enumerate(model_ids)}
    groups = Counter((release, mode) for release, mode, _ in placed.values())
    asked = [mid for mid in model_ids if mid in placed and groups[placed[mid][:2]] > 1]  # others have none
    out: dict[str, dict[int, np.ndarray]] = {}
    for bench in (b for b in real if b in benches):
        for mid in asked:
            found = siblings(mid, bench)
            if found:
                out.setdefault(bench, {})[col[mid]] = np.array([col[s] for s in found])
    return out


#: noise(rule, component, cols, base) -> the imputed values of the models in cols (see index_values)
Noise = Callable[[str, str, np.ndarray, np.ndarray], np.ndarray]


def _no_noise(rule: str, component: str, cols: np.ndarray, base: np.ndarray) -> np.ndarray:
    return base


@dataclasses.dataclass
class _DimensionSums:
    """One dimension's arrays in index_values, over the columns `here` (the models scored on it, ascending): `own`
    the mean real IQ, `acc` the sum of its benchmark values (real and imputed), `plain` the same with min-of-two
    alone (the P80 population; `acc` itself when no gap is family-matched), `gaps` the count of imputed benchmarks
    (per model, all columns)."""

    has: np.ndarray  # per model: scored on the dimension
    here: np.ndarray
    local: np.ndarray  # per model: its place in `here`, -1 elsewhere
    acc: np.ndarray
    plain: np.ndarray
    gaps: np.ndarray

    @classmethod
    def of(
        cls, iqs: Mapping[str, tuple[np.ndarray, np.ndarray]], sims: int, m: int
    ) -> tuple[_DimensionSums, np.ndarray]:
        """The sums before any benchmark is added (`acc` and `gaps` at zero), and `own`: each scored model's mean
        real IQ over the dimension's benchmarks (draws x here)."""
        count = sum((mk.astype(int) for _, mk in iqs.values()), np.zeros(m, int))
        has = count > 0
        here = np.flatnonzero(has)  # the dimension's arrays hold these columns only
        local = np.full(m, -1)
        local[here] = np.arange(here.size)
        own = np.zeros((sims, here.size), order="F")
        for iq, mk in iqs.values():
            own[:, mk[here]] += iq
        own /= np.maximum(count[here], 1)
        acc = np.zeros((sims, here.size), order="F")
        return cls(has, here, local, acc, acc, np.zeros(m)), own


def _implied_iqs(dimension: Mapping, raw: Scores, detail: bool, info: dict) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{benchmark: (implied IQs, draws x its models; mask of those models)} of a dimension's benchmarks with a
    real score; a benchmark no model has is left out of the dimension."""
    iqs = {}
    for b in dimension["benchmarks"]:
        cols, values = raw.by_benchmark[b["benchmark"]]
        if cols.size:
            mask = np.zeros(raw.models, bool)
            mask[cols] = True
            iq = values if raw.mapped else interpolate_rows(b["anchors"], values)  # clamped at both ends
            iqs[b["benchmark"]] = (iq, mask)
            if detail:
                info["iq"][b["benchmark"]] = (cols, iqs[b["benchmark"]][0])
    return iqs


def _family_gaps(
    sums: _DimensionSums,
    bid: str,
    iq: np.ndarray,
    mk: np.ndarray,
    cols: np.ndarray,
    family: list,
    imputed: np.ndarray,
    sibling: np.ndarray | None,
    noise: Noise,
) -> None:
    """A benchmark's gaps when some are family-matched, in place of their min-of-two values `imputed` (draws x
    cols): the unmatched widened by their rule's error, and so added to `plain` (the P80 population); the matched
    then take the siblings' lowest IQ in the draw, widened by the family rule's error, and `sibling` (with
    detail) the sibling each took."""
    matched = np.isin(cols, [j for j, _ in family])
    imputed[:, ~matched] = noise("benchmark", bid, cols[~matched], imputed[:, ~matched])
    sums.plain[:, sums.local[cols]] += imputed
    lowest, took = lowest_sibling(iq, mk, family, sibling is not None)
    imputed[:, matched] = noise("family", bid, cols[matched], lowest)
    if sibling is not None:
        sibling[:, matched] = took


def lowest_sibling(iq: np.ndarray, mk: np.ndarray, family: Sequence, which: bool = False) -> tuple:
    """(draws x len(family): each gap's lowest sibling IQ in each draw, NaN where a sibling has no IQ; with
    `which`, draws x len(family): the sibling column that has it, the first (lower id) of equals, else None).

    `iq` is draws x the benchmark's models, `mk` the mask of those models among all columns, `family` the
    (column, sibling columns) of the gaps. The gaps with as many siblings each are gathered at once (nearly all
    have one): a minimum picks one of its numbers, so the values are the ones a gap at a time gives."""
    sims = iq.shape[0]
    place = np.cumsum(mk) - 1  # a column's place among the benchmark's models (where mk)
    lowest = np.empty((sims, len(family)))
    took = np.empty((sims, len(family)), dtype=np.intp) if which else None
    by_size: dict[int, list[int]] = {}
    for k, (_, sibs) in enumerate(family):
        by_size.setdefault(len(sibs), []).append(k)
    for ks in by_size.values():
        sibs = np.array([family[k][1] for k in ks])  # gaps x siblings
        drawn = iq[:, place[sibs]]  # draws x gaps x siblings
        lowest[:, ks] = drawn.min(axis=2)
        if took is not None:
            took[:, ks] = sibs[np.arange(len(ks)), np.argmin(drawn, axis=2)]
    lowest[:, [k for k, (_, sibs) in enumerate(family) if not mk[sibs].all()]] = np.nan
    return lowest, took


def _add_benchmark(
    sums: _DimensionSums,
    own: np.ndarray,
    bid: str,
    iq: np.ndarray,
    mk: np.ndarray,
    cols: np.ndarray,
    family: list,
    p80: np.ndarray,
    noise: Noise,
    detail: bool,
) -> tuple | None:
    """One benchmark's real IQs and its gaps' imputed values (columns `cols`) added to the dimension's sums;
    (cols, imputed, sibling column or -1) of the gaps, None without gaps."""
    sums.acc[:, mk[sums.here]] += iq
    if sums.plain is not sums.acc:
        sums.plain[:, mk[sums.here]] += iq
    if not cols.size:
        return None
    at = sums.local[cols]
    sums.gaps[cols] += 1
    imputed = np.minimum(own[:, at], p80)
    sibling = np.full((iq.shape[0], cols.size), -1) if detail else None
    if not family:
        imputed = noise("benchmark", bid, cols, imputed)
        sums.acc[:, at] += imputed
        if sums.plain is not sums.acc:
            sums.plain[:, at] += imputed
    else:
        # Family-matched gaps: their min-of-two value (without its error: no row uses it) stays in the P80
        # population; the row takes the siblings' lowest IQ in the draw, widened by the family rule's error.
        _family_gaps(sums, bid, iq, mk, cols, family, imputed, sibling, noise)
        sums.acc[:, at] += imputed
    return cols, imputed, sibling


def _dimension_values(
    d: Mapping,
    raw: Scores,
    level: float,
    relatives: Mapping,
    noise: Noise,
    detail: bool,
    p80_at: Mapping[str, float],
    info: dict,
    shared: dict | None = None,
) -> tuple[_DimensionSums, np.ndarray, np.ndarray | None]:
    """One dimension of index_values: its sums (`acc` and `plain` divided into means), each model's imputed
    share, its P80 (draws x 1, None when no model is scored on it). Each benchmark's P80 is taken from `shared`
    when it holds one, else worked out and added to it (index_values' `shared`)."""
    iqs = _implied_iqs(d, raw, detail, info)
    sums, own = _DimensionSums.of(iqs, raw.sims, raw.models)
    if detail:
        info["own"][d["id"]] = (sums.here, own)
    gap_of = {bid: np.flatnonzero(sums.has & ~mk) for bid, (_, mk) in iqs.items()}
    family = {bid: [(j, relatives[bid][j]) for j in gap_of[bid] if j in relatives.get(bid, {})] for bid in iqs}
    if any(family.values()):  # min-of-two: the P80 population
        sums.plain = np.zeros((raw.sims, sums.here.size), order="F")
    for bid, (iq, mk) in iqs.items():
        p80 = None if shared is None else shared.get(bid)
        if p80 is None:
            p80 = _centred(nearest_rank_rows(iq, level)[:, None], p80_at.get(bid))
            if shared is not None:
                shared[bid] = p80  # read only, here and by the next run
        if detail:
            info["p80"][bid] = p80
        gaps = _add_benchmark(sums, own, bid, iq, mk, gap_of[bid], family[bid], p80, noise, detail)
        if detail and gaps is not None:
            info["gaps"][bid] = gaps
    n_bench = max(len(iqs), 1)
    del own, iqs  # freed before the next dimension's arrays are made
    sums.acc /= n_bench
    if sums.plain is not sums.acc:
        sums.plain /= n_bench
    p80_dim = _centred(nearest_rank_rows(sums.plain, level)[:, None], p80_at.get(d["id"])) if sums.here.size else None
    return sums, sums.gaps / n_bench, p80_dim


def _composite(
    definition: Mapping,
    dims: Mapping[str, tuple[np.ndarray, np.ndarray]],
    scored: Mapping[str, np.ndarray],
    imputed_frac: Mapping[str, np.ndarray],
    p80_dim: Mapping[str, np.ndarray | None],
    sims: int,
    m: int,
    noise: Noise,
    detail: bool,
    info: dict,
) -> dict:
    """The composite of the models with enough scored dimensions: the mean of their scored dimensions' values
    and of the imputed ones (min-of-two against the dimension's P80), and each model's imputed share."""
    n_scored = sum((s.astype(int) for s in scored.values()), np.zeros(m, int))
    eligible = n_scored >= definition["min_dimensions"]
    rows = np.flatnonzero(eligible)  # the composite's columns; scored_mean and total hold these only
    scored_mean = np.zeros((sims, rows.size), order="F")
    for k, (here, v) in dims.items():
        take = scored[k][rows]
        scored_mean[:, take] += v[:, np.searchsorted(here, rows[take])]
    scored_mean /= np.maximum(n_scored[rows], 1)
    total, used, share = np.zeros((sims, rows.size), order="F"), np.zeros(m), np.zeros(m)
    imputed_dims = {}
    for d in definition["dimensions"]:
        did, sc = d["id"], scored[d["id"]]
        here, v = dims[did]
        take = sc[rows]
        total[:, take] += v[:, np.searchsorted(here, rows[take])]
        used += sc
        share += np.where(sc, imputed_frac[did], 0.0)
        p80 = p80_dim[did]
        if d["imputable"] and p80 is not None and (cols := np.flatnonzero(eligible & ~sc)).size:
            at = np.searchsorted(rows, cols)
            imputed = noise("dimension", did, cols, np.minimum(scored_mean[:, at], p80))
            total[:, at] += imputed
            imputed_dims[did] = (cols, imputed)
            used[cols] += 1
            share[cols] += 1
    if detail:
        info.update(p80_dim=p80_dim, scored_mean=(rows, scored_mean))
    del scored_mean
    total /= np.maximum(used[rows], 1)
    return {
        "imputed": imputed_dims,
        "composite": (rows, total),
        "imputed_share": np.where(eligible, share / np.maximum(used, 1), np.nan),
    }


def index_values(
    definition: Mapping,
    raw: Scores,
    noise: Noise = _no_noise,
    relatives: Mapping | None = None,
    detail: bool = False,
    p80_at: Mapping[str, float] | None = None,
    shared: dict | None = None,
) -> dict:
    """The AI IQ definition on draws x models arrays: raw benchmark scores (Scores: of the models that have each)
    in, dimension IQs, composite and imputed share out. The board is this on the selected values (one draw,
    `point_scores`, with `detail`); the simulation is this on their draws, so the two cannot differ.

    Every draws x models result is kept as (columns, draws x those columns) of the models it concerns only
    (memory grows with the results, not with models x dimensions): `dims` each dimension's IQ of the models
    scored on it, `plain` the same with min-of-two alone (see below), `imputed` each dimension's imputed value of
    the models it is imputed for (what the composite takes), `composite` of the models with enough scored
    dimensions (NaN in a draw where a family match has no sibling score). `scored` (per dimension) and
    `imputed_share` are per model. With `detail`, `detail` holds what the board's components and reasons show:
    per benchmark `iq` (the implied IQs of the models with a score), `p80` (draws x 1) and `gaps` ((columns,
    the values those models take, the sibling column each takes or -1 for min-of-two)); per dimension `own` (the
    mean real IQ of its models, as `dims`) and `p80_dim` (draws x 1, or None); and `scored_mean` (as `composite`).
    `noise(rule, component, cols, base)` gives the imputed values of the models in `cols` from the rule's values
    `base` (draws x len(cols)): the board's takes them as they are; the simulation adds the rule's calibrated
    error (uncertainty.ImputationNoise). `p80_at` ({benchmark or dimension: the board's P80}) centres each
    simulated P80 on the board's: a P80 of noisy draws is an order statistic of a wider population, biased
    outward (the mathematical P80 came out 2.9 IQ above the board's), so its draws are moved by (board's P80 -
    their median) and keep their spread. `shared` (a dict, empty at first) is for runs on the same `raw` and
    `p80_at` with different `noise` (the simulation's measured-only and total runs): each benchmark's P80 over
    the real implied IQs depends on neither noise, so the first run keeps it there and the next reads it.
    `relatives` ({benchmark: {column: sibling columns}}, from `family_relatives`) switches family match on: a
    gap with siblings (the nearest lower effort, `family_siblings`) takes, in each draw, the lowest of their
    implied IQs (of equal IQs, the lower id's); the dimension P80 is taken over the values min-of-two alone
    gives (`plain`). Every mean is a sum from zero in the definition's order, over the count.
    """
    level = definition["percentile"]["level"]
    relatives = relatives or {}
    dims, plains, scored, imputed_frac, p80_dim = {}, {}, {}, {}, {}
    info: dict = {"iq": {}, "p80": {}, "gaps": {}, "own": {}}
    for d in definition["dimensions"]:
        sums, imputed_frac[d["id"]], p80_dim[d["id"]] = _dimension_values(
            d, raw, level, relatives, noise, detail, p80_at or {}, info, shared
        )
        dims[d["id"]], plains[d["id"]], scored[d["id"]] = (sums.here, sums.acc), (sums.here, sums.plain), sums.has
    composite = _composite(definition, dims, scored, imputed_frac, p80_dim, raw.sims, raw.models, noise, detail, info)
    out = {
        "dims": dims,
        "plain": plains,
        "imputed": composite["imputed"],
        "scored": scored,
        "composite": composite["composite"],
        "imputed_share": composite["imputed_share"],
    }
    if detail:
        out["detail"] = info
    return out


def _centred(p80: np.ndarray, at: float | None) -> np.ndarray:
    """A P80's draws (draws x 1) moved so that their median is `at` (None: as they are)."""
    return p80 if at is None else p80 + (at - mcerror.medians(p80.reshape(-1, 1))[0])  # np.median's number


# ------------------------------------------------------------------------ family match against its fallback

HOLDOUT_FOLDS = 5
HOLDOUT_SEED = "ai-iq family holdout"
# A setting is contradicted by the measurement only on at least this many held-out cases, and only when one rule's
# RMSE exceeds the other's by more than FAMILY_MARGIN of the smaller: a clear margin, so that a setting does not
# flip with one model more or less.
FAMILY_MIN_CASES = 10
FAMILY_MARGIN = 0.10


def holdout_folds(model_ids: Iterable[str], k: int = HOLDOUT_FOLDS, seed: str = HOLDOUT_SEED) -> dict[str, int]:
    """{model: fold in 0..k-1}: the sorted ids in a permutation seeded by sha256 of `seed` (the same on every
    machine), dealt out in turn, so the folds differ in size by at most one."""
    ids = sorted(model_ids)
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    order = np.random.Generator(np.random.PCG64(int.from_bytes(digest[:16], "big"))).permutation(len(ids))
    return {ids[i]: place % k for place, i in enumerate(order)}


def family_holdout(
    definition: Mapping,
    results: pd.DataFrame,
    models: pd.DataFrame,
    folds: int = HOLDOUT_FOLDS,
    seed: str = HOLDOUT_SEED,
) -> list[dict]:
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
                fallback.append(min(cast(float, mean(others)), p80))  # others is not empty
            rows.append(
                {
                    "benchmark": bid,
                    "dimension": d["id"],
                    "cases": len(cases),
                    "models": cases,
                    "family": _error(fam, truth),
                    "fallback": _error(fallback, truth),
                }
            )
    return rows


def _error(imputed: Sequence[float], truth: Sequence[float]) -> dict:
    err = np.asarray(imputed, float) - np.asarray(truth, float)
    n = err.size
    return {"bias": float(err.mean()) if n else None, "rmse": float(np.sqrt((err**2).mean())) if n >= 2 else None}


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
