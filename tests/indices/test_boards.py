"""compute_boards / compute_benchmark_boards over every definition, and determinism of the exported text."""

from __future__ import annotations

from indexkit import benchmarks, definition, models, results, row
from sitegen.export import to_json
from sitegen.indices.boards import compute_benchmark_boards, compute_boards, publishable

MINE = ["aa-intelligence-v2-2", "aa-intelligence-v3-0", "aa-math-v2-2", "aa-coding-v2-2", "aa-coding-v3-0",
        "aa-multilingual-v2-2", "ai-iq", "ai-eq", "cost", "benchmark-boards"]
INDICES = {i: definition(i) for i in MINE}
FRAME = results(
    {"model": "o/m", "benchmark": "aime-2025", "value": 90, "source": "aa-leaderboard-2025-08"},
    {"model": "o/m", "benchmark": "aime-2025", "value": 95, "source": "aa-api-2026-07", "retrieved": "2026-07-31"},
    {"model": "o/m", "benchmark": "hle", "value": 20, "source": "aa-api-2026-07", "stderr": 0.8, "subset": "aa-2684"},
    {"model": "o/m", "benchmark": "eq-bench-3", "value": 1500, "source": "eq-bench"},
    {"model": "o/n", "benchmark": "hle", "value": 10, "source": "epoch", "self_reported": True},
    {"model": "o/n", "benchmark": "hle", "value": 12, "source": "aa-api-2026-07", "harness": "x", "subset": "aa-2684"},
    {"model": "o/p", "benchmark": "hle", "value": 25, "source": "epoch"},
    {"model": "o/p", "benchmark": "hle", "value": 24, "source": "hle-paper", "subset": "text-only"},
    {"model": "o/p", "benchmark": "hle", "value": 7.4, "source": "hle-paper", "subset": "math"},
    {"model": "o/p", "benchmark": "hle", "value": 10.4, "source": "hle-paper", "subset": "bio-med"},
    {"model": "o/n", "benchmark": "hle", "value": 3.1, "source": "hle-paper", "subset": "text-only.other"},
)
PEOPLE = models({"model": "o/m", "input_per_mtok": 1.0, "output_per_mtok": 2.0})
ROW_KEYS = {"model", "value", "rank", "status", "coverage", "components"}


def test_every_board_has_the_api_shape():
    boards = compute_boards(FRAME, PEOPLE, benchmarks(), INDICES)
    assert sorted(boards) == sorted(i for i in MINE if i != "benchmark-boards")
    for board in boards.values():
        assert set(board) == {"index", "name", "version", "kind", "unit", "description", "source_snapshot", "rows",
                              "definition"}
        for r in board["rows"]:
            assert ROW_KEYS <= set(r) <= ROW_KEYS | {"manual"}
            for c in r["components"]:
                assert {"id", "kind", "value", "raw", "how", "source", "retrieved"} <= set(c)
                assert c["how"] in {"observed", "published", "imputed", "derived", "excluded", "missing"}
                if c["how"] in {"imputed", "derived", "excluded", "missing"}:
                    assert c["reason"]
    assert row(boards["aa-math-v2-2"], "o/m")["value"] == 90      # the v2.2 snapshot, not the 2026 re-run
    assert publishable(boards["aa-math-v2-2"], INDICES["aa-math-v2-2"])
    assert not publishable(boards["aa-multilingual-v2-2"], INDICES["aa-multilingual-v2-2"])


def test_benchmark_boards():
    boards = compute_benchmark_boards(FRAME, PEOPLE, benchmarks(), INDICES)
    assert set(boards) == {b["id"] for b in benchmarks()}
    hle = boards["hle"]
    # Each question set is ranked only within itself: the full set (o/p 25 above o/n 10), the paper's text-only
    # subset (o/p alone), and Artificial Analysis' 2,684 questions (o/m 20 above o/n 12, never against o/p's 25).
    assert [(r["model"], r["value"], r["rank"], r["source"]) for r in hle["rows"]] == [
        ("o/p", 25.0, 1, "epoch"), ("o/n", 10.0, 2, "epoch")]
    assert hle["question_set"].startswith("Full set: the 2,500 questions")
    sets = {qs["subset"]: qs["rows"] for qs in hle["other_question_sets"]}
    assert list(sets) == ["text-only", "aa-2684"]
    assert [(r["model"], r["value"], r["rank"]) for r in sets["text-only"]] == [("o/p", 24.0, 1)]
    assert [(r["model"], r["value"], r["rank"], r["source"]) for r in sets["aa-2684"]] == [
        ("o/m", 20.0, 1, "aa-api-2026-07"), ("o/n", 12.0, 2, "aa-api-2026-07")]
    assert sets["aa-2684"][0]["stderr"] == 0.8 and sets["aa-2684"][1]["harness"] == "x"
    assert "question_set" not in boards["aime-2025"]
    # The paper's Table 3 as two tables (full set, text-only), one column per category, unknown cells None.
    full, text = hle["category_tables"]
    assert [c["subset"] for c in full["columns"]][:2] == ["math", "bio-med"] and len(full["columns"]) == 8
    assert [(r["model"], [c and c["value"] for c in r["cells"]]) for r in full["rows"]] == [
        ("o/p", [7.4, 10.4, None, None, None, None, None, None])]
    assert [(r["model"], [c and c["value"] for c in r["cells"]][-1]) for r in text["rows"]] == [("o/n", 3.1)]
    assert full["rows"][0]["cells"][0]["source"] == "hle-paper"
    assert boards["aime-2025"]["rows"][0]["value"] == 95   # the first listed source (the 2026 API) wins
    assert set(sets["aa-2684"][0]) == {"model", "value", "rank", "how", "source", "retrieved", "url", "stderr",
                                   "ci_low", "ci_high", "harness", "self_reported"}


def test_output_is_deterministic():
    first = {k: to_json(v) for k, v in compute_boards(FRAME, PEOPLE, benchmarks(), INDICES).items()}
    shuffled = FRAME.sample(frac=1, random_state=7)
    second = {k: to_json(v) for k, v in compute_boards(shuffled, PEOPLE, benchmarks(), INDICES).items()}
    assert first == second


def test_no_board_ranks_two_snapshots_of_one_source_together():
    from sitegen.indices.boards import one_snapshot
    from sitegen.indices.parts import rank_rows

    rows = [{"model": "o/a", "value": 80.0, "source": "aa-leaderboard-2025-08", "how": "observed", "_ranked": True},
            {"model": "o/b", "value": 60.0, "source": "aa-api-2026-07", "how": "observed", "_ranked": True},
            {"model": "o/c", "value": 70.0, "source": "aa-api-2026-07", "how": "observed", "_ranked": True},
            {"model": "o/d", "value": 90.0, "source": "epoch", "how": "observed", "_ranked": True},
            {"model": "o/e", "value": 50.0, "source": "xy-api-2024-01", "how": "observed", "_ranked": True}]
    ranked = rank_rows(one_snapshot(rows), True)
    assert [(r["model"], r["rank"]) for r in ranked] == [("o/d", 1), ("o/c", 2), ("o/b", 3), ("o/e", 4), ("o/a", None)]
    older = ranked[-1]
    assert older["how"] == "excluded" and older["reason"].startswith(
        "from the older snapshot aa-leaderboard-2025-08") and "ranks aa-api-2026-07" in older["reason"]
    # one snapshot of a publisher, or undated source ids: nothing changes
    alone = [{"model": "o/a", "value": 1.0, "source": "aa-api-2025-10", "_ranked": True},
             {"model": "o/b", "value": 2.0, "source": "lmarena", "_ranked": True}]
    assert all(r["_ranked"] for r in one_snapshot(alone))
