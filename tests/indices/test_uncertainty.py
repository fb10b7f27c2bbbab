"""Uncertainty: value intervals, propagation through composites, imputation error out of fold, ranks and tiers.

Every expectation is computed by hand in the comment beside it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sitegen.indices import aiiq
from sitegen.indices import uncertainty as u
from sitegen.indices.parts import interpolate_rows

from indexkit import results

POINTS = {"scale": {"unit": "points"}}
PERCENT = {"scale": {"min": 0, "max": 100, "unit": "percent"}}


# ------------------------------------------------------------------------------------------- value intervals

def test_published_stderr_gives_value_plus_minus_z_se():
    s = u.spread({"value": 50.0, "stderr": 2.0, "source": "epoch"}, PERCENT)
    z = 1.959963984540054
    assert s["interval_how"] == "published"
    assert s["interval"] == pytest.approx([50 - 2 * z, 50 + 2 * z])  # 46.08007, 53.91993


def test_published_skewed_interval_is_kept_and_drawn_per_side():
    s = u.spread({"value": 1400.0, "ci_low": 1390.0, "ci_high": 1420.0, "source": "lmarena"}, {"scale": {"unit": "elo"}})
    assert s["interval"] == pytest.approx([1390.0, 1420.0]) and s["interval_how"] == "published"
    z = u.normals("t", [("m",)], 20000)
    d = u.transform([s["draw"]], z)[:, 0]
    # Each side is a normal half with sd = half-width / 1.96: 2.5% of draws fall below 1390 and 2.5% above 1420.
    assert np.mean(d < 1390) == pytest.approx(0.025, abs=0.005)
    assert np.mean(d > 1420) == pytest.approx(0.025, abs=0.005)


def test_binomial_model_uses_the_question_count_and_wilson():
    bench = dict(PERCENT, questions=[{"count": 30, "repeats": 10, "basis": "seed 000"}])
    s = u.spread({"value": 0.0, "source": "aa"}, bench)
    # Wilson at p = 0: [0, z^2 / (n + z^2)] = 3.841459 / 33.841459 = 0.113514 -> [0, 11.3514] percent.
    assert s["interval_how"] == "derived"
    assert s["interval"] == pytest.approx([0.0, 11.3514], abs=1e-4)
    assert "n = 30 questions" in s["interval_reason"] and "10 repeats" in s["interval_reason"]


def test_question_count_follows_the_source():
    bench = dict(PERCENT, questions=[{"count": 2684, "sources": ["aa-api-2025-10"], "basis": "seed 000"},
                                     {"count": 2500, "basis": "seed 003"}])
    assert u.question_count(bench, "aa-api-2025-10")["count"] == 2684
    assert u.question_count(bench, "scale")["count"] == 2500


def test_no_interval_is_said_not_invented():
    s = u.spread({"value": 12.0, "source": "arc-prize"}, PERCENT)
    assert s["interval"] is None and s["interval_how"] is None and s["draw"] is None
    assert "arc-prize publishes no interval" in s["interval_reason"]


# --------------------------------------------------------------------------------------------- propagation

def test_weighted_mean_of_independent_normals_matches_the_closed_form():
    definition = {"id": "t", "source_snapshot": "snap", "constituents": [
        {"benchmark": "a", "weight": 0.5}, {"benchmark": "b", "weight": 0.3}, {"benchmark": "c", "weight": 0.2}]}
    frame = results({"model": "o/m", "benchmark": "a", "value": 50.0, "stderr": 2.0, "source": "snap"},
                    {"model": "o/m", "benchmark": "b", "value": 60.0, "stderr": 4.0, "source": "snap"},
                    {"model": "o/m", "benchmark": "c", "value": 70.0, "stderr": 1.0, "source": "snap"})
    samples, _ = u.weighted_mean_samples(definition, frame, {"a": POINTS, "b": POINTS, "c": POINTS}, 20000, 0.95)
    s = samples["o/m"]
    # mean = 0.5*50 + 0.3*60 + 0.2*70 = 57; sd = sqrt(0.25*4 + 0.09*16 + 0.04*1) = sqrt(2.48) = 1.574802
    assert s.mean() == pytest.approx(57.0, abs=0.05)
    assert s.std() == pytest.approx(math.sqrt(2.48), abs=0.035)  # 4 x the sd's standard error (0.0079)
    lo, hi = u.quantile_interval(s[:, None], 0.95)[:, 0]
    assert lo == pytest.approx(57 - 1.959964 * 1.574802, abs=0.1)  # 53.9135
    assert hi == pytest.approx(57 + 1.959964 * 1.574802, abs=0.1)  # 60.0865


def test_draws_are_keyed_by_what_is_simulated():
    a = u.normals("ai-iq", [("o/m", "hle"), ("o/n", "hle")], 5)
    b = u.normals("ai-iq", [("o/x", "hle"), ("o/n", "hle")], 5)
    assert np.array_equal(a[:, 1], b[:, 1])  # another model in the board does not move o/n's draws
    assert not np.array_equal(a[:, 0], a[:, 1])
    # sha256-seeded, so fixed across runs and machines: the first draw of ("ai-iq", "o/m", "hle").
    assert a[0, 0] == u.stream("ai-iq", "o/m", "hle").standard_normal(1, dtype=np.float32)[0]


# ------------------------------------------------------------------------------------ ranks, rank intervals, tiers

def test_competition_ranks_per_draw():
    values = np.array([[3.0, 2.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0]])
    assert u.competition_ranks(values).tolist() == [[1, 2, 2, 4], [4, 3, 2, 1]]
    assert u.competition_ranks(values, higher_is_better=False).tolist() == [[4, 2, 2, 1], [1, 2, 3, 4]]


def test_rank_interval_is_the_central_range_of_whole_ranks():
    ranks = np.array([[1], [2], [3], [4]])
    assert u.rank_intervals(ranks, 0.5) == [[1, 3]]  # inverted CDF: 25% -> 1st of 4, 75% -> 3rd of 4


@pytest.mark.parametrize("ranks, intervals, expected", [
    ([1, 2, 3, 4, 5], [[1, 3], [1, 3], [2, 4], [4, 5], [4, 5]], [1, 1, 1, 2, 2]),  # leader 1 reaches 3; leader 4 reaches 5
    ([1, 2, 3], [[1, 1], [2, 2], [3, 3]], [1, 2, 3]),  # nobody can move: one tier each
    ([1, 1, 3], [[1, 1], [1, 2], [3, 3]], [1, 1, 2]),  # a tie with the leader shares its tier
    ([1, 2, 3], [[1, 3], [1, 3], [1, 3]], [1, 1, 1]),
])
def test_tiers_greedy_from_the_top(ranks, intervals, expected):
    assert u.tiers(ranks, intervals) == expected


def test_board_gets_rank_intervals_and_tiers():
    sims = 100
    flip = np.tile([5.0, 3.0], sims // 2)
    board = {"rows": [
        {"model": "a", "value": 10.0, "rank": 1}, {"model": "b", "value": 4.0, "rank": 2},
        {"model": "c", "value": 4.0 - 1e-9, "rank": 3}, {"model": "d", "value": None, "rank": None}]}
    samples = {"a": np.full(sims, 10.0), "b": flip, "c": np.full(sims, 4.0)}
    u.annotate(board, samples, {m: "r" for m in samples}, sims, 0.95)
    rows = {r["model"]: r for r in board["rows"]}
    # a is always first; b and c swap places half the time.
    assert rows["a"]["rank_interval"] == [1, 1] and rows["a"]["tier"] == 1
    assert rows["b"]["rank_interval"] == [2, 3] and rows["c"]["rank_interval"] == [2, 3]
    assert rows["b"]["tier"] == 2 and rows["c"]["tier"] == 2
    assert rows["d"]["rank_interval"] is None and rows["d"]["tier"] is None and rows["d"]["interval"] is None
    assert rows["b"]["interval"] == pytest.approx([3.0, 5.0]) and rows["b"]["interval_how"] == "derived"
    # a beats b in every draw; b (5 or 3) beats c (4) in half of them; c is last.
    assert [rows[m]["ahead_of_next"] for m in "abc"] == [1.0, 0.5, None]


def test_rank_draws_keep_each_models_rank_in_every_draw_from_which_the_page_counts_pairs():
    # columns in rank order a, b, c, d; four draws
    values = np.array([[5.0, 4.0, 1.0, 0.0],
                       [5.0, 6.0, 1.0, 0.0],
                       [5.0, 4.0, 4.0, 0.0],
                       [5.0, 4.0, 5.0, 0.0]])
    ranks = u.competition_ranks(values)
    assert ranks.tolist() == [[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 2, 4], [1, 3, 1, 4]]
    draws = u.rank_draws(ranks)  # one row per model, one column per draw
    assert draws.dtype == np.uint16 and draws.flags["C_CONTIGUOUS"]
    assert draws.tolist() == [[1, 2, 1, 1], [2, 1, 2, 3], [3, 3, 2, 1], [4, 4, 4, 4]]

    def counts(x, y):  # what the compare page shows: draws x is ahead, draws y is ahead (the rest are ties)
        return [int(np.sum(draws[x] < draws[y])), int(np.sum(draws[y] < draws[x]))]

    # a-b: a ahead in 3, b in 1. a-c: a ahead in 3, tied in the 4th. b-c: b ahead in 2, tied in 1, c ahead in 1.
    # d is behind everyone in every draw.
    assert [counts(0, 1), counts(0, 2), counts(1, 2), counts(0, 3), counts(2, 3)] == [
        [3, 1], [3, 0], [2, 1], [4, 0], [4, 0]]
    # lower is better: the same draws negated give the same ranks
    assert u.rank_draws(u.competition_ranks(-values, higher_is_better=False)).tolist() == draws.tolist()
    # past 65,535 ranked rows the ranks no longer fit in 16 bits
    assert u.rank_draws(np.array([[1, 70000]])).dtype == np.uint32


def test_board_pairs_leave_out_rows_held_fixed():
    sims = 100
    board = {"rows": [
        {"model": "a", "value": 10.0, "rank": 1}, {"model": "b", "value": 4.0, "rank": 2},
        {"model": "e", "value": 4.0 - 1e-10, "rank": 3}, {"model": "c", "value": 4.0 - 1e-9, "rank": 4}]}
    samples = {"a": np.full(sims, 10.0), "b": np.tile([5.0, 3.0], sims // 2), "c": np.full(sims, 4.0)}
    u.annotate(board, samples, {m: "r" for m in samples}, sims, 0.95, pairs=True)
    # e has no draws: it is ranked at its fixed value (between c's 4.0 and b's 3.0) but gets no row of its own.
    # a is 1st in every draw; b (5 or 3) is 2nd or 4th, c (4) 3rd or 2nd: b ahead of c in half the draws.
    ahead = board["ahead"]
    assert {**ahead, "draws": ahead["draws"].tolist()} == {
        "simulations": 100, "models": ["a", "b", "c"], "ranks": [1, 2, 4],
        "draws": [[1] * 100, [2, 4] * 50, [3, 2] * 50]}
    plain = {"rows": [dict(r) for r in board["rows"]]}
    u.annotate(plain, samples, {m: "r" for m in samples}, sims, 0.95)
    assert "ahead" not in plain  # benchmark boards (pairs=False) carry none


def test_board_without_any_interval_gets_no_tiers():
    board = {"rows": [{"model": "a", "value": 2.0, "rank": 1}, {"model": "b", "value": 1.0, "rank": 2}]}
    u.annotate(board, {}, {}, 10, 0.95)
    assert [r["tier"] for r in board["rows"]] == [None, None]
    assert "no rank interval or tier" in board["uncertainty"]["ranks"]


# ------------------------------------------------------------------------------ AI IQ: leave-one-out, imputation

IDENTITY = [[0, 0], [100, 100]]
DEF = {
    "id": "iq-test", "name": "IQ test", "version": "1", "kind": "ai-iq", "unit": "IQ", "description": "test",
    "percentile": {"method": "nearest-rank", "level": 0.5}, "min_dimensions": 1,
    "status": [{"status": "full", "min_scored": 1, "ranked": True}, {"status": "unranked", "min_scored": 0,
                                                                        "ranked": False}],
    "dimensions": [
        {"id": "d1", "imputable": False, "benchmarks": [{"benchmark": "b1", "anchors": IDENTITY},
                                                         {"benchmark": "b2", "anchors": IDENTITY}]},
        {"id": "d2", "imputable": True, "benchmarks": [{"benchmark": "b3", "anchors": IDENTITY}]},
    ],
}


def test_calibration_table_on_a_fixture(monkeypatch):
    monkeypatch.setattr(u, "MIN_CASES", 2)  # two cases per rule here
    nan = np.nan
    raw = u.Scores.from_dense({"b1": np.array([[10.0, 20.0, 30.0]]), "b2": np.array([[20.0, nan, 50.0]]),
                               "b3": np.array([[40.0, 60.0, nan]])})
    # Three folds for three models: each model is its own fold, so out of fold is leave one out here.
    assert sorted(aiiq.holdout_folds(["0", "1", "2"], 3, u.CALIBRATION_SEED).values()) == [0, 1, 2]
    table = {row["component"]: row for row in u.imputation_calibration(DEF, raw, folds=3)}
    # b1: m1 hides 10 -> min(own 20, P50 of {20, 30} = 20) = 20, error +10; m3 hides 30 -> min(50, P50{10, 20} = 10)
    # = 10, error -20. bias -5, sd of {10, -20} (n - 1) = 21.213203, se = sd / sqrt(2) = 15.
    b1 = table["b1"]
    assert (b1["rule"], b1["cases"], b1["bias"]) == ("benchmark", 2, -5.0)
    assert b1["sd"] == pytest.approx(math.sqrt(450)) and b1["se"] == pytest.approx(15.0)
    assert b1["seen"] == [10.0, 30.0] and b1["span"] == [0.0, 100.0]
    # out of fold, each case's fit has one case left: too few, so no coverage is counted
    assert b1["coverage_cases"] == 0 and b1["coverage"] is None
    # b2: m1 hides 20 -> min(10, P50{50}) = 10, error -10; m3 hides 50 -> min(30, P50{20}) = 20, error -30.
    assert table["b2"]["bias"] == pytest.approx(-20.0) and table["b2"]["sd"] == pytest.approx(math.sqrt(200))
    assert table["b2"]["se"] == pytest.approx(10.0)
    # b3 is alone in d2: no model has another real benchmark there, so the rule cannot be checked on it; it takes
    # the benchmark rule's pooled error over b1 and b2 (+10, -20, -10, -30): rmse sqrt(1500 / 4), no bias corrected.
    b3 = table["b3"]
    assert (b3["cases"], b3["bias"], b3["shift"], b3["pooled"]) == (0, None, 0.0, 4) and "too few" in b3["reason"]
    assert b3["sd"] == pytest.approx(math.sqrt(375))
    # d2 (dimension rule; d1 is not imputable). d1 values: m1 15, m2 (20 + min(20, P50{20, 50} = 20)) / 2 = 20.
    # m1 hides d2 = 40 -> min(15, P50{60}) = 15, error -25; m2 hides 60 -> min(20, P50{40}) = 20, error -40.
    assert table["d2"]["rule"] == "dimension" and table["d2"]["cases"] == 2
    assert table["d2"]["bias"] == pytest.approx(-32.5) and table["d2"]["se"] == pytest.approx(7.5)
    assert "d1" not in table


def test_calibration_fits_the_p80_on_the_other_folds_only():
    # Four models in two folds: the fold of each is fixed by the seed (checked here), so the P80s are by hand.
    folds = aiiq.holdout_folds(["0", "1", "2", "3"], 2, "t")
    assert folds == {"0": 0, "1": 0, "2": 1, "3": 1}
    raw = u.Scores.from_dense({"b1": np.array([[10.0, 20.0, 30.0, 40.0]]), "b2": np.array([[50.0, 60.0, 70.0, 80.0]]),
                               "b3": np.array([[1.0, 1.0, 1.0, 1.0]])})
    cases, _ = u.calibration_cases(DEF, raw, folds=2, seed="t")
    b1 = cases[("benchmark", "b1")]
    # b1 of models 0 and 1 (fold 0) is imputed with the P50 of b1 over fold 1 ({30, 40} -> 30): min(own 50, 30)
    # and min(60, 30) = 30; models 2 and 3 (fold 1) with the P50 over fold 0 ({10, 20} -> 10): 10 each.
    # (With all four models the P50 would be 20 for every case.)
    assert b1["base"].tolist() == [30.0, 30.0, 10.0, 10.0] and b1["truth"].tolist() == [10.0, 20.0, 30.0, 40.0]
    assert b1["fold"].tolist() == [0, 0, 1, 1]
    # b2: P50 over fold 1 {70, 80} = 70, over fold 0 {50, 60} = 50; own means 10, 20, 30, 40 are lower.
    assert cases[("benchmark", "b2")]["base"].tolist() == [10.0, 20.0, 30.0, 40.0]


def test_fit_errors_by_hand():
    # errors 1, 2, 3, 4, 10: mean 4; deviations -3 -2 -1 0 6, squares 50, sd sqrt(50 / 4) = 3.535534; se sd / sqrt 5.
    fit = u.fit_errors(np.array([1.0, 2.0, 3.0, 4.0, 10.0]))
    assert (fit["cases"], fit["bias"]) == (5, 4.0)
    assert fit["sd"] == pytest.approx(math.sqrt(12.5)) and fit["se"] == pytest.approx(math.sqrt(12.5) / math.sqrt(5))
    few = u.fit_errors(np.array([1.0, 3.0]))  # below MIN_CASES (5): a bias, but no spread
    assert (few["cases"], few["bias"], few["se"], few["sd"]) == (2, 2.0, None, None)
    assert u.fit_errors(np.array([]))["bias"] is None


def test_bias_correction_stays_within_the_held_out_range():
    # error = imputed - observed, so the value moves by -bias: 100 - (-10) = 110, but the cases' observed values
    # reach only 105, so 105; a bias of +5 moves 100 to 95 inside [90, 120].
    assert u.calibrated_centre(100.0, -10.0, [90.0, 105.0]) == 105.0
    assert u.calibrated_centre(100.0, 5.0, [90.0, 120.0]) == 95.0
    # a value already below the range is not moved further out (80 - 5 = 75 -> 80), but may move towards it
    assert u.calibrated_centre(80.0, 5.0, [90.0, 120.0]) == 80.0
    assert u.calibrated_centre(80.0, -5.0, [90.0, 120.0]) == 85.0
    # the bias is applied only to values inside the range of the rule's values on its cases (`fitted`): the
    # rule imputed 105..130 there, so 100 is not moved and 110 is (110 + 10 = 120)
    assert u.calibrated_centre(np.array([100.0, 110.0]), -10.0, [90.0, 125.0], [105.0, 130.0]).tolist() == [100.0, 120.0]


def test_bias_correction_of_draws_by_values_in_place_of_a_copy():
    # two draws x three values (column-ordered, as the simulation keeps them); bias -10 (moves up by 10), cases
    # observed within [90, 125], the rule's values on them within [95, 130]
    base = np.asfortranarray([[100.0, 80.0, 131.0], [120.0, 96.0, 94.0]])
    kept = base.copy()
    got = u.calibrated_centre(base, -10.0, [90.0, 125.0], [95.0, 130.0])
    # 100 -> 110; 80 below the fitted range: not moved; 131 above it: not moved (and above 125: stays 131);
    # 120 -> 130, clipped to the observed 125; 96 -> 106; 94 below the fitted range: not moved
    assert got.tolist() == [[110.0, 80.0, 131.0], [125.0, 106.0, 94.0]]
    assert np.array_equal(base, kept) and got.flags.f_contiguous
    # without a fitted range every value moves; each number is the one the scalar form gives
    every = u.calibrated_centre(base, -10.0, [90.0, 125.0])
    assert every.tolist() == [[110.0, 90.0, 131.0], [125.0, 106.0, 104.0]]
    assert every.tolist() == [[float(u.calibrated_centre(x, -10.0, [90.0, 125.0])) for x in r] for r in base.tolist()]


def test_imputed_draws_are_clipped_to_the_anchor_range():
    # AIME's table spans IQ 82..135: draws outside are clipped; a value below 82 (an own mean of 75) keeps 75 as
    # its lower limit, since the board's value stays the methodology's.
    assert u.within(np.array([60.0, 100.0, 150.0]), 100.0, (82.0, 135.0)).tolist() == [82.0, 100.0, 135.0]
    assert u.within(np.array([60.0, 100.0]), 75.0, (82.0, 135.0)).tolist() == [75.0, 100.0]
    d = dict(DEF, dimensions=[{"id": "d1", "imputable": True, "benchmarks": [
        {"benchmark": "b1", "anchors": [[0, 82], [100, 135]]}, {"benchmark": "b2", "anchors": [[0, 70], [50, 90]]}]}])
    assert u.anchor_ranges(d) == {"b1": (82.0, 135.0), "b2": (70.0, 90.0), "d1": (70.0, 135.0)}


def test_clipping_a_block_of_columns_at_a_time_gives_the_whole_array_s_numbers():
    # 3 draws x (2 blocks of 2 + 1) values, block size 2: each element clipped to [min(80, base), max(120, base)]
    base = np.asfortranarray([[100.0, 70.0, 130.0, -0.0, 100.0], [100.0, 70.0, 130.0, 100.0, np.nan]] * 2)[:3]
    drawn = np.asfortranarray([[60.0, 60.0, 140.0, -5.0, 121.0], [119.0, 75.0, 125.0, 100.5, 50.0],
                               [-0.0, 90.0, 131.0, 200.0, 100.0]])
    whole = np.clip(drawn, np.minimum(80.0, base), np.maximum(120.0, base))
    # by hand: 60 -> 80; 60 -> 70 (base 70 lowers the floor); 140 -> 130 (base 130 raises the ceiling);
    # -5 -> -0.0 (the floor is min(80, -0.0)); 121 -> 120; NaN in base gives NaN bounds: clip gives NaN
    assert whole[0].tolist()[:5] == [80.0, 70.0, 130.0, -0.0, 120.0]
    for block in (2, 256):
        got = drawn.copy(order="F")
        old = u.BLOCK
        u.BLOCK = block
        try:
            same = u.within(got, base, (80.0, 120.0), in_place=True)
        finally:
            u.BLOCK = old
        assert same is got and np.array_equal(got, whole, equal_nan=True)
        assert np.array_equal(np.signbit(got), np.signbit(whole))  # -0.0 stays -0.0
    # not in place: a new array, the argument unchanged
    kept = drawn.copy()
    assert np.array_equal(u.within(drawn, base, (80.0, 120.0)), whole, equal_nan=True)
    assert np.array_equal(drawn, kept)


def test_own_imputation_terms_drawn_a_block_of_columns_at_a_time_are_the_whole_draw(monkeypatch):
    # five models' own terms (sd 1.5) drawn in blocks of two: each column is sd x its own stream, as one draw
    models = ["m/a", "m/b", "m/c", "m/d", "m/e"]
    comps = u.Components("t", models, 50, 0.95)
    cols = np.array([0, 1, 2, 4])
    whole = np.zeros((50, 4), order="F")
    whole += 1.5 * u.normals("t", [(models[j], "b1", "imputation") for j in cols], 50)
    monkeypatch.setattr(u, "BLOCK", 2)
    assert np.array_equal(comps.imputation_noise("b1", cols, {"sd": 1.5}), whole)


def test_out_of_fold_coverage_by_hand(monkeypatch):
    monkeypatch.setattr(u, "MIN_CASES", 2)
    case = {"fold": np.array([0, 0, 1, 1]), "base": np.array([10.0, 10.0, 10.0, 10.0]),
            "truth": np.array([8.0, 12.0, 9.0, 30.0])}
    # Fold 0 is tested on the fit of fold 1: errors 1, -20 -> bias -9.5, sd 14.849242, se 10.5; centre
    # 10 + 9.5 = 19.5 (inside fold 1's observed range [9, 30]); half 1.959964 x hypot(10.5, 14.849242) = 35.64:
    # [-16.1, 55.1] holds 8 and 12. Fold 1 on fold 0's fit: errors 2, -2 -> bias 0, sd 2.828427, se 2; half
    # 1.959964 x sqrt(12) = 6.79: [3.21, 16.79] holds 9, not 30.
    assert u.out_of_fold_coverage(case, 0.95, (0.0, 100.0)).tolist() == [1.0, 1.0, 1.0, 0.0]
    # clipped to an anchor range of [0, 15] the intervals still hold the same cases
    assert u.out_of_fold_coverage(case, 0.95, (0.0, 15.0)).tolist() == [1.0, 1.0, 1.0, 0.0]


def test_one_rule_moves_its_models_together():
    comps = u.Components("t", ["m/a", "m/b", "m/c"], 20000, 0.95)
    # only the shared term: the two models move together exactly, in every draw
    shared = comps.imputation_noise("b1", np.array([0, 2]), {"se": 2.0, "sd": 0.0})
    assert np.array_equal(shared[:, 0], shared[:, 1]) and np.std(shared[:, 0]) == pytest.approx(2.0, rel=0.03)
    # shared se 1 and own sd 1: the correlation between two models is 1 / (1 + 1) = 0.5
    both = comps.imputation_noise("b1", np.array([0, 1]), {"se": 1.0, "sd": 1.0})
    assert np.corrcoef(both.T)[0, 1] == pytest.approx(0.5, abs=0.03)
    assert np.std(both[:, 0]) == pytest.approx(math.sqrt(2), rel=0.03)
    # another component's shared term is another stream: independent of b1's
    other = comps.imputation_noise("b2", np.array([0]), {"se": 2.0, "sd": 0.0})
    assert abs(np.corrcoef(other[:, 0], shared[:, 0])[0, 1]) < 0.03


def test_centring_moves_each_rows_draws_onto_its_value():
    board = {"rows": [{"model": "a", "value": 5.0}, {"model": "b", "value": 1.0}]}
    measurement = {"a": np.array([1.0, 2.0, 3.0, 10.0]), "b": np.array([1.0, 1.0, 2.0])}
    total = {"a": np.array([0.0, 4.0, 6.0, 8.0]), "b": np.array([1.0, 1.0, 2.0])}
    # a: median of its measurement draws 2.5, value 5 -> both moved by +2.5; b: median 1 = value -> unmoved
    moved, alone = u.centre_on_values(board, total, measurement)
    assert alone["a"].tolist() == [3.5, 4.5, 5.5, 12.5] and moved["a"].tolist() == [2.5, 6.5, 8.5, 10.5]
    assert moved["b"].tolist() == [1.0, 1.0, 2.0]
    same, again = u.centre_on_values(board, measurement, measurement)  # one set of draws (AA, EQ): moved once
    assert same["a"].tolist() == again["a"].tolist() == [3.5, 4.5, 5.5, 12.5]


def test_a_point_rank_always_lies_in_its_rank_interval():
    # a's draws always lie below b's (an interval shifted by an imputation bias): the central ranges are a [2, 2]
    # and b [1, 1]; each is widened to its point rank and the board counts the two.
    board = {"rows": [{"model": "a", "value": 10.0, "rank": 1}, {"model": "b", "value": 9.0, "rank": 2}]}
    u.annotate(board, {"a": np.full(100, 5.0) + np.linspace(0, 1, 100), "b": np.full(100, 9.0)}, {"a": "", "b": ""},
               100, 0.95)
    assert [r["rank_interval"] for r in board["rows"]] == [[1, 2], [1, 2]]
    assert board["uncertainty"]["rank_widened"] == 2


def test_interval_measurement_comes_from_the_measurement_draws():
    board = {"rows": [{"model": "a", "value": 10.0, "rank": 1}]}
    total, alone = np.linspace(0.0, 20.0, 1001), np.linspace(9.0, 11.0, 1001)
    u.annotate(board, {"a": total}, {"a": "r"}, 1001, 0.95, measurement={"a": alone})
    row = board["rows"][0]
    # linear quantiles of an even grid: 2.5% and 97.5% of [0, 20] are 0.5 and 19.5; of [9, 11], 9.05 and 10.95
    assert row["interval"] == pytest.approx([0.5, 19.5]) and row["interval_measurement"] == pytest.approx([9.05, 10.95])


OTHERS = {"o/m0": (20, 60, 30), "o/m1": (30, 80, 45), "o/m2": (40, 40, 55), "o/m3": (70, 90, 65),
          "o/m4": (60, 30, 35)}


def _frame(extra: dict[str, tuple]) -> object:
    rows = []
    for model, values in {**OTHERS, **extra}.items():
        for bench, value in zip(("b1", "b2", "b3"), values):
            if value is not None:
                rows.append({"model": model, "benchmark": bench, "value": float(value), "stderr": 1.0})
    return results(*rows)


def test_simulation_without_noise_reruns_the_definition_exactly():
    frame = _frame({"x/gappy": (50, None, 50), "x/alone": (None, None, 70)})
    board = aiiq.compute(DEF, frame, None)
    samples, *_ = u.aiiq_samples(DEF, frame, {b: PERCENT for b in ("b1", "b2", "b3")}, 1, 0.95, noise=False)
    for row in board["rows"]:
        assert samples[row["model"]][0] == pytest.approx(row["value"], abs=1e-4), row["model"]


def test_imputed_components_widen_the_interval():
    frame = _frame({"x/full": (50, 50, 50), "x/gappy": (50, None, 50)})
    samples, _, extras, table = u.aiiq_samples(DEF, frame, {b: PERCENT for b in ("b1", "b2", "b3")}, 4000, 0.95)
    full = u.quantile_interval(samples["x/full"][:, None], 0.95)[:, 0]
    gappy = u.quantile_interval(samples["x/gappy"][:, None], 0.95)[:, 0]
    # Fully observed: composite = (b1 + b2) / 4 + b3 / 2 with sd 1 each -> sd sqrt(1/16 + 1/16 + 1/4) = 0.612,
    # 95% width 2.40. With b2 imputed, the b2 rule's leave-one-out rmse (tens of IQ points) enters at weight 1/4.
    assert full[1] - full[0] == pytest.approx(2 * 1.96 * math.sqrt(0.375), rel=0.1)
    assert gappy[1] - gappy[0] > 3 * (full[1] - full[0])
    # Imputed share: b2 is 1 of d1's 2 benchmarks, and d1 is 1 of 2 dimensions -> 1/4.
    assert extras["x/gappy"][1] == pytest.approx(0.25) and extras["x/full"][1] == 0.0
    assert {row["component"] for row in table} == {"b1", "b2", "b3", "d2"}


def test_rows_with_their_own_interval_get_ranks_and_keep_the_interval():
    board = {"index": "hle", "rows": [
        {"model": "a", "value": 50.0, "rank": 1, "interval": [48.0, 52.0], "interval_how": "observed"},
        {"model": "b", "value": 30.0, "rank": 2, "interval": [28.0, 32.0], "interval_how": "observed"},
        {"model": "c", "value": 29.5, "rank": 3, "interval": [27.5, 31.5], "interval_how": "published"},
        {"model": "d", "value": 10.0, "rank": 4, "interval": None}]}
    u.rank_from_row_intervals(board, 2000, 0.95)
    rows = {r["model"]: r for r in board["rows"]}
    # a is 20 points clear (sd about 1); b and c are 0.5 apart with sd about 1 each, so they swap often;
    # d has no interval and is held fixed, far below.
    assert rows["a"]["rank_interval"] == [1, 1] and rows["a"]["tier"] == 1
    assert rows["b"]["rank_interval"] == [2, 3] and rows["c"]["rank_interval"] == [2, 3]
    assert rows["b"]["tier"] == rows["c"]["tier"] == 2
    assert rows["d"]["rank_interval"] == [4, 4] and rows["d"]["tier"] == 3
    assert rows["c"]["interval"] == [27.5, 31.5] and rows["c"]["interval_how"] == "published"
    assert board["uncertainty"]["held_fixed"] == 1


def test_csv_carries_the_uncertainty_columns():
    from sitegen.export import to_csv

    board = {"benchmark": "x", "rows": [{"model": "a", "value": 50.0, "rank": 1, "interval": [48.0, 52.0],
                                         "interval_how": "published", "rank_interval": [1, 2], "tier": 1}],
             "uncertainty": {"simulations": 10}}
    header, line = to_csv(board).splitlines()
    assert header.endswith(",interval_low,interval_high,interval_how,rank_low,rank_high,tier")
    assert line.endswith(",48.0,52.0,published,1,2,1")


def test_components_carry_their_own_interval():
    frame = _frame({"x/gappy": (50, None, 50)})
    d = dict(DEF, uncertainty={"simulations": 200, "level": 0.95})
    board = aiiq.compute(d, frame, None)
    u.annotate_index(d, board, frame, None, {b: PERCENT for b in ("b1", "b2", "b3")})
    row = next(r for r in board["rows"] if r["model"] == "x/gappy")
    comps = {c["id"]: c for c in row["components"]}
    # b1 observed with stderr 1: 50 ± 1.959964, mapped through the identity anchor table.
    assert comps["b1"]["interval"] == pytest.approx([48.040036, 51.959964])
    assert comps["b1"]["interval_how"] == "published"
    # b2 imputed: its value moved by -bias (within the held-out cases' observed range), ± 1.959964 ×
    # sqrt(se² + sd²) of the b2 rule, within the anchor table's range [0, 100].
    rule = next(r for r in board["imputation_calibration"] if r["component"] == "b2" and r["rule"] == "benchmark")
    v = comps["b2"]["value"]
    moved = v - rule["bias"] if rule["fitted"][0] <= v <= rule["fitted"][1] else v
    centre = min(max(moved, min(rule["seen"][0], v)), max(rule["seen"][1], v))
    half = 1.959964 * math.sqrt(rule["se"] ** 2 + rule["sd"] ** 2)
    assert comps["b2"]["interval"] == pytest.approx([max(centre - half, 0.0), min(centre + half, 100.0)])
    assert row["interval_measurement"][0] < row["value"] < row["interval_measurement"][1]
    assert row["interval_how"] == "derived" and row["interval"][0] < row["value"] < row["interval"][1]
    assert row["imputed_share"] == pytest.approx(0.25) and row["tier"] is not None


# The board's value and every draw come from one function per index (aa/eq/aiiq.index_values): a simulation that
# perturbs nothing gets the board's value exactly, by the path without noise and by the noise path with spreads of
# zero (a published standard error of 0).

def test_weighted_mean_perturbed_by_nothing_is_the_board_value():
    from sitegen.indices import aa

    definition = {"id": "t", "name": "T", "version": "1", "kind": "weighted-mean", "unit": "points",
                  "description": "t", "source_snapshot": "snap",
                  "constituents": [{"benchmark": "a", "weight": 1}, {"benchmark": "b", "weight": 1},
                                   {"benchmark": "c", "weight": 2}]}
    frame = results(*({"model": m, "benchmark": b, "value": v, "source": "snap"}
                      for m, values in {"o/m": (50.0, 60.0, 70.0), "o/n": (40.0, 41.0, 42.5)}.items()
                      for b, v in zip("abc", values)),
                    {"model": "o/x", "benchmark": "a", "value": 90.0, "source": "snap"})  # incomplete: no value
    board = aa.compute(definition, frame, None)
    values = {r["model"]: r["value"] for r in board["rows"]}
    # (50 + 60 + 2 x 70) / 4 = 62.5; (40 + 41 + 2 x 42.5) / 4 = 41.5; o/x lacks b and c.
    assert values == {"o/m": 62.5, "o/n": 41.5, "o/x": None}
    for fed, noise, sims in ((frame, False, 1), (frame.assign(stderr=0.0), True, 7)):
        samples, _ = u.weighted_mean_samples(definition, fed, {b: POINTS for b in "abc"}, sims, 0.95, noise)
        assert sorted(samples) == ["o/m", "o/n"]
        assert all(samples[m].tolist() == [values[m]] * sims for m in samples)


def test_eq_perturbed_by_nothing_is_the_board_value():
    from sitegen.indices import eq

    from indexkit import definition, models

    frame = results({"model": "anthropic/claude", "benchmark": "eq-bench-3", "value": 1500.0, "source": "eq-bench"},
                    {"model": "anthropic/claude", "benchmark": "lmarena-text", "value": 1400.0, "source": "lmarena"},
                    {"model": "openai/gpt", "benchmark": "lmarena-text", "value": 1425.0, "source": "lmarena"})
    people = models({"model": "anthropic/claude", "organization": "Anthropic"},
                    {"model": "openai/gpt", "organization": "OpenAI"})
    d = definition("ai-eq")
    values = {r["model"]: r["value"] for r in eq.compute(d, frame, people)["rows"]}
    # claude: eq-bench 1500 - 200 = 1300 -> 105, lmarena 1400 -> 113, mean 109; gpt: 1425 -> 117.5 alone.
    assert values == {"anthropic/claude": 109.0, "openai/gpt": 117.5}
    for fed, noise, sims in ((frame, False, 1), (frame.assign(stderr=0.0), True, 7)):
        samples, comps = u.eq_samples(d, fed, people, {}, sims, 0.95, noise)
        assert {m: s.tolist() for m, s in samples.items()} == {m: [v] * sims for m, v in values.items()}
        assert comps.shift[("anthropic/claude", "eq-bench-3")] == -200.0  # what its interval is mapped with


def test_aiiq_perturbed_by_nothing_is_the_board_value():
    # x/gappy: b2 imputed at benchmark level; x/nod2: d2 imputed at dimension level.
    frame = _frame({"x/gappy": (50, None, 50), "x/nod2": (70, 80, None)})
    values = {r["model"]: r["value"] for r in aiiq.compute(DEF, frame, None)["rows"]}
    # x/gappy: b2 = min(own 50, P50 of b2 {60, 80, 40, 90, 30, 80} = 60) = 50 -> d1 50; d2 50 -> composite 50.
    # x/nod2: d1 = 75; d2 = min(75, P50 of d2 {30, 45, 55, 65, 35, 50} = 45) -> composite (75 + 45) / 2 = 60.
    assert values["x/gappy"] == 50.0 and values["x/nod2"] == 60.0
    samples, *_ = u.aiiq_samples(DEF, frame, {b: PERCENT for b in ("b1", "b2", "b3")}, 1, 0.95, noise=False)
    assert {m: s.tolist() for m, s in samples.items()} == {m: [v] for m, v in values.items()}
    # Nothing imputed and every spread zero: the noise path leaves every draw at the board value.
    frame = _frame({}).assign(stderr=0.0)
    values = {r["model"]: r["value"] for r in aiiq.compute(DEF, frame, None)["rows"]}
    assert values["o/m3"] == (70 + 90) / 4 + 65 / 2  # 72.5
    samples, *_ = u.aiiq_samples(DEF, frame, {b: PERCENT for b in ("b1", "b2", "b3")}, 7, 0.95)
    assert {m: s.tolist() for m, s in samples.items()} == {m: [v] * 7 for m, v in values.items()}


# ------------------------------------------------------------------------------------ AI IQ: family match

# Both dimensions imputable, so that the dimension P80 (taken over min-of-two values only) can be seen.
FAM_DEF = dict(DEF, family_match=True, dimensions=[
    {"id": "d1", "imputable": True, "benchmarks": [{"benchmark": "b1", "anchors": IDENTITY},
                                                    {"benchmark": "b2", "anchors": IDENTITY}]},
    {"id": "d2", "imputable": True, "benchmarks": [{"benchmark": "b3", "anchors": IDENTITY}]},
])
# Release f, all reasoning configurations, at efforts 1, 1, 2, 3 and 4 (f/a and f/b cannot be ordered: neither
# takes the other's score); o/y has no release. IQ = raw score (identity anchors).
FAM_PEOPLE = pd.DataFrame([{"model": m, "release": r, "reasoning": t, "effort": e, "effort_rank": k}
                           for m, r, t, e, k in (
    ("f/a", "f", True, "low", 1.0), ("f/b", "f", True, "low", 1.0), ("f/c", "f", True, "medium", 2.0),
    ("f/d", "f", True, "high", 3.0), ("f/x", "f", True, "xhigh", 4.0), ("o/y", None, None, None, math.nan))])
#            b1    b2    b3      (f/c has no b2; o/y has only b3)
FAM = {"f/a": (10, 50, 20), "f/b": (20, 60, 40), "f/c": (30, None, 60), "f/d": (30, 40, 50),
       "f/x": (40, 70, 80), "o/y": (None, None, 90)}


def _raw(table: dict[str, tuple], *draws: dict[str, tuple]) -> u.Scores:
    """Raw scores (draws x models, in `table`'s order; None: no score): row 0 from `table`, later rows with
    `draws` replacing some models' scores."""
    rows = [table] + [{**table, **d} for d in draws]
    return u.Scores.from_dense({b: np.array([[np.nan if r[m][i] is None else r[m][i] for m in table] for r in rows],
                                            float) for i, b in enumerate(("b1", "b2", "b3"))})


def _relatives(table: dict[str, tuple]) -> dict:
    real = {b: {m: v[i] for m, v in table.items() if v[i] is not None} for i, b in enumerate(("b1", "b2", "b3"))}
    return u.family_relatives(FAM_DEF, FAM_PEOPLE, list(table), real)


def test_family_relatives_are_the_nearest_lower_effort_with_a_real_score():
    rel = _relatives(FAM)
    a, b, c, d, x = 0, 1, 2, 3, 4
    # f/a and f/b (both effort 1) have no lower sibling; f/c (effort 2) has two at effort 1; f/d (effort 3) takes
    # f/c (effort 2) where f/c has a real score, else f/a and f/b; f/x (effort 4) takes f/d; o/y has no release.
    assert {j: s.tolist() for j, s in rel["b1"].items()} == {c: [a, b], d: [c], x: [d]}
    assert {j: s.tolist() for j, s in rel["b2"].items()} == {c: [a, b], d: [a, b], x: [d]}
    assert u.family_relatives(dict(FAM_DEF, family_match=False), FAM_PEOPLE, list(FAM), {"b1": {}}) == {}


def _column(pair: tuple, j: int) -> list[float]:
    """Model column j's draws from an aiiq.index_values result, kept as (columns, draws x those columns)."""
    cols, values = pair
    return values[:, cols.tolist().index(j)].tolist()


def test_family_match_takes_the_lower_sibling_in_each_draw_and_keeps_p80_min_of_two():
    # Two draws; in the second f/a and f/b swap order on b2 (f/c's siblings for its missing b2).
    raw = _raw(FAM, {"f/a": (10, 65, 20), "f/b": (20, 55, 40)})
    out = aiiq.index_values(FAM_DEF, raw, relatives=_relatives(FAM))
    c, y = 2, 5
    # f/c: d1 = (b1 30 + the lower sibling's b2) / 2 = (30 + min(50, 60)) / 2 = 40, then (30 + min(65, 55)) / 2
    # = 42.5; composite with d2 = 60: 50 and 51.25.
    assert _column(out["dims"]["d1"], c) == [40.0, 42.5]
    assert _column(out["composite"], c) == [50.0, 51.25]
    # The P80 population of d1 holds f/c's min-of-two value, min(own 30, P50 of b2), = 30 in both draws:
    # draw 0: d1 = f/a 30, f/b 40, f/c 30, f/d 35, f/x 55 -> 3rd of 5 = 35 (with f/c's 40 it would be 40);
    # draw 1: f/a 37.5, f/b 37.5, f/c 30, f/d 35, f/x 55 -> 37.5.
    assert _column(out["plain"]["d1"], c) == [30.0, 30.0]
    # o/y has d2 only (90): its d1 is imputed as min(90, P50 of d1) -> composite (35 + 90) / 2, (37.5 + 90) / 2.
    assert _column(out["composite"], y) == [62.5, 63.75]
    assert _column(out["imputed"]["d1"], y) == [35.0, 37.5]
    assert y not in out["dims"]["d1"][0]  # the dimension's own IQs hold only the models scored on it
    # Imputed share: f/c's b2 is 1 of d1's 2 benchmarks, d1 1 of 2 dimensions; o/y's d1 is 1 of 2 dimensions.
    assert out["imputed_share"][[c, y]].tolist() == [0.25, 0.5]


def test_calibration_table_has_a_family_rule():
    five = {m: v for m, v in FAM.items() if m != "o/y"}
    # five folds for five models: out of fold is leave one out, so the P80s below leave the case's model out
    table = {(r["rule"], r["component"]): r for r in u.imputation_calibration(FAM_DEF, _raw(five), _relatives(five),
                                                                              list(five), folds=5)}
    # b1, hiding each model's real b1 that has a sibling and another real benchmark in d1 (f/c has none; f/a and
    # f/b have no sibling): f/d takes f/c's 30 (0), f/x takes f/d's 30 (-10) -> bias -5, sd 7.071068, se 5; two
    # cases are fewer than MIN_CASES, so no spread.
    fam = table[("family", "b1")]
    assert (fam["dimension"], fam["cases"], fam["bias"], fam["sd"]) == ("d1", 2, -5.0, None)
    # b2: f/d min(50, 60) - 40 = +10, f/x 40 - 70 = -30 -> bias -10.
    assert table[("family", "b2")]["bias"] == -10.0
    # b3 is alone in d2: no case.
    assert table[("family", "b3")]["cases"] == 0 and table[("family", "b3")]["sd"] is None
    # Dimension rule for d1: hide d1, impute min(d2, P50 of the other models' min-of-two d1 values
    # {f/a 30, f/b 40, f/c 30, f/d 35, f/x 55}), compare with d1 as the board has it (f/c's with family match, 40):
    # f/a min(20, 35) - 30 = -10; f/b min(40, 30) - 40 = -10; f/c min(60, 35) - 40 = -5; f/d min(50, 30) - 35 = -5;
    # f/x min(80, 30) - 55 = -25 -> bias -11; deviations 1 1 6 6 -14, squares 270, sd sqrt(270 / 4), se sd / sqrt 5.
    d1 = table[("dimension", "d1")]
    assert d1["cases"] == 5 and d1["bias"] == pytest.approx(-11.0) and d1["sd"] == pytest.approx(math.sqrt(67.5))
    assert d1["se"] == pytest.approx(math.sqrt(67.5 / 5))
    # d2: the other dimension is d1 with family match: f/a min(30, 50) - 20 = 10; f/b min(40, 50) - 40 = 0;
    # f/c min(40, 40) - 60 = -20; f/d min(35, 40) - 50 = -15; f/x min(55, 40) - 80 = -40 -> bias -13;
    # deviations 23 13 -7 -2 -27, squares 1480, sd sqrt(370).
    d2 = table[("dimension", "d2")]
    assert d2["bias"] == pytest.approx(-13.0) and d2["sd"] == pytest.approx(math.sqrt(370))
    # Without family match there is no family rule, and f/c's d1 is its min-of-two value, 30: its d1 case becomes
    # min(60, 35) - 30 = +5 -> bias (-10 - 10 + 5 - 5 - 25) / 5 = -9.
    plain = {(r["rule"], r["component"]): r for r in u.imputation_calibration(dict(FAM_DEF, family_match=False),
                                                                              _raw(five), {}, list(five), folds=5)}
    assert not [key for key in plain if key[0] == "family"]
    assert plain[("dimension", "d1")]["bias"] == pytest.approx(-9.0)


def _fam_frame() -> object:
    return results(*({"model": m, "benchmark": b, "value": float(v), "stderr": 1.0}
                     for m, values in FAM.items() for b, v in zip(("b1", "b2", "b3"), values) if v is not None))


def test_simulation_without_noise_reruns_family_match_exactly():
    frame = _fam_frame()
    board = aiiq.compute(FAM_DEF, frame, FAM_PEOPLE)
    samples, *_ = u.aiiq_samples(FAM_DEF, frame, {b: PERCENT for b in ("b1", "b2", "b3")}, 1, 0.95, noise=False,
                                 models=FAM_PEOPLE)
    rows = {r["model"]: r for r in board["rows"]}
    assert rows["f/c"]["value"] == 50.0 and rows["o/y"]["value"] == 62.5  # as in the arrays test, draw 0
    for model, row in rows.items():
        assert samples[model][0] == row["value"], model


def test_family_matched_component_is_widened_by_the_family_rule():
    frame = _fam_frame()
    d = dict(FAM_DEF, uncertainty={"simulations": 200, "level": 0.95})
    board = aiiq.compute(d, frame, FAM_PEOPLE)
    u.annotate_index(d, board, frame, FAM_PEOPLE, {b: PERCENT for b in ("b1", "b2", "b3")})
    row = next(r for r in board["rows"] if r["model"] == "f/c")
    b2 = next(c for c in row["components"] if c["id"] == "b2")
    # f/c's b2 is f/a's real 50; the family rule has two held-out cases on b2 (see the table test): fewer than
    # MIN_CASES, so no estimate, and the component says so.
    assert (b2["sibling"], b2["value"]) == ("f/a", 50.0)
    assert b2["interval"] is None and "family-match rule" in b2["interval_reason"] and "too few" in b2["interval_reason"]
    assert "not estimable" in row["interval_reason"] and "b2 (family match)" in row["interval_reason"]
    assert {(r["rule"], r["component"]) for r in board["imputation_calibration"]} >= {("family", "b2"),
                                                                                       ("benchmark", "b2")}


def test_the_simulation_reproduces_every_board_of_the_repository(real_computed):
    """Every row an index computes from components gets an interval on the repository's data (the draws run the
    board's own function, so none can be refused for not reproducing its value)."""
    computed = real_computed  # tests/conftest.py: computed once per session
    for board_id in ("aa-intelligence-v2-2", "aa-intelligence-v3-0", "ai-iq", "ai-eq"):
        rows = computed.boards[board_id]["rows"]
        computed_rows = [r for r in rows if r["value"] is not None and r["status"] != "published"
                         and "manual" not in r]
        assert computed_rows and all(r["interval"] or r["interval_reason"] == u.NO_SPREAD for r in computed_rows), \
            board_id
        assert any(r.get("interval") for r in rows) and any(r.get("tier") for r in rows), board_id
    # AA's HLE constituent is AA's own question set (subset aa-2684): its binomial interval has n = 2,684.
    z = u.z_of(0.95)
    for board_id in ("aa-intelligence-v2-2", "aa-intelligence-v3-0"):
        hle = [c for r in computed.boards[board_id]["rows"] if r["rank"] for c in r["components"] if c["id"] == "hle"]
        assert hle and all(c["subset"] == "aa-2684" for c in hle), board_id
        for c in hle:
            assert c["interval"] == pytest.approx([100 * x for x in u.wilson(c["value"] / 100, 2684, z)]), board_id


def test_published_interval_that_misses_its_value_is_recentred():
    s = u.spread({"value": 10.0, "ci_low": 11.0, "ci_high": 13.0, "source": "x"}, POINTS)
    assert s["interval"] == pytest.approx([9.0, 11.0])  # same width (2), centred on the value
    assert "re-centred" in s["interval_reason"]


def test_imputed_interval_is_the_simulations_rule_on_one_value():
    rule = {"bias": -10.0, "se": 3.0, "sd": 4.0, "seen": [90.0, 125.0], "fitted": [95.0, 130.0]}
    z = 1.959964
    # 100 is inside the rule's fitted range: moved by +10 to 110, ± z × 5 = ± 9.79982 -> [100.2002, 119.7998]
    assert u.imputed_interval(100.0, rule, z, None) == pytest.approx([100.20018, 119.79982])
    # clipped to the anchor range [70, 115]
    assert u.imputed_interval(100.0, rule, z, (70.0, 115.0)) == pytest.approx([100.20018, 115.0])
    # 90 is below the fitted range: not moved; [80.2002, 99.7998]; an anchor floor of 85 stops the low end
    assert u.imputed_interval(90.0, rule, z, (85.0, 115.0)) == pytest.approx([85.0, 99.79982])
    # the same numbers as the arrays' functions
    for value in (90.0, 100.0, 128.0):
        centre = float(u.calibrated_centre(value, rule["bias"], rule["seen"], rule["fitted"]))
        lo, hi = (float(u.within(x, value, (85.0, 115.0))) for x in (centre - z * 5, centre + z * 5))
        assert u.imputed_interval(value, rule, z, (85.0, 115.0)) == pytest.approx([lo, hi])


def test_a_component_with_too_few_cases_takes_its_rules_pooled_error(monkeypatch):
    monkeypatch.setattr(u, "MIN_CASES", 3)
    five = {m: v for m, v in FAM.items() if m != "o/y"}
    table = {(r["rule"], r["component"]): r for r in u.imputation_calibration(FAM_DEF, _raw(five), _relatives(five),
                                                                              list(five), folds=5)}
    # family: b1 errors 0, -10 and b2 +10, -30 (see the table test): two each, below 3, so both take the pooled four:
    # rmse sqrt((0 + 100 + 100 + 900) / 4) = sqrt(275) as the own term; mean -7.5, sd sqrt(875 / 3), se sd / 2;
    # no bias corrected (shift 0), while the row still reports its own bias
    for bench, bias in (("b1", -5.0), ("b2", -10.0)):
        row = table[("family", bench)]
        assert (row["cases"], row["bias"], row["shift"], row["pooled"]) == (2, bias, 0.0, 4)
        assert row["sd"] == pytest.approx(math.sqrt(275)) and row["se"] == pytest.approx(math.sqrt(875 / 3) / 2)
        assert "its 4 cases on every component" in row["reason"]
    # a rule with enough cases of its own keeps its own fit and corrects its bias (dimension d1: -11, see above)
    d1 = table[("dimension", "d1")]
    assert d1["shift"] == d1["bias"] == pytest.approx(-11.0) and "pooled" not in d1


def test_a_kept_draw_spec_is_spreads_and_only_the_same_fields_and_entry_reuse_it():
    bench = {"id": "b", "scale": {"unit": "percent", "min": 0, "max": 100}, "questions": [{"count": 200}]}
    rec = {"value": 50.0, "stderr": 2.0, "source": "s", "ci_low": float("nan")}
    outside = u.draw_spec(rec, bench, 0.95)
    assert outside == (("split-normal", 50.0, 2.0, 2.0, 0, 100), "published") and u._SPECS is None
    with u.kept_normals():
        assert u.draw_spec(rec, bench, 0.95) == outside
        assert u.draw_spec(dict(rec), bench, 0.95) == outside  # another record with the same fields: kept
        assert len(u._SPECS) == 1
        assert u.draw_spec({**rec, "stderr": 3.0}, bench, 0.95)[0][2:4] == (3.0, 3.0)  # another field
        binomial = u.draw_spec({"value": 50.0, "source": "s"}, bench, 0.95)
        assert binomial == (u.spread({"value": 50.0, "source": "s"}, bench, 0.95)["draw"], "derived")
        more = {**bench, "questions": [{"count": 800}]}  # another entry for the same benchmark id: its own draw
        assert u.draw_spec({"value": 50.0, "source": "s"}, more, 0.95)[0][2] < binomial[0][2]
        assert u.draw_spec(rec, bench, 0.8)[0][2] == 2.0 and len(u._SPECS) == 5  # another level: its own entry
        assert u.draw_spec({"value": -0.0, "source": "s", "stderr": 1.0}, bench, 0.95)[0][1] == 0.0
        assert len(u._SPECS) == 6
        assert math.copysign(1.0, u.draw_spec({"value": 0.0, "source": "s", "stderr": 1.0}, bench, 0.95)[0][1]) == 1
        assert len(u._SPECS) == 7  # -0.0 and 0.0 are kept apart
    assert u._SPECS is None  # nothing is kept outside the block


def test_centring_all_columns_at_once_moves_each_by_its_own_median():
    # four draws each (the simulation's case: as many draws for every row): the medians are 2.5, 25 and 0.5
    draws = {"a": np.array([4.0, 1.0, 3.0, 2.0]), "b": np.array([10.0, 40.0, 20.0, 30.0]), "c": np.zeros(4) + 0.5}
    board = {"rows": [{"model": "a", "value": 3.0}, {"model": "b", "value": 20.0}, {"model": "c", "value": None}]}
    moved, alone = u.centre_on_values(board, draws, draws)
    assert moved["a"].tolist() == [4.5, 1.5, 3.5, 2.5] and moved["b"].tolist() == [5.0, 35.0, 15.0, 25.0]
    assert moved["c"].tolist() == [0.5] * 4 and alone is moved  # no value: not moved
    assert u._by_column([draws["a"], draws["b"]]).flags.f_contiguous


# ------------------------------------------------------------------------ AI IQ: implied IQ draws kept (MappedDraws)

MAP_BENCH = {"id": "x", "scale": {"unit": "percent", "min": 0, "max": 100}}  # no question count: no binomial draw
MAP_ANCHORS = [[0, 70], [100, 130]]  # IQ = 70 + 0.6 x score


def _mapped(draws: u.MappedDraws, values: dict, component: str = "x") -> tuple[u.Components, np.ndarray, np.ndarray]:
    comps = u.Components("map-test", ["a", "b", "c"], 50, 0.95)
    cols, iq = comps.mapped_columns(component, values, MAP_BENCH, MAP_ANCHORS, draws)
    return comps, cols, iq


def test_mapped_columns_are_the_drawn_columns_mapped_and_a_second_run_draws_nothing(monkeypatch):
    # a: 50 +- z x 2 (drawn); b: 30 with no interval (held at IQ 70 + 0.6 x 30 = 88 in every draw); c: no value
    values = {"a": {"value": 50.0, "stderr": 2.0, "source": "s"}, "b": {"value": 30.0, "source": "s"}}
    draws = u.MappedDraws()
    comps, cols, iq = _mapped(draws, values)
    plain = u.Components("map-test", ["a", "b", "c"], 50, 0.95)
    raw_cols, raw = plain.columns("x", values, MAP_BENCH)
    assert cols.tolist() == raw_cols.tolist() == [0, 1]
    assert np.array_equal(iq, interpolate_rows(MAP_ANCHORS, raw))  # the same numbers, to the bit
    assert iq[:, 1].tolist() == [88.0] * 50 and iq[:, 0].std() > 0
    assert (comps.methods, comps.fixed) == (plain.methods, plain.fixed) == (
        {"a": {"published": 1}, "b": {}, "c": {}}, {"a": [], "b": ["x"], "c": []})
    assert len(draws.kept) == 1  # a's column; b's is not drawn
    # the simulation's second run: the kept column and the first run's plan, no stream drawn again; its own notes
    monkeypatch.setattr(u, "stream", lambda *keys: pytest.fail(f"drew {keys} again"))
    again, cols2, iq2 = _mapped(draws, {})  # the plan is the first run's: the values are not read again
    assert cols2.tolist() == [0, 1] and np.array_equal(iq2, iq)
    assert (again.methods, again.fixed) == (comps.methods, comps.fixed)


def test_a_kept_column_serves_only_its_own_stream_draw_and_table():
    values = {"a": {"value": 50.0, "stderr": 2.0, "source": "s"}, "b": {"value": 50.0, "stderr": 2.0, "source": "s"}}
    kept: dict = {}
    _, _, first = _mapped(u.MappedDraws(kept, 50), values)
    assert len(kept) == 2 and not np.array_equal(first[:, 0], first[:, 1])  # one stream per model
    moved = {**values, "b": {"value": 50.0, "stderr": 3.0, "source": "s"}}  # b's draw changed: drawn anew
    _, _, second = _mapped(u.MappedDraws(kept, 50), moved)
    assert np.array_equal(second[:, 0], first[:, 0]) and len(kept) == 3
    assert np.allclose(second[:, 1] - 100, (first[:, 1] - 100) * 1.5)  # the same stream, sd 3 instead of 2
    with u.seed_salt("1"):  # other seeds: other columns
        _, _, salted = _mapped(u.MappedDraws(kept, 50), values)
    assert not np.array_equal(salted[:, 0], first[:, 0]) and len(kept) == 5


def test_mapped_draws_keep_no_more_than_the_budget_and_drop_what_was_not_read(monkeypatch):
    monkeypatch.setattr(u, "MAPPED_BUDGET", 8 * 50)  # room for one column of 50 draws
    values = {"a": {"value": 50.0, "stderr": 2.0, "source": "s"}, "b": {"value": 40.0, "stderr": 2.0, "source": "s"}}
    kept: dict = {}
    first = u.MappedDraws(kept, 50)
    _, _, iq = _mapped(first, values)
    first.prune()
    assert [k[0] for k in kept] == ["a"]  # b's column made, not kept
    later = u.MappedDraws(kept, 50)
    _, _, again = _mapped(later, {"b": values["b"]}, "y")  # reads none of the kept columns
    later.prune()
    assert kept == {}  # full, and a's column was not read: dropped


def test_aiiq_draws_kept_across_months_are_the_draws_made_afresh():
    # two "months": x/late joins in the second; inside a kept_normals block its draws reuse the first month's columns
    early, late = _frame({"x/full": (50, 50, 50)}), _frame({"x/full": (50, 50, 50), "x/late": (40, None, 60)})
    benches = {b: PERCENT for b in ("b1", "b2", "b3")}
    fresh = u.aiiq_samples(DEF, late, benches, 60, 0.95)
    with u.kept_normals():
        u.aiiq_samples(DEF, early, benches, 60, 0.95)
        assert len(u._MAPPED["iq-test"]) > 0
        kept = u.aiiq_samples(DEF, late, benches, 60, 0.95)
    assert u._MAPPED is None
    assert fresh[0].keys() == kept[0].keys()
    assert all(np.array_equal(fresh[0][m], kept[0][m]) for m in fresh[0])
    assert all(np.array_equal(fresh[1].measurement[m], kept[1].measurement[m]) for m in fresh[1].measurement)
    assert fresh[1].bounds == kept[1].bounds and fresh[2] == kept[2] and fresh[3] == kept[3]


def test_a_kept_spread_and_mapped_bound_are_spreads_and_interpolates():
    bench = {"id": "b", "scale": {"unit": "percent", "min": 0, "max": 100}, "questions": [{"count": 200}]}
    rec = {"value": 50.0, "stderr": 2.0, "source": "s"}
    anchors = [[0, 70], [100, 130]]
    with u.kept_normals():
        first = u.spread_of(rec, bench, 0.95)
        assert first == u.spread(rec, bench, 0.95) and u.spread_of(dict(rec), bench, 0.95) is first
        assert u._mapped_bound(anchors, 50.0) == 100.0 and u._mapped_bound(anchors, 25.0) == 85.0  # 70 + 0.6 x
        size = len(u._SPECS)
        assert u._mapped_bound(anchors, 50.0) == 100.0 and len(u._SPECS) == size  # kept
        assert u._mapped_bound([list(a) for a in anchors], 50.0) == 100.0 and len(u._SPECS) == size + 1  # own table
    assert u.spread_of(rec, bench, 0.95) is not first  # outside the block: worked out each time


def test_component_intervals_inside_a_kept_normals_block_are_those_outside():
    frame = _frame({"x/full": (50, 50, 50), "x/gappy": (50, None, 50)})
    benches = {b: {**PERCENT, "questions": [{"count": 400}]} for b in ("b1", "b2", "b3")}
    drawn = dict(DEF, uncertainty={"simulations": 50, "level": 0.95})
    outside = u.annotate_index(drawn, aiiq.compute(drawn, frame, None), frame, None, benches)
    with u.kept_normals():
        inside = u.annotate_index(drawn, aiiq.compute(drawn, frame, None), frame, None, benches)
        again = u.annotate_index(drawn, aiiq.compute(drawn, frame, None), frame, None, benches)
    for board in (inside, again):
        assert [r["components"] for r in board["rows"]] == [r["components"] for r in outside["rows"]]
    first = next(c for c in inside["rows"][0]["components"] if c.get("interval"))
    assert first["interval"] is not next(c for c in again["rows"][0]["components"] if c.get("interval"))["interval"]
