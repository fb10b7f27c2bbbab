"""AI IQ: benchmark- and dimension-level imputation, composite, status, manual fallback, and the seed's tables.

Most tests use a small inline definition whose anchors are the line IQ = raw + 50 ([0, 50] to [100, 150]), so
every expectation can be checked by hand; the real ai-iq.yaml is exercised at the end.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from indexkit import ROOT, comp, definition, models, results, row, scores
from sitegen.indices import aiiq

LINE = [[0, 50], [100, 150]]  # IQ = raw + 50


def mini(**dims) -> dict:
    base = definition("ai-iq")
    dims = dims or {"abstract": ["a1", "a2"], "mathematical": ["m1", "m2"], "programmatic": ["p1", "p2"],
                    "academic": ["c1", "c9"]}
    base["dimensions"] = [
        {"id": d, "name": d, "imputable": d != "abstract",
         "benchmarks": [{"benchmark": b, "tier": "hard", "ceiling": 150, "anchors": LINE} for b in bs]}
        for d, bs in dims.items()]
    base["selection"] = {"metric": "", "subset": "", "order": ["source-precedence", "newest", "highest"],
                         "sources": []}
    return base


def test_benchmark_imputation_p80_wins_and_own_mean_wins():
    # m1 real IQs: 100, 110, 120, 130, 140 (n=5): P80 = 4th ascending = 130.
    frame = scores(
        a={"m1": 90}, b={"m1": 50}, c={"m1": 70}, d={"m1": 60}, e={"m1": 80},
        f={"m2": 95, "c1": 50},   # own mean 145 > P80 130 -> m1 imputed at 130
        g={"m2": 55, "c1": 50},   # own mean 105 < P80 130 -> m1 imputed at 105
    )
    board = aiiq.compute(mini(), frame, models())
    f, g = row(board, "f"), row(board, "g")
    assert comp(f, "m1")["how"] == "imputed" and comp(f, "m1")["value"] == 130
    assert comp(g, "m1")["how"] == "imputed" and comp(g, "m1")["value"] == 105
    assert "P80 of m1 130.00" in comp(f, "m1")["reason"]
    # The cap is also data, for `sitegen diff` to explain a P80 shift without reading prose.
    assert comp(f, "m1")["percentile"] == comp(g, "m1")["percentile"] == {"name": "P80", "of": "m1", "value": 130}
    assert "percentile" not in comp(f, "m2")
    assert comp(f, "mathematical")["value"] == pytest.approx((145 + 130) / 2)
    assert comp(g, "mathematical")["value"] == pytest.approx((105 + 105) / 2)
    # Real benchmarks carry their raw score; imputed ones do not.
    assert comp(f, "m2")["raw"] == 95 and comp(f, "m1")["raw"] is None


def test_benchmark_nobody_scored_is_left_out():
    frame = scores(x={"c1": 60, "m1": 60})
    r = row(aiiq.compute(mini(), frame, models()), "x")
    assert comp(r, "c9")["how"] == "excluded" and comp(r, "c9")["value"] is None
    assert comp(r, "academic")["value"] == 110   # c1 alone: c9 is not imputed into the mean
    assert comp(r, "m2")["how"] == "excluded"


def test_dimension_level_imputation_both_branches_and_p80_uses_imputed_parts():
    frame = scores(
        # Programmatic population. p2 real: B only -> P80(p2) = 140 (n=1). p1 real: A 120, C 80 -> P80 = 120 (n=2).
        A={"p1": 70},              # p2 = min(120, 140) = 120 -> prog 120
        B={"p2": 90},              # p1 = min(140, 120) = 120 -> prog (120 + 140) / 2 = 130
        C={"p1": 30},              # p2 = min(80, 140) = 80 -> prog 80
        # Prog dimension IQs 80, 120, 130 -> P80 = 130 (B's would be 140 without its imputed part).
        D={"m1": 95, "c1": 95},    # scored mean 145 -> prog = min(145, 130) = 130 (P80 wins)
        E={"m1": 40, "c1": 60},    # scored mean 100 -> prog = min(100, 130) = 100 (own mean wins)
    )
    board = aiiq.compute(mini(), frame, models())
    d, e = row(board, "D"), row(board, "E")
    assert comp(d, "programmatic")["how"] == "imputed" and comp(d, "programmatic")["value"] == 130
    assert comp(e, "programmatic")["how"] == "imputed" and comp(e, "programmatic")["value"] == 100
    assert comp(d, "programmatic")["percentile"] == {"name": "P80", "of": "programmatic", "value": 130}
    assert d["value"] == pytest.approx(round((145 + 130 + 145) / 3, 4))
    assert e["value"] == pytest.approx(100)
    # Abstract is never imputed at dimension level: both composites are over 3 dimensions.
    assert comp(d, "abstract")["how"] == "missing" and "never imputed" in comp(d, "abstract")["reason"]
    # Imputed dimensions do not count as scored: status partial, coverage 2/4.
    assert (d["status"], d["coverage"]) == ("partial", {"have": 2, "of": 4})
    # Benchmarks of an unscored dimension are not imputed at benchmark level.
    assert comp(d, "p1")["how"] == "missing"
    # A, B and C have one dimension each: provisional, no composite, unranked.
    assert [row(board, m)["status"] for m in "ABC"] == ["provisional"] * 3
    assert all(row(board, m)["value"] is None and row(board, m)["rank"] is None for m in "ABC")
    assert [(r["model"], r["rank"]) for r in board["rows"][:2]] == [("D", 1), ("E", 2)]


def test_abstract_benchmark_level_imputation_is_allowed():
    frame = scores(J={"a2": 80}, H={"a1": 60, "m1": 60})   # P80(a2) = 130 (n=1)
    r = row(aiiq.compute(mini(), frame, models()), "H")
    assert comp(r, "a2")["how"] == "imputed" and comp(r, "a2")["value"] == 110   # min(110, 130)
    assert comp(r, "abstract")["how"] == "observed" and comp(r, "abstract")["value"] == 110


def test_composite_over_dimensions_used_and_full_status():
    frame = scores(Z={"a1": 60, "m1": 80, "p1": 70, "c1": 50})
    r = row(aiiq.compute(mini(), frame, models()), "Z")
    assert r["value"] == pytest.approx((110 + 130 + 120 + 100) / 4)
    assert (r["status"], r["coverage"], r["rank"]) == ("full", {"have": 4, "of": 4}, 1)


def test_fewer_than_two_dimensions_shows_sourced_manual_iq_unranked():
    frame = scores(K={"c1": 50}, M={"c1": 40}, R={"c1": 60, "m1": 60})
    people = models(
        {"model": "K", "manual_iq": 120.0, "manual_iq_source": "some-review"},
        {"model": "L", "manual_iq": 101.0, "manual_iq_source": "some-review"},    # no benchmark data at all
        {"model": "N", "manual_iq": 130.0},                                      # not sourced: never shown
    )
    board = aiiq.compute(mini(), frame, people)
    k, m, l = row(board, "K"), row(board, "M"), row(board, "L")
    assert (k["value"], k["rank"], k["status"], k["manual"]) == (None, None, "provisional",
                                                                 {"value": 120.0, "source": "some-review"})
    assert "manual" not in m and m["value"] is None and m["rank"] is None
    assert (l["status"], l["coverage"]["have"], l["manual"]["value"], l["rank"]) == ("unranked", 0, 101.0, None)
    assert all(r["model"] != "N" for r in board["rows"])
    assert row(board, "R")["rank"] == 1 and "manual" not in row(board, "R")


def test_real_definition_end_to_end():
    # hle 20 -> 130 and gpqa 65 -> 115: academic 122.5 (critpt has no data anywhere: left out);
    # aime 80 -> 117: mathematical 117 (frontiermath-tier-4 left out); composite (122.5 + 117) / 2.
    frame = scores(source="aa-api-2026-07", **{"o__m": {"hle": 20, "gpqa-diamond": 65, "aime-2025": 80}})
    frame.loc[frame["benchmark"] == "hle", "subset"] = "aa-2684"   # AA's own HLE question set
    r = row(aiiq.compute(definition("ai-iq"), frame, models()), "o/m")
    assert r["value"] == pytest.approx(119.75)
    assert comp(r, "critpt")["how"] == "excluded"
    assert comp(r, "programmatic")["how"] == "missing"   # nobody has programmatic data: no P80
    assert comp(r, "hle")["source"] == "aa-api-2026-07" and comp(r, "hle")["retrieved"] == "2025-10-01"
    assert comp(r, "hle")["subset"] == "aa-2684" and "subset" not in comp(r, "gpqa-diamond")


def test_hle_is_taken_on_aa_question_set_only():
    # x has HLE only on the paper's full set (Epoch): not AI IQ's set, so no real HLE; its academic dimension is
    # GPQA 65 -> 115 alone. y has AA's set: 20 -> 130.
    frame = results(
        {"model": "x", "benchmark": "hle", "value": 25, "source": "epoch"},
        {"model": "x", "benchmark": "gpqa-diamond", "value": 65, "source": "aa-api-2026-07"},
        {"model": "y", "benchmark": "hle", "value": 20, "source": "aa-api-2026-07", "subset": "aa-2684"},
    )
    board = aiiq.compute(definition("ai-iq"), frame, models())
    assert comp(row(board, "y"), "hle")["value"] == 130 and comp(row(board, "y"), "hle")["subset"] == "aa-2684"
    x_hle = comp(row(board, "x"), "hle")
    assert x_hle["how"] == "imputed" and x_hle["value"] == 115   # min(own 115, P80 of hle over {130}) = 115


def test_arc_prize_before_epoch():
    frame = results(
        {"model": "x", "benchmark": "arc-agi-2", "value": 60, "source": "epoch", "retrieved": "2026-04-19"},
        {"model": "x", "benchmark": "arc-agi-2", "value": 40, "source": "arc-prize", "retrieved": "2025-12-01"},
    )
    r = row(aiiq.compute(definition("ai-iq"), frame, models()), "x")
    assert (comp(r, "arc-agi-2")["raw"], comp(r, "arc-agi-2")["value"]) == (40, 95)


def family_models(*rows: tuple) -> pd.DataFrame:
    """A models frame with the identity columns family match reads: (model, release, reasoning, effort,
    effort_rank); reasoning None or "not stated" is an unknown mode."""
    return pd.DataFrame([{"model": m, "release": r, "reasoning": t, "effort": e, "effort_rank": k}
                         for m, r, t, e, k in rows])


# Releases r, s, u and v; IQ = raw + 50. m1 real IQs: r/none 106, r/low 80, r/mid 102, r/x 135, s/high 110,
# u/low 96, v/think 90 -> P80 = 6th of 7 = 110. m2 real: 95 (IQ 145) for everyone who has it -> P80 145, so a
# model with m2 alone and no sibling takes min(own 145, 110) = 110 for m1.
FAMILY_SCORES = {
    "r__none": {"m1": 56}, "r__low": {"m1": 30}, "r__mid": {"m1": 52}, "r__top": {"m2": 95},
    "r__min": {"m2": 95}, "r__x": {"m1": 85},
    "s__high-effort": {"m1": 60}, "s__low-effort": {"m2": 95},
    "u__low": {"m1": 46}, "u__mid": {"m2": 95},
    "v__think": {"m1": 40}, "v__odd": {"m2": 95}, "v__plain": {"m2": 95},
}
FAMILY_PEOPLE = family_models(
    ("r/none", "r", False, "none", 0.0), ("r/min", "r", True, "minimal", 1.0), ("r/low", "r", True, "low", 2.0),
    ("r/mid", "r", True, "medium", 3.0), ("r/top", "r", True, "high", 4.0), ("r/x", "r", True, "xhigh", 5.0),
    # The case: two non-reasoning configurations, both effort none: the registry cannot order them.
    ("s/high-effort", "s", False, "none", 0.0), ("s/low-effort", "s", False, "none", 0.0),
    ("u/low", "u", None, "low", 2.0), ("u/mid", "u", True, "medium", 3.0),
    # v/plain: non-reasoning above a reasoning sibling's effort. The registry gives every non-reasoning
    # configuration effort none, so this only guards the rule's other direction.
    ("v/think", "v", True, "low", 2.0), ("v/odd", "v", "not stated", "high", 4.0), ("v/plain", "v", False, "", 3.0),
)


def test_family_match_branches():
    board = aiiq.compute(dict(mini(), family_match=True), scores(**FAMILY_SCORES), FAMILY_PEOPLE)
    m1 = {r["model"]: comp(r, "m1") for r in board["rows"]}
    m2 = {r["model"]: comp(r, "m2") for r in board["rows"]}
    # Ordinary match: r/top (high) takes the reasoning sibling at the nearest lower effort with a real m1, r/mid
    # (medium, 102), not r/low (low, 80) nor r/none (non-reasoning); below what min-of-two would give (110).
    top = m1["r/top"]
    assert (top["how"], top["value"], top["raw"], top["sibling"], top["source"]) == ("imputed", 102, 52, "r/mid", "src")
    assert top["reason"].startswith("family match: the real score of r/mid (effort medium, rank 3), a configuration "
                                    "of the same release r, also reasoning, at a lower reasoning effort")
    assert comp(row(board, "r/top"), "mathematical")["value"] == (102 + 145) / 2
    # A real score is not capped: r/x (xhigh) takes r/top's m2, 145, where min-of-two gives min(own 135, 145) = 135;
    # r/low and r/mid take r/min's (minimal is a reasoning effort; r/none has no m2).
    assert [(m2[m]["sibling"], m2[m]["value"]) for m in ("r/x", "r/low", "r/mid")] == [("r/top", 145),
                                                                                     ("r/min", 145), ("r/min", 145)]
    # Mode mismatch: r/min's only lower-effort sibling with an m1 is r/none, non-reasoning: min-of-two, 110.
    # The reverse: v/plain (non-reasoning) does not take v/think's (reasoning, lower effort) m1.
    # Unorderable: s/low-effort and s/high-effort are both effort none: s/low-effort does not take the other's 110.
    # Unknown mode: u/mid does not take u/low's m1 (u/low's mode is unknown: it gives nothing); v/odd ("not
    # stated") takes nothing, not even v/think's (reasoning, lower effort).
    for model in ("r/min", "v/plain", "s/low-effort", "u/mid", "v/odd"):
        c = m1[model]
        assert (c["how"], c["value"], "sibling" in c) == ("imputed", 110, False), model
        assert c["reason"].startswith("min(") and c["percentile"]["value"] == 110, model
    # Nobody below effort none, and unknown modes neither give nor take: no sibling for these m2 gaps.
    assert [m2[m]["value"] for m in ("r/none", "s/high-effort", "u/low", "v/think")] == [106, 110, 96, 90]
    assert not any("sibling" in m2[m] for m in ("r/none", "s/high-effort", "u/low", "v/think"))
    # Sibling scores never enter a P80: without family match the caps are the same (110 for m1).
    off = aiiq.compute(dict(mini(), family_match=False), scores(**FAMILY_SCORES), FAMILY_PEOPLE)
    assert comp(row(off, "r/top"), "m1")["value"] == 110 and "sibling" not in comp(row(off, "r/top"), "m1")
    assert comp(row(off, "r/x"), "m2")["value"] == 135


def switched_off(definition: dict, *benchmarks: str) -> dict:
    """`definition` with `family_match: false` on the entries of `benchmarks`."""
    for d in definition["dimensions"]:
        for b in d["benchmarks"]:
            if b["benchmark"] in benchmarks:
                b["family_match"] = False
    return definition


def test_family_match_switched_off_per_benchmark():
    definition = switched_off(dict(mini(), family_match=True), "m1")
    assert aiiq.family_benchmarks(definition) == {"m2", "a1", "a2", "p1", "p2", "c1", "c9"}
    assert aiiq.family_benchmarks(dict(definition, family_match=False)) == set()
    board = aiiq.compute(definition, scores(**FAMILY_SCORES), FAMILY_PEOPLE)
    # m1 off: r/top falls back to min(own 145, P80 110) = 110; m2 still on: r/x takes r/top's 145.
    top, x = comp(row(board, "r/top"), "m1"), comp(row(board, "r/x"), "m2")
    assert (top["value"], "sibling" in top) == (110, False)
    assert (x["value"], x["sibling"]) == (145, "r/top")


def test_family_match_needs_known_effort_on_both_sides():
    frame = scores(**{"f__a": {"m1": 80, "m2": 50}, "f__b": {"m2": 95}, "g__a": {"m2": 95}, "g__b": {"m1": 60}})
    people = family_models(("f/a", "f", True, "", math.nan), ("f/b", "f", True, "high", 4.0),
                           ("g/a", "g", True, "", math.nan), ("g/b", "g", True, "low", 2.0))
    board = aiiq.compute(dict(mini(), family_match=True), frame, people)
    # m1 real: f/a 130, g/b 110 -> P80 = 2nd of 2 = 130. f/b does not take f/a's (effort unknown); g/a (effort
    # unknown) does not take g/b's.
    fb, ga = comp(row(board, "f/b"), "m1"), comp(row(board, "g/a"), "m1")
    assert ("sibling" in fb, fb["value"]) == (False, 130)   # min(own 145, 130)
    assert ("sibling" in ga, ga["value"]) == (False, 130)


def test_family_match_reasoning_mode_reads_booleans_only():
    assert [aiiq.reasoning_mode(v) for v in (True, False, np.bool_(True), None, pd.NA, "not stated", 1, 0.0)] == [
        True, False, True, None, None, None, None, None]


def test_point_engine_and_simulation_agree_on_family_branches():
    """The simulation runs every branch above through the board's own function: without noise its first draw is
    the board value, and every row gets an interval."""
    from sitegen.indices import uncertainty as u

    percent = {b: {"scale": {"min": 0, "max": 100, "unit": "percent"}} for b in ("m1", "m2", "c1")}
    # Every model also has c1 = 50 (academic 100), so that each has two scored dimensions and a composite.
    frame = scores(**{m: {**bench, "c1": 50} for m, bench in FAMILY_SCORES.items()})
    frame["stderr"] = 1.0
    for definition in (dict(mini(), family_match=True), switched_off(dict(mini(), family_match=True), "m1")):
        definition["uncertainty"] = {"simulations": 50, "level": 0.95}
        board = aiiq.compute(definition, frame, FAMILY_PEOPLE)
        samples, *_ = u.aiiq_samples(definition, frame, percent, 1, 0.95, noise=False, models=FAMILY_PEOPLE)
        ranked = [r for r in board["rows"] if r["value"] is not None]
        assert len(ranked) == len(FAMILY_SCORES)
        assert [samples[r["model"]][0] for r in ranked] == [r["value"] for r in ranked]
        u.annotate_index(definition, board, frame, FAMILY_PEOPLE, percent)
        assert all(r["interval"][0] < r["value"] < r["interval"][1] for r in ranked)


# --- Family match against its fallback, held out. ---

# Release f, reasoning at efforts 2, 3 and 4; f/n non-reasoning (a sibling of none of them); o/p and o/q have no
# release. IQ = raw + 50:        m1   m2
HOLDOUT_SCORES = {"f__a": {"m1": 30, "m2": 40},   # 80   90
                  "f__b": {"m1": 50, "m2": 44},   # 100  94
                  "f__c": {"m1": 60, "m2": 70},   # 110  120
                  "f__n": {"m1": 90, "m2": 90},   # 140  140
                  "o__p": {"m1": 80, "m2": 60},   # 130  110
                  "o__q": {"m1": 20}}             # 70   -
HOLDOUT_PEOPLE = family_models(("f/a", "f", True, "low", 2.0), ("f/b", "f", True, "medium", 3.0),
                               ("f/c", "f", True, "high", 4.0), ("f/n", "f", False, "none", 0.0),
                               ("o/p", None, None, None, math.nan), ("o/q", None, None, None, math.nan))


def test_family_holdout_leave_one_out_by_hand():
    # Six models in six folds: each is its own fold, so the fallback's P80 is over the five others.
    definition = dict(mini(mathematical=["m1", "m2"]), family_match=True)
    rows = {r["benchmark"]: r for r in aiiq.family_holdout(definition, scores(**HOLDOUT_SCORES), HOLDOUT_PEOPLE,
                                                           folds=6)}
    # m1 cases (a real m1, a real m2, a sibling with a real m1): f/b (sibling f/a), f/c (sibling f/b); f/a and f/n
    # have no lower sibling in their mode, o/p no release, o/q no other benchmark.
    m1 = rows["m1"]
    assert (m1["dimension"], m1["cases"], m1["models"]) == ("mathematical", 2, ["f/b", "f/c"])
    # Family: f/b 80 - 100 = -20, f/c 100 - 110 = -10 -> bias -15, rmse sqrt(250).
    assert m1["family"] == {"bias": -15.0, "rmse": pytest.approx(math.sqrt(250))}
    # Fallback: f/b min(own 94, P80 of {80, 110, 130, 70, 140} = 4th of 5 = 130) - 100 = -6;
    # f/c min(own 120, P80 of {80, 100, 130, 70, 140} = 130) - 110 = +10 -> bias 2, rmse sqrt(68).
    assert m1["fallback"] == {"bias": 2.0, "rmse": pytest.approx(math.sqrt(68))}
    # m2: family f/b 90 - 94 = -4, f/c 94 - 120 = -26 -> bias -15, rmse sqrt(346); fallback f/b min(own 100,
    # P80 of {90, 120, 110, 140} = 4th of 4 = 140) - 94 = +6, f/c min(110, P80 of {90, 94, 110, 140} = 140) - 120
    # = -10 -> bias -2, rmse sqrt(68).
    m2 = rows["m2"]
    assert (m2["cases"], m2["models"]) == (2, ["f/b", "f/c"])
    assert m2["family"] == {"bias": -15.0, "rmse": pytest.approx(math.sqrt(346))}
    assert m2["fallback"] == {"bias": -2.0, "rmse": pytest.approx(math.sqrt(68))}
    # The measurement ignores the switches (it is what decides them): the same with m1 switched off.
    off = aiiq.family_holdout(switched_off(dict(definition), "m1"), scores(**HOLDOUT_SCORES), HOLDOUT_PEOPLE, 6)
    assert off == list(rows.values())


def test_family_holdout_fits_the_fallback_out_of_fold():
    # Two folds: each case's fallback P80 is taken over the m1 IQs of the models in the other fold only.
    definition = dict(mini(mathematical=["m1", "m2"]), family_match=True)
    iq_m1 = {"f/a": 80, "f/b": 100, "f/c": 110, "f/n": 140, "o/p": 130, "o/q": 70}
    fold = aiiq.holdout_folds(list(iq_m1), 2)

    def p80_outside(model: str) -> float:
        train = sorted(iq for m, iq in iq_m1.items() if fold[m] != fold[model])
        return train[math.ceil(0.8 * len(train)) - 1]

    errors = [min(94, p80_outside("f/b")) - 100, min(120, p80_outside("f/c")) - 110]   # own m2 94 and 120
    m1 = aiiq.family_holdout(definition, scores(**HOLDOUT_SCORES), HOLDOUT_PEOPLE, folds=2)[0]
    assert m1["benchmark"] == "m1" and m1["fallback"]["bias"] == pytest.approx(sum(errors) / 2)
    assert m1["family"]["bias"] == -15.0   # family match fits nothing: the same in any folds


def test_holdout_folds_are_seeded_and_balanced():
    ids = [f"m{i:02d}" for i in range(23)]
    folds = aiiq.holdout_folds(ids, 5)
    assert sorted(folds) == ids and sorted(Counter(folds.values()).values()) == [4, 4, 5, 5, 5]
    assert aiiq.holdout_folds(list(reversed(ids)), 5) == folds          # the order given does not matter
    assert aiiq.holdout_folds(ids, 5, seed="another") != folds
    assert sorted(aiiq.holdout_folds(ids, 23).values()) == list(range(23))   # k = n: leave one out


def test_family_verdict_margin_and_cases():
    def verdict(cases, fam, fallback):
        return aiiq.family_verdict({"cases": cases, "family": {"rmse": fam}, "fallback": {"rmse": fallback}})

    assert aiiq.FAMILY_MIN_CASES == 10 and aiiq.FAMILY_MARGIN == 0.10
    assert verdict(10, 11.01, 10.0) == "worse" and verdict(10, 10.0, 11.01) == "better"
    assert verdict(10, 11.0, 10.0) is None and verdict(10, 10.0, 11.0) is None   # exactly 10%: no clear answer
    assert verdict(9, 20.0, 10.0) is None and verdict(9, 10.0, 20.0) is None     # too few cases
    assert verdict(10, None, 10.0) is None


def test_family_match_settings_agree_with_the_held_out_error_on_the_real_data(real_repo):
    """A benchmark with family match on where it is clearly worse than the fallback, or off where it is clearly
    better (aiiq.family_verdict: >= 10 cases, RMSE more than 10% apart), contradicts the measurement."""
    from sitegen.data import frame

    repo = real_repo  # tests/conftest.py: validated once per session
    index = definition("ai-iq")
    rows = aiiq.family_holdout(index, frame.results(repo), frame.models(repo))
    on = aiiq.family_benchmarks(index)
    wrong = [(r["benchmark"], "on" if r["benchmark"] in on else "off", r["cases"], r["family"]["rmse"],
              r["fallback"]["rmse"]) for r in rows
             if aiiq.family_verdict(r) == ("worse" if r["benchmark"] in on else "better")]
    assert not wrong, "family_match settings in ai-iq.yaml contradict the held-out error (benchmark, setting, " \
                      f"cases, family RMSE, fallback RMSE): {wrong}"
    assert sum(r["cases"] for r in rows) >= 100   # the measurement has real cases to judge by


def test_critpt_is_read_as_published():
    # CritPt is challenge accuracy in percent, read on the seed's "0-20" table as it stands (no x 0.2):
    # 5.7 lies between (5, 140) and (8, 145): 140 + 5 * 0.7 / 3 = 141.1667;
    # 12.6 (a tool-using variant, the model's only result) between (12, 150) and (20, 155): 150 + 5 * 0.6 / 8 = 150.375.
    frame = results(
        {"model": "x", "benchmark": "critpt", "value": 5.7, "source": "critpt", "retrieved": "2025-11-21"},
        {"model": "y", "benchmark": "critpt", "value": 12.6, "source": "critpt", "harness": "code & web",
         "retrieved": "2025-11-21"},
    )
    board = aiiq.compute(definition("ai-iq"), frame, models())
    x, y = comp(row(board, "x"), "critpt"), comp(row(board, "y"), "critpt")
    assert (x["raw"], x["value"]) == (5.7, pytest.approx(141.1667))
    assert (y["raw"], y["value"]) == (12.6, 150.375)


# --- The anchor tables in the YAML are the seed's tables, exactly. ---
# The seed's figures are kept as a small fixture (numbers only), so the repository tests on its own.

SEED_TABLES = Path(__file__).with_name("fixtures") / "ai_iq_seed_002.yaml"


def seed_tables() -> dict[str, dict]:
    """The seed's tables by benchmark id: anchors as [score, IQ] floats, tier, ceil and compressed_from."""
    tables = yaml.safe_load(SEED_TABLES.read_text(encoding="utf-8"))["tables"]
    return {bench: {**t, "anchors": [[float(x), float(y)] for x, y in t["anchors"]]} for bench, t in tables.items()}


def yaml_tables() -> dict[str, list]:
    iq = {b["benchmark"]: b for d in definition("ai-iq")["dimensions"] for b in d["benchmarks"]}
    eq = {c["benchmark"]: c for c in definition("ai-eq")["components"]}
    return {**iq, **eq}


def test_anchor_tables_equal_the_seed():
    seed, ours = seed_tables(), yaml_tables()
    assert set(seed) == set(ours) and len(seed) == 12
    for bench, table in seed.items():
        assert [[float(x), float(y)] for x, y in ours[bench]["anchors"]] == table["anchors"], bench


def test_ceilings_equal_the_seed():
    seed, ours = seed_tables(), yaml_tables()
    for bench, table in seed.items():
        if bench in ("eq-bench-3", "lmarena-text"):
            continue
        assert ours[bench]["ceiling"] == table["anchors"][-1][1], bench      # the table's top is the ceiling
        assert ours[bench]["tier"] == table["tier"], bench
        if table["tier"] == "compressed":
            assert ours[bench]["ceiling"] == table["ceil"], bench
            assert ours[bench]["ceiling_original"] == table["compressed_from"], bench   # from the prose


# --- Runs on the same draws share each benchmark's P80 (index_values' `shared`). ---

def _two_draws() -> aiiq.Scores:
    # Two draws, six models; IQ = raw + 50. m1: models 0-4, IQs 100..140 in draw 0 and 90..130 in draw 1, so
    # its P80 (n=5: the 4th ascending) is 130 and 120. m2: model 5 alone, IQ 145 and 135 (P80 of one: itself).
    nan = math.nan
    return aiiq.Scores.from_dense({
        "m1": np.array([[50, 60, 70, 80, 90, nan], [40, 50, 60, 70, 80, nan]], float),
        "m2": np.array([[nan, nan, nan, nan, nan, 95], [nan, nan, nan, nan, nan, 85]], float),
    })


def test_index_values_keeps_each_benchmark_p80_in_shared():
    shared: dict = {}
    out = aiiq.index_values(mini(mathematical=["m1", "m2"]), _two_draws(), shared=shared)
    assert sorted(shared) == ["m1", "m2"]
    assert shared["m1"].tolist() == [[130.0], [120.0]] and shared["m2"].tolist() == [[145.0], [135.0]]
    here, values = out["dims"]["mathematical"]
    # model 5's m1 gap: min(own mean 145 | 135, P80 130 | 120) -> its dimension (145 + 130) / 2, (135 + 120) / 2
    assert here.tolist() == [0, 1, 2, 3, 4, 5] and values[:, 5].tolist() == [137.5, 127.5]


def test_index_values_reads_the_p80_shared_by_an_earlier_run():
    shared = {"m1": np.array([[125.0], [111.0]])}  # as if an earlier run on these draws had found these
    out = aiiq.index_values(mini(mathematical=["m1", "m2"]), _two_draws(), shared=shared)
    _, values = out["dims"]["mathematical"]
    assert values[:, 5].tolist() == [(145 + 125) / 2, (135 + 111) / 2]  # min(own, the shared P80)
    assert shared["m1"].tolist() == [[125.0], [111.0]] and shared["m2"].tolist() == [[145.0], [135.0]]


def test_a_second_run_with_noise_on_shared_p80s_equals_a_run_alone():
    definition = mini(mathematical=["m1", "m2"])

    def plus_one(rule, component, cols, base):
        return base + 1.0

    shared: dict = {}
    aiiq.index_values(definition, _two_draws(), shared=shared)  # the measured-only run fills it
    second = aiiq.index_values(definition, _two_draws(), plus_one, shared=shared)
    alone = aiiq.index_values(definition, _two_draws(), plus_one)
    for key in ("dims", "plain"):
        for did, (here, values) in alone[key].items():
            assert np.array_equal(second[key][did][0], here) and np.array_equal(second[key][did][1], values)
    assert second["dims"]["mathematical"][1][:, 5].tolist() == [(145 + 131) / 2, (135 + 121) / 2]


# --- lowest_sibling: each family-matched gap's lowest sibling IQ, all gaps of a sibling count at once. ---

def test_lowest_sibling_one_and_two_siblings_ties_and_a_sibling_without_an_iq():
    # Columns 0-5; the benchmark's models are columns 0, 2, 3, 5 (mk), so iq holds them in that order.
    mk = np.array([True, False, True, True, False, True])
    iq = np.array([[100.0, 120.0, 110.0, 90.0],    # draw 0: col0 100, col2 120, col3 110, col5 90
                   [130.0, 105.0, 105.0, 140.0]])  # draw 1: col0 130, col2 105, col3 105, col5 140
    family = [(1, np.array([0])),      # one sibling: col0 -> 100 | 130
              (4, np.array([2, 3])),   # two: min(120, 110) = 110 (col3) | min(105, 105) = 105, col2 (lower id)
              (3, np.array([5])),      # one sibling: col5 -> 90 | 140
              (5, np.array([1]))]      # its sibling (col1) has no IQ: NaN
    lowest, took = aiiq.lowest_sibling(iq, mk, family, which=True)
    assert lowest[:, :3].tolist() == [[100.0, 110.0, 90.0], [130.0, 105.0, 140.0]]
    assert np.isnan(lowest[:, 3]).all()
    assert took[:, :3].tolist() == [[0, 3, 5], [0, 2, 5]]


def test_lowest_sibling_without_which_and_without_gaps():
    mk = np.array([True, True])
    iq = np.array([[101.0, 99.0]])
    lowest, took = aiiq.lowest_sibling(iq, mk, [(0, np.array([1]))])
    assert lowest.tolist() == [[99.0]] and took is None
    lowest, took = aiiq.lowest_sibling(iq, mk, [], which=True)
    assert lowest.shape == (1, 0) and took.shape == (1, 0)
