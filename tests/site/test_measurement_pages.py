"""A board drawn row by row says on its page that its rank ranges are conservative, and why (#27 item 2)."""

from __future__ import annotations

import html

from fixtures import make_context

from sitegen.indices.uncertainty import INDEPENDENT
from sitegen.site import render_files


def test_benchmark_and_row_by_row_index_pages_say_their_rank_ranges_are_conservative():
    ctx = make_context(12)
    # what annotate_benchmark_boards / rank_from_row_intervals write: GPQA's board has rank ranges, MMLU-Pro's none
    ctx.benchmark_boards["gpqa-diamond"]["uncertainty"] = {"independent": INDEPENDENT}
    ctx.benchmark_boards["mmlu-pro"]["uncertainty"] = {"ranks": "no ranked value has an interval"}
    iq = ctx.boards["ai-iq"]
    iq["uncertainty"] = {"independent": INDEPENDENT}
    files = render_files(ctx)
    page = {path: html.unescape(body.decode("utf-8")) for path, body in files.items() if path.endswith(".html")}
    assert INDEPENDENT + " Each model's page gives its rank range and tier here." in page[
        "benchmarks/gpqa-diamond/index.html"]
    assert "conservative" not in page["benchmarks/mmlu-pro/index.html"]
    # a board page shows it beside its tiers (the fixture's AI IQ rows carry tiers)
    assert f'<p class="lb-legend">{INDEPENDENT}</p>' in page["boards/ai-iq/index.html"]
    assert "conservative" not in page["boards/ai-eq/index.html"]


def test_a_benchmark_page_states_its_size_and_where_it_is_stated_or_why_it_is_not_known():
    ctx = make_context(12)
    bench = {b["id"]: b for b in ctx.benchmarks}
    bench["gpqa-diamond"]["questions"] = [{"count": 198, "repeats": 5, "basis": "AA methodology",
                                           "url": "https://example.org/aa"}]
    bench["hle"]["questions"] = [{"count": 2684, "sources": ["aa-api-2026-07"], "basis": "seed 000"},
                                 {"count": 2500, "basis": "the paper"}]
    bench["mmlu-pro"]["questions_unknown"] = "No source states it."
    files = render_files(ctx)
    page = {p: html.unescape(b.decode("utf-8")) for p, b in files.items() if p.endswith(".html")}
    gpqa = page["benchmarks/gpqa-diamond/index.html"]
    assert ('<th scope="row">Size</th><td>198 questions, each run 5 times (repeats are not more questions): '
            '<a href="https://example.org/aa"') in gpqa
    assert ('<th scope="row">Size</th><td>2,684 questions, for aa-api-2026-07: seed 000; 2,500 questions: the paper'
            '</td>') in page["benchmarks/hle/index.html"]
    assert ("<td>not known: No source states it. Values without a published interval have none: their "
            "question-sampling error is left out.</td>") in page["benchmarks/mmlu-pro/index.html"]
    assert '<th scope="row">Size</th>' not in page["benchmarks/scicode/index.html"]
