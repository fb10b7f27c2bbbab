"""AA weighted means: complete and incomplete rows, published-only rows, snapshot isolation, sub-indices."""

from __future__ import annotations

import pytest

from indexkit import comp, definition, models, results, row
from sitegen.indices import aa

V22 = ["mmlu-pro", "hle", "gpqa-diamond", "aime-2025", "ifbench", "scicode", "livecodebench", "aa-lcr"]
SNAP = "aa-leaderboard-2025-08"


def evals(model, values, source=SNAP, **extra):
    """AA results as the importers write them: HLE under AA's own question set (subset aa-2684)."""
    return [{"model": model, "benchmark": b, "value": v, "source": source, "subset": "aa-2684" if b == "hle" else "",
             **extra} for b, v in values.items()]


def test_v22_plain_mean_incomplete_and_published_rows():
    full = dict(zip(V22, [80, 20, 70, 60, 50, 40, 60, 50]))           # mean 430 / 8 = 53.75
    seven = {b: v for b, v in full.items() if b != "aa-lcr"}
    frame = results(
        *evals("a/full", full), {"model": "a/full", "benchmark": "aa-intelligence-index", "value": 54, "source": SNAP},
        *evals("a/seven", seven),
        *evals("a/old", {"mmlu-pro": 70}), {"model": "a/old", "benchmark": "aa-intelligence-index", "value": 41,
                                          "source": SNAP},
    )
    board = aa.compute(definition("aa-intelligence-v2-2"), frame, models())
    assert (board["index"], board["version"], board["source_snapshot"]) == ("aa-intelligence-v2-2", "2.2", SNAP)
    f, s, o = row(board, "a/full"), row(board, "a/seven"), row(board, "a/old")
    assert (f["value"], f["rank"], f["status"], f["coverage"]) == (53.75, 1, "complete", {"have": 8, "of": 8})
    assert comp(f, "aa-intelligence-index")["how"] == "published" and comp(f, "aa-intelligence-index")["value"] == 54
    assert (s["value"], s["rank"], s["status"], s["coverage"]) == (None, None, "incomplete", {"have": 7, "of": 8})
    assert comp(s, "aa-lcr")["how"] == "missing" and "not imputed" in comp(s, "aa-lcr")["reason"]
    # Published index with constituents missing: AA's figure is shown, marked published, and not ranked.
    assert (o["value"], o["rank"], o["status"], o["coverage"]["have"]) == (41, None, "published", 1)
    assert "cannot be recomputed" in comp(o, "aa-intelligence-index")["reason"]
    assert [r["model"] for r in board["rows"]] == ["a/full", "a/old", "a/seven"]


def test_version_reads_only_its_snapshot():
    full = dict(zip(V22, [80, 20, 70, 60, 50, 40, 60, 50]))
    rerun = {**full, "hle": 99}
    frame = results(*evals("a/m", full), *evals("a/m", rerun, source="aa-api-2026-07", retrieved="2026-07-31"))
    r = row(aa.compute(definition("aa-intelligence-v2-2"), frame, models()), "a/m")
    assert r["value"] == 53.75
    assert comp(r, "hle")["source"] == SNAP and comp(r, "hle")["value"] == 20


def test_hle_on_another_question_set_is_not_a_constituent():
    # The same snapshot with HLE filed on the full set (subset ""): not AA's set, so HLE is missing (7/8, no value).
    full = dict(zip(V22, [80, 20, 70, 60, 50, 40, 60, 50]))
    frame = results(*[dict(r, subset="") for r in evals("a/m", full)])
    r = row(aa.compute(definition("aa-intelligence-v2-2"), frame, models()), "a/m")
    assert (r["value"], r["coverage"]) == (None, {"have": 7, "of": 8}) and comp(r, "hle")["how"] == "missing"


def test_v30_ten_evals_and_coding_sub_index():
    v30 = dict(zip(V22 + ["terminal-bench-hard", "tau2-bench-telecom"], [85, 20, 83, 88, 71, 41, 81, 69, 35, 81]))
    frame = results(*evals("o/o3", v30, source="aa-api-2025-10"))
    board = aa.compute(definition("aa-intelligence-v3-0"), frame, models())
    assert row(board, "o/o3")["value"] == pytest.approx(65.4)
    assert row(board, "o/o3")["coverage"] == {"have": 10, "of": 10}
    coding = aa.compute(definition("aa-coding-v3-0"), frame, models())
    assert row(coding, "o/o3")["value"] == pytest.approx(round((81 + 41 + 35) / 3, 4))


def test_math_and_multilingual_sub_indices():
    frame = results(*evals("x/y", {"aime-2025": 91, "global-mmlu-lite": 80, "mgsm": 85}))
    assert row(aa.compute(definition("aa-math-v2-2"), frame, models()), "x/y")["value"] == 91
    assert row(aa.compute(definition("aa-multilingual-v2-2"), frame, models()), "x/y")["value"] == 82.5
    coding = aa.compute(definition("aa-coding-v2-2"), frame, models())
    assert coding["rows"] == []   # no coding evals at all: no row


def test_ties_share_a_rank():
    frame = results(*evals("m/b", {"aime-2025": 90}), *evals("m/a", {"aime-2025": 90}), *evals("m/c", {"aime-2025": 95}),
                    *evals("m/d", {"aime-2025": 80}))
    board = aa.compute(definition("aa-math-v2-2"), frame, models())
    assert [(r["model"], r["rank"]) for r in board["rows"]] == [("m/c", 1), ("m/a", 2), ("m/b", 2), ("m/d", 4)]
