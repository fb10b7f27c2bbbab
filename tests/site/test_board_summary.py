"""views.board_summary: what a board page's description and the social images say of a board, made without the
board's view (its rows' cells): the same title, unit, decimals, ranked count and rows in order as board_view."""

from __future__ import annotations

from sitegen.site.assembly import _describe_board
from sitegen.site.context import SiteContext
from sitegen.site.pages import Urls
from sitegen.site.views import Lookups, board_summary, board_view


def context() -> SiteContext:
    """Four models on one board: b and c are two configurations of one release, d is unranked."""
    models = [
        {"id": "lab/a", "name": "Alpha", "release": "lab/a"},
        {"id": "lab/b", "name": "Beta high", "release": "lab/beta"},
        {"id": "lab/c", "name": "Beta low", "release": "lab/beta"},
        {"id": "lab/d", "name": "Delta", "release": "lab/d"},
    ]
    rows = [
        {"model": "lab/c", "value": 61.25, "rank": 2},
        {"model": "lab/d", "value": None, "rank": None},
        {"model": "lab/a", "value": 58.5, "rank": 3},
        {"model": "lab/b", "value": 70.0, "rank": 1},
    ]
    board = {"index": "x", "name": "Index X", "unit": "points", "rows": rows}
    return SiteContext(
        boards={"x": board},
        benchmark_boards={},
        models=models,
        benchmarks=[],
        sources=[],
        index_defs={},
        methodology_pages={},
        frontiers={},
        data_date="2026-07-01",
    )


def test_a_summary_lists_the_rows_in_rank_order_with_names_and_values():
    lk = Lookups(context(), Urls(context()))
    assert board_summary("x", lk) == {
        "id": "x",
        "title": "Index X",
        "unit": "points",
        "digits": 1,  # numbers.decimals of the values, as the table shows them
        "n_ranked": 3,
        "rows": [
            {"rank": 1, "name": "Beta high", "value": 70.0},
            {"rank": 2, "name": "Beta low", "value": 61.25},
            {"rank": 3, "name": "Alpha", "value": 58.5},
            {"rank": None, "name": "Delta", "value": None},
        ],
    }
    # one row per release: Beta's best configuration only, ranks as among all configurations
    assert [(r["rank"], r["name"]) for r in board_summary("x", lk, per_release=True)["rows"]] == [
        (1, "Beta high"),
        (3, "Alpha"),
        (None, "Delta"),
    ]


def test_a_summary_says_what_the_view_says():
    ctx = context()
    lk = Lookups(ctx, Urls(ctx))
    for per_release in (False, True):
        view, summary = board_view("x", lk, per_release), board_summary("x", lk, per_release)
        assert {k: view[k] for k in ("id", "title", "unit", "digits", "n_ranked")} == {
            k: summary[k] for k in ("id", "title", "unit", "digits", "n_ranked")
        }
        assert [(r["rank"], r["name"], r["value"]) for r in view["rows"]] == [
            (r["rank"], r["name"], r["value"]) for r in summary["rows"]
        ]
        assert _describe_board(ctx, summary) == _describe_board(ctx, view)
    assert _describe_board(ctx, board_summary("x", lk)) == (
        "Index X: 3 ranked models, every value with its source and provenance. Leader: Beta high."
    )
