"""Index definitions (methodology/indices/*.yaml) as readable sections of the methodology pages: per index version,
its facts in words, its constituents, weights and anchor tables with their units, its selection and imputation rules
in sentences, its history and notes, and a link to the file. Every field of a definition is shown; a field this
module does not know yet is listed under "Other settings" (and a test keeps that list empty for the real files)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..indices.board_types import Board, Row
from ..indices.uncertainty import CALIBRATION_FOLDS, MIN_CASES, interval_level, level_text
from .context import SiteContext
from .numbers import HEADER
from .pages import contribute_links, methodology_title
from .views import Lookups

_ORDER_WORDS = {
    "source-precedence": "the sources listed for it first, in their order, then any other source",
    "independent-first": "a third party's measurement before the developer's own (self-reported) figure",
    "harness-preference": "a preferred harness (agent or tool set-up) where one is named",
    "newest": "the most recent retrieval",
    "highest": "the highest value",
}


def family(def_id: str) -> str:
    """'aa-intelligence-v3-0' -> 'aa-intelligence': the index without its version."""
    return def_id.rsplit("-v", 1)[0] if "-v" in def_id else def_id


def page_stem(def_id: str, pages: Mapping[str, str]) -> str:
    """The methodology page (file stem) that explains a definition: the one methodology/site.yaml's
    methodology_pages names for its id or its family, else its family's own."""
    f = family(def_id)
    return pages.get(def_id) or pages.get(f) or f


def definitions_for(stem: str, index_defs: dict[str, dict], pages: Mapping[str, str]) -> list[dict]:
    """The definitions a methodology page explains, by name, then newest version first."""
    defs = [d for i, d in index_defs.items() if page_stem(i, pages) == stem]
    return sorted(defs, key=lambda d: (family(d["id"]) != stem, str(d.get("name") or d["id"]), _version_key(d)))


def frontier_names(index_defs: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The definitions whose boards carry value and size frontiers (a `frontier` entry), in id order, each by its
    `short_name`, else its `name`, else its id: how the Downloads page says which boards have `frontiers`."""
    return [str(d.get("short_name") or d.get("name") or i) for i, d in sorted(index_defs.items()) if d.get("frontier")]


def _version_key(d: dict) -> list:
    return [-int(p) if p.isdigit() else 0 for p in str(d.get("version") or "").split(".")]


def num(x: Any) -> str:
    """A number as the file writes it (1000, 0.125, 0.6); anything else as text."""
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def pct(x: float) -> str:
    return level_text(x)


def _code(text: Any) -> dict:
    return {"text": str(text), "code": True}


def _link(text: Any, href: str | None) -> dict:
    return {"text": str(text), "href": href}


class _View:
    """Builds one definition's section; `take` marks a field as shown."""

    def __init__(
        self, d: dict, ctx: SiteContext, lk: Lookups, bench_href: Callable[[str], str | None], md_base: str
    ) -> None:
        self.d, self.ctx, self.lk, self.bench_href, self.md_base = d, ctx, lk, bench_href, md_base
        # (data/kinds.py: WRITTEN); short_name is the name's short form, for other pages' running text
        self.used: set[str] = {"id", "kind", "kind_as_written", "name", "short_name", "version"}
        self.facts: list[tuple[str, Any]] = []
        self.blocks: list[dict] = []  # {"title", "text", "table", "items"} in page order

    def take(self, key: str) -> Any:
        self.used.add(key)
        return self.d.get(key)

    def bench(self, bid: str) -> dict:
        return _link(self.lk.bench_name(bid), self.bench_href(bid))

    def unit(self, bid: str) -> str:
        return self.lk.bench_unit(bid) or "score"

    def sources(self, ids: list) -> str:
        """Source ids in order (the Sources page names each)."""
        return ", then ".join(str(s) for s in ids) if ids else "any source"

    def selection_words(self, sel: dict | None, general: bool = True) -> str:
        """A selection rule (or a benchmark's override of it) as a sentence."""
        if not sel:
            return ""
        parts = []
        if general:
            what = "the primary metric" if not sel.get("metric") else f"metric {sel['metric']}"
            subset = "the full question set" if not sel.get("subset") else f"question set {sel['subset']}"
            parts.append(f"One value per model and benchmark: {what}, {subset}.")
            order = [_ORDER_WORDS.get(o, o) for o in sel.get("order") or []]
            if order:
                parts.append("When several results qualify, the first of these wins: " + "; ".join(order) + ".")
            if sel.get("sources"):
                parts.append(f"Source order: {self.sources(sel['sources'])}; other sources follow.")
            elif "sources" in sel:
                parts.append("No source is preferred by name.")
            return " ".join(parts)
        if sel.get("sources"):
            parts.append(("only " if sel.get("only_listed") else "") + self.sources(sel["sources"]))
        if sel.get("subset"):
            parts.append(f"question set {sel['subset']} only")
        h = sel.get("harness")
        if h:
            prefer = ["the plain model (no harness)" if p == "" else f"harness {p}" for p in h.get("prefer") or []]
            best = h.get("otherwise") == "best"
            text = (
                " or ".join(prefer) + " preferred" + (", otherwise the best harness result" if best else "")
                if prefer
                else "the best harness result"
                if best
                else "any harness"
            )
            parts.append(text)
        return "; ".join(parts)

    def table(
        self,
        title: str | None,
        head: list | None,
        rows: list[list],
        text: str = "",
        row_headers: bool = False,
        caption: str = "",
        facts: bool = False,
    ) -> None:
        """A table; with `row_headers` the first cell of each row is its header (numbers right-aligned unless `facts`)."""
        self.blocks.append(
            {
                "title": title,
                "text": text,
                "table": {"head": head, "rows": rows, "row_headers": row_headers, "caption": caption, "facts": facts},
            }
        )

    def prose(self, title: str | None, text: str = "", items: list | None = None) -> None:
        self.blocks.append({"title": title, "text": text, "items": items or []})

    def anchors(self, title: str, bid: str, points: list, out: str, in_unit: str | None = None) -> None:
        """An anchor table: the input score and the value it maps to, one column per anchor."""
        in_unit = in_unit or self.unit(bid)
        self.table(
            None,
            None,
            [
                [f"{self.lk.bench_name(bid)} ({in_unit})", *[num(p[0]) for p in points]],
                [out, *[num(p[1]) for p in points]],
            ],
            row_headers=True,
            caption=title,
        )


def _front_page_words(fp: dict, v: _View) -> str:
    """A definition's front_page entry in words (views.headline_boards applies it)."""
    where = f"headline place {num(fp['order'])}, for the family {fp['family']}" + (
        f" (its board {fp['board']})" if fp.get("board") else ""
    )
    cur = fp.get("current")
    if not cur:
        return where + ": the family's newest version leads"
    share = level_text(fp.get("min_share", 0.8))
    return (
        f"{where}: the newest version that ranks at least {share} of the models on the source's current board "
        f"({v.lk.bench_name(cur['benchmark'])} in {cur['source']}) leads; below that a board is labelled a partial "
        "snapshot"
    )


def _common(v: _View) -> None:
    unit, hib = v.take("unit"), v.take("higher_is_better")
    if unit or hib is not None:
        better = "" if hib is None else ("higher is better" if hib else "lower is better")
        v.facts.append(("Unit", ", ".join(x for x in (str(unit or ""), better) if x)))
    if (p := v.take("precision")) is not None:
        v.facts.append(("Precision", f"values are computed and stored to {num(p)} decimals"))
    if u := v.take("uncertainty"):
        v.facts.append(("Uncertainty", _uncertainty_fact(v, u)))
    _policy_facts(v)
    if pb := v.take("published"):
        v.facts.append(("Published figure", _published_words(v, pb)))
    if fp := v.take("front_page"):
        v.facts.append(("Front page", _front_page_words(fp, v)))
    if (tol := v.take("reproduction_tolerance")) is not None:
        v.facts.append(("Reproduces the published figure", f"within ±{num(tol)} {unit or ''}".strip()))


def _uncertainty_fact(v: _View, u: dict[str, Any]) -> dict[str, Any]:
    """How a definition's intervals, rank ranges and tiers are drawn, linked to the uncertainty page."""
    d = v.d
    level, n = f"{level_text(u['level'])} (level {num(u.get('level'))})", num(u.get("simulations"))
    # a composite's interval is simulated from its components; other values bring their own interval, at
    # their own level where the definition sets one (HLE's and the Pedagogy paper's ci_level)
    own = interval_level(d)
    if own is None:  # not reached: interval_level falls back to this uncertainty.level
        own = float(u["level"])
    text = (
        f"{level} intervals by rerunning the index on {n} draws of its components; rank ranges and tiers "
        "from the same draws"
        if d.get("kind") in ("weighted-mean", "ai-iq", "ai-eq")
        else f"rank ranges and tiers from {n} draws of each value from its own {level} interval"
        if own == float(u["level"])
        else f"{level} rank ranges and tiers from {n} draws of each value from its own "
        f"{level_text(own)} interval (level {num(own)})"
    )
    # the link only where the repository has that page (a tree may leave it out)
    page = v.md_base + "uncertainty/" if "uncertainty.md" in v.lk.urls.methodology else None
    return _link(text, page)


def _policy_facts(v: _View) -> None:
    """When the board is published, the snapshot it is computed from, its imputation and its weights."""
    if pub := v.take("publish"):
        v.facts.append(
            (
                "Board published",
                {
                    "always": "always",
                    "never": "never (defined and tested only)",
                    "when-data": "once at least one model has a value",
                }.get(pub, pub),
            )
        )
    if snap := v.take("source_snapshot"):
        v.facts.append(("Computed from", _link(f"{v.lk.source_name(snap)} ({snap}) only", v.lk.source_url(snap))))
    if imp := v.take("imputation"):
        v.facts.append(
            (
                "Imputation",
                "none: a model missing a constituent gets no value and shows its coverage (k/N)"
                if imp == "none"
                else imp,
            )
        )
    if w := v.take("weights"):
        v.facts.append(
            (
                "Weights",
                {
                    "fractions": "shares of the index, summing to 1",
                    "relative": "relative: each weight is divided by the sum of the weights",
                }.get(w, w),
            )
        )


def _published_words(v: _View, pb: dict[str, Any]) -> str:
    """A definition's `published` entry in words: the source's own figure beside each row, or as each row."""
    r = pb.get("rows_without_components") or {}
    name = v.lk.bench_name(pb["benchmark"])  # required by the schema
    text = f"the source's own figure ({name}) is shown beside each row as a check"
    if v.d.get("kind") == "published":
        text = (
            f"each row is the source's own figure ({name}) as published, not recomputed: its components are not public"
        )
    if r:
        text += (
            "; a row with that figure but not every constituent "
            + ("shows it, marked published" if r.get("show_value") else "shows no value")
            + (", and is ranked" if r.get("ranked") else ", and is not ranked")
        )
    return text


def _weighted_mean(v: _View) -> None:
    cons = v.take("constituents") or []
    total = sum(float(c.get("weight") or 0) for c in cons) or 1.0
    rows = [
        [
            v.bench(c["benchmark"]),
            c.get("subset") and _code(c["subset"]) or "full set",
            v.unit(c["benchmark"]),
            num(c.get("weight")),
            f"{float(c.get('weight') or 0) / total * 100:.4g}%",
        ]
        for c in cons
    ]
    v.table(
        "Constituents and weights",
        ["Benchmark", "Question set", "Unit", "Weight", "Share of the index"],
        rows,
        "The index is the weighted mean of these scores: the sum of weight × score, divided by the sum of the weights.",
    )


def _ai_iq(v: _View) -> None:
    _ai_iq_facts(v)
    if st := v.take("status"):
        v.table(
            "Rank status",
            ["Status", "Scored dimensions", "Ranked"],
            [[_code(s["status"]), f"at least {num(s['min_scored'])}", num(bool(s.get("ranked")))] for s in st],
        )
    for dim in v.take("dimensions") or []:
        _ai_iq_dimension(v, dim)
    _calibration(v)
    if sup := v.take("supplementary"):
        v.table(
            "Supplementary benchmarks",
            ["Benchmark", f"Ceiling ({v.d.get('unit') or 'IQ'})", "Note"],
            [[v.bench(s["benchmark"]), num(s.get("ceiling", "")), s.get("note", "")] for s in sup],
        )
    if ex := v.take("excluded_benchmarks"):
        v.table(
            "Benchmarks left out", ["Benchmark", "Reason"], [[v.bench(e["benchmark"]), e.get("reason", "")] for e in ex]
        )


def _ai_iq_facts(v: _View) -> None:
    """AI IQ's rules as facts: the percentile, the composite, family match, compression, the manual fallback."""
    pc = v.take("percentile") or {}
    if pc:
        v.facts.append(
            (
                "P80",
                f"{pc.get('method', '')} percentile at level {num(pc.get('level'))}: of the ascending list of "
                f"n implied IQs, the value at 1-based position ceil({num(pc.get('level'))} × n)",
            )
        )
    if (md := v.take("min_dimensions")) is not None:
        v.facts.append(
            ("Composite", f"needs at least {num(md)} scored dimensions; it is the mean of the dimensions used")
        )
    if (fm := v.take("family_match")) is not None:
        v.facts.append(("Family match", _family_match_words(v, bool(fm))))
    if cp := v.take("compression"):
        v.facts.append(
            (
                "Compression",
                f"pivot {num(cp.get('pivot'))}: {cp.get('rule', '')}; the anchor tables below are "
                f"the {cp.get('anchors_are', '')} curves",
            )
        )
    if mf := v.take("manual_fallback"):
        v.facts.append(
            (
                "Without a composite",
                f"a sourced manual IQ (model file fields {mf.get('field')} and "
                f"{mf.get('source_field')}) is shown, labelled, " + ("ranked" if mf.get("ranked") else "not ranked"),
            )
        )


def _family_match_words(v: _View, on: bool) -> str:
    """The family match rule in words, naming the benchmarks it is switched off on."""
    if not on:
        return "off"
    off = [
        v.lk.bench_name(b["benchmark"])
        for dim in v.d.get("dimensions") or []
        for b in dim.get("benchmarks") or []
        if b.get("family_match") is False
    ]
    return (
        "on: inside a scored dimension, a missing benchmark first takes the real score of a "
        "configuration of the same release in the same stated reasoning mode at a lower reasoning effort, "
        "the nearest effort first; configurations of unknown mode, or of equal or unknown effort, never "
        "match" + (f"; off on {', '.join(off)}, where its held-out error is worse than the fallback's" if off else "")
    )


def _ai_iq_dimension(v: _View, dim: dict[str, Any]) -> None:
    """One AI IQ dimension: its benchmarks' table, then each benchmark's anchor table."""
    rows = [
        [
            v.bench(b["benchmark"]),
            b.get("tier", ""),
            num(b.get("ceiling", "")),
            num(b["ceiling_original"]) if "ceiling_original" in b else "–",
            v.selection_words(b.get("selection"), general=False) or "the general rule above",
        ]
        for b in dim.get("benchmarks") or []
    ]
    text = (
        "Missing dimension imputed at dimension level when the model has enough others."
        if dim.get("imputable")
        else "Never imputed at dimension level."
    )
    v.table(
        f"{dim.get('name')} ({dim.get('id')})",
        ["Benchmark", "Tier", f"Ceiling ({v.d.get('unit') or 'IQ'})", "Ceiling before compression", "Values from"],
        rows,
        text,
    )
    for b in dim.get("benchmarks") or []:
        unit = b.get("raw_scale") and "score" or None
        v.anchors(
            f"{v.lk.bench_name(b['benchmark'])}: score to implied {v.d.get('unit') or 'IQ'}"
            + (f" ({b['raw_scale']})" if b.get("raw_scale") else ""),
            b["benchmark"],
            b.get("anchors") or [],
            f"Implied {v.d.get('unit') or 'IQ'}",
            unit,
        )


_RULE_WORDS = {
    "family": "family match",
    "benchmark": "min(own mean, P80), benchmark level",
    "dimension": "min(own mean, P80), dimension level",
}


def _pct(x: float | None) -> str:
    """A share to one decimal ("94.9%"): a coverage is not a level, and is never written as one."""
    return "–" if x is None else f"{100 * x:.1f}%"


def _signed(x: float | None) -> str:
    return "–" if x is None else f"{x:+.2f}".replace("-", "−")


def _plain_num(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _board_of(v: _View) -> Board | None:
    """The computed board of this definition, where the build has one."""
    return next((b for b in (v.ctx.boards or {}).values() if b.get("definition") == v.d["id"]), None)


def _calibration(v: _View) -> None:
    """The imputation calibration table of this build's board, and one real case of each rule from it."""
    board = _board_of(v)
    table = board.get("imputation_calibration") if board is not None else None
    if board is None or not table:
        return
    dims = {d["id"]: d.get("name") or d["id"] for d in v.d.get("dimensions") or []}
    rows = []
    for r in table:
        what = _plain(dims.get(r["component"], "")) if r["rule"] == "dimension" else None
        thirds = " / ".join(_pct(x) for x in r.get("coverage_by_tercile") or [])
        pooled = f" (pooled over {r['pooled']:,} cases)" if r.get("pooled") else ""
        rows.append(
            [
                _RULE_WORDS.get(r["rule"], r["rule"]),
                what or v.bench(r["component"]),
                str(r["cases"]),
                _signed(r["bias"]),
                _plain_num(r["se"]),
                _plain_num(r["sd"]) + pooled,
                f"{_pct(r['coverage'])} of {r['coverage_cases']}" if r.get("coverage") is not None else "–",
                thirds,
                str(r.get("imputes", 0)),
            ]
        )
    cases = sum(r["cases"] for r in table)
    v.table(
        "Imputation error, calibrated out of fold (this build)",
        [
            "Rule",
            "Benchmark or dimension",
            "Held-out cases",
            f"Bias ({v.d.get('unit') or 'IQ'})",
            "SE of bias",
            "Residual SD",
            "Out-of-fold coverage",
            "By composite third (low / middle / high)",
            "Values it imputes here",
        ],
        rows,
        f"Every observed value a rule could have imputed is hidden and imputed by the rule, with its P80 fitted "
        f"on the models of the other folds of {CALIBRATION_FOLDS} seeded folds ({cases:,} held-out cases in all). Bias is the "
        "mean error (imputed − observed): the simulation moves each imputed value by −bias (never beyond the "
        "range of the cases' observed values), adds one normal term with the SE of the bias shared by every "
        "model the rule imputes there, and one with the residual SD of each model's own, and clips to the anchor "
        "table's range. Coverage: how often the interval so fitted on the other folds holds the hidden value "
        f"(nominal {level_text(float((v.d.get('uncertainty') or {}).get('level', 0.95)))}); a rule with fewer "
        f"than {MIN_CASES} cases of its own is drawn with the rule's error pooled over all its cases, as a "
        "root-mean-square error with no bias corrected.",
    )
    examples = _imputation_examples(v, board)
    if examples:
        v.prose("Imputed values on this build's board", "One real case of each rule, as its row states it:", examples)


def _imputation_examples(v: _View, board: Board) -> list[str]:
    """The best-ranked row's imputed component of each kind (family match, min-of-two, dimension level)."""
    out, seen = [], set()
    for row in _ranked(board.get("rows", [])):
        for c in row.get("components", []):
            if c.get("how") != "imputed":
                continue
            kind = "family" if c.get("sibling") else c.get("kind", "benchmark")
            if kind in seen:
                continue
            seen.add(kind)
            name = v.lk.model_meta(row["model"]).get("name") or row["model"]
            comp = v.lk.comp_name(c["id"], c.get("kind", "benchmark"))
            out.append(
                f"{name} (rank {row['rank']}), {comp}: {c['value']:.2f}, {c.get('reason') or ''}"
                + (f"; interval {iv[0]:.1f}–{iv[1]:.1f}" if (iv := c.get("interval")) else "")
            )
        if len(seen) == 3:
            break
    return out


def build_figures(ctx: SiteContext, lk: Lookups) -> list[dict]:
    """What methodology/uncertainty.md quotes from the build: per composite board with intervals, the median
    interval widths (total; measurement alone), the #1 row's rank interval, the tier sizes and the rows whose
    rank interval was widened to their point rank."""
    rows = []
    for bid, board in sorted((ctx.boards or {}).items()):
        definition = (ctx.index_defs or {}).get(board.get("definition") or "") or {}
        if definition.get("kind") not in ("weighted-mean", "ai-iq", "ai-eq") or "uncertainty" not in board:
            continue
        if row := _figures_row(lk, bid, board):
            rows.append(row)
    if not rows:
        return []
    return [
        {
            "title": "Figures from this build",
            "text": (
                "Computed by the build that made this page, at each board's level: rows with an interval, the median width "
                "of the total interval (measurement and imputation) and of the measurement-only one, the #1 row's rank "
                "interval, the number of rows in each tier from the top, and the rows whose rank interval was widened to "
                "hold their own rank."
            ),
            "table": {
                "head": [
                    "Board",
                    "Rows with an interval",
                    "Median width",
                    "Median width, measurement alone",
                    "#1 row: rank interval",
                    "Tier sizes",
                    "Rank intervals widened",
                ],
                "rows": rows,
                "row_headers": True,
                "caption": "",
                "facts": False,
            },
        }
    ]


def _figures_row(lk: Lookups, bid: str, board: Board) -> list[str] | None:
    """One composite board's figures (see build_figures); None when no row has an interval."""
    with_interval = [(iv, r) for r in board["rows"] if (iv := r.get("interval"))]
    if not with_interval:
        return None
    ranked = _ranked(board["rows"])
    widths = sorted(iv[1] - iv[0] for iv, _ in with_interval)
    inner = sorted(m[1] - m[0] for _, r in with_interval if (m := r.get("interval_measurement")))
    tiers: dict[int, int] = {}
    for r in ranked:
        if (tier := r.get("tier")) is not None:
            tiers[tier] = tiers.get(tier, 0) + 1
    top = ranked[0] if ranked else None
    rank_interval = top.get("rank_interval") if top else None
    return [
        lk.board_title(bid),
        f"{len(with_interval):,}",
        f"{_median(widths):.1f}",
        f"{_median(inner):.1f}" if inner else "–",
        (
            f"{lk.model_meta(top['model']).get('name') or top['model']}: "
            + (f"{rank_interval[0]}–{rank_interval[1]}" if rank_interval else "–")
        )
        if top
        else "–",
        " / ".join(str(tiers[t]) for t in sorted(tiers)) or "–",
        str(board["uncertainty"].get("rank_widened", 0)),
    ]


def _ranked(rows: list[Row]) -> list[Row]:
    """A board's ranked rows in rank order."""
    ranked = [(rank, r) for r in rows if (rank := r.get("rank")) is not None]
    return [r for _, r in sorted(ranked, key=lambda p: p[0])]


def _median(xs: list[float]) -> float:
    n = len(xs)
    return (xs[(n - 1) // 2] + xs[n // 2]) / 2


def _raw_word(unit: str) -> str:
    """What an anchor table maps from, by the benchmark's unit: its short name where that is a word ("Elo"),
    else "score" (a percent, a count of seconds)."""
    short = HEADER.get(unit, "")
    return short if len(short) > 1 and short[0].isalpha() else "score"


def _ai_eq(v: _View) -> None:
    """An anchor-mean definition: each component's anchor table, from the benchmark's unit ("Elo") to the
    definition's ("EQ")."""
    unit = str(v.d.get("unit") or "value")
    for c in v.take("components") or []:
        v.anchors(
            f"{v.lk.bench_name(c['benchmark'])}: {_raw_word(v.unit(c['benchmark']))} to implied {unit}",
            c["benchmark"],
            c.get("anchors") or [],
            f"Implied {unit}",
        )
    if adj := v.take("adjustments"):
        v.table(
            "Adjustments",
            ["Benchmark", "Organisation", "Elo change", "Applied", "Reason"],
            [
                [
                    v.bench(a["benchmark"]),
                    a.get("organization", ""),
                    f"{a.get('elo_delta', 0):+}",
                    (a.get("stage") or "").replace("-", " "),
                    a.get("reason", ""),
                ]
                for a in adj
            ],
        )


def _cost(v: _View) -> None:
    if mix := v.take("price_mix"):
        v.facts.append(
            (
                "Token cost",
                f"{num(mix.get('input'))} × input price + {num(mix.get('output'))} × output price "
                "(USD per 1M tokens each)",
            )
        )
    if eff := v.take("efficiency"):
        v.facts.append(
            (
                "Token efficiency",
                f"the model's {v.lk.bench_name(eff.get('tokens_benchmark'))} divided by the "
                f"{eff.get('reference')} over every model with token data; values from "
                f"{v.selection_words(eff.get('tokens_selection'), general=False)}",
            )
        )
    if rt := v.take("response_time"):
        v.facts.append(
            (
                "Response time",
                f"{v.lk.bench_name(rt.get('benchmark'))}, from {v.selection_words(rt.get('selection'), general=False)}",
            )
        )


def _hle(v: _View) -> None:
    if b := v.take("benchmark"):
        v.facts.append(("Benchmark", v.bench(b)))
    if s := v.take("sources"):
        v.facts.append(
            ("Published figures", f"used where no per-question results exist, in this order: {v.sources(s)}")
        )
    if "raw_subset" in v.d:
        rs = v.take("raw_subset")
        v.facts.append(("Per-question results", "on the full set" if not rs else f"on subset {rs}"))
    if acc := v.take("accuracy"):
        v.facts.append(
            (
                "Accuracy interval",
                f"{acc.get('interval', '').capitalize()}, {pct(acc.get('ci_level', 0))} "
                f"(level {num(acc.get('ci_level'))}): accuracy ± {num(acc.get('z'))} × √(p(1 − p)/n)",
            )
        )
    if cal := v.take("calibration"):
        v.facts.append(
            (
                "Calibration error",
                f"{cal.get('implementation')}, norm {num(cal.get('norm'))}, bins of "
                f"{num(cal.get('bin_size'))} questions; no value under {num(cal.get('min_answered'))} answered "
                f"questions; a missing confidence counts as {num(cal.get('missing_confidence'))}",
            )
        )
    if sc := v.take("scope"):
        v.prose("Which models the boards list", sc)
    if sub := v.take("subsets"):
        v.table(
            "Question sets, in order of preference",
            ["Subset", "Label", "Questions"],
            [
                [
                    _code(s["id"]) if s.get("id") else "full set",
                    s.get("label", ""),
                    "not stated (answered rows used)" if s.get("questions") is None else num(s["questions"]),
                ]
                for s in sub
            ],
        )
    boards = v.take("boards") or {}
    if isinstance(boards, dict):
        v.table(
            "Boards",
            ["Board", "Metric", "Unit", "Better", "Rank decimals", "What it shows"],
            [
                [
                    _code(b.get("id")),
                    b.get("metric") or "primary",
                    b.get("unit", ""),
                    "higher" if b.get("higher_is_better", True) else "lower",
                    num(b.get("rank_decimals", "")),
                    b.get("description", ""),
                ]
                for b in boards.values()
            ],
        )


def _pedagogy(v: _View) -> None:
    if s := v.take("sources"):
        v.facts.append(("Published figures", f"used where no per-question results exist: {v.sources(s)}"))
    if bs := v.take("bootstrap"):
        v.facts.append(
            (
                "Intervals",
                f"{pct(bs.get('ci_level', 0))} (level {num(bs.get('ci_level'))}) percentile bootstrap "
                f"over questions, {num(bs.get('resamples'))} resamples, seed {num(bs.get('seed'))}; without "
                "per-question data, the exact binomial quantiles",
            )
        )
    if bf := v.take("bad_format"):
        v.facts.append(
            (
                "Excluded",
                f"models with more than {pct(bf.get('max_share', 0))} (share {num(bf.get('max_share'))}) "
                f"badly formatted answers (metric {bf.get('metric')})",
            )
        )
    for b in v.take("boards") or []:
        _pedagogy_board(v, b)
    if fr := v.take("frontier"):
        v.table("Frontiers", None, _frontier_rows(v, fr), row_headers=True, facts=True)
    if pf := v.take("paper_frontier"):
        v.table(
            pf.get("title") or "Frontiers the paper reports",
            ["Frontier", "Models, in order"],
            [[k, ", ".join(ms)] for k, ms in pf.items() if k != "title"],
        )


def _pedagogy_board(v: _View, b: dict[str, Any]) -> None:
    """One Pedagogy board's facts table, and the paper's value frontier over time where it has one."""
    rows: list[list[Any]] = [
        ["Board", _code(b.get("id"))],
        ["Benchmark", v.bench(b["benchmark"])],
        ["Questions scored", num(b.get("questions"))],
        ["Unit", b.get("unit", "")],
        ["Better", "higher" if b.get("higher_is_better", True) else "lower"],
        ["Rank decimals", num(b.get("rank_decimals", ""))],
    ]
    if hb := b.get("human_baseline"):
        rows.append(
            [
                "Human baseline",
                f"{hb.get('label')}: {num(hb.get('value'))} {b.get('unit', '')}. {hb.get('note', '')} "
                f"Source: {v.lk.source_name(hb.get('source'))}.",
            ]
        )
    v.table(b.get("name"), None, rows, b.get("description", ""), row_headers=True, facts=True)
    if pt := b.get("paper_over_time"):
        v.table(
            None,
            ["Month", "Input price (USD per 1M tokens)", "Accuracy (%)"],
            [[p.get("month"), num(p.get("price")), num(p.get("accuracy"))] for p in pt.get("points") or []],
            caption=f"The paper's value frontier over time, checked within ±{num(pt.get('tolerance'))} points",
        )


def _frontier_rows(v: _View, fr: dict[str, Any]) -> list[list[Any]]:
    """The Pedagogy definition's frontiers (value, size) as rows of a facts table."""
    rows: list[list[Any]] = [
        ["Collinear models", "on the frontier" if fr.get("include_collinear") else "not on the frontier"]
    ]
    for key, label in (("value", "Value frontier"), ("size", "Size frontier")):
        f = fr.get(key) or {}
        if not f:
            continue
        axes = f.get("axes") or {}
        text = f"x: {axes.get('x', f.get('x'))}; y: {axes.get('y', '')}"
        if f.get("price_source"):
            text += f"; prices from {v.lk.source_name(f['price_source'])} ({f['price_source']})"
        if f.get("over_time"):
            text += f"; also as it stood at the end of each {f['over_time']}"
        if f.get("population"):
            text += f"; over models with a {f['population'].replace('-', ' ')}"
        for mid, c in (f.get("counts") or {}).items():
            text += f"; {mid} at {num(c.get('total_b'))} B ({c.get('source')})"
        rows.append([label, text])
    return rows


def _benchmark_boards(v: _View) -> None:
    if pb := v.take("per_benchmark"):
        v.table(
            "Sources by benchmark",
            ["Benchmark", "Values from"],
            [[v.bench(b), v.selection_words(sel, general=False)] for b, sel in pb.items()],
        )
    for bid, qs in (v.take("question_sets") or {}).items():
        v.table(
            f"{v.lk.bench_name(bid)}: question sets, each ranked only within itself",
            ["Subset", "Table"],
            [["full set", qs.get("full", "")]]
            + [[_code(o["subset"]), o.get("label", "")] for o in qs.get("others") or []],
        )
    for bid, tables in (v.take("category_tables") or {}).items():
        v.table(
            f"{v.lk.bench_name(bid)}: category tables",
            ["Table", "Columns (subset: name)"],
            [
                [t.get("label", ""), ", ".join(f"{c['subset']}: {c['name']}" for c in t.get("columns") or [])]
                for t in tables
            ],
        )


_KINDS: dict[str, Callable[[_View], None]] = {
    "weighted-mean": _weighted_mean,
    "ai-iq": _ai_iq,
    "ai-eq": _ai_eq,
    "cost": _cost,
    "hle": _hle,
    "pedagogy": _pedagogy,
    "benchmark-boards": _benchmark_boards,
}


def _plain(x: Any) -> str:
    if isinstance(x, dict):
        return "; ".join(f"{k}: {_plain(val)}" for k, val in x.items())
    if isinstance(x, list):
        return ", ".join(_plain(i) for i in x)
    return num(x)


def definition_view(
    d: dict, ctx: SiteContext, lk: Lookups, bench_href: Callable[[str], str | None], md_base: str = ""
) -> dict:
    """One definition's section: heading, description, facts, tables, selection rule, notes, history, file links.
    `bench_href` gives a benchmark page's address from this page; `md_base` leads to the methodology section."""
    v = _View(d, ctx, lk, bench_href, md_base)
    description = v.take("description") or ""
    _common(v)
    if sel := v.take("selection"):
        v.prose("Choosing one value", v.selection_words(sel))
    if kind_view := _KINDS.get(str(d.get("kind"))):
        kind_view(v)
    notes = v.take("notes") or []
    history = v.take("history") or []
    other = [(k.replace("_", " ").capitalize(), _plain(val)) for k, val in d.items() if k not in v.used]
    path = f"methodology/indices/{d['id']}.yaml"
    repo = ctx.repo_url.rstrip("/")
    title = str(d.get("name") or d["id"]) + (f", version {d['version']}" if d.get("version") else "")
    return {
        "id": d["id"],
        "title": title,
        "description": description,
        "facts": v.facts,
        "blocks": v.blocks,
        "notes": notes,
        "other": other,
        "path": path,
        "history": [
            [h.get("version", ""), h.get("from", "") or "–", h.get("to", "") or "–", h.get("change", "")]
            for h in history
        ],
        "file_url": f"{repo}/blob/HEAD/{path}" if contribute_links(ctx, path) else None,
        "edit_url": contribute_links(ctx, path).get("edit"),
    }


def overview(ctx: SiteContext, md_pages: dict[str, str], md_base: str) -> list[list]:
    """The overview page's list of definitions: index, version, the page that explains it, its file."""
    rows = []
    for i, d in sorted(
        (ctx.index_defs or {}).items(), key=lambda kv: (str(kv[1].get("name") or kv[0]), _version_key(kv[1]))
    ):
        page = page_stem(i, ctx.presentation.methodology_pages) + ".md"
        if page not in md_pages:
            where: Any = "–"
            name: Any = str(d.get("name") or i)
        else:
            target = md_base + ("" if page == "index.md" else md_pages[page])
            where = _link(methodology_title(page, ctx.methodology_pages[page]), target or "./")
            name = _link(str(d.get("name") or i), f"{target}#{i}")
        path = f"methodology/indices/{i}.yaml"
        link = contribute_links(ctx, path)
        rows.append(
            [
                name,
                str(d.get("version") or "–"),
                where,
                _link(path, f"{ctx.repo_url.rstrip('/')}/blob/HEAD/{path}") if link else _code(path),
            ]
        )
    return rows
