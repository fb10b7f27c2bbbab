"""Shared pieces of every index: interpolation, percentiles, value selection, rounding and ranking.

Nothing here knows a methodology constant; every number comes in as an argument read from
`methodology/indices/*.yaml`.
"""

from __future__ import annotations

import functools
import math
import re
import weakref
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

#: Columns a selected result carries into boards (the rest of the results frame is not needed).
SELECTED_COLUMNS = [
    "model",
    "benchmark",
    "subset",
    "value",
    "source",
    "retrieved",
    "url",
    "harness",
    "n",
    "stderr",
    "ci_low",
    "ci_high",
    "self_reported",
]

#: How a value was obtained; the last three always carry a reason.
HOW = ("observed", "published", "imputed", "derived", "excluded", "missing")
NEEDS_REASON = frozenset({"imputed", "derived", "excluded", "missing"})


def interpolate(anchors: Sequence[Sequence[float]], x: float) -> float:
    """Map x through piecewise-linear anchors [(raw, mapped), ...], clamped at both ends."""
    xs = [float(a[0]) for a in anchors]
    ys = [float(a[1]) for a in anchors]
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    i = bisect_right(xs, x)  # xs[i-1] <= x < xs[i]
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    if x == x0:
        return y0
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def interpolate_rows(anchors: Sequence[Sequence[float]], x: np.ndarray) -> np.ndarray:
    """`interpolate` on every element of an array at once: np.interp, clamped at both ends. It multiplies by the
    segment's slope where `interpolate` divides last, so the two can differ in the last bit (16.9 on the segment
    from (10, 100) to (25, 115): 106.9 here, 106.89999999999999 there). The indices' values and draws use this one."""
    xs, ys = zip(*anchors)
    return np.interp(x, np.array(xs, float), np.array(ys, float))


def nearest_rank_rows(values: np.ndarray, level: float) -> np.ndarray:
    """`nearest_rank` of each row of a draws x models array with no NaN: ascending value at ceil(level * n)."""
    n = values.shape[1]
    position = max(math.ceil(Fraction(str(level)) * n), 1) - 1
    # A copy with each row contiguous, partitioned in place: the draws x models arrays are kept column by column
    # (Fortran order), and partitioning along their strided rows took twice as long. The value at `position` is
    # the same whatever the layout (an order statistic).
    rows = np.array(values, order="C")
    rows.partition(position, axis=1)
    return rows[:, position].copy()  # not a view: it would keep the whole copy


def compress(iq: float, pivot: float, ceiling: float, ceiling_original: float) -> float:
    """Rescale an IQ above the pivot from the original ceiling down to the compressed one."""
    if iq <= pivot:
        return iq
    return pivot + (iq - pivot) * (ceiling - pivot) / (ceiling_original - pivot)


def nearest_rank(values: Iterable[float], level: float) -> float | None:
    """Nearest-rank percentile: the ascending list's value at 1-based position ceil(level * n)."""
    ordered = sorted(values)
    if not ordered:
        return None
    # Fraction(str(level)) keeps 0.8 * 35 == 28 exactly; float arithmetic would give 28.000000000000004 -> 29.
    position = math.ceil(Fraction(str(level)) * len(ordered))
    return ordered[max(position, 1) - 1]


def median(values: Sequence[float]) -> float | None:
    """The median: the middle value, or the mean of the two middle values for an even count."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return None
    mid = n // 2
    return ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def mean(values: Sequence[float]) -> float | None:
    """The arithmetic mean, None for no values."""
    return sum(values) / len(values) if values else None


def round_half_up(x: float | None, places: int) -> float | None:
    """Round to `places` decimals, halves away from zero, on the number's shortest decimal text."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    if x == 0:
        return float(x)  # -0.0 stays -0.0: the remembered answers below cannot tell it from 0.0
    return _round_half_up(x, places)


@functools.lru_cache(maxsize=1 << 16)
def _round_half_up(x: float, places: int) -> float:
    """round_half_up of a non-zero number, remembered: the as-of engine rounds the same values month after month
    (97% of the calls on the real data). Equal numbers of other types (1 and 1.0) give the same float."""
    text = repr(float(x))
    if "e" not in text and len(text) - text.index(".") - 1 <= places:
        return float(x)  # already at most `places` decimals: nothing to round
    quantum = Decimal(1).scaleb(-places)
    return float(Decimal(text).quantize(quantum, rounding=ROUND_HALF_UP))


_PLAIN = (str, bool, int, dict)


def clean(x: Any) -> Any:
    """NaN / pandas NA -> None; numpy scalars -> Python scalars."""
    if x is None or x is pd.NA:
        return None
    kind = type(x)
    if kind is float:
        return None if x != x else x
    if kind in _PLAIN:  # answered without pd.isna, which cost more than the rest of building a board row
        return x
    try:
        if pd.isna(x):
            return None
    except (TypeError, ValueError):
        return x
    if hasattr(x, "item"):
        return x.item()
    return x


def _nones(values: list) -> list:
    """_none of each value, in one comprehension (a call per cell was 1.9 million calls a build)."""
    return [None if x is None or x is pd.NA or (isinstance(x, float) and x != x) else x for x in values]


def _none(x: Any) -> Any:
    """NaN / NA -> None, quickly (called once per selected cell)."""
    if x is None or x is pd.NA or (isinstance(x, float) and x != x):
        return None
    return x


def merge_selection(default: Mapping | None, override: Mapping | None) -> dict:
    """A benchmark's own selection keys replace the index-wide ones."""
    merged = dict(default or {})
    merged.update(override or {})
    return merged


_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def _norm_harness(h: Any) -> str:
    """A harness name as a preference matches it: case, spaces and a trailing qualifier such as
    "(run of 2025-10-31)", which importers add to tell repeated runs apart, do not matter."""
    name = _QUALIFIER.sub("", str(h or "")).strip().lower()
    return name.replace(" ", "-").replace("_", "-")


def select(results: pd.DataFrame, selection: Mapping, benchmarks: Iterable[str]) -> pd.DataFrame:
    """One result per (model, benchmark) for the given benchmarks, chosen by the selection rule."""
    first = chosen_positions(results, selection, benchmarks)
    if not first:
        return pd.DataFrame(columns=SELECTED_COLUMNS)
    df = results.iloc[first]
    missing = [c for c in SELECTED_COLUMNS if c not in df.columns]
    if missing:
        df = df.assign(**dict.fromkeys(missing))
    return df[SELECTED_COLUMNS].reset_index(drop=True)


class PerFrame:
    """Answers remembered for a frame while it lives. Frames are not hashable, so an entry is keyed by the frame's
    id and dropped when the frame is collected (weakref.finalize runs before the id can be reused): a later frame
    never gets another's answer, and the memo keeps no frame alive. Callers read the answers and never change them.
    """

    def __init__(self) -> None:
        self.entries: dict[tuple, Any] = {}

    def get(self, frame: pd.DataFrame, key: Hashable, make: Callable[[], Any]) -> Any:
        """The answer for (frame, key), made by make() the first time."""
        entry = (id(frame), key)
        if entry not in self.entries:
            self.put(frame, key, make())
        return self.entries[entry]

    def put(self, frame: pd.DataFrame, key: Hashable, value: Any) -> None:
        entry = (id(frame), key)
        if entry not in self.entries:
            weakref.finalize(frame, self.entries.pop, entry, None)
        self.entries[entry] = value

    def clear(self) -> None:
        self.entries.clear()


#: What selections read of a frame (_table), selections by rule, a source's rows, model lookups.
_TABLES, _SELECTED, _SOURCE_ROWS, _LOOKUPS = PerFrame(), PerFrame(), PerFrame(), PerFrame()


def _table(results: pd.DataFrame) -> dict:
    """What selections read of a frame, taken once per frame (the as-of engine selects several times from each
    month's frame): "groups", (benchmark, metric, subset) -> ascending positions of the rows with a value, and
    each column read so far as a list of Python values (to_numpy().tolist()'s)."""
    return _TABLES.get(results, None, lambda: _make_table(results))


def _make_table(results: pd.DataFrame) -> dict:
    groups: dict[tuple, list[int]] = {}
    have = results["value"].notna().to_numpy(dtype=bool).tolist()
    keys = zip(*(results[c].to_numpy().tolist() for c in ("benchmark", "metric", "subset")))
    for position, (key, valued) in enumerate(zip(keys, have)):
        if valued:
            groups.setdefault(key, []).append(position)
    return {"groups": groups, "columns": {}}


def _column(results: pd.DataFrame, column: str) -> list:
    """A column's cells as Python values (tolist's), once per frame."""
    columns = _table(results)["columns"]
    if column not in columns:
        columns[column] = results[column].to_numpy().tolist()
    return columns[column]


def _cells(results: pd.DataFrame, column: str, positions: Sequence[int]) -> list:
    """A column's cells at the given row positions, as Python values (tolist's)."""
    cells = _column(results, column)
    return [cells[p] for p in positions]


def _picked(results: pd.DataFrame, column: str, positions: list[int]) -> list:
    """A selected column's cells at the given positions, NaN / NA as None (all None for a column the frame lacks)."""
    if column not in results.columns:
        return [None] * len(positions)
    return _nones(_cells(results, column, positions))


#: The order of the sort rules when a selection names none.
_DEFAULT_ORDER = ("source-precedence", "independent-first", "newest", "highest")
#: The columns the sort rules and the final pick read, for the candidate rows.
_SORT_COLUMNS = ("model", "benchmark", "source", "harness", "origin", "value", "retrieved", "self_reported")
#: A sort key: one value per candidate row, and whether it sorts ascending.
_SortKey = tuple[list, bool]


def chosen_positions(results: pd.DataFrame, selection: Mapping, benchmarks: Iterable[str]) -> list[int]:
    """The row positions `select` returns, in its order.

    The candidates are filtered with one vectorised mask; ordering them (a few hundred rows at most) is a plain
    stable sort in Python, which costs far less than the pandas operations per call it replaces (the as-of
    engine selects some 800 times per build)."""
    sources = list(selection.get("sources", []))
    if not len(results):
        return []
    candidates = _candidates(results, selection, sources, benchmarks)
    if not candidates:
        return []
    col = {c: _cells(results, c, candidates) for c in _SORT_COLUMNS if c in results.columns}
    keys = _rule_keys(selection, sources, col) + _tie_breaks(col)
    order = list(range(len(candidates)))
    for values, up in reversed(keys):  # stable sorts, last key first = lexicographic
        order.sort(key=values.__getitem__, reverse=not up)
    return _first_of_each_pair(order, col, candidates)


def _candidates(results: pd.DataFrame, selection: Mapping, sources: list, benchmarks: Iterable[str]) -> list[int]:
    """Ascending positions of the rows with a value for the benchmarks at the selection's metric and subset, only
    those of the listed sources when the selection says `only_listed`."""
    groups = _table(results)["groups"]
    metric, subset = selection.get("metric", ""), selection.get("subset", "")
    candidates = sorted(p for b in set(benchmarks) for p in groups.get((b, metric, subset), ()))
    if selection.get("only_listed"):
        listed = set(sources)
        candidates = [p for p, s in zip(candidates, _cells(results, "source", candidates)) if s in listed]
    return candidates


def _rule_keys(selection: Mapping, sources: list, col: Mapping[str, list]) -> list[_SortKey]:
    """The sort keys of the selection's order, most significant first. The value sorts once: "highest" adds no
    key after a harness preference that falls back to the best value."""
    keys: list[_SortKey] = []
    for key in selection.get("order", _DEFAULT_ORDER):
        if key == "source-precedence":
            rank = {s: i for i, s in enumerate(sources)}
            keys.append(([rank.get(s, len(sources)) for s in col["source"]], True))
        elif key == "independent-first":
            keys.append(([_none(x) is not None and bool(x) for x in col["self_reported"]], True))
        elif key == "harness-preference":
            keys += _harness_keys(selection.get("harness") or {}, col)
        elif key == "newest":
            keys.append(([r if type(r) is str else _text_or_empty(r) for r in col["retrieved"]], False))
        elif key == "highest":  # the value list itself is the value key: is it there already?
            keys += [] if any(values is col["value"] for values, _ in keys) else [(col["value"], False)]
        else:  # the schema lists the keys; an unknown one is a programming error
            raise ValueError(f"unknown selection key {key!r}")
    return keys


def _harness_keys(harness_rule: Mapping, col: Mapping[str, list]) -> list[_SortKey]:
    """The preferred harnesses first, in the rule's order (names compared as _norm_harness reads them); among the
    others, the best value first when the rule says `otherwise: best`."""
    prefer = [_norm_harness(h) for h in harness_rule.get("prefer", [])]
    place = {h: i for i, h in enumerate(prefer)}
    keys: list[_SortKey] = [([place.get(_norm_harness(h), len(prefer)) for h in col["harness"]], True)]
    if harness_rule.get("otherwise") == "best":
        keys.append((col["value"], False))
    return keys


def _tie_breaks(col: Mapping[str, list]) -> list[_SortKey]:
    """The final tie-break, so that the choice never depends on file order: source, harness, origin as text."""
    return [
        ([x if type(x) is str else _text_or_empty(x) for x in col[name]], True)
        for name in ("source", "harness", "origin")
        if name in col
    ]


def _first_of_each_pair(order: list[int], col: Mapping[str, list], candidates: list[int]) -> list[int]:
    """The candidate position of the first row of each (model, benchmark) in that order."""
    seen: set = set()
    first = []
    for i in order:
        pair = (col["model"][i], col["benchmark"][i])
        if pair not in seen:
            seen.add(pair)
            first.append(candidates[i])
    return first


def _text_or_empty(x: Any) -> str:
    """A cell as text, NA as "" (the sort keys' fillna("").astype(str))."""
    return "" if _none(x) is None else str(x)


def select_by_benchmark(
    results: pd.DataFrame, default: Mapping | None, overrides: Mapping[str, Mapping | None]
) -> dict[tuple[str, str], dict]:
    """Select values for several benchmarks, each with its own selection override; keyed (model, benchmark).

    Remembered per frame and rule, because the uncertainty stage selects again what an index just selected;
    callers read the answer and never change it.
    """
    return _SELECTED.get(
        results,
        (repr(default), repr(sorted(overrides.items()))),
        lambda: _select_by_benchmark(results, default, overrides),
    )


def forget_selections() -> None:
    """Drop remembered selections and lookups (benchmarks time the selection itself, not a cache hit)."""
    _SELECTED.clear()
    _SOURCE_ROWS.clear()
    _LOOKUPS.clear()
    _TABLES.clear()


def rows_of_source(results: pd.DataFrame, source: str) -> pd.DataFrame:
    """The results of one source (one frame per results frame and source, so its selections are remembered too)."""
    return _SOURCE_ROWS.get(results, source, lambda: results[results["source"] == source])


def _select_by_benchmark(
    results: pd.DataFrame, default: Mapping | None, overrides: Mapping[str, Mapping | None]
) -> dict[tuple[str, str], dict]:
    groups: dict[str, list[str]] = {}
    rules: dict[str, dict] = {}
    for bench, override in overrides.items():
        rule = merge_selection(default, override)
        key = repr(sorted(rule.items()))
        groups.setdefault(key, []).append(bench)
        rules[key] = rule
    out: dict[tuple[str, str], dict] = {}
    for key, benches in groups.items():
        first = chosen_positions(results, rules[key], benches)  # select's rows, read without building a frame
        columns = [_picked(results, c, first) for c in SELECTED_COLUMNS]
        for row in zip(*columns):
            rec = dict(zip(SELECTED_COLUMNS, row))
            out[(rec["model"], rec["benchmark"])] = rec
    return out


def component(
    id: str,
    kind: str,
    how: str,
    value: float | None = None,
    *,
    raw: float | None = None,
    reason: str | None = None,
    source: str | None = None,
    retrieved: str | None = None,
    precision: int = 4,
) -> dict:
    """One entry of a row's components; a reason is required for imputed/derived/excluded/missing."""
    if how not in HOW:
        raise ValueError(f"unknown provenance {how!r}")
    if how in NEEDS_REASON and not reason:
        raise ValueError(f"{id}: how={how} needs a reason")
    entry = {
        "id": id,
        "kind": kind,
        "value": round_half_up(value, precision),
        "raw": clean(raw),
        "how": how,
        "source": source,
        "retrieved": retrieved,
    }
    if reason:
        entry["reason"] = reason
    return entry


def from_result(
    id: str,
    rec: Mapping,
    value: float | None,
    *,
    raw: float | None = None,
    how: str = "observed",
    reason: str | None = None,
    precision: int = 4,
) -> dict:
    """A benchmark component that carries a selected result's source and retrieval date, and its subset (the
    question set) when it is not the full set."""
    entry = component(
        id,
        "benchmark",
        how,
        value,
        raw=raw,
        reason=reason,
        source=rec.get("source"),
        retrieved=rec.get("retrieved"),
        precision=precision,
    )
    if rec.get("subset"):
        entry["subset"] = rec["subset"]
    return entry


def rank_rows(rows: list[dict], higher_is_better: bool = True) -> list[dict]:
    """Competition ranks ("1224") over rows marked `_ranked` with a value; sort ranked rows first, then the rest by id.

    Ranked rows are sorted by value (best first) then model id; rows without a rank follow, by model id.
    The private `_ranked` key is removed.
    """
    ranked = [r for r in rows if r.pop("_ranked", False) and r["value"] is not None]
    ranked_ids = {id(r) for r in ranked}
    others = [r for r in rows if id(r) not in ranked_ids]
    sign = -1 if higher_is_better else 1
    ranked.sort(key=lambda r: (sign * r["value"], r["model"]))
    previous = None
    for position, row in enumerate(ranked, start=1):
        if previous is None or row["value"] != previous["value"]:
            row["rank"] = position
        else:
            row["rank"] = previous["rank"]
        previous = row
    for row in others:
        row["rank"] = None
    others.sort(key=lambda r: r["model"])
    return ranked + others


def board(definition: Mapping, rows: list[dict]) -> dict:
    """The board envelope the site and the API read."""
    return {
        "index": definition["id"],
        "name": definition["name"],
        "version": str(definition["version"]),
        "kind": definition["kind"],
        "unit": definition.get("unit", ""),
        "description": " ".join(str(definition.get("description", "")).split()),
        "source_snapshot": definition.get("source_snapshot"),
        "rows": rank_rows(rows, definition.get("higher_is_better", True)),
        **written_kind(definition),
    }


def written_kind(definition: Mapping) -> dict:
    """The kind as the definition's author wrote it, when it is a generic name (data/kinds.py: WRITTEN)."""
    return {"kind_as_written": definition["kind_as_written"]} if "kind_as_written" in definition else {}


def model_lookup(models: pd.DataFrame) -> dict[str, dict]:
    """models frame -> {model id: {column: value or None}}.

    Remembered per frame, as selections are: every index of an as-of month reads the same priced models frame;
    callers read the answer and never change it."""
    if models is None or models.empty:
        return {}
    return _LOOKUPS.get(models, None, lambda: _model_lookup(models))


def remember_lookup(models: pd.DataFrame, lookup: dict[str, dict]) -> None:
    """Give model_lookup the answer for a frame whose lookup the caller derived more cheaply than converting the
    frame (the as-of months' priced frames: the full lookup with the prices in force; a test checks they agree)."""
    _LOOKUPS.put(models, None, lookup)


def _model_lookup(models: pd.DataFrame) -> dict[str, dict]:
    columns = list(models.columns)
    # Column by column: a typed column's tolist gives Python scalars and NA, for which _nones is clean; an object
    # column may hold anything (numpy scalars too), so clean reads each of its cells.
    cells = [
        [clean(v) for v in models[c].tolist()] if models[c].dtype == object else _nones(models[c].tolist())
        for c in columns
    ]
    return {rec["model"]: rec for rec in (dict(zip(columns, row)) for row in zip(*cells))}
