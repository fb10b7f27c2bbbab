"""Charts name their points without hovering: which points get a label and on which side (charts.place_labels,
label_points), the over-time charts' colours and dated axes, and each chart's text alternative."""

from __future__ import annotations

import json

from fixtures import make_context

from sitegen.site import render_files
from sitegen.site.charts import (LABEL_CHAR_PX, alt_text, frontier_eras, label_points, place_labels)


def test_a_label_takes_the_first_free_side_in_priority_order():
    # labels of 4 characters are 4 * LABEL_CHAR_PX = 23.2 px wide, 7 px from their point, 12 px high
    assert LABEL_CHAR_PX == 5.8
    names = ["aaaa", "bbbb"]
    # a at x = 50: its right side would cover b's marker (76-84 px): left; b's right is free
    assert place_labels([(50.0, 50.0), (80.0, 50.0)], names, [0, 1], (200.0, 100.0)) == {0: "l", 1: "r"}
    # b at x = 180: its right side would leave the 200 px plot. a first: a right (147-170 px), then b's left
    # (150-173 px) overlaps a's label and b goes above; b first: b left, then a's right overlaps it and a goes left
    pts = [(140.0, 50.0), (180.0, 50.0)]
    assert place_labels(pts, names, [0, 1], (200.0, 100.0)) == {0: "r", 1: "t"}
    assert place_labels(pts, names, [1, 0], (200.0, 100.0)) == {1: "l", 0: "l"}


def test_a_point_boxed_in_on_every_side_is_left_unlabelled():
    pts = [(50.0, 50.0), (62.0, 50.0), (38.0, 50.0), (50.0, 62.0), (50.0, 38.0)]
    names = ["middle", "e", "w", "s", "n"]
    assert 0 not in place_labels(pts, names, [0], (100.0, 100.0))


def test_label_points_marks_the_frontier_then_the_top_and_the_cheapest_best():
    rows = [{"model": "m1", "name": "One", "x": 1.0, "y": 10.0},
            {"model": "m2", "name": "Two", "x": 10.0, "y": 50.0},
            {"model": "m3", "name": "Three", "x": 100.0, "y": 85.0},
            {"model": "m4", "name": "Four", "x": 100.0, "y": 20.0, "frontier": True},
            {"model": "m5", "name": "Five", "x": 50.0, "y": None}]
    label_points(rows, "x", "y", xlog=True, top=1, cheaper=True, size=(600.0, 300.0))
    labelled = {r["model"] for r in rows if "lpos" in r}
    # m4: frontier; m3: the top by y; m1, m2: no other point is cheaper and better; m3 beats m4 (same price)
    assert labelled == {"m1", "m2", "m3", "m4"} and "lpos" not in rows[4]
    assert all(r["lpos"] in ("r", "l", "t", "b", "tr", "tl") for r in rows if "lpos" in r)
    # without the cheaper rule and the frontier flag, only the top one
    for r in rows:
        r.pop("lpos", None)
        r.pop("frontier", None)
    label_points(rows, "x", "y", xlog=True, top=1, size=(600.0, 300.0))
    assert [r["model"] for r in rows if "lpos" in r] == ["m3"]


def test_frontier_history_colours_the_first_and_latest_and_greys_the_rest():
    assert frontier_eras(["2025-01", "2025-03", "2025-06", "2025-09"]) == {
        "2025-01": "first (2025-01)", "2025-03": "in between", "2025-06": "in between", "2025-09": "latest (2025-09)"}
    assert frontier_eras(["2025-01"]) == {"2025-01": "first (2025-01)"}


def test_alt_text_says_what_is_plotted_how_many_points_and_the_leader():
    chart = {"title": "AI IQ vs effective cost", "description": "AI IQ against effective cost.",
             "fallback": {"columns": ["Model", "AI IQ", "Effective cost (USD per task)"], "fields": ["name", "iq", "cost"],
                          "rows": [{"name": "Top", "iq": 128.245, "cost": 19.435}, {"name": "Next", "iq": 120.0, "cost": None}],
                          "total": 29, "digits": {"iq": 1, "cost": 2}}}
    assert alt_text(chart) == ("AI IQ vs effective cost: AI IQ against effective cost. 29 points plotted. Model: "
                               "Top (AI IQ 128.2, Effective cost (USD per task) 19.44); Next (AI IQ 120.0).")


def test_built_charts_carry_labels_dated_axes_alt_text_and_load_vega_on_demand():
    files = render_files(make_context(40))
    spec = json.loads(files["assets/charts/iq-vs-cost.json"])
    points = spec["datasets"]["points"]
    assert 0 < sum("lpos" in p for p in points) <= 12
    # Vega names the chart's container with the spec's description: the text alternative, with its data summary
    assert spec["description"].startswith("AI IQ vs effective cost: ") and " points plotted. Model: " in spec["description"]
    texts = [layer for layer in spec["layer"] if (layer.get("mark") or {}).get("type") == "text"
             and "datum.lpos ===" in json.dumps(layer.get("transform"))]
    assert len(texts) == 6  # one layer per side (and the hover label only for the points without one)
    evo = json.loads(files["assets/charts/pedagogy-evolution.json"])
    assert "viridis" not in json.dumps(evo) and [layer["encoding"]["color"]["field"] for layer in evo["layer"]] == ["era"] * 2
    assert [layer["transform"] for layer in evo["layer"]] == [[{"filter": "datum.era === 'in between'"}],
                                                             [{"filter": "datum.era !== 'in between'"}]]
    best = [k for k in files if k.startswith("assets/charts/best-over-time-")]
    for k in best:
        assert json.loads(files[k])["layer"][0]["encoding"]["x"]["axis"]["format"] == "%b %Y"
    home = files["index.html"].decode("utf-8")
    assert "points plotted" in home and 'src="assets/vendor/vega' not in home and "data-vega=" in home


def test_best_over_time_runs_to_the_datas_date_with_years_on_its_axis_and_names_its_leaders():
    import dataclasses

    ctx = make_context(6)
    a, b = sorted(m["id"] for m in ctx.models)[:2]
    best = [{"date": "2025-03-31", "value": 100.0, "model": a, "released": "2025-03-02"},
            {"date": "2025-06-30", "value": 110.0, "model": b, "released": "2025-06-10"},
            {"date": "2026-02-28", "value": 112.5, "model": b, "released": "2026-02-19"}]
    ctx = dataclasses.replace(ctx, as_of={"frontier": {"ai-iq": {"best": best}}, "data_date": "2026-11-20"})
    spec = json.loads(render_files(ctx)["assets/charts/best-over-time-ai-iq.json"])
    rows = spec["datasets"]["points"]
    # the last best (set in 2026-02) holds until the data's date: the line runs on, with no point or label there
    assert [(r["date"], r["value"], r["new"]) for r in rows] == [
        ("2025-03-31", 100.0, True), ("2025-06-30", 110.0, True), ("2026-02-28", 112.5, False), ("2026-11-20", 112.5, False)]
    assert rows[-1]["end"] is True and "lpos" not in rows[-1]
    assert {r["model"] for r in rows if "lpos" in r} == {a, b}  # each new leader named
    assert [r["value_t"] for r in rows[:3]] == ["100.0", "110.0", "112.5"]
    line, points = spec["layer"][0], spec["layer"][1]
    assert line["encoding"]["x"]["axis"]["format"] == "%b %Y"
    assert {"filter": "!datum.end"} in points["transform"]


def test_label_positions_follow_the_domain_vega_draws():
    from sitegen.site.charts import _nice, _pixels

    assert _nice(-0.57, 1.85, "log") == (-1, 2)          # 0.27 .. 70 USD: drawn from 0.1 to 100
    assert _nice(91.3, 128.2, "linear") == (90, 130)     # a step of 5 for about ten ticks
    assert _nice(738000, 739000, "time") == (738000, 739000)
    # 1 and 10 on a log axis from 0.1 to 100, 300 px: a third and two thirds of the way
    assert _pixels([1.0, 10.0], "log", False, 300.0, False, [0.27, 70.0]) == [100.0, 200.0]
    # y grows downwards: the top of the domain is pixel 0
    assert _pixels([130.0, 90.0], "linear", False, 100.0, True) == [0.0, 100.0]
