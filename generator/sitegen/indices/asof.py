"""Boards as of past dates, price history, frontier over time and month-to-month changes.

Two views of a board at the end of a month D:

- "known": what could have been known on D — results published on or before D (`published`: the date the
  number became public, or the capture that shows it was public by then), models available by D, the index only
  when its methodology version was in force (its own `history` entry runs from `from`, inclusive, to `to`,
  exclusive; a superseded version's month files say what replaced it). Selection rules run on those results, so
  a rule that prefers the newest snapshot takes the newest one public by D.
- "released": the frontier-over-time view — every result we have now, for models released by D.

A model is available from its release date; without one, from its first published result. The price in force at
D follows methodology/cost.md (data/frame.price_history): the vendor's list price entered by hand from the day it
took effect; before it, the highest-precedence source among the captured prices (by `price_precedence` in
scores/sources.yaml, one number's sources newest first, then the others) for the whole period; a price that
differs from the one in force is a disagreement, never a step.

The cost stays linear in the number of months: frames are filtered (not rebuilt) and the index engine
(`boards.compute_boards`) runs only for months whose filtered inputs differ from the month before. The
simulation's standard normals are drawn once per (board, model, component) stream for all months
(uncertainty.kept_normals): the seeds carry no date, so a copy is the same numbers.
"""

from __future__ import annotations

import calendar
import collections
import dataclasses
import hashlib
import math
import pickle
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any, cast

import numpy as np
import pandas as pd

from ..data.frame import price_history, price_observations, price_tier  # noqa: F401 (asof.price_* names)
from . import pedagogy, simcache, uncertainty
from .boards import NOT_BOARDS, compute_boards, publishable
from .compare import diff_board
from .parts import model_lookup, remember_lookup
from .uncertainty import annotate_boards, kept_normals, level_text

VIEWS = ("known", "released")
#: Board kinds whose best value over time and value frontier are published (capability boards).
FRONTIER_KINDS = frozenset({"weighted-mean", "ai-iq", "pedagogy"})


def month_end(month: str) -> str:
    """ "YYYY-MM" -> its last day, "YYYY-MM-DD"."""
    y, m = int(month[:4]), int(month[5:7])
    return f"{month[:7]}-{calendar.monthrange(y, m)[1]:02d}"


def _day(value: Any) -> str | None:  # a frame cell or a YAML value
    """A date given as YYYY, YYYY-MM or YYYY-MM-DD -> the earliest day it can mean (as text); None if unknown."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    text = str(value).strip()
    if len(text) == 4:
        return f"{text}-01-01"
    if len(text) == 7:
        return f"{text}-01"
    return text[:10] or None


def data_date(results: pd.DataFrame) -> str | None:
    """The newest `published` or `retrieved` date in the results: the last day any board can speak for (the build
    reads no clock)."""
    days = [
        str(d)[:10]
        for col in ("published", "retrieved")
        if col in results
        for d in results[col].tolist()
        if isinstance(d, str) and d
    ]
    return max(days) if days else None


def month_day(month: str, last: str | None) -> str:
    """The day a month's board speaks for: its last day, or in the month of the data date, that date (the current
    month's board is dated by its data, never after it)."""
    return last if last is not None and last[:7] == month[:7] else month_end(month)


def availability(results: pd.DataFrame, models: pd.DataFrame) -> dict[str, str]:
    """Model id -> the day it counts from: its release date, else its first published result."""
    first = cast(dict[str, object], results.groupby("model")["published"].min().to_dict() if len(results) else {})
    out: dict[str, str | None] = {}
    for model in sorted(set(models["model"]) | set(first)):
        out[model] = None
    for model, released in zip(models["model"], models["released"]):
        out[model] = _day(released)
    for model, day in out.items():
        if day is None and first.get(model):
            out[model] = str(first[model])[:10]
    return {m: d for m, d in out.items() if d}


def months_covered(results: pd.DataFrame, available: Mapping[str, str]) -> list[str]:
    """Every month from the first release or retrieval to the last retrieval."""
    retrieved = [r for r in results["retrieved"] if isinstance(r, str) and r]
    days = [d for d in available.values() if d] + retrieved
    if not days:
        return []
    last = max(retrieved) if retrieved else max(days)
    return pedagogy.month_range(min(days)[:7], last[:7])


def price_tables(
    model_records: list[Mapping], precedence: Mapping[str, int] | None = None
) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """Per model, from one price_history each: its price steps in date order ([{date, input, output, source (, url,
    captured, source_date)}, ...], by source precedence (data/frame.price_precedence); undated prices are not
    steps), and the dated prices that disagree with the price in force on their date. Models with neither are left
    out of that table."""
    steps, disagreements = {}, {}
    for record in model_records:
        own_steps, own_disagreements = price_history(record, precedence)
        if own_steps:
            steps[record["model"]] = own_steps
        if own_disagreements:
            disagreements[record["model"]] = own_disagreements
    return steps, disagreements


def price_steps(model_records: list[Mapping], precedence: Mapping[str, int] | None = None) -> dict[str, list[dict]]:
    """Every model's price steps in date order (price_tables)."""
    return price_tables(model_records, precedence)[0]


def price_at(steps: list[dict], day: str) -> dict | None:
    """The step in force on `day`: the newest dated on or before it (the last in date, source order)."""
    current = None
    for step in steps:
        if step["date"] <= day:
            current = step
    return current


def models_priced_at(models: pd.DataFrame, steps: Mapping[str, list[dict]], day: str) -> pd.DataFrame:
    """The models frame with the price columns set to the prices in force on `day` (unpriced before any step).

    The `prices` column (each source's own price, e.g. a paper's) is left as it is."""
    frame = models.copy()
    inputs, outputs, as_of, source = [], [], [], []
    for model in frame["model"]:
        step = price_at(steps.get(model, []), day)
        inputs.append(math.nan if step is None or step["input"] is None else step["input"])
        outputs.append(math.nan if step is None or step["output"] is None else step["output"])
        as_of.append(None if step is None else step["date"])
        source.append(None if step is None else step["source"])
    frame["input_per_mtok"] = pd.array(inputs, dtype="float64")
    frame["output_per_mtok"] = pd.array(outputs, dtype="float64")
    frame["pricing_as_of"] = pd.array(as_of, dtype="string")
    frame["pricing_source"] = pd.array(source, dtype="string")
    return frame


def priced_lookup(
    lookup: Mapping[str, Mapping], steps: Mapping[str, list[dict]], day: str, present: set[str]
) -> dict[str, dict]:
    """model_lookup(models_priced_at(models of `present`, steps, day)), from model_lookup(models): each present
    model's cells with the price cells in force on `day` (converting every month's frame cost more than its boards)."""
    out = {}
    for model, cells in lookup.items():
        if model in present:
            step = price_at(steps.get(model, []), day)
            out[model] = {
                **cells,
                "input_per_mtok": None if step is None else step["input"],
                "output_per_mtok": None if step is None else step["output"],
                "pricing_as_of": None if step is None else step["date"],
                "pricing_source": None if step is None else step["source"],
            }
    return out


def _own_entry(definition: Mapping) -> Mapping | None:
    """The definition's own version in its `history` (the entry whose version is the definition's), if any."""
    for entry in definition.get("history") or []:
        if str(entry.get("version")) == str(definition.get("version")):
            return entry
    return None


def in_force(definition: Mapping, day: str) -> bool:
    """Whether the definition's own methodology version was in force on `day`: from its `from` (inclusive) to its
    `to` (exclusive), a month-only date meaning its first day. No dated entry of its own version: always."""
    entry = _own_entry(definition)
    if entry is None:
        return True
    start, end = _day(entry.get("from")), _day(entry.get("to"))
    return (start is None or start <= day) and (end is None or day < end)


def superseded(definition: Mapping, index_defs: Mapping[str, Mapping], day: str) -> dict | None:
    """When the definition's version had ended by `day`: {"from", "by", "version"}, the definition of the same
    index (same `name`) in force on `day` that replaced it (by and version None when none of ours is)."""
    entry = _own_entry(definition)
    end = _day((entry or {}).get("to"))
    if end is None or day < end:
        return None
    for other_id, other in sorted(index_defs.items()):
        if (
            other.get("name") == definition.get("name")
            and other is not definition
            and (own := _own_entry(other))
            and _day(own.get("from")) == end
            and in_force(other, day)
        ):
            return {"from": end, "by": other_id, "version": str(other.get("version"))}
    return {"from": end, "by": None, "version": None}


def frames_at(
    results: pd.DataFrame, models: pd.DataFrame, available: Mapping[str, str], raw: Mapping, day: str, view: str
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """The results, models and per-question rows a board could use on `day` in the given view."""
    present = {m for m, d in available.items() if d <= day}
    kept = results["model"].isin(present)
    if view == "known":
        kept &= results["published"] <= day
    elif view != "released":
        raise ValueError(f"unknown as-of view {view!r}")
    return (
        results[kept],
        models[models["model"].isin(present)],
        {key: rows for key, rows in raw.items() if key[1] in present},
    )


def _slim(row: Mapping) -> dict:
    """What the as-of table shows of a row: value, rank, status, and its interval, rank range and tier where the
    board has them (the organisation comes with the names file)."""
    out = {
        "model": row["model"],
        "value": row.get("value"),
        "rank": row.get("rank"),
        "status": row.get("status", row.get("how")),
    }
    for key in ("interval", "rank_interval", "tier"):
        if row.get(key) is not None:
            out[key] = row[key]
    return out


def _digest(value: object) -> bytes:
    """16 bytes of SHA-256 over value's pickle: equal values that pickle alike agree; anything else only differs."""
    return hashlib.sha256(pickle.dumps(value, protocol=5)).digest()[:16]


class InputDigests:
    """Digests of everything a definition's boards of one month are computed from, so those boards are computed
    once per distinct set of inputs: among the months and views of a build (`seen`) and, inside a
    simcache.kept_in block, across builds. Each result row, model row and per-question frame is digested once;
    a month's key is then a few array operations.

    A key covers the definition, the benchmarks registry, the seed salt, every result row of the benchmarks the
    definition reads (benchmarks_read, in the frame's order), their per-question frames, and every model present
    that day (its row of the models frame and the price in force): more than the engine reads, so a key can only
    miss where the inputs are the same, never hit where they differ. The store's salt (the package's code and
    the libraries' versions) is added by the store."""

    def __init__(self, results: pd.DataFrame, models: pd.DataFrame, raw: Mapping, benchmarks: list):
        self.index = results.index
        self.rows = np.array([_digest(r) for r in results.itertuples(index=False, name=None)] or [b""], dtype="S16")
        self.frames = _digest((tuple(results.columns), tuple(models.columns), benchmarks))
        self.models = {
            m: _digest(row) for m, row in zip(models["model"].tolist(), models.itertuples(index=False, name=None))
        }
        self.raw = {k: _digest(v) for k, v in raw.items()}
        self.definitions: dict[str, bytes] = {}

    def key(
        self,
        index_id: str,
        definition: Mapping,
        res: pd.DataFrame,
        raw_at: Mapping,
        month_models: _MonthModels | _TodayModels,
        reads: tuple[str, ...],
    ) -> str:
        if index_id not in self.definitions:
            self.definitions[index_id] = _digest((index_id, definition))
        digest = hashlib.sha256(b"asof-boards-2" + self.frames + self.definitions[index_id])
        digest.update(uncertainty.current_salt().encode() + b"\0")  # the seeds' salt (mcerror's other-seed runs)
        wanted = res["benchmark"].isin(reads).to_numpy()
        positions = self.index.get_indexer(res.index[wanted])
        digest.update(self.rows[positions].tobytes() if len(positions) else b"")
        digest.update(
            b"".join(k[0].encode() + b"\0" + k[1].encode() + b"\0" + self.raw[k] for k in raw_at if k[0] in reads)
        )
        digest.update(month_models.digest(self))
        return digest.hexdigest()


class _MonthModels:
    """One month's models frame with the prices in force, made on first use and shared by its definitions."""

    def __init__(
        self,
        mods: pd.DataFrame,
        steps: Mapping[str, list[dict]],
        day: str,
        lookup: Mapping,
        whole: pd.DataFrame | None = None,
    ):
        """`mods`: the models present (those of `whole` when it is given, of which `mods` need hold only the
        `model` column: the whole rows are then taken on first use, in a month whose boards are computed)."""
        self.mods, self.steps, self.day, self.lookup, self.whole = mods, steps, day, lookup, whole
        self._frame: pd.DataFrame | None = None
        self._digest: bytes | None = None

    def frame(self) -> pd.DataFrame:
        if self._frame is None:
            mods = self.mods if self.whole is None else self.whole[self.whole["model"].isin(self.mods["model"])]
            self._frame = models_priced_at(mods, self.steps, self.day)
            remember_lookup(self._frame, priced_lookup(self.lookup, self.steps, self.day, set(self.mods["model"])))
        return self._frame

    def digest(self, digests: InputDigests) -> bytes:
        if self._digest is None:
            present = self.mods["model"].tolist()
            prices = []
            for model in present:
                step = price_at(self.steps.get(model, []), self.day)
                prices.append(None if step is None else (step["input"], step["output"], step["date"], step["source"]))
            self._digest = b"".join(digests.models[m] for m in present) + _digest((present, prices))
        return self._digest


class _TodayModels:
    """Today's models frame as it is (the prices in force now): what today's boards are computed from."""

    def __init__(self, models: pd.DataFrame):
        self.models = models

    def frame(self) -> pd.DataFrame:
        return self.models

    def digest(self, digests: InputDigests) -> bytes:
        return b"".join(digests.models[m] for m in self.models["model"].tolist()) + b"today"


def today_boards(
    results: pd.DataFrame,
    models: pd.DataFrame,
    benchmarks: list,
    index_defs: Mapping[str, Mapping],
    raw: Mapping,
    digests: InputDigests | None = None,
) -> dict[str, dict]:
    """Today's publishable index boards, annotated: boards.compute_boards and uncertainty.annotate_boards one
    definition at a time (they compute each definition on its own), each kept by its inputs' digest (month_boards;
    `digests`, the frames' InputDigests when the caller has made them), so an edit recomputes only the definitions
    that read what it changed."""
    digests = digests or InputDigests(results, models, raw, benchmarks)
    today = _TodayModels(models)
    out: dict[str, dict] = {}
    for index_id, definition in sorted(index_defs.items()):
        if definition["kind"] not in NOT_BOARDS:
            out.update(
                month_boards(
                    digests, {}, index_id, definition, results, today, benchmarks, raw, benchmarks_read(definition)
                )
            )
    return dict(sorted(out.items()))


def month_boards(
    digests: InputDigests,
    seen: dict[str, dict],
    index_id: str,
    definition: Mapping,
    res: pd.DataFrame,
    month_models: _MonthModels | _TodayModels,
    benchmarks: list,
    raw_at: Mapping,
    reads: tuple[str, ...],
    reduce: bool = False,
    names: set[str] | None = None,
) -> dict:
    """A definition's publishable boards of one month, annotated with intervals, rank intervals and tiers as
    today's boards are: taken from `seen` or the simulation store (indices/simcache.py) when a month with the same
    inputs (InputDigests.key) was computed before, otherwise computed and kept in both. With `reduce`, what `seen`
    keeps and this returns is each board without its draws (`without_draws`; the store keeps the whole board).
    `names`, when given, collects the store entry's name (asof_part keeps its definition's months alive by it)."""
    name = digests.key(index_id, definition, res, raw_at, month_models, reads)
    if names is not None:
        names.add(name)
    if name in seen:
        return seen[name]

    def compute() -> dict:
        priced = month_models.frame()
        rows: set[str] = set()
        with simcache.traced(rows):  # the rows kept on their own (simcache.kept_row), kept alive with this entry
            boards = compute_boards(res, priced, benchmarks, {index_id: cast(dict, definition)}, raw_at)
        boards = {b: v for b, v in boards.items() if publishable(v, definition)}
        # per-question rows too: HLE and Pedagogy draw the questions their models share together. The whole
        # entry is kept by this key, so the annotation's own entries (keyed by pickled frames) are not made.
        with simcache.kept_in(None):
            annotate_boards(boards, {index_id: definition}, res, priced, benchmarks, raw_at)
        return {"boards": boards, "rows": sorted(rows)}

    found = simcache.kept(name, compute)
    kept_rows(found["rows"], names)
    boards = found["boards"]
    seen[name] = {b: without_draws(v) for b, v in boards.items()} if reduce else boards
    return seen[name]


def kept_rows(rows: list[str], names: set[str] | None) -> None:
    """A month entry's rows (the store entries of the rows it was made from) stay in the store with it: used by
    this build, and named with its definition's share (`names`) so a build that loads the share whole keeps them
    too. An edit that later misses the month then finds every row it did not change."""
    if names is not None:
        names.update(rows)
    used = getattr(simcache.current(), "used", None)
    if used is not None:
        used.update(rows)


def without_draws(board: dict) -> dict:
    """A board without `ahead` (each ranked row's simulated rank in every draw: the compare page's, of today's
    boards only), the largest part of an annotated board and read by nothing of the as-of views."""
    return {k: v for k, v in board.items() if k != "ahead"} if "ahead" in board else board


def shown(board: dict | None) -> dict | None:
    """What the published as-of views read of a board (the API's month files, the board page's date control, its
    names and texts files, the frontiers over time): the definition, version, snapshot and direction, the level
    of its rank intervals, and per row `_slim`'s fields. The month-to-month changes read more (the rows'
    components): they are made from the whole board before it is replaced by this."""
    if board is None:
        return None
    out: dict = {k: board[k] for k in ("definition", "version", "source_snapshot", "higher_is_better") if k in board}
    level = (board.get("uncertainty") or {}).get("level")
    if level is not None:
        out["uncertainty"] = {"level": level}
    out["rows"] = [_slim(r) for r in board["rows"]]
    return out


class _MonthInputs:
    """One month's filtered frames in one view, and the counts that say whether a definition's inputs moved."""

    def __init__(
        self,
        frames: tuple[pd.DataFrame, pd.DataFrame, dict],
        steps: Mapping[str, list[dict]],
        day: str,
        lookup: Mapping,
        whole: pd.DataFrame | None = None,
    ):
        """`frames`: frames_at's; with `whole`, the models frame its models were filtered from, of which they need
        hold only the `model` and `manual_iq` columns (_MonthModels takes the whole rows when it needs them)."""
        self.res, self.mods, self.raw_at = frames
        self.day, self._whole = day, whole
        # prices in force for the models present (a step counts once it is dated on or before the day)
        self.priced = sum(1 for m in self.mods["model"].tolist() for step in steps.get(m, ()) if step["date"] <= day)
        self.manual = int(self.mods["manual_iq"].notna().sum()) if "manual_iq" in self.mods else 0
        # rows per benchmark (counted over a list: pandas' value_counts cost more than the month's other counts)
        self.counts = dict(collections.Counter(self.res["benchmark"].tolist()))
        self.raw_counts: dict[str, int] = {}
        for bench, _ in self.raw_at:
            self.raw_counts[bench] = self.raw_counts.get(bench, 0) + 1
        self._steps, self._lookup = steps, lookup
        self._models: _MonthModels | None = None

    def key(self, read: tuple[str, ...], kind: str) -> tuple:
        """What a definition's boards can depend on: its benchmarks' results and per-question rows, the models
        with a manual value, and (for cost) the prices in force. Each filtered set only grows with the date, so
        equal counts mean equal inputs. A computation that starts reading something else from the frames (e.g.
        other models' metadata) must add it here."""
        return (
            tuple(self.counts.get(b, 0) for b in read),
            tuple(self.raw_counts.get(b, 0) for b in read),
            self.manual,
            self.priced if kind == "cost" else None,
        )

    def models(self) -> _MonthModels:
        """The month's models frame with its prices, made on first use."""
        if self._models is None:
            self._models = _MonthModels(self.mods, self._steps, self.day, self._lookup, self._whole)
        return self._models


@dataclasses.dataclass
class AsofPlan:
    """What every part of one as-of computation shares (asof_plan): the months and their days, who is available
    from when, the price steps, the snapshots' days. Made once, before the parts are (build/workers.py forks
    after it)."""

    results: pd.DataFrame  # sorted by `published`
    models: pd.DataFrame
    available: dict[str, str]
    last: str | None
    steps: dict[str, list[dict]]
    disagreements: dict[str, list[dict]]
    months: list[str]
    dates: dict[str, str]
    snapshots: dict[str, str]
    digests: InputDigests | None = None  # of every row (any order of the same rows gives the same keys)
    # part_keys' last answer, with the arguments it was made from (held, so that `is` tells them): made once before
    # the compute worker forks (build._worker_share), read again by both processes' asof_part
    shares: tuple | None = dataclasses.field(default=None, repr=False, compare=False)


def asof_plan(
    results: pd.DataFrame,
    models: pd.DataFrame,
    model_records: list[Mapping],
    index_defs: Mapping[str, Mapping],
    months: list[str] | None = None,
    digests: InputDigests | None = None,
    price_precedence: Mapping[str, int] | None = None,
) -> AsofPlan:
    """The months covered (or `months`), their days, availability, price tables and snapshot days; `digests`, the
    frames' InputDigests when the caller has them (today_boards reads the same), else each part makes its own;
    `price_precedence` orders the sources of the prices (data/frame.price_precedence)."""
    available = availability(results, models)
    last = data_date(results)
    steps, disagreements = price_tables(model_records, price_precedence)
    months = months_covered(results, available) if months is None else months
    # Boards pinned to one source snapshot are shown as of that snapshot: the day it was retrieved.
    pinned = {d["source_snapshot"] for d in index_defs.values() if d.get("source_snapshot")}
    snapshots = {
        s: str(results.loc[results["source"] == s, "retrieved"].max())
        for s in sorted(pinned)
        if (results["source"] == s).any()
    }
    return AsofPlan(
        results=results.sort_values("published", kind="stable"),
        models=models,
        available=available,
        last=last,
        steps=steps,
        disagreements=disagreements,
        months=months,
        dates={month: month_day(month, last) for month in months},
        snapshots=snapshots,
        digests=digests,
    )


class _AsofRun:
    """What one asof_part call shares across its months and views: the inputs, the boards computed so far (by input
    digest, and by (month, definition) in the known view), the count of engine runs, and per board its previous
    month's known board (the changes are made month by month, so that a month's whole boards can be let go)."""

    def __init__(
        self,
        plan: AsofPlan,
        benchmarks: list,
        index_defs: Mapping[str, Mapping],
        only: Collection[str] | None,
        raw: Mapping,
        slim: bool,
        digests: InputDigests | None = None,
    ):
        self.plan, self.results, self.models = plan, plan.results, plan.models
        self.benchmarks, self.index_defs, self.raw, self.steps = benchmarks, index_defs, raw, plan.steps
        self.ids = sorted(i for i in index_defs if only is None or i in only)
        self.slim = slim
        self.out: dict = {"boards": {}, "superseded": {}, "changes": {}}
        self.runs = 0
        self.runs_by: dict[str, int] = {}  # definition id -> its engine runs (asof_part keeps each definition's)
        self.names: dict[str, set[str]] = {}  # definition id -> the store entries of its months (month_boards)
        self.reads = {i: benchmarks_read(index_defs[i]) for i in self.ids}
        # a month's frames hold the rows of the benchmarks this run's definitions read, no other: a definition's
        # boards and its month key read only those (InputDigests.key), and a run of one definition (the one an edit
        # reached, asof_part) then filters its few rows month after month, not every result
        read = {b for i in self.ids for b in self.reads[i]}
        self.scope = self.results[self.results["benchmark"].isin(read)]
        self.raw_read = {k: v for k, v in raw.items() if k[0] in read}
        self.slim_models = self.models[[c for c in ("model", "manual_iq") if c in self.models]]
        self.lookup = model_lookup(self.models)
        self.known_at: dict[tuple[str, str], tuple] = {}  # (month, definition id) -> the known view's (key, boards)
        self.digests = digests or plan.digests or InputDigests(self.results, self.models, raw, benchmarks)
        # input digest -> the boards computed from those inputs this month; an earlier month's with the same inputs
        # (rare: a known view equal to an earlier released one) come from the simulation store, or are computed
        # again, rather than every month's whole boards being held to the end
        self.seen: dict[str, dict] = {}
        self.caches: dict[str, dict[str, tuple]] = {view: {} for view in VIEWS}  # view -> definition -> key, boards
        # where each board and superseded entry is first made in a run of every view's months one after the other
        # (compute_asof's order before the months were streamed): the parts are joined in that order
        self.order: dict[str, tuple] = {}
        self.gone_order: dict[str, tuple] = {}
        self.touched: dict[str, None] = {}  # the boards with an entry this month
        self.last: dict[str, tuple[str, dict | None]] = {}  # board id -> its previous month with an entry, known board
        # id(board) -> (board, shown(board)): a board shown in several months is one object (held, so its id is its)
        self.shown: dict[int, tuple[dict, dict | None]] = {}
        # (published, model) in date order, so a month's publications are one slice
        self.dated = sorted(
            (day, model)
            for day, model in zip(self.results["published"].tolist(), self.results["model"].tolist())
            if isinstance(day, str)
        )
        self.days = [day for day, _ in self.dated]

    def run(self) -> dict:
        plan, caches = self.plan, self.caches
        # Month after month simulates the same (board, model, component) streams, whose seeds carry no date: each
        # is drawn once (uncertainty.kept_normals), the same numbers.
        with kept_normals():
            for i, month in enumerate(plan.months):
                for v, view in enumerate(VIEWS):
                    self.month(v, view, i, month, plan.dates[month], caches[view])
                self.close(month)
        for board_id, per_month in self.out["boards"].items():
            # months with a known board first, then those with a released one only (each in date order)
            self.out["boards"][board_id] = dict(
                sorted(per_month.items(), key=lambda kv: (kv[1]["known"] is None, kv[0]))
            )
        self.out["engine_runs"] = self.runs
        self.out["order"], self.out["gone_order"] = self.order, self.gone_order
        self.out["frontier"] = _frontiers(
            self.out["boards"], plan.available, self.index_defs, plan.dates, self.models, self.steps
        )
        return self.out

    def month(self, v: int, view: str, i: int, month: str, day: str, cache: dict[str, tuple]) -> None:
        """Every definition's boards of one month in one view, into out["boards"] (and out["superseded"])."""
        inputs = _MonthInputs(self.frames(day, view), self.steps, day, self.lookup, self.models)
        for index_id in self.ids:
            definition = self.index_defs[index_id]
            if definition["kind"] == "benchmark-boards":
                continue
            if view == "known" and not in_force(definition, day):
                gone = superseded(definition, self.index_defs, day)
                if gone:
                    self.gone_order.setdefault(index_id, (i, index_id))
                    self.out["superseded"].setdefault(index_id, {})[month] = gone
                cache.pop(index_id, None)
                continue
            self.definition(view, month, index_id, definition, inputs, cache)
            for pos, (board_id, board) in enumerate(cache[index_id][1].items()):
                place = (v, i, index_id, pos)
                if board_id not in self.order or place < self.order[board_id]:
                    self.order[board_id] = place
                self.out["boards"].setdefault(board_id, {}).setdefault(month, {})[view] = board
                self.touched[board_id] = None

    def frames(self, day: str, view: str) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
        """frames_at(day, view) of the run's rows: the released view's frames filtered once a day (the models
        present and their rows), and the known view's taken from them (those of its rows published by the day).
        The models are filtered by the columns the month's key reads (`slim_models`): a month whose boards are
        loaded never takes the whole rows of its models (_MonthModels does, for a month it computes)."""
        if self.at is None or self.at[0] != day:
            self.at = (
                day,
                frames_at(self.scope, self.slim_models, self.plan.available, self.raw_read, day, "released"),
            )
        res, mods, raw = self.at[1]
        if view == "known":
            return res[res["published"] <= day], mods, raw
        if view != "released":
            raise ValueError(f"unknown as-of view {view!r}")
        return res, mods, raw

    at: tuple[str, tuple[pd.DataFrame, pd.DataFrame, dict]] | None = None

    def close(self, month: str) -> None:
        """The month's changes from each board's previous month with an entry, then its boards as shown."""
        dates = self.plan.dates
        for board_id in self.touched:
            views = self.out["boards"][board_id][month]
            for view in VIEWS:
                views.setdefault(view, None)
            if board_id in self.last:
                before, old = self.last[board_id]
                change = month_change(old, views["known"], dates[before], dates[month], self.dated, self.days)
                if change is not None:
                    self.out["changes"].setdefault(board_id, {})[month] = change
            self.last[board_id] = (month, views["known"])
            if self.slim:
                for view in VIEWS:
                    views[view] = self._shown(views[view])
        self.touched.clear()
        self.known_at.clear()  # only a month's own released view reads it
        self.seen.clear()
        # a board the next month may show again is one a view's cache holds: the others are let go
        live = {id(b) for cache in self.caches.values() for _, boards in cache.values() for b in boards.values()}
        self.shown = {k: v for k, v in self.shown.items() if k in live}
        if self.between is not None:
            self.between()

    between: Callable[[], object] | None = None

    def _shown(self, board: dict | None) -> dict | None:
        if board is None:
            return None
        if id(board) not in self.shown:
            self.shown[id(board)] = (board, shown(board))
        return self.shown[id(board)][1]

    def definition(
        self,
        view: str,
        month: str,
        index_id: str,
        definition: Mapping,
        inputs: _MonthInputs,
        cache: dict[str, tuple],
    ) -> None:
        """One definition's boards in one month and view: the view's previous month's when its inputs are the
        same, else the known view's of the month when those are, else computed."""
        key = inputs.key(self.reads[index_id], definition["kind"])
        same = self.known_at.get((month, index_id))
        if (index_id not in cache or cache[index_id][0] != key) and same and same[0] == key:
            cache[index_id] = same  # the month's known inputs are a subset of its released ones: equal
        elif index_id not in cache or cache[index_id][0] != key:
            cache[index_id] = (key, self.boards(index_id, definition, inputs, key))
            self.runs += 1
            self.runs_by[index_id] = self.runs_by.get(index_id, 0) + 1
        if view == "known":
            self.known_at[(month, index_id)] = cache[index_id]

    def boards(self, index_id: str, definition: Mapping, inputs: _MonthInputs, key: tuple) -> dict:
        """The boards computed from the month's inputs; none when the definition has nothing to read."""
        if not (any(key[0]) or any(key[1]) or (definition["kind"] == "cost" and inputs.priced)):
            return {}
        return month_boards(
            self.digests,
            self.seen,
            index_id,
            definition,
            inputs.res,
            inputs.models(),
            self.benchmarks,
            inputs.raw_at,
            self.reads[index_id],
            reduce=True,
            names=self.names.setdefault(index_id, set()),
        )


def _frontiers(
    boards: Mapping[str, Mapping],
    available: Mapping[str, str],
    index_defs: Mapping[str, Mapping],
    dates: Mapping[str, str],
    models: pd.DataFrame,
    steps: Mapping[str, list[dict]],
) -> dict:
    """{board id: best over time, best as known, coverage and value by quarter} of the capability boards."""
    frontier = {}
    for board_id, per_month in sorted(boards.items()):
        kind = index_defs[next(v for m in per_month.values() for v in m.values() if v)["definition"]]["kind"]
        if kind in FRONTIER_KINDS:
            frontier[board_id] = {
                "best": best_over_time(per_month, available, index_defs, dates),
                "as_known": best_as_known(per_month, available, index_defs, dates),
                "coverage": coverage(per_month, models),
                "value_by_quarter": value_frontier_by_quarter(per_month, models, steps, index_defs),
            }
    return frontier


def asof_part(
    plan: AsofPlan,
    benchmarks: list,
    index_defs: Mapping[str, Mapping],
    raw: Mapping | None = None,
    only: Collection[str] | None = None,
    slim: bool = False,
    between: Callable[[], object] | None = None,
) -> dict:
    """The as-of boards of the definitions in `only` (every definition when None), month after month: their boards
    in both views, superseded months, month-to-month changes and frontiers over time (each a function of one
    board's months), and where each was first made (join_asof's order). A month's boards are computed, its
    changes made from them, and with `slim` they are replaced by what the published views read (`shown`) before
    the next month: no month's draws or whole rows are kept past it. `between()` is called after each month, once
    its boards are let go (build/workers.release_free_memory: the engine itself does no I/O).

    Inside a simcache.kept_in block, each definition's share of the result is kept by `part_keys` (every input
    of its months, changes and frontiers): a definition whose inputs an edit did not reach is loaded whole, with
    no month's frames filtered, and the months of the others run as before (each month's boards loaded by its own
    key when its inputs did not change). The result is the same as one run over every definition's months (no
    definition's share reads another's), with `keys`: each board's share key (build keeps its API texts by it)."""
    raw = raw or {}
    store = simcache.current()
    ids = sorted(i for i in index_defs if only is None or i in only)
    if store is None:
        run = _AsofRun(plan, benchmarks, index_defs, ids, raw, slim)
        run.between = between
        return run.run()
    digests = plan.digests or InputDigests(plan.results, plan.models, raw, benchmarks)
    keys = part_keys(plan, digests, index_defs, raw, ids, slim)
    pieces: dict[str, dict] = {}
    for index_id in ids:
        data = store.get(keys[index_id])
        piece = _loaded(data) if data is not None else None
        if isinstance(piece, dict) and piece.get("piece") == PIECE:
            pieces[index_id] = piece
    missing = [i for i in ids if i not in pieces]
    if missing:
        run = _AsofRun(plan, benchmarks, index_defs, missing, raw, slim, digests)
        run.between = between
        out = run.run()
        for index_id in missing:
            data = pickle.dumps(_piece(out, index_id, run), protocol=5)
            store.put(keys[index_id], data)
            pieces[index_id] = cast(dict, simcache.loads(data))  # the same objects whether computed or loaded
    used = getattr(store, "used", None)
    if used is not None:  # a loaded share's months stay in the store (a later edit that reaches it finds them)
        for index_id in ids:
            used.update(pieces[index_id]["names"])
    joined = _joined_pieces([pieces[i] for i in ids])
    joined["keys"] = {b: keys[index_id] for index_id in ids for b in pieces[index_id]["boards"]}
    return joined


#: What a kept definition's share of asof_part is (a changed layout is another name, never a wrong load).
PIECE = "asof-piece-1"


def part_keys(
    plan: AsofPlan,
    digests: InputDigests,
    index_defs: Mapping[str, Mapping],
    raw: Mapping,
    ids: list[str],
    slim: bool,
) -> dict[str, str]:
    """Per definition id, the digest of everything its share of asof_part reads: the definition and every other of
    the same name (whose versions say when it was superseded and by what), the seed salt, the benchmarks
    registry and the frames' columns, `slim`; the plan's months, days, availability and price steps; every model
    row (present models and their prices decide each month's frame); every (published, model) pair of the results
    (the month-to-month changes say which models had results published in the month, of any benchmark); and
    every result row and per-question frame of the benchmarks it or another version of its name reads
    (benchmarks_read), in the plan's order.
    That is all the month keys (InputDigests.key) cover and more, so a key only misses where the share would
    be the same, never hits where it would differ. The store adds its salt (the package's code: build/simcache.py
    FileStore names each entry by the salt and the key). The plan keeps its last answer (`shares`): asked again for
    the same definitions, frames and layout, it gives the keys it made."""
    made, salt = plan.shares, uncertainty.current_salt()
    same = made is not None and made[0] is index_defs and made[1] is digests and made[3:5] == (slim, salt)
    if made is not None and same and _same_raw(made[2], raw) and set(ids) <= made[5].keys():
        return {index_id: made[5][index_id] for index_id in ids}
    results = plan.results
    dated = sorted(
        (day, model)
        for day, model in zip(results["published"].tolist(), results["model"].tolist())
        if isinstance(day, str)
    )
    common = hashlib.sha256(b"asof-part-1" + digests.frames)
    common.update(uncertainty.current_salt().encode() + b"\0")
    common.update(_digest((PIECE, slim, plan.months, plan.dates, plan.last, plan.available, plan.steps, dated)))
    common.update(b"".join(digests.models[m] for m in plan.models["model"].tolist()))
    positions = digests.index.get_indexer(results.index)
    rows = digests.rows[positions] if len(positions) else digests.rows[:0]
    benchmark = results["benchmark"].to_numpy()
    out = {}
    for index_id in ids:
        definition = index_defs[index_id]
        named = sorted((k, v) for k, v in index_defs.items() if v.get("name") == definition.get("name"))
        # the versions of one name may make the same board (its months from each): one share holds it, so every
        # version's key covers the benchmarks any of them reads, and they hit or miss together
        reads = tuple(sorted({b for _, v in named for b in benchmarks_read(v)} | set(benchmarks_read(definition))))
        digest = common.copy()
        digest.update(_digest((index_id, definition, named, reads)))
        digest.update(rows[np.isin(benchmark, reads)].tobytes())
        digest.update(
            b"".join(
                k[0].encode() + b"\0" + k[1].encode() + b"\0" + digests.raw[k] for k in sorted(raw) if k[0] in reads
            )
        )
        out[index_id] = digest.hexdigest()
    plan.shares = (index_defs, digests, raw, slim, salt, out)
    return out


def _same_raw(kept: Mapping, raw: Mapping) -> bool:
    """The same per-question frames (the same objects under the same keys: an empty mapping is any other)."""
    return kept.keys() == raw.keys() and all(kept[k] is raw[k] for k in raw)


def _loaded(data: bytes) -> object:
    """A kept entry, or None when it is damaged (it is then computed again and replaced)."""
    try:
        return simcache.loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError):
        return None


def _piece(out: Mapping, index_id: str, run: _AsofRun) -> dict:
    """One definition's share of an _AsofRun's result: its boards (those whose first place names it), their
    changes and frontiers, its superseded months, its engine runs and the store entries of its months."""
    boards = [b for b in out["boards"] if out["order"][b][2] == index_id]
    return {
        "piece": PIECE,
        "boards": {b: out["boards"][b] for b in boards},
        "order": {b: out["order"][b] for b in boards},
        "changes": {b: out["changes"][b] for b in boards if b in out["changes"]},
        "frontier": {b: out["frontier"][b] for b in boards if b in out["frontier"]},
        "superseded": {i: out["superseded"][i] for i in out["superseded"] if i == index_id},
        "gone_order": {i: out["gone_order"][i] for i in out["gone_order"] if i == index_id},
        "engine_runs": run.runs_by.get(index_id, 0),
        "names": sorted(run.names.get(index_id, ())),
    }


def _joined_pieces(pieces: list[Mapping]) -> dict:
    """asof_part's result from its definitions' shares (each board, change and frontier in the order a run over
    them all would place it: boards by first place, the others by board id)."""
    boards = {b: (p["order"][b], p) for p in pieces for b in p["boards"]}
    order = sorted(boards, key=lambda b: boards[b][0])
    gone = {i: p for p in pieces for i in p["superseded"]}
    return {
        "boards": {b: boards[b][1]["boards"][b] for b in order},
        "superseded": {i: gone[i]["superseded"][i] for i in sorted(gone, key=lambda i: gone[i]["gone_order"][i])},
        "changes": {b: boards[b][1]["changes"][b] for b in sorted(boards) if b in boards[b][1]["changes"]},
        "engine_runs": sum(p["engine_runs"] for p in pieces),
        "order": {b: boards[b][0] for b in order},
        "gone_order": {i: gone[i]["gone_order"][i] for i in gone},
        "frontier": {b: boards[b][1]["frontier"][b] for b in sorted(boards) if b in boards[b][1]["frontier"]},
    }


def part_view(plan: AsofPlan, part: Mapping) -> dict:
    """One part as api_files reads an as-of result (its boards' files are the same as the joined result's)."""
    return {
        "dates": plan.dates,
        "boards": part["boards"],
        "superseded": part["superseded"],
        "snapshots": plan.snapshots,
        "changes": part["changes"],
        "frontier": part["frontier"],
    }


def join_asof(plan: AsofPlan, parts: list[Mapping]) -> dict:
    """compute_asof's result from the parts of disjoint sets of definitions: each board and superseded entry in
    the order one pass over every definition makes them."""
    owner = {board_id: part for part in parts for board_id in part["boards"]}
    order = sorted(owner, key=lambda b: owner[b]["order"][b])
    gone = {index_id: part for part in parts for index_id in part["superseded"]}
    return {
        "months": plan.months,
        "dates": plan.dates,
        "data_date": plan.last,
        "boards": {b: owner[b]["boards"][b] for b in order},
        "price_steps": plan.steps,
        "price_disagreements": plan.disagreements,
        "superseded": {i: gone[i]["superseded"][i] for i in sorted(gone, key=lambda i: gone[i]["gone_order"][i])},
        "engine_runs": sum(part["engine_runs"] for part in parts),
        "snapshots": plan.snapshots,
        "changes": {b: owner[b]["changes"].get(b, {}) for b in sorted(owner)},
        "frontier": {b: owner[b]["frontier"][b] for b in sorted(owner) if b in owner[b]["frontier"]},
    }


def compute_asof(
    results: pd.DataFrame,
    models: pd.DataFrame,
    model_records: list[Mapping],
    benchmarks: list,
    index_defs: Mapping[str, Mapping],
    raw: Mapping | None = None,
    months: list[str] | None = None,
    only: Collection[str] | None = None,
    slim: bool = False,
    price_precedence: Mapping[str, int] | None = None,
) -> dict:
    """Every board at every month end, in both views, plus frontiers over time and month-to-month changes (of the
    definitions in `only`, when given); `price_precedence` orders the sources of the prices
    (data/frame.price_precedence).

    Returns {"months": [...], "boards": {board id: {month: {view: board or None}}},
    "frontier": {board id: {"best": [...], "value_by_quarter": {...}}}, "changes": {board id: {month: diff}},
    "price_steps": {model: [...]}}. A board absent in a month (no data, or not in force) is None. A board is the
    engine's without its draws (`without_draws`), or with `slim` what the published views read (`shown`).
    """
    plan = asof_plan(results, models, model_records, index_defs, months, price_precedence=price_precedence)
    return join_asof(plan, [asof_part(plan, benchmarks, index_defs, raw, only, slim)])


def benchmarks_read(definition: Mapping) -> tuple[str, ...]:
    """Every benchmark id a definition names (constituents, dimensions, token and time benchmarks, boards)."""
    found: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, Mapping):
            for key, value in x.items():
                if isinstance(value, str) and (key == "benchmark" or key.endswith("_benchmark")):
                    found.add(value)
                elif key == "benchmark" and isinstance(value, Mapping):
                    found.add(value.get("id", ""))
                walk(value)
        elif isinstance(x, list):
            for item in x:
                walk(item)

    walk(definition)
    return tuple(sorted(found - {""}))


def _higher(board: Mapping, index_defs: Mapping) -> bool:
    if "higher_is_better" in board:
        return bool(board["higher_is_better"])
    return bool(index_defs.get(board.get("definition"), {}).get("higher_is_better", True))


def _top(rows: list[Mapping], higher: bool, available: Mapping[str, str]) -> Mapping | None:
    """The best ranked row ("best" is lower where lower is better); ties go to the model released first, then id."""
    ranked = [r for r in rows if r.get("rank") is not None and r.get("value") is not None]
    if not ranked:
        return None
    sign = -1 if higher else 1
    return min(ranked, key=lambda r: (sign * r["value"], available.get(r["model"], ""), r["model"]))


def best_over_time(
    per_month: Mapping[str, Mapping],
    available: Mapping[str, str],
    index_defs: Mapping[str, Mapping],
    dates: Mapping[str, str] | None = None,
) -> list[dict]:
    """The frontier over release date: at each month's day, the best of today's values (the newest month's
    released board: today's definition, results and population) among the models released by then. A point
    wherever that best changes, with the model that set it; a running best, so it never gets worse.

    Ties at the top go to the model released first, then by id."""
    months = sorted(per_month)
    today = next((per_month[m].get("released") for m in reversed(months) if per_month[m].get("released")), None)
    if not today:
        return []
    higher = _higher(today, index_defs)
    points: list[dict] = []
    for month in months:
        day = (dates or {}).get(month, month_end(month))
        top = _top([r for r in today["rows"] if available.get(r["model"], "9999") <= day], higher, available)
        if top is None or (points and points[-1]["value"] == top["value"]):
            continue
        points.append(
            {"date": day, "value": top["value"], "model": top["model"], "released": available.get(top["model"])}
        )
    return points


def best_as_known(
    per_month: Mapping[str, Mapping],
    available: Mapping[str, str],
    index_defs: Mapping[str, Mapping],
    dates: Mapping[str, str] | None = None,
) -> list[dict]:
    """ "As known then": the top of each month's known board as it was computed on that day (the results, models
    and methodology of the day, so each month ranks its own population; the series can fall). One point a month."""
    points = []
    for month in sorted(per_month):
        board = per_month[month].get("known")
        top = _top(board["rows"], _higher(board, index_defs), available) if board else None
        if top is not None:
            points.append(
                {
                    "date": (dates or {}).get(month, month_end(month)),
                    "value": top["value"],
                    "model": top["model"],
                    "released": available.get(top["model"]),
                }
            )
    return points


def coverage(per_month: Mapping[str, Mapping], models: pd.DataFrame) -> dict | None:
    """For a board pinned to one source snapshot: how many models and which organisations today's board has,
    so a frontier drawn on it can say what the snapshot covers. None for boards not pinned to a snapshot."""
    months = sorted(per_month)
    today = next((per_month[m].get("released") for m in reversed(months) if per_month[m].get("released")), None)
    if not today or not today.get("source_snapshot"):
        return None
    org = dict(zip(models["model"], models["organization"])) if "organization" in models else {}
    ranked = sorted({r["model"] for r in today["rows"] if r.get("rank") is not None})
    orgs = sorted({str(org[m]) for m in ranked if isinstance(org.get(m), str) and org.get(m)})
    return {"snapshot": today["source_snapshot"], "models": len(ranked), "organisations": orgs}


def value_frontier_by_quarter(
    per_month: Mapping[str, Mapping],
    models: pd.DataFrame,
    steps: Mapping[str, list[dict]],
    index_defs: Mapping[str, Mapping],
) -> dict:
    """At each quarter end (release-date view): the rising hull of value against log10 input price in force then.

    The Pedagogy boards keep the paper's prices (their definition's price_source), as their own frontier does. The
    frontier reads the ranked rows' models' cells only: those, with the prices in force at the quarter end
    (priced_lookup; a whole priced frame converted for each quarter cost more than the frontiers)."""
    lookup = model_lookup(models)
    out = {}
    for month in sorted(per_month):
        board = per_month[month].get("released")
        if not board or int(month[5:7]) % 3:
            continue
        definition = index_defs[board["definition"]]
        fr = definition.get("frontier") or {}
        source = (fr.get("value") or {}).get("price_source")
        collinear = bool(fr.get("include_collinear", False))
        ranked = [r for r in board["rows"] if r.get("rank") is not None]
        priced = priced_lookup(lookup, steps, month_end(month), {r["model"] for r in ranked})
        found = pedagogy.frontier(ranked, priced, pedagogy.price_x(source), collinear, by_month=False)
        points = {p["model"]: p for p in found["points"]}
        out[month_end(month)] = [
            {"model": m, "value": points[m]["y"], "input_per_mtok": points[m]["x_raw"]} for m in found["frontier"]
        ]
    return out


def monthly_changes(
    per_month: Mapping[str, Mapping], results: pd.DataFrame, dates: Mapping[str, str] | None = None
) -> dict[str, dict]:
    """Known view: what changed on the board from the end of one month to the end of the next, with why.

    Reasons come from compare.diff_board; a model counts as having changed results when one of its results was
    published during the month."""
    out = {}
    months = sorted(per_month)
    # (published, model) in date order, so a month's publications are one slice (a frame filter per month cost more)
    dated = sorted(
        (day, model)
        for day, model in zip(results["published"].tolist(), results["model"].tolist())
        if isinstance(day, str)
    )
    days = [day for day, _ in dated]
    for before, after in zip(months, months[1:]):
        start, end = (dates or {}).get(before, month_end(before)), (dates or {}).get(after, month_end(after))
        change = month_change(per_month[before].get("known"), per_month[after].get("known"), start, end, dated, days)
        if change is not None:
            out[after] = change
    return out


def month_change(
    old: Mapping | None, new: Mapping | None, start: str, end: str, dated: list[tuple[str, str]], days: list[str]
) -> dict | None:
    """The change of a board's known view from the day `start` to `end` (monthly_changes), None when nothing
    changed. `dated`: every (published, model) in date order; `days` its dates."""
    if old is None and new is None:
        return None
    changed = {model for _, model in dated[bisect_right(days, start) : bisect_right(days, end)]}
    change = diff_board(old, new, changed, [])
    # the highest-ranked entrants first (unranked ones after, by id), so a reader sees the notable ones
    change["entered"] = sorted(change["entered"], key=lambda r: (r.get("rank") is None, r.get("rank") or 0, r["model"]))
    if change["entered"] or change["left"] or change["moved"] or change["status"] != "changed":
        return {"from": start, "to": end, **change}
    return None


def _view_file(board: Mapping) -> dict:
    """One view of a month file: its rows with a value and, where the board has rank intervals, the level they are
    at as labels write it (the definition's `uncertainty.level`: the page says "rank 3-7 at 95%" from it)."""
    out: dict = {"rows": [_slim(r) for r in board["rows"] if r.get("value") is not None]}
    level = (board.get("uncertainty") or {}).get("level")
    if level is not None:
        out["rank_level"] = level_text(level)
    return out


def api_files(asof: Mapping, api: str = "api/v1") -> dict[str, object]:
    """Per board: <id>/<yyyy-mm>.json (both views' rows, the change from the month before) and <id>/dates.json
    (the months, the frontier over time). Values are plain data; the caller serialises them."""
    return dict(each_api_file(asof, api))


def each_api_file(asof: Mapping, api: str = "api/v1") -> Iterator[tuple[str, object]]:
    """api_files' (path, data) one after the other, in its order: a caller that writes each file's text before it
    takes the next holds one month's rows at a time, not a second copy of every month's."""
    for board_id, per_month in sorted(asof["boards"].items()):
        listing = []
        changes = asof["changes"].get(board_id, {})
        for month, views in sorted(per_month.items()):
            path = f"{api}/indices/{board_id}/{month}.json"
            any_board = views["known"] or views["released"]
            day = (asof.get("dates") or {}).get(month, month_end(month))
            gone = (asof.get("superseded") or {}).get(any_board.get("definition"), {}).get(month)
            yield (
                path,
                {
                    "index": board_id,
                    "month": month,
                    "date": day,
                    **({"superseded": gone} if gone and views["known"] is None else {}),
                    "version": any_board.get("version"),
                    "source_snapshot": any_board.get("source_snapshot"),
                    "snapshot_retrieved": asof.get("snapshots", {}).get(any_board.get("source_snapshot")),
                    "views": {view: None if views[view] is None else _view_file(views[view]) for view in VIEWS},
                    "changes": changes.get(month),
                },
            )
            listing.append(
                {
                    "month": month,
                    "date": day,
                    "json": path,
                    "known": views["known"] is not None,
                    "released": views["released"] is not None,
                }
            )
        yield (
            f"{api}/indices/{board_id}/dates.json",
            {
                "index": board_id,
                "views": {
                    "known": "as known on that date: results public by then",
                    "released": "models released by that date, with every result we have, under today's definition",
                },
                "dates": listing,
                "frontier": asof["frontier"].get(board_id),
            },
        )
