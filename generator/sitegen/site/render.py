"""The Jinja2 environment (autoescape everywhere, StrictUndefined), its filters, JSON and Markdown helpers."""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
from collections.abc import Callable, Iterator
from functools import lru_cache
from importlib import resources
from typing import Any, Protocol

import jinja2
import jinja2.meta
from jinja2.bccache import Bucket
from markupsafe import Markup, escape

from ..known import known
from .links import EXTERNAL_REL, external_link, safe_url
from .numbers import decimals, number, with_unit

_JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


_PLAIN = frozenset((str, int, bool, type(None)))
_isfinite = math.isfinite


def clean(obj: Any) -> Any:
    """Make data JSON-safe and deterministic: NaN/inf -> None, tuples -> lists, sets sorted."""
    kind = type(obj)
    if kind in _PLAIN:  # most values, first (a chart spec or a board's cells has 100,000s)
        return obj
    # a dict's or list's plain values and finite floats are kept as they are without a call each: what clean
    # would return for them
    if kind is dict:
        return {
            k if type(k) is str else str(k): v if type(v) in _PLAIN or (type(v) is float and _isfinite(v)) else clean(v)
            for k, v in obj.items()
        }
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN or (type(v) is float and _isfinite(v)) else clean(v) for v in obj]
    return _clean_other(obj)


def _clean_other(obj: Any) -> Any:
    """clean's rarer cases, by isinstance: floats (NaN/inf -> None), subclasses of dict, list and tuple, sets,
    numpy scalars."""
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
    """Fixed decimals (numbers.number); '–' for unknown values, yes/no for booleans."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or isinstance(value, (int, float)):
        return number(value, digits)
    return str(value)


def fmt_auto(value: Any) -> str:
    """A number with as many decimals as its size needs (0.0042, 0.34, 12.3, 1234); '–' when unknown."""
    v = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if v is None or not math.isfinite(float(v)):
        return "–" if v is None and not isinstance(value, str) else str(value)
    a = abs(float(v))
    return fmt(v, 0 if a >= 1000 else 1 if a >= 10 else 2 if a >= 1 else 3 if a >= 0.01 or a == 0 else 4)


def scale_text(scale: Any) -> str:
    """A benchmark scale as text: '0–100 percent', 'from 0 million-tokens', 'elo'; '–' when unknown."""
    if not isinstance(scale, dict) or not scale:
        return "–"
    lo, hi, unit = scale.get("min"), scale.get("max"), scale.get("unit") or ""
    span = f"{lo}–{hi} " if lo is not None and hi is not None else (f"from {lo} " if lo is not None else "")
    return (span + unit).strip() or "–"


def fmt_price(value: Any) -> str:
    """Dollars per million tokens: two decimals, more for prices under a cent ($0.075); '–' when unknown (never $0).
    A price above zero too small for the most decimals shown reads "<$0.0001", never "$0.0000", which reads as
    free; a price of exactly 0 is free and reads "$0.00"."""
    digits = decimals("USD", [value])
    text = with_unit(value, "USD", digits)
    f = known(value)
    if f is not None and f > 0 and text == with_unit(0, "USD", digits):
        return "<" + with_unit(10.0**-digits, "USD", digits)
    return text


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
        elif env and "md_pages" in env:
            token.attrSet("href", _rewrite_md_link(href, env))
        return self.renderToken(tokens, idx, options, env)

    def image(self, tokens, idx, options, env):
        """Only images shipped with the site: an image from another host would be fetched from the reader's
        browser (and blocked by the CSP anyway), so it is shown as its alt text and address instead."""
        token = tokens[idx]
        src = token.attrGet("src") or ""
        if ":" in src.split("/", 1)[0] or src.startswith("//"):
            alt = self.renderInlineAsText(token.children or [], options, env)
            from markdown_it.common.utils import escapeHtml

            return escapeHtml(f"[image: {alt}] ({src})")
        return self.image(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    md.add_render_rule("image", image)
    return md


def _rewrite_md_link(href: str, env: dict) -> str:
    """'ai-iq.md#x' (a sibling methodology page) -> the rendered page's URL relative to the current page."""
    path, sep, frag = href.partition("#")
    name = path.removeprefix("./")
    if not name.endswith(".md") or "/" in name or name not in env["md_pages"]:
        return href
    target = "" if name == "index.md" else env["md_pages"][name]
    return (env["md_base"] + target or "./") + (sep + frag if sep else "")


def markdown(text: str, pages: dict[str, str] | None = None, base: str = "") -> Markup:
    """Render contributor Markdown with raw HTML disabled and unsafe link schemes dropped.

    `pages` maps sibling Markdown file names to their folder under the methodology section ('ai-iq.md' ->
    'ai-iq/'), `base` leads from the current page to that section, so '[AI IQ](ai-iq.md)' links to the page.
    """
    env = {"md_pages": pages, "md_base": base} if pages is not None else {}
    return Markup(_markdown().render(text or "", env))


_DICT_ATTRIBUTES = frozenset(dir(dict))
#: What template_digest keeps of one template: the loader's up-to-date check, its source's SHA-256, and the names it
#: references (None when one is computed at render time)
_Source = tuple[Callable[[], bool] | None, str, tuple[str, ...] | None]


class ReferenceStore(Protocol):
    """Where template_digest keeps the names each template references, by its source's SHA-256, and where the
    templates are kept compiled (_CompiledKept): the compute cache's build/simcache.FileStore, salted by the code's
    digest (the Jinja2 version that parses and compiles them); `used` holds the keys a build asked for, which its
    prune keeps."""

    used: set[str]

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...


class _Environment(jinja2.Environment):
    """Jinja2's environment, with `x.name` on a plain dict looked up as a key straight away.

    Jinja2 tries the attribute first and takes the key when that raises AttributeError; the page views are dicts,
    so that exception was raised about a million times a build. A name dict itself has (items, get, ...) still
    goes the usual way, so every lookup answers as before."""

    def __init__(self, **options: Any):
        super().__init__(**options)
        #: (loader, template name) -> what template_digest read of it (see _source)
        self._sources: dict[tuple[jinja2.BaseLoader, str], _Source] = {}
        #: where the references parsed by an earlier build are kept (references_kept), or None: parsed here
        self.references: ReferenceStore | None = None

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def template_digest(self, name: str) -> str:
        """SHA-256 over the sources of template `name` and of every template it extends, includes or imports,
        recursively (jinja2.meta reads the names from each parsed template): what a page rendered from it is
        made of, besides its data and the code (reuse.py), so a `model.html` edit changes the model pages' keys
        only and a `base.html` edit every page's. A name computed at render time (`{% include x %}`) makes the
        template depend on every template. Sources come from this environment's loader, as rendering reads
        them, and are read again when the loader says a file changed (`sitegen serve` rebuilds in-process)."""
        names = self._dependencies(name)
        digest = hashlib.sha256()
        for dep in sorted(names):
            digest.update(f"{dep}\0{self._source(dep)[1]}\0".encode())
        return digest.hexdigest()

    def _dependencies(self, name: str) -> set[str]:
        """`name` and every template it reaches through extends, include, import and from-import."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            refs = self._source(current)[2]
            if refs is None:  # a name known only at render time: it may be any template
                return set(self.list_templates()) | seen
            todo.extend(refs)
        return seen

    def _source(self, name: str) -> _Source:
        """(the loader's up-to-date check, SHA-256 of the source, the names it references or None when one is
        computed), kept while the loader says the source is unchanged."""
        loader = self.loader
        assert loader is not None
        kept = self._sources.get((loader, name))
        if kept is not None and kept[0] is not None and kept[0]():
            if self.references is not None:
                self.references.used.add(kept[1])  # still this build's: its prune keeps the entry
            return kept
        source, _, uptodate = loader.get_source(self, name)
        digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
        known, refs = self._kept_references(digest)
        if not known:
            found = list(jinja2.meta.find_referenced_templates(self.parse(source)))
            refs = None if None in found else tuple(sorted({str(n) for n in found}))
            if self.references is not None:
                self.references.put(digest, json.dumps(refs).encode())
        entry = (uptodate, digest, refs)
        self._sources[(loader, name)] = entry
        return entry

    def _kept_references(self, digest: str) -> tuple[bool, tuple[str, ...] | None]:
        """(True, the names kept for the source of SHA-256 `digest`: None when one is computed at render time), or
        (False, None) when none are kept (no store, no entry, or an entry that is not a JSON null or list of
        strings)."""
        data = self.references.get(digest) if self.references is not None else None
        if data is None:
            return False, None
        try:
            refs = json.loads(data)
        except ValueError:
            return False, None
        if refs is None:
            return True, None
        if isinstance(refs, list) and all(isinstance(n, str) for n in refs):
            return True, tuple(refs)
        return False, None


class _CompiledKept(jinja2.BytecodeCache):
    """Jinja2's compiled templates kept in the store template_digest keeps its references in (the compute cache's
    `templates/`, salted with the code's digest: Jinja2's and Python's versions and this module, which sets the
    environment's options, filters and globals), by the template's name, file and source (Jinja2's own bucket key
    and checksum): a template whose bytes changed misses and is compiled again. An entry that is not a template
    compiled by this Jinja2 and Python is a miss too (Jinja2's bucket checks its header and checksum)."""

    def __init__(self, store: ReferenceStore):
        self.store = store

    @staticmethod
    def _key(bucket: Bucket) -> str:
        return f"compiled\0{bucket.key}\0{bucket.checksum}"

    def load_bytecode(self, bucket: Bucket) -> None:
        data = self.store.get(self._key(bucket))
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # a damaged entry (the checksum's pickle): compiled again, as a missing one
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.store.put(self._key(bucket), bucket.bytecode_to_string())


@contextlib.contextmanager
def references_kept(store: ReferenceStore | None) -> Iterator[None]:
    """Within it, template_digest takes each template's references from `store` by its source's digest and parses
    only a template whose bytes it has not seen; every template is read and loaded on entry, here, compiled ones
    taken from `store` (_CompiledKept), so the render's forked workers inherit them all, parsing and compiling
    none, and the store's `used` names every template of this build, references and compiled code (its prune keeps
    exactly those). The ~20 templates cost ~0.3 s of CPU to parse and compile (a cold store), ~0.01 s to load from
    a warm one. None (SITEGEN_CACHE=off): they are parsed and compiled here, before the workers fork, kept nowhere."""
    env = environment()
    previous, env.references = env.references, store
    compiled = env.bytecode_cache
    env.bytecode_cache = None if store is None else _CompiledKept(store)
    env.cache.clear()  # type: ignore[union-attr]  # every template loaded through this store (or compiled) again
    try:
        for name in env.list_templates():
            _, digest, refs = env._source(name)
            if store is not None and store.get(digest) is None:
                store.put(digest, json.dumps(refs).encode())  # read before this store was given (an earlier build)
            env.get_template(name)
        yield
    finally:
        env.references, env.bytecode_cache = previous, compiled


@lru_cache(maxsize=1)
def environment() -> _Environment:
    """The one Jinja2 environment: templates from the package, autoescape on, StrictUndefined."""
    root = resources.files("sitegen") / "templates"
    env = _Environment(
        loader=jinja2.FileSystemLoader(str(root)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(
        auto=fmt_auto,
        fmt=fmt,
        unit=with_unit,
        price=fmt_price,
        num=num_attr,
        script_json=script_json,
        markdown=markdown,
    )
    env.globals.update(
        scale_text=scale_text,
        ext=external_link,
        safe_url=safe_url,
        cell=cell_html,
        board_cell=board_cell_html,
        interval_text=interval_html,
        rank_range_text=rank_range_html,
        component_row=component_row_html,
        component_rows=component_rows_html,
        result_row=result_row_html,
        result_rows=result_rows_html,
        model_link=model_link_html,
        row_attrs=row_attrs_html,
        mode_mark=mode_mark_html,
        board_name=board_name_html,
        bench_rows=bench_rows_html,
        category_rows=category_rows_html,
        board_rows=board_rows_html,
    )
    return env


def _esc(value: Any) -> str:
    """markupsafe.escape's text as a plain str: the row helpers below join their cells into one Markup per table,
    and a Markup per value (escape's result) was the largest part of their time. The same replacements as
    markupsafe's, in its order; a value with __html__ (Markup) or another type goes through escape itself."""
    if type(value) is str:
        return (
            value.replace("&", "&amp;")
            .replace(">", "&gt;")
            .replace("<", "&lt;")
            .replace("'", "&#39;")
            .replace('"', "&#34;")
        )
    return str(escape(value))


def interval_html(x: dict[str, Any], digits: int) -> Markup:
    """'117.6–135.0 derived': a value's interval and its method, with the method's reason on hover
    (views.interval_view prepares the fields). Python rather than a macro: a model page shows one per component."""
    lo, hi = x["interval"][0], x["interval"][1]
    how = x["interval_how"]
    tail = f' <span class="lb-how">{_esc(how)}</span>' if how else ""
    return Markup(
        f'<span title="{_esc(x["interval_title"])}">{_esc(fmt(lo, digits))}–{_esc(fmt(hi, digits))}</span>{tail}'
    )


def rank_range_html(x: dict[str, Any]) -> Markup:
    """', ranked 2–5 in 95% of simulations, tier 1' after a rank (views._rank_range), at the board's rank level
    (x["rank_level"], views.levels); empty without a range."""
    if not x["rank_range"]:
        return Markup("")
    tier = f", tier {_esc(x['tier'])}" if x["tier"] is not None else ""
    level = _esc(x["rank_level"])
    return Markup(
        f', <span title="the central {level} of its ranks over the simulations; the rows of one tier cannot '
        f'be told apart at {level}">ranked {_esc(x["rank_range"])} in {level} of simulations{tier}</span>'
    )


_MARK = {"imputed": "i", "derived": "d", "published": "p"}


def cell_html(c: dict[str, Any]) -> Markup:
    """One component <td>: value linked to its source; non-observed provenance marked, with its reason in a
    tooltip shown on hover and keyboard focus (aria-describedby). Python rather than a macro: it runs per cell."""
    uid = _esc(c["uid"])
    how = _esc(c["how"])
    note = _esc(c["note"])
    if c["value"] is None:
        return Markup(
            f'<td data-sort="" class="lb-cell lb-cell--{how}"><span class="lb-flag" tabindex="0" aria-describedby="{uid}">–</span>'
            f'<span class="lb-tip" role="tooltip" id="{uid}">{note or "Missing"}</span></td>'
        )
    text = with_unit(c["value"], c["unit"], c["digits"]) if c.get("unit") else number(c["value"], c["digits"])
    shown = f'<a href="{_esc(c["url"])}" rel="noopener nofollow">{text}</a>' if c["url"] else text
    sort = num_attr(c["value"])
    if note:
        mark = _MARK.get(c["how"], "×")
        return Markup(
            f'<td data-sort="{sort}" class="lb-cell lb-cell--{how}"><span class="lb-flag" tabindex="0" aria-describedby="{uid}">'
            f'{shown}<span class="lb-mark" aria-hidden="true">{mark}</span></span>'
            f'<span class="lb-tip" role="tooltip" id="{uid}">{note}</span></td>'
        )
    title = f' title="{_esc(c["title"])}"' if c.get("title") else ""  # e.g. the question set a value is on
    return Markup(f'<td data-sort="{sort}" class="lb-cell"{title}>{shown}</td>')


#: What a row whose vendor does not state the reasoning mode shows after the name (from the data, never the name).
NOT_STATED_MARK = Markup('<span class="lb-mode">(mode not stated)</span>')


#: mode_mark_html's text when the mode is not stated
_NOT_STATED_TAIL = str(Markup(" ") + NOT_STATED_MARK)


def mode_mark_html(r: dict[str, Any]) -> Markup:
    """' (mode not stated)' after a model's name when its reasoning state says so; nothing otherwise."""
    return Markup(" ") + NOT_STATED_MARK if r.get("reasoning") == "not stated" else Markup("")


def split_name(name: str) -> tuple[str, str]:
    """A display name's product and its configuration: the text before the first " (" and what follows, without
    its parentheses when it is one group (CONTRIBUTING.md, "Name a model": configuration words, dates and
    checkpoint codes go in parentheses after the product). "GPT-5.4 (xhigh)" -> ("GPT-5.4", "xhigh");
    "GPT-4o (May '24) (high)" -> ("GPT-4o", "(May '24) (high)"); a name without one -> (name, "")."""
    head, sep, tail = name.partition(" (")
    if not sep or not head.strip():
        return name, ""
    tail = "(" + tail
    if tail.endswith(")") and tail.count("(") == 1 and tail.count(")") == 1:
        tail = tail[1:-1]
    return head, tail.strip()


def board_name_html(name: str) -> Markup:
    """A board row's name: the product, which may wrap, then its configuration as a chip (<i>, styled in site.css)
    that wraps between words but is never cut off, so "Claude Opus 5 (Adaptive Reasoning, Max)" and its xhigh
    sibling stay told apart on a phone (issue 29). The space keeps the cell's text searchable as one name."""
    head, tail = split_name(name)
    return Markup(f"{_esc(head)} <i>{_esc(tail)}</i>") if tail else Markup(_esc(name))


def model_link_html(r: dict[str, Any], root: str) -> Markup:
    """A row's model name, linked to its page when it has one, and its mode when the vendor does not state it.
    Python rather than a macro: it runs per row."""
    name = _esc(r["name"])
    link = f'<a href="{_esc(root)}{_esc(r["href"])}">{name}</a>' if r["href"] else name
    return Markup(link + _NOT_STATED_TAIL if r.get("reasoning") == "not stated" else link)


def row_attrs_html(r: dict[str, Any]) -> Markup:
    """A board row's filter attributes: the reasoning state always (one of metadata.REASONING_STATES), the others
    only when known (leaderboard.js reads a missing one as "unknown"); the name, organisation and page address the
    filter also searches are read from the row's cells."""
    out = [f' data-reasoning="{_esc(r["reasoning"])}"']
    if r["weights"] != "unknown":
        out.append(f' data-weights="{_esc(r["weights"])}"')
    if r["total_b"] is not None:
        out.append(f' data-params="{_esc(num_attr(r["total_b"]))}"')
    if r["aka"]:
        out.append(f' data-aka="{_esc(r["aka"])}"')
    return Markup("".join(out))


def component_row_html(c: dict[str, Any]) -> Markup:
    """One row of a model page's index breakdown: the component, its value (cell_html), interval, raw value,
    provenance, reason, source and retrieval date. Python rather than template: a model page has hundreds."""
    dim = ' class="lb-dim"' if c["kind"] == "dimension" else ""
    interval: str  # escaped HTML: Markup from interval_html, or text built from escaped parts
    if c["interval"]:
        interval = interval_html(c, c["digits"])
    elif c["value"] is not None:
        # the reason in the cell, not in a title a touch screen cannot open
        note = c["interval_title"]
        interval = "–" + (f' <span class="lb-how">{_esc(note)}</span>' if note else "")
    else:
        interval = ""
    how = _esc(c["how"])
    return Markup(
        f'<tr{dim}><th scope="row">{_esc(c["name"])}</th>{cell_html(c)}<td class="lb-num">{interval}</td>'
        f'<td class="lb-num">{_esc(with_unit(c["raw"], c["raw_unit"], c["raw_digits"]))}</td>'
        f'<td><span class="lb-how lb-how--{how}">{how}</span></td><td>{_esc(c["reason"] or "")}</td>'
        f"<td>{external_link(c['source'] or '–', c['url'])}</td><td>{_esc(c['retrieved'] or '–')}</td></tr>"
    )


def component_rows_html(components: list[dict[str, Any]]) -> Markup:
    """A model page's index breakdown rows, one component_row_html and a newline each (as the template's loop
    wrote them): one call per table, not one per row."""
    return Markup("".join(f"{component_row_html(c)}\n" for c in components))


def published_text(r: dict[str, Any]) -> str:
    """When a result became public: its date, or "public by <date>" when the date is a capture's (the number was
    public then at the latest; methodology/sources.md)."""
    if not r.get("published"):
        return "–"
    return f"public by {r['published']}" if r.get("public_by") else r["published"]


def result_row_html(r: dict[str, Any], root: str) -> Markup:
    """One row of a model page's results table (views.model_view prepares the fields); the lines end as the
    template's did. Python rather than template: it runs once per result of every model."""
    head = model_link_html(r, root)
    value: str = _esc(with_unit(r["value"], r["unit"], r["digits"]))
    if r["url"]:
        value = f'<a href="{_esc(r["url"])}" rel="noopener nofollow">{value}</a>'
    who = (
        '<span class="lb-self" title="Reported by the model\'s developer">self-reported</span>'
        if r["self_reported"]
        else "third-party"
    )
    override = ""
    if r["override"]:
        override = f"<strong>Corrected:</strong> {_esc(r['override'])}" + ("<br>" if r["notes"] else "")
    return Markup(
        f'<tr><th scope="row">{head}</th><td>{_esc(r["metric"] or "primary")}</td><td>{_esc(r["subset"] or "full")}</td>\n'
        f'<td class="lb-num">{value}</td>\n'
        f'<td class="lb-num">{_esc(fmt(r["stderr"], r["digits"]))}</td><td>{_esc(r["harness"] or "–")}</td>'
        f"<td>{external_link(r['source'], r['url'])}</td><td>{_esc(r['retrieved'] or '–')}</td>"
        f"<td>{_esc(published_text(r))}</td>\n"
        f"<td>{who}</td>\n"
        f'<td class="lb-notes">{override}{_esc(r["notes"])}</td></tr>'
    )


def result_rows_html(results: list[dict[str, Any]], root: str) -> Markup:
    """A model page's results rows, one result_row_html and a newline each (as the template's loop wrote them)."""
    return Markup("".join(f"{result_row_html(r, root)}\n" for r in results))


def board_cell_html(c: dict[str, Any]) -> Markup:
    """One component <td> of a leaderboard, as small as it can be: the number and a one-letter class for its
    provenance (views.HOW_CODE; CSS marks it). The reason, source and retrieval date live once in the board's
    cells.json, which leaderboard.js shows on hover, focus and tap; without JS the row's model page has them."""
    from .views import HOW_CODE

    code = HOW_CODE.get(c["how"], "x")
    text = number(c["value"], c["digits"])
    # the class is one letter, so it needs no quotes (HTML allows it; a long board has thousands of these cells)
    return Markup(f"<td class={code}>{text}</td>" if code else f"<td>{text}</td>")


# Table rows built in Python: a board or benchmark page has one row per model, each of ten or more cells, and
# rendering them through Jinja2 (a macro call, a Markup per value) was the largest part of their render time.
# Each helper writes the bytes the template loop wrote (the same markup, whitespace and escaping: every value from
# the data goes through `escape`, as autoescape did) and returns all of a table's rows as one Markup.


def _num_text(value: Any, digits: int) -> str:
    return _esc(fmt(value, digits))


def _rank_text(r: dict[str, Any]) -> str:
    return _esc(r["rank"] if r["rank"] is not None else "–")


def _bench_value_cell(r: dict[str, Any], digits: int) -> str:
    text = _num_text(r["value"], digits)
    shown = f'<a href="{_esc(r["url"])}" rel="noopener nofollow">{text}</a>' if r["url"] else text
    if r["how"] != "observed":
        how = _esc(r["how"])
        label = f'<span class="lb-how lb-how--{how}">{how}</span>'
        if r["reason"]:
            label = f'<details class="lb-rowd"><summary>{label}</summary>{_esc(r["reason"])}</details>'
        shown = f"{shown} {label}"
    return f'<td data-sort="{_esc(num_attr(r["value"]))}" class="lb-value">{shown}</td>\n'


def _also_text(r: dict[str, Any], digits: int) -> str:
    """A row's other runs under another harness (views.other_runs): the best two, and how many more."""
    if not r["also"]:
        return ""
    runs = ", ".join(f"{_esc(a['harness'])} {_num_text(a['value'], digits)}" for a in r["also"][:2])
    more = f" and {len(r['also']) - 2} more runs (model page)" if len(r["also"]) > 2 else ""
    return f'<br><span class="lb-also">also {runs}{more}</span>'


def bench_rows_html(view: dict[str, Any], root: str) -> Markup:
    """The rows of a benchmark page's score table (views.bench_board_view prepares the fields); the columns the
    view leaves out (no interval, no standard error, no harness, one source, one retrieval date) are left out."""
    digits = view["digits"]
    out = []
    for r in view["rows"]:
        cells = [
            f"<tr{row_attrs_html(r)}>\n",
            f'<td data-sort="{_esc(num_attr(r["rank"]))}">{_rank_text(r)}</td>\n',
            f'<th scope="row" data-sort="{_esc(r["name"])}">{model_link_html(r, root)}</th>\n',
            f'<td data-sort="{_esc(r["org"])}">{_esc(r["org"])}</td>\n',
            _bench_value_cell(r, digits),
        ]
        if view["has_ci"]:
            ci = r["ci"]
            shown = (
                f"{_num_text(ci[0], digits)}–{_num_text(ci[1], digits)}"
                if ci
                else '–<span class="lb-sr"> not known</span>'
            )
            cells.append(f"<td>{shown}</td>")
        if view["has_stderr"]:
            se = r["stderr"]
            shown = '–<span class="lb-sr"> not known</span>' if se is None else _num_text(se, view["stderr_digits"])
            cells.append(f'<td data-sort="{_esc(num_attr(se))}">{shown}</td>')
        if view["has_harness"]:
            cells.append(
                f'<td data-sort="{_esc(r["harness"])}">{_esc(r["harness"] or "–")}{_also_text(r, digits)}</td>'
            )
        if not view["one_source"]:
            cells.append(f'<td data-sort="{_esc(r["source"])}">{_esc(r["source"])}</td>')
        if not view["one_retrieved"]:
            cells.append(f'<td data-sort="{_esc(r["retrieved"])}">{_esc(r["retrieved"])}</td>')
        if r["self_reported"]:
            cells.append('<td data-sort="self"><span class="lb-self">self-reported</span></td>\n</tr>\n')
        else:
            cells.append('<td data-sort="third">third-party</td>\n</tr>\n')
        out.append("".join(cells))
    return Markup("".join(out))


def category_rows_html(table: dict[str, Any], root: str) -> Markup:
    """The rows of a benchmark page's per-category table (views._category_view): a model, then one cell per
    category, '–' where the source reports none."""
    digits = table["digits"]
    out = []
    for r in table["rows"]:
        cells = [f'<tr><th scope="row" data-sort="{_esc(r["name"])}">{model_link_html(r, root)}</th>']
        for c in r["cells"]:
            sort = _esc(num_attr(c["value"] if c else None))
            if not c:
                shown = '–<span class="lb-sr"> not reported</span>'
            elif c["url"]:
                text = _num_text(c["value"], digits)
                shown = f'<a href="{_esc(c["url"])}" rel="noopener nofollow" title="{_esc(c["title"])}">{text}</a>'
            else:
                shown = _num_text(c["value"], digits)
            cells.append(f'<td data-sort="{sort}" class="lb-value">{shown}</td>')
        cells.append("</tr>\n")
        out.append("".join(cells))
    return Markup("".join(out))


def _board_value_cell(r: dict[str, Any], view: dict[str, Any], root: str) -> str:
    digits = view["digits"]
    if r["value"] is None:
        shown: str = "–"
    elif view["has_components"] and r["breakdown"]:
        shown = f'<a href="{_esc(root)}{_esc(r["breakdown"])}">{_num_text(r["value"], digits)}</a>'
    elif r["url"]:
        shown = f'<a href="{_esc(r["url"])}" rel="noopener nofollow">{_num_text(r["value"], digits)}</a>'
    else:
        shown = _num_text(r["value"], digits)
    if r["manual"]:
        href = _esc(r["manual_url"] or "#")
        manual = _num_text(r["manual"]["value"], digits)
        shown += f' <a class="lb-manual" href="{href}" rel="noopener nofollow">manual {manual}</a>'
    return f'<td class="v">{shown}</td>'


def _board_interval_cell(r: dict[str, Any], digits: int) -> str:
    data = ""
    if r["interval"] and r["interval_measurement"]:
        m = r["interval_measurement"]
        data = f' data-m="{_num_text(m[0], digits)}–{_num_text(m[1], digits)}"'
    if r["interval"]:
        shown = f"{_num_text(r['interval'][0], digits)}–{_num_text(r['interval'][1], digits)}"
        if r["interval_method"]:
            shown += f' <span class="lb-how">{_esc(r["interval_method"])}</span>'
    else:
        shown = "–"
    if r["interval_note"]:
        shown = f'<details class="lb-rowd"><summary>{shown}</summary>{_esc(r["interval_note"])}</details>'
    return f'<td class="iv"{data}>{shown}</td>'


def board_rows_html(view: dict[str, Any], root: str) -> Markup:
    """The rows of a leaderboard (views.board_view prepares the fields): rank, range and tier, name, value,
    interval, organisation, coverage, status, one board_cell_html per component and the notes, each only where the
    view has that column. Past the 30th row of a board over 120 rows, a row carries class lb-later."""
    rows = view["rows"]
    long = len(rows) > 120
    out = []
    for index, r in enumerate(rows, 1):
        later = ' class="lb-later"' if index > 30 and long else ""
        cells = [f'<tr{row_attrs_html(r)} data-ranked="{1 if r["ranked"] else 0}"{later}><td>{_rank_text(r)}</td>']
        if view["has_tier"]:
            tier = r["tier"]
            spread = _esc(r["rank_range"])
            if tier is not None:
                spread = Markup(f"{spread}{' ' if r['rank_range'] else ''}({_esc(tier)})")
            cells.append(f"<td>{spread}</td>")
        name = board_name_html(r["name"])
        if r["href"]:
            name = Markup(f'<a href="{_esc(root)}{_esc(r["href"])}">{name}</a>')
        cells.append(f'<th scope="row">{name}{mode_mark_html(r)}</th>')
        cells.append(_board_value_cell(r, view, root))
        if view["has_interval"]:
            cells.append(_board_interval_cell(r, view["digits"]))
        cells.append(f"<td>{_esc(r['org'])}</td>")
        if view["has_components"]:
            cells.append(f"<td>{_esc(r['have'])}/{_esc(r['of'])}</td>" if r["of"] else "<td></td>")
        status = _esc(r["status"])
        flag = f" lb-status--{status}" if r["status"] in ("provisional", "unranked") else ""
        cells.append(f'<td class="st{flag}">{status}</td>')
        cells.extend(board_cell_html(c) for c in r["cells"])
        if view["has_notes"]:
            cells.append(f'<td class="lb-notes">{_esc(r["notes"])}</td>')
        cells.append("</tr>\n")
        out.append("".join(cells))
    return Markup("".join(out))
