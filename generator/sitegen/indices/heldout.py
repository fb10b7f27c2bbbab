"""The held-out experiment: are AI IQ's total intervals calibrated on the real data?

For each hidden set (one or more benchmarks), a seeded half of the models that have a real score on the set and a
composite lose those scores; the composite is recomputed without them, with the imputation calibration refitted
on the reduced data (so it never sees the hidden values: out of fold), and its total interval simulated as the
build does (uncertainty.aiiq_samples). A case is one such model and set: it is covered when the interval holds
the composite computed from the full data. `summary` gives the coverage with its exact binomial interval and the
median standardised error |recomputed - full| / sd of the draws (a calibrated normal gives 0.674).

Fewer draws than the build's may be used: the interval's Monte-Carlo error then lowers the expected coverage a
little (`summary` reports the draws), which makes the check stricter, never looser.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from . import aiiq
from .uncertainty import aiiq_samples, quantile_interval

SEED = "ai-iq held-out experiment"


def default_sets(definition: Mapping, together: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """The sets hidden by default: each benchmark of the definition alone, then the benchmarks of `together` the
    definition has, as one set (when it has two or more; the caller names them: this repository's test hides four
    frontier benchmarks at once)."""
    ids = [b["benchmark"] for d in definition["dimensions"] for b in d["benchmarks"]]
    joint = tuple(b for b in together if b in ids)
    return [(b,) for b in ids] + ([joint] if len(joint) > 1 else [])


def hidden_half(models: Sequence[str], key: str, seed: str = SEED) -> list[str]:
    """A seeded half (rounded down) of the sorted models: a permutation seeded by sha256 of (seed, key)."""
    ids = sorted(models)
    digest = hashlib.sha256(f"{seed}\x1f{key}".encode()).digest()
    order = np.random.Generator(np.random.PCG64(int.from_bytes(digest[:16], "big"))).permutation(len(ids))
    return sorted(ids[i] for i in order[: len(ids) // 2])


def run(
    definition: Mapping,
    results: pd.DataFrame,
    models: pd.DataFrame,
    benchmarks: Mapping[str, Mapping],
    sets: Sequence[Sequence[str]] | None = None,
    sims: int = 400,
    level: float | None = None,
    seed: str = SEED,
) -> list[dict]:
    """One dict per held-out case: {set, model, full, value, interval, sd, covered}; `sets` None: default_sets."""
    level = float(level if level is not None else definition["uncertainty"]["level"])
    rows = aiiq.compute(definition, results, models)["rows"]
    full = {r["model"]: r["value"] for r in rows if r.get("value") is not None and "manual" not in r}
    parts = {r["model"]: {c["id"]: (c["how"], c.get("value")) for c in r["components"]} for r in rows}
    chosen = aiiq.selected(definition, results)
    out = []
    for hidden in sets if sets is not None else default_sets(definition):
        have = sorted({m for m, b in chosen if b in hidden and m in full})
        picked = hidden_half(have, "+".join(hidden), seed)
        if not picked:
            continue
        drop = results["model"].isin(picked) & results["benchmark"].isin(list(hidden))
        reduced = results[~drop]
        rows = aiiq.compute(definition, reduced, models)["rows"]
        board = {r["model"]: r["value"] for r in rows}
        changed = changed_imputations(rows, picked, parts)
        samples, *_ = aiiq_samples(definition, reduced, benchmarks, sims, level, models=models)
        apart, *_ = aiiq_samples(
            definition, reduced, benchmarks, sims, level, models=models, measure=False, only=changed
        )
        out += cases("+".join(hidden), picked, full, board, {"total": samples, "hidden": apart}, level)
    return out


def changed_imputations(
    rows: Sequence[Mapping], picked: Sequence[str], parts: Mapping[str, Mapping]
) -> frozenset[tuple[str, str]]:
    """(model, component) of the imputed values that hiding changed: imputed in the reduced data's `rows` of the
    picked models, and observed or different in the full data's `parts` ({model: {component: (how, value)}}). Only
    they can set the recomputed composite apart from the full one (which shares every measured value and every
    other imputed value), so only they are drawn."""
    return frozenset(
        (r["model"], c["id"])
        for r in rows
        if r["model"] in picked
        for c in r["components"]
        if c["how"] == "imputed" and parts[r["model"]].get(c["id"]) != ("imputed", c.get("value"))
    )


def cases(
    name: str,
    picked: Sequence[str],
    full: Mapping[str, float],
    board: Mapping[str, float | None],
    draws: Mapping[str, Mapping[str, np.ndarray]],
    level: float,
) -> list[dict]:
    """A case per picked model with a composite on the reduced `board` and draws: its set, the full-data and the
    recomputed composite, and per kind of draws ("total", "hidden": {model: draws}) an `interval_case`."""
    out = []
    for m in picked:
        if m not in draws["total"] or board.get(m) is None:
            continue  # no composite without the hidden scores
        case = {"set": name, "model": m, "full": full[m], "value": board[m]}
        for kind, by_model in draws.items():
            case[kind] = interval_case(by_model[m], full[m], level)
        out.append(case)
    return out


def interval_case(draws: np.ndarray, full: float, level: float) -> dict:
    """The draws' interval at the level, their sd, and whether the interval holds `full` (to 1e-9)."""
    lo, hi = quantile_interval(draws[:, None], level)[:, 0].tolist()
    return {"interval": [lo, hi], "sd": float(np.std(draws)), "covered": lo - 1e-9 <= full <= hi + 1e-9}


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact binomial interval of k successes in n, by bisection on the binomial tail (no scipy)."""
    tail = (1 - level) / 2

    def cdf(p: float, upto: int) -> float:  # P(X <= upto) for X ~ Binomial(n, p)
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(upto + 1))

    def solve(f: Callable[[float], bool]) -> float:
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) else (lo, mid)
        return (lo + hi) / 2

    low = 0.0 if k == 0 else solve(lambda p: 1 - cdf(p, k - 1) < tail)  # P(X >= k) < tail: p too small
    high = 1.0 if k == n else solve(lambda p: cdf(p, k) > tail)  # P(X <= k) > tail: p too small
    return low, high


def summary(cases: Sequence[Mapping], sims: int, which: str = "hidden") -> dict:
    """Coverage of one kind of interval (`which`: "hidden" or "total"; share and exact 95% binomial interval),
    the median |error| / sd, and the cases per set."""
    cases = [{**c, **c[which]} for c in cases]
    n = len(cases)
    k = sum(1 for c in cases if c["covered"])
    ratios = [abs(c["value"] - c["full"]) / c["sd"] for c in cases if c["sd"] > 0]
    per_set: dict[str, list[int]] = {}
    for c in cases:
        per_set.setdefault(c["set"], [0, 0])
        per_set[c["set"]][0] += 1
        per_set[c["set"]][1] += bool(c["covered"])
    return {
        "cases": n,
        "covered": k,
        "coverage": k / n if n else None,
        "coverage_interval": list(clopper_pearson(k, n)) if n else None,
        "median_standardised_error": float(np.median(ratios)) if ratios else None,
        "rmse": float(np.sqrt(np.mean([(c["value"] - c["full"]) ** 2 for c in cases]))) if n else None,
        "simulations": sims,
        "per_set": {s: {"cases": a, "covered": b} for s, (a, b) in sorted(per_set.items())},
    }
