"""A chart's words come from its charts.draw entry in methodology/site.yaml (title, description, bars, axis titles,
table columns, labels: data/chart_texts.CHART_TEXTS per kind); without them, the kind's defaults are made from the
boards' own names and units, never this repository's wording (issue 34, item 1)."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

from sitegen.data.chart_texts import CHART_TEXTS, fill, unknown_placeholders
from sitegen.site.charts import DRAW, build_charts
from sitegen.site.context import Presentation, SiteContext
from sitegen.site.pages import Urls
from sitegen.site.views import Lookups

ROOT = Path(__file__).resolve().parents[2]

MODELS = [
    {"id": "acme/a", "name": "Acme A", "organization": "Acme", "weights": "open",
     "pricing": {"input_per_mtok": 1.0, "output_per_mtok": 3.0}},
    {"id": "acme/b", "name": "Acme B", "organization": "Acme", "weights": "closed",
     "pricing": {"input_per_mtok": 4.0, "output_per_mtok": 8.0}},
    {"id": "zeta/c", "name": "Zeta C", "organization": "Zeta", "weights": "closed",
     "pricing": {"input_per_mtok": 0.5, "output_per_mtok": 1.0}},
]


def _board(name, unit, values, intervals=None):
    rows = [{"model": m, "value": v, "rank": i + 1, **({"interval": intervals[m]} if intervals else {})}
            for i, (m, v) in enumerate(values.items())]
    board = {"name": name, "unit": unit, "higher_is_better": True, "rows": rows}
    if intervals:
        board["uncertainty"] = {"level": 0.95}
    return board


BOARDS = {
    "quiz": _board("Quiz", "percent", {"acme/a": 71.5, "acme/b": 64.0, "zeta/c": 52.25},
                   {"acme/a": [68.0, 75.0], "acme/b": [60.5, 67.0], "zeta/c": [49.0, 55.5]}),
    "trivia": _board("Trivia", "percent", {"acme/a": 40.0, "acme/b": 55.0, "zeta/c": 30.0}),
}


def _charts(**draw):
    ctx = SiteContext(boards=BOARDS, benchmark_boards={}, models=MODELS, benchmarks=[], sources=[], index_defs={},
                      methodology_pages={}, frontiers={}, data_date="2026-01-01",
                      presentation=Presentation(charts=draw))
    return build_charts(ctx, Lookups(ctx, Urls(ctx)))


def _axis_titles(spec):
    """The x and y axis titles a spec's layers encode (one each: the layers share their axes)."""
    titles = {"x": set(), "y": set()}
    for layer in spec.get("layer", [spec]):
        for axis in ("x", "y"):
            title = (layer.get("encoding", {}).get(axis) or {}).get("title")
            if title:
                titles[axis].add(title)
    return {axis: t.pop() if len(t) == 1 else t for axis, t in titles.items()}


def _tooltip_titles(spec):
    return [t["title"] for layer in spec.get("layer", [spec]) for t in layer.get("encoding", {}).get("tooltip", [])]


def test_an_entrys_texts_are_the_charts_title_description_axis_titles_and_columns():
    out = _charts(both={"kind": "board-vs-board", "x": "quiz", "y": "trivia", "title": "Trivia and quiz",
                        "description": "Each model's trivia score against its quiz score.",
                        "x_title": "Quiz score (%)", "y_title": "Trivia score (%)",
                        "x_column": "Quiz (%)", "y_column": "Trivia (%)"})
    chart = out["both"]
    assert chart["title"] == "Trivia and quiz"
    assert chart["description"] == "Each model's trivia score against its quiz score."
    assert _axis_titles(chart["spec"]) == {"x": "Quiz score (%)", "y": "Trivia score (%)"}
    assert {"Quiz score (%)", "Trivia score (%)"} <= set(_tooltip_titles(chart["spec"]))
    assert chart["fallback"]["columns"] == ["Model", "Quiz (%)", "Trivia (%)"]
    assert chart["alt"].startswith("Trivia and quiz: Each model's trivia score against its quiz score. 3 points")


def test_without_texts_a_chart_is_named_from_its_boards_names_and_units():
    out = _charts(both={"kind": "board-vs-board", "x": "quiz", "y": "trivia"},
                  spread={"kind": "distribution", "board": "quiz"},
                  priced={"kind": "value-vs-price", "board": "quiz"})
    both, spread, priced = out["both"], out["spread"], out["priced"]
    assert both["title"] == "Trivia vs Quiz"
    assert both["description"] == "Trivia against Quiz for the models on both."
    assert _axis_titles(both["spec"]) == {"x": "Quiz (%)", "y": "Trivia (%)"}
    assert both["fallback"]["columns"] == ["Model", "Quiz (%)", "Trivia (%)"]
    assert spread["title"] == "Distribution of Quiz"
    assert spread["description"] == "Distribution of Quiz across ranked models, in bins of 5."
    assert _axis_titles(spread["spec"]) == {"x": "Quiz (%)", "y": "Models"}
    assert spread["fallback"]["columns"] == ["Statistic", "Quiz (%)"]
    # the interval bars' sentence, with the board's level, follows the description
    assert priced["title"] == "Quiz vs price"
    assert priced["description"] == (
        "Quiz against blended price (3:1 input:output, USD per million tokens, log scale). "
        "Vertical bars: the 95% interval of Quiz.")
    assert _axis_titles(priced["spec"]) == {"x": "Blended price (USD / M tokens, log)", "y": "Quiz (%)"}
    assert priced["fallback"]["columns"] == ["Model", "Quiz (%)", "Blended price (USD / M)"]


def test_the_bars_sentence_fills_its_level_and_is_left_out_where_no_bars_are_drawn():
    out = _charts(priced={"kind": "value-vs-price", "board": "quiz", "description": "Quiz by price.",
                          "bars": "Bars: {level} intervals; {other} stays as written.", "y_column": "Score"},
                  unbarred={"kind": "value-vs-price", "board": "trivia", "description": "Trivia by price.",
                            "bars": "Bars: {level} intervals."})
    assert out["priced"]["description"] == "Quiz by price. Bars: 95% intervals; {other} stays as written."
    assert out["priced"]["fallback"]["columns"] == ["Model", "Score", "Blended price (USD / M)"]
    assert out["unbarred"]["description"] == "Trivia by price."  # the trivia board has no intervals


def test_placeholders_are_filled_by_name_only():
    assert fill("{count} of {count}, {excluded} out", {"count": "3", "excluded": "1"}) == "3 of 3, 1 out"
    assert fill("{level.__class__} {level:>9} {} { brace", {"level": "95%"}) == "{level.__class__} {level:>9} {} { brace"
    assert unknown_placeholders("{count} {x} {x} {} {count:>3} { alone", ("count",)) == ["{x}", "{}", "{count:>3}"]
    assert unknown_placeholders("no braces at all", ()) == []


def test_a_hostile_title_is_escaped_on_the_page_and_stays_data_in_the_spec():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fixtures import make_context

    from sitegen.site import render_files

    hostile = "<script>alert('t')</script>"
    ctx = make_context(12)
    draw = {**ctx.presentation.charts,
            "cdpk-vs-send": {**ctx.presentation.charts["cdpk-vs-send"], "title": hostile,
                             "description": f"Said {hostile}", "x_title": hostile, "x_column": hostile}}
    ctx = dataclasses.replace(ctx, presentation=dataclasses.replace(ctx.presentation, charts=draw))
    files = render_files(ctx)
    page = files["charts/index.html"]
    page = page.decode("utf-8") if isinstance(page, bytes) else page
    assert hostile not in page
    assert "<strong>&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;</strong>" in page  # the figure's caption
    assert "<th scope=\"col\">&lt;script&gt;" in page  # the summary table's heading
    raw = files["assets/charts/cdpk-vs-send.json"]
    raw = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    assert "<script>" not in raw and "</script>" not in raw
    spec = json.loads(raw)
    assert spec["description"].startswith(f"{hostile}: Said {hostile}")
    assert _axis_titles(spec)["x"] == hostile


def test_the_schemas_text_fields_per_kind_are_chart_texts():
    schema = json.loads((ROOT / "generator" / "sitegen" / "schemas" / "site.schema.json").read_text())
    chart = schema["$defs"]["chart"]
    fields = {}
    for branch in chart["allOf"]:
        cond = branch["if"]["properties"]["kind"]
        for kind in cond.get("enum") or [cond.get("const")]:
            fields[kind] = set(branch["then"]["properties"]) - {"kind", "board", "x", "y"}
    assert fields == {kind: set(texts) for kind, texts in CHART_TEXTS.items()}
    assert set(chart["properties"]["kind"]["enum"]) == set(CHART_TEXTS) == set(DRAW)
    described = {name for name in chart["properties"] if name not in ("kind", "board", "x", "y")}
    assert described == {f for texts in CHART_TEXTS.values() for f in texts}
