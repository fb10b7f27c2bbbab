"""Decimals come from a number's unit and the values it is shown among; units are written around it."""

from __future__ import annotations

import pytest

from sitegen.site.numbers import decimals, header, number, unit_name, with_unit


@pytest.mark.parametrize("unit, values, expected", [
    ("percent", [87.0, 25.3, 5.0], 1),        # percent: 1 decimal
    ("elo", [1436.8, 1468.2], 0),             # Elo: whole points
    ("million-tokens", [67.0, 87.0, 120.0], 0),
    ("seconds", [71.41, 8.8], 1),
    ("USD", [0.34, 12.5, 4.7], 2),            # dollars: cents
    ("points", [1.82, 1.14, 0.28, 0.22, 0.0], 2),  # CritPt (0-20 points): small values keep two digits
    ("ratio", [0.757, 1.0, 2.6], 2),
    ("percent", [], 1),                       # no values: the unit's own
    ("percent", [None, float("nan")], 1),
    ("USD", [0.0042], 4),                     # never more than MAX_DECIMALS
])
def test_decimals_from_unit_and_values(unit, values, expected):
    assert decimals(unit, values) == expected


def test_critpt_values_stay_distinct():
    vals = [1.82, 1.14, 0.42, 0.28, 0.22, 0.14]
    d = decimals("points", vals)
    assert len({number(v, d) for v in vals}) == len(vals)
    assert [number(v, d) for v in (0.22, 0.28)] == ["0.22", "0.28"]


def test_units_in_words():
    assert with_unit(12.5, "USD-per-task", 2) == "$12.50 per task"
    assert header("Effective cost", "USD-per-task") == "Effective cost (USD per task)"
    assert header("CritPt", "IQ") == "CritPt (IQ points)"
    assert unit_name("IQ") == "IQ points" and unit_name("USD-per-task") == "USD per task" and unit_name("percent") == "percent"


def test_with_unit_and_unknown():
    assert with_unit(67.0, "million-tokens", 0) == "67 M tokens"
    assert with_unit(12.5, "USD", 2) == "$12.50"
    assert with_unit(37.52, "percent", 1) == "37.5%"
    assert with_unit(1436.8, "elo", 0) == "1,437 Elo"
    assert with_unit(71.41, "seconds", 1) == "71.4 s"
    for unknown in (None, float("nan"), float("inf"), True):
        assert with_unit(unknown, "percent", 1) == "–"
        assert number(unknown, 1) == "–"
    assert number(-0.001, 1) == "0.0"


def test_header_adds_the_unit_once():
    assert header("Tokens to run the AA suite", "million-tokens") == "Tokens to run the AA suite (M tokens)"
    assert header("Token cost (USD)", "USD") == "Token cost (USD)"
    assert header("MMLU-Pro", "percent") == "MMLU-Pro (%)"
    assert header("AI IQ", "IQ") == "AI IQ"
