"""The URL scheme and the list of pages: which template renders which data at which path."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .context import SiteContext

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Page:
    """One output HTML file: its path under site/, template, title, nav section and template data."""

    path: str
    template: str
    title: str
    section: str
    data: dict[str, Any] | Callable[[], dict[str, Any]] = field(default_factory=dict)  # or built when rendered
    description: str = ""
    #: root-relative prefix for a page served at any depth (404.html: '/repo/'); other pages link relatively
    base: str = ""

    @property
    def root(self) -> str:
        """Prefix from this page back to the site root ('' or '../' repeated; `base` when set)."""
        return self.base or "../" * self.path.count("/")


def site_path(site_url: str) -> str:
    """The path part of the site URL, as the root-relative prefix of its pages: '/repo/' ('/' when unknown).

    Only the path: a full URL would point a fork's or a local server's 404 page at another origin (and its CSP)."""
    path = urlsplit(site_url).path if site_url else ""
    return "/" + path.strip("/") + "/" if path.strip("/") else "/"


def slug(text: str) -> str:
    """A URL path segment from an id: keep [A-Za-z0-9._-], replace the rest with '-'."""
    s = _UNSAFE.sub("-", str(text)).strip("-.")
    return s or "x"


def href(path: str) -> str:
    """Directory-style URL for a page path: 'a/b/index.html' -> 'a/b/'."""
    if path == "index.html":
        return "./"
    return path[: -len("index.html")] if path.endswith("/index.html") else path


class Urls:
    """Page paths for every entity, computed once; slug collisions get a stable numeric suffix."""

    def __init__(self, ctx: SiteContext) -> None:
        self.model: dict[str, str] = {}
        taken: set[str] = set()
        for mid in sorted(m["id"] for m in ctx.models):
            base = "models/" + "/".join(slug(p) for p in str(mid).split("/") if p) if mid else "models/x"
            path, n = base, 2
            while path in taken:
                path, n = f"{base}-{n}", n + 1
            taken.add(path)
            self.model[mid] = path + "/index.html"
        self.board = {bid: f"boards/{slug(bid)}/index.html" for bid in sorted(ctx.boards)}
        bench_ids = sorted({b["id"] for b in ctx.benchmarks} | set(ctx.benchmark_boards))
        self.benchmark = {bid: f"benchmarks/{slug(bid)}/index.html" for bid in bench_ids}
        self.methodology = {
            name: (
                "methodology/index.html"
                if name == "index.md"
                else f"methodology/{slug(name.removesuffix('.md'))}/index.html"
            )
            for name in sorted(ctx.methodology_pages)
        }

    def model_href(self, mid: str) -> str | None:
        p = self.model.get(mid)
        return href(p) if p else None


def board_ids(ctx: SiteContext) -> list[str]:
    """Boards in display order: methodology/site.yaml's, then the others in id order."""
    order = ctx.presentation.boards
    return [b for b in order if b in ctx.boards] + sorted(b for b in ctx.boards if b not in order)


def board_title(ctx: SiteContext, bid: str) -> str:
    """A board's display name; boards that share a name (index versions) get their version appended."""
    b: Mapping[str, Any] = ctx.boards.get(bid) or {}
    name = str(b.get("name") or bid)
    if b.get("version") and sum(1 for o in ctx.boards.values() if o.get("name") == b.get("name")) > 1:
        return f"{name} v{b['version']}"
    return name


def nav_items(ctx: SiteContext, urls: Urls) -> list[dict[str, Any]]:
    """The sidebar: sections with their pages. Models are reached through tables and search, never listed here."""
    boards = [{"title": board_title(ctx, b), "path": urls.board[b], "key": f"board:{b}"} for b in board_ids(ctx)]
    methodology = [
        {"title": methodology_title(name, text), "path": urls.methodology[name], "key": f"methodology:{name}"}
        for name, text in sorted(ctx.methodology_pages.items())
    ]
    methodology.sort(key=lambda i: (i["path"] != "methodology/index.html", i["title"].lower(), i["path"]))
    items: list[dict[str, Any]] = [
        {"title": "Home", "path": "index.html", "key": "home", "children": []},
        {"title": "Leaderboards", "path": None, "key": "boards", "children": boards},
        {"title": "Benchmarks", "path": "benchmarks/index.html", "key": "benchmarks", "children": []},
        {"title": "Models", "path": "models/index.html", "key": "models", "children": []},
        {"title": "Charts", "path": "charts/index.html", "key": "charts", "children": []},
        {"title": "Compare", "path": "compare/index.html", "key": "compare", "children": []},
        {"title": "Methodology", "path": None, "key": "methodology", "children": methodology},
        {"title": "Downloads & API", "path": "downloads/index.html", "key": "downloads", "children": []},
        {"title": "Changelog", "path": "changelog/index.html", "key": "changelog", "children": []},
        {"title": "Cite", "path": "cite/index.html", "key": "cite", "children": []},
        {
            "title": "Data file format",
            "path": "contributing/data-format/index.html",
            "key": "data-format",
            "children": [],
        },
    ]
    return [i for i in items if i["path"] or i["children"]]  # a tree with no boards or pages: no empty section


def methodology_title(name: str, text: str) -> str:
    """The first '# ' heading of a Markdown page, else its file name."""
    for line in (text or "").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return name.removesuffix(".md").replace("-", " ").capitalize()


def contribute_links(ctx: SiteContext, path: str, report: dict[str, str] | None = None) -> dict[str, str]:
    """'Edit this file' (the data file behind a page) and 'report a wrong number' (the issue form, prefilled)
    links into the repository; empty when the repository's address is unknown (GITHUB_REPOSITORY unset)."""
    from urllib.parse import urlencode

    from .links import safe_url

    repo = ctx.repo_url.rstrip("/")
    if not safe_url(repo):
        return {}
    fields = {"template": "report-wrong-score.yml", **(report or {})}
    return {"edit": f"{repo}/edit/HEAD/{path}", "report": f"{repo}/issues/new?{urlencode(fields)}"}
