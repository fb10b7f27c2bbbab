"""AI IQ's anchor tables as the charts and the methodology page read them (views.iq_anchors), and a board's rows
where the build may not have the board (context.rows_of)."""

from __future__ import annotations

import math

from sitegen.site.context import SiteContext, rows_of
from sitegen.site.views import anchor_definition, definition_of, iq_anchors


def _ctx(index_defs: dict, boards: dict | None = None) -> SiteContext:
    return SiteContext(
        boards=boards or {},
        benchmark_boards={},
        models=[],
        benchmarks=[],
        sources=[],
        index_defs=index_defs,
        methodology_pages={},
        frontiers={},
        data_date="2026-01-31",
    )


def _ai_iq(*benchmarks: dict, pivot: float | None = 100) -> dict:
    return {
        "quiz-iq": {
            "kind": "ai-iq",
            "compression": {} if pivot is None else {"pivot": pivot},
            "dimensions": [{"id": "reasoning", "name": "Reasoning", "benchmarks": list(benchmarks)}],
        }
    }


def test_anchor_pairs_with_an_unknown_number_or_a_missing_half_are_left_out():
    b = {"benchmark": "quiz", "ceiling": 120, "anchors": [[0, 70], [10, None], [20, math.nan], [30], [50, 100.5]]}
    out = iq_anchors(_ctx(_ai_iq(b)), "quiz-iq")
    assert out["quiz"]["points"] == [[0.0, 70.0], [50.0, 100.5]]
    assert out["quiz"]["dimension"] == "reasoning" and out["quiz"]["dimension_name"] == "Reasoning"
    assert out["quiz"]["ceiling"] == 120.0 and out["quiz"]["ceiling_original"] is None


def test_the_compression_above_the_pivot_is_undone_by_the_ceilings_ratio():
    # pivot 100, ceiling 130 compressed from 160: above 100 each IQ is stretched by (160 - 100) / (130 - 100) = 2
    b = {"benchmark": "quiz", "ceiling": 130, "ceiling_original": 160, "anchors": [[10, 90], [50, 120], [90, 130]]}
    out = iq_anchors(_ctx(_ai_iq(b)), "quiz-iq")["quiz"]
    assert out["points"] == [[10.0, 90.0], [50.0, 120.0], [90.0, 130.0]]
    assert out["original"] == [[10.0, 90.0], [50.0, 140.0], [90.0, 160.0]]


def test_no_original_curve_without_an_original_ceiling_above_the_pivot():
    same = {"benchmark": "a", "ceiling": 130, "anchors": [[50, 120]]}
    at_pivot = {"benchmark": "b", "ceiling": 100, "ceiling_original": 150, "anchors": [[50, 95]]}
    out = iq_anchors(_ctx(_ai_iq(same, at_pivot)), "quiz-iq")
    assert out["a"]["original"] is None and out["b"]["original"] is None


def test_the_pivot_is_100_when_the_definition_names_none():
    b = {"benchmark": "quiz", "ceiling": 110, "ceiling_original": 120, "anchors": [[50, 105]]}
    assert iq_anchors(_ctx(_ai_iq(b, pivot=None)), "quiz-iq")["quiz"]["original"] == [[50.0, 110.0]]


def test_rows_of_a_board_the_build_does_not_have_are_none():
    board = {"name": "Quiz", "unit": "%", "description": "", "uncertainty": {}, "rows": [{"model": "m", "value": 1.0}]}
    ctx = _ctx({}, {"quiz": board})
    assert rows_of(ctx.boards, "quiz") == [{"model": "m", "value": 1.0}]
    assert rows_of(ctx.boards, "absent") == []


def test_the_anchor_tables_are_the_named_definitions_and_none_for_another():
    b = {"benchmark": "quiz", "ceiling": 120, "anchors": [[0, 70], [50, 100]]}
    assert set(iq_anchors(_ctx(_ai_iq(b)), "quiz-iq")) == {"quiz"}
    assert iq_anchors(_ctx(_ai_iq(b)), "other") == {}


def test_the_benchmark_pages_take_the_first_anchor_mapping_definition_in_id_order():
    defs = {"zeta-iq": {"kind": "ai-iq"}, "alpha-eq": {"kind": "ai-eq"}, "beta-iq": {"kind": "ai-iq"}}
    assert anchor_definition(_ctx(defs)) == "beta-iq"
    assert anchor_definition(_ctx({"alpha-eq": {"kind": "ai-eq"}})) == ""


def test_a_boards_definition_is_the_one_it_names_else_its_own_id():
    ctx = _ctx({}, {"quiz-acc": {"definition": "quiz", "rows": []}, "solo": {"rows": []}})
    assert definition_of(ctx, "quiz-acc") == "quiz" and definition_of(ctx, "solo") == "solo"
    assert definition_of(ctx, "absent") == "absent"
