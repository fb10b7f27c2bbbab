"""Safe external links: only absolute http(s) URLs become links, always with rel="noopener nofollow"."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from markupsafe import Markup, escape

_CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f\u2028\u2029]")
EXTERNAL_REL = "noopener nofollow"


def safe_url(url: object) -> str | None:
    """Return the URL if it is an absolute https/http URL with a host and no whitespace, else None."""
    if not isinstance(url, str) or not url or _CONTROL.search(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("https", "http") or not parts.netloc or "@" in parts.netloc:
        return None  # https://arxiv.org@evil.example/ goes to evil.example
    return url


def external_link(text: object, url: object, cls: str = "") -> Markup:
    """An <a> to an external URL, or the escaped text alone when the URL is not safe."""
    label = escape("" if text is None else text)
    href = safe_url(url)
    if href is None:
        return Markup(label)
    klass = f' class="{escape(cls)}"' if cls else ""
    return Markup(f'<a href="{escape(href)}" rel="{EXTERNAL_REL}"{klass}>{label}</a>')
