"""The board page's date control (site/asof.py): month ranges, the control's data, the names file asof.js loads."""

from __future__ import annotations

import dataclasses
import json

from fixtures import HOSTILE_SCRIPT, make_context

from sitegen.site import asof, render_files
from sitegen.site.pages import Urls


def test_month_ranges_join_consecutive_months_across_a_year_end():
    assert asof.month_ranges([]) == ""
    assert asof.month_ranges(["2024-03"]) == "2024-03/2024-03"
    assert asof.month_ranges(["2024-01", "2023-11", "2023-12", "2024-03", "2024-04"]) == \
        "2023-11/2024-01 2024-03/2024-04"


def _board(*models):
    return {"rows": [{"model": m, "value": v, "rank": i + 1 if v is not None else None}
                     for i, (m, v) in enumerate(models)]}


def _ctx():
    ctx = make_context(6)
    hostile = next(m["id"] for m in ctx.models if m["name"] == HOSTILE_SCRIPT)
    ids = [hostile] + sorted(m["id"] for m in ctx.models if m["id"] != hostile)
    as_of = {"boards": {"ai-iq": {
        # known from 2025-12 on; released from 2025-11; a gap month (2026-02) with neither
        "2025-11": {"known": None, "released": _board((ids[0], 101.0))},
        "2025-12": {"known": _board((ids[0], 100.0)), "released": _board((ids[0], 101.0), (ids[1], 99.0))},
        "2026-01": {"known": _board((ids[0], 100.0), (ids[2], None)), "released": _board((ids[0], 101.0))},
        "2026-03": {"known": _board((ids[1], 98.0)), "released": None},
    }}}
    return dataclasses.replace(ctx, as_of=as_of), ids


def test_control_lists_each_views_months_and_the_boards_decimals():
    ctx, _ = _ctx()
    assert asof.control(ctx, "ai-iq", 1) == {"id": "ai-iq", "known": "2025-12/2026-01 2026-03/2026-03",
                                              "released": "2025-11/2026-01", "superseded": "",
                                              "data_date": ctx.data_date, "digits": 1}
    assert asof.control(ctx, "hle", 1) is None  # no as-of months: no control


def test_control_offers_the_months_a_version_was_superseded_in_the_known_view():
    # the board's definition ("ai-iq" here) was replaced from 2026-02: 2026-03's known view is empty for that
    # reason and offered (to say so); 2025-11's known view is empty for want of data and is not
    ctx, _ = _ctx()
    for views in ctx.as_of["boards"]["ai-iq"].values():
        for board in views.values():
            if board:
                board["definition"] = "ai-iq"
    ctx.as_of["boards"]["ai-iq"]["2026-03"]["known"] = None
    ctx = dataclasses.replace(ctx, as_of={**ctx.as_of, "superseded": {"ai-iq": {
        m: {"from": "2026-02-01", "by": "ai-iq-v3", "version": "3"} for m in ("2026-03",)}}})
    control = asof.control(ctx, "ai-iq", 1)
    assert (control["known"], control["superseded"]) == ("2025-12/2026-01", "2026-03/2026-03")


def test_names_cover_every_model_with_a_value_in_any_month_and_view():
    ctx, ids = _ctx()
    names = asof.names(ctx, Urls(ctx), "ai-iq")
    assert sorted(names) == sorted([ids[0], ids[1]])  # ids[2] has no value in any month
    by_id = {m["id"]: m for m in ctx.models}
    assert names[ids[0]] == [by_id[ids[0]]["name"], Urls(ctx).model_href(ids[0]), by_id[ids[0]]["organization"]]


def test_board_page_carries_the_control_and_the_names_file_is_escaped_json():
    ctx, ids = _ctx()
    files = render_files(ctx)
    page = files["boards/ai-iq/index.html"].decode()
    assert 'id="asof" hidden data-api="../../api/v1/indices/ai-iq/"' in page
    assert 'data-known="2025-12/2026-01 2026-03/2026-03" data-released="2025-11/2026-01"' in page
    assert 'assets/js/asof.js' in page and "assets/js/asof.js" in files
    # boards without as-of months, and the one-row-per-release page, have no control
    assert 'id="asof"' not in files["boards/hle/index.html"].decode()
    assert 'id="asof"' not in files["boards/ai-iq/releases/index.html"].decode()
    names = files["boards/ai-iq/asof-names.json"].decode()
    # ids[0] is the model named "</script><script>...": < is escaped in the file, the name intact once parsed
    assert "<" not in names and json.loads(names)[ids[0]][0] == HOSTILE_SCRIPT


def _priced_ctx():
    ctx, ids = _ctx()
    as_of = {**ctx.as_of, "price_steps": {
        ids[0]: [{"date": "2025-06-30", "input": 2.0, "output": 8.0, "source": "pedagogy-lb"},
                 {"date": "2025-12-17", "input": 10.0, "output": None, "source": "aa-api-2026-07"}],
        ids[1]: [{"date": "2025-06-30", "input": None, "output": None, "source": "pedagogy-lb"}],  # no price: no steps
    }, "frontier": {"ai-iq": {"best": [
        {"date": "2025-11-30", "value": 101.0, "model": ids[0], "released": "2025-11-02"},
        {"date": "2025-12-31", "value": 102.5, "model": ids[0], "released": "2025-11-02"},
        {"date": "2026-01-31", "value": 103.0, "model": ids[1], "released": "2026-01-05"}]}}}
    return dataclasses.replace(ctx, as_of=as_of, data_date="2026-07-02"), ids


def test_price_chart_holds_each_price_until_the_next_and_the_newest_until_the_data_date():
    ctx, ids = _priced_ctx()
    files = render_files(ctx)
    spec = json.loads(files["assets/charts/price-history.json"])
    rows = spec["datasets"]["points"]
    # two dated prices, then the newest again at the data's date (no source: drawn as a line, not a point)
    assert [(r["model"], r["date"], r["input"], r["output"], r.get("source")) for r in rows] == [
        (ids[0], "2025-06-30", 2.0, 8.0, "pedagogy-lb"), (ids[0], "2025-12-17", 10.0, None, "aa-api-2026-07"),
        (ids[0], "2026-07-02", 10.0, None, None)]
    line, points = spec["layer"]
    assert line["mark"]["interpolate"] == "step-after"
    assert {"filter": "isValid(datum.source)"} in points["transform"]
    assert {"filter": "datum.model === hl"} in line["transform"]
    # the model's page: the chart for its own model and a table of every dated price with its source linked
    own = files["models/" + ids[0] + "/index.html"].decode()
    assert 'data-spec="../../../assets/charts/price-history.json" data-highlight="' + ids[0] + '"' in own
    assert "<td>2025-12-17</td><td class=\"lb-num\">10.00</td>" in own and "https://artificialanalysis.ai/" in own
    # a model without a dated price has no price chart; the charts page does not show it either
    assert "price-history" not in files["models/" + ids[1] + "/index.html"].decode()
    assert "price-history" not in files["charts/index.html"].decode()


def test_best_over_time_chart_is_on_its_board_page_and_names_each_new_leader_once():
    ctx, ids = _priced_ctx()
    files = render_files(ctx)
    spec = json.loads(files["assets/charts/best-over-time-ai-iq.json"])
    rows = spec["datasets"]["points"]
    assert [(r["asof"], r["value"], r["model"], r["new"]) for r in rows] == [
        ("2025-11-30", 101.0, ids[0], True), ("2025-12-31", 102.5, ids[0], False), ("2026-01-31", 103.0, ids[1], True),
        ("2026-01-31", 103.0, ids[1], False)]  # the last best, held to the data's date (no point there)
    assert rows[-1]["date"] == ctx.data_date and rows[-1]["end"] is True
    assert spec["layer"][0]["mark"]["interpolate"] == "step-after"
    # only new leaders are named, the latest first (charts.place_labels); the first one's long (hostile) name
    # finds no side free of the step line there, and the data summary names it instead
    assert [i for i, r in enumerate(rows) if "lpos" in r] == [2]
    assert 'id="chart-best-over-time-ai-iq"' in files["boards/ai-iq/index.html"].decode()
    assert "best-over-time" not in files["charts/index.html"].decode()


def test_model_page_names_each_price_steps_source_and_lists_disagreements():
    ctx, ids = _ctx()
    as_of = {**ctx.as_of, "price_steps": {ids[0]: [
        {"date": "2025-04-16", "input": 10.0, "output": 40.0, "source": "vendor", "url": "https://v.example/a",
         "captured": False},
        {"date": "2025-06-10", "input": 2.0, "output": 8.0, "source": "vendor", "url": "https://v.example/b",
         "captured": True}]},
        "price_disagreements": {ids[0]: [
            {"date": "2025-12-17", "input": 10.0, "output": 40.0, "source": "aa-api-2026-07",
             "in_force": {"date": "2025-06-10", "input": 2.0, "output": 8.0, "source": "vendor"}}]}}
    files = render_files(dataclasses.replace(ctx, as_of=as_of, data_date="2026-07-02"))
    page = files[f"models/{ids[0]}/index.html"].decode()
    assert 'href="https://v.example/a"' in page and "vendor list price (not captured)" in page
    assert 'href="https://v.example/b"' in page
    assert 'id="price-disagreements"' in page and "<td>2025-12-17</td>" in page


def test_a_captured_price_holding_from_before_its_own_date_says_its_date():
    # AA's price of 2026-07-31 holds from LMArena's 2025-12-17 (LMArena disagrees): the step names AA and its date
    ctx, ids = _ctx()
    as_of = {**ctx.as_of, "price_steps": {ids[0]: [
        {"date": "2025-12-17", "input": 0.7, "output": 2.8, "source": "aa-api-2026-07", "source_date": "2026-07-31"}]},
        "price_disagreements": {ids[0]: [
            {"date": "2025-12-17", "input": 0.22, "output": 0.88, "source": "lmarena",
             "in_force": {"date": "2026-07-31", "input": 0.7, "output": 2.8, "source": "aa-api-2026-07"}}]}}
    files = render_files(dataclasses.replace(ctx, as_of=as_of, data_date="2026-08-02"))
    page = files[f"models/{ids[0]}/index.html"].decode()
    assert "(its price of 2026-07-31)" in page and "<td>2025-12-17</td>" in page


def test_board_meta_line_is_dated_by_the_data_not_later():
    # the newest retrieval or publication (the engine's data date) dates today's board, not the build's date
    ctx, _ = _ctx()
    files = render_files(dataclasses.replace(ctx, as_of={**ctx.as_of, "data_date": "2026-01-20"},
                                             data_date="2026-02-03"))
    page = files["boards/ai-iq/index.html"].decode()
    assert "models · data as of 2026-01-20</span>" in page and "data as of 2026-02-03</span>" not in page


def test_todays_price_from_a_vendor_list_price_is_named_and_linked_as_one():
    # The model record's price came from the vendor's list price (its source "vendor"): the Prices block names it
    # as the price steps do, with the vendor's link, not a bare "vendor".
    ctx, ids = _ctx()
    models = [dict(m, pricing={"input_per_mtok": 2.0, "output_per_mtok": 8.0, "as_of": "2025-06-10",
                               "source": "vendor"}) if m["id"] == ids[1] else m for m in ctx.models]
    as_of = {**ctx.as_of, "price_steps": {ids[1]: [
        {"date": "2025-04-16", "input": 10.0, "output": 40.0, "source": "vendor", "url": "https://v.example/a",
         "captured": False},
        {"date": "2025-06-10", "input": 2.0, "output": 8.0, "source": "vendor", "url": "https://v.example/cut",
         "captured": False}]}}
    files = render_files(dataclasses.replace(ctx, models=models, as_of=as_of, data_date="2026-07-02"))
    page = files[f"models/{ids[1]}/index.html"].decode()
    prices = page[page.index("Prices (USD per million tokens)"):page.index("</table>", page.index("Prices (USD"))]
    assert 'href="https://v.example/cut"' in prices and "vendor list price (not captured)" in prices
    assert "2025-06-10" in prices
