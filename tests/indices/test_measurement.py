"""Measurement uncertainty from what was measured (#27, item 2): a benchmark's declared size gives its values their
binomial interval on every board; repeats are not more questions; an unknown size says what it leaves out; boards
drawn row by row say that their rank ranges are conservative.

Every expectation is computed by hand in the comment beside it (z = 1.959964, z^2 = 3.841459).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.indices import uncertainty as u

PERCENT = {"scale": {"min": 0, "max": 100, "unit": "percent"}}


def bench(**extra):
    return {**PERCENT, **extra}


# ------------------------------------------------------------------------------------------ the binomial interval

def test_binomial_interval_for_a_stated_size_and_score():
    swe = bench(questions=[{"count": 500, "unit": "tasks", "basis": "dataset card"}])
    s = u.spread({"value": 50.0, "source": "swe-bench"}, swe)
    # Wilson, n = 500, p = 0.5: centre 0.5; half = z * sqrt(0.25/500 + z^2/(4 * 500^2)) / (1 + z^2/500)
    #   = 1.959964 * sqrt(0.0005 + 0.00000384146) / 1.00768292 = 1.959964 * 0.02244641 / 1.00768292 = 0.0436587
    assert s["interval"] == pytest.approx([45.63413, 54.36587], abs=1e-4)
    assert s["interval_how"] == "derived"
    assert s["interval_reason"] == "binomial, n = 500 tasks, Wilson interval"
    arc = bench(questions=[{"count": 100, "unit": "tasks", "basis": "ARC Prize"}])
    s = u.spread({"value": 20.0, "source": "arc-prize"}, arc)
    # n = 100, p = 0.2: centre (0.2 + 3.841459/200) / 1.03841459 = 0.2192073 / 1.03841459 = 0.2110979;
    # half = 1.959964 * sqrt(0.0016 + 3.841459/40000) / 1.03841459 = 1.959964 * 0.04118297 / 1.03841459 = 0.0777313
    assert s["interval"] == pytest.approx([13.33666, 28.88292], abs=1e-4)
    # the draw reproduces the interval: each side a normal half with sd = that side's half-width / z
    assert s["draw"][2] == pytest.approx((20.0 - 13.33666) / 1.959964, abs=1e-4)
    assert s["draw"][3] == pytest.approx((28.88292 - 20.0) / 1.959964, abs=1e-4)


def test_repeats_are_not_more_questions():
    once = bench(questions=[{"count": 30, "basis": "seed 000"}])
    ten = bench(questions=[{"count": 30, "repeats": 10, "basis": "seed 000"}])
    a = u.spread({"value": 50.0, "source": "aa"}, once)
    b = u.spread({"value": 50.0, "source": "aa"}, ten)
    # n stays 30 with 10 runs per question (not 300): Wilson at p = 0.5, n = 30:
    # half = 1.959964 * sqrt(0.25/30 + 3.841459/3600) / (1 + 3.841459/30) = 1.959964 * 0.0969556 / 1.1280486
    #      = 0.1684590 -> [33.15410, 66.84590]; with n = 300 it would be [44.38, 55.62].
    assert a["interval"] == b["interval"] == pytest.approx([33.15410, 66.84590], abs=1e-4)
    assert b["interval_reason"] == ("binomial, n = 30 questions (10 repeats of each, which are not more questions: "
                                    "n is not multiplied), Wilson interval")
    assert a["interval_reason"] == "binomial, n = 30 questions, Wilson interval"


def test_a_count_published_with_the_result_wins_and_is_not_read_as_repeats():
    b = bench(questions=[{"count": 30, "repeats": 10, "basis": "seed 000"}])
    s = u.spread({"value": 50.0, "n": 120, "source": "paper"}, b)
    # n = 120, p = 0.5: half = 1.959964 * sqrt(0.25/120 + 3.841459/57600) / (1 + 3.841459/120)
    #   = 1.959964 * sqrt(0.00208333 + 0.00006669) / 1.03201216 = 1.959964 * 0.0463684 / 1.03201216 = 0.0880614
    #   -> [41.19386, 58.80614]
    assert s["interval"] == pytest.approx([41.19386, 58.80614], abs=1e-4)
    assert s["interval_reason"] == "binomial, n = 120 questions, Wilson interval"


# ------------------------------------------------------------------------------------------------ unknown size

def test_unknown_size_says_why_and_what_it_leaves_out():
    tbh = bench(questions_unknown="Artificial Analysis does not state how many tasks it runs.")
    s = u.spread({"value": 30.0, "source": "aa-api-2025-10"}, tbh)
    assert s["interval"] is None and s["draw"] is None
    assert s["interval_reason"] == (
        "aa-api-2025-10 publishes no interval or standard error, and the number of questions is not known "
        "(Artificial Analysis does not state how many tasks it runs): its question-sampling error is left out, "
        "so no interval is given")


def test_undeclared_size_is_not_silent_either():
    s = u.spread({"value": 30.0, "source": "somewhere"}, PERCENT)
    assert s["interval"] is None
    assert s["interval_reason"] == ("somewhere publishes no interval or standard error, and "
                                    "methodology/benchmarks.yaml declares no question count: its question-sampling "
                                    "error is left out, so no interval is given")


def test_a_component_held_fixed_says_its_error_is_left_out():
    comps = u.Components("board", ["m"], 10, 0.95)
    values = {"m": {"value": 30.0, "source": "aa"}}
    comps.matrix("tbh", values, bench(questions_unknown="not stated"))
    comps.matrix("gpqa", {"m": {"value": 60.0, "source": "aa"}},
                 bench(questions=[{"count": 198, "repeats": 5, "basis": "seed 000"}]))
    assert comps.fixed == {"m": ["tbh"]}
    assert comps.reason("m") == ("simulated from component intervals: 1 derived; none to be had for tbh (held fixed: "
                                 "its measurement error is left out, so the interval is too narrow)")
    comps.matrix("tau2", {"m": {"value": 40.0, "source": "aa"}}, PERCENT)
    assert comps.reason("m").endswith("none to be had for tbh, tau2 (held fixed: their measurement error is left out, "
                                      "so the interval is too narrow)")


# ------------------------------------------------------------------------------- benchmark boards, drawn row by row

def _board(*rows):
    return {"rows": [{"model": m, "value": v, "rank": k, "source": "s"} for m, v, k in rows],
            "higher_is_better": True}


def test_benchmark_board_takes_the_declared_size_and_says_its_ranks_are_conservative():
    boards = {"swe": _board(("a", 60.0, 1), ("b", 50.0, 2), ("c", None, None))}
    registry = [{"id": "swe", **bench(questions=[{"count": 500, "unit": "tasks", "basis": "card"}])}]
    u.annotate_benchmark_boards(boards, registry, {"uncertainty": {"simulations": 200, "level": 0.95}})
    a, b, c = boards["swe"]["rows"]
    assert b["interval"] == pytest.approx([45.63413, 54.36587], abs=1e-4)  # as above: n = 500, p = 0.5
    assert a["interval"] is not None and a["rank_interval"] is not None and c["interval"] is None
    assert boards["swe"]["uncertainty"]["independent"] == u.INDEPENDENT
    assert "conservative" in u.INDEPENDENT and "same questions" in u.INDEPENDENT


def test_a_board_without_any_interval_makes_no_claim_about_its_ranks():
    boards = {"tbh": _board(("a", 60.0, 1), ("b", 50.0, 2))}
    registry = [{"id": "tbh", **bench(questions_unknown="not stated")}]
    u.annotate_benchmark_boards(boards, registry, {"uncertainty": {"simulations": 200, "level": 0.95}})
    board = boards["tbh"]
    assert [r["interval"] for r in board["rows"]] == [None, None]
    assert all("not stated" in r["interval_reason"] for r in board["rows"])
    assert "independent" not in board["uncertainty"]
    assert board["uncertainty"]["ranks"] == "no ranked value has an interval, so no rank interval or tier can be had"


def test_rows_with_their_own_interval_are_drawn_row_by_row_and_say_so():
    board = {"index": "hle", "rows": [{"model": "a", "value": 20.0, "rank": 1, "interval": [18.0, 22.0]},
                                      {"model": "b", "value": 10.0, "rank": 2, "interval": [8.0, 12.0]}]}
    u.rank_from_row_intervals(board, 200, 0.95)
    assert board["uncertainty"]["independent"] == u.INDEPENDENT


# ------------------------------------------------------------------------------------------------ the real data

@pytest.fixture(scope="module")
def real(real_computed):
    return real_computed  # tests/conftest.py: computed once per session


def test_every_percent_benchmark_states_its_size_or_why_not(real):
    for b in real.benchmarks:
        if (b.get("scale") or {}).get("unit") == "percent":
            assert bool(b.get("questions")) != bool(b.get("questions_unknown")), b["id"]
            for q in b.get("questions") or []:
                assert q.get("basis") and q.get("url", "").startswith("https://"), (b["id"], q)


def test_every_value_of_a_benchmark_with_a_declared_size_has_an_interval_or_a_stated_reason(real):
    sized = {b["id"] for b in real.benchmarks if b.get("questions")}
    unknown = {b["id"] for b in real.benchmarks if b.get("questions_unknown")}
    assert {"arc-agi-1", "arc-agi-2", "critpt", "swe-bench-verified", "terminal-bench-2", "frontiermath-tier-4",
            "aime-2025", "gpqa-diamond"} <= sized
    for bid, board in real.benchmark_boards.items():
        for row in board["rows"]:
            if row.get("value") is None:
                continue
            if bid in sized and (board.get("scale") or {}).get("unit", "percent") == "percent":
                assert row["interval"] is not None or row.get("interval_reason"), (bid, row["model"])
            if bid in unknown:
                assert row["interval"] is not None or "left out" in row["interval_reason"], (bid, row["model"])
    # the SWE-bench Verified board: every row with a value has an interval (13 of 59 before the size was declared)
    swe = [r for r in real.benchmark_boards["swe-bench-verified"]["rows"] if r.get("value") is not None]
    assert len(swe) >= 50 and all(r["interval"] is not None for r in swe)
    for bid in ("arc-agi-1", "arc-agi-2", "critpt"):
        rows = [r for r in real.benchmark_boards[bid]["rows"] if r.get("value") is not None]
        assert rows and all(r["interval"] is not None for r in rows), bid


def test_index_boards_hold_fixed_no_benchmark_whose_size_is_declared(real):
    sized = {b["id"] for b in real.benchmarks if b.get("questions")}
    for board_id, board in real.boards.items():
        for row in board["rows"]:
            reason = row.get("interval_reason") or ""
            if "held fixed" in reason:
                fixed = reason.split("none to be had for ", 1)[1].split(" (held fixed")[0].split(", ")
                assert not set(fixed) & sized, (board_id, row["model"], fixed)
                assert "left out" in reason
            for c in row.get("components") or []:
                if c.get("kind") == "benchmark" and c.get("how") == "observed" and c["id"] in sized \
                        and c.get("value") is not None:
                    assert c.get("interval") is not None or c.get("interval_reason"), (board_id, row["model"], c)


def test_boards_drawn_row_by_row_say_their_ranks_are_conservative(real):
    for bid, board in real.benchmark_boards.items():
        if any(r.get("rank_interval") for r in board["rows"]):
            assert board["uncertainty"]["independent"] == u.INDEPENDENT, bid
    for board_id in ("hle", "pedagogy-cdpk", "pedagogy-send"):
        assert real.boards[board_id]["uncertainty"]["independent"] == u.INDEPENDENT, board_id


# ------------------------------------------------------------------ per-question results: drawn together

def _answers(right, asked):
    import pandas as pd

    return pd.DataFrame({"id": list(asked), "correct": [q in right for q in asked]})


def test_rows_from_per_question_results_are_drawn_from_one_resample_of_the_questions():
    qs = ["q1", "q2", "q3", "q4"]
    answers = {"a": _answers({"q1", "q2", "q3"}, qs), "b": _answers({"q1", "q2"}, qs)}
    rows = [{"model": "a", "value": 75.0, "coverage": {"have": 4, "of": 4}},
            {"model": "b", "value": 50.0, "coverage": {"have": 4, "of": 4}}]
    draws = u.shared_question_draws("hle", rows, answers, 4000)
    a, b = draws["a"], draws["b"]
    # a is right wherever b is, so with the same weights a is never below b; they tie when q3 draws weight 0,
    # which Multinomial(4, 1/4 each) gives with probability (3/4)^4 = 0.3164. Independent draws would put a
    # below b in part of the draws.
    assert (a >= b).all()
    assert (a == b).mean() == pytest.approx(0.3164, abs=0.025)
    # the bootstrap is centred on the values: E[weights] = 1 per question -> 3/4 and 2/4
    assert a.mean() == pytest.approx(75.0, abs=1.0) and b.mean() == pytest.approx(50.0, abs=1.0)
    assert (u.shared_question_draws("hle", rows, answers, 4000)["a"] == a).all()  # seeded by the board


def test_the_denominator_is_the_one_that_gives_the_rows_value():
    qs = ["q1", "q2", "q3", "q4"]
    answers = {"hle-like": _answers({"q1"}, ["q1", "q2"]), "ped-like": _answers({"q1"}, ["q1", "q2"]),
               "neither": _answers({"q1"}, ["q1", "q2"]), "full": _answers({"q1", "q2"}, qs)}
    rows = [{"model": "hle-like", "value": 25.0, "coverage": {"have": 2, "of": 4}},  # 1 right of the set's 4
            {"model": "ped-like", "value": 50.0, "coverage": {"have": 2, "of": 4}},  # 1 right of 2 answered
            {"model": "neither", "value": 40.0, "coverage": {"have": 2, "of": 4}},
            {"model": "full", "value": 50.0, "coverage": {"have": 4, "of": 4}}]
    draws = u.shared_question_draws("hle", rows, answers, 4000)
    assert set(draws) == {"hle-like", "ped-like", "full"}
    assert draws["hle-like"].mean() == pytest.approx(25.0, abs=1.0)
    # right / answered in the draw: q1's weight over q1's and q2's, 1/2 on average by symmetry; a draw in which
    # neither has weight ((1/2)^4 = 1/16 of them) keeps the value, 50
    assert draws["ped-like"].mean() == pytest.approx(50.0, abs=1.5)
    # hle-like's right answer (q1) is one of full's two: never above it in a draw
    assert (draws["hle-like"] <= draws["full"]).all()


def test_a_board_with_per_question_rows_says_which_are_drawn_together():
    qs = [f"q{i}" for i in range(10)]
    answers = {"a": _answers(set(qs[:6]), qs), "b": _answers(set(qs[:5]), qs)}
    board = {"index": "hle", "rows": [
        {"model": "a", "value": 60.0, "rank": 1, "interval": [30.0, 90.0], "coverage": {"have": 10, "of": 10}},
        {"model": "b", "value": 50.0, "rank": 2, "interval": [20.0, 80.0], "coverage": {"have": 10, "of": 10}},
        {"model": "c", "value": 40.0, "rank": 3, "interval": [38.0, 42.0], "source": "epoch"}]}
    u.rank_from_row_intervals(board, 500, 0.95, answers=answers)
    note = board["uncertainty"]
    assert note["joint"] == ("2 rows computed from per-question results are drawn together: each simulation "
                             "resamples the questions once, with the same resample for every such model.")
    assert note["independent"].startswith("Rank ranges and tiers on this board are conservative: the other 1 row "
                                          "is drawn independently from its own interval")
    a, b, _ = board["rows"]
    assert a["rank_interval"][0] == 1 and b["rank_interval"][0] == 1  # a ties b whenever q5 draws no weight
    all_joint = {"index": "hle", "rows": board["rows"][:2]}
    u.rank_from_row_intervals(all_joint, 500, 0.95, answers=answers)
    assert "independent" not in all_joint["uncertainty"] and "joint" in all_joint["uncertainty"]


def test_the_real_hle_definition_draws_its_per_question_rows_together():
    """From compute_hle through annotate_index: two models with per-question rows (the set's 2,500 questions, a
    right on the first 300 of them, b on the first 250) are drawn together; a published row on its own."""
    import pandas as pd
    import yaml

    from sitegen.indices import hle

    root = Path(__file__).resolve().parents[2]
    definition = yaml.safe_load((root / "methodology/indices/hle.yaml").read_text(encoding="utf-8"))
    qs = [f"q{i}" for i in range(2500)]
    answers = {"x/a": _answers(set(qs[:300]), qs), "x/b": _answers(set(qs[:250]), qs)}
    results = pd.DataFrame([{"model": "x/c", "benchmark": "hle", "metric": "", "subset": "", "harness": "",
                             "value": 11.0, "source": "epoch", "retrieved": "2026-01-01", "url": "", "n": float("nan"),
                             "stderr": 0.6, "ci_low": float("nan"), "ci_high": float("nan"),
                             "self_reported": False, "origin": "x"}])
    models = pd.DataFrame({"model": ["x/a", "x/b", "x/c"]})
    board = hle.compute_hle(results, models, answers, definition)["hle"]
    board["definition"] = "hle"
    u.annotate_index(definition, board, results, models, {}, {("hle", m): f for m, f in answers.items()})
    by = {r["model"]: r for r in board["rows"]}
    assert (by["x/a"]["value"], by["x/b"]["value"]) == (12.0, 10.0)  # 300 / 2,500 and 250 / 2,500
    assert board["uncertainty"]["joint"].startswith("2 rows computed from per-question results are drawn together")
    assert board["uncertainty"]["independent"].startswith(
        "Rank ranges and tiers on this board are conservative: the other 1 row is drawn")
    # drawn together, a (right on a superset of b's questions) never falls below b: b is never ranked above it
    assert by["x/a"]["rank_interval"][0] == 1 and by["x/b"]["rank_interval"][0] >= 2
