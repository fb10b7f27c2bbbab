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
