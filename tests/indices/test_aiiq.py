"""AI IQ: benchmark- and dimension-level imputation, composite, status, manual fallback, and the seed's tables.

Most tests use a small inline definition whose anchors are the line IQ = raw + 50 ([0, 50] to [100, 150]), so
every expectation can be checked by hand; the real ai-iq.yaml is exercised at the end.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from indexkit import comp, definition, models, results, row, scores
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


def family_models(*rows: tuple[str, str, str, float]) -> pd.DataFrame:
    """A models frame with the identity columns family match reads: (model, release, effort, effort_rank)."""
    return pd.DataFrame([{"model": m, "release": r, "effort": e, "effort_rank": k} for m, r, e, k in rows])


def test_family_match_branches():
    # m1 real IQs (raw + 50): f/low 80, x/1 90, g/a 106, x/2 116, f/mid 124 -> P80 = 4th of 5 = 116.
    # Everyone missing m1 has m2 = 95 (IQ 145), so min-of-two would give min(145, 116) = 116.
    frame = scores(**{
        "f__low": {"m1": 30, "m2": 50}, "f__mid": {"m1": 74, "m2": 50}, "f__top": {"m2": 95},
        "f__zero": {"m2": 95}, "g__a": {"m1": 56}, "g__b": {"m2": 95}, "x__1": {"m1": 40}, "x__2": {"m1": 66},
        "s__solo": {"m2": 95},
    })
    people = family_models(("f/low", "f", "low", 1.0), ("f/mid", "f", "medium", 2.0), ("f/top", "f", "high", 3.0),
                           ("f/zero", "f", "minimal", 0.0), ("g/a", "g", "high", 2.0), ("g/b", "g", "high", 2.0),
                           ("x/1", "x/1", "", math.nan), ("x/2", "x/2", "", math.nan),
                           ("s/solo", "s/solo", "", math.nan))
    definition = dict(mini(), family_match=True)
    board = aiiq.compute(definition, frame, people)
    top, zero, gb, solo = (comp(row(board, m), "m1") for m in ("f/top", "f/zero", "g/b", "s/solo"))
    # Two eligible siblings (f/low at effort 1, f/mid at 2, both <= 3): the nearest effort, f/mid, wins: 124,
    # above P80 (a real score is not capped); its raw score and source come with it.
    assert (top["how"], top["value"], top["raw"], top["sibling"]) == ("imputed", 124, 74, "f/mid")
    assert "family match: the real score of f/mid" in top["reason"] and top["source"] == "src"
    assert comp(row(board, "f/top"), "mathematical")["value"] == (124 + 145) / 2
    # Only higher-effort siblings (effort 0 below both): no family match, min(own 145, P80 116) = 116.
    assert (zero["how"], zero["value"], zero["percentile"]["value"]) == ("imputed", 116, 116)
    assert "sibling" not in zero and zero["reason"].startswith("min(")
    # Equal effort: g/a (effort 2) serves g/b (effort 2): 106, below what min-of-two would give (116).
    assert (gb["value"], gb["sibling"]) == (106, "g/a")
    # No sibling at all (its own release, unknown effort): min-of-two.
    assert (solo["value"], "sibling" in solo) == (116, False)
    # Sibling scores never enter a P80 population: the cap seen by everyone is still 116.
    assert all(c["percentile"]["value"] == 116 for c in (zero, solo))
    # The switch: off, f/top falls back to min-of-two.
    off = aiiq.compute(dict(mini(), family_match=False), frame, people)
    assert comp(row(off, "f/top"), "m1")["value"] == 116 and "sibling" not in comp(row(off, "f/top"), "m1")


def test_family_match_needs_known_effort_on_both_sides():
    frame = scores(**{"f__a": {"m1": 80, "m2": 50}, "f__b": {"m2": 95}})
    people = family_models(("f/a", "f", "", math.nan), ("f/b", "f", "high", 3.0))
    r = comp(row(aiiq.compute(dict(mini(), family_match=True), frame, people), "f/b"), "m1")
    assert "sibling" not in r and r["value"] == 130   # min(own 145, P80 of {130} = 130)


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
