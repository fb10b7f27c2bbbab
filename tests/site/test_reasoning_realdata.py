"""The repository's real data: the AI IQ board's reasoning counts, the 'not stated' rows' evidence, and the rows a
benchmark's sources give that no board shows (not attributed, excluded by a reviewed override, other harnesses)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from sitegen.build import site_context
from sitegen.site.pages import Urls
from sitegen.site.views import Lookups, bench_board_view, board_view

REPO = Path(__file__).parent.parent.parent


@pytest.fixture(scope="module")
def real(real_repo, real_computed):
    computed = real_computed  # tests/conftest.py: computed once per session
    ctx = site_context(real_repo, computed)
    return computed, Lookups(ctx, Urls(ctx))


def test_ai_iq_filter_counts_are_the_ranked_rows_states(real, capsys):
    computed, lk = real
    view = board_view("ai-iq", lk)
    records = {r["model"]: r for r in computed.model_records}
    ranked = [r["model"] for r in computed.boards["ai-iq"]["rows"] if r.get("rank") is not None]
    expected = Counter(records[m]["reasoning_state"] for m in ranked)
    counts = view["unknown"]["by_reasoning"]
    with capsys.disabled():
        print("\nAI IQ ranked rows: " + " · ".join(f"{k} {v}" for k, v in counts.items()))
    assert view["hide_unranked"] and counts == {s: expected.get(s, 0) for s in counts}
    assert sum(counts.values()) == len(ranked) == view["n_ranked"]
    # every ranked configuration's mode was searched (issue 26): known, or 'not stated' with the search recorded
    assert counts == {"yes": 289, "no": 271, "not stated": 29, "not known": 0}


# Ranked rows that have no reasoning mode to state, with the reason: ARC Prize's human baselines are people.
NO_MODE = {
    "human/avg.-mturker": "ARC Prize human baseline (average Mechanical Turk worker), not a model",
    "human/human-panel": "ARC Prize human baseline (human panel), not a model",
    "human/stem-grad": "ARC Prize human baseline (STEM graduate), not a model",
}


def _ranked_rows(computed):
    """(board, model) for every ranked row of every index board and benchmark board (each question set)."""
    for bid, board in computed.boards.items():
        yield from ((bid, r["model"]) for r in board.get("rows", []) if r.get("rank") is not None)
    for bid, board in computed.benchmark_boards.items():
        tables = [board] + list(board.get("other_question_sets", []))
        for table in tables:
            yield from ((bid, r["model"]) for r in table["rows"] if r.get("rank") is not None)


def test_every_ranked_row_states_its_mode_or_that_the_vendor_does_not(real):
    computed, _ = real
    records = {r["model"]: r for r in computed.model_records}
    unknown = {m for _, m in _ranked_rows(computed) if records[m]["reasoning_state"] == "not known"}
    assert unknown == set(NO_MODE)
    assert all(records[m]["organization"] == "Human baseline (ARC Prize)" for m in NO_MODE)


def test_modes_found_for_formerly_unknown_rows_cite_their_evidence(real):
    computed, _ = real
    records = {r["model"]: r for r in computed.model_records}
    rules = yaml.safe_load((REPO / "scores" / "metadata.yaml").read_text(encoding="utf-8"))["rules"]
    # a name that states the mode, a vendor page, or AA's reasoning flag (scores/sources.yaml aa-models-scrape-2026-07)
    expected = {"deepseek/deepseek-reasoner": True, "google/gemini-3-deep-think-preview": True,
                "openai/gpt-5.1-codex-max": True, "meta/muse-spark": True, "upstage/solar-pro-3": True,
                "deepseek/deepseek-ai-deepseek-v4-flash": True,
                "google/learnlm-1.5-pro": False, "anthropic/claude-instant": False, "xai/grok-1": False}
    for model, reasoning in expected.items():
        r = records[model]
        assert r["reasoning"] is reasoning and r["reasoning_state"] == ("yes" if reasoning else "no"), model
        assert r["reasoning_source"].startswith("scores/metadata.yaml:"), model
        rule = next(x for x in rules if model in x["match"] and "reasoning" in x)
        assert rule["url"].startswith("https://") and rule["source"], model
    sources = yaml.safe_load((REPO / "scores" / "sources.yaml").read_text(encoding="utf-8"))["sources"]
    assert any(s["id"] == "aa-models-scrape-2026-07" for s in sources)


def test_every_not_stated_model_has_a_reviewed_rule_with_its_evidence(real):
    computed, _ = real
    rules = yaml.safe_load((REPO / "scores" / "metadata.yaml").read_text(encoding="utf-8"))["rules"]
    not_stated = [r for r in computed.model_records if r["reasoning_state"] == "not stated"]
    assert not_stated
    for r in not_stated:
        assert r["reasoning"] is None and r["reasoning_source"].startswith("scores/metadata.yaml:")
        line = int(r["reasoning_source"].rsplit(":", 1)[1])
        rule = next(x for x in rules if x.get("reasoning") == "not stated" and r["model"] in x["match"])
        assert rule["url"].startswith("https://") and rule["source"], (r["model"], line)


def test_benchmark_pages_list_rows_no_board_shows(real):
    _, lk = real
    overrides = yaml.safe_load((REPO / "scores" / "overrides.yaml").read_text(encoding="utf-8"))["overrides"]
    swe = bench_board_view("swe-bench-verified", lk)["left_out"]
    excluded = [e for e in swe if e["href"]]
    assert len(excluded) == sum(1 for o in overrides if o.get("exclude") and o["benchmark"] == "swe-bench-verified")
    assert all(e["reason"].startswith("Excluded by a reviewed correction: ") for e in excluded)
    # downloads/swe-bench: 'nFactorial (2024-11-05)', 49.2, tagged with two different models
    system = next(e for e in swe if e["name"].startswith("nFactorial (2024-11-05)"))
    assert system["shown"] == "SWE-bench Verified 49.2" and "several models" in system["reason"]
    # 'Tools + Claude 3.5 Sonnet (2024-10-22)' names one model (two spellings of its tag): on the board, not here
    assert not any(e["name"].startswith("Tools + Claude 3.5 Sonnet (2024-10-22)") for e in swe)
    # downloads/epoch-ai-benchmarking-hub/terminalbench_external.csv: Warp, Model Org 'Multiple', 0.612
    tb = bench_board_view("terminal-bench-2", lk)["left_out"]
    warp = next(e for e in tb if e["name"] == "Warp (model: Multiple)")
    assert warp["shown"].endswith(" 61.2") and "several models" in warp["reason"]


def test_critpt_board_says_the_tool_using_runs_beside_the_tool_free_one(real):
    _, lk = real
    rows = bench_board_view("critpt", lk)["rows"]
    gpt5 = next(r for r in rows if r["id"] == "openai/gpt-5-high")
    # downloads/critpt: GPT-5 (high) 5.7 without tools, 10.6 with code, 12.6 with code & web
    assert gpt5["harness"] == "" and gpt5["value"] == 5.7
    assert gpt5["also"] == [{"harness": "code & web", "value": 12.6}, {"harness": "code", "value": 10.6}]
