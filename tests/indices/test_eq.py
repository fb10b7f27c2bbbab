"""AI EQ: anchor mapping, the Anthropic adjustment before mapping, mean of the available components."""

from __future__ import annotations

import pytest

from indexkit import comp, definition, models, results, row
from sitegen.indices import eq


def elo(model, bench, value, source):
    return {"model": model, "benchmark": bench, "value": value, "source": source}


def test_anthropic_adjustment_and_composite():
    frame = results(
        elo("anthropic/claude", "eq-bench-3", 1500, "eq-bench"),   # 1500 - 200 = 1300 -> EQ 105 (not 113)
        elo("anthropic/claude", "lmarena-text", 1400, "lmarena"),  # -> 113, not adjusted
        elo("openai/gpt", "eq-bench-3", 1500, "eq-bench"),         # -> 113
        elo("openai/gpt", "lmarena-text", 1425, "lmarena"),        # 113 + 9 * 25 / 50 = 117.5
        elo("google/g", "lmarena-text", 1600, "lmarena"),          # clamped at 140; one component alone
    )
    people = models({"model": "anthropic/claude", "organization": "Anthropic"},
                    {"model": "openai/gpt", "organization": "OpenAI"})
    board = eq.compute(definition("ai-eq"), frame, people)
    c, g, s = row(board, "anthropic/claude"), row(board, "openai/gpt"), row(board, "google/g")
    assert comp(c, "eq-bench-3")["value"] == 105 and comp(c, "eq-bench-3")["raw"] == 1500
    assert comp(c, "eq-bench-3")["how"] == "derived" and "-200 Elo" in comp(c, "eq-bench-3")["reason"]
    assert comp(c, "lmarena-text")["how"] == "observed" and comp(c, "lmarena-text")["value"] == 113
    assert c["value"] == 109
    assert g["value"] == pytest.approx((113 + 117.5) / 2)
    assert (s["value"], s["status"], s["coverage"]) == (140, "partial", {"have": 1, "of": 2})
    assert comp(s, "eq-bench-3")["how"] == "missing"
    assert [r["model"] for r in board["rows"]] == ["google/g", "openai/gpt", "anthropic/claude"]


def test_adjustment_falls_back_to_the_model_id_prefix():
    frame = results(elo("anthropic/x", "eq-bench-3", 1100, "eq-bench"))   # 900 -> 93
    assert row(eq.compute(definition("ai-eq"), frame, models()), "anthropic/x")["value"] == 93
