"""methodology/site.yaml: the site's title, board order, front-page fallback and chart wiring come from the file
(schemas/site.schema.json), not from Python."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.site.context import Presentation, SiteContext
from sitegen.site.pages import board_ids

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardening"))
from hardkit import make_tree  # noqa: E402

ENV = {"GITHUB_ACTIONS": "false", "SOURCE_DATE_EPOCH": "1751328000"}


def _ctx(bids, presentation=Presentation()):
    return SiteContext(boards={b: {"rows": []} for b in bids}, benchmark_boards={}, models=[], benchmarks=[],
                       sources=[], index_defs={}, methodology_pages={}, frontiers={}, data_date="2026-01-01",
                       presentation=presentation)


def test_without_a_file_boards_follow_in_id_order_and_no_chart_is_wired():
    assert Presentation.from_data(None) == Presentation()
    assert Presentation() == Presentation((), 3, (), (), (), {})
    assert board_ids(_ctx(["zeta", "alpha", "mid"])) == ["alpha", "mid", "zeta"]


def test_the_file_orders_the_boards_it_names_and_the_rest_follow_in_id_order():
    p = Presentation.from_data({"boards": ["zeta", "gone", "mid"], "headline": {"fallback": 2},
                                "charts": {"home": ["a-chart"], "model": ["b", "a"], "gallery": ["c"],
                                           "boards": {"zeta": ["a-chart"], "mid": []}}})
    assert p == Presentation(("zeta", "gone", "mid"), 2, ("a-chart",), ("b", "a"), ("c",),
                             {"zeta": ("a-chart",), "mid": ()})
    assert board_ids(_ctx(["alpha", "mid", "zeta", "beta"], p)) == ["zeta", "mid", "alpha", "beta"]


def test_this_repositorys_file_places_its_boards():
    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((root / "methodology" / "site.yaml").read_text(encoding="utf-8"))
    p = Presentation.from_data(data)
    assert p.boards[:2] == ("ai-iq", "ai-eq") and p.headline_fallback == 3
    assert p.home_charts == ("iq-vs-cost", "aa-vs-price", "pedagogy-frontier")
    assert set(p.board_charts) <= set(p.boards)


def test_a_build_takes_the_title_and_description_from_the_file(tmp_path):
    root = make_tree(tmp_path / "repo")
    (root / "methodology" / "site.yaml").write_text(
        "title: Quiz boards\ndescription: Boards of a quiz.\nboards: [hle, ai-iq]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--root", str(root), "--out", str(tmp_path / "site"), "--quiet"],
                                env=ENV)
    assert result.exit_code == 0, result.output
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "<title>Quiz boards" in home and "Boards of a quiz." in home
    assert "Leaderboards" not in home.split("</head>")[0]


# charts.draw, models.board and methodology_pages: the ids the site's code used to name, now the file's

def _site(n=12, **presentation):
    """The site fixture (tests/site/fixtures.py: real board ids, hostile names) with its own Presentation."""
    import dataclasses

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fixtures import make_context

    from sitegen.site.pages import Urls
    from sitegen.site.views import Lookups

    ctx = dataclasses.replace(make_context(n), presentation=Presentation(**presentation))
    return ctx, Lookups(ctx, Urls(ctx))


def _drawn(out):
    from sitegen.site.charts import BEST_PREFIX, PRICE_CHART

    return {k for k in out if k != PRICE_CHART and not k.startswith(BEST_PREFIX)}


def test_the_charts_drawn_are_the_files_each_plotting_the_boards_it_names_and_one_of_a_missing_board_is_left_out():
    from sitegen.site.charts import build_charts

    ctx, lk = _site(charts={
        "spread": {"kind": "distribution", "board": "ai-iq"},
        "send-vs-cdpk": {"kind": "board-vs-board", "x": "pedagogy-send", "y": "pedagogy-cdpk"},
        "gone": {"kind": "distribution", "board": "no-such-board"},
        "curves": {"kind": "anchor-curves", "board": "ai-iq"},
    })
    out = build_charts(ctx, lk)
    assert _drawn(out) == {"spread", "send-vs-cdpk", "curves"}
    assert out["spread"]["spec"]["usermeta"] == {"kind": "spread"}
    assert out["curves"]["spec"]["usermeta"] == {"kind": "curves"}  # by its name, never a benchmark's
    anchored = {b["benchmark"] for dim in ctx.index_defs["ai-iq"]["dimensions"] for b in dim["benchmarks"]}
    assert {p["benchmark"] for p in out["curves"]["spec"]["datasets"]["points"]} == anchored
    iq = {r["model"]: r["value"] for r in ctx.boards["ai-iq"]["rows"] if r["value"] is not None}
    assert {p["model"]: p["iq"] for p in out["spread"]["spec"]["datasets"]["points"]} == iq
    # x is the first board named, y the second: the points carry each board's own value
    x = {r["model"]: r["value"] for r in ctx.boards["pedagogy-send"]["rows"] if r["value"] is not None}
    y = {r["model"]: r["value"] for r in ctx.boards["pedagogy-cdpk"]["rows"] if r["value"] is not None}
    points = out["send-vs-cdpk"]["spec"]["datasets"]["points"]
    assert {p["model"]: (p["cdpk"], p["send"]) for p in points} == {m: (x[m], y[m]) for m in sorted(x) if m in y}


def test_without_charts_draw_the_site_draws_only_each_models_prices_and_each_boards_best_over_time():
    from sitegen.site.charts import build_charts

    ctx, lk = _site()
    assert _drawn(build_charts(ctx, lk)) == set()


def test_the_models_list_shows_the_board_the_file_names_and_no_such_column_without_one():
    from sitegen.site import assembly
    from sitegen.site.pages import Urls

    ctx, lk = _site(models_board="ai-iq")
    page = assembly._model_pages(ctx, Urls(ctx), lk, {})[0]
    iq = {r["model"]: r["value"] for r in ctx.boards["ai-iq"]["rows"]}
    assert page.data["column"] == "AI IQ"
    assert {r["id"]: r["iq"] for r in page.data["rows"]} == {m["id"]: iq.get(m["id"]) for m in ctx.models}
    for presentation in ({}, {"models_board": "no-such-board"}):
        ctx, lk = _site(**presentation)
        page = assembly._model_pages(ctx, Urls(ctx), lk, {})[0]
        assert page.data["column"] == "" and {r["iq"] for r in page.data["rows"]} == {None}


def test_a_definition_is_explained_on_the_page_the_file_names_for_its_id_then_its_family_else_its_familys_own():
    from sitegen.site import methodology

    pages = {"quiz-sub": "quiz", "quiz-sub-v2": "special"}
    assert methodology.page_stem("quiz-sub-v1", pages) == "quiz"
    assert methodology.page_stem("quiz-sub-v2", pages) == "special"
    assert methodology.page_stem("quiz-v3", pages) == "quiz" and methodology.page_stem("other", {}) == "other"
    defs = {i: {"id": i, "name": n} for i, n in (("quiz-v3", "Quiz"), ("quiz-sub-v1", "Sub"), ("other", "Other"))}
    assert [d["id"] for d in methodology.definitions_for("quiz", defs, pages)] == ["quiz-v3", "quiz-sub-v1"]
    assert [d["id"] for d in methodology.definitions_for("quiz", defs, {})] == ["quiz-v3"]


def test_an_anchor_mean_definitions_tables_say_its_own_unit_and_the_benchmarks():
    import dataclasses

    from sitegen.site import methodology
    from sitegen.site.pages import Urls
    from sitegen.site.views import Lookups

    ctx, _ = _site()
    arena = {"id": "arena", "name": "Arena", "scale": {"unit": "elo"}}
    ctx = dataclasses.replace(ctx, benchmarks=[*ctx.benchmarks, arena])
    lk = Lookups(ctx, Urls(ctx))
    quiz = ctx.benchmarks[0]
    d = {"id": "quiz-mean", "kind": "ai-eq", "name": "Quiz mean", "unit": "points",
         "components": [{"benchmark": "arena", "anchors": [[1000, 50], [1400, 90]]},
                        {"benchmark": quiz["id"], "anchors": [[0, 40], [100, 95]]}]}
    view = methodology.definition_view(d, ctx, lk, lambda b: None)
    text = json.dumps(view)
    assert "Arena: Elo to implied points" in text and f"{quiz['name']}: score to implied points" in text
    assert "Implied points" in text and "EQ" not in text
