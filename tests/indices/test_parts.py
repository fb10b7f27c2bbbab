"""Interpolation, percentile, median, rounding, ranking and value selection."""

from __future__ import annotations

import math

import numpy as np
import pytest

from indexkit import results
from sitegen.indices.parts import (SELECTED_COLUMNS, chosen_positions, compress, interpolate, median, nearest_rank,
                                    nearest_rank_rows, rank_rows, round_half_up, select)

HLE = [[0, 70], [5, 95], [10, 110], [15, 120], [20, 130], [25, 140], [35, 145], [50, 150], [75, 155], [100, 158]]
GPQA = [[25, 85], [35, 98], [50, 107], [65, 115], [80, 123], [90, 131], [100, 135]]


@pytest.mark.parametrize("x, iq", [
    (-3, 70), (0, 70),            # at and below the lowest anchor: clamped
    (100, 158), (120, 158),       # at and above the highest: the ceiling, never extrapolated
    (10, 110), (35, 145),         # exact anchors
    (2.5, 82.5),                  # 70 + (95 - 70) * 2.5 / 5
    (42.5, 147.5),                # 145 + (150 - 145) * 7.5 / 15
])
def test_interpolate_hle(x, iq):
    assert interpolate(HLE, x) == pytest.approx(iq)


def test_interpolate_clamps_below_a_nonzero_first_anchor():
    assert interpolate(GPQA, 10) == 85    # below random guessing (25%): the lowest anchor's IQ
    assert interpolate(GPQA, 30) == pytest.approx(91.5)  # 85 + 13 * 5 / 10


def test_compression_rule():
    # AIME: original ceiling 146 compressed to 135; 100 and below unchanged.
    assert compress(146, 100, 135, 146) == pytest.approx(135)
    assert compress(123, 100, 135, 146) == pytest.approx(100 + 23 * 35 / 46)
    assert compress(95, 100, 135, 146) == 95


@pytest.mark.parametrize("values, expected", [
    ([120], 120),                          # n=1: position ceil(0.8) = 1
    ([130, 110], 130),                     # n=2: ceil(1.6) = 2 -> the larger
    ([140, 100, 130, 110, 120], 130),      # n=5: ceil(4.0) = 4 -> 4th ascending
    ([], None),
])
def test_nearest_rank_p80(values, expected):
    assert nearest_rank(values, 0.8) == expected


def test_nearest_rank_is_exact_where_floats_are_not():
    # 0.8 * 35 == 28.000000000000004 in floats; nearest rank must take position 28, not 29.
    assert nearest_rank(range(1, 36), 0.8) == 28


@pytest.mark.parametrize("order", ["C", "F"])
def test_nearest_rank_rows_takes_each_draws_p80_in_either_layout(order):
    # n=5: ceil(0.8 * 5) = 4 -> the 4th ascending of each row; row 2 has ties (110 twice: 4th ascending is 110)
    values = np.array([[140.0, 100.0, 130.0, 110.0, 120.0],
                       [90.0, 110.0, 80.0, 110.0, 70.0],
                       [1.0, 2.0, 3.0, 4.0, 5.0]], order=order)
    before = values.copy()
    got = nearest_rank_rows(values, 0.8)
    assert got.tolist() == [130.0, 110.0, 4.0]
    assert got.base is None or got.base.size == 3  # its own array, not a view of a partitioned copy
    assert np.array_equal(values, before) and values.flags[f"{order}_CONTIGUOUS"]  # the input is left as it is


def test_nearest_rank_rows_of_one_model_and_exact_positions():
    assert nearest_rank_rows(np.array([[5.0], [7.0]], order="F"), 0.8).tolist() == [5.0, 7.0]  # n=1: position 1
    row = np.arange(1.0, 36.0)[::-1].reshape(1, -1)  # 35 values: the exact position 28, as nearest_rank
    assert nearest_rank_rows(np.asfortranarray(row), 0.8).tolist() == [28.0]


def test_nearest_rank_rows_of_an_empty_population_is_an_index_error():
    # no model: no P80 (callers ask only for a population with at least one model)
    with pytest.raises(IndexError):
        nearest_rank_rows(np.zeros((3, 0), order="F"), 0.8)


@pytest.mark.parametrize("values, expected", [([3, 1, 2], 2), ([4, 1, 3, 2], 2.5), ([7], 7), ([], None)])
def test_median_odd_and_even(values, expected):
    assert median(values) == expected


def test_round_half_up():
    assert round_half_up(2.675, 2) == 2.68      # binary 2.67499..., rounded on its decimal text
    assert round_half_up(0.125, 2) == 0.13
    assert round_half_up(-0.125, 2) == -0.13
    assert round_half_up(float("nan"), 2) is None
    assert round_half_up(None, 2) is None
    assert round_half_up(1.5, 4) == 1.5 and type(round_half_up(1, 4)) is float  # nothing to round
    assert round_half_up(12345.5, 0) == 12346.0 and round_half_up(1e-05, 4) == 0.0 and round_half_up(-4e-05, 4) == -0.0


def test_round_half_up_answers_do_not_depend_on_earlier_calls():
    # Answers are remembered by argument; equal arguments must give equal answers whatever came first, the sign of
    # zero included (0.0 == -0.0 as keys, so zero is answered before the memory is asked).
    assert math.copysign(1, round_half_up(0.0, 2)) == 1 and math.copysign(1, round_half_up(-0.0, 2)) == -1
    assert math.copysign(1, round_half_up(0.0, 2)) == 1
    assert round_half_up(2, 2) == 2.0 and round_half_up(2.0, 2) == 2.0 and round_half_up(True, 2) == 1.0
    assert round_half_up(np.float64(2.675), 2) == 2.68 and round_half_up(2.675, 2) == 2.68
    assert [round_half_up(0.125, p) for p in (1, 2, 3)] == [0.1, 0.13, 0.125]  # places are part of the key


def test_competition_ranking_with_ties():
    rows = [{"model": m, "value": v, "_ranked": True} for m, v in
            [("d", 1.0), ("c", 2.0), ("b", 2.0), ("a", 3.0)]]
    rows.append({"model": "e", "value": None, "_ranked": True})
    rows.append({"model": "0", "value": 9.0, "_ranked": False})
    ranked = rank_rows(rows)
    assert [(r["model"], r["rank"]) for r in ranked] == [
        ("a", 1), ("b", 2), ("c", 2), ("d", 4), ("0", None), ("e", None)]


def test_ranking_lower_is_better():
    rows = [{"model": m, "value": v, "_ranked": True} for m, v in [("x", 5.0), ("y", 1.0), ("z", 1.0)]]
    assert [(r["model"], r["rank"]) for r in rank_rows(rows, higher_is_better=False)] == [
        ("y", 1), ("z", 1), ("x", 3)]


def test_select_source_precedence_then_newest():
    frame = results(
        {"model": "m", "benchmark": "arc-agi-1", "value": 40, "source": "epoch", "retrieved": "2026-04-01"},
        {"model": "m", "benchmark": "arc-agi-1", "value": 30, "source": "arc-prize", "retrieved": "2025-01-01"},
        {"model": "m", "benchmark": "arc-agi-1", "value": 35, "source": "arc-prize", "retrieved": "2025-06-01"},
        {"model": "m", "benchmark": "arc-agi-1", "value": 99, "source": "arc-prize", "metric": "cost"},
        {"model": "m", "benchmark": "arc-agi-1", "value": 98, "source": "arc-prize", "subset": "public"},
    )
    rule = {"order": ["source-precedence", "newest", "highest"], "sources": ["arc-prize", "epoch"]}
    chosen = select(frame, rule, ["arc-agi-1"])
    assert chosen["value"].tolist() == [35]
    assert select(frame, {**rule, "sources": ["epoch"]}, ["arc-agi-1"])["value"].tolist() == [40]


def test_select_only_listed_sources():
    frame = results({"model": "m", "benchmark": "b", "value": 1, "source": "other"})
    assert select(frame, {"sources": ["snap"], "only_listed": True}, ["b"]).empty
    assert select(frame, {"sources": ["snap"]}, ["b"])["value"].tolist() == [1]


def test_select_harness_preference_then_best():
    frame = results(
        {"model": "m", "benchmark": "terminal-bench-2", "value": 50, "harness": "Codex CLI"},
        {"model": "m", "benchmark": "terminal-bench-2", "value": 40, "harness": "Terminus 2"},
        {"model": "n", "benchmark": "terminal-bench-2", "value": 20, "harness": "Codex CLI"},
        {"model": "n", "benchmark": "terminal-bench-2", "value": 30, "harness": "Goose"},
    )
    rule = {"order": ["source-precedence", "harness-preference", "newest", "highest"],
            "harness": {"prefer": ["terminus-2"], "otherwise": "best"}}
    chosen = select(frame, rule, ["terminal-bench-2"]).set_index("model")
    assert chosen.loc["m", "value"] == 40      # the preferred harness, though another scored higher
    assert chosen.loc["n", "value"] == 30      # no preferred harness: the best one


def test_select_independent_before_self_reported():
    frame = results(
        {"model": "m", "benchmark": "b", "value": 80, "self_reported": True},
        {"model": "m", "benchmark": "b", "value": 70, "self_reported": False},
    )
    rule = {"order": ["independent-first", "highest"]}
    assert select(frame, rule, ["b"])["value"].tolist() == [70]


def test_harness_preference_ignores_run_qualifiers():
    """Epoch's repeated Terminal-Bench runs are told apart as "Terminus 2 (run of <date>)": still Terminus 2."""
    from sitegen.indices.parts import select

    frame = results(
        {"model": "o/m", "benchmark": "terminal-bench-2", "value": 57.8, "source": "epoch", "harness": "Codex CLI"},
        {"model": "o/m", "benchmark": "terminal-bench-2", "value": 36.9, "source": "epoch",
         "harness": "Terminus 2 (run of 2025-10-31)"},
    )
    rule = {"order": ["source-precedence", "harness-preference", "newest", "highest"], "sources": ["epoch"],
            "harness": {"prefer": ["terminus-2"], "otherwise": "best"}}
    chosen = select(frame, rule, ["terminal-bench-2"])
    assert list(chosen["value"]) == [36.9]


def test_select_from_an_empty_frame_is_empty_with_the_selected_columns():
    frame = results()
    assert chosen_positions(frame, {"sources": ["src"]}, ["b"]) == []
    chosen = select(frame, {}, ["b"])
    assert chosen.empty and list(chosen.columns) == SELECTED_COLUMNS


def test_select_default_order_is_precedence_independent_newest_highest():
    frame = results(
        {"model": "m", "benchmark": "b", "value": 99, "source": "late"},
        {"model": "m", "benchmark": "b", "value": 50, "source": "first", "self_reported": True},
        {"model": "m", "benchmark": "b", "value": 40, "source": "first", "retrieved": "2025-01-01"},
        {"model": "m", "benchmark": "b", "value": 45, "source": "first", "retrieved": "2025-06-01"},
        {"model": "m", "benchmark": "b", "value": 44, "source": "first", "retrieved": "2025-06-01"},
    )
    # the listed-first source, its independent figures, the newest of them, the higher of the two newest
    assert select(frame, {"sources": ["first", "late"]}, ["b"])["value"].tolist() == [45]


def test_select_unknown_order_key_is_an_error():
    frame = results({"model": "m", "benchmark": "b", "value": 1})
    with pytest.raises(ValueError, match="unknown selection key 'oldest'"):
        select(frame, {"order": ["newest", "oldest"]}, ["b"])


def test_harness_preference_without_best_leaves_the_others_to_the_next_rule():
    frame = results(
        {"model": "m", "benchmark": "b", "value": 90, "harness": "Goose", "retrieved": "2025-01-01"},
        {"model": "m", "benchmark": "b", "value": 10, "harness": "Codex CLI", "retrieved": "2025-06-01"},
        {"model": "n", "benchmark": "b", "value": 10, "harness": "Codex CLI", "retrieved": "2025-01-01"},
        {"model": "n", "benchmark": "b", "value": 20, "harness": "Terminus_2", "retrieved": "2024-01-01"},
    )
    rule = {"order": ["harness-preference", "newest", "highest"], "harness": {"prefer": ["terminus-2"]}}
    chosen = select(frame, rule, ["b"]).set_index("model")
    assert chosen.loc["m", "value"] == 10      # no preferred harness and no `otherwise: best`: the newest
    assert chosen.loc["n", "value"] == 20      # the preferred harness ("Terminus_2" is terminus-2), though older
    no_rule = select(frame, {"order": ["harness-preference", "highest"]}, ["b"]).set_index("model")
    assert no_rule["value"].to_dict() == {"m": 90, "n": 20}  # no harness rule: every harness alike


@pytest.mark.parametrize("rows, expected", [
    ([{"value": 5, "source": "zeta", "harness": "a"}, {"value": 6, "source": "alpha", "harness": "z"}], 6),
    ([{"value": 7, "harness": "Goose"}, {"value": 8, "harness": None}], 8),  # no harness reads as "": first
    ([{"value": 9, "origin": "scores/b.yaml"}, {"value": 3, "origin": "scores/a.yaml"}], 3),
])
def test_select_ties_are_broken_by_source_harness_origin_never_by_file_order(rows, expected):
    rows = [{"model": "m", "benchmark": "b", **r} for r in rows]
    for ordered in (rows, rows[::-1]):
        assert select(results(*ordered), {"order": ["newest"]}, ["b"])["value"].tolist() == [expected]


def test_per_frame_memo_answers_while_the_frame_lives_and_drops_it_after():
    import gc

    import pandas as pd

    from sitegen.indices.parts import PerFrame

    memo, made = PerFrame(), []
    frame = pd.DataFrame({"a": [1, 2]})
    for _ in range(2):
        assert memo.get(frame, "k", lambda: made.append(1) or "answer") == "answer"
    assert made == [1]  # made once
    assert memo.get(frame, "other", lambda: "second") == "second"  # a key per question
    assert len(memo.entries) == 2
    del frame
    gc.collect()
    assert memo.entries == {}  # the frame is gone, so are its answers: the memo held nothing alive
    fresh = pd.DataFrame({"a": [3]})  # may well get the old frame's id
    assert memo.get(fresh, "k", lambda: "fresh") == "fresh"
