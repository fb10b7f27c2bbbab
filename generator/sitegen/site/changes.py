"""Template data for the data changelog, its Atom feed, the citation page and the data-format page."""

from __future__ import annotations

import re
from typing import Any

from .context import SiteContext
from .feed import atom_feed, brief_lines
from .links import safe_url
from .pages import Urls, href
from .views import Lookups

#: How many items of one kind an entry lists before the rest go behind a <details> toggle.
SHOWN = 12
CHANGELOG_PAGE = "changelog/index.html"
FEED = "changelog.atom"


def _item(text: str, link: str | None = None) -> dict[str, Any]:
    return {"text": text, "href": link}


def _split(items: list[dict]) -> dict[str, list[dict]]:
    return {"shown": items[:SHOWN], "more": items[SHOWN:]}


def entry_view(entry: dict, urls: Urls, lk: Lookups, repo_url: str) -> dict[str, Any]:
    """One commit: its anchor, date, subject, commit link, and groups of changed things with page links."""

    def models(ids: list[str]) -> dict[str, list[dict]]:
        # removed models have no page in this build; changed ones may have been removed later
        return _split([_item(str(lk.models.get(m, {}).get("name") or m), urls.model_href(m)) for m in ids])

    groups = []
    for key, label in (
        ("models_added", "Models added"),
        ("models_removed", "Models removed"),
        ("models_changed", "Model files changed"),
    ):
        if entry.get(key):
            groups.append({"label": label, **models(entry[key])})
    if entry.get("imported"):
        groups.append(
            {
                "label": "Imported sources regenerated",
                **_split(
                    [
                        _item(lk.source_name(i["source"]) + ("" if i["status"] == "changed" else f" ({i['status']})"))
                        for i in entry["imported"]
                    ]
                ),
            }
        )
    methodology = []
    for m in entry.get("methodology", []):
        link, text = None, m["file"].removeprefix("methodology/")
        if m.get("index"):
            text = f"index {m['index']}"
            link = href(urls.board[m["index"]]) if m["index"] in urls.board else None
        elif text.endswith(".md") and "/" not in text and text in urls.methodology:
            link = href(urls.methodology[text])
        methodology.append(_item(text + ("" if m["status"] == "changed" else f" ({m['status']})"), link))
    if methodology:
        groups.append({"label": "Methodology", **_split(methodology)})
    if entry.get("files"):
        groups.append(
            {
                "label": "Other data files",
                **_split(
                    [
                        _item(f["file"] + ("" if f["status"] == "changed" else f" ({f['status']})"))
                        for f in entry["files"]
                    ]
                ),
            }
        )
    sha = entry["commit"]
    commit_url = safe_url(f"{repo_url.rstrip('/')}/commit/{sha}") if repo_url else None
    return {
        "anchor": f"c-{sha[:12]}",
        "date": entry["date"][:10],
        "datetime": entry["date"],
        "subject": entry["subject"],
        "short": sha[:12],
        "commit_url": commit_url,
        "groups": groups,
        "cutoff": bool(entry.get("root") and entry.get("shallow")),
    }


def changelog_view(ctx: SiteContext, urls: Urls, lk: Lookups) -> dict[str, Any]:
    """Entries newest first, grouped into data releases (`data-*` tags); unreleased changes first."""
    sections: list[dict[str, Any]] = []
    for entry in ctx.history:
        release = entry.get("release")
        key = release["tag"] if release else None
        if not sections or sections[-1]["key"] != key:
            sections.append(
                {
                    "key": key,
                    "release": release,
                    "entries": [],
                    "anchor": f"release-{_anchor(key)}" if key else "unreleased",
                }
            )
        sections[-1]["entries"].append(entry_view(entry, urls, lk, ctx.repo_url))
    return {
        "sections": sections,
        "has_releases": any(s["release"] for s in sections),
        "count": len(ctx.history),
        "feed": FEED,
    }


def _anchor(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"


def atom(ctx: SiteContext) -> bytes:
    """changelog.atom: absolute links when the site URL is known, else relative to the feed's own address."""
    text = atom_feed(
        list(ctx.history),
        ctx.site_url,
        title=f"{ctx.site_name}: data changelog",
        feed_path=FEED,
        lines=brief_lines,
        page_path=href(CHANGELOG_PAGE),
        empty_updated=f"{ctx.data_date}T00:00:00Z",
    )
    return text.encode("utf-8")


# ---------------------------------------------------------------- citation


def _people(authors: Any) -> list[tuple[str, str]]:
    """CFF persons and entities -> (display name, BibTeX name): 'Family, Given' for a person, {Name} for an entity."""
    names = []
    for a in authors if isinstance(authors, list) else []:
        if not isinstance(a, dict):
            continue
        given = " ".join(str(a[k]) for k in ("given-names",) if a.get(k))
        family = " ".join(str(a[k]) for k in ("name-particle", "family-names") if a.get(k))
        suffix = str(a.get("name-suffix") or "")
        if family:
            shown = " ".join(x for x in (given, family, suffix) if x)
            bib = ", ".join(_bib(x) for x in (family, suffix, given) if x)
            names.append((shown, bib))
        elif a.get("name") or a.get("alias"):
            # an organisation's name in braces, so BibTeX does not split it into given and family names
            name = str(a.get("name") or a.get("alias"))
            names.append((name, "{" + _bib(name) + "}"))
    return names


def _bib(text: Any) -> str:
    """A BibTeX field value on one line, without braces or backslashes that could unbalance the entry."""
    return " ".join(re.sub(r"[{}\\]", "", str(text)).split())


def citation_view(cff: dict | None, repo_url: str = "") -> dict[str, Any] | None:
    """The fields the page shows, and a BibTeX-style entry, from CITATION.cff's data (None without one)."""
    if not isinstance(cff, dict):
        return None
    authors = _people(cff.get("authors"))
    released = str(cff.get("date-released") or "")
    url = safe_url(cff.get("url")) or safe_url(cff.get("repository-code")) or safe_url(repo_url)
    licence = cff.get("license")
    licence = ", ".join(map(str, licence)) if isinstance(licence, list) else licence
    fields = [
        ("title", _bib(cff.get("title") or "")),
        ("author", " and ".join(b for _, b in authors)),
        ("version", _bib(cff.get("version") or "")),
        ("year", released[:4]),
        ("doi", _bib(cff.get("doi") or "")),
        ("url", _bib(url or "")),
        ("note", f"License: {_bib(licence)}" if licence else ""),
    ]
    first = (str(cff.get("title") or "software").split(":")[0].split() or ["software"])[0].lower()
    key = _anchor(first) + (f"-{released[:4]}" if released else "")
    lines = [f"@software{{{key},"] + [f"  {k:<7} = {{{v}}}," for k, v in fields if v]
    return {
        "title": cff.get("title"),
        "message": cff.get("message"),
        "abstract": cff.get("abstract"),
        "authors": [shown for shown, _ in authors],
        "version": cff.get("version"),
        "released": released or None,
        "licence": licence,
        "doi": cff.get("doi"),
        "url": url,
        "bibtex": "\n".join(lines).rstrip(",") + "\n}\n",
    }


# ---------------------------------------------------------------- data format


def data_format_view(ctx: SiteContext) -> dict[str, Any]:
    """The JSON Schemas as Markdown (its first heading becomes the page title) and the contributing guide's URL."""
    from ..data.schemadoc import schema_markdown

    text = schema_markdown()
    title, _, body = text.partition("\n")
    contributing = safe_url(f"{ctx.repo_url.rstrip('/')}/blob/HEAD/CONTRIBUTING.md") if ctx.repo_url else None
    return {
        "title": title.removeprefix("# ").strip() if title.startswith("# ") else "Data file reference",
        "text": body if title.startswith("# ") else text,
        "contributing": contributing,
    }
