"""The search index in mkdocs-material's search_index.json format (its worker renders titles as HTML, so escape)."""

from __future__ import annotations

import html
import re
from typing import Any

from .context import SiteContext
from .pages import Urls, board_title, href, methodology_title
from .render import dumps

_MD_NOISE = re.compile(r"[#*_`>|\[\]()-]+")
_NOT_WORD = re.compile(r"[^a-z0-9]+")
_CONFIG = re.compile(r"\s*\([^()]*\)\s*$")  # 'GPT-5 (high)' -> 'GPT-5': the release part of a configuration's name


def words(text: object) -> str:
    """A name as static/js/search-worker.js compares it with the query: lower case, runs of anything but [a-z0-9] as
    one space ('GPT-5.1 (high)' -> 'gpt 5 1 high'); the worker normalises the typed query the same way."""
    return _NOT_WORD.sub(" ", str(text).lower()).strip()


def _keys(*names: object) -> list[str]:
    """Normalised, de-duplicated names in the order given; empty ones dropped."""
    out: list[str] = []
    for n in names:
        k = words(n) if n else ""
        if k and k not in out:
            out.append(k)
    return out


def _model_doc(m: dict[str, Any], location: str) -> dict[str, Any]:
    """A model's search entry. Besides mkdocs-material's fields: `exact`, the names that mean exactly this
    configuration (name, id, id without organisation, aliases); `config`, names of its release (the name without
    its parenthesised configuration, the release id), which rank all its configurations next; `release`."""
    name, mid, release = str(m.get("name") or m["id"]), str(m["id"]), str(m.get("release") or m["id"])
    aliases = [str(a) for a in (m.get("aliases") or [])]
    text = " ".join(str(x) for x in (mid, m.get("organization") or "", m.get("family") or "", *aliases))
    return {
        "location": location,
        "title": html.escape(name),
        "text": html.escape(text),
        "exact": _keys(name, mid, mid.rpartition("/")[2], *aliases),
        "config": _keys(_CONFIG.sub("", name), release, release.rpartition("/")[2]),
        "release": words(release),
    }


def search_index(ctx: SiteContext, urls: Urls) -> str:
    """One doc per page worth finding: boards, benchmarks, models, methodology. Text is HTML-escaped."""
    docs: list[dict[str, Any]] = [
        {"location": "", "title": html.escape(ctx.site_name), "text": html.escape(ctx.site_description)}
    ]
    for bid in sorted(ctx.boards):
        b = ctx.boards[bid]
        docs.append(
            {
                "location": href(urls.board[bid]),
                "title": html.escape(board_title(ctx, bid)),
                "text": html.escape(f"Leaderboard {bid}. {b.get('description') or ''}"),
                "exact": _keys(board_title(ctx, bid), bid),
            }
        )
    bench = {b["id"]: b for b in ctx.benchmarks}
    for bid in sorted(urls.benchmark):
        meta = bench.get(bid) or {}
        bb = ctx.benchmark_boards.get(bid)
        name = meta.get("name") or (bb.get("name") if bb is not None else None) or bid
        docs.append(
            {
                "location": href(urls.benchmark[bid]),
                "title": html.escape(str(name)),
                "text": html.escape(f"Benchmark {bid}. {meta.get('category') or ''}. {meta.get('description') or ''}"),
                "exact": _keys(name, bid),
            }
        )
    for m in sorted(ctx.models, key=lambda m: m["id"]):
        docs.append(_model_doc(m, href(urls.model[m["id"]])))
    for name in sorted(ctx.methodology_pages):
        text = ctx.methodology_pages[name]
        docs.append(
            {
                "location": href(urls.methodology[name]),
                "title": html.escape(methodology_title(name, text)),
                "text": html.escape(" ".join(_MD_NOISE.sub(" ", text).split())),
            }
        )
    for loc, title in (
        ("charts/", "Charts"),
        ("compare/", "Compare models"),
        ("downloads/", "Downloads and API"),
        ("models/", "All models"),
        ("benchmarks/", "All benchmarks"),
    ):
        docs.append({"location": loc, "title": title, "text": title})
    return dumps({"config": CONFIG, "docs": docs})


#: the search's settings (mkdocs-material's `config` of search_index.json)
CONFIG = {
    "lang": ["en"],
    "separator": r"[\s\-,.:!=\[\]()\"/]+|(?!\b)(?=[A-Z][a-z])",
    "pipeline": ["stopWordFilter"],
    "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}},
}
#: Where the documents are: mkdocs-material's page fetches search/search_index.json on every page it opens, so
#: that file holds only the settings and no documents, and the search worker (static/js/search-worker.js) fetches
#: this one when a reader first searches.
DOCS_FILE = "search/search_docs.json"


def search_files(ctx: SiteContext, urls: Urls) -> dict[str, str]:
    """The search's two files: the settings every page loads (search_index.json, no documents) and the
    documents, loaded on the first search (DOCS_FILE)."""
    return {"search/search_index.json": dumps({"config": CONFIG, "docs": []}), DOCS_FILE: search_index(ctx, urls)}
