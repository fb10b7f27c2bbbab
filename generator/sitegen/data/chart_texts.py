"""The words a chart of methodology/site.yaml's charts.draw shows, by kind: the text fields an entry may give
(schemas/site.schema.json documents each, and its default when the entry gives none) and the placeholders each may
hold. A placeholder is `{name}`, filled with a number of the drawn chart (the interval level, a count); any other
`{...}` in a text is a placed problem (data/checks_site.py), and a brace that encloses nothing is text."""

from __future__ import annotations

import re
from collections.abc import Mapping

#: the placeholders of a description that counts the chart's models (the frontier kinds)
_COUNTED = {"description": ("count", "excluded")}
_SCATTER = ("title", "description", "x_title", "y_title", "x_column", "y_column")
_FRONTIER = {**dict.fromkeys(_SCATTER, ()), **_COUNTED, "y_label": ()}

#: chart kind -> {text field: the placeholders it may hold}; the schema's per-kind fields are these
#: (tests/site/test_chart_texts.py)
CHART_TEXTS: dict[str, dict[str, tuple[str, ...]]] = {
    "value-vs-cost": {**dict.fromkeys(_SCATTER, ()), "bars": ("level",)},
    "value-vs-speed": {**dict.fromkeys(_SCATTER, ()), "bars": ("level",)},
    "value-vs-price": {**dict.fromkeys(_SCATTER, ()), "bars": ("level",)},
    "token-vs-effective-cost": dict.fromkeys(_SCATTER, ()),
    "board-vs-board": dict.fromkeys(_SCATTER, ()),
    "accuracy-vs-calibration": dict.fromkeys(_SCATTER, ()),
    "distribution": dict.fromkeys(("title", "description", "x_title", "y_title", "x_column"), ()),
    "value-frontier": _FRONTIER,
    "size-frontier": _FRONTIER,
    "value-frontier-over-time": dict.fromkeys(("title", "description", "x_title", "y_title", "x_label", "y_label"), ()),
    "anchor-curves": dict.fromkeys(("title", "description", "x_title", "y_title", "y_label"), ()),
}

#: the price chart's texts (charts.prices: every model page's prices over time) and their placeholders: none
PRICE_TEXTS: dict[str, tuple[str, ...]] = {"description": ()}

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def unknown_placeholders(text: str, allowed: tuple[str, ...]) -> list[str]:
    """The `{...}` of a text that are none of `allowed`, in order (each once)."""
    return list(dict.fromkeys(m.group(0) for m in PLACEHOLDER.finditer(text) if m.group(1) not in allowed))


def fill(text: str, values: Mapping[str, str]) -> str:
    """A text with each known placeholder replaced by its value; any other `{...}` stays as written (validation
    has reported it). Never str.format: a contributed text cannot reach an attribute or a format spec."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)
