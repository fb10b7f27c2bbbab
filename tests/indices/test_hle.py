"""Humanity's Last Exam: Wald interval, calibration error as upstream, published fall-backs, boards."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import json

import jsonschema
import yaml

from sitegen.indices import hle

ROOT = Path(__file__).resolve().parents[2]
DEFINITION = yaml.safe_load((ROOT / "methodology/indices/hle.yaml").read_text(encoding="utf-8"))
CAL = DEFINITION["calibration"]

RESULT_COLUMNS = ["model", "benchmark", "metric", "subset", "harness", "value", "source", "retrieved",
                  "url", "n", "stderr", "ci_low", "ci_high", "self_reported", "origin"]


def results_frame(*rows: dict) -> pd.DataFrame:
    """A results frame with ARCHITECTURE.md's columns; unspecified cells take neutral defaults."""
    base = {"metric": "", "subset": "", "harness": "", "source": "hle-paper", "retrieved": "2025-04-01",
            "url": "", "n": math.nan, "stderr": math.nan, "ci_low": math.nan, "ci_high": math.nan,
            "self_reported": False, "origin": "scores/imported/hle-paper.yaml", "benchmark": "hle"}
    return pd.DataFrame([{**base, **r} for r in rows], columns=RESULT_COLUMNS)


EMPTY_RESULTS = results_frame().iloc[0:0]
MODELS = pd.DataFrame({"model": []})


def raw(groups: list[tuple[int, float | None, int]], subject: str | None = None) -> pd.DataFrame:
    """Per-question rows from (count, confidence, correct-count) groups; correct rows come first in a group."""
    rows = []
    for count, conf, k in groups:
        for i in range(count):
            row = {"id": f"q{len(rows)}", "correct": i < k, "confidence": conf}
            if subject:
                row["subject"] = subject
            rows.append(row)
    return pd.DataFrame(rows)


# --- the upstream function, verbatim (hle_eval/run_judge_results.py, from Hendrycks et al.), as an oracle --
def upstream_calib_err(confidence, correct, p='2', beta=100):
    idxs = np.argsort(confidence)
    confidence = confidence[idxs]
    correct = correct[idxs]
    bins = [[i * beta, (i + 1) * beta] for i in range(len(confidence) // beta)]
    bins[-1] = [bins[-1][0], len(confidence)]
    cerr = 0
    total_examples = len(confidence)
    for i in range(len(bins) - 1):
        bin_confidence = confidence[bins[i][0]:bins[i][1]]
        bin_correct = correct[bins[i][0]:bins[i][1]]
        num_examples_in_bin = len(bin_confidence)
        if num_examples_in_bin > 0:
            difference = np.abs(np.nanmean(bin_confidence) - np.nanmean(bin_correct))
            if p == '2':
                cerr += num_examples_in_bin / total_examples * np.square(difference)
    if p == '2':
        cerr = np.sqrt(cerr)
    return cerr


# --------------------------------------------------------------------------------------------------
# Accuracy interval
# --------------------------------------------------------------------------------------------------

def test_wald_interval_hand_computed():
    # p = 25/100 = 0.25; half = 1.96·sqrt(0.25·0.75/100) = 1.96·0.0433013 = 0.0848705 -> 8.48705 points
    value, lo, hi, half = hle.wald_interval(25, 100, 1.96)
    assert value == pytest.approx(25.0)
    assert half == pytest.approx(8.487049, abs=1e-6)
    assert (lo, hi) == (pytest.approx(16.512951, abs=1e-6), pytest.approx(33.487049, abs=1e-6))


def test_wald_interval_at_p_zero_and_one_has_zero_width():
    # p(1−p) = 0 at both ends, so the interval collapses onto the point.
    assert hle.wald_interval(0, 50, 1.96) == (0.0, 0.0, 0.0, 0.0)
    assert hle.wald_interval(50, 50, 1.96) == (100.0, 100.0, 100.0, 0.0)


def test_wald_interval_is_clamped_but_keeps_upstream_half_width():
    # p = 1/100; half = 1.96·sqrt(0.01·0.99/100) = sqrt(0.000099) = 1.96·0.00994987 = 0.0195018 -> lo would be −0.95 points; clamped to 0.
    value, lo, hi, half = hle.wald_interval(1, 100, 1.96)
    assert lo == 0.0
    assert half == pytest.approx(1.950175, abs=1e-6)
    assert hi == pytest.approx(1.0 + 1.950175, abs=1e-6)


def test_accuracy_counts_unanswered_questions_as_wrong_when_the_set_size_is_known():
    rows = raw([(10, 50, 5)])  # 5 of 10 answered correctly
    assert hle.accuracy_from_rows(rows, 1.96)["value"] == pytest.approx(50.0)
    known = hle.accuracy_from_rows(rows, 1.96, questions=20)  # upstream divides by the whole set: 5/20
    assert known["value"] == pytest.approx(25.0)
    assert known["coverage"] == {"have": 10, "of": 20}


def test_category_accuracy_per_subject_sorted():
    rows = pd.concat([raw([(4, 50, 1)], "Math"), raw([(2, 50, 2)], "Biology/Medicine")], ignore_index=True)
    comps = hle.category_accuracy(rows, 1.96)
    assert [c["id"] for c in comps] == ["Biology/Medicine", "Math"]
    assert [c["value"] for c in comps] == [100.0, 25.0]
    assert [c["n"] for c in comps] == [2, 4]
    assert all(c["how"] == "observed" for c in comps)
    assert hle.category_accuracy(raw([(3, 50, 1)]), 1.96) == []  # no subject column -> no categories


# --------------------------------------------------------------------------------------------------
# Calibration error, as upstream
# --------------------------------------------------------------------------------------------------

def test_calibration_hand_example_skips_the_last_bin():
    # 250 rows: 100 at confidence 20 with 10 correct, 100 at 60 with 30 correct, 50 at 90 all correct.
    # bins = [[0,100],[100,200]] -> last extended to [100,250]; the loop visits bin 0 only.
    # bin 0: mean confidence 0.20, accuracy 0.10, |diff| = 0.10; weight 100/250 = 0.4
    # cerr = 0.4 · 0.01 = 0.004; sqrt = 0.0632456; round(., 2) = 0.06; × 100 = 6.0
    rows = raw([(100, 20, 10), (100, 60, 30), (50, 90, 50)])
    assert hle.calibration_error(rows, CAL) == (6.0, None)
    conf = rows["confidence"].to_numpy(float) / 100
    corr = rows["correct"].to_numpy(bool)
    assert hle.calib_err(conf, corr) == pytest.approx(math.sqrt(0.004))
    assert upstream_calib_err(conf, corr) == pytest.approx(hle.calib_err(conf, corr))
    # Had the last bin been visited: + (150/250)·((0.6·100+0.9·50)/150 − 80/150)² = 0.6·(0.7−0.5333)²
    # = 0.6·0.027778 = 0.016667 -> sqrt(0.020667) = 0.1438 -> 14.0, which is NOT what upstream reports.


def test_calibration_exactly_200_rows_gives_a_value():
    # 100 at confidence 80 with 30 correct, 100 at 50 all correct. Sorted: the 50s (bin 0), the 80s (bin 1,
    # skipped). bin 0: |0.5 − 1.0| = 0.5, weight 100/200 -> cerr = 0.5·0.25 = 0.125; sqrt = 0.353553
    # -> round 0.35 -> 35.0
    rows = raw([(100, 80, 30), (100, 50, 100)])
    assert hle.calibration_error(rows, CAL) == (35.0, None)


def test_calibration_under_200_rows_gives_no_value_with_reason():
    rows = raw([(100, 80, 30), (99, 50, 99)])  # 199 rows: upstream would report 0 (one bin, skipped)
    value, reason = hle.calibration_error(rows, CAL)
    assert value is None
    assert "199 answered questions" in reason and "at least 200" in reason
    assert upstream_calib_err(rows["confidence"].to_numpy(float) / 100, rows["correct"].to_numpy(bool)) == 0
    with pytest.raises(IndexError):  # and under 100 rows upstream crashes
        upstream_calib_err(np.full(99, 0.5), np.ones(99, bool))
    assert hle.calibration_error(raw([(99, 50, 1)]), CAL)[0] is None


def test_missing_confidence_counts_as_100():
    # 300 rows: 100 at confidence 50 with 50 correct; 200 without a confidence, none correct (-> 1.0).
    # bins [[0,100],[100,200],[200,300]]; visited: bin 0 (|0.5−0.5| = 0) and bin 1 (|1.0 − 0| = 1,
    # weight 100/300). cerr = 1/3; sqrt = 0.57735 -> round 0.58 -> 58.0. (Bin 2 is skipped; had it
    # counted, sqrt(2/3) = 0.82 -> 82.)
    rows = raw([(100, 50, 50), (200, None, 0)])
    assert rows["confidence"].isna().sum() == 200
    assert hle.calibration_error(rows, CAL) == (58.0, None)
    # Without a confidence column at all every row counts as 100: 200 rows, none correct:
    # bin 0 |1.0 − 0| = 1, weight 0.5 -> sqrt(0.5) = 0.7071 -> 71.0
    assert hle.calibration_error(raw([(200, None, 0)]).drop(columns="confidence"), CAL) == (71.0, None)


def test_tied_confidences_bin_in_numpy_default_argsort_order():
    # Ties that straddle a bin boundary: which rows land in bin 0 is whatever np.argsort (default kind,
    # not stable) leaves; the engine must agree with upstream on this machine, not with a stable sort.
    conf = np.array([0.5] * 100 + [0.2] * 100 + [0.5] * 100)
    corr = np.array([True] * 100 + [False] * 200)
    assert hle.calib_err(conf, corr) == pytest.approx(upstream_calib_err(conf, corr))


def test_calib_err_other_norms_and_bad_norm():
    conf = np.array([0.2] * 100 + [0.6] * 100 + [0.9] * 50)
    corr = np.array([True] * 10 + [False] * 90 + [True] * 30 + [False] * 70 + [True] * 50)
    assert hle.calib_err(conf, corr, p="1") == pytest.approx(0.4 * 0.1)   # weight · |diff|
    assert hle.calib_err(conf, corr, p="max") == pytest.approx(0.1)
    with pytest.raises(ValueError):
        hle.calib_err(conf, corr, p="3")


# --------------------------------------------------------------------------------------------------
# Boards
# --------------------------------------------------------------------------------------------------

def test_boards_observed_published_and_missing():
    results = results_frame(
        {"model": "openai/o1", "value": 8.0},
        {"model": "openai/o1", "metric": "calibration-error", "value": 83.0},
        {"model": "deepseek/deepseek-r1", "subset": "text-only", "value": 8.5},
        {"model": "deepseek/deepseek-r1", "subset": "text-only", "metric": "calibration-error", "value": 73.0},
        {"model": "openai/gpt-4o", "value": 2.7, "stderr": 0.3},
        {"model": "x/other-source", "value": 50.0, "source": "someone-else"},  # not an accepted source
        {"model": "x/other-bench", "benchmark": "gpqa-diamond", "value": 50.0},
    )
    # 300 answered rows with subjects: 100 Math at 20 (10 correct), 100 Math at 60 (30), 100 Physics at 90 (90)
    own = pd.concat([raw([(100, 20, 10), (100, 60, 30)], "Math"), raw([(100, 90, 90)], "Physics")],
                    ignore_index=True)
    tiny = raw([(50, 70, 5)])
    boards = hle.compute_hle(results, MODELS, {"lab/own": own, "lab/tiny": tiny}, DEFINITION)
    assert set(boards) == {"hle", "hle-calibration"}
    acc = {r["model"]: r for r in boards["hle"]["rows"]}
    assert set(acc) == {"openai/o1", "deepseek/deepseek-r1", "openai/gpt-4o", "lab/own", "lab/tiny"}

    # observed: 130 correct; upstream divides by the 2,500 questions of the full set
    own_row = acc["lab/own"]
    assert own_row["status"] == "observed"
    assert own_row["value"] == pytest.approx(100 * 130 / 2500)
    assert own_row["coverage"] == {"have": 300, "of": 2500}
    assert [c["id"] for c in own_row["components"]] == ["Math", "Physics"]
    assert [c["value"] for c in own_row["components"]] == [pytest.approx(20.0), pytest.approx(90.0)]

    # published with stderr: ±1.96·0.3 = ±0.588, marked published
    assert acc["openai/gpt-4o"]["status"] == "published"
    assert acc["openai/gpt-4o"]["interval"] == [pytest.approx(2.112), pytest.approx(3.288)]
    assert acc["openai/gpt-4o"]["interval_how"] == "published"
    # published without stderr: Wald from n = 2,500 (the full set), marked derived with a reason
    o1 = acc["openai/o1"]
    half = 1.96 * math.sqrt(0.08 * 0.92 / 2500) * 100
    assert o1["interval"] == [pytest.approx(8.0 - half), pytest.approx(8.0 + half)]
    assert o1["interval_how"] == "derived" and "n = 2500" in o1["interval_reason"]
    # text-only fall-back: no n known for the subset -> no interval, with a reason; labelled as text-only
    r1 = acc["deepseek/deepseek-r1"]
    assert r1["subset"] == "text-only" and r1["note"] == "evaluated on the text-only subset only"
    assert r1["interval"] is None and r1["interval_how"] == "missing" and r1["interval_reason"]

    # ranks: 8.5 > 8.0 > own 5.2 > 2.7 > tiny 5/2500 = 0.2
    assert [r["model"] for r in boards["hle"]["rows"]] == [
        "deepseek/deepseek-r1", "openai/o1", "lab/own", "openai/gpt-4o", "lab/tiny"]
    assert [r["rank"] for r in boards["hle"]["rows"]] == [1, 2, 3, 4, 5]

    cal = {r["model"]: r for r in boards["hle-calibration"]["rows"]}
    # own: bins [0,100] conf .2 acc .1 and [100,200] conf .6 acc .3 visited, [200,300] skipped:
    # cerr = (1/3)(0.01) + (1/3)(0.09) = 0.033333; sqrt = 0.182574 -> 0.18 -> 18.0
    assert cal["lab/own"]["value"] == 18.0 and cal["lab/own"]["status"] == "observed"
    assert cal["lab/tiny"]["value"] is None and cal["lab/tiny"]["status"] == "missing"
    assert "50 answered questions" in cal["lab/tiny"]["reason"]
    assert cal["openai/gpt-4o"]["status"] == "missing" and cal["openai/gpt-4o"]["reason"]
    assert cal["openai/o1"]["value"] == 83.0 and cal["openai/o1"]["status"] == "published"
    # lower is better: own 18 (1), r1 73 (2), o1 83 (3), then the unranked by model id
    assert [(r["model"], r["rank"]) for r in boards["hle-calibration"]["rows"]] == [
        ("lab/own", 1), ("deepseek/deepseek-r1", 2), ("openai/o1", 3),
        ("lab/tiny", None), ("openai/gpt-4o", None)]


def test_board_header_and_full_set_preferred_over_text_only():
    results = results_frame(
        {"model": "openai/o1", "value": 8.0},
        {"model": "openai/o1", "subset": "text-only", "value": 7.8},
    )
    board = hle.compute_hle(results, MODELS, {}, DEFINITION)["hle"]
    assert {k: board[k] for k in ("index", "version", "kind", "unit")} == {
        "index": "hle", "version": "1.0", "kind": "hle", "unit": "percent"}
    assert board["name"] and board["description"]
    (row,) = board["rows"]
    assert row["value"] == 8.0 and row["subset"] == "" and "note" not in row


def test_ties_share_a_rank_at_the_board_precision():
    results = results_frame(
        {"model": "a/one", "value": 4.6}, {"model": "b/two", "value": 4.6}, {"model": "c/three", "value": 4.1},
        {"model": "d/four", "value": 4.64},  # 4.6 at one decimal: tied too
    )
    rows = hle.compute_hle(results, MODELS, {}, DEFINITION)["hle"]["rows"]
    assert [(r["model"], r["rank"]) for r in rows] == [
        ("a/one", 1), ("b/two", 1), ("d/four", 1), ("c/three", 4)]


def test_published_source_preference_then_newest():
    results = results_frame(
        {"model": "a/m", "value": 10.0, "retrieved": "2025-01-01"},
        {"model": "a/m", "value": 11.0, "retrieved": "2025-06-01"},
    )
    (row,) = hle.compute_hle(results, MODELS, {}, DEFINITION)["hle"]["rows"]
    assert row["value"] == 11.0


def test_competition_ranks():
    assert hle.competition_ranks([3.0, None, 5.0, 3.0, 1.0], True, 2) == [2, None, 1, 2, 4]
    assert hle.competition_ranks([3.0, None, 5.0, 3.0, 1.0], False, 2) == [2, None, 4, 2, 1]


# --------------------------------------------------------------------------------------------------
# The definitions (hle and pedagogy) against index.schema.json
# --------------------------------------------------------------------------------------------------
SCHEMAS = ROOT / "generator/sitegen/schemas"


def merged_schema() -> dict:
    """index.schema.json, which declares the hle and pedagogy kinds."""
    return json.loads((SCHEMAS / "index.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["hle", "pedagogy"])
def test_definition_is_valid(name):
    data = yaml.safe_load((ROOT / f"methodology/indices/{name}.yaml").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(merged_schema()).validate(data)


def test_unknown_field_is_rejected():
    data = yaml.safe_load((ROOT / "methodology/indices/pedagogy.yaml").read_text(encoding="utf-8"))
    data["bootstrap"]["resample"] = 10
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(merged_schema()).validate(data)
