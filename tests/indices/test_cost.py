"""Cost: 2:1 token cost, efficiency against the median (odd and even counts), effective cost, unpriced models."""

from __future__ import annotations

import pytest

from indexkit import comp, definition, models, results, row
from sitegen.indices import cost


def tokens(model, value):
    return {"model": model, "benchmark": "aa-suite-tokens", "value": value, "source": "aa-tokens-2026-07"}


PEOPLE = models(
    {"model": "p/a", "input_per_mtok": 1.25, "output_per_mtok": 10.0, "pricing_source": "aa-api-2026-07",
     "pricing_as_of": "2026-07-31"},                                  # token cost 2 * 1.25 + 10 = 12.5
    {"model": "p/b", "input_per_mtok": 0.5, "output_per_mtok": 1.0},  # 2.0
    {"model": "p/c", "input_per_mtok": 3.0, "output_per_mtok": 15.0}, # 21.0, no token data
    {"model": "p/free", "input_per_mtok": 0.0, "output_per_mtok": 0.0},  # priced at $0: a real price
    {"model": "p/unpriced", "input_per_mtok": None, "output_per_mtok": 2.0},
)


def test_effective_cost_with_odd_count_median():
    frame = results(tokens("p/a", 100), tokens("p/b", 50), tokens("p/x", 20),
                    {"model": "p/a", "benchmark": "aa-response-time", "value": 7.5, "source": "aa-leaderboard-2025-08"})
    board = cost.compute(definition("cost"), frame, PEOPLE)   # median of 20, 50, 100 = 50
    a, b, c = row(board, "p/a"), row(board, "p/b"), row(board, "p/c")
    assert comp(a, "token-cost")["value"] == 12.5 and comp(a, "token-cost")["source"] == "aa-api-2026-07"
    assert comp(a, "token-efficiency")["value"] == 2.0
    assert a["value"] == 25.0 and b["value"] == 2.0
    assert comp(a, "aa-response-time")["value"] == 7.5
    assert (c["value"], c["status"], c["rank"]) == (None, "no-token-data", None)
    assert "never assumed" in comp(c, "token-efficiency")["reason"]
    assert [(r["model"], r["rank"]) for r in board["rows"][:2]] == [("p/b", 1), ("p/a", 2)]   # lowest first


def test_even_count_median_and_unpriced_models():
    frame = results(tokens("p/a", 100), tokens("p/b", 50), tokens("p/unpriced", 30), tokens("p/free", 10))
    board = cost.compute(definition("cost"), frame, PEOPLE)   # median of 10, 30, 50, 100 = 40
    assert comp(row(board, "p/a"), "token-efficiency")["value"] == 2.5
    assert row(board, "p/a")["value"] == pytest.approx(31.25)
    u = row(board, "p/unpriced")
    assert (u["value"], u["status"], u["rank"]) == (None, "unpriced", None)
    assert comp(u, "token-cost")["value"] is None and "not $0" in comp(u, "token-cost")["reason"]
    assert row(board, "p/free")["value"] == 0.0 and row(board, "p/free")["rank"] == 1


def test_a_zero_median_token_usage_leaves_efficiency_unknown():
    """Token counts of 0 pass the schema (aa-suite-tokens is on 0-∞); dividing by their median must not crash."""
    frame = results(tokens("p/a", 0), tokens("p/b", 0), tokens("p/x", 5))   # median of 0, 0, 5 = 0
    board = cost.compute(definition("cost"), frame, PEOPLE)
    a = row(board, "p/a")
    assert (a["value"], a["status"], a["rank"]) == (None, "no-token-data", None)
    assert comp(a, "token-efficiency")["reason"] == "the median token usage is 0: efficiency is undefined"
    assert comp(a, "aa-suite-tokens")["value"] == 0
