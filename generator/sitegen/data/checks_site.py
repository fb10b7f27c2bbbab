"""Cross-file rules for methodology/site.yaml: every board, chart, definition and page it names exists, so a typo is
a placed problem (file:line) rather than a chart, column or page silently left out.

Registered into rules.CHECKS like every rule (checks.py imports this module)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..problems import Problem, field_path
from .chart_texts import CHART_TEXTS, PRICE_TEXTS, unknown_placeholders
from .rules import check, problem_at, suggest_id

if TYPE_CHECKING:
    from .checks import Index
    from .load import Doc

BOARD_HINT = "board ids are the ids of methodology/indices/*.yaml (and of the boards a definition lists)"
CHART_HINT = "charts.draw names the charts the site draws"


def board_ids(definitions: Iterable[dict[str, Any]]) -> set[str]:
    """The boards the definitions make: those a definition lists under `boards` (each with its id), else the
    definition's own id; a definition of per-benchmark boards (kind benchmark-boards) makes no index board."""
    out: set[str] = set()
    for d in definitions:
        listed = d.get("boards")
        if listed:
            out |= {b["id"] for b in (listed.values() if isinstance(listed, dict) else listed) if _has_id(b)}
        elif d.get("kind") != "benchmark-boards" and isinstance(d.get("id"), str):
            out.add(d["id"])
    return out


def _has_id(board: Any) -> bool:
    return isinstance(board, dict) and isinstance(board.get("id"), str)


def _unknown(doc: Doc, path: tuple[str | int, ...], what: str, name: Any, known: set[str], hint: str) -> Problem:
    return problem_at(
        doc, path, field_path(path), f"unknown {what} '{name}'", suggest_id(str(name), known, hint), key=False
    )


@check
def site_names_known_boards(index: Index) -> Iterator[Problem]:
    """The boards site.yaml orders, shows on the models' list, draws charts of and places charts on exist."""
    doc = index.repo.site
    if doc is None or not isinstance(doc.data, dict):
        return
    boards = board_ids(d.data for d in index.repo.indices)
    data, charts = doc.data, doc.data.get("charts") or {}
    for i, bid in enumerate(data.get("boards") or []):
        if bid not in boards:
            yield _unknown(doc, ("boards", i), "board", bid, boards, BOARD_HINT)
    bid = (data.get("models") or {}).get("board")
    if bid is not None and bid not in boards:
        yield _unknown(doc, ("models", "board"), "board", bid, boards, BOARD_HINT)
    for name, drawn in (charts.get("draw") or {}).items():
        for key in ("board", "x", "y") if isinstance(drawn, dict) else ():
            if key in drawn and drawn[key] not in boards:
                yield _unknown(doc, ("charts", "draw", name, key), "board", drawn[key], boards, BOARD_HINT)
    for bid in charts.get("boards") or {}:
        if bid not in boards:
            path = ("charts", "boards", bid)
            yield problem_at(doc, path, field_path(path), f"unknown board '{bid}'", suggest_id(bid, boards, BOARD_HINT))


@check
def site_names_drawn_charts(index: Index) -> Iterator[Problem]:
    """Each chart a page lists is one charts.draw draws."""
    doc = index.repo.site
    if doc is None or not isinstance(doc.data, dict):
        return
    charts = doc.data.get("charts") or {}
    drawn = set(charts.get("draw") or {})
    lists: list[tuple[tuple[str | int, ...], list]] = [(("charts", k), charts.get(k) or []) for k in ("home", "model")]
    lists += [(("charts", "gallery"), charts.get("gallery") or [])]
    lists += [(("charts", "boards", bid), names) for bid, names in (charts.get("boards") or {}).items()]
    for path, names in lists:
        for i, name in enumerate(names):
            if name not in drawn:
                yield _unknown(doc, (*path, i), "chart", name, drawn, CHART_HINT)


@check
def site_places_known_definitions(index: Index) -> Iterator[Problem]:
    """methodology_pages names definitions (by id or family) and methodology pages that exist."""
    doc = index.repo.site
    if doc is None or not isinstance(doc.data, dict):
        return
    ids = {d.data["id"] for d in index.repo.indices if isinstance(d.data.get("id"), str)}
    names = ids | {i.rsplit("-v", 1)[0] for i in ids if "-v" in i}
    pages = {name.removesuffix(".md") for name, _ in index.repo.pages}
    for key, page in (doc.data.get("methodology_pages") or {}).items():
        path = ("methodology_pages", key)
        if key not in names:
            hint = suggest_id(key, names, "name a definition's id, or its id without the -vN version")
            yield problem_at(doc, path, field_path(path), f"unknown definition '{key}'", hint)
        if page not in pages:
            yield _unknown(doc, path, "methodology page", page, pages, "pages are the files methodology/*.md")


@check
def site_chart_texts_known_placeholders(index: Index) -> Iterator[Problem]:
    """A chart's texts (charts.draw, charts.prices) hold only the placeholders their field fills
    (data/chart_texts.py): a `{...}` the renderer would not fill would reach the page as written."""
    doc = index.repo.site
    if doc is None or not isinstance(doc.data, dict):
        return
    charts = doc.data.get("charts") or {}
    entries: list[tuple[tuple[str, ...], Any, dict[str, tuple[str, ...]]]] = []
    for name, drawn in (charts.get("draw") or {}).items():
        kind = drawn.get("kind") if isinstance(drawn, dict) else None
        entries.append(
            (("charts", "draw", name), drawn, (CHART_TEXTS.get(kind) or {}) if isinstance(kind, str) else {})
        )
    entries.append((("charts", "prices"), charts.get("prices"), PRICE_TEXTS))
    for at, entry, fields in entries:
        for key, allowed in fields.items():
            text = entry.get(key) if isinstance(entry, dict) else None
            if not isinstance(text, str):
                continue
            path = (*at, key)
            hint = ("its placeholders: " + ", ".join("{" + a + "}" for a in allowed)) if allowed else "it takes none"
            for unknown in unknown_placeholders(text, allowed):
                yield problem_at(doc, path, field_path(path), f"unknown placeholder '{unknown}'", hint, key=False)
