"""Template data for each kind of page, built from the SiteContext with lookups computed once."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from ..data.metadata import REASONING_STATES
from ..indices.board_types import Board, Cell, Row
from ..indices.uncertainty import interval_level, level_text
from ..known import known
from .context import SiteContext, rows_of
from .links import safe_url
from .numbers import HEADER, decimals, header, number, unit_name, with_unit
from .pages import Urls, board_ids, board_title, href

HOW_LABEL = {
    "observed": "observed",
    "published": "published by the source",
    "imputed": "imputed",
    "derived": "derived",
    "excluded": "excluded",
    "missing": "missing",
}


class Lookups:
    """Per-id lookups shared by all pages (built once: pages then cost O(own rows))."""

    def __init__(self, ctx: SiteContext, urls: Urls) -> None:
        self.ctx = ctx
        self.urls = urls
        self.models = {m["id"]: m for m in ctx.models}
        self.sources = {s["id"]: s for s in ctx.sources}
        self.benchmarks = {b["id"]: b for b in ctx.benchmarks}
        self.board_rows: dict[str, list[tuple[str, Row]]] = defaultdict(list)
        for bid in board_ids(ctx):
            for row in ctx.boards[bid].get("rows", []):
                self.board_rows[row["model"]].append((bid, row))
        self.ranked_count = {
            bid: sum(1 for r in ctx.boards[bid].get("rows", []) if r.get("rank") is not None) for bid in ctx.boards
        }
        self.component_names = component_names(ctx)
        self.meta_cache: dict[str, dict[str, Any]] = {}
        self.bench_rows: dict[str, list[tuple[str, Row]]] = defaultdict(list)
        for bid in sorted(ctx.benchmark_boards):
            for row in ctx.benchmark_boards[bid].get("rows", []):
                self.bench_rows[row["model"]].append((bid, row))
        self.release_members: dict[str, list[str]] = defaultdict(list)
        for m in ctx.models:
            if m.get("release"):
                self.release_members[m["release"]].append(m["id"])
        self._bench_digits: dict[str, int] = {}
        self._board_formats: dict[str, dict[str, Any]] = {}
        self._board_titles: dict[str, str] = {}
        self._bench_units: dict[tuple[str, str], str] = {}
        self._harness_runs: dict[str, dict[Any, list[dict[str, Any]]]] = {}
        #: board_view's views by (board, per_release): the home page shows the headline boards' views again
        self.board_views: dict[tuple[str, bool], dict[str, Any]] = {}

    def bench_unit(self, bid: str, metric: str = "") -> str:
        """A benchmark's (or one of its metrics') unit, from scale.unit in methodology/benchmarks.yaml (once per
        benchmark and metric: every result and row asks)."""
        hit = self._bench_units.get((bid, metric))
        if hit is None:
            hit = self._bench_units[(bid, metric)] = self._bench_unit(bid, metric)
        return hit

    def harness_runs(self, mid: str, bid: str) -> list[dict[str, Any]]:
        """A model's results on a benchmark that name a harness and no metric, in the model file's order: what
        other_runs picks from (indexed once per model: a benchmark table asks for each of its rows)."""
        by_bench = self._harness_runs.get(mid)
        if by_bench is None:
            by_bench = self._harness_runs[mid] = {}
            for r in (self.models.get(mid) or {}).get("results") or []:
                if r.get("harness") and not r.get("metric"):
                    by_bench.setdefault(r.get("benchmark"), []).append(r)
        return by_bench.get(bid, [])

    def _bench_unit(self, bid: str, metric: str) -> str:
        b = self.benchmarks.get(bid) or {}
        if metric:
            b = next((m for m in b.get("metrics") or [] if isinstance(m, dict) and m.get("id") == metric), {})
        unit = (b.get("scale") or {}).get("unit") if isinstance(b.get("scale"), dict) else None
        board = self.ctx.benchmark_boards.get(bid)
        return unit or (board.get("unit") if board is not None else None) or ""

    def bench_digits(self, bid: str) -> int:
        """Decimals for a benchmark's primary scores, from all its scores (the same on every page)."""
        if bid not in self._bench_digits:
            rows = rows_of(self.ctx.benchmark_boards, bid)
            self._bench_digits[bid] = decimals(self.bench_unit(bid), [r.get("value") for r in rows])
        return self._bench_digits[bid]

    def board_format(self, bid: str) -> dict[str, Any]:
        """Units and decimals of a board's value and of each component's value and raw score, from all its rows."""
        hit = self._board_formats.get(bid)
        if hit is None:
            hit = self._board_formats[bid] = _board_format(self, bid)
        return hit

    def board_title(self, bid: str) -> str:
        """pages.board_title, once per board (it compares the board's name with every other board's; a model page
        names each board the model is on)."""
        if bid not in self._board_titles:
            self._board_titles[bid] = board_title(self.ctx, bid)
        return self._board_titles[bid]

    def source_url(self, source: Any, url: Any = None) -> str | None:
        """The link for a number: its own URL if safe, else its source's URL if safe."""
        return safe_url(url) or safe_url((self.sources.get(source) or {}).get("url"))

    def source_name(self, source: Any) -> str:
        return (self.sources.get(source) or {}).get("name") or (source or "")

    def bench_name(self, bid: str) -> str:
        b = self.benchmarks.get(bid)
        if b:
            return b.get("name") or bid
        bb = self.ctx.benchmark_boards.get(bid)
        return (bb.get("name") if bb is not None else None) or bid

    def comp_name(self, cid: str, kind: str = "benchmark") -> str:
        """A component's display name: a dimension's or metric's label, else the benchmark's name."""
        if cid in self.component_names:
            return self.component_names[cid]
        return self.bench_name(cid) if kind == "benchmark" else cid.replace("_", " ").replace("-", " ")

    def model_meta(self, mid: str) -> dict[str, Any]:
        """The columns every model table shows, with filter attributes (computed once per model)."""
        hit = self.meta_cache.get(mid)
        if hit is None:
            hit = self.meta_cache[mid] = self._model_meta(mid)
        return hit

    def _model_meta(self, mid: str) -> dict[str, Any]:
        m = self.models.get(mid) or {}
        params = m.get("parameters") or {}
        pricing = m.get("pricing") or {}
        weights = m.get("weights") or "unknown"
        name = m.get("name") or mid
        org = m.get("organization") or ""
        return {
            "id": mid,
            "name": name,
            "org": org,
            "href": self.urls.model_href(mid),
            "weights": weights,
            "reasoning": reasoning_state(m),
            "total_b": known(params.get("total_b")),
            "active_b": known(params.get("active_b")),
            "input_price": known(pricing.get("input_per_mtok")),
            "output_price": known(pricing.get("output_per_mtok")),
            "released": m.get("released") or "",
            "search": " ".join(
                str(x) for x in (name, mid, org, m.get("family") or "", *(m.get("aliases") or []))
            ).lower(),
            "aka": _aka(name, org, mid, (m.get("family") or "", *(m.get("aliases") or []))),
        }


def reasoning_state(m: dict[str, Any]) -> str:
    """A model's reasoning state (metadata.REASONING_STATES): the frame's, else read from `reasoning` alone."""
    state = m.get("reasoning_state")
    if state in REASONING_STATES:
        return state
    reasoning = m.get("reasoning")
    return "yes" if reasoning is True else "no" if reasoning is False else "not known"


def search_words(text: str) -> str:
    """leaderboard.js's words(): lower case, split on dots, dashes, slashes, brackets and punctuation."""
    return " ".join(re.sub(r"[.\-_/()\[\],:;]+", " ", text.lower()).split())


def _aka(name: str, org: str, mid: str, names: tuple[str, ...]) -> str:
    """What a table's filter searches beyond the name, organisation and page address it reads from the row: the
    family and aliases, leaving out web addresses (whose last part is an alias of its own) and any name whose words
    the row already holds as a phrase (a search that finds it finds the row anyway)."""
    hay = f" {search_words(' '.join((name, org, mid)))} "
    out: dict[str, None] = {}
    for x in names:
        x = str(x)
        if x and not x.startswith(("https://", "http://")) and f" {search_words(x)} " not in hay:
            out[x.lower()] = None
    return " ".join(out)


#: Labels of computed (non-benchmark) components that the engine names by id.
DIMENSION_LABELS = {
    "token-cost": "Token cost (USD per task)",
    "token-efficiency": "Token efficiency (×)",
    "token_cost": "Token cost (USD per task)",
    "efficiency": "Token efficiency (×)",
    "effective_cost": "Effective cost (USD per task)",
    "response_time": "Response time (s)",
}


#: Units of computed (non-benchmark) components.
DIMENSION_UNITS = {
    "token-cost": "USD-per-task",
    "token_cost": "USD-per-task",
    "effective_cost": "USD-per-task",
    "token-efficiency": "ratio",
    "efficiency": "ratio",
    "response_time": "seconds",
}
#: Index kinds whose component values are mapped onto the index's own scale (the raw score keeps the benchmark's).
MAPPED_KINDS = ("ai-iq", "ai-eq")


def _board_format(lk: Lookups, bid: str) -> dict[str, Any]:
    board = lk.ctx.boards[bid]
    unit = str(board.get("unit") or "")
    mapped = board.get("kind") in MAPPED_KINDS or unit in ("IQ", "EQ")
    rows = board.get("rows", [])
    values: dict[str, list] = defaultdict(list)
    raws: dict[str, list] = defaultdict(list)
    kinds: dict[str, str] = {}
    for r in rows:
        for c in r.get("components", []):
            kinds.setdefault(c["id"], c.get("kind", "benchmark"))
            values[c["id"]].append(c.get("value"))
            raws[c["id"]].append(c.get("raw"))
    comps, raw = {}, {}
    for cid, kind in kinds.items():
        cu = DIMENSION_UNITS.get(cid) or (unit if mapped or kind != "benchmark" else lk.bench_unit(cid) or unit)
        comps[cid] = (cu, decimals(cu, values[cid]))
        ru = lk.bench_unit(cid) if kind == "benchmark" else cu
        raw[cid] = (ru, decimals(ru, raws[cid]))
    value_digits = decimals(unit, [r.get("value") for r in rows])
    return {"unit": unit, "digits": value_digits, "components": comps, "raw": raw}


def component_names(ctx: SiteContext) -> dict[str, str]:
    """Display names of index dimensions (from the methodology YAML) and of computed components."""
    out = dict(DIMENSION_LABELS)
    for d in (ctx.index_defs or {}).values():
        for dim in d.get("dimensions") or []:
            if isinstance(dim, dict) and dim.get("id") and dim.get("name"):
                out[dim["id"]] = str(dim["name"])
    return out


def definition_of(ctx: SiteContext, bid: str) -> str:
    """The id of the index definition board `bid` is computed by (its own id where the board does not say)."""
    board: Mapping[str, Any] = ctx.boards.get(bid) or {}
    return str(board.get("definition") or bid)


def anchor_definition(ctx: SiteContext) -> str:
    """The anchor-mapping definition whose tables the benchmark pages show: the first in id order ("" if none)."""
    return next((i for i, d in sorted((ctx.index_defs or {}).items()) if d.get("kind") == "ai-iq"), "")


def iq_anchors(ctx: SiteContext, definition: str) -> dict[str, dict[str, Any]]:
    """An anchor-mapping definition's (AI IQ's) anchor tables by benchmark (dimensions -> benchmarks).

    {benchmark: {"points": [[score, iq], ...], "ceiling": iq, "ceiling_original": iq | None, "tier",
    "dimension", "dimension_name", "index_name", "index_unit", "original": [[score, iq], ...]}}; `index_name` and
    `index_unit` are the definition's `name` (else its id) and `unit` (else "IQ"), the benchmark page's words for
    its table; `original` undoes the compression
    (the published tables are the compressed curves; see compression.rule in the YAML).
    """
    d = (ctx.index_defs or {}).get(definition) or {}
    pivot = known((d.get("compression") or {}).get("pivot"))
    pivot = 100.0 if pivot is None else pivot
    out: dict[str, dict[str, Any]] = {}
    for dim in d.get("dimensions") or []:
        for b in dim.get("benchmarks") or []:
            pts = _anchor_points(b.get("anchors") or [])
            ceil, orig = known(b.get("ceiling")), known(b.get("ceiling_original"))
            out[b["benchmark"]] = {
                "points": pts,
                "ceiling": ceil,
                "ceiling_original": orig,
                "tier": b.get("tier") or "",
                "dimension": dim.get("id"),
                "dimension_name": dim.get("name") or dim.get("id"),
                "index_name": d.get("name") or definition,
                "index_unit": d.get("unit") or "IQ",
                "original": _uncompressed(pts, pivot, ceil, orig),
            }
    return out


def _anchor_points(anchors: list[list[Any]]) -> list[list[float]]:
    """The [score, iq] pairs of an anchor table whose two numbers are known, in order."""
    pts: list[list[float]] = []
    for p in anchors:
        if len(p) >= 2:
            x, y = known(p[0]), known(p[1])
            if x is not None and y is not None:
                pts.append([x, y])
    return pts


def _uncompressed(
    pts: list[list[float]], pivot: float, ceil: float | None, orig: float | None
) -> list[list[float]] | None:
    """The anchor table with the compression above `pivot` undone (the ceiling `ceil` stretched back to `orig`);
    None when the benchmark has no original ceiling above the pivot."""
    if orig is None or ceil is None or ceil <= pivot:
        return None
    k = (orig - pivot) / (ceil - pivot)
    return [[x, round(pivot + (y - pivot) * k, 2) if y > pivot else y] for x, y in pts]


def cell(comp: Mapping[str, Any], lk: Lookups, uid: str, digits: int = 1) -> dict[str, Any]:
    """One component cell: value, provenance, reason (for the tooltip) and link."""
    how = comp.get("how") or "observed"
    reason = comp.get("reason") or ""
    note = ""
    if how not in ("observed", "published"):
        note = f"{HOW_LABEL.get(how, how).capitalize()}: {reason}" if reason else HOW_LABEL.get(how, how).capitalize()
    elif how == "published":
        note = f"Published by {lk.source_name(comp.get('source'))}"
    return {
        "value": known(comp.get("value")),
        "how": how,
        "note": note,
        "uid": uid,
        "url": lk.source_url(comp.get("source")),
        "digits": digits,
        "title": f"on question set {comp['subset']}" if comp.get("subset") else "",
        "src": comp.get("source") or "",
        "retrieved": comp.get("retrieved") or "",
        "raw": known(comp.get("raw")),
    }


def _interval(value: Any) -> list[float | None] | None:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and known(value[0]) is not None
        and known(value[1]) is not None
    ):
        return [known(value[0]), known(value[1])]
    return None


def _interval_note(row: Mapping[str, Any]) -> str:
    how = row.get("interval_how") or ""
    reason = row.get("interval_reason") or ""
    return (f"{how}: {reason}" if how and reason else how or reason) if row.get("interval") or reason else ""


def levels(board: Mapping[str, Any], definition: dict[str, Any] | None = None) -> dict[str, str]:
    """A board's interval levels as every label writes them ("95%", "80%"): `level`, its value intervals' (an
    index's from its definition, uncertainty.interval_level: HLE's and the Pedagogy boards' own ci_level, else
    `uncertainty.level`; a benchmark board's from its `uncertainty` block) and `rank_level`, its rank intervals'
    and tiers' (`uncertainty.level`). "" where the board has none."""
    u = board.get("uncertainty") or {}
    value = interval_level(definition) if definition else u.get("interval_level", u.get("level"))
    return {
        "level": level_text(value) if value is not None else "",
        "rank_level": level_text(u["level"]) if u.get("level") is not None else "",
    }


def interval_view(item: Mapping[str, Any], level: str = "") -> dict[str, Any]:
    """A value's interval as a model page shows it: the bounds, the method's label and, on hover, its level
    (the board's, or the row's own `interval_level`) and reason (a component's method is its benchmark's; the
    reason is kept only where there is no interval)."""
    bounds = _interval(item.get("interval"))
    how = item.get("interval_how") or ""
    label = {"published": "as published", "derived": "derived"}.get(how, how)
    reason = item.get("interval_reason") or ""
    if item.get("interval_level") is not None:
        level = level_text(item["interval_level"])
    if bounds is None:
        return {
            "interval": None,
            "interval_how": "",
            "interval_title": f"no interval: {reason}" if reason else "",
            "level": level,
        }
    title = f"{level} interval, {label}" + (f": {reason}" if reason else "")
    return {"interval": bounds, "interval_how": label, "interval_title": title, "level": level}


def _rank_range(interval: Any) -> str:
    """A row's rank interval as text ("3–7"), or "" when there is none."""
    if not (isinstance(interval, (list, tuple)) and len(interval) == 2 and None not in interval):
        return ""
    low, high = (int(x) for x in interval)
    return f"{low}–{high}" if low != high else str(low)


def shared_interval_note(rows: list[dict[str, Any]]) -> str:
    """The interval note most rows share (counts aside), said once above the table instead of in every row's
    title; rows with that note drop it (a long board would otherwise repeat it hundreds of times)."""

    def kind(note: str) -> str:  # "…: 3 derived; …" and "…: 1 published; …" are one kind (coverage has the count)
        return re.sub(
            r"\b\d+ (derived|published|observed|imputed)(, \d+ (derived|published|observed|imputed))*\b", "…", note
        )

    counts: dict[str, int] = {}
    for r in rows:
        if r["interval"] and r["interval_note"]:
            counts[kind(r["interval_note"])] = counts.get(kind(r["interval_note"]), 0) + 1
    if not counts:
        return ""
    shared, n = max(sorted(counts.items()), key=lambda kv: kv[1])
    if n < 10:
        return ""
    shared_parts = shared.split("; ")
    for r in rows:
        if not (r["interval"] and r["interval_note"]):
            continue
        parts = r["interval_note"].split("; ")
        if set(shared_parts) <= {kind(p) for p in parts}:  # only what this row adds to the shared note
            r["interval_note"] = "; ".join(p for p in parts if kind(p) not in shared_parts)
    legend = shared.split(": ", 1)[1] if shared.startswith("derived: ") else shared
    legend = re.sub(r": …(;|$)", r"\1", legend)
    return {"published": "as the source publishes it"}.get(legend, legend)


def row_notes(row: Mapping[str, Any]) -> str:
    """What a reader must know about one row beyond its number: subset, exclusion reason, interval source."""
    parts = []
    if row.get("note"):
        parts.append(str(row["note"]))
    if row.get("reason"):
        parts.append(str(row["reason"]))
    bad = known(row.get("bad_format"))
    if bad is not None and not row.get("reason"):
        parts.append(f"{number(100 * bad, 1)}% badly formatted answers")
    return "; ".join(parts)


def higher_is_better(ctx: SiteContext, bid: str) -> bool:
    """Whether a board ranks higher values first: the board's own flag, else its definition's (cost: lower)."""
    board: Mapping[str, Any] = ctx.boards.get(bid) or {}
    flag = board.get("higher_is_better")
    if flag is None:
        flag = ((ctx.index_defs or {}).get(board.get("definition") or bid) or {}).get("higher_is_better")
    return flag is not False


def best_per_release(rows: list[Row], lk: Lookups) -> list[Row]:
    """The first row of each release in the given (rank) order: the release's best configuration."""
    seen: set = set()
    out = []
    for row in rows:
        release = (lk.models.get(row["model"]) or {}).get("release") or row["model"]
        if release not in seen:
            seen.add(release)
            out.append(row)
    return out


def board_view(bid: str, lk: Lookups, per_release: bool = False) -> dict[str, Any]:
    """A leaderboard: columns (components) and rows with cells, in rank order (unranked last).

    With per_release, one row per release: its best configuration (ranks stay those among all configurations).
    Built once per Lookups (the home page and the board's own page share it): callers copy, never change it.
    """
    hit = lk.board_views.get((bid, per_release))
    if hit is None:
        hit = lk.board_views[(bid, per_release)] = _board_view(bid, lk, per_release)
    return hit


def board_summary(bid: str, lk: Lookups, per_release: bool = False) -> dict[str, Any]:
    """What is said of a board outside its table, made without its rows' cells: board_view's id, title, unit,
    decimals, number of ranked rows and rows (in the table's order, each with only its rank, model name and value):
    what a board page's description and the social images read (site/assembly.py), so a board's view is built
    only where its page is rendered."""
    ordered = _rank_order(lk.ctx.boards[bid].get("rows", []), higher_is_better(lk.ctx, bid))
    if per_release:
        ordered = best_per_release(ordered, lk)
    form = lk.board_format(bid)
    rows = [
        {"rank": r.get("rank"), "name": lk.model_meta(r["model"])["name"], "value": known(r.get("value"))}
        for r in ordered
    ]
    return {
        "id": bid,
        "title": lk.board_title(bid),
        "unit": form["unit"],
        "digits": form["digits"],
        "n_ranked": sum(1 for r in rows if r["rank"] is not None),
        "rows": rows,
    }


def _board_view(bid: str, lk: Lookups, per_release: bool) -> dict[str, Any]:
    board = lk.ctx.boards[bid]
    rows = board.get("rows", [])
    kinds = _component_kinds(rows)
    comp_ids = list(kinds)
    form = lk.board_format(bid)
    columns = _columns(lk, kinds, form)
    higher = higher_is_better(lk.ctx, bid)
    ordered = _rank_order(rows, higher)
    n_configurations = len(ordered)
    if per_release:
        ordered = best_per_release(ordered, lk)
    digits = form["digits"]
    view_rows, manual_rows = [], []
    for i, row in enumerate(ordered):
        vr = _board_row_view(bid, lk, i, row, columns)
        view_rows.append(vr)
        if row.get("manual") and row.get("rank") is None:
            manual_rows.append(vr)
    interval_legend = shared_interval_note(view_rows)
    n_ranked = sum(1 for r in view_rows if r["ranked"])
    hide_unranked = 0 < n_ranked < len(view_rows)  # when they would bury the ranked ones (a checkbox shows them)
    lv = levels(board, (lk.ctx.index_defs or {}).get(board.get("definition") or bid))
    lede, more = _lede(board)
    return {
        "id": bid,
        "board": board,
        "title": board_title(lk.ctx, bid),
        "columns": columns,
        "unit": form["unit"],
        "higher_is_better": higher,
        "lede": lede,
        "more": more,
        "rows": view_rows,
        "manual_rows": manual_rows,
        "has_interval": any(r["interval"] for r in view_rows),
        "interval_legend": interval_legend,
        "digits": digits,
        **lv,
        "has_tier": any(r["tier"] is not None for r in view_rows),
        "ranks_note": _ranks_note(board),
        "uncertainty_href": _uncertainty_href(lk),
        "has_components": bool(comp_ids),
        "has_notes": any(r["notes"] for r in view_rows),
        "n_ranked": n_ranked,
        "n_unranked": len(view_rows) - n_ranked,
        "hide_unranked": hide_unranked,
        "statuses": sorted({r["status"] for r in view_rows if r["status"]}),
        "references": [r for r in board.get("references") or [] if known(r.get("value")) is not None],
        "scope": _scope(board, lk),
        "unit_name": unit_name(form["unit"]),
        "over_time": ((lk.ctx.frontiers or {}).get(bid) or {}).get("value", {}).get("paper_over_time") or [],
        **_org_filters(view_rows, hide_unranked),
        "per_release": per_release,
        "n_configurations": n_configurations,
        "left_out": _left_out(bid, lk, board, comp_ids),
        "per_release_href": href(release_path(lk.urls.board[bid])),
        "all_href": href(lk.urls.board[bid]),
        "coverage": board_coverage(lk.ctx, bid),
    }


def _ranks_note(board: Board) -> str:
    """What the board's uncertainty says of its rank intervals (joint, independent), as one text."""
    return " ".join(filter(None, ((board.get("uncertainty") or {}).get(k) for k in ("joint", "independent"))))


def _uncertainty_href(lk: Lookups) -> str | None:
    """The link to the uncertainty methodology page, where the repository has it."""
    return href(lk.urls.methodology["uncertainty.md"]) if "uncertainty.md" in lk.urls.methodology else None


def _left_out(bid: str, lk: Lookups, board: Board, comp_ids: list[str]) -> list[dict[str, Any]]:
    """Names the sources (its snapshot only, where it has one) list on a composite board's components, not attributed
    to a model (left_out); none on a board without components."""
    if not comp_ids:
        return []
    snapshot = board.get("source_snapshot")
    return left_out(lk, set(comp_ids) | {bid}, {snapshot} if snapshot else None)


def _columns(lk: Lookups, kinds: dict[str, str], form: dict[str, Any]) -> list[dict[str, Any]]:
    """A board's component columns: id, header (name and unit), kind and decimals (board_format's)."""
    return [
        {
            "id": c,
            "name": header(lk.comp_name(c, kind), form["components"][c][0]),
            "kind": kind,
            "digits": form["components"][c][1],
        }
        for c, kind in kinds.items()
    ]


def _component_kinds(rows: list[Row]) -> dict[str, str]:
    """The components of a board's rows, in the order they first appear, with their kind ("benchmark" unless
    stated)."""
    kinds: dict[str, str] = {}
    for row in rows:
        for c in row.get("components", []):
            if c["id"] not in kinds:
                kinds[c["id"]] = c.get("kind", "benchmark")
    return kinds


def _rank_order(rows: list[Row], higher: bool) -> list[Row]:
    """A board's rows by rank, the unranked last by value (best first), then by model id."""
    return sorted(
        rows,
        key=lambda r: (
            r.get("rank") is None,
            r.get("rank") or 0,
            -(r.get("value") or 0) if higher else (r.get("value") or 0),
            r["model"],
        ),
    )


def _lede(board: Board) -> tuple[str, str]:
    """A board's description as its lede and the rest: a long one is cut after its first sentence."""
    desc = " ".join(str(board.get("description") or "").split())
    cut = desc.find(". ", 0, 400)
    return (desc[: cut + 1], desc[cut + 2 :]) if len(desc) > 320 and cut > 0 else (desc, "")


def _org_filters(view_rows: list[dict[str, Any]], hide_unranked: bool) -> dict[str, Any]:
    """The board's organisation filter and the filters' counts (board.html)."""
    return {
        # the organisation filter lists first those of the rows the table shows at first; where it hides the
        # unranked rows, organisations with unranked rows only (AI IQ: human baselines, ARC Prize competition
        # entries, independent entrants, on the ARC-AGI results alone) follow in a group of their own
        "orgs": sorted({r["org"] for r in view_rows if r["org"] and (r["ranked"] or not hide_unranked)}, key=str.lower),
        "unranked_orgs": sorted(
            {r["org"] for r in view_rows if r["org"] and hide_unranked} - {r["org"] for r in view_rows if r["ranked"]},
            key=str.lower,
        ),
        # the filters' counts are of the rows the table shows at first: the ranked ones when it hides the rest
        "unknown": unknown_counts([r for r in view_rows if r["ranked"]] if hide_unranked else view_rows),
    }


def _board_row_view(bid: str, lk: Lookups, i: int, row: Row, columns: list[dict[str, Any]]) -> dict[str, Any]:
    """Row `i` of a board's table: the model, its value, interval and rank range, and a cell per column."""
    by_id = {c["id"]: c for c in row.get("components", [])}
    cells = []
    for j, col in enumerate(columns):
        comp = by_id.get(col["id"]) or {"id": col["id"], "how": "missing", "reason": "not part of this row"}
        cells.append(cell(comp, lk, f"t{i}-{j}", col["digits"]))
    cov = row.get("coverage") or {}
    meta = lk.model_meta(row["model"])
    return {
        **meta,
        "rank": row.get("rank"),
        "value": known(row.get("value")),
        "status": row.get("status") or "",
        "interval": _interval(row.get("interval")),
        "interval_note": _interval_note(row),
        # the measurement-only interval beside the total one, where the row has it (board.html: row details)
        "interval_measurement": _interval(row.get("interval_measurement")),
        "interval_method": row.get("interval_method") if row.get("interval") else None,
        "have": cov.get("have"),
        "of": cov.get("of"),
        "cells": cells,
        "manual": row.get("manual"),
        "manual_url": safe_url((row.get("manual") or {}).get("source")),
        "breakdown": (meta["href"] + f"#idx-{bid}") if meta["href"] else None,
        "notes": row_notes(row),
        "url": lk.source_url(row.get("source")) if not columns else None,  # a board without components
        "ranked": row.get("rank") is not None,
        "tier": row.get("tier"),
        "rank_range": _rank_range(row.get("rank_interval")),
    }


def release_path(board_path: str) -> str:
    """The page of a board's one-row-per-release view, next to the board's own page."""
    return board_path[: -len("index.html")] + "releases/index.html"


def left_out(lk: Lookups, benchmarks: set[str], sources: set[str] | None = None) -> list[dict[str, Any]]:
    """Names a source lists on these benchmarks that are not attributed to a model, each with the reason."""
    out = []
    for source, entries in sorted(lk.ctx.not_attributed.items()):
        if sources is not None and source not in sources:
            continue
        for e in entries:
            values = [(r["benchmark"], r["value"]) for r in e.get("results") or [] if r["benchmark"] in benchmarks]
            if values:
                out.append(
                    {
                        "name": e["name"],
                        "reason": e["reason"],
                        "source": lk.source_name(source),
                        "url": lk.source_url(source),
                        "href": None,
                        "shown": ", ".join(f"{lk.bench_name(b)} {number(v, lk.bench_digits(b))}" for b, v in values),
                    }
                )
    return sorted(out, key=lambda e: (e["source"], e["name"].casefold(), e["name"]))


def excluded_rows(lk: Lookups, bid: str) -> list[dict[str, Any]]:
    """A benchmark's imported results that a reviewed override excludes, each with its reason and the link to the
    number at its source, in left_out's shape (the model's name and page instead of the source's name)."""
    out = []
    for e in lk.ctx.excluded:
        if e["benchmark"] != bid:
            continue
        meta = lk.model_meta(e["model"])
        # the row's own name at the source (its harness, e.g. a SWE-bench system) first, then the model it is tagged
        where = ", ".join(x for x in (e.get("metric"), e.get("subset")) if x)
        name = f"{e['harness']} (tagged {meta['name']})" if e.get("harness") else meta["name"]
        out.append(
            {
                "name": name + (f" ({where})" if where else ""),
                "href": meta["href"],
                "reasoning": meta["reasoning"],
                "source": lk.source_name(e["source"]),
                "url": lk.source_url(e["source"], e.get("url")),
                "shown": number(e["value"], lk.bench_digits(bid)),
                "reason": f"Excluded by a reviewed correction: {e['reason']}",
            }
        )
    return sorted(out, key=lambda e: (e["source"], e["name"].casefold(), e["name"]))


def other_runs(model: dict[str, Any], bid: str, subset: str, shown: dict[str, Any]) -> list[dict[str, Any]]:
    """A model's other results on a benchmark's table under another harness (a tool-using run, another agent), best
    first: the board ranks one run per model, and these are said beside it rather than only on the model page."""
    runs = [
        r
        for r in model.get("results") or []
        if r.get("benchmark") == bid
        and not r.get("metric")
        and (r.get("subset") or "") == subset
        and (r.get("harness") or "") != (shown.get("harness") or "")
        and r.get("harness")
    ]
    return [
        {"harness": r["harness"], "value": known(r.get("value"))}
        for r in sorted(runs, key=lambda r: (-(known(r.get("value")) or 0), r["harness"], r.get("source") or ""))
    ]


def unknown_counts(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How many of a table's rows each filter option lists, and how many rows each filter hides because the value
    is unknown: `reasoning` counts the rows of each state (metadata.REASONING_STATES, in that order), `weights` of
    open, closed and unknown."""
    reasoning = dict.fromkeys(REASONING_STATES, 0)
    weights = {"open": 0, "closed": 0, "unknown": 0}
    for r in rows:
        reasoning[r["reasoning"]] += 1
        weights[r["weights"] if r["weights"] in weights else "unknown"] += 1
    return {
        "weights": weights["unknown"],
        "reasoning": reasoning["not known"],
        "parameters": sum(r["total_b"] is None for r in rows),
        "not_stated": reasoning["not stated"],
        "by_reasoning": reasoning,
        "by_weights": weights,
        "rows": len(rows),
    }


def metadata_sources(m: dict[str, Any], lk: Lookups) -> list[dict[str, Any]]:
    """Where each known metadata value of a model came from: the model file, a source or a reviewed rule."""
    out = []
    for field, p in (m.get("metadata_provenance") or {}).items():
        if not p:
            continue
        if p["by"] == "release":  # a release-level fact another configuration of the release states
            label, url = f"same release as {p['from']}", None
        elif p["by"] == "source":
            label, url = lk.source_name(p["source"]), lk.source_url(p["source"])
        elif p["by"] == "rule":
            label, url = f"{p['level']} rule: {p['source']}", safe_url(p.get("url"))
        else:
            label, url = "model file", None
        out.append({"field": field.replace("_", " "), "label": label, "url": url})
    return out


def _scope(board: Board, lk: Lookups) -> dict[str, Any] | None:
    """Why a board lists the models it lists, with the link to the benchmark page that has the rest."""
    scope = board.get("scope")
    if not scope:
        return None
    page = lk.urls.benchmark.get(scope["benchmark"])  # indices/hle.py writes text and benchmark
    return {"text": scope["text"], "href": href(page) if page else None, "name": lk.bench_name(scope["benchmark"])}


#: one-letter provenance codes of board cells: the HTML's class and the page data's code (leaderboard.js reads both)
HOW_CODE = {"observed": "", "imputed": "i", "derived": "d", "published": "p", "missing": "m", "excluded": "x"}


def board_data(view: dict[str, Any], lk: Lookups) -> dict[str, Any]:
    """A board's provenance as data, written once next to the page (cells.json) and read by leaderboard.js.

    Each cell is [how (HOW_CODE, "o" for observed), note, source, retrieved, raw score as shown (numbers.with_unit,
    with its benchmark's unit and the board's decimals for it)], with the strings numbered in shared tables (a reason or a
    source appears once per board, not once per cell); trailing empty fields are dropped. Rows are in the page's
    server order, so the n-th <tr> of the table is rows[n].
    """
    notes: dict[str, int] = {}
    sources: dict[str, int] = {}
    dates: dict[str, int] = {}
    src_list: list[list[Any]] = []

    def idx(table: dict[str, int], value: str) -> int | None:
        if not value:
            return None
        return table.setdefault(value, len(table))

    form = lk.board_format(view["id"])
    raw_fmt = [form["raw"].get(col["id"], ("", 1)) for col in view["columns"]]
    rows = []
    for r in view["rows"]:
        cells = []
        for j, c in enumerate(r["cells"]):
            s = None
            if c["src"]:
                if c["src"] not in sources:
                    sources[c["src"]] = len(src_list)
                    src_list.append([lk.source_name(c["src"]), c["url"]])
                s = sources[c["src"]]
            note = "; ".join(x for x in (c["note"], c.get("title")) if x)  # e.g. the question set a value is on
            raw = None if c["raw"] is None else with_unit(c["raw"], *raw_fmt[j])
            item = [HOW_CODE.get(c["how"], c["how"]) or "o", idx(notes, note), s, idx(dates, c["retrieved"]), raw]
            while item and item[-1] is None:
                item.pop()
            cells.append(item)
        rows.append([r["id"], cells])
    return {
        "board": view["id"],
        "columns": [c["name"] for c in view["columns"]],
        "notes": list(notes),
        "sources": src_list,
        "dates": list(dates),
        "rows": rows,
    }


def bench_board_view(bid: str, lk: Lookups) -> dict[str, Any]:
    """A benchmark's scores: one row per model with its link, retrieval date and flags; a benchmark run on several
    question sets also gets one such table per other set (`others`), each ranked only within itself."""
    bb: Mapping[str, Any] = lk.ctx.benchmark_boards.get(bid) or {"rows": []}
    view = _bench_rows_view(bid, bb.get("rows", []), lk, "")
    view["question_set"] = bb.get("question_set")
    # rows a source gives for this benchmark that are on no board here, once per page: names not attributed to a
    # model, then results a reviewed override excludes
    view["left_out"] = left_out(lk, {bid}) + excluded_rows(lk, bid)
    view["others"] = [
        dict(_bench_rows_view(bid, qs["rows"], lk, qs["subset"]), label=qs["label"])
        for qs in bb.get("other_question_sets", [])
    ]
    view["categories"] = [_category_view(bid, t, lk, i) for i, t in enumerate(bb.get("category_tables", []))]
    view["ranks_note"] = (bb.get("uncertainty") or {}).get("independent") or ""  # why its rank ranges are wide
    return view


def _category_view(bid: str, table: dict[str, Any], lk: Lookups, index: int) -> dict[str, Any]:
    """A per-category table: one row per model, one cell per category (None: unknown), with source links."""
    unit = lk.bench_unit(bid)
    values = [c["value"] for r in table["rows"] for c in r["cells"] if c]
    rows = []
    for r in table["rows"]:
        cells = [
            None
            if c is None
            else {
                "value": known(c["value"]),
                "url": lk.source_url(c["source"], c.get("url")),
                "title": f"{lk.source_name(c['source'])}, retrieved {c['retrieved']}",
            }
            for c in r["cells"]
        ]
        rows.append({**lk.model_meta(r["model"]), "cells": cells})
    return {
        "id": f"{bid}-categories-{index}",
        "label": table["label"],
        "columns": [c["name"] for c in table["columns"]],
        "rows": rows,
        "digits": decimals(unit, values),
        "unit": HEADER.get(unit, unit),
    }


def _bench_rows_view(bid: str, board_rows: list[dict], lk: Lookups, subset: str) -> dict[str, Any]:
    rows = sorted(board_rows, key=lambda r: (r.get("rank") is None, r.get("rank") or 0, r["model"]))
    out = [_bench_row_view(bid, lk, subset, i, r) for i, r in enumerate(rows)]
    unit = lk.bench_unit(bid)
    return {
        "id": f"{bid}-{subset}" if subset else bid,
        "rows": out,
        "orgs": sorted({r["org"] for r in out if r["org"]}, key=str.lower),
        "unknown": unknown_counts(out),
        "has_ci": any(r["ci"] for r in out),
        "unit": unit,
        "unit_header": header("Score", unit),
        # a column no row fills is not shown (LMArena: no standard error, no harness on any of its rows)
        "has_stderr": any(r["stderr"] is not None for r in out),
        "has_harness": any(r["harness"] or r["also"] for r in out),
        **_one_source(out, board_rows, lk),
        "digits": lk.bench_digits(bid),
        "stderr_digits": decimals(unit, [r["stderr"] for r in out]),
    }


def _bench_row_view(bid: str, lk: Lookups, subset: str, i: int, r: dict[str, Any]) -> dict[str, Any]:
    """Row `i` of a benchmark's table (question set `subset`): the model, its value and its source."""
    ci = (known(r.get("ci_low")), known(r.get("ci_high")))
    return {
        **lk.model_meta(r["model"]),
        "rank": r.get("rank"),
        "value": known(r.get("value")),
        "how": r.get("how") or "observed",
        "reason": r.get("reason") or "",
        "url": lk.source_url(r.get("source"), r.get("url")),
        "source": lk.source_name(r.get("source")),
        "retrieved": r.get("retrieved") or "",
        "stderr": known(r.get("stderr")),
        "ci": ci if ci[0] is not None and ci[1] is not None else None,
        "harness": r.get("harness") or "",
        "self_reported": bool(r.get("self_reported")),
        "uid": f"b{subset}{i}",
        "also": other_runs({"results": lk.harness_runs(r["model"], bid)}, bid, subset, r),
    }


def _one_source(out: list[dict[str, Any]], board_rows: list[dict], lk: Lookups) -> dict[str, Any]:
    """One source (or one retrieval date) for every row is said once above the table, not in each row."""
    one = bool(out) and len({r["source"] for r in out}) == 1
    return {
        "one_source": out[0]["source"] if one else "",
        "one_source_url": lk.source_url(board_rows[0].get("source")) if one else None,
        "one_retrieved": out[0]["retrieved"] if out and len({r["retrieved"] for r in out}) == 1 else "",
    }


def _effort_order(m: dict[str, Any]) -> tuple[bool, float, str]:
    rank = known(m.get("effort_rank"))
    return (rank is None, 0.0 if rank is None else rank, m["id"])


def siblings(mid: str, lk: Lookups) -> list[dict[str, Any]]:
    """Every configuration of the model's release (itself included, marked), in effort order, unknown last."""
    release = (lk.models.get(mid) or {}).get("release")
    members = sorted((lk.models[x] for x in lk.release_members.get(release or "", [])), key=_effort_order)
    if len(members) < 2:
        return []
    return [
        {
            "id": s["id"],
            "name": s.get("name") or s["id"],
            "href": lk.urls.model_href(s["id"]),
            "effort": s.get("effort")
            or {"yes": "reasoning, effort not stated", "no": "none", "not stated": "mode not stated"}.get(
                reasoning_state(s), "mode not known"
            ),
            "self": s["id"] == mid,
        }
        for s in members
    ]


def _price_source(mid: str, pricing: Mapping, lk: Lookups) -> dict[str, Any]:
    """Today's price's source and link: a vendor list price (the price history's last step, indices/asof.py) is
    named as the price steps name it, with the vendor's link."""
    steps = ((lk.ctx.as_of or {}).get("price_steps") or {}).get(mid) or []
    if pricing.get("source") == "vendor" and steps and steps[-1]["source"] == "vendor":
        return {
            "source": "vendor list price" + ("" if steps[-1].get("captured") else " (not captured)"),
            "url": lk.source_url(None, steps[-1].get("url")),
        }
    return {"source": lk.source_name(pricing.get("source")), "url": lk.source_url(pricing.get("source"))}


def model_view(mid: str, lk: Lookups) -> dict[str, Any]:
    """A model page: metadata, prices, results and every index breakdown it appears in."""
    m = lk.models[mid]
    pricing = m.get("pricing") or {}
    results = [
        _result_view(lk, r)
        for r in sorted(
            m.get("results") or [],
            key=lambda r: (
                r.get("benchmark") or "",
                r.get("metric") or "",
                r.get("subset") or "",
                r.get("source") or "",
            ),
        )
    ]
    breakdowns = [_breakdown_view(bid, lk, row) for bid, row in lk.board_rows.get(mid, [])]
    ranks = [_bench_rank_view(bid, lk, r) for bid, r in lk.bench_rows.get(mid, [])]
    params = m.get("parameters") or {}
    return {
        "model": m,
        "meta": lk.model_meta(mid),
        "siblings": siblings(mid, lk),
        "results": results,
        "breakdowns": breakdowns,
        "bench_ranks": ranks,
        "pricing": {
            "input": known(pricing.get("input_per_mtok")),
            "output": known(pricing.get("output_per_mtok")),
            "as_of": pricing.get("as_of") or "",
            **_price_source(mid, pricing, lk),
        },
        "params": {"total": known(params.get("total_b")), "active": known(params.get("active_b"))},
        "metadata_sources": metadata_sources(m, lk),
    }


def _result_view(lk: Lookups, r: dict[str, Any]) -> dict[str, Any]:
    """One of a model's results as its page lists it."""
    bid = r["benchmark"]  # every result names its benchmark (context._model_view)
    metric = r.get("metric") or ""
    unit = lk.bench_unit(bid, metric)
    digits = decimals(unit, [r.get("value")]) if metric else lk.bench_digits(bid)
    return {
        "benchmark": bid,
        "name": lk.bench_name(bid),
        "unit": unit,
        "digits": digits,
        "href": href(lk.urls.benchmark[bid]) if bid in lk.urls.benchmark else None,
        "value": known(r.get("value")),
        "metric": r.get("metric") or "",
        "subset": r.get("subset") or "",
        "harness": r.get("harness") or "",
        "source": lk.source_name(r.get("source")),
        "url": lk.source_url(r.get("source"), r.get("url")),
        "retrieved": r.get("retrieved") or "",
        "published": r.get("published") or "",
        "public_by": bool(r.get("public_by")),
        "stderr": known(r.get("stderr")),
        "self_reported": bool(r.get("self_reported")),
        "notes": r.get("notes") or "",
        "override": r.get("override") or "",
    }


def _breakdown_view(bid: str, lk: Lookups, row: Row) -> dict[str, Any]:
    """A model's row on index board `bid`: its value, rank, interval and each component."""
    board = lk.ctx.boards[bid]
    lv = levels(board, (lk.ctx.index_defs or {}).get(board.get("definition") or bid))
    cov = row.get("coverage") or {}
    form = lk.board_format(bid)
    comps = [_component_view(bid, lk, form, lv["level"], j, c) for j, c in enumerate(row.get("components", []))]
    return {
        "id": bid,
        "name": lk.board_title(bid),
        "href": href(lk.urls.board[bid]),
        "value": known(row.get("value")),
        "rank": row.get("rank"),
        "of_ranked": lk.ranked_count[bid],
        "status": row.get("status") or "",
        "have": cov.get("have"),
        "of": cov.get("of"),
        "unit": board.get("unit") or "",
        "components": comps,
        "notes": row_notes(row),
        **interval_view(row, lv["level"]),
        "rank_level": lv["rank_level"],
        "tier": row.get("tier"),
        "rank_range": _rank_range(row.get("rank_interval")),
        "imputed_share": known(row.get("imputed_share")),
        "interval_measurement": _interval(row.get("interval_measurement")),
        "manual": row.get("manual"),
        "manual_url": safe_url((row.get("manual") or {}).get("source")),
        "digits": form["digits"],
    }


def _component_view(bid: str, lk: Lookups, form: dict[str, Any], level: str, j: int, c: Cell) -> dict[str, Any]:
    """Component `j` of a model's row on board `bid` (`form`: the board's format, `level`: its interval level)."""
    unit, digits = form["components"].get(c["id"], (form["unit"], form["digits"]))
    cv = cell(c, lk, f"m-{bid}-{j}", digits)
    cv["unit"] = unit
    cv["raw_unit"], cv["raw_digits"] = form["raw"].get(c["id"], (unit, digits))
    cv.update(
        {
            "id": c["id"],
            "name": lk.comp_name(c["id"], c.get("kind", "benchmark")),
            "kind": c.get("kind", "benchmark"),
            "raw": known(c.get("raw")),
            "reason": c.get("reason") or "",
            "source": lk.source_name(c.get("source")),
            "retrieved": c.get("retrieved") or "",
        }
    )
    cv.update(interval_view(c, level))
    return cv


def _bench_rank_view(bid: str, lk: Lookups, r: Row) -> dict[str, Any]:
    """A model's row on benchmark board `bid`: its rank of how many, its value and interval."""
    lv = levels(lk.ctx.benchmark_boards[bid])
    return {
        "id": bid,
        "name": lk.bench_name(bid),
        "rank": r.get("rank"),
        "unit": lk.bench_unit(bid),
        "digits": lk.bench_digits(bid),
        "of": len(lk.ctx.benchmark_boards[bid].get("rows", [])),
        "value": known(r.get("value")),
        "href": href(lk.urls.benchmark[bid]) if bid in lk.urls.benchmark else None,
        **interval_view(r, lv["level"]),
        "rank_level": lv["rank_level"],
        "tier": r.get("tier"),
        "rank_range": _rank_range(r.get("rank_interval")),
    }


def version_key(version: Any) -> tuple:
    """A methodology version as a sortable key, newest largest: "4.x" > "3.0" > "2.2" (a non-number part is 0)."""
    return tuple(int(p) if p.isdigit() else 0 for p in str(version or "").split("."))


def snapshot_size(ctx: SiteContext, source: str) -> int:
    """How many models a source snapshot lists: those with a result from it, and the names it lists that are not
    attributed to a model."""
    attributed = {m["id"] for m in ctx.models for r in m.get("results") or [] if r.get("source") == source}
    return len(attributed) + len(ctx.not_attributed.get(source) or [])


def board_coverage(ctx: SiteContext, bid: str) -> dict[str, Any]:
    """What a board covers, said on its face: the snapshot it is computed from with how many of that snapshot's
    models it ranks (`snapshot`, `ranked`, `of_snapshot`), and, where its definition names the source's current
    board (front_page.current), how many of that board's models it ranks (`of_current`; `partial` when below the
    definition's min_share, default 0.8). Absent parts are None."""
    board = ctx.boards[bid]
    definition = (ctx.index_defs or {}).get(board.get("definition") or bid) or {}
    ranked = sum(1 for r in board.get("rows", []) if r.get("rank") is not None)
    snapshot = board.get("source_snapshot")
    front = definition.get("front_page") or {}
    current = front.get("current")
    of_current = None
    if current:
        rows = rows_of(ctx.benchmark_boards, current["benchmark"])
        of_current = sum(1 for r in rows if r.get("source") == current["source"]) or None
    share = front.get("min_share", 0.8)
    return {
        "snapshot": snapshot,
        "retrieved": _snapshot_date(ctx, snapshot),
        "ranked": ranked,
        "of_snapshot": snapshot_size(ctx, snapshot) if snapshot else None,
        "of_current": of_current,
        "partial": of_current is not None and ranked < share * of_current,
        "current_source": current["source"] if current else None,
    }


def _snapshot_date(ctx: SiteContext, source: str | None) -> str:
    return str(next((s.get("retrieved") or "" for s in ctx.sources if s["id"] == source), "")) if source else ""


def headline_boards(ctx: SiteContext) -> list[dict[str, Any]]:
    """The front page's headline boards, one per index family, in the families' `front_page.order`: the newest
    version whose board ranks at least min_share of the source's current board, else the newest version (marked
    partial). Each: {"id", "family", "coverage", "others": [the family's other boards, newest first]}. Only
    definitions with a `front_page` entry and a published board take part."""
    families: dict[str, list[tuple[tuple, str, int]]] = defaultdict(list)
    for bid, board in ctx.boards.items():
        definition = (ctx.index_defs or {}).get(board.get("definition") or bid) or {}
        front = definition.get("front_page")
        if not front or front.get("board", definition.get("id")) != bid:
            continue
        families[front["family"]].append((version_key(definition.get("version")), bid, int(front["order"])))
    out = []
    for family, members in families.items():
        members.sort(key=lambda m: (m[0], m[1]), reverse=True)
        cover = {bid: board_coverage(ctx, bid) for _, bid, _ in members}
        lead = next((bid for _, bid, _ in members if not cover[bid]["partial"]), members[0][1])
        out.append(
            {
                "id": lead,
                "family": family,
                "order": min(m[2] for m in members),
                "coverage": cover[lead],
                "others": [
                    {
                        "id": bid,
                        "title": board_title(ctx, bid),
                        "version": ctx.boards[bid].get("version"),
                        "coverage": cover[bid],
                    }
                    for _, bid, _ in members
                    if bid != lead
                ],
            }
        )
    return sorted(out, key=lambda h: (h["order"], h["family"]))
