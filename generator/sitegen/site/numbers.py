"""How a number is shown: decimals from its unit and the values it is shown among, and its unit around it."""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ..known import known

#: unit -> (decimals it starts from, prefix, suffix); units are scale.unit in methodology/benchmarks.yaml,
#: an index's `unit`, or a computed component's (DIMENSION_UNITS in views.py)
UNITS: dict[str, tuple[int, str, str]] = {
    "percent": (1, "", "%"),
    "points": (1, "", " points"),
    "elo": (0, "", " Elo"),
    "million-tokens": (0, "", " M tokens"),
    "seconds": (1, "", " s"),
    "USD": (2, "$", ""),
    "USD-per-task": (2, "$", " per task"),
    "IQ": (1, "", " IQ"),
    "EQ": (1, "", " EQ"),
    "ratio": (2, "", "×"),
    "billions": (0, "", " B"),
}
#: short unit names for column headers, where the cells show bare numbers
HEADER = {
    "percent": "%",
    "elo": "Elo",
    "million-tokens": "M tokens",
    "seconds": "s",
    "USD": "USD",
    "ratio": "×",
    "USD-per-task": "USD per task",
    "IQ": "IQ points",
}
#: how a unit is named in words (a board's unit line and value column); others are named by their id
NAMES = {"USD-per-task": "USD per task", "IQ": "IQ points"}
MAX_DECIMALS = 4


def decimals(unit: str | None, values: Iterable[Any] = ()) -> int:
    """Decimals for numbers in `unit` shown together: the unit's own (1 for percent, 0 for Elo, 2 for USD), or
    more when the smaller values are small, so that the lower quartile of the non-zero values keeps two
    significant digits: CritPt's 0.22 and 0.28 points read 0.22 and 0.28, not 0.2 and 0.3. A quartile, not
    the minimum, so that one 0.2% among hundreds of percent scores does not give them all two decimals.
    Never more than MAX_DECIMALS."""
    base = UNITS.get(unit or "", (1, "", ""))[0]
    mags = sorted(abs(f) for v in values if (f := known(v)) is not None and f != 0)
    if not mags:
        return base
    small = mags[len(mags) // 4]
    return max(base, min(1 - math.floor(math.log10(small)), MAX_DECIMALS))


def number(value: Any, digits: int) -> str:
    """A number with fixed decimals and thousands separators; '–' when unknown (never 0, None or nan).

    The site's one number formatter: every number a page shows, the browser's included (it receives these
    strings), is written here, once, at build time. Halves round away from zero on the number's shortest decimal
    text (its repr), as the stored value reads: 19.435 -> "19.44" (the binary float is 19.43499…, which
    Python's own formatting and the browser's would round down, or not, each its own way)."""
    f = known(value)
    if f is None:
        return "–"
    key = (f, digits)
    text = _NUMBERS.get(key)
    if text is None:
        exact = Decimal(repr(f)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
        text = f"{exact:,.{digits}f}"
        text = text[1:] if exact.is_zero() and text.startswith("-") else text
        if len(_NUMBERS) >= _NUMBERS_MAX:
            _NUMBERS.clear()
        _NUMBERS[key] = text
    return text


#: number's texts by (value as a float, decimals): a site shows the same values on many pages (a result on its
#: model page, its benchmark's page and every board it is a component of), and the Decimal rounding is the costly
#: part. Exact: equal floats have equal texts (0.0 and -0.0, equal as keys, both read "0.0"); bounded.
_NUMBERS: dict[tuple[float, int], str] = {}
_NUMBERS_MAX = 200_000


def with_unit(value: Any, unit: str | None, digits: int) -> str:
    """A number with its unit: '67 M tokens', '$12.50', '37.5%', '1,437 Elo'; '–' when unknown."""
    text = number(value, digits)
    if text == "–":
        return text
    _, pre, post = UNITS.get(unit or "", (1, "", f" {unit}" if unit else ""))
    return f"-{pre}{text[1:]}{post}" if pre and text.startswith("-") else f"{pre}{text}{post}"


def unit_name(unit: str | None) -> str:
    """A unit in words: "USD per task", "IQ points"; other units by their id."""
    return NAMES.get(unit or "", unit or "")


def header(name: str, unit: str | None) -> str:
    """A column name with its unit in brackets, unless the unit goes without saying or is already there (in
    brackets, or as a word of the name: "AI IQ" needs no "(IQ points)")."""
    short = HEADER.get(unit or "")
    named = bool(unit) and unit in name.replace("(", " ").replace(")", " ").split()
    return f"{name} ({short})" if short and f"({short}" not in name and not named else name
