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


@pytest.mark.parametrize("value, digits, expected", [
    (19.435, 2, "19.44"),     # the binary float is 19.43499…: Python's f"{:.2f}" writes 19.43
    (2.675, 2, "2.68"),
    (0.125, 2, "0.13"),
    (-2.5, 0, "-3"),          # halves away from zero
    (1436.5, 0, "1,437"),
    (0.3 + 0.6, 1, "0.9"),    # 0.8999999999999999: its shortest text, not a half
    (-0.04, 1, "0.0"),        # no negative zero
    (1e16, 0, "10,000,000,000,000,000"),
])
def test_number_rounds_half_up_on_the_stored_values_decimal_text(value, digits, expected):
    assert f"{19.435:.2f}" == "19.43"  # what the board showed before, while compare.js's browser wrote 19.44
    assert number(value, digits) == expected


def test_one_value_reads_the_same_on_the_board_model_compare_and_as_of_pages():
    """A stored 19.435 (the effective cost of one model) is written once by numbers.number: the cost board's cell,
    the model page's summary, the compare page's text and the as-of month's text all read 19.44."""
    import dataclasses
    import json
    import re

    from fixtures import make_context

    from sitegen.site import render_files

    ctx = make_context(6)
    rows = ctx.boards["cost"]["rows"]
    for r in rows:  # every value above $1, so that the board shows cents (numbers.decimals)
        r["value"] = r["value"] + 1.0
    mid = rows[0]["model"]
    rows[0]["value"] = 19.435
    as_of = {"boards": {"cost": {"2026-06": {
        "known": {"rows": [{"model": mid, "value": 19.435, "rank": 1, "interval": [18.125, 20.005]}]},
        "released": None}}}}
    files = render_files(dataclasses.replace(ctx, as_of=as_of))
    model = next(m for m in ctx.models if m["id"] == mid)

    board = files["boards/cost/index.html"].decode("utf-8")
    row = next(tr for tr in re.findall(r"<tr[^>]*>.*?</tr>", board, re.S) if f">{model['name']}<" in tr)
    assert re.search(r'<td class="v">(<a [^>]*>)?19\.44(</a>)?</td>', row), row

    page = next(v for k, v in files.items() if k.startswith("models/") and k.endswith("index.html")
                and f"<h1>{model['name']}" in v.decode("utf-8")).decode("utf-8")
    assert "$19.44" in page and "19.43" not in page

    compare = json.loads(re.search(r'id="compare-data">(.*?)</script>', files["compare/index.html"].decode("utf-8"),
                                   re.S).group(1))
    b = [x[0] for x in compare["boards"]].index("cost")
    m = [x[0] for x in compare["models"]].index(mid)
    assert compare["boards"][b][2][str(m)] == [19.435, "$19.44"]  # a sparse column, by model number

    month = json.loads(files["boards/cost/asof/2026-06.json"])
    assert month == {"known": {mid: ["19.44", "18.13", "20.01"]}, "released": {}}


def test_number_is_the_same_text_when_asked_again_zero_and_minus_zero_alike():
    """number keeps its texts by (value, decimals): a second call, an int equal to a float, and -0.0 beside 0.0
    (equal as keys) read as the first did; a value rounding to zero never reads "-0.0"."""
    first = [number(v, d) for v, d in [(0.0, 1), (-0.0, 1), (-0.04, 1), (2, 2), (2.0, 2), (19.435, 2), (1234.5, 0)]]
    again = [number(v, d) for v, d in [(0.0, 1), (-0.0, 1), (-0.04, 1), (2, 2), (2.0, 2), (19.435, 2), (1234.5, 0)]]
    assert first == again == ["0.0", "0.0", "0.0", "2.00", "2.00", "19.44", "1,235"]
    assert number(-0.0, 2) == "0.00" and number(0.0, 0) == "0"
    assert number(float("nan"), 1) == number(True, 1) == number(None, 1) == "–"
