"""The Jinja2 environment (autoescape everywhere, StrictUndefined), its filters, JSON and Markdown helpers."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup, escape

from .links import EXTERNAL_REL, external_link, safe_url

_JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def clean(obj: Any) -> Any:
    """Make data JSON-safe and deterministic: NaN/inf -> None, tuples -> lists, sets sorted."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return [clean(v) for v in sorted(obj)]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):  # numpy scalars
        return clean(obj.item())
    return obj


def dumps(obj: Any) -> str:
    """Deterministic compact JSON (sorted keys, no NaN)."""
    return json.dumps(clean(obj), sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def script_json(obj: Any) -> Markup:
    """JSON safe to place inside <script type="application/json">: <, >, & and line separators escaped."""
    return Markup(dumps(obj).translate(_JSON_ESCAPES))


def fmt(value: Any, digits: int = 1) -> str:
    """Fixed float formatting; '–' for unknown values."""
    if value is None or isinstance(value, bool):
        return "–" if value is None else ("yes" if value else "no")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return "–"
        text = f"{float(value):.{digits}f}"
        return "0" + text[2:] if text.startswith("-0") and float(text) == 0 else text
    return str(value)


def fmt_price(value: Any) -> str:
    """Dollars per million tokens with two decimals; '–' when unknown (never $0 for unknown)."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    return f"${float(value):,.2f}"


def num_attr(value: Any) -> str:
    """A number for data-* attributes (sorting); empty when unknown."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, (int, float)) and math.isfinite(float(value)):
        return repr(round(float(value), 6))
    return ""


@lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt

    md = MarkdownIt("js-default")  # html=False: raw HTML in Markdown is shown as text; tables on
    def link_open(self, tokens, idx, options, env):
        token = tokens[idx]
        href = token.attrGet("href") or ""
        if "://" in href or href.startswith("//"):
            if safe_url(href) is None:
                token.attrSet("href", "#")
            else:
                token.attrSet("rel", EXTERNAL_REL)
        return self.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


def markdown(text: str) -> Markup:
    """Render contributor Markdown with raw HTML disabled and unsafe link schemes dropped."""
    return Markup(_markdown().render(text or ""))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The one Jinja2 environment: templates from the package, autoescape on, StrictUndefined."""
    root = resources.files("sitegen") / "templates"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(fmt=fmt, price=fmt_price, num=num_attr, script_json=script_json, markdown=markdown)
    env.globals.update(ext=external_link, safe_url=safe_url, cell=cell_html)
    return env


_MARK = {"imputed": "i", "derived": "d", "published": "p"}


def cell_html(c: dict[str, Any]) -> Markup:
    """One component <td>: value linked to its source; non-observed provenance marked, with its reason in a
    tooltip shown on hover and keyboard focus (aria-describedby). Python rather than a macro: it runs per cell."""
    uid = escape(c["uid"])
    how = escape(c["how"])
    note = escape(c["note"])
    if c["value"] is None:
        return Markup(
            f'<td data-sort="" class="lb-cell lb-cell--{how}"><span class="lb-flag" tabindex="0" aria-describedby="{uid}">–</span>'
            f'<span class="lb-tip" role="tooltip" id="{uid}">{note or "Missing"}</span></td>'
        )
    text = fmt(c["value"], c["digits"])
    shown = f'<a href="{escape(c["url"])}" rel="noopener nofollow">{text}</a>' if c["url"] else text
    sort = num_attr(c["value"])
    if note:
        mark = _MARK.get(c["how"], "×")
        return Markup(
            f'<td data-sort="{sort}" class="lb-cell lb-cell--{how}"><span class="lb-flag" tabindex="0" aria-describedby="{uid}">'
            f'{shown}<span class="lb-mark" aria-hidden="true">{mark}</span></span>'
            f'<span class="lb-tip" role="tooltip" id="{uid}">{note}</span></td>'
        )
    return Markup(f'<td data-sort="{sort}" class="lb-cell">{shown}</td>')
