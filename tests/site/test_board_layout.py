"""A board's layout for a phone (issue 29): the ranking first, names that keep their configuration, nothing only
in a title attribute, the measurement-only interval behind the row's details. Structure of the rendered fixture
board; how it looks at 390 and 1440 px is tests/site/test_browser.py's."""

from __future__ import annotations

import html
import re

from fixtures import make_context

from sitegen.site import render_files
from sitegen.site.render import board_name_html, split_name


def test_split_name_separates_the_product_from_its_configuration():
    assert split_name("GPT-5.4 (xhigh)") == ("GPT-5.4", "xhigh")
    assert split_name("Claude Opus 5 (Adaptive Reasoning, Max)") == ("Claude Opus 5", "Adaptive Reasoning, Max")
    # two groups keep their parentheses, so neither is read as the other's
    assert split_name("GPT-4o (May '24) (high)") == ("GPT-4o", "(May '24) (high)")
    # nothing to split: no parenthesis, one with no space before it, or nothing before it
    assert split_name("Qwen3 235B A22B 2507") == ("Qwen3 235B A22B 2507", "")
    assert split_name("o3-pro(beta)") == ("o3-pro(beta)", "")
    assert split_name(" (high)") == (" (high)", "")


def test_board_name_puts_the_configuration_in_an_escaped_chip():
    assert str(board_name_html("GPT-5.4 (xhigh)")) == "GPT-5.4 <i>xhigh</i>"
    assert str(board_name_html("Model 00001")) == "Model 00001"
    assert str(board_name_html('<b>x</b> (a & "b")')) == "&lt;b&gt;x&lt;/b&gt; <i>a &amp; &#34;b&#34;</i>"


def _board(ctx) -> str:
    return render_files(ctx)["boards/ai-iq/index.html"].decode("utf-8")


def _rows(page: str) -> list[str]:
    return re.findall(r"<tr data-reasoning.*?</tr>", page)


def test_the_ranking_comes_first_and_the_rest_folds_behind_one_control_each():
    ctx = make_context(40)
    page = _board(ctx)
    head, table = page.split('<div class="md-typeset__scrollwrap">', 1)
    # before the table: the title, lede and meta line, then the folds; every legend and the filter form in one
    folds = re.findall(r'<details class="[^"]*lb-fold" data-fold="(\w+)"', head)
    # the fixture's description is short (no "about" fold) and it has no past months (no date control's fold)
    assert folds == ["legend", "filters"], folds
    legend = head.split('data-fold="legend"', 1)[1].split("</details>", 1)[0]
    assert legend.count('class="lb-legend"') >= 3 and "Range (tier)" in legend
    rest = head.split('data-fold="legend"', 1)[0] + head.split('data-fold="legend"', 1)[1].split("</details>", 1)[1]
    assert 'class="lb-legend"' not in rest.split('data-fold="filters"', 1)[0]
    filters = head.split('data-fold="filters"', 1)[1]
    assert '<form class="lb-filters"' in filters
    # the leading columns: rank, range (tier), name, value, interval, then the organisation
    keys = re.findall(r'<th scope="col"(?: data-key="(\w+)")?', table.split("</thead>", 1)[0])
    assert keys[:6] == ["rank", "tier", "name", "value", "", "org"], keys


def test_rank_range_and_tier_are_shown_not_only_in_a_title():
    ctx = make_context(40)
    rows = _rows(_board(ctx))
    ranked = sorted((r for r in ctx.boards["ai-iq"]["rows"] if r.get("rank") is not None), key=lambda r: r["rank"])
    # fixtures.py: rank k (from 0) has the range max(1, k-1)..min(n, k+3) and tier 1 + k // 5
    n = len(ranked)
    for k, row in enumerate(rows[:n]):
        lo, hi = max(1, k - 1), min(n, k + 3)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        assert cells[0] == str(k + 1) and cells[1] == f"{lo}–{hi} ({1 + k // 5})", (k, cells[:2])
    assert not any('<td title="' in r.split("<th", 1)[0] for r in rows)


def test_names_carry_their_configuration_as_a_chip_and_no_title():
    ctx = make_context(40)
    models = {m["id"]: m for m in ctx.models}
    first = sorted(ctx.boards["ai-iq"]["rows"], key=lambda r: (r.get("rank") is None, r.get("rank") or 0))[0]["model"]
    models[first]["name"] = "Claude Opus 5 (Adaptive Reasoning, Max)"
    rows = _rows(_board(ctx))
    head = re.search(r'<th scope="row">(.*?)</th>', rows[0]).group(1)
    assert re.fullmatch(r'<a href="\.\./\.\./models/[^"]+/">Claude Opus 5 <i>Adaptive Reasoning, Max</i></a>', head), head
    # no name, anywhere in the table, hides behind a title attribute
    for r in rows:
        name = re.search(r'<th scope="row">(.*?)</th>', r).group(1)
        assert "title=" not in name.replace('title="The vendor does not state', ""), name


def test_the_measurement_only_interval_sits_behind_the_rows_details():
    ctx = make_context(40)
    rows = sorted(ctx.boards["ai-iq"]["rows"], key=lambda r: (r.get("rank") is None, r.get("rank") or 0))
    with_interval = [r for r in rows if r.get("interval")]
    target = with_interval[0]
    for r in rows:  # the engine gives every composite row one: keep only the target's
        r.pop("interval_measurement", None)
    lo, hi = target["interval"]
    target["interval_measurement"] = [lo + 1.0, hi - 1.0]
    page_rows = _rows(_board(ctx))
    shown = [html.unescape(r) for r in page_rows if "data-m=" in r]
    assert len(shown) == 1, len(shown)
    # the page carries it on the total's cell; leaderboard.js makes the cell a <details> (browser test
    # test_the_measurement_interval_opens_from_the_row)
    cell = re.search(r'<td class="iv"[^>]* data-m="([^"]*)">(.*?)</td>', shown[0])
    assert cell.group(2).startswith(f"{lo:.1f}–{hi:.1f}")
    assert cell.group(1) == f"{lo + 1:.1f}–{hi - 1:.1f}"
    # rows without one show the total interval as before
    assert sum("data-m=" in r for r in page_rows) == 1
