"""The data changelog as an Atom 1.0 feed: entries (history/changelog.py) -> XML text, dated by commits."""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable
from urllib.parse import urljoin, urlsplit

ATOM = "http://www.w3.org/2005/Atom"
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def brief_lines(entry: dict) -> list[str]:
    """Plain-text lines describing one summary entry (for the Atom feed)."""
    if entry.get("root") and entry.get("shallow"):
        return [
            "The oldest commit in this shallow clone: its files are listed as added (fetch the full history "
            "to see what it changed)."
        ]
    lines = []
    for key, word in (
        ("models_added", "Models added"),
        ("models_removed", "Models removed"),
        ("models_changed", "Model files changed"),
    ):
        if entry[key]:
            lines.append(f"{word}: {capped(entry[key])}")
    if entry["imported"]:
        lines.append(f"Imported sources regenerated: {capped([i['source'] for i in entry['imported']])}")
    for m in entry["methodology"]:
        lines.append(f"Methodology {m['file']} {m['status']}" + (f" (index {m['index']})" if m["index"] else ""))
    for f in entry["files"]:
        lines.append(f"{f['file']} {f['status']}")
    return lines


def capped(items: list[str], most: int = 10) -> str:
    """A comma list of at most `most` items, then how many more (the JSON has them all)."""
    shown = ", ".join(items[:most])
    return shown if len(items) <= most else f"{shown} and {len(items) - most} more"


def _text(value: str) -> str:
    return _XML_INVALID.sub("\N{REPLACEMENT CHARACTER}", str(value))


def tag_uri(site_url: str, entry: dict) -> str:
    """tag:<host>,<commit date>:commit:<sha> (RFC 4151), stable for a commit on a given site."""
    host = urlsplit(site_url).hostname
    if not host:
        raise ValueError(f"site URL {site_url!r} has no host name")
    return f"tag:{host},{entry['date'][:10]}:commit:{entry['commit']}"


def atom_feed(
    entries: list[dict],
    site_url: str,
    title: str = "Data changelog",
    feed_path: str = "changelog.atom",
    max_lines_per_entry: int = 50,
    lines: Callable[[dict], list[str]] | None = None,
    page_path: str = "",
    empty_updated: str = "1970-01-01T00:00:00Z",
) -> str:
    """An Atom 1.0 feed of changelog entries, newest first; `updated` from commit dates, never the clock.

    `lines(entry)` describes an entry (brief_lines, for history.changelog.summary_entries, by default). With no
    site URL, links are relative to the feed's own address and ids are name-based UUID URNs of the commits.
    `page_path` (e.g. "changelog/") is the HTML page each entry links to, at the anchor "c-<short sha>".
    `empty_updated` is the feed's date when there are no entries.
    """
    lines = lines or brief_lines
    base = (site_url if site_url.endswith("/") else site_url + "/") if site_url else ""
    ordered = sorted(entries, key=lambda e: (e["date"], e["commit"]), reverse=True)
    ET.register_namespace("", ATOM)

    def sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
        el = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attrs)
        if text is not None:
            el.text = _text(text)
        return el

    def entry_id(entry: dict) -> str:
        return (
            tag_uri(base, entry)
            if base
            else f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'git:commit:' + entry['commit'])}"
        )

    feed = ET.Element(f"{{{ATOM}}}feed")
    sub(
        feed,
        "id",
        urljoin(base, feed_path) if base else f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'sitegen:' + feed_path)}",
    )
    sub(feed, "title", title)
    sub(feed, "updated", ordered[0]["date"] if ordered else empty_updated)
    sub(feed, "link", href=urljoin(base, page_path) if base else (page_path or "./"))
    sub(feed, "link", rel="self", href=urljoin(base, feed_path) if base else feed_path)
    author = sub(feed, "author")
    sub(author, "name", "sitegen contributors")
    sub(feed, "generator", "sitegen")
    for entry in ordered:
        el = sub(feed, "entry")
        sub(el, "id", entry_id(entry))
        sub(el, "title", entry["subject"] or entry["commit"][:12])
        sub(el, "updated", entry["date"])
        if page_path:
            anchor = f"{page_path}#c-{entry['commit'][:12]}"
            sub(el, "link", href=urljoin(base, anchor) if base else anchor)
        text = lines(entry) or ["No data change."]
        if len(text) > max_lines_per_entry:
            text = text[: max_lines_per_entry - 1] + [f"… and {len(text) - max_lines_per_entry + 1} more"]
        sub(el, "summary", text[0], type="text")
        sub(el, "content", "\n".join(text), type="text")
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode") + "\n"
