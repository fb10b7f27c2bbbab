"""Issue 29's smaller things, each as a reader meets it: the home page's chart count, benchmark tables without empty
columns or a repeated source, the search documents kept out of every page."""

from __future__ import annotations

import json
import re
from functools import cache

from fixtures import make_context

from sitegen.site import render_files
from sitegen.site.views import Lookups, bench_board_view
from sitegen.site.pages import Urls

@cache
def _site():
    """The fixture site with one board's best value over time (a chart the charts page does not show)."""
    import dataclasses

    ctx = make_context(40)
    first = sorted(m["id"] for m in ctx.models)[0]
    best = [{"date": "2026-01-31", "value": 100.0, "model": first, "released": "2026-01-10"}]
    return render_files(dataclasses.replace(ctx, as_of={"frontier": {"ai-iq": {"best": best}}}))



def test_all_n_charts_counts_the_charts_the_charts_page_shows():
    home = _site()["index.html"].decode("utf-8")
    n = int(re.search(r"All (\d+) charts", home).group(1))
    shown = re.findall(r'<figure class="lb-chart" id="chart-', _site()["charts/index.html"].decode("utf-8"))
    assert n == len(shown) > 0
    # the price history and the boards' best over time are charts too, but on their own pages
    assert n < len([p for p in _site() if p.startswith("assets/charts/")])


def _row(model, value, **extra):
    return {"model": model, "value": value, "rank": None, "how": "observed", "source": "aa-api-2026-07",
            "retrieved": "2026-07-02", "url": None, "stderr": None, "ci_low": None, "ci_high": None, "harness": "",
            "self_reported": False, **extra}


def test_a_benchmark_table_shows_no_column_no_row_fills_and_says_a_shared_source_once():
    ctx = make_context(6)
    for m in ctx.models:  # no other runs under a harness either (those would be listed in the harness column)
        m["results"] = [r for r in m["results"] if r["benchmark"] != "mmlu-pro"]
    a, b = sorted(m["id"] for m in ctx.models)[:2]
    ctx.benchmark_boards["mmlu-pro"]["rows"] = [_row(a, 50.0, rank=1), _row(b, 40.0, rank=2)]
    view = bench_board_view("mmlu-pro", Lookups(ctx, Urls(ctx)))
    assert (view["has_stderr"], view["has_harness"]) == (False, False)
    assert view["one_source"] == "Artificial Analysis API (2026-07)" and view["one_retrieved"] == "2026-07-02"
    assert view["one_source_url"] == "https://artificialanalysis.ai/"
    page = render_files(ctx)["benchmarks/mmlu-pro/index.html"].decode("utf-8")
    heads = re.findall(r'<th scope="col"[^>]*>(?:<button[^>]*>)?([^<]+)', page.split('id="bench-mmlu-pro"')[1].split("</thead>")[0])
    assert not {"± s.e.", "Harness", "Source", "Retrieved"} & {h.strip() for h in heads}, heads
    assert 'Every score below is from <a href="https://artificialanalysis.ai/"' in page and "retrieved 2026-07-02." in page
    # one row with a standard error, another source, another date: those columns come back
    ctx.benchmark_boards["mmlu-pro"]["rows"] = [_row(a, 50.0, rank=1, stderr=1.5, harness="lm-eval"),
                                                _row(b, 40.0, rank=2, source="lab-claims", retrieved="2026-07-09")]
    view = bench_board_view("mmlu-pro", Lookups(ctx, Urls(ctx)))
    assert (view["has_stderr"], view["has_harness"], view["one_source"], view["one_retrieved"]) == (True, True, "", "")


def test_every_page_loads_the_search_settings_only():
    stub = json.loads(_site()["search/search_index.json"])
    full = json.loads(_site()["search/search_docs.json"])
    assert stub == {"config": full["config"], "docs": []} and len(full["docs"]) > 40
    assert len(_site()["search/search_index.json"]) < 400
    worker = _site()["assets/js/search-worker.js"].decode("utf-8")
    assert '"../../search/search_docs.json"' in worker  # beside search_index.json, from assets/js/


def _levels(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"<h([1-6])[\s>]", html)]


def test_changelog_headings_never_skip_a_level_with_or_without_releases():
    import dataclasses

    from fixtures import make_history

    def skips(levels):
        return [(a, b) for a, b in zip(levels, levels[1:]) if b > a + 1]

    with_releases = _levels(_site()["changelog/index.html"].decode("utf-8"))
    assert 3 in with_releases and skips(with_releases) == []  # h1, h2 per release, h3 per commit
    ctx = make_context(6)
    history = [dict(e, release=None) for e in make_history([m["id"] for m in ctx.models])]
    page = render_files(dataclasses.replace(ctx, history=history))["changelog/index.html"].decode("utf-8")
    levels = _levels(page)
    assert levels[0] == 1 and 3 not in levels and levels.count(2) >= 4 and skips(levels) == []


def test_organisations_with_unranked_rows_only_are_listed_apart():
    """A board that hides its unranked rows lists the organisations of its ranked rows, then, in a group of their own,
    those with unranked rows only (AI IQ's human baselines and ARC Prize entries, ranked nowhere)."""
    from sitegen.site.views import board_view

    ctx = make_context(6)
    rows = ctx.boards["ai-iq"]["rows"]
    ranked_orgs = {next(m["organization"] for m in ctx.models if m["id"] == r["model"]) for r in rows if r["rank"]}
    human = {"id": "human/human-panel", "name": "Human Panel", "organization": "Human baseline (ARC Prize)",
             "release": "human/human-panel", "results": []}
    ctx.models.append(human)
    rows.append({"model": human["id"], "value": None, "rank": None, "status": "unranked",
                 "coverage": {"have": 1, "of": 4}, "components": []})
    view = board_view("ai-iq", Lookups(ctx, Urls(ctx)))
    assert view["hide_unranked"] and set(view["orgs"]) == ranked_orgs
    assert view["unranked_orgs"] == ["Human baseline (ARC Prize)"]
    page = render_files(ctx)["boards/ai-iq/index.html"].decode("utf-8")
    assert '<optgroup label="Only in unranked rows"><option value="Human baseline (ARC Prize)">' in page
