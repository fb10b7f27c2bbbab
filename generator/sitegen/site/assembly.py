"""The site: SiteContext -> files under site/ (HTML from Jinja2 templates on mkdocs-material's look)."""

from __future__ import annotations

import dataclasses
import functools
import multiprocessing
import os
import posixpath
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from markupsafe import Markup

from .. import reuse, write
from . import asof, changes, methodology, ogimage
from .ahead import ahead_files, simulations
from .charts import BEST_PREFIX, PRICE_CHART, build_charts, kept_dict, kept_specs, price_disagreement_rows, price_rows
from .context import SiteContext, rows_of
from .numbers import decimals, number, with_unit
from .pages import (
    Page,
    Urls,
    board_ids,
    board_title,
    contribute_links,
    href,
    methodology_title,
    nav_items,
    site_path,
    slug,
)
from .render import environment, fmt_price, script_json
from .search import search_files
from .views import (
    Lookups,
    anchor_definition,
    bench_board_view,
    board_coverage,
    board_data,
    board_summary,
    board_view,
    definition_of,
    headline_boards,
    higher_is_better,
    iq_anchors,
    levels,
    model_view,
    release_path,
    unknown_counts,
)

__all__ = ["SiteContext", "render_files", "render_site"]

ASSET_PREFIX = "assets/"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'"
)


def _static_files() -> dict[str, bytes]:
    """The packaged static tree (vendored libraries, our CSS/JS) under assets/, in sorted order."""
    root = resources.files("sitegen") / "static"
    out: dict[str, bytes] = {}
    base = Path(str(root))
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base).as_posix()
        if path.is_file() and not rel.endswith((".sh", "SHA256SUMS")) and "__pycache__" not in rel:
            out[ASSET_PREFIX + rel] = path.read_bytes()
    return out


def _model_page_data(mid: str, lk: Lookups, charts: dict) -> dict:
    kinds = [k for k in lk.ctx.presentation.model_charts if k in charts and mid in charts[k]["models_set"]]
    name = lk.model_meta(mid)["name"]
    prices = price_rows(lk.ctx, lk, mid) if PRICE_CHART in charts and mid in charts[PRICE_CHART]["models_set"] else []
    disagreements = price_disagreement_rows(lk.ctx, lk, mid) if prices else []
    return {
        "v": model_view(mid, lk),
        "chart_kinds": kinds,
        "price_steps": prices,
        "price_disagreements": disagreements,
        "price_digits": decimals("USD", [r[k] for r in prices for k in ("input", "output")]),
        "contrib_links": contribute_links(
            lk.ctx,
            f"scores/models/{mid}.yaml",
            {"title": f"Wrong score: {name}", "model-id": mid, "page": _public(lk.ctx, lk.urls.model[mid])},
        ),
    }


def _without_rows(board: Mapping[str, Any]) -> dict:
    return {k: v for k, v in board.items() if k != "rows"}


class _Facts:
    """What the pages share of the site, each digested once per render (those asked before the workers fork, by
    the board files, once for all): a board's and a benchmark board's facts a model page shows beside its own row
    (_ModelData.inputs), the site-wide tables every model page reads (sources, benchmarks, component names, the
    repository's address, the model charts), and what each view of the other pages is built from (_Deferred)."""

    def __init__(self, lk: Lookups):
        self.lk = lk
        self._boards: dict[str, str | None] = {}
        self._benches: dict[str, str | None] = {}
        self._site: list[str | None] = []
        self._digests: dict[tuple, str | None] = {}

    def _once(self, name: tuple, make: Callable[[], tuple]) -> str | None:
        """reuse.key_of(*make()), once per `name` in this render."""
        if name not in self._digests:
            self._digests[name] = reuse.key_of(*make())
        return self._digests[name]

    def tables(self) -> str | None:
        """The site-wide tables the views of the pages other than the models' read: sources, benchmarks, index
        definitions (levels, coverage, components' names), the benchmark boards' names and units, the names the
        sources list unattributed, site.yaml's settings and the repository's address (contribute_links); the site's
        address, facts and every page's path are in every page's key (render_files' site_key)."""
        ctx, lk = self.lk.ctx, self.lk
        return self._once(
            ("tables",),
            lambda: (
                ctx.sources,
                ctx.benchmarks,
                ctx.index_defs,
                lk.component_names,
                {bid: (b.get("name"), b.get("unit")) for bid, b in sorted(ctx.benchmark_boards.items())},
                ctx.not_attributed,
                ctx.presentation,
                ctx.repo_url,
            ),
        )

    def model_file(self, mid: str) -> str | None:
        """Model `mid`'s file as the context holds it (results, prices, metadata and their provenance): once, though
        every configuration of its release reads it (siblings)."""
        return self._once(("model file", mid), lambda: (self.lk.models[mid],))

    def columns(self, mid: str) -> str | None:
        """What every table shows of model `mid` (views.Lookups.model_meta: its name, organisation, page, weights,
        reasoning, parameters, prices...): once, though every board and benchmark it is on shows it."""
        return self._once(("columns", mid), lambda: (self.lk.model_meta(mid),))

    def board_file(self, bid: str) -> str | None:
        """Index board `bid` as computed (its rows, definition, uncertainty, scope...)."""
        return self._once(("board file", bid), lambda: (self.lk.ctx.boards[bid],))

    def board_view(self, bid: str, per_release: bool) -> str | None:
        """What views.board_view(bid, per_release) is built from: the board, its title (which reads the others'
        names), its rows' models (the columns a table shows of each: model_meta, and its release, which picks a
        release's best row), its frontier over time, its coverage and the site-wide tables."""
        ctx, lk = self.lk.ctx, self.lk

        def inputs() -> tuple:
            mids = [r["model"] for r in ctx.boards[bid].get("rows", [])]
            return (
                "board view",
                bid,
                per_release,
                self.board_file(bid),
                lk.board_title(bid),
                [(mid, self.columns(mid), (lk.models.get(mid) or {}).get("release")) for mid in mids],
                (ctx.frontiers or {}).get(bid),
                board_coverage(ctx, bid),
                self.tables(),
            )

        return self._once(("board view", bid, per_release), inputs)

    def bench_view(self, bid: str) -> str | None:
        """What views.bench_board_view(bid) is built from: the benchmark board (with its other question sets and
        category tables), each of its models' table columns (model_meta) and runs under a harness (other_runs), the
        results a reviewed override excludes from it, and the site-wide tables."""
        ctx, lk = self.lk.ctx, self.lk

        def inputs() -> tuple:
            bb: Mapping[str, Any] = ctx.benchmark_boards.get(bid) or {}
            excluded = [e for e in ctx.excluded if e["benchmark"] == bid]
            mids = {r["model"] for r in bb.get("rows", [])}
            mids.update(r["model"] for qs in bb.get("other_question_sets", []) for r in qs["rows"])
            mids.update(r["model"] for t in bb.get("category_tables", []) for r in t["rows"])
            mids.update(e["model"] for e in excluded)
            return (
                "bench view",
                bid,
                bb,
                [(mid, self.columns(mid), lk.harness_runs(mid, bid)) for mid in sorted(mids)],
                excluded,
                self.tables(),
            )

        return self._once(("bench view", bid), inputs)

    def board(self, bid: str) -> str | None:
        """_breakdown_view's and _component_view's reads of index board `bid` besides the model's row: the board
        without its rows, its definition (levels), its format (all its rows' decimals), title and ranked count."""
        if bid not in self._boards:
            lk, board = self.lk, self.lk.ctx.boards[bid]
            definition = (lk.ctx.index_defs or {}).get(board.get("definition") or bid)
            self._boards[bid] = reuse.key_of(
                _without_rows(board), definition, lk.board_format(bid), lk.board_title(bid), lk.ranked_count[bid]
            )
        return self._boards[bid]

    def bench(self, bid: str) -> str | None:
        """_bench_rank_view's reads of benchmark board `bid` besides the model's row: the board without its rows
        (levels), its name, unit, decimals (all its rows') and how many rows it has."""
        if bid not in self._benches:
            lk, board = self.lk, self.lk.ctx.benchmark_boards[bid]
            self._benches[bid] = reuse.key_of(
                _without_rows(board),
                lk.bench_name(bid),
                lk.bench_unit(bid),
                lk.bench_digits(bid),
                len(board.get("rows", [])),
            )
        return self._benches[bid]

    def site(self) -> str | None:
        """The site-wide tables: source names and links, benchmarks (names, units of metrics), component names,
        the benchmark boards' names, the repository's address (contribute_links) and which charts model pages
        show; the site's address and every page's path are in every page's key (render_files' site_key)."""
        if not self._site:
            ctx, lk = self.lk.ctx, self.lk
            self._site.append(
                reuse.key_of(
                    ctx.sources,
                    ctx.benchmarks,
                    lk.component_names,
                    {bid: (b.get("name"), b.get("unit")) for bid, b in sorted(ctx.benchmark_boards.items())},
                    ctx.repo_url,
                    ctx.presentation.model_charts,
                )
            )
        return self._site[0]


@dataclasses.dataclass(frozen=True)
class _ModelData:
    """A model page's data (_model_page_data), built where the page is rendered and only when it is rendered: the
    page's key is made from `inputs()`, everything its data is built from (model_view, price_rows, the chart
    kinds, contribute_links), so a page whose inputs are unchanged is taken by key without its view being built."""

    mid: str
    lk: Lookups
    charts: dict
    facts: _Facts

    def __call__(self) -> dict:
        return _model_page_data(self.mid, self.lk, self.charts)

    def chart_fields(self) -> dict:
        return _model_chart_fields(self.mid, self.lk, self.charts)

    def inputs(self) -> tuple:
        """The model's own file (its results, prices, metadata and their provenance), the files of its release's
        other configurations (siblings), its rows on the index and benchmark boards with each board's facts, what
        its results read of their benchmarks, its price steps and disagreements (the as-of engine's), the charts
        it is on, and the site-wide facts (_Facts.site)."""
        lk, mid, facts = self.lk, self.mid, self.facts
        m = lk.models[mid]
        as_of = lk.ctx.as_of or {}
        results = []
        for r in m.get("results") or []:
            bid, metric = r["benchmark"], r.get("metric") or ""
            results.append((bid, metric, lk.bench_unit(bid, metric), "" if metric else lk.bench_digits(bid)))
        return (
            "model page inputs",
            mid,
            facts.model_file(mid),
            [facts.model_file(x) for x in lk.release_members.get(m.get("release") or "", [])],
            [(bid, row, facts.board(bid)) for bid, row in lk.board_rows.get(mid, [])],
            [(bid, row, facts.bench(bid)) for bid, row in lk.bench_rows.get(mid, [])],
            results,
            (as_of.get("price_steps") or {}).get(mid),
            (as_of.get("price_disagreements") or {}).get(mid),
            _model_chart_fields(mid, lk, self.charts),
            facts.site(),
        )


def _model_chart_fields(mid: str, lk: Lookups, charts: dict) -> dict:
    """What _page_charts reads of a model page's data (its subject, chart kinds and whether it has price
    steps), made without its view."""
    kinds = [k for k in lk.ctx.presentation.model_charts if k in charts and mid in charts[k]["models_set"]]
    priced = PRICE_CHART in charts and mid in charts[PRICE_CHART]["models_set"]
    steps = bool(((lk.ctx.as_of or {}).get("price_steps") or {}).get(mid)) if priced else False
    return {"v": {"meta": {"id": mid}}, "chart_kinds": kinds, "price_steps": steps}


@dataclasses.dataclass(frozen=True)
class _Deferred:
    """A page's data whose views are built where the page is rendered and only when it is rendered: `fields`, made
    in plan (cheap, and all the charts read: chart_fields), and `views()`, the rest; its key is made from `fields`
    and `view_inputs()`, a digest of everything `views()` reads (_Facts), so a page whose inputs are unchanged is
    taken by key without its views being built (as a model page, _ModelData)."""

    kind: str
    fields: dict
    views: Callable[[], dict]
    view_inputs: Callable[[], str | None]

    def __call__(self) -> dict:
        return {**self.views(), **self.fields}

    def chart_fields(self) -> dict:
        return self.fields

    def inputs(self) -> tuple | None:
        views = self.view_inputs()
        return None if views is None else (self.kind, self.fields, views)


@dataclasses.dataclass(frozen=True)
class _BoardData(_Deferred):
    """A board page's data (its view deferred), with the board and which of its two pages it is (_board_files)."""

    bid: str = ""
    per_release: bool = False


@dataclasses.dataclass(frozen=True)
class _HomeData(_Deferred):
    """The front page's data (its boards' views deferred), with the ids of its headline boards (_social_images)."""

    headline: tuple[str, ...] = ()


def _views(**made: Callable[[], Any]) -> dict:
    """Each named view made: what a _Deferred's `views` gives."""
    return {name: make() for name, make in made.items()}


def _public(ctx: SiteContext, path: str) -> str:
    """A page's public address when the site's URL is known, else its path from the site root."""
    return (ctx.site_url.rstrip("/") + "/" if ctx.site_url else "/") + href(path).removeprefix("./")


def _describe_board(ctx: SiteContext, view: dict) -> str:
    """The board's meta description: what it ranks, and who leads (`view`: views.board_summary's, or the view)."""
    top = [r for r in view["rows"] if r["rank"] == 1]
    lead = f" Leader: {top[0]['name']}." if top else ""
    return f"{view['title']}: {view['n_ranked']} ranked models, every value with its source and provenance.{lead}"


def _describe_model(ctx: SiteContext, mid: str, lk: Lookups) -> str:
    meta = lk.model_meta(mid)
    boards = [
        f"{lk.board_title(bid)} #{row['rank']}"
        for bid, row in lk.board_rows.get(mid, [])
        if row.get("rank") is not None
    ]
    org = f" by {meta['org']}" if meta["org"] else ""
    ranks = ("; ranked " + ", ".join(boards[:3])) if boards else ""
    return f"{meta['name']}{org}: benchmark scores and index breakdowns with sources{ranks}."


def plan(ctx: SiteContext, urls: Urls, lk: Lookups, charts: dict) -> list[Page]:
    """Every HTML page of the site with its data, in a stable order."""
    facts = _Facts(lk)
    pages: list[Page] = [_home_page(ctx, lk, charts, facts)]
    for bid in board_ids(ctx):
        pages += _board_pages(ctx, urls, lk, charts, bid, facts)
    pages += _benchmark_pages(ctx, urls, lk, charts, facts)
    pages += _model_pages(ctx, urls, lk, charts, facts)
    pages.append(Page("charts/index.html", "charts.html", "Charts", "charts", {"chart_kinds": _gallery(ctx, charts)}))
    compare = functools.partial(_compare_data, ctx, lk, urls)
    pages.append(
        Page(
            "compare/index.html",
            "compare.html",
            "Compare models",
            "compare",
            _Deferred(
                "compare", {}, functools.partial(_views, data=compare), functools.partial(_compare_inputs, facts)
            ),
        )
    )
    pages += _methodology_pages(ctx, urls, lk)
    pages += _reference_pages(ctx, urls, lk)
    return pages


def _home_page(ctx: SiteContext, lk: Lookups, charts: dict, facts: _Facts) -> Page:
    """The front page: the headline boards, the home charts and the site's counts."""
    # the families' current boards, as methodology/indices/*.yaml's front_page entries place them
    headline = headline_boards(ctx) or [
        {"id": b, "coverage": board_coverage(ctx, b), "others": []}
        for b in board_ids(ctx)[: ctx.presentation.headline_fallback]
    ]
    listed = [(b, board_title(ctx, b), board_coverage(ctx, b)) for b in board_ids(ctx)]
    fields = {
        "chart_kinds": [k for k in ctx.presentation.home_charts if k in charts],
        "n_ranked_models": len(
            {r["model"] for b in ctx.boards.values() for r in b.get("rows", []) if r.get("rank") is not None}
        ),
        "n_models": len(ctx.models),
        "n_benchmark_boards": len(ctx.benchmark_boards),
        "n_boards": len(ctx.boards),
        "n_charts": len(_gallery(ctx, charts)),  # as many as the charts page shows
    }

    def view_inputs() -> str | None:
        """The headline boards (with what each is shown with) and their views' inputs, and every board listed, as
        computed (home.html reads its file), with its title and coverage."""
        return reuse.key_of(
            headline,
            [facts.board_view(h["id"], False) for h in headline],
            listed,
            [facts.board_file(b) for b, _, _ in listed],
        )

    views = functools.partial(
        _views,
        boards=lambda: [dict(board_view(h["id"], lk), headline=h) for h in headline],
        all_boards=lambda: [(b, ctx.boards[b], title, cover) for b, title, cover in listed],
    )
    data = _HomeData("home", fields, views, view_inputs, tuple(h["id"] for h in headline))
    return Page("index.html", "home.html", ctx.site_name, "home", data, ctx.site_description)


def _board_data(bid: str, per_release: bool, lk: Lookups, facts: _Facts, fields: dict) -> _BoardData:
    """A board page's data: `fields` now, its view (board_view) where the page is rendered."""
    view = functools.partial(board_view, bid, lk, per_release)
    inputs = functools.partial(facts.board_view, bid, per_release)
    return _BoardData("board", fields, functools.partial(_views, view=view), inputs, bid, per_release)


def _board_pages(ctx: SiteContext, urls: Urls, lk: Lookups, charts: dict, bid: str, facts: _Facts) -> list[Page]:
    """A board's page and its one-row-per-release page (each described by its summary: its view is built where
    the page is rendered)."""
    definition = str(ctx.boards[bid].get("definition") or bid)
    page = Page(
        urls.board[bid],
        "board.html",
        board_title(ctx, bid),
        f"board:{bid}",
        _board_data(
            bid,
            False,
            lk,
            facts,
            {
                "og_image": ogimage.board_image(bid),
                "chart_kinds": [
                    k for k in (*ctx.presentation.board_charts.get(bid, ()), BEST_PREFIX + bid) if k in charts
                ],
                "methodology": _methodology_for(ctx, urls, bid),
                "asof": asof.control(ctx, bid, lk.board_format(bid)["digits"]),  # the view's digits
                "contrib_links": contribute_links(
                    ctx,
                    f"methodology/indices/{definition}.yaml",
                    {"title": f"Wrong score: {board_title(ctx, bid)}", "page": _public(ctx, urls.board[bid])},
                ),
            },
        ),
        _describe_board(ctx, board_summary(bid, lk)),
    )
    return [
        page,
        Page(
            release_path(urls.board[bid]),
            "board.html",
            board_title(ctx, bid) + " (one row per release)",
            f"board:{bid}",
            _board_data(
                bid,
                True,
                lk,
                facts,
                {
                    "og_image": ogimage.board_image(bid),
                    "chart_kinds": [],
                    "methodology": _methodology_for(ctx, urls, bid),
                    "contrib_links": contribute_links(
                        ctx,
                        f"methodology/indices/{definition}.yaml",
                        {
                            "title": f"Wrong score: {board_title(ctx, bid)}",
                            "page": _public(ctx, release_path(urls.board[bid])),
                        },
                    ),
                },
            ),
            _describe_board(ctx, board_summary(bid, lk, per_release=True)),
        ),
    ]


def _benchmark_pages(ctx: SiteContext, urls: Urls, lk: Lookups, charts: dict, facts: _Facts) -> list[Page]:
    """A page per benchmark (its view built where the page is rendered), then the benchmarks' index."""
    bench_meta = {b["id"]: b for b in ctx.benchmarks}
    anchors = iq_anchors(ctx, anchor_definition(ctx))
    curve = _curve_chart(ctx, charts, anchor_definition(ctx))
    pages = [
        Page(
            urls.benchmark[bid],
            "benchmark.html",
            lk.bench_name(bid),
            "benchmarks",
            _Deferred(
                "benchmark",
                {
                    "bench": bench_meta.get(bid) or {"id": bid},
                    "anchor": anchors.get(bid),
                    "has_curve": bid in anchors and bool(curve),
                    "curve": curve,
                    "anchor_digits": decimals(
                        lk.bench_unit(bid), [p[0] for p in (anchors.get(bid) or {}).get("points", [])]
                    ),
                },
                functools.partial(_views, view=functools.partial(bench_board_view, bid, lk)),
                functools.partial(facts.bench_view, bid),
            ),
        )
        for bid in sorted(urls.benchmark)
    ]
    pages.append(
        Page(
            "benchmarks/index.html",
            "benchmarks.html",
            "Benchmarks",
            "benchmarks",
            {
                "items": [
                    {
                        "b": bench_meta.get(bid) or {"id": bid, "name": lk.bench_name(bid)},
                        "href": href(urls.benchmark[bid]),
                        "n": len(rows_of(ctx.benchmark_boards, bid)),
                    }
                    for bid in sorted(urls.benchmark)
                ],
            },
        )
    )
    return pages


def _curve_chart(ctx: SiteContext, charts: dict, definition: str) -> str:
    """The name of the chart that draws `definition`'s anchor curves ("" when the site draws none)."""
    return next(
        (
            name
            for name, drawn in ctx.presentation.charts.items()
            if drawn["kind"] == "anchor-curves" and name in charts and definition_of(ctx, drawn["board"]) == definition
        ),
        "",
    )


def _model_pages(ctx: SiteContext, urls: Urls, lk: Lookups, charts: dict, facts: _Facts | None = None) -> list[Page]:
    """The models' index (with the value of site.yaml's models.board beside each model), then a page per model."""
    column = ctx.presentation.models_board if ctx.presentation.models_board in ctx.boards else ""
    iq = {r["model"]: r for r in rows_of(ctx.boards, column)}
    model_rows = [
        {**lk.model_meta(m["id"]), "iq": iq[m["id"]].get("value") if m["id"] in iq else None}
        for m in sorted(ctx.models, key=lambda m: (str(m.get("name") or m["id"]).lower(), m["id"]))
    ]
    pages = [
        Page(
            "models/index.html",
            "models.html",
            "Models",
            "models",
            {
                "rows": model_rows,
                "unknown": unknown_counts(model_rows),
                "column": board_title(ctx, column) if column else "",
            },
        )
    ]
    facts = facts or _Facts(lk)
    for m in sorted(ctx.models, key=lambda m: m["id"]):
        mid = m["id"]
        # Built where the page is rendered (a render worker), not here: most of a model page's cost is its view.
        pages.append(
            Page(
                urls.model[mid],
                "model.html",
                str(m.get("name") or mid),
                "models",
                _ModelData(mid, lk, charts, facts),
                _describe_model(ctx, mid, lk),
            )
        )
    return pages


def _methodology_pages(ctx: SiteContext, urls: Urls, lk: Lookups) -> list[Page]:
    """A page per methodology/*.md file, with the definitions it explains."""
    pages = []
    md_pages = {name: href(path).removeprefix("methodology/") for name, path in urls.methodology.items()}
    for name in sorted(ctx.methodology_pages):
        text = ctx.methodology_pages[name]
        stem = name.removesuffix(".md")
        path = urls.methodology[name]
        root, md_base = "../" * path.count("/"), "../" * (path.count("/") - 1)
        bench_href = lambda bid, root=root: root + href(urls.benchmark[bid]) if bid in urls.benchmark else None
        defs = [
            methodology.definition_view(d, ctx, lk, bench_href, md_base)
            for d in methodology.definitions_for(stem, ctx.index_defs or {}, ctx.presentation.methodology_pages)
        ]
        pages.append(
            Page(
                path,
                "methodology.html",
                methodology_title(name, text),
                f"methodology:{name}",
                {
                    "text": text,
                    "md_pages": md_pages,
                    "md_base": md_base,
                    "defs": defs,
                    "overview": methodology.overview(ctx, md_pages, md_base) if name == "index.md" else [],
                    "benchmarks": ctx.benchmarks if stem in ("benchmarks", "index") else [],
                    "figures": methodology.build_figures(ctx, lk) if name == "uncertainty.md" else [],
                },
            )
        )
    return pages


def _reference_pages(ctx: SiteContext, urls: Urls, lk: Lookups) -> list[Page]:
    """The pages after the methodology: not found, downloads, the data changelog, citation, the data format."""
    pages = []
    # GitHub Pages serves 404.html at the missing URL's own depth: its links start from the site's path
    pages.append(Page("404.html", "404.html", "Page not found", "home", {}, base=site_path(ctx.site_url)))
    pages.append(
        Page(
            "downloads/index.html",
            "downloads.html",
            "Downloads & API",
            "downloads",
            {
                "files": [{"path": p, "href": p, "bytes": _size(ctx.api_files, p)} for p in sorted(ctx.api_files)],
                "sources": ctx.sources,
                "frontier_names": methodology.frontier_names(ctx.index_defs or {}),
            },
        )
    )
    pages.append(
        Page(
            changes.CHANGELOG_PAGE,
            "changelog.html",
            "Data changelog",
            "changelog",
            changes.changelog_view(ctx, urls, lk),
            "What changed in the data, commit by commit, and the dated data releases.",
        )
    )
    pages.append(
        Page(
            "cite/index.html", "cite.html", "Cite", "cite", {"cite": changes.citation_view(ctx.citation, ctx.repo_url)}
        )
    )
    schema_doc = changes.data_format_view(ctx)
    pages.append(
        Page(
            "contributing/data-format/index.html",
            "data-format.html",
            schema_doc["title"],
            "data-format",
            schema_doc,
            "Every field of every data file, generated from the JSON Schemas.",
        )
    )
    return pages


def _utf8(texts: Mapping[str, str], path: str) -> bytes:
    """A text's UTF-8 bytes: export.Texts holds them (packed), a plain mapping holds the text."""
    data = getattr(texts, "data", None)
    return data(path) if callable(data) else texts[path].encode("utf-8")


def _size(texts: Mapping[str, str], path: str) -> int:
    """A text's size in UTF-8 bytes: export.Texts holds it (without unpacking the text), a plain mapping does not."""
    size = getattr(texts, "size", None)
    return size(path) if callable(size) else len(texts[path].encode("utf-8"))


def _gallery(ctx: SiteContext, charts: dict) -> list[str]:
    """The charts the charts page shows, in methodology/site.yaml's order (the others after, in their own): all
    but one model's prices and each board's best over time, which are shown on the pages they belong to."""
    order = ctx.presentation.gallery
    return sorted(
        (k for k in charts if k != PRICE_CHART and not k.startswith(BEST_PREFIX)),
        key=lambda kind: order.index(kind) if kind in order else len(order),
    )


def _methodology_for(ctx: SiteContext, urls: Urls, bid: str) -> str | None:
    """The methodology page that explains a board's definition; on a page that explains several (index versions,
    sub-indices), that definition's own section."""
    board = ctx.boards.get(bid)
    definition = str((board.get("definition") if board else None) or bid)
    defs = ctx.index_defs or {}
    pages = ctx.presentation.methodology_pages
    for stem in (methodology.page_stem(definition, pages), methodology.page_stem(bid, pages)):
        if f"{stem}.md" in urls.methodology:
            several = definition in defs and len(methodology.definitions_for(stem, defs, pages)) > 1
            anchor = f"#{definition}" if several else ""
            return href(urls.methodology[f"{stem}.md"]) + anchor
    return None


def _compare_data(ctx: SiteContext, lk: Lookups, urls: Urls) -> dict:
    """Compact columns for the compare page: models, boards and benchmarks as parallel arrays."""
    models = sorted(ctx.models, key=lambda m: m["id"])
    index = {m["id"]: i for i, m in enumerate(models)}
    benches, bench_rows = _compare_benches(ctx, index)
    # each benchmark value's source: [source number, retrieval date, link]; sources are numbered once
    source_ids = sorted({r.get("source") or "" for rows in bench_rows for r in rows.values()} - {""})
    source_no = {sid: i for i, sid in enumerate(source_ids)}
    links: dict[str | None, int] = {}  # each link once: most values link to their source's page

    def provenance(r: dict | None) -> list | None:
        if not r:
            return None
        url = lk.source_url(r.get("source"), r.get("url"))
        return [source_no.get(r.get("source") or ""), r.get("retrieved") or "", links.setdefault(url, len(links))]

    # Every number is a cell [number, text]: the text is what the page shows, written here by the site's one
    # formatter (numbers.number; prices as a model page writes them); compare.js only places it, and uses the
    # number to mark the best value
    return {
        "models": _compare_models(ctx, lk, models),
        "boards": _compare_boards(ctx, lk, urls, models, index),
        "benchmarks": _compare_benchmarks(ctx, lk, index, benches, bench_rows, provenance),
        "sources": [lk.source_name(sid) for sid in source_ids],
        "links": list(links),
    }


def _compare_inputs(facts: _Facts) -> str | None:
    """What _compare_data reads: every model file, index board (as computed) and benchmark board, which models the
    boards' simulations rank and how many simulations each has (site/ahead.py), and the site-wide tables."""
    ctx = facts.lk.ctx
    return reuse.key_of(
        "compare",
        [facts.model_file(m["id"]) for m in ctx.models],
        {bid: facts.board_file(bid) for bid in sorted(ctx.boards)},
        ctx.benchmark_boards,
        [(bid, list(block["models"]), block["simulations"]) for bid, block in sorted(ctx.ahead.items())],
        facts.tables(),
    )


def _sparse(values: list) -> dict:
    """A column by model number, without its empty entries (most models have no value on most boards and
    benchmarks): what keeps the page small; compare.js fills the gaps back in."""
    return {i: v for i, v in enumerate(values) if v is not None and v != ""}


def _cells(values: list, show: Callable[[Any], str]) -> list:
    """Each value as [number, its text] (the text by numbers.number, via `show`), None where unknown."""
    return [None if v is None else [v, show(v)] for v in values]


def _compare_benches(ctx: SiteContext, index: dict[str, int]) -> tuple[list[tuple], list[dict[str, dict]]]:
    """The compare page's benchmark rows: (benchmark, subset, rows, label) and each one's rows by model."""
    # one row per benchmark and question set: a benchmark run on several sets (HLE: the paper's, Artificial
    # Analysis') has a row for each, labelled, since an index may be fed by any of them
    benches: list[tuple] = []
    for b in sorted(ctx.benchmark_boards):
        bb = ctx.benchmark_boards[b]
        others = bb.get("other_question_sets") or []
        benches.append((b, "", bb.get("rows", []), bb.get("question_set") if others else None))
        benches += [(b, qs["subset"], qs["rows"], qs["label"]) for qs in others]
    bench_rows = [{r["model"]: r for r in rows if r["model"] in index} for _, _, rows, _ in benches]
    return benches, bench_rows


def _compare_models(ctx: SiteContext, lk: Lookups, models: list) -> list:
    """[id, name, organisation, page, input price, output price, weights, total parameters (B), 1 when
    compare/ahead/<number>.json holds its simulation counts (site/ahead.py)] per model."""
    simulated = {mid for block in ctx.ahead.values() for mid in block["models"]}  # those ahead_files writes
    meta = [lk.model_meta(m["id"]) for m in models]
    params = decimals("billions", [x["total_b"] for x in meta])
    return [
        [
            m["id"],
            x["name"],
            x["org"],
            x["href"],
            *_cells([x["input_price"], x["output_price"]], fmt_price),
            x["weights"],
            *_cells([x["total_b"]], lambda v: number(v, params)),
            1 if m["id"] in simulated else 0,
        ]
        for m, x in zip(models, meta)
    ]


def _bench_text(lk: Lookups, b: str, v: Any) -> str:
    """A benchmark's value as its pages write it."""
    return with_unit(v, lk.bench_unit(b), lk.bench_digits(b))


def _compare_intervals(ctx: SiteContext, lk: Lookups, b: str, index: dict[str, int]) -> dict:
    """A board's value intervals, for the compare chart: by model number, [low, high, its text by the one
    formatter]."""
    digits = lk.board_format(b)["digits"]
    ivs = {
        r["model"]: [lo, hi, f"{number(lo, digits)}–{number(hi, digits)}"]
        for r in ctx.boards[b].get("rows", [])
        if r["model"] in index and r.get("value") is not None
        for lo, hi in [r.get("interval") or (None, None)]
        if lo is not None and hi is not None
    }
    return dict(sorted((index[mid], iv) for mid, iv in ivs.items()))


def _compare_board(ctx: SiteContext, lk: Lookups, urls: Urls, models: list, index: dict[str, int], b: str) -> list:
    """One board's column of the compare page (see _compare_boards)."""
    board = ctx.boards[b]
    rows = [r for r in board.get("rows", []) if r["model"] in index]
    vals = {r["model"]: r.get("value") for r in rows}
    status = {r["model"]: r.get("status") or "" for r in rows}
    f = lk.board_format(b)
    version = f"v{board.get('version')}" if board.get("version") else ""
    return [
        b,
        board_title(ctx, b),
        _sparse(_cells([vals.get(m["id"]) for m in models], lambda v: with_unit(v, f["unit"], f["digits"]))),
        None,
        higher_is_better(ctx, b),
        _sparse([status.get(m["id"], "") for m in models]),
        " · ".join(x for x in (version, str(board.get("source_snapshot") or "")) if x),
        href(urls.board[b]),
        simulations(ctx.ahead, b),
        levels(board, (ctx.index_defs or {}).get(board.get("definition") or b))["level"],
        _compare_intervals(ctx, lk, b, index),
    ]


def _compare_boards(ctx: SiteContext, lk: Lookups, urls: Urls, models: list, index: dict[str, int]) -> list:
    """[id, title, cells, null, higher is better, statuses, "version · snapshot", page, simulations or null, the
    level of the values' intervals ("95%", views.levels), the intervals (sparse, _compare_intervals)] per board."""
    return [_compare_board(ctx, lk, urls, models, index, b) for b in board_ids(ctx)]


def _compare_benchmarks(
    ctx: SiteContext,
    lk: Lookups,
    index: dict[str, int],
    benches: list[tuple],
    bench_rows: list[dict[str, dict]],
    provenance: Callable[[dict | None], list | None],
) -> list:
    """[id, name, cells, question set (its label, or null for a benchmark run on one set), higher is better,
    provenance per model (see provenance(): its link a number in "links")] per benchmark and question set; cells,
    statuses and provenance are sparse (see _sparse())."""
    bench_higher = {b["id"]: b.get("higher_is_better", True) is not False for b in ctx.benchmarks}
    return [
        [
            b + (f"/{subset}" if subset else ""),
            lk.bench_name(b),
            {i: [v, _bench_text(lk, b, v)] for i, v in ((i, r.get("value")) for i, r in placed) if v is not None},
            label,
            bench_higher.get(b, True),
            # in the models' order, as the links are numbered by their first use
            {i: provenance(r) for i, r in placed if r},
        ]
        for (b, subset, _, label), rows in zip(benches, bench_rows)
        # the models with a row, by model number: what _sparse keeps of a column over every model, in its order
        for placed in [sorted(((index[mid], r) for mid, r in rows.items()), key=lambda x: x[0])]
    ]


_Share = Callable[[list[Any]], dict[str, Any]]
#: Fewer items than this are rendered in this process: forking costs more than it saves
_FEW = 200
#: How many shares per process: each process takes the next share when done with its last, so one costly page
#: (the compare page, a board) does not leave the other process idle after its own share
_SHARES = 8
#: (function, items, the next share's number, how many shares) handed to forked workers; set only while
#: _in_parallel runs
_JOB: tuple[_Share, list[Any], Any, int] | None = None


def _run_shares(worker: int) -> dict[str, Any]:
    """fn over share `worker` (each process has one to start with), then over each share not yet taken."""
    assert _JOB is not None, "a share is run only while _in_parallel has set the job"
    fn, items, following, shares = _JOB
    out = fn(items[worker::shares])
    while True:
        with following.get_lock():
            share = following.value
            following.value += 1
        if share >= shares:
            return out
        out.update(fn(items[share::shares]))


def _in_parallel(fn: _Share, items: list[Any]) -> dict[str, Any]:
    """fn over interleaved shares of items, in forked processes when the machine has cores to spare: each process
    starts with a share of its own and then takes the next share left (a counter in shared memory) until none is.

    Every page is rendered independently of the others, so the output does not depend on how the work is
    split. SITEGEN_JOBS=1 (or a platform without fork) renders in this process.
    """
    global _JOB
    workers = int(os.environ.get("SITEGEN_JOBS") or min(os.cpu_count() or 1, 4))
    if workers <= 1 or len(items) < _FEW or "fork" not in multiprocessing.get_all_start_methods():
        return fn(items)
    context = multiprocessing.get_context("fork")
    _JOB = (fn, items, context.Value("i", workers), workers * _SHARES)
    try:
        with context.Pool(workers - 1) as pool:
            pending = [pool.apply_async(_run_shares, (w,)) for w in range(1, workers)]
            out = _run_shares(0)
            for job in pending:
                out.update(job.get())
        return out
    finally:
        _JOB = None


#: What a page's template is given of the site as a whole (as `ctx`): only these, so that a page's key can name
#: everything it is rendered from (render_files). A template that reads more fails the build (StrictUndefined).
SITE_FACTS = ("site_name", "site_description", "site_url", "data_date")


def _chart_slice(c: dict, highlight: str = "", title_only: bool = False) -> dict:
    """What the chart macro (partials/macros.html) reads of a chart on one page: with the page's own point
    (`highlight`), the labels and that point; otherwise the pre-rendered summary table. A page's key covers only
    this, so a model page does not change when another model moves on the same chart."""
    out = {"title": c["title"], "description": c["description"], "alt": c.get("alt") or c["title"]}
    if title_only:
        return out
    own = c["by_model"].get(highlight) if highlight else None
    if own:
        return {
            **out,
            "labels": c["labels"],
            "by_model": {highlight: own},
            "fallback": {k: c["fallback"][k] for k in ("fields", "digits", "total")},
        }
    return {**out, "fallback_html": c["fallback_html"], "by_model": {}}


def _page_charts(page: Page, fields: dict, charts: dict) -> dict:
    """The charts a page shows, as each of its templates uses them (the highlighted point is the page's subject)."""
    highlight = ""
    if page.template == "model.html":
        highlight = fields["v"]["meta"]["id"]  # model.html: {% set m = v.meta %} ... chart(kind, charts, root, m.id)
    kinds = list(fields.get("chart_kinds") or [])
    out = {}
    if page.template == "benchmark.html" and fields.get("has_curve"):
        out[fields["curve"]] = _chart_slice(charts[fields["curve"]], str(fields["bench"]["id"]))
    for kind in kinds:
        out[kind] = _chart_slice(charts[kind], highlight)
    if page.template == "model.html" and fields.get("price_steps") and PRICE_CHART in charts:
        out.setdefault(PRICE_CHART, _chart_slice(charts[PRICE_CHART], title_only=True))
    return out


def cached_charts(ctx: SiteContext, lk: Lookups, cache: tuple | None = None) -> dict:
    """charts.build_charts, or with `cache` ((store, key, specs): build/simcache.FileStores and the digest of
    everything the charts are built from: the data, the code without its templates, the build's settings) the charts
    kept under that key: a rebuild whose data did not change (a template edit) builds no chart and imports no altair.
    Otherwise the charts are built with each chart's spec kept in `specs` by how it is drawn (charts.kept_specs), so
    only the charts whose drawing an edit changed are built with altair. Built or loaded, the charts come from the
    same pickle, so the pages' keys (reuse.key_of) agree either way."""
    import pickle

    store, key, specs = cache if cache is not None else (None, "", None)
    if store is not None:
        kept = kept_dict(store.get(key))
        if kept is not None:
            return kept
    with kept_specs(specs):
        charts = build_charts(ctx, lk)
    if store is None:
        return charts
    data = pickle.dumps(charts, protocol=5)
    store.put(key, data)
    return pickle.loads(data)


def render_files(
    ctx: SiteContext,
    output: reuse.Output | None = None,
    charts_cache: tuple | None = None,
    links: dict[str, tuple[str, ...]] | None = None,
) -> dict[str, bytes]:
    """Every output file of the site as {relative path: bytes}; pure and deterministic.

    With `output`, pages are placed by the workers that render them (or taken unchanged from the previous site,
    by key) and left out of the map; their record entries are in output.entries. `charts_cache`: see
    cached_charts. With `output` and `links` (the link store's entries, build/links.py), each page a worker renders
    whose bytes' entry is not there is scanned there, from the bytes it wrote: `links` gets its write.link_key ->
    write.link_targets."""
    urls = Urls(ctx)
    lk = Lookups(ctx, urls)
    charts = cached_charts(ctx, lk, charts_cache)
    _index_charts(charts)
    env = environment()
    nav = nav_items(ctx, urls)
    files: dict[str, bytes] = dict(_static_files())
    files.update(_chart_files(charts))
    fallback_tpl = env.get_template("partials/fallback.html")
    for c in charts.values():
        c["fallback_html"] = Markup(fallback_tpl.render(chart=c))
    nav_tpl = env.get_template("partials/nav.html")
    top_paths = {item["path"] for item in nav if item["path"]}
    nav_cache: dict[tuple[str, str, str], Markup] = {}
    facts = SimpleNamespace(**{name: getattr(ctx, name) for name in SITE_FACTS})

    def nav_html(root: str, section: str, path: str) -> Markup:
        """The sidebar for a page; the same for all pages at one depth in one section, so rendered once each."""
        key = (root, section, path if path in top_paths else "")
        if key not in nav_cache:
            page = SimpleNamespace(section=section, path=key[2])
            nav_cache[key] = Markup(nav_tpl.render(root=root, page=page, nav=nav, href=href, ctx=facts))
        return nav_cache[key]

    common = {"ctx": facts, "csp": CSP, "href": href, "urls": urls, "nav_html": nav_html}
    # Everything a page receives besides its own data, charts and templates (the code: code_digest; the sidebar)
    site_key = (
        reuse.key_of(reuse.code_digest(), env.template_digest("partials/nav.html"), vars(facts), CSP, vars(urls), nav)
        if output is not None
        else None
    )
    pages = list(plan(ctx, urls, lk, charts))
    digests: dict[str, str] = {}

    def template_digest(name: str) -> str:
        """env.template_digest, once per template in this render (a few templates, ~900 pages)."""
        if name not in digests:
            digests[name] = env.template_digest(name)
        return digests[name]

    base = site_path(ctx.site_url)

    def render_pages(chunk: list[Page]) -> dict[str, bytes | tuple]:
        """Render a share of the pages; with output, placed by this worker (its record entry in the map, with the
        page's link store entry when it rendered the page and `links` asks for them: _placed)."""
        out: dict[str, bytes | tuple] = {}
        for page in chunk:
            shown = dataclasses.replace(page, data={})  # the template sees the page's fields only as variables
            fields: dict[str, Any] | None
            inputs = None  # a deferred page's inputs, when it is keyed (with output)
            if output is not None and site_key is not None and isinstance(page.data, (_ModelData, _Deferred)):
                inputs = page.data.inputs()
            if inputs is None:
                fields = page.data() if callable(page.data) else page.data
                page_charts = _page_charts(page, fields, charts)
                key = (
                    reuse.key_of(site_key, template_digest(page.template), shown, fields, page_charts)
                    if site_key is not None
                    else None
                )
            else:  # keyed by what its data is made from: built only when the page is rendered
                assert isinstance(page.data, (_ModelData, _Deferred))
                fields = None
                page_charts = _page_charts(page, page.data.chart_fields(), charts)
                key = reuse.key_of(site_key, template_digest(page.template), shown, inputs, page_charts)

            def render(
                page: Page = page,
                shown: Page = shown,
                fields: dict[str, Any] | None = fields,
                page_charts: dict = page_charts,
            ) -> bytes:
                data = fields if fields is not None else page.data() if callable(page.data) else page.data
                return (
                    env.get_template(page.template)
                    .render(page=shown, root=page.root, charts=page_charts, **common, **data)
                    .encode("utf-8")
                )

            if output is None:
                out[page.path] = render()
            else:
                out[page.path] = _placed(output, page.path, key, render, base if links is not None else None, links)
        return out

    for path, (key, make) in {**_board_files(ctx, urls, lk, pages), **_social_images(ctx, lk, pages)}.items():
        if output is None:
            files[path] = make()
        elif key is None:
            output.entries[path] = output.put_bytes(path, make())
        else:  # taken by key from the previous site when what it is made from is unchanged
            output.entries[path] = output.put(path, "file:" + key, make)
    rendered = _in_parallel(render_pages, pages)
    if output is None:
        files.update(rendered)  # bytes: without output, render_pages gives the pages
    else:
        for path, (entry, scan) in rendered.items():  # with output: _placed's pairs
            output.entries[path] = entry
            if scan is not None and links is not None:
                links[scan[0]] = scan[1]
    files.update({path: text.encode("utf-8") for path, text in search_files(ctx, urls).items()})
    files.update(_ahead_files(ctx))
    for path in sorted(ctx.api_files):
        if output is None:
            files[path] = _utf8(ctx.api_files, path)
        else:  # written now, one at a time: the API's texts are never all held a second time, as bytes
            output.entries[path] = output.put_bytes(path, _utf8(ctx.api_files, path))
    files[changes.FEED] = changes.atom(ctx)
    files[".nojekyll"] = b""
    files["sitemap.xml"] = sitemap(
        ctx, [p for p in set(files) | set(rendered) if p.endswith(".html") and p != "404.html"]
    )
    files.update(redirects(ctx, urls, set(files) | set(rendered)))  # not in the sitemap: they only forward
    return files


def _placed(
    output: reuse.Output,
    rel: str,
    key: str | None,
    render: Callable[[], bytes],
    base: str | None,
    links: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[list, tuple[str, tuple[str, ...]] | None]:
    """output.put of one page, with, when `base` is given and the page is rendered here (not taken from the
    previous site or the page store), its link store entry (write.link_key, write.link_targets) scanned from the
    bytes written, so the link store never reads the page again (build/links.py); none when `links` (the entries
    known) has it."""
    made: list[bytes] = []

    def make() -> bytes:
        made.append(render())
        return made[0]

    entry = output.put(rel, key, make if base is not None else render)
    if not made or base is None:
        return entry, None
    page_dir = posixpath.dirname(rel)
    link_key = write.link_key(entry[1], page_dir, base)
    if links is not None and link_key in links:
        return entry, None  # bytes the link store has seen: their entry is there
    return entry, (link_key, write.link_targets(write.page_text(made[0]), page_dir, base))


def _index_charts(charts: dict) -> None:
    """Each chart's lookups the pages use: its models as a set, its text alternative's labels, its points by
    model."""
    for c in charts.values():
        c["models_set"] = frozenset(c["models"])
        # a model's own point, for the one-line text alternative on its page
        c["labels"] = dict(zip(c["fallback"]["fields"], c["fallback"]["columns"]))
        c["by_model"] = {
            r["model"]: r for r in c["spec"]["datasets"].get("points", []) if isinstance(r, dict) and "model" in r
        }


def _chart_files(charts: dict) -> dict[str, bytes]:
    """Each chart's spec as assets/charts/<kind>.json."""
    files: dict[str, bytes] = {}
    for kind, c in sorted(charts.items()):
        # <, >, & escaped even in the separate file: harmless for JSON, inert if ever pasted into HTML
        files[f"{ASSET_PREFIX}charts/{kind}.json"] = (str(script_json(c["spec"])) + "\n").encode("utf-8")
    return files


#: A board file: its key (reuse.key_of of everything it is made from; None: keyed by its bytes) and how it is made
BoardFile = tuple[str | None, Callable[[], bytes]]


def _json_bytes(data: Any) -> bytes:
    return (str(script_json(data)) + "\n").encode("utf-8")


def _cells_file(bid: str, per_release: bool, lk: Lookups) -> bytes:
    return _json_bytes(board_data(board_view(bid, lk, per_release), lk))


def _month_file(views: Mapping[str, Any], digits: int) -> bytes:
    return _json_bytes(asof.month_text(views, digits))


def _board_files(ctx: SiteContext, urls: Urls, lk: Lookups, pages: list[Page]) -> dict[str, BoardFile]:
    """The files each board page fetches next to itself: its cells' provenance and its as-of months' texts, each
    with a key of what it is made from, so that a rebuild makes only those whose inputs changed (the others are
    taken by key from the previous site, reuse.Output.put): the cells by what the board's view is built from
    (_Facts.board_view: it covers the raw values' formats and the sources' names board_data reads besides the
    view, and the view is built only when the file is made); a month's texts by that month's boards and the decimals
    (asof.month_text). The as-of names are made every time (they read every month and the models' names)."""
    files: dict[str, BoardFile] = {}
    code = reuse.code_digest()
    for page in pages:
        if not isinstance(page.data, _BoardData):
            continue
        fields, bid = page.data.fields, page.data.bid
        folder = page.path.removesuffix("index.html")
        if any(r.get("components") for r in ctx.boards[bid].get("rows", [])):  # the view's has_components
            # the provenance of every cell, once per board (board_data); the page fetches it next to itself
            inputs = page.data.view_inputs()
            key = None if inputs is None else reuse.key_of("cells", code, inputs)
            files[folder + "cells.json"] = (key, functools.partial(_cells_file, bid, page.data.per_release, lk))
        if fields.get("asof"):
            # the names and pages of the models on the board's as-of months, fetched when a reader picks a month
            names = asof.names(ctx, urls, fields["asof"]["id"])
            files[folder + asof.NAMES_FILE] = (None, functools.partial(_json_bytes, names))
            digits = fields["asof"]["digits"]
            for month, views in asof.months(ctx, fields["asof"]["id"]):
                files[f"{folder}{asof.TEXTS_FOLDER}{month}.json"] = (
                    reuse.key_of("asof-month", code, digits, views),
                    functools.partial(_month_file, views, digits),
                )
    return files


def _social_images(ctx: SiteContext, lk: Lookups, pages: list[Page]) -> dict[str, BoardFile]:
    """The social preview images: the site's and one per board (its full view's summary, views.board_summary: not
    the one-row-per-release one), each keyed by what ogimage.images draws it from (with Pillow's version: it draws
    them), so a rebuild draws only those whose words changed."""
    boards = [p.data.bid for p in pages if isinstance(p.data, _BoardData) and not p.data.per_release]
    home = next((p.data.headline for p in pages if p.path == "index.html" and isinstance(p.data, _HomeData)), ())
    summaries = {bid: board_summary(bid, lk) for bid in boards}
    drawn = (reuse.code_digest(), reuse.library_version("pillow"), ctx.site_name, ctx.data_date)
    site = [(summaries[b]["title"], summaries[b]["n_ranked"]) for b in home if b in summaries]
    files: dict[str, BoardFile] = {
        ogimage.SITE_IMAGE: (
            reuse.key_of("og site", drawn, ctx.site_description, site, len(ctx.models), len(ctx.boards)),
            functools.partial(_drawn, ctx, {b: summaries[b] for b in home if b in summaries}, list(home), ""),
        )
    }
    for bid, summary in summaries.items():
        files[ogimage.board_image(bid)] = (
            reuse.key_of("og board", drawn, summary),
            functools.partial(_drawn, ctx, {bid: summary}, [], bid),
        )
    return files


def _drawn(ctx: SiteContext, summaries: dict[str, dict], headline: list[str], bid: str) -> bytes:
    """One image of ogimage.images: board `bid`'s ("": the site's), drawn from those summaries alone."""
    return ogimage.images(ctx, summaries, headline)[ogimage.board_image(bid) if bid else ogimage.SITE_IMAGE]


def _ahead_files(ctx: SiteContext) -> dict[str, bytes]:
    """The compare page's simulation counts (site/ahead.py), by model number."""
    files: dict[str, bytes] = {}
    number = {m["id"]: i for i, m in enumerate(sorted(ctx.models, key=lambda m: m["id"]))}  # as _compare_data's
    for path, data in ahead_files(ctx.ahead, number).items():
        files[path] = (str(script_json(data)) + "\n").encode("utf-8")
    return files


def redirects(ctx: SiteContext, urls: Urls, taken: set[str]) -> dict[str, bytes]:
    """A page at each former id's old URL that forwards to the model's page (ids stay stable once published)."""
    from markupsafe import escape

    out: dict[str, bytes] = {}
    for m in sorted(ctx.models, key=lambda m: m["id"]):
        for former in m.get("former_ids") or []:
            path = "models/" + "/".join(slug(p) for p in str(former).split("/") if p) + "/index.html"
            if path in taken or path in out:
                continue  # a page of a live model wins; validation keeps former ids from being reused
            root = "../" * path.count("/")
            target = escape(root + href(urls.model[m["id"]]))
            name = escape(m.get("name") or m["id"])
            out[path] = (
                '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">'  # as on every page
                f"<title>{escape(former)} is now {name}</title>"
                f'<meta http-equiv="refresh" content="0; url={target}"><link rel="canonical" href="{target}">'
                '<meta name="robots" content="noindex"></head>\n'
                f'<body><p><code>{escape(former)}</code> was merged or renamed: it is now <a href="{target}">{name}</a>.'
                "</p></body></html>\n"
            ).encode()
    return out


def sitemap(ctx: SiteContext, paths: list[str]) -> bytes:
    """sitemap.xml of every page, with absolute URLs when the site's URL is known (else root-relative paths)."""
    from xml.sax.saxutils import escape as xml_escape

    base = ctx.site_url.rstrip("/") + "/" if ctx.site_url else ""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for path in sorted(paths):
        loc = href(path)
        lines.append(
            f"<url><loc>{xml_escape(base + ('' if loc == './' else loc))}</loc><lastmod>{xml_escape(ctx.data_date)}</lastmod></url>"
        )
    lines.append("</urlset>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def render_site(
    ctx: SiteContext,
    out_dir: Path | str,
    previous: Path | str | None = None,
    charts_cache: tuple | None = None,
    pages: reuse.PageStore | None = None,
    links: dict[str, tuple[str, ...]] | None = None,
    check: bool = False,
) -> list[Path]:
    """Render the site into out_dir (created if needed); returns the written paths in sorted order.

    With `previous` (the last build's site, with its reuse.RECORD), every file whose key is unchanged is
    hard-linked from there instead of rendered and written again; the result is byte for byte the same. With
    `pages` (reuse.PageStore, in the compute cache), a page the previous site does not give is taken from there
    by its key, and the store is left holding this build's pages. Pages are placed by the workers that render them;
    everything else here. The record is written last. `charts_cache`, `links`: see cached_charts, render_files.
    `check` (build --check): only the pages rendered are written, every other file is named in the record
    (reuse.Output).
    """
    output = reuse.Output(Path(out_dir), Path(previous) if previous is not None else None, pages, check)
    output.folder.mkdir(parents=True, exist_ok=True)
    files = render_files(ctx, output, charts_cache, links)
    if pages is not None:
        pages.finish(output.entries)  # every page is placed by now (the workers' entries are in output.entries)
    for rel, data in sorted(files.items()):
        output.entries[rel] = output.put_bytes(rel, data)
    output.write_record()
    return sorted(output.folder / rel for rel in output.entries)
