"""The search index in mkdocs-material's search_index.json format (its worker renders titles as HTML, so escape)."""

from __future__ import annotations

import html
import re
from typing import Any

from .context import SiteContext
from .pages import Urls, board_title, href, methodology_title
from .render import dumps

_MD_NOISE = re.compile(r"[#*_`>|\[\]()-]+")


def search_index(ctx: SiteContext, urls: Urls) -> str:
    """One doc per page worth finding: boards, benchmarks, models, methodology. Text is HTML-escaped."""
    docs: list[dict[str, Any]] = [{"location": "", "title": html.escape(ctx.site_name), "text": html.escape(ctx.site_description)}]
    for bid in sorted(ctx.boards):
        b = ctx.boards[bid]
        docs.append({"location": href(urls.board[bid]), "title": html.escape(board_title(ctx, bid)),
                     "text": html.escape(f"Leaderboard {bid}. {b.get('description') or ''}")})
    bench = {b["id"]: b for b in ctx.benchmarks}
    for bid in sorted(urls.benchmark):
        b = bench.get(bid) or {}
        name = b.get("name") or (ctx.benchmark_boards.get(bid) or {}).get("name") or bid
        docs.append({"location": href(urls.benchmark[bid]), "title": html.escape(str(name)),
                     "text": html.escape(f"Benchmark {bid}. {b.get('category') or ''}. {b.get('description') or ''}")})
    for m in sorted(ctx.models, key=lambda m: m["id"]):
        text = " ".join(str(x) for x in (m["id"], m.get("organization") or "", m.get("family") or "", *(m.get("aliases") or [])))
        docs.append({"location": href(urls.model[m["id"]]), "title": html.escape(str(m.get("name") or m["id"])),
                     "text": html.escape(text)})
    for name in sorted(ctx.methodology_pages):
        text = ctx.methodology_pages[name]
        docs.append({"location": href(urls.methodology[name]), "title": html.escape(methodology_title(name, text)),
                     "text": html.escape(" ".join(_MD_NOISE.sub(" ", text).split()))})
    for loc, title in (("charts/", "Charts"), ("compare/", "Compare models"), ("downloads/", "Downloads and API"),
                       ("models/", "All models"), ("benchmarks/", "All benchmarks")):
        docs.append({"location": loc, "title": title, "text": title})
    config = {"lang": ["en"], "separator": r"[\s\-,:!=\[\]()\"/]+|(?!\b)(?=[A-Z][a-z])", "pipeline": ["stopWordFilter"], "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}}}
    return dumps({"config": config, "docs": docs})
