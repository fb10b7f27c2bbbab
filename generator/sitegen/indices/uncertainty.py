"""Uncertainty: an interval on every value, propagated into composite indices, rank intervals and tiers.

Three stages, each a pure function of the boards, the selected results and the methodology files:

1. Every benchmark value gets a *spread*, labelled with its method (`interval_how`):
   `published` - the source's own interval (ci_low/ci_high, read as a central 95% interval) or standard error;
   `derived`   - the binomial model with the benchmark's question count from methodology/benchmarks.yaml
                 (n = questions; repeats average out the model's sampling noise, not the question set's);
   none        - neither exists: `interval` is null and `interval_reason` says why. Nothing is invented.
2. Composite indices (weighted-mean, ai-iq, ai-eq) draw every component from its spread and run the index's own
   function on the whole draws x models array at once (`index_values` in aa.py, eq.py, aiiq.py: the board's
   values are the same function on the undisturbed values, one draw, so the two cannot drift). Imputed
   components carry their rule's error, calibrated out of fold on held-out cases (`imputation_calibration`:
   min-of-two per benchmark and dimension, family match per benchmark): its measured bias, a term shared by every
   model the rule imputes and one of each model's own. AI IQ rows also get the interval of measurement error alone
   (`interval_measurement`); elsewhere the two are the same draws.
3. Ranks are recomputed in every draw: a rank interval is the central `level` range of a model's rank, and tiers
   are formed greedily from the top (a tier ends at the worst rank its leader takes). Every simulated bound carries
   its Monte-Carlo error, and a value bound is published to the decimal place that error supports (mcerror.py).

Determinism: each (board, model, component) has its own stream, seeded by sha256 of those ids, so runs and
machines agree and adding a model never moves another model's draws.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from statistics import NormalDist
from typing import cast

import numpy as np
import pandas as pd

from ..known import known
from . import aa, aiiq, eq, mcerror, simcache
from .aiiq import Scores, family_relatives, first_row
from .parts import interpolate, interpolate_rows, nearest_rank

PUBLISHED, DERIVED = "published", "derived"
NO_SPREAD = "none of the components this value is computed from has an interval, so it has none either"
#: Said on every board whose rows are drawn one by one from their own intervals (benchmark boards, HLE, Pedagogy).
INDEPENDENT = (
    "Rank ranges and tiers on this board are conservative: every model is drawn independently from its "
    "own interval, although all models answer the same questions. No per-question results are used, so "
    "the draws cannot move together where a question set is harder or easier for all models; differences "
    "between models are less uncertain than independent draws make them, and the rank ranges are wider "
    "than they would be."
)


# --------------------------------------------------------------------------------------------------- streams

#: Appended to every stream's keys while a `seed_salt()` block runs ("" outside: the published seeds).
_SALT = ""


@contextlib.contextmanager
def seed_salt(salt: str) -> Iterator[None]:
    """Within the block every stream gets other, equally seeded numbers (its keys plus `salt`): what measures how
    far a bound moves between seeds (indices/mcerror.py, tools/mc_seeds.py). The published build never sets it."""
    global _SALT
    outer = _SALT
    _SALT = str(salt)
    try:
        yield
    finally:
        _SALT = outer


def current_salt() -> str:
    """The salt of the `seed_salt()` block that runs ("" outside one)."""
    return _SALT


def stream(*keys: str) -> np.random.Generator:
    """A generator seeded by sha256 of the keys (never Python's salted hash()): the same on every machine."""
    digest = hashlib.sha256("\x1f".join(keys + ((_SALT,) if _SALT else ())).encode("utf-8")).digest()
    return np.random.Generator(np.random.PCG64(int.from_bytes(digest[:16], "big")))


def level_text(level: float) -> str:
    """A central coverage as every label writes it: 0.95 -> "95%", 0.8 -> "80%", 0.975 -> "97.5%"."""
    return f"{round(100 * float(level), 6):g}%"


def interval_level(definition: Mapping) -> float | None:
    """The level of a board's value intervals. The rows of HLE and the Pedagogy boards carry their source's own
    interval (HLE's Wald at `accuracy.ci_level`, the paper's question bootstrap at `bootstrap.ci_level`); every
    other board's intervals are at `uncertainty.level`. None without either."""
    owners: dict[object, str] = {"hle": "accuracy", "pedagogy": "bootstrap"}
    own = owners.get(definition.get("kind"))
    if own and (definition.get(own) or {}).get("ci_level") is not None:
        return float(definition[own]["ci_level"])
    cfg = definition.get("uncertainty")
    return float(cfg["level"]) if cfg else None


@functools.cache
def z_of(level: float) -> float:
    """The two-sided normal quantile for a central `level` interval (1.959964 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


# --------------------------------------------------------------------------------------------- value spreads


def question_count(bench: Mapping | None, source: str | None) -> dict | None:
    """The `questions` entry for a result's source: one naming the source, else the entry naming none."""
    entries = (bench or {}).get("questions") or []
    for e in entries:
        if source in (e.get("sources") or []):
            return e
    return next((e for e in entries if not e.get("sources")), None)


def wilson(p: float, n: int, z: float) -> tuple[float, float]:
    """Wilson score interval of a proportion (stays inside 0..1 and is not empty at p = 0 or 1)."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _published_interval(rec: Mapping, value: float, lo: float, hi: float, z: float, scale: Mapping) -> dict:
    """spread of a value with the source's own 95% interval [lo, hi]."""
    # Exempt from `level`: ci_low/ci_high are the source's own 95% interval (the `ci95` field), so the reason
    # quotes the source's 95%; the interval shown is rescaled to `level`. Sources publish 95% intervals; each side becomes a normal half with its own sd (LMArena's are skewed).
    # An interval that misses its own value (rounding) is drawn symmetric, with the same width.
    z95 = z_of(0.95)
    sd_lo, sd_hi = ((value - lo) / z95, (hi - value) / z95) if lo <= value <= hi else ((hi - lo) / (2 * z95),) * 2
    return {
        "interval": [value - z * sd_lo, value + z * sd_hi],
        "interval_how": PUBLISHED,
        "interval_reason": f"{rec.get('source')}'s published 95% interval"
        + ("" if lo <= value <= hi else ", re-centred on the value, which lies outside it"),
        "draw": ("split-normal", value, sd_lo, sd_hi, scale.get("min"), scale.get("max")),
    }


def _binomial_interval(value: float, n: int, z: float, counted: str) -> dict:
    """spread of a percentage over n questions (`counted` names them): the Wilson interval, each side a normal
    half."""
    p = value / 100
    low, high = wilson(p, n, z)
    sd_lo, sd_hi = (p - min(low, p)) * 100 / z, (max(high, p) - p) * 100 / z
    return {
        "interval": [100 * low, 100 * high],
        "interval_how": DERIVED,
        "interval_reason": f"binomial, n = {n} {counted}, Wilson interval",
        "draw": ("split-normal", value, sd_lo, sd_hi, 0.0, 100.0),
    }


def spread(rec: Mapping, bench: Mapping | None, level: float = 0.95) -> dict:
    """How uncertain one selected value is: the interval to report and what to draw in simulations.

    Returns {"interval", "interval_how", "interval_reason", "draw"}; draw is None (held fixed) or
    ("split-normal", value, sd below, sd above, scale min, scale max): a normal half on each side of the value
    whose sd is that side's half-width / z, clipped to the scale, so that draws reproduce the reported interval
    (a skewed published interval, or the Wilson interval, which stays off 0 and 100).
    """
    value = known(rec.get("value"))
    z = z_of(level)
    lo, hi, se = known(rec.get("ci_low")), known(rec.get("ci_high")), known(rec.get("stderr"))
    scale = (bench or {}).get("scale") or {}
    if value is None:
        return _none("no value")
    if lo is not None and hi is not None and lo <= hi:
        return _published_interval(rec, value, lo, hi, z, scale)
    if se is not None and se >= 0:
        return {
            "interval": _clip([value - z * se, value + z * se], scale),
            "interval_how": PUBLISHED,
            "interval_reason": f"± {z:.2f} × {rec.get('source')}'s published standard error",
            "draw": ("split-normal", value, se, se, scale.get("min"), scale.get("max")),
        }
    count = known(rec.get("n"))
    entry = None if count else question_count(bench, rec.get("source"))
    n = int(count) if count else (entry or {}).get("count")
    unit = (entry or {}).get("unit") or "questions"
    if n and scale.get("unit") == "percent" and scale.get("max") == 100 and 0 <= value <= 100:
        return _binomial_interval(value, n, z, f"{unit}{repeats_note(entry)}")
    if n:
        return _none(f"{n} {unit}, but the value is not a percentage, so the binomial model does not apply")
    return _none(f"{rec.get('source')} publishes no interval or standard error, and {unknown_size(bench)}")


def repeats_note(entry: Mapping | None) -> str:
    """What the reason says of repeated runs: they average out run-to-run noise but are not more questions."""
    reps = (entry or {}).get("repeats")
    return f" ({reps} repeats of each, which are not more questions: n is not multiplied)" if reps and reps > 1 else ""


def unknown_size(bench: Mapping | None) -> str:
    """Why a value has no binomial interval, and what that leaves out (never a silent zero)."""
    why = (bench or {}).get("questions_unknown")
    size = (
        f"the number of questions is not known ({why.rstrip('.')})"
        if why
        else "methodology/benchmarks.yaml declares no question count"
    )
    return f"{size}: its question-sampling error is left out, so no interval is given"


def _owned_spread(row: Mapping, row_level: float) -> dict:
    """spread()'s answer for a value whose interval an index computed: that interval, drawn exactly as
    rank_from_row_intervals draws it on the index board (a normal half on each side, sd = half-width / z of its
    level, clipped only where the interval reaches 0 or 100; held fixed when the interval misses the value)."""
    value, (lo, hi), z = float(row["value"]), row["interval"], z_of(row_level)
    # Exempt from `level`: a published interval is the source's own (read as 95%, as spread() reads it).
    reason = row.get("interval_reason") or f"{row.get('source')}'s published 95% interval"
    draw = (
        ("split-normal", value, (value - lo) / z, (hi - value) / z, lo if lo == 0 else None, hi if hi == 100 else None)
        if lo <= value <= hi and z > 0
        else None
    )
    return {
        "interval": [float(lo), float(hi)],
        "interval_how": row.get("interval_how"),
        "interval_reason": reason,
        "draw": draw,
    }


def _none(reason: str) -> dict:
    return {"interval": None, "interval_how": None, "interval_reason": reason, "draw": None}


def _clip(interval: list[float], scale: Mapping) -> list[float]:
    lo, hi = interval
    if scale.get("min") is not None:
        lo = max(lo, float(scale["min"]))
    if scale.get("max") is not None:
        hi = min(hi, float(scale["max"]))
    return [lo, hi]


def transform(specs: Sequence[tuple], z: np.ndarray) -> np.ndarray:
    """Standard normals (draws x values) -> draws of each value from its split-normal spread, all at once."""
    table = np.array(
        [[s[1], s[2], s[3], -np.inf if s[4] is None else s[4], np.inf if s[5] is None else s[5]] for s in specs],
        dtype=float,
    ).reshape(-1, 5)
    value, sd_lo, sd_hi, lo, hi = table.T
    out = np.where(z < 0, sd_lo, sd_hi)  # value + z * sd, clipped, in one array (the same numbers, in place)
    out *= z
    out += value
    return np.clip(out, lo, hi, out=out)


#: While a `kept_normals()` block runs: (board_id, *key, sims) -> that stream's standard normals, made once.
_KEPT: dict | None = None
#: While a `kept_normals()` block runs: what spread() gives a value (spread_of), by what it reads, and an anchor
#: table's value at a bound (_mapped_bound).
_SPECS: dict | None = None
#: While a `kept_normals()` block runs: {board id: the implied IQ draws its AI IQ simulations keep (MappedDraws)}.
_MAPPED: dict | None = None


@contextlib.contextmanager
def kept_normals() -> Iterator[None]:
    """Within the block, each stream's standard normals are drawn once and copied from then on, and each selected
    value's draw (draw_spec) is worked out once. A stream's draws depend only on its ids and the number of
    simulations (never on a date or on the other rows), and a draw only on the value's own fields, so the as-of
    engine, which simulates the same (board, model, component) streams month after month, gets the same numbers
    from a copy; and each AI IQ simulation takes the implied IQ draws of the values the board's previous one mapped
    (MappedDraws). Outside any block nothing is kept."""
    global _KEPT, _SPECS, _MAPPED
    outer, outer_specs, outer_mapped = _KEPT, _SPECS, _MAPPED
    _KEPT = {} if outer is None else outer
    _SPECS = {} if outer_specs is None else outer_specs
    _MAPPED = {} if outer_mapped is None else outer_mapped
    try:
        yield
    finally:
        _KEPT, _SPECS, _MAPPED = outer, outer_specs, outer_mapped


def _known(x: object) -> float | None:
    """known(x), a finite float or None answered without a call (NaN and the infinities give x - x != 0)."""
    if type(x) is float:
        return x if x - x == 0.0 else None
    return None if x is None else known(x)


def draw_spec(rec: Mapping, bench: Mapping | None, level: float) -> tuple[tuple | None, str | None]:
    """(spread's `draw`, its `interval_how`) for one selected value (spread_of)."""
    s = spread_of(rec, bench, level)
    return s["draw"], s["interval_how"]


def spread_of(rec: Mapping, bench: Mapping | None, level: float) -> Mapping:
    """spread(rec, bench, level). Inside a `kept_normals()` block each is worked out once per set of what spread()
    reads (the value's known numbers and source, the benchmark entry, the level) and shared: callers read it and
    never change it (nor the interval list it holds)."""
    memo = _SPECS
    if memo is None:
        return spread(rec, bench, level)
    value = _known(rec.get("value"))
    key = (
        id(bench),
        level,
        value,
        None if value is None else math.copysign(1.0, value),  # -0.0 and 0.0 are equal keys, not equal draws
        _known(rec.get("ci_low")),
        _known(rec.get("ci_high")),
        _known(rec.get("stderr")),
        _known(rec.get("n")),
        rec.get("source"),
    )
    found = memo.get(key)
    if found is None or found[0] is not bench:
        found = memo[key] = (bench, spread(rec, bench, level))  # bench held: its id is not reused meanwhile
    return found[1]


def _mapped_bound(anchors: Sequence[Sequence[float]], x: float) -> float:
    """interpolate(anchors, x); inside a `kept_normals()` block worked out once per table and number (the table
    held, so its id is not reused meanwhile; -0.0 is told from 0.0)."""
    memo = _SPECS
    if memo is None:
        return interpolate(anchors, x)
    key = ("bound", id(anchors), x, math.copysign(1.0, x))
    found = memo.get(key)
    if found is None or found[0] is not anchors:
        found = memo[key] = (anchors, interpolate(anchors, x))
    return found[1]


def normals(board_id: str, keys: Sequence[Sequence[str]], sims: int, keep: bool = True) -> np.ndarray:
    """draws x len(keys) standard normals, column j from the stream of (board_id, *keys[j]); keep=False neither
    reads nor adds to the `kept_normals()` block's copies (the caller keeps what it makes of them: MappedDraws)."""
    out = np.empty((len(keys), sims), dtype=np.float32)  # one contiguous row per stream, returned transposed
    kept = _KEPT if keep else None
    for j, key in enumerate(keys):
        if kept is None:
            out[j] = stream(board_id, *key).standard_normal(sims, dtype=np.float32)
            continue
        name = (board_id, *key, sims, _SALT)
        row = kept.get(name)
        if row is None:
            row = kept[name] = stream(board_id, *key).standard_normal(sims, dtype=np.float32)
        out[j] = row  # a copy: callers may change `out`, never the kept draws
    return out.T


# ------------------------------------------------------------------------------------------------ ranks, tiers


def competition_ranks(values: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Competition ranks ("1224") within each row of a draws x models array, all rows at once."""
    key = -values if higher_is_better else values
    order = np.argsort(key, axis=1)  # tied values get the same rank below, so the sort need not be stable
    ordered = np.take_along_axis(key, order, axis=1)
    m = values.shape[1]
    new = np.ones(ordered.shape, dtype=bool)
    new[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    first = np.maximum.accumulate(np.where(new, np.arange(1, m + 1, dtype=np.int32), np.int32(0)), axis=1)
    ranks = np.empty_like(first)
    np.put_along_axis(ranks, order, first, axis=1)
    return ranks


def rank_intervals(ranks: np.ndarray, level: float) -> list[list[int]]:
    """Per model, the central `level` range of its simulated ranks (inverted-CDF quantiles: whole ranks)."""
    return mcerror.rank_bounds(ranks, level)[0]  # the tail exact: (1 - 0.95) / 2 in floats is 0.025000000000000022


def tiers(point_ranks: Sequence[int], intervals: Sequence[Sequence[int]]) -> list[int]:
    """Greedy tiers from the top: the best unassigned row leads; its tier holds every row whose rank is at most
    the worst rank the leader takes (at least the leader itself). Inputs are in point-rank order."""
    out = [0] * len(point_ranks)
    tier, i = 0, 0
    while i < len(point_ranks):
        tier += 1
        end = max(intervals[i][1], point_ranks[i])
        while i < len(point_ranks) and point_ranks[i] <= end:
            out[i] = tier
            i += 1
    return out


def rank_draws(ranks: np.ndarray) -> np.ndarray:
    """models x draws: each model's simulated rank in every draw, as one contiguous row per model (what the
    compare page compares: in a draw, a is ahead of b when a's rank is smaller, and they tie when it is equal).

    `ranks` is draws x models of competition ranks (competition_ranks: a better value has a smaller rank, equal
    values share one). The rows are kept in the smallest unsigned type that holds the ranks (uint16 below 65,536
    ranked rows): linear in models x draws, where counting every pair that overlaps grows with the square of the
    models (87 million pairs at 20,000 synthetic models)."""
    dtype = np.uint16 if int(ranks.max(initial=0)) < 2**16 else np.uint32
    return np.ascontiguousarray(ranks.T, dtype=dtype)


def quantile_interval(samples: np.ndarray, level: float) -> np.ndarray:
    """2 x models: the central `level` interval of each column, numpy's linear quantile (mcerror.quantile_interval)."""
    return mcerror.quantile_interval(samples, level)


# ------------------------------------------------------------------------------------------ component draws


#: What MappedDraws keeps of a board's implied IQ draws at most (128 MiB: every column of the real data's AI IQ).
MAPPED_BUDGET = 128 * 2**20


class MappedDraws:
    """AI IQ's implied IQ draws of its measured values, one column per (model, benchmark, draw, anchor table):
    what the measured-only and the total run of one simulation share, and what the board's later simulations (the
    next as-of months, inside a `kept_normals()` block) take again for every value that did not change. A column
    comes from its own stream and its value's draw (draw_spec) alone, so a kept column holds the numbers drawing
    it again would give. Columns are kept (`kept`) up to MAPPED_BUDGET; once it is full, a column made is not
    kept, and after a simulation (`prune`) those it did not read are dropped. One MappedDraws serves one
    simulation (the same selected values of the same models): `plans` holds each benchmark's columns and draws
    (Components._plan) for its second run."""

    def __init__(self, kept: dict[tuple, np.ndarray] | None = None, sims: int = 1):
        self.kept: dict[tuple, np.ndarray] = {} if kept is None else kept
        self.most = max(MAPPED_BUDGET // (8 * max(sims, 1)), 1)
        self.read: set[tuple] = set()
        self.plans: dict[tuple[str, bool], tuple] = {}
        self._tables: dict[tuple[str, int], tuple] = {}

    def table(self, anchors: Sequence[Sequence[float]], sims: int) -> tuple:
        """An anchor table, the number of draws and the seeds' salt as a key (its text: the table is a list)."""
        key = (repr(anchors), sims)
        if key not in self._tables:
            self._tables[key] = (*key, _SALT)
        return self._tables[key]

    def get(self, key: tuple) -> np.ndarray | None:
        column = self.kept.get(key)
        if column is not None:
            self.read.add(key)
        return column

    def put(self, key: tuple, column: np.ndarray) -> np.ndarray:
        """A copy of `column` (never a view of a larger array), kept under `key` while the budget allows."""
        copy = np.array(column, dtype=float)
        if len(self.kept) < self.most:
            self.kept[key] = copy
            self.read.add(key)
        return copy

    def prune(self) -> None:
        """When the budget is full, drop the columns this simulation did not read."""
        if len(self.kept) >= self.most:
            for key in [k for k in self.kept if k not in self.read]:
                del self.kept[key]


class Components:
    """Draws of one board's components, and per model which components were drawn how (for the reason)."""

    def __init__(self, board_id: str, models: Sequence[str], sims: int, level: float):
        self.board_id, self.models, self.sims, self.level = board_id, list(models), sims, level
        self.fixed: dict[str, list[str]] = {m: [] for m in self.models}
        self.methods: dict[str, dict[str, int]] = {m: {} for m in self.models}
        self.chosen: Mapping = {}  # (model, benchmark) -> the selected result each component was drawn from
        self.shift: dict[tuple[str, str], float] = {}  # (model, benchmark) -> points added before mapping
        self.bounds: dict[tuple[str, str], list[float]] = {}  # (model, component) -> simulated interval
        self.measurement: dict[str, np.ndarray] = {}  # model -> draws with measurement error alone (AI IQ)

    def matrix(
        self, component: str, values: Mapping[str, Mapping], benchmark: Mapping | None, noise: bool = True
    ) -> np.ndarray:
        """draws x models of one component from the selected results {model: record}; NaN where absent."""
        out = np.full((self.sims, len(self.models)), np.nan)
        cols, drawn = self.columns(component, values, benchmark, noise)
        out[:, cols] = drawn
        return out

    def columns(
        self, component: str, values: Mapping[str, Mapping], benchmark: Mapping | None, noise: bool = True
    ) -> tuple[np.ndarray, np.ndarray]:
        """(the columns of the models with a value, draws x those columns): `matrix` without its absent models."""
        cols, fixed, drawn, specs, notes = self._plan(component, values, benchmark, noise)
        self._note(component, notes)
        z = normals(self.board_id, [(self.models[cols[k]], component) for k in drawn], self.sims) if drawn else None
        if len(drawn) == len(cols) and drawn:  # every column drawn: the draws are the array (no copy)
            return np.array(cols, dtype=np.intp), transform(specs, cast(np.ndarray, z))  # drawn: z was made
        out = np.empty((self.sims, len(cols)), order="F")  # column by column: each model's draws contiguous
        for k, value in fixed:
            out[:, k] = value
        if drawn:
            out[:, drawn] = transform(specs, cast(np.ndarray, z))  # drawn: z was made
        return np.array(cols, dtype=np.intp), out

    def mapped_columns(
        self,
        component: str,
        values: Mapping[str, Mapping],
        benchmark: Mapping | None,
        anchors: Sequence[Sequence[float]],
        mapped: MappedDraws,
        noise: bool = True,
    ) -> tuple[np.ndarray, np.ndarray]:
        """`columns` mapped through the anchor table (parts.interpolate_rows: element by element, so a column's
        numbers do not depend on the others'), each drawn column taken from `mapped` when it holds that stream's
        draw through that table, else drawn, mapped and added to it."""
        plan = mapped.plans.get((component, noise))
        if plan is None:  # the simulation's first run to read this benchmark; the second reads the same values
            plan = mapped.plans[(component, noise)] = self._plan(component, values, benchmark, noise)
        self._note(component, plan[4])
        cols, fixed, drawn, specs, _ = plan
        out = np.empty((self.sims, len(cols)), order="F")  # column by column: each model's draws contiguous
        if fixed:
            held = interpolate_rows(anchors, np.array([value for _, value in fixed], dtype=float))
            for (k, _), iq in zip(fixed, held.tolist()):
                out[:, k] = iq
        # A draw is its key as it is: draws that are equal (==) but for the sign of a zero map to the same numbers
        # (np.interp gives -0.0 and 0.0 the same IQ, and nothing else in a draw tells them apart).
        table = mapped.table(anchors, self.sims)
        keys = [(self.models[cols[k]], component, spec, table) for k, spec in zip(drawn, specs)]
        missing = []
        for i, (k, key) in enumerate(zip(drawn, keys)):
            column = mapped.get(key)
            if column is None:
                missing.append(i)
            else:
                out[:, k] = column
        if missing:
            z = normals(self.board_id, [keys[i][:2] for i in missing], self.sims, keep=False)
            iqs = interpolate_rows(anchors, transform([specs[i] for i in missing], z))
            for n, i in enumerate(missing):
                out[:, drawn[i]] = mapped.put(keys[i], iqs[:, n])
        return np.array(cols, dtype=np.intp), out

    def _plan(self, component: str, values: Mapping[str, Mapping], benchmark: Mapping | None, noise: bool) -> tuple:
        """(the columns of the models with a value, (place among them, value) of those held fixed, the places of
        those drawn, their draws, and what `_note` notes of them for the rows' reasons)."""
        cols: list[int] = []
        fixed: list[tuple[int, float]] = []
        drawn: list[int] = []
        specs: list[tuple] = []
        undrawn: list[str] = []  # the models whose value has no draw to be had
        methods: list[tuple[str, str]] = []  # (model, method) of each value drawn
        for j, model in enumerate(self.models):
            rec = values.get(model)
            if rec is None or _known(rec.get("value")) is None:
                continue
            draw, how = draw_spec(rec, benchmark, self.level)
            cols.append(j)
            if draw is None or not noise:
                fixed.append((len(cols) - 1, float(rec["value"])))
                if draw is None:
                    undrawn.append(model)
                continue
            methods.append((model, cast(str, how)))  # spread() gives a draw only with its method
            drawn.append(len(cols) - 1)
            specs.append(draw)
        return cols, fixed, drawn, specs, (undrawn, methods)

    def _note(self, component: str, notes: tuple[list[str], list[tuple[str, str]]]) -> None:
        """Each model's components held fixed and the methods its components were drawn by (for its reason)."""
        undrawn, methods = notes
        for model in undrawn:
            self.fixed[model].append(component)
        for model, how in methods:
            self.methods[model][how] = self.methods[model].get(how, 0) + 1

    def imputation_noise(self, component: str, cols: np.ndarray, fit: Mapping, rule: str = "imputation") -> np.ndarray:
        """draws x len(cols): a rule's error on one component for the models in `cols`, from its held-out fit
        (fit_errors): one N(0, se) term per draw shared by every model the rule imputes there (the error of its
        bias, common to them all, so it does not cancel in comparisons), plus an independent N(0, sd) term per
        model. Each rule has its own streams (the min-of-two rules' are named "imputation"); the shared one is
        (board, "shared", component, rule), so it is the same for every model in every draw."""
        out = np.zeros((self.sims, len(cols)), order="F")  # the normals come one stream per column
        if fit.get("sd"):
            keys = [(self.models[j], component, rule) for j in cols]
            for start in range(0, len(keys), BLOCK):  # the normals of a block of columns at a time: the same sums
                out[:, start : start + BLOCK] += fit["sd"] * normals(
                    self.board_id, keys[start : start + BLOCK], self.sims
                )
        if fit.get("se"):
            out += fit["se"] * normals(self.board_id, [("shared", component, rule)], self.sims)
        return out

    def reason(self, model: str, extra: str = "") -> str:
        """Short, per row: how the components were drawn (the board's `uncertainty` says the method)."""
        parts = [f"{n} {how}" for how, n in sorted(self.methods[model].items())]
        text = f"simulated from component intervals: {', '.join(parts) or 'none'}"
        if self.fixed[model]:
            whose = "its" if len(self.fixed[model]) == 1 else "their"
            text += (
                f"; none to be had for {', '.join(self.fixed[model])} (held fixed: {whose} measurement error is "
                "left out, so the interval is too narrow)"
            )
        return text + extra


def _settings(definition: Mapping) -> tuple[int, float] | None:
    cfg = definition.get("uncertainty")
    return (int(cfg["simulations"]), float(cfg["level"])) if cfg else None


# ------------------------------------------------------------------------------------ weighted mean (AA)


def weighted_mean_samples(
    definition: Mapping,
    results: pd.DataFrame,
    benchmarks: Mapping[str, Mapping],
    sims: int,
    level: float,
    noise: bool = True,
) -> tuple[dict, Components]:
    """{model: draws} for every model with all constituents in the snapshot (the rows the index computes): the
    board's own function (aa.index_values) on the constituents' draws."""
    chosen = aa.selected(definition, results)
    complete = aa.complete_models(definition, chosen)
    comps = Components(definition["id"], complete, sims, level)
    constituents = {c["benchmark"] for c in definition["constituents"]}
    comps.chosen = {k: rec for k, rec in chosen.items() if k[1] in constituents}  # not the published index
    draws = (
        comps.matrix(
            c["benchmark"], {m: chosen[(m, c["benchmark"])] for m in complete}, benchmarks.get(c["benchmark"]), noise
        )
        for c in definition["constituents"]
    )
    values = aa.index_values(definition, draws)  # one constituent's draws alive at a time
    return {m: values[:, j] for j, m in enumerate(complete)}, comps


# ------------------------------------------------------------------------------------------------- AI EQ


def eq_samples(
    definition: Mapping,
    results: pd.DataFrame,
    models: pd.DataFrame,
    benchmarks: Mapping[str, Mapping],
    sims: int,
    level: float,
    noise: bool = True,
) -> tuple[dict, Components]:
    """{model: draws} of the EQ: the board's own function (eq.index_values) on the Elo draws."""
    from .parts import model_lookup

    chosen = eq.selected(definition, results)
    people = model_lookup(models)
    model_ids = sorted({m for m, _ in chosen})
    comps = Components(definition["id"], model_ids, sims, level)
    comps.chosen = chosen
    for c in definition["components"]:  # the Elo points the component intervals are moved by before mapping
        bid = c["benchmark"]
        shift = np.zeros(len(model_ids))
        for a, mask in eq.applied(definition, bid, model_ids, people):
            shift += np.where(mask, float(a["elo_delta"]), 0.0)
        comps.shift.update({(m, bid): float(shift[j]) for j, m in enumerate(model_ids)})
    elos = (
        comps.matrix(
            c["benchmark"],
            {m: chosen[(m, c["benchmark"])] for m in model_ids if (m, c["benchmark"]) in chosen},
            benchmarks.get(c["benchmark"]),
            noise,
        )
        for c in definition["components"]
    )
    values, _ = eq.index_values(definition, elos, model_ids, people)
    return {m: values[:, j] for j, m in enumerate(model_ids)}, comps


# ------------------------------------------------------------------------------------------------- AI IQ


class DrawnOnRead(Mapping):
    """{benchmark: (columns, draws)} whose draws are made when a benchmark is read, and not kept: AI IQ's arrays
    read each benchmark once, one dimension at a time, so only one dimension's raw draws are alive at once.
    A second read of a benchmark is an error (it would count the benchmark's draws in Components twice)."""

    def __init__(self, makers: Mapping[str, Callable[[], tuple[np.ndarray, np.ndarray]]]):
        self._makers, self._ids = dict(makers), list(makers)

    def __getitem__(self, bid: str) -> tuple[np.ndarray, np.ndarray]:
        return self._makers.pop(bid)()

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


def aiiq_raw(
    definition: Mapping,
    chosen: Mapping,
    model_ids: Sequence[str],
    comps: Components,
    benchmarks: Mapping[str, Mapping],
    noise: bool = True,
    mapped: MappedDraws | None = None,
) -> Scores:
    """Implied IQs per benchmark, of the models that have it: comps' draws mapped through the benchmark's anchor
    table, made when aiiq.index_values reads each benchmark (DrawnOnRead), in the order of this loop; a column
    `mapped` holds is taken from it (Components.mapped_columns)."""
    mapped = MappedDraws() if mapped is None else mapped
    by = {}
    for d in definition["dimensions"]:
        for b in d["benchmarks"]:
            bid = b["benchmark"]
            values = {m: chosen[(m, bid)] for m in model_ids if (m, bid) in chosen}
            by[bid] = functools.partial(
                comps.mapped_columns, bid, values, benchmarks.get(bid), b["anchors"], mapped, noise
            )
    return Scores(len(model_ids), comps.sims, DrawnOnRead(by), mapped=True)


# ------------------------------------------------------------------------ AI IQ: imputation error, out of fold

CALIBRATION_FOLDS = 5
CALIBRATION_SEED = "ai-iq imputation calibration"
#: A rule x component needs this many held-out cases for an estimate: with fewer, its sd is no estimate (two
#: SWE-bench Verified family-match cases gave 0.06 IQ) and the row says its imputed value is not widened.
MIN_CASES = 5


def fit_errors(err: np.ndarray) -> dict:
    """What the simulation takes from held-out errors (imputed - observed): cases, bias (their mean), se (the
    standard error of that mean, sd / sqrt(cases)) and sd (their sample standard deviation about the mean, one
    degree of freedom taken by the bias). None where the cases are too few (MIN_CASES)."""
    err = np.asarray(err, float)
    n = int(err.size)
    if n < MIN_CASES:
        return {"cases": n, "bias": float(err.mean()) if n else None, "se": None, "sd": None}
    sd = float(err.std(ddof=1))
    return {"cases": n, "bias": float(err.mean()), "se": sd / math.sqrt(n), "sd": sd}


def calibrated_centre(
    base: np.ndarray | float,
    bias: float | np.ndarray,
    seen: Sequence[float],
    fitted: Sequence[float] | None = None,
) -> np.ndarray:
    """The rule's value moved by its measured bias (base - bias: an error is imputed - observed), only where the
    bias was measured: a value outside the range of the rule's values on its held-out cases (`fitted`, [low,
    high]) is not moved (no bias correction is extrapolated), and a moved value never leaves the range of the
    cases' observed values (`seen`); a value already outside that range is not moved further out."""
    base = np.asarray(base, float)
    if base.ndim == 0 or np.ndim(bias) != 0:  # one value, or a bias per value
        if fitted is not None:
            bias = np.where((base >= fitted[0]) & (base <= fitted[1]), bias, 0.0)
        return np.clip(base - bias, np.minimum(seen[0], base), np.maximum(seen[1], base))
    # draws x values and one bias: moved in a copy, in place, where it applies (elsewhere the copy is base, as
    # base - 0.0 is to the bit), then clipped in place: the same numbers with three fewer arrays of that size
    out = np.array(base)
    np.subtract(out, bias, out=out, where=True if fitted is None else (base >= fitted[0]) & (base <= fitted[1]))
    return _clip_around(out, base, seen[0], seen[1])


#: Columns of a draws x values array worked on at once where a whole-array temporary is not needed
#: (`_clip_around`, `Components.imputation_noise`): each element's number is its own, so working a block at a
#: time gives the same numbers with temporaries a block wide (AI IQ's imputed values of 20,000 models are 160 MB
#: an array).
BLOCK = 256


def _clip_around(out: np.ndarray, base: np.ndarray, low: float, high: float) -> np.ndarray:
    """np.clip(out, np.minimum(low, base), np.maximum(high, base), out=out), in place, a block of columns at a
    time when `out` and `base` are the same draws x values shape (element by element, so the same numbers)."""
    if out.ndim != 2 or base.shape != out.shape:
        return np.clip(out, np.minimum(low, base), np.maximum(high, base), out=out)
    for start in range(0, out.shape[1], BLOCK):
        part, b = out[:, start : start + BLOCK], base[:, start : start + BLOCK]
        np.clip(part, np.minimum(low, b), np.maximum(high, b), out=part)
    return out


def within(values: np.ndarray, base: np.ndarray, span: Sequence[float], in_place: bool = False) -> np.ndarray:
    """Draws clipped to the anchor table's range `span` (what the table can produce), widened to the rule's own
    value where that lies outside (the board's value is the methodology's and stays). in_place: into `values`."""
    base = np.asarray(base, float)
    if in_place:
        return _clip_around(values, base, span[0], span[1])
    return np.clip(values, np.minimum(span[0], base), np.maximum(span[1], base))


def anchor_ranges(definition: Mapping) -> dict[str, tuple[float, float]]:
    """{benchmark or dimension: (lowest, highest) IQ its anchor tables can produce}; a dimension's spans its
    benchmarks' tables."""
    out = {}
    for d in definition["dimensions"]:
        spans = []
        for b in d["benchmarks"]:
            iqs = [float(a[1]) for a in b["anchors"]]
            out[b["benchmark"]] = (min(iqs), max(iqs))
            spans.append(out[b["benchmark"]])
        out[d["id"]] = (min(s[0] for s in spans), max(s[1] for s in spans))
    return out


def _p80_out_of_fold(values: np.ndarray, idx: np.ndarray, fold: np.ndarray, level: float) -> np.ndarray:
    """For each of `idx`, the P80 of `values` over the models of the other folds (NaN without any)."""
    out = np.full(idx.size, np.nan)
    for f in np.unique(fold[idx]):
        train = values[fold[idx] != f]
        if train.size:
            out[fold[idx] == f] = nearest_rank(train.tolist(), level)
    return out


def _case(
    dimension: str,
    cols: np.ndarray | Sequence[int],
    fold: np.ndarray,
    base: np.ndarray | Sequence[float],
    truth: np.ndarray | Sequence[float],
) -> dict:
    """One rule's held-out cases: {"dimension", "cols", "fold", "base", "truth"}."""
    return {
        "dimension": dimension,
        "cols": np.asarray(cols, int),
        "fold": fold[np.asarray(cols, int)],
        "base": np.asarray(base, float),
        "truth": np.asarray(truth, float),
    }


def _benchmark_cases(
    definition: Mapping,
    d: Mapping,
    raw: Scores,
    point: Mapping,
    relatives: Mapping,
    fold: np.ndarray,
    cases: dict,
) -> None:
    """The benchmark rule's (and where family match runs, the family rule's) held-out cases of dimension d's
    benchmarks, into `cases`."""
    level = definition["percentile"]["level"]
    family_on = aiiq.family_benchmarks(definition)
    iqs = {}
    for b in d["benchmarks"]:
        if b["benchmark"] in point["detail"]["iq"]:  # the models with a real score, their implied IQ
            iq = first_row(point["detail"]["iq"][b["benchmark"]], raw.models)
            iqs[b["benchmark"]] = (iq, ~np.isnan(iq))
    count = sum((mk.astype(int) for _, mk in iqs.values()), np.zeros(raw.models, int))
    total = sum((np.where(mk, iq, 0.0) for iq, mk in iqs.values()), np.zeros(raw.models))
    for bid, (iq, mk) in iqs.items():
        idx = np.flatnonzero(mk)
        p80 = _p80_out_of_fold(iq[idx], idx, fold, level)
        own = (total[idx] - iq[idx]) / np.maximum(count[idx] - 1, 1)
        ok = (count[idx] >= 2) & ~np.isnan(p80)
        cases[("benchmark", bid)] = _case(d["id"], idx[ok], fold, np.minimum(own, p80)[ok], iq[idx][ok])
        if bid in family_on:
            pairs = [(j, sibs) for j, sibs in sorted(relatives.get(bid, {}).items()) if mk[j] and count[j] >= 2]
            cases[("family", bid)] = _case(
                d["id"],
                [j for j, _ in pairs],
                fold,
                [iq[sibs].min() for _, sibs in pairs],
                [iq[j] for j, _ in pairs],
            )


def _dimension_cases(definition: Mapping, raw: Scores, point: Mapping, fold: np.ndarray, cases: dict) -> None:
    """The dimension rule's held-out cases of each imputable dimension, into `cases`."""
    level, min_dims = definition["percentile"]["level"], definition["min_dimensions"]
    dims, plains = ({k: first_row(pair, raw.models) for k, pair in point[key].items()} for key in ("dims", "plain"))
    scored = point["scored"]
    n_scored = sum((s.astype(int) for s in scored.values()), 0)
    for d in definition["dimensions"]:
        if not d["imputable"]:
            continue
        did = d["id"]
        idx = np.flatnonzero(scored[did])
        p80 = _p80_out_of_fold(plains[did][idx], idx, fold, level)
        others = sum((np.where(scored[k][idx], dims[k][idx], 0.0) for k in dims if k != did), 0)
        n_other = n_scored[idx] - 1
        ok = (n_other >= min_dims) & ~np.isnan(p80)
        cases[("dimension", did)] = _case(
            did, idx[ok], fold, np.minimum(others / np.maximum(n_other, 1), p80)[ok], dims[did][idx][ok]
        )


def calibration_cases(
    definition: Mapping,
    raw: Scores,
    relatives: Mapping | None = None,
    model_ids: Sequence[str] | None = None,
    folds: int = CALIBRATION_FOLDS,
    seed: str = CALIBRATION_SEED,
) -> tuple[dict, dict]:
    """Held-out cases of each AI IQ imputation rule, out of fold: ({(rule, component): case arrays}, point).

    The models (`model_ids`, else the columns' numbers) are dealt into `folds` seeded folds (aiiq.holdout_folds).
    For every model with an observed value the value is hidden and imputed by the rule, with anything the rule
    fits (a P80) fitted on the models of the other folds only:
    benchmark rule (b of dimension d): a model with a real b and another real benchmark in d takes min(its mean IQ
    over its other real benchmarks in d, P80 of b over the other folds' real b);
    family rule (b where family match runs, `relatives`): such a model with a sibling with a real b takes the
    siblings' lowest IQ (nothing is fitted);
    dimension rule (imputable d): a model scored on d and on at least min_dimensions others takes min(the mean of
    its other scored dimensions, P80 of d over the other folds' min-of-two values).
    Each entry: {"dimension", "cols", "fold", "base" (the imputed value), "truth" (the observed one)}; `point` is
    the board's own index_values on `raw` (with detail)."""
    relatives = relatives or {}
    ids = list(model_ids) if model_ids is not None else [str(j) for j in range(raw.models)]
    dealt = aiiq.holdout_folds(ids, folds, seed)
    fold = np.array([dealt[m] for m in ids], int)
    point = aiiq.index_values(definition, raw, relatives=relatives, detail=True)  # the board's values
    cases: dict = {}
    for d in definition["dimensions"]:
        _benchmark_cases(definition, d, raw, point, relatives, fold, cases)
    _dimension_cases(definition, raw, point, fold, cases)
    return cases, point


def out_of_fold_coverage(case: Mapping, level: float, span: Sequence[float]) -> np.ndarray:
    """Per held-out case: 1.0 when its observed value lies in the interval the simulation would give it with the
    rule fitted on the other folds' cases only (the value moved by that bias within those cases' range,
    ± z x sqrt(se^2 + sd^2), clipped to the anchor range `span`), 0.0 when not, NaN when the other folds hold
    too few cases to fit."""
    z = z_of(level)
    out = np.full(case["truth"].size, np.nan)
    for f in np.unique(case["fold"]):
        test, train = case["fold"] == f, case["fold"] != f
        fit = fit_errors(case["base"][train] - case["truth"][train])
        if fit["sd"] is None:
            continue
        seen = (case["truth"][train].min(), case["truth"][train].max())
        fitted = (case["base"][train].min(), case["base"][train].max())
        centre = calibrated_centre(case["base"][test], fit["bias"], seen, fitted)
        half = z * math.hypot(fit["se"], fit["sd"])
        lo, hi = within(centre - half, case["base"][test], span), within(centre + half, case["base"][test], span)
        truth = case["truth"][test]
        out[test] = ((lo <= truth + 1e-9) & (truth <= hi + 1e-9)).astype(float)
    return out


def imputation_calibration(
    definition: Mapping,
    raw: Scores,
    relatives: Mapping | None = None,
    model_ids: Sequence[str] | None = None,
    level: float = 0.95,
    folds: int = CALIBRATION_FOLDS,
    seed: str = CALIBRATION_SEED,
) -> list[dict]:
    """The calibration table of AI IQ's imputation rules, from their out-of-fold held-out cases
    (calibration_cases): one row per rule x component, in the definition's order, with `cases`, `bias`, `se`,
    `sd` (fit_errors), `seen` and `fitted` (the ranges of the cases' observed and imputed values: no bias
    correction outside them, calibrated_centre), `span`
    (the anchor table's range), `coverage` (the share of cases whose observed value the level's interval, fitted
    out of fold, holds; with `coverage_cases`) and `coverage_by_tercile` (the same within the lower, middle and
    upper third of the board's composites; None where a third has no case), and `reason` without an estimate."""
    return _calibration(definition, raw, relatives, model_ids, level, folds, seed)[0]


def _calibration(
    definition: Mapping,
    raw: Scores,
    relatives: Mapping | None,
    model_ids: Sequence[str] | None,
    level: float,
    folds: int = CALIBRATION_FOLDS,
    seed: str = CALIBRATION_SEED,
) -> tuple[list[dict], dict]:
    """(imputation_calibration's table, the board's own index_values on `raw` with detail, which it reads: the
    simulation takes the board's P80s from it)."""
    cases, point = calibration_cases(definition, raw, relatives, model_ids, folds, seed)
    spans = anchor_ranges(definition)
    rows, composite = point["composite"]
    comp = np.full(raw.models, np.nan)
    comp[rows] = composite[0]
    known = comp[~np.isnan(comp)]
    cuts = np.quantile(known, [1 / 3, 2 / 3]) if known.size else None
    table = []
    for (rule, component), case in cases.items():
        row = {
            "rule": rule,
            "component": component,
            "dimension": case["dimension"],
            **fit_errors(case["base"] - case["truth"]),
            "seen": [float(case["truth"].min()), float(case["truth"].max())] if case["truth"].size else None,
            "fitted": [float(case["base"].min()), float(case["base"].max())] if case["base"].size else None,
            "span": list(spans[component]),
        }
        hit = out_of_fold_coverage(case, level, spans[component]) if case["truth"].size else np.array([])
        counted = ~np.isnan(hit)
        row["coverage_cases"] = int(counted.sum())
        row["coverage"] = float(hit[counted].mean()) if counted.any() else None
        thirds: list[float | None] = []
        for k in range(3):
            c = comp[case["cols"]] if case["cols"].size else np.array([])
            if cuts is None or not c.size:
                thirds.append(None)
                continue
            lo, hi = (-np.inf, *cuts, np.inf)[k], (-np.inf, *cuts, np.inf)[k + 1]
            sel = counted & (c > lo) & (c <= hi)
            thirds.append(float(hit[sel].mean()) if sel.any() else None)
        row["coverage_by_tercile"] = thirds
        row["shift"] = row["bias"]  # the bias the simulation corrects
        table.append(row)
    # rule -> its errors on every component, for the components with too few cases of their own
    pooled: dict[str, list[np.ndarray]] = {}
    for (rule, _), case in cases.items():
        pooled.setdefault(rule, []).append(case["base"] - case["truth"])
    for row in table:
        if row["sd"] is not None:
            continue
        err = np.concatenate(pooled[row["rule"]])
        fit = fit_errors(err)
        if fit["sd"] is None:
            row["shift"] = None
            row["reason"] = f"{row['cases']} held-out case(s): too few to estimate the rule's error"
            continue
        # Too few cases of its own: the rule's error over all its cases, as a root-mean-square error about zero
        # (this benchmark's bias is not known, so none is corrected and all of the pooled miss is spread).
        rmse = float(np.sqrt(np.mean(err**2)))
        row.update(
            shift=0.0,
            se=fit["se"],
            sd=rmse,
            pooled=int(err.size),
            reason=f"{row['cases']} held-out case(s) of its own: too few, so drawn with the rule's error over "
            f"its {err.size} cases on every component (root-mean-square {rmse:.2f}; no bias corrected)",
        )
    return table, point


class ImputationNoise:
    """aiiq.index_values' `noise` in the AI IQ simulation: each imputed value, for its rule x component, the
    rule's value moved by the measured bias (calibrated_centre), plus the rule's shared and own error terms
    (Components.imputation_noise), clipped to the anchor table's range (`within`). Counts each rule's imputes on
    its calibration row (`cal`); `unknown` ({model: components}) names those whose rule's error is not
    estimable, left as they are. Without `noise` every value stays as the rule gives it; with `only`
    ({(model, component)}) only those take the error."""

    def __init__(
        self,
        cal: Mapping[tuple[str, str], dict],
        comps: Components,
        model_ids: Sequence[str],
        spans: Mapping[str, tuple[float, float]],
        noise: bool,
        only: frozenset[tuple[str, str]] | None,
    ):
        self.cal, self.comps, self.model_ids, self.spans, self.noise, self.only = (
            cal,
            comps,
            model_ids,
            spans,
            noise,
            only,
        )
        self.unknown: dict[str, set] = {m: set() for m in model_ids}

    def __call__(self, rule: str, component: str, cols: np.ndarray, base: np.ndarray) -> np.ndarray:
        row = self.cal.get((rule, component)) or {}
        if self.noise and len(cols):
            row["imputes"] = row.get("imputes", 0) + len(cols)
        if not self.noise or not len(cols):
            return base
        if self.only is not None:
            keep = np.array([(self.model_ids[j], component) in self.only for j in cols], bool)
            if not keep.all():
                out = base.copy()
                if keep.any():
                    out[:, keep] = self(rule, component, cols[keep], base[:, keep])
                return out
        if row.get("sd") is None:
            for j in cols:
                self.unknown[self.model_ids[j]].add(component if rule != "family" else f"{component} (family match)")
            return base
        drawn = self.comps.imputation_noise(component, cols, row, "family-match" if rule == "family" else "imputation")
        # noise + centre is centre + noise (IEEE addition commutes), added into the noise's array; the centre (the
        # rule's value moved by its bias) a block of columns at a time, element by element as on the whole array
        for start in range(0, drawn.shape[1], BLOCK):
            part, held = drawn[:, start : start + BLOCK], base[:, start : start + BLOCK]
            part += calibrated_centre(held, row["shift"], row["seen"], row["fitted"]) if row["shift"] else held
        return within(drawn, base, self.spans[component], in_place=True)


def _dimension_bounds(out: Mapping, comps: Components, model_ids: Sequence[str], level: float) -> None:
    """comps.bounds[(model, dimension)]: the central `level` of each dimension's draws (scored or imputed) of
    index_values' `out`, for the models whose draws are numbers."""
    for did in out["dims"]:
        for cols, values in (out["dims"][did], out["imputed"].get(did, ((), None))):
            keep = ~np.isnan(values[0]) if len(cols) else ()  # NaN: a family match without its sibling's score
            if np.any(keep):
                cols = cols[keep]
                keep = cast(np.ndarray, keep)  # np.any(()) is False: keep is the mask here
                bounds = quantile_interval(values[:, keep] if not keep.all() else values, level).T.tolist()
                comps.bounds.update({(model_ids[j], did): b for j, b in zip(cols, bounds)})


def _imputed_text(share: float, unknown: set[str]) -> str:
    """What a row's interval reason adds about its imputed parts."""
    text = ""
    if share > 0:
        text = "; imputed parts drawn from their rule's out-of-fold error (bias, shared and own terms)"
    if unknown:
        text += f" (not estimable, so not widened: {', '.join(sorted(unknown))})"
    return text


def aiiq_samples(
    definition: Mapping,
    results: pd.DataFrame,
    benchmarks: Mapping[str, Mapping],
    sims: int,
    level: float,
    noise: bool = True,
    models: pd.DataFrame | None = None,
    measure: bool = True,
    only: frozenset[tuple[str, str]] | None = None,
) -> tuple[dict[str, np.ndarray], Components, dict[str, tuple[str, float]], list[dict]]:
    """{model: draws} of the AI IQ composite (total: measurement and imputation), the Components (whose
    `measurement` holds the draws with measurement error alone), the imputed share, and the calibration table
    (imputation_calibration). `models` (with release and effort_rank) is what family match reads; without it no
    model has a sibling.

    Both runs draw each measured value from its interval, and centre every simulated P80 on the board's
    (aiiq.index_values' `p80_at`). The total run then gives each imputed value, for its rule x component, the
    rule's value moved by the measured bias (calibrated_centre), plus one shared N(0, se) term per draw for every
    model the rule imputes on that component and an independent N(0, sd) term per model, clipped to the anchor
    table's range (`within`).

    For the held-out experiment (indices/heldout.py): `measure=False` holds every measured value at its value,
    and `only` ({(model, component)}) gives imputation error to those imputed values alone."""
    chosen = aiiq.selected(definition, results)
    model_ids = sorted({m for m, _ in chosen})
    relatives = family_relatives(definition, models, model_ids, aiiq.models_with_scores(definition, chosen))
    point_raw = aiiq.point_scores(definition, chosen, model_ids)
    table, point = _calibration(definition, point_raw, relatives, model_ids, level)  # point: the board's values
    p80_at = {
        **{b: float(v[0, 0]) for b, v in point["detail"]["p80"].items()},
        **{d: float(v[0, 0]) for d, v in point["detail"]["p80_dim"].items() if v is not None},
    }
    cal = {(row["rule"], row["component"]): row for row in table}
    spans = anchor_ranges(definition)
    comps = Components(definition["id"], model_ids, sims, level)
    impute = ImputationNoise(cal, comps, model_ids, spans, noise, only)
    measured = Components(definition["id"], model_ids, sims, level)  # the same streams: the same measurement draws
    # both runs map the same draws: made once, and kept for the board's next simulation in a kept_normals() block
    mapped = MappedDraws(None if _MAPPED is None else _MAPPED.setdefault(definition["id"], {}), sims)
    shared: dict = {}  # each benchmark's P80 of the implied IQs: the same draws in both runs, taken once
    alone = aiiq.index_values(
        definition,
        aiiq_raw(definition, chosen, model_ids, measured, benchmarks, noise and measure, mapped),
        relatives=relatives,
        p80_at=p80_at,
        shared=shared,
    )
    rows, composite = alone["composite"]
    del alone
    comps.measurement = {model_ids[j]: composite[:, k] for k, j in enumerate(rows) if not np.isnan(composite[0, k])}
    raw = aiiq_raw(definition, chosen, model_ids, comps, benchmarks, noise and measure, mapped)
    out = aiiq.index_values(definition, raw, impute, relatives, p80_at=p80_at, shared=shared)  # the board's own
    del shared
    mapped.prune()
    del raw  # the scores are no longer needed
    comps.chosen = chosen
    share = out["imputed_share"]
    _dimension_bounds(out, comps, model_ids, level)
    rows, composite = out["composite"]
    del out  # the dimensions' draws: only their intervals are kept
    samples = {model_ids[j]: composite[:, k] for k, j in enumerate(rows) if not np.isnan(composite[0, k])}
    extras = {
        m: (_imputed_text(share[j], impute.unknown[m]), float(share[j]))
        for j, m in enumerate(model_ids)
        if m in samples
    }
    for row in table:
        row.setdefault("imputes", 0)
    return samples, comps, extras, table


# ------------------------------------------------------------------------------------------ board annotation


def _by_column(columns: Sequence[np.ndarray]) -> np.ndarray:
    """np.column_stack of equally long draws, each column contiguous (Fortran order): the quantiles are taken per
    column, and order statistics are the same numbers in either layout."""
    out = np.empty((len(columns[0]), len(columns)), order="F")
    for k, column in enumerate(columns):
        out[:, k] = column
    return out


def _value_bounds(
    samples: Mapping[str, np.ndarray],
    drawn: list[str],
    level: float,
    measurement: Mapping[str, np.ndarray] | None,
) -> tuple[dict, dict, dict, dict]:
    """(bounds, their Monte Carlo errors, bounds of the measurement-only draws, their errors) of the drawn rows."""
    bounds, errors = (
        mcerror.bounds(_by_column([samples[m] for m in drawn]), drawn, level, overwrite=True) if drawn else ({}, {})
    )
    measured = measurement or {}
    alone = [m for m in drawn if m in measured]
    inner, inner_errors = (
        mcerror.bounds(_by_column([measured[m] for m in alone]), alone, level, overwrite=True) if alone else ({}, {})
    )
    return bounds, errors, inner, inner_errors


def _write_value_interval(
    row: dict,
    found: tuple[dict, dict, dict, dict],
    reasons: Mapping[str, str],
    why_none: str,
    measured: bool,
) -> None:
    """interval, interval_how, interval_reason (and interval_mc_error, interval_measurement) of one row."""
    bounds, errors, inner, inner_errors = found
    model = row["model"]
    if model in bounds and bounds[model][0] == bounds[model][1]:
        row.update(interval=None, interval_how=None, interval_reason=NO_SPREAD)
    elif model in bounds:
        row.update(
            interval=mcerror.round_out(bounds[model], errors[model]),
            interval_how=DERIVED,
            interval_reason=reasons[model],
            interval_mc_error=[mcerror.error_text(e) for e in errors[model]],
        )
        if measured:
            held = inner.get(model)
            row["interval_measurement"] = (
                mcerror.round_out(held, inner_errors[model]) if held and held[0] < held[1] else None
            )
    elif row.get("value") is not None:
        row.update(
            interval=None,
            interval_how=None,
            interval_reason=why_none
            or "the value is not recomputed from components here, so no interval can be propagated",
        )
    else:
        row.update(interval=None, interval_how=None)


def _annotate_ranks(
    board: dict,
    ranked: list[dict],
    samples: Mapping[str, np.ndarray],
    sims: int,
    level: float,
    higher_is_better: bool,
    pairs: bool,
) -> int:
    """rank_interval, tier, ahead_of_next and rank_interval_mc_error on the ranked rows (and board["ahead"] with
    `pairs`), from a rank simulation in which rows without draws sit at their value; the count of rank intervals
    widened to hold their point rank."""
    matrix = np.column_stack(
        [samples[r["model"]] if r["model"] in samples else np.full(sims, float(r["value"])) for r in ranked]
    )
    ranks = competition_ranks(matrix, higher_is_better)
    intervals, errors = mcerror.rank_bounds(ranks, level)
    widened = 0
    for row, interval in zip(ranked, intervals):
        if not interval[0] <= row["rank"] <= interval[1]:
            interval[:] = [min(interval[0], row["rank"]), max(interval[1], row["rank"])]
            widened += 1
    for row, error in zip(ranked, errors):
        row["rank_interval_mc_error"] = [mcerror.error_text(e) for e in error]
    key = matrix if higher_is_better else -matrix
    ahead = [*np.mean(key[:, :-1] > key[:, 1:], axis=0).tolist(), None]
    for row, interval, tier, share in zip(ranked, intervals, tiers([r["rank"] for r in ranked], intervals), ahead):
        row.update(rank_interval=interval, tier=tier, ahead_of_next=share)
    if pairs:  # rows held fixed have no interval, so how often they are ahead is not asked of them
        cols = [k for k, r in enumerate(ranked) if r["model"] in samples]
        board["ahead"] = {
            "simulations": sims,
            "models": [ranked[k]["model"] for k in cols],
            "ranks": [ranked[k]["rank"] for k in cols],
            "draws": rank_draws(ranks[:, cols]),
        }
    return widened


def _uncertainty_note(
    sims: int, level: float, value_intervals: bool, ranked: int, fixed: int, widened: int | None
) -> dict:
    """board["uncertainty"]: how the intervals were had, and how many ranked rows were held fixed or widened."""
    note: dict = {
        "simulations": sims,
        "level": level,
        "method": (
            "each component drawn from its own interval (each side a normal half, clipped to the scale), "
            "the index definition rerun on every draw; intervals are the central quantiles of the draws"
            if value_intervals
            else "each row drawn from its own interval (each side a normal half)"
        ),
        "seeds": "one stream per (board, model, component): numpy PCG64 seeded by sha256 of the ids",
        "tiers": "greedy from the top: a tier ends at the worst rank its leader takes in the central "
        f"{level_text(level)} of simulations",
        "held_fixed": fixed,
        "monte_carlo": mcerror.describe(sims, level),
    }
    if widened is not None:
        note["rank_widened"] = widened
    if ranked and fixed == ranked:
        note["ranks"] = "no ranked value has an interval, so no rank interval or tier can be had"
    elif fixed:
        note["ranks"] = f"{fixed} of {ranked} ranked values have no interval and are held fixed in the rank simulation"
    return note


def annotate(
    board: dict,
    samples: Mapping[str, np.ndarray],
    reasons: Mapping[str, str],
    sims: int,
    level: float,
    higher_is_better: bool = True,
    why_none: str = "",
    value_intervals: bool = True,
    pairs: bool = False,
    measurement: Mapping[str, np.ndarray] | None = None,
) -> dict:
    """Write interval, interval_how, interval_reason, rank_interval and tier on a board's rows (in place).

    `samples` holds draws of the rows whose value the simulation reran. Ranked rows without draws take part
    in the rank simulation at their fixed value. Unranked rows get neither a rank interval nor a tier.
    With `pairs`, board["ahead"] holds the simulated rank of each ranked row with draws in every draw
    (rank_draws), from which the compare page counts how often one is ahead of another (site/ahead.py writes it;
    build.compute takes it off the board before the API is written).
    With `measurement` ({model: draws with measurement error alone}), each row with an interval also gets
    `interval_measurement`, the central `level` of those draws. A ranked row's rank interval always holds its
    point rank: where the central range of the draws misses it, it is widened to it, and the board's
    `uncertainty.rank_widened` counts those rows.
    """
    drawn = (
        [r["model"] for r in board["rows"] if r.get("value") is not None and r["model"] in samples]
        if value_intervals
        else []
    )
    found = _value_bounds(samples, drawn, level, measurement)
    for row in board["rows"]:
        if value_intervals:
            _write_value_interval(row, found, reasons, why_none, measurement is not None)
        row.update(rank_interval=None, tier=None, ahead_of_next=None)
    ranked = sorted((r for r in board["rows"] if r.get("rank") is not None), key=lambda r: r["rank"])
    fixed = [r["model"] for r in ranked if r["model"] not in samples]
    widened = None
    if ranked and len(fixed) < len(ranked):
        widened = _annotate_ranks(board, ranked, samples, sims, level, higher_is_better, pairs)
    board["uncertainty"] = _uncertainty_note(sims, level, value_intervals, len(ranked), len(fixed), widened)
    return board


def _without_intervals(board: dict, reason: str) -> dict:
    """A board none of whose values has an interval: each row with a value says why (`reason`)."""
    for row in board["rows"]:
        row.update(interval=None, interval_how=None, rank_interval=None, tier=None)
        if row.get("value") is not None:
            row["interval_reason"] = reason
    board["uncertainty"] = {"ranks": "no value on this board has an interval, so no rank interval or tier"}
    return board


def annotate_index(
    definition: Mapping,
    board: dict,
    results: pd.DataFrame,
    models: pd.DataFrame,
    benchmarks: Mapping[str, Mapping],
    raw: Mapping | None = None,
) -> dict:
    """Intervals, rank intervals, tiers and imputed shares for one composite index board (in place); `raw`
    ({(benchmark, model): per-question rows}) lets HLE and Pedagogy draw those rows together."""
    kind = definition["kind"]
    if kind == "cost":
        return _without_intervals(board, "prices and token counts are published without an interval")
    if kind == "published":  # a source's own index as it publishes it: nothing to draw from
        return _without_intervals(
            board,
            "the source's own published figure: it publishes no interval per model, "
            "and the components are not public, so none can be propagated",
        )
    settings = _settings(definition)
    if settings is None:
        return board
    sims, level = settings
    extras: dict = {}
    if kind == "weighted-mean":
        samples, comps = weighted_mean_samples(definition, results, benchmarks, sims, level)
        why_none = (
            "AA's own published figure: AA states about ±1% for its whole index but publishes no interval "
            "per model, and the components are not all in the snapshot"
        )
    elif kind == "ai-eq":
        samples, comps = eq_samples(definition, results, models, benchmarks, sims, level)
        why_none = ""
    elif kind == "ai-iq":
        samples, comps, extras, table = aiiq_samples(definition, results, benchmarks, sims, level, models=models)
        board["imputation_calibration"] = table
        why_none = "a sourced manual IQ, not computed from benchmarks: no interval is published with it"
    elif kind in ("hle", "pedagogy"):
        bench = board.get("benchmark") or definition.get("benchmark")
        return rank_from_row_intervals(
            board,
            sims,
            level,
            definition.get("higher_is_better", True),
            {m: f for (b, m), f in (raw or {}).items() if b == bench},
            interval_level(definition),
        )
    else:
        return board
    # The draws come from the function the board's values come from (aa/eq/aiiq.index_values), so there is no
    # value here they could fail to reproduce.
    measurement = comps.measurement if kind == "ai-iq" else samples
    samples, measurement = centre_on_values(board, samples, measurement)
    reasons = {m: comps.reason(m, extras.get(m, ("", 0.0))[0]) for m in samples}
    annotate(
        board,
        samples,
        reasons,
        sims,
        level,
        definition.get("higher_is_better", True),
        why_none,
        pairs=True,
        measurement=measurement,
    )
    for row in board["rows"]:
        if row["model"] in samples and row.get("value") is not None:
            row["imputed_share"] = extras.get(row["model"], ("", 0.0))[1]
    component_intervals(definition, board, comps, benchmarks, level, board.get("imputation_calibration"))
    return board


def centre_on_values(
    board: Mapping, samples: Mapping[str, np.ndarray], measurement: Mapping[str, np.ndarray]
) -> tuple[dict, dict]:
    """Each row's draws moved so that the median of its measurement-only draws is the row's value: (samples,
    measurement), both moved by the same amount per model (so a total interval keeps its imputation bias).

    Why they are off: a score at the end of its scale or anchor table (0% maps to the table's floor, IQ 70 on
    ARC-AGI-2 and CritPt) can only be drawn upwards, and a mean of several such one-sided components has its
    median above its value (openai/gpt-5-minimal: 1.7 IQ); min(own mean, P80) on noisy draws does the reverse.
    The value is the methodology's; the draws give the spread around it."""
    values = {r["model"]: float(r["value"]) for r in board["rows"] if r.get("value") is not None}
    here = [m for m in measurement if m in values]
    if len({len(measurement[m]) for m in here}) == 1:  # as many draws each (the simulation's): all at once
        medians = mcerror.medians(_by_column([measurement[m] for m in here]), overwrite=True).tolist()
    else:
        medians = [float(np.median(measurement[m])) for m in here]
    shift = {m: values[m] - median for m, median in zip(here, medians)}
    moved = {m: d + shift.get(m, 0.0) for m, d in samples.items()}
    alone = moved if measurement is samples else {m: d + shift.get(m, 0.0) for m, d in measurement.items()}
    return moved, alone


def _dimension_interval(c: dict, bounds: Mapping[tuple[str, str], Sequence[float]], key: tuple[str, str]) -> None:
    """A dimension component's simulated interval (none where the draws do not spread)."""
    if key in bounds and bounds[key][0] == bounds[key][1]:
        c.update(interval=None, interval_how=None, interval_reason=NO_SPREAD)
    elif key in bounds:
        c.update(interval=bounds[key], interval_how=DERIVED)


def _imputed_component_interval(c: dict, value: float, rules: Mapping, z: float, spans: Mapping) -> None:
    """An imputed component's interval from its rule's out-of-fold error (none where it is not estimable)."""
    family = "sibling" in c  # a family match names the sibling whose real score it took
    rule = rules.get(("family" if family else "benchmark", c["id"]), {})
    name = "family-match" if family else "imputation"
    if rule.get("sd") is None:
        c.update(
            interval=None,
            interval_how=None,
            interval_reason=(f"the {name} rule: {rule['reason']}" if rule.get("reason") else "no error estimate"),
        )
    else:
        c.update(
            interval=imputed_interval(value, rule, z, spans.get(c["id"])),
            interval_how=DERIVED,
            interval_reason=f"the {name} rule: {rule['reason']}"
            if rule.get("pooled")
            else f"the {name} rule's out-of-fold error over {rule['cases']} held-out "
            f"cases: bias {rule['bias']:+.2f} (the value moved by {-rule['bias']:+.2f}"
            f" where the cases' values reach), ± {z:.2f} × sqrt(se {rule['se']:.2f}² + "
            f"sd {rule['sd']:.2f}²), within the anchor table's range",
        )


def _measured_component_interval(
    c: dict, comps: Components, key: tuple[str, str], anchors: Mapping, benchmarks: Mapping, level: float
) -> None:
    """A measured component's interval: its benchmark value's own, mapped through the anchor table where the
    index maps it."""
    # The reason is kept only where there is no interval: the benchmark's board row gives the method.
    s = spread_of(comps.chosen[key], benchmarks.get(c["id"]), level)
    interval = s["interval"]
    if interval is not None and c["id"] in anchors:  # the component is on the mapped scale
        shift = comps.shift.get(key, 0.0)
        interval = [_mapped_bound(anchors[c["id"]], x + shift) for x in interval]
    elif interval is not None:
        interval = list(interval)  # the row's own list: spread_of's is shared
    c.update(interval=interval, interval_how=s["interval_how"])
    if interval is None:
        c["interval_reason"] = s["interval_reason"]


def component_intervals(
    definition: Mapping,
    board: dict,
    comps: Components,
    benchmarks: Mapping[str, Mapping],
    level: float,
    table: Sequence[Mapping] | None = None,
) -> None:
    """The interval beside each component value (in place): a benchmark's own interval, mapped through the
    anchor table where the index maps it; an imputed value's rule error; a dimension's simulated interval."""
    z = z_of(level)
    if definition["kind"] == "ai-iq":
        anchors = {b["benchmark"]: b["anchors"] for d in definition["dimensions"] for b in d["benchmarks"]}
    else:
        anchors = {c["benchmark"]: c["anchors"] for c in definition.get("components", [])}
    rules = {(r["rule"], r["component"]): r for r in table or []}
    spans = anchor_ranges(definition) if definition["kind"] == "ai-iq" else {}
    for row in board["rows"]:
        for c in row.get("components", []):
            value, key = c.get("value"), (row["model"], c["id"])
            if value is None:
                continue
            if c["kind"] == "dimension":
                _dimension_interval(c, comps.bounds, key)
            elif c["how"] == "imputed":
                _imputed_component_interval(c, value, rules, z, spans)
            elif key in comps.chosen:
                _measured_component_interval(c, comps, key, anchors, benchmarks, level)
            elif c["how"] == "published":
                c.update(
                    interval=None,
                    interval_how=None,
                    interval_reason="the source publishes no interval for its own index value",
                )


def imputed_interval(value: float, rule: Mapping, z: float, span: Sequence[float] | None) -> list[float]:
    """An imputed component's interval from its rule's calibration row, as the simulation draws it: the value
    moved by the bias within the held-out cases' range, ± z x sqrt(se^2 + sd^2), clipped to the anchor range."""
    # calibrated_centre and within on one number, in plain floats (this runs once per imputed component)
    fitted, seen = rule.get("fitted"), rule["seen"]
    shift = rule.get("shift", rule["bias"])
    if not shift or seen is None:  # nothing corrected (a pooled error, or no case of its own)
        centre = value
    else:
        moved = value - shift if fitted is None or fitted[0] <= value <= fitted[1] else value
        centre = min(max(moved, min(seen[0], value)), max(seen[1], value))
    half = z * math.hypot(rule["se"], rule["sd"])
    lo, hi = centre - half, centre + half
    if span is not None:
        low, high = min(span[0], value), max(span[1], value)
        lo, hi = min(max(lo, low), high), min(max(hi, low), high)
    return [lo, hi]


def rank_from_row_intervals(
    board: dict,
    sims: int,
    level: float,
    higher_is_better: bool = True,
    answers: Mapping[str, pd.DataFrame] | None = None,
    rows_level: float | None = None,
) -> dict:
    """Rank intervals and tiers for a board whose rows already carry their own interval (HLE's Wald, the
    Pedagogy bootstrap, a published one). The rows' intervals are kept as they are.

    A row whose value is computed from per-question results (`answers`: {model: rows with `id` and `correct`}) is
    drawn together with every other such row (shared_question_draws: one resample of the questions per draw, the
    same for all of them); every other row is drawn from its own interval, each side a normal half whose sd is the
    half-width / z of the rows' own level (`rows_level`, default `level`). Where their level is not `level`, the
    board's `uncertainty` says so in `interval_level`."""
    z = z_of(rows_level if rows_level is not None else level)
    joint = shared_question_draws(board["index"], board["rows"], answers or {}, sims)
    drawn, specs = [], []
    for row in board["rows"]:
        interval, value = row.get("interval"), row.get("value")
        # z is 0 only at a level too small for a float (a ci_level of 1e-17): such an interval is held fixed
        if (
            row["model"] not in joint
            and interval
            and value is not None
            and interval[0] <= value <= interval[1]
            and z > 0
        ):
            drawn.append(row["model"])
            specs.append(
                (
                    "split-normal",
                    value,
                    (value - interval[0]) / z,
                    (interval[1] - value) / z,
                    interval[0] if interval[0] == 0 else None,
                    interval[1] if interval[1] == 100 else None,
                )
            )
    samples = (
        dict(zip(drawn, transform(specs, normals(board["index"], [(m,) for m in drawn], sims)).T)) if drawn else {}
    )
    annotate(board, {**samples, **joint}, {}, sims, level, higher_is_better, value_intervals=False, pairs=True)
    if rows_level is not None and rows_level != level:
        board["uncertainty"]["interval_level"] = rows_level
    return _independent(board, samples, joint)


def shared_question_draws(
    key: str, rows: Sequence[Mapping], answers: Mapping[str, pd.DataFrame], sims: int
) -> dict[str, np.ndarray]:
    """{model: draws of its accuracy in percent} for the rows whose value is their per-question accuracy, all
    from one bootstrap of the question set per draw (so a resample that is harder is harder for every model).

    The question set is every question id any of them answered, plus the questions none answered when a row's
    denominator is larger (HLE counts an unanswered question as wrong out of the set's size); each draw gives
    every question a weight, Multinomial(N, 1/N each), the same weights for all models. A model's draw is its
    weighted share right over its own denominator: all N questions when its value is right / N, the questions it
    answered when its value is right / answered (Pedagogy); a row whose value is neither is left out (drawn from
    its own interval instead, as is one whose set size differs from the others'). The stream is seeded by
    (board, "questions")."""
    cases, values = {}, {r["model"]: r.get("value") for r in rows}
    for row in rows:
        case = _question_case(row, answers.get(row["model"]))
        if case is not None:
            cases[row["model"]] = case
    if not cases or not sims:
        return {}
    ids = sorted(set().union(*(asked for _, asked, _ in cases.values())))
    size = max([len(ids)] + [of for _, _, of in cases.values() if of])
    where = {q: i for i, q in enumerate(ids)}
    weights = (
        stream(key, "questions")
        .multinomial(size, [1.0 / size] * len(ids) + [1.0 - len(ids) / size], size=sims)[:, :-1]
        .astype(float)
    )
    out = {}
    for model, (right, asked, of) in sorted(cases.items()):
        hit = np.zeros(len(ids))
        hit[[where[q] for q in right]] = 1.0
        if of:
            if of == size:  # the N weights sum to N in every draw: the denominator stays the set's size
                out[model] = 100.0 * (weights @ hit) / size
        else:
            # _question_case gives a case only to a row with a value
            out[model] = _answered_share(weights, hit, [where[q] for q in asked], cast(float, values[model]))
    return out


def _question_case(row: Mapping, frame: pd.DataFrame | None) -> tuple[set[str], set[str], int | None] | None:
    """(questions right, questions answered, denominator: None for the answered ones) of a row whose value is
    its per-question accuracy over either; None for any other row."""
    value = row.get("value")
    if frame is None or value is None or not len(frame) or not {"id", "correct"} <= set(frame.columns):
        return None
    done = frame[frame["correct"].notna()]
    right = {str(q) for q, c in zip(done["id"], done["correct"]) if bool(c)}
    asked = {str(q) for q in done["id"]}
    of = int((row.get("coverage") or {}).get("of") or 0)
    if len(asked) and math.isclose(value, 100.0 * len(right) / len(asked), rel_tol=0, abs_tol=1e-9):
        return right, asked, None
    if of >= len(asked) and of and math.isclose(value, 100.0 * len(right) / of, rel_tol=0, abs_tol=1e-9):
        return right, asked, of
    return None


def _answered_share(weights: np.ndarray, hit: np.ndarray, asked: list[int], value: float) -> np.ndarray:
    """Per draw, the weighted share right over the weighted questions answered (columns `asked`), in percent."""
    mask = np.zeros(hit.size)
    mask[asked] = 1.0
    base = weights @ mask  # 0 when a resample holds none of its questions: its value stays as it is
    return np.where(base > 0, 100.0 * (weights @ hit) / np.maximum(base, 1.0), value)


def _independent(board: dict, samples: Mapping, joint: Mapping | None = None) -> dict:
    """Say on a board drawn row by row that its rank intervals are conservative, and why (when it has any); and
    that the rows drawn from per-question results were drawn together (`joint`)."""
    if not any(r.get("rank_interval") for r in board["rows"]):
        return board
    if joint:
        board["uncertainty"]["joint"] = (
            f"{len(joint)} row{'s' if len(joint) != 1 else ''} computed from per-question results "
            f"{'are' if len(joint) != 1 else 'is'} drawn together: each simulation resamples the questions once, "
            "with the same resample for every such model."
        )
    if samples:
        board["uncertainty"]["independent"] = (
            INDEPENDENT
            if not joint
            else (
                INDEPENDENT.replace(
                    "every model is drawn",
                    f"the other {len(samples)} row{'s are' if len(samples) != 1 else ' is'} drawn",
                )
            )
        )
    return board


def annotate_boards(
    boards: Mapping[str, dict],
    index_defs: Mapping[str, Mapping],
    results: pd.DataFrame,
    models: pd.DataFrame,
    benchmarks: Sequence[Mapping],
    raw: Mapping | None = None,
) -> None:
    """Every composite board whose definition has an `uncertainty` block (in place)."""
    by_id = {b["id"]: b for b in benchmarks}
    for board in boards.values():
        definition = index_defs[board["definition"]]

        def annotated(b: dict, d: Mapping = definition) -> dict:
            return annotate_index(d, b, results, models, by_id, raw)

        simcache.annotated(
            board,
            annotated,
            definition=definition,
            results=results,
            models=models,
            benchmarks=benchmarks,
            raw=raw,
            seed_salt=_SALT,
        )


def owned_intervals(boards: Mapping[str, dict], index_defs: Mapping[str, Mapping]) -> dict[str, dict]:
    """The value intervals an index computes for a benchmark's own scores, so that a benchmark board shows the
    same interval for the same value: {benchmark: {"level", "rows": {model: row}}}. HLE's accuracy board (Wald,
    as upstream) and the Pedagogy boards (the paper's question bootstrap, or its exact binomial limit) own their
    benchmark's values; a composite index only reuses a benchmark's value, so owns none."""
    out: dict[str, dict] = {}
    for board in boards.values():
        definition = index_defs.get(board.get("definition") or "") or {}
        if definition.get("kind") == "hle" and board.get("index") == definition["boards"]["accuracy"]["id"]:
            bench = definition["benchmark"]
        elif definition.get("kind") == "pedagogy":
            bench = next((b["benchmark"] for b in definition["boards"] if b["id"] == board.get("index")), None)
        else:
            continue
        if bench is not None and interval_level(definition) is not None:
            out[bench] = {"level": interval_level(definition), "rows": {r["model"]: r for r in board["rows"]}}
    return out


def _owned(row: Mapping, owner: Mapping | None) -> Mapping | None:
    """The owning index's row for a benchmark board row: the same model, source, question set and value, with an
    interval; None otherwise (the board then gives the row its own spread)."""
    mine = (owner or {}).get("rows", {}).get(row["model"])
    if not mine or not mine.get("interval") or mine.get("value") is None or known(row.get("value")) is None:
        return None
    same = (
        mine.get("source") == row.get("source")
        and (mine.get("subset") or "") == (row.get("subset") or "")
        and abs(float(mine["value"]) - float(row["value"])) < 1e-9
    )
    return mine if same else None


def annotate_benchmark_boards(
    boards: Mapping[str, dict],
    benchmarks: Sequence[Mapping],
    config: Mapping,
    owned: Mapping[str, Mapping] | None = None,
) -> None:
    """Per-value intervals on benchmark boards, and rank intervals and tiers from them (in place).

    A value an index owns (`owned`, from owned_intervals) keeps that index's interval, method and reason, and is
    drawn from it at the owner's level: one interval per value, wherever it is shown. A row whose level is not
    the board's says so in `interval_level`."""
    settings = _settings(config)
    if settings is None:
        return
    sims, level = settings
    by_id = {b["id"]: b for b in benchmarks}
    for bid, board in boards.items():
        bench = by_id.get(bid)
        owner = (owned or {}).get(bid)
        held = cast(Mapping, owner)  # read only where _owned gave a row, which it takes from an owner
        drawn, specs, reasons = [], [], {}
        for row in board["rows"]:
            mine = _owned(row, owner)
            s = spread(row, bench, level) if mine is None else _owned_spread(mine, held["level"])
            row.update(interval=s["interval"], interval_how=s["interval_how"])
            row["interval_reason"] = s["interval_reason"]
            if mine is not None and mine.get("interval_method"):
                row["interval_method"] = mine["interval_method"]
            if mine is not None and held["level"] != level:
                row["interval_level"] = held["level"]
            if s["draw"] is not None:
                drawn.append(row["model"])
                specs.append(s["draw"])
                reasons[row["model"]] = s["interval_reason"]
        matrix = transform(specs, normals(bid, [(m,) for m in drawn], sims)) if drawn else None
        samples = {m: cast(np.ndarray, matrix)[:, j] for j, m in enumerate(drawn)}  # drawn: matrix was made
        annotate(board, samples, reasons, sims, level, board.get("higher_is_better", True), value_intervals=False)
        _independent(board, samples)
