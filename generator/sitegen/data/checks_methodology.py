"""Cross-file rules for methodology/indices/: definitions that would otherwise change or lose a board silently.

Registered into rules.CHECKS like every rule; kept in their own module so the data rules stay short.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..problems import Problem, field_path
from .rules import BENCHMARK_HINT, SOURCE_HINT, check, list_of, problem_at, suggest_id, unknown_id

if TYPE_CHECKING:
    from .checks import Index
    from .load import Doc

FRACTION_TOLERANCE = 1e-9  # weights declared as fractions must sum to 1 within this


def _walk(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any, Any]]:
    """Every (json path, key, value) in a parsed definition."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield path, key, value
            yield from _walk(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _walk(value, path + (i,))


@check
def index_id_matches_file(index: Index) -> Iterator[Problem]:
    for doc in index.repo.indices:
        expected = doc.path.rsplit("/", 1)[-1].removesuffix(".yaml")
        found = doc.data.get("id")
        if isinstance(found, str) and found != expected:
            yield problem_at(
                doc,
                ("id",),
                "id",
                f"id '{found}' does not match the file name",
                f"write id: {expected} (the id is the board's URL)",
                key=False,
            )


@check
def index_references_known(index: Index) -> Iterator[Problem]:
    """Benchmarks and the source snapshot a definition is fed by exist; an unknown one would empty the board.

    (Source preference lists may name sources not yet imported: they only order what exists.)
    """
    for doc in index.repo.indices:
        for path, key, value in _walk(doc.data):
            where = path + (key,)
            if key == "benchmark":
                yield from unknown_id(doc, where, "benchmark", value, index.benchmarks, BENCHMARK_HINT)
            elif key == "per_benchmark" and isinstance(value, dict):
                for name in value:
                    if name not in index.benchmarks:
                        yield problem_at(
                            doc,
                            where + (name,),
                            field_path(where + (name,)),
                            f"unknown benchmark '{name}'",
                            suggest_id(name, index.benchmarks, BENCHMARK_HINT),
                        )
            elif key == "source_snapshot":
                yield from unknown_id(doc, where, "source", value, index.sources, SOURCE_HINT)


@check
def benchmark_in_one_dimension(index: Index) -> Iterator[Problem]:
    """A benchmark counts once in an index: listed in two dimensions (or twice in one) it would weigh double, and
    the simulations draw each benchmark's scores once per dimension that reads it (indices/uncertainty.py)."""
    for doc in index.repo.indices:
        first: dict[str, str] = {}
        for i, dim in enumerate(list_of(doc.data, "dimensions")):
            if not isinstance(dim, dict):
                continue
            for j, entry in enumerate(list_of(dim, "benchmarks")):
                bid = entry.get("benchmark") if isinstance(entry, dict) else None
                if not isinstance(bid, str):
                    continue
                name = str(dim.get("id", i))
                if bid in first:
                    where = ("dimensions", i, "benchmarks", j, "benchmark")
                    yield problem_at(
                        doc,
                        where,
                        field_path(where),
                        f"benchmark '{bid}' is already in dimension '{first[bid]}'",
                        "an index counts each benchmark once: keep it in one dimension",
                        key=False,
                    )
                else:
                    first[bid] = name


@check
def family_match_switch_acts(index: Index) -> Iterator[Problem]:
    """A benchmark's `family_match` acts only while its AI IQ definition has family match on: under a definition
    with it off, the setting would read as a decision that changes nothing."""
    for doc in index.repo.indices:
        if doc.data.get("kind") != "ai-iq" or doc.data.get("family_match") is True:
            continue
        for i, dim in enumerate(list_of(doc.data, "dimensions")):
            for j, entry in enumerate(list_of(dim, "benchmarks") if isinstance(dim, dict) else []):
                if isinstance(entry, dict) and "family_match" in entry:
                    where = ("dimensions", i, "benchmarks", j, "family_match")
                    yield problem_at(
                        doc,
                        where,
                        field_path(where),
                        "family match is off for the whole index, so this setting changes nothing",
                        "remove it, or write family_match: true at the top level",
                    )


@check
def anchors_ascending(index: Index) -> Iterator[Problem]:
    for doc in index.repo.indices:
        for path, key, value in _walk(doc.data):
            if key != "anchors" or not isinstance(value, list):
                continue
            raws = [pair[0] if isinstance(pair, list) and pair else None for pair in value]
            for i in range(1, len(raws)):
                a, b = raws[i - 1], raws[i]
                if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not a < b:
                    where = path + (key, i, 0)
                    yield problem_at(
                        doc,
                        where,
                        field_path(where),
                        f"raw score {b:g} does not rise above {a:g}",
                        "anchor rows go from the lowest raw score to the highest",
                        key=False,
                    )


@check
def weights_as_declared(index: Index) -> Iterator[Problem]:
    for doc in index.repo.indices:
        if doc.data.get("kind") != "weighted-mean" or doc.data.get("weights") != "fractions":
            continue
        weights: list[Any] = [c.get("weight") for c in list_of(doc.data, "constituents") if isinstance(c, dict)]
        if weights and all(isinstance(w, (int, float)) for w in weights) and abs(sum(weights) - 1) > FRACTION_TOLERANCE:
            yield problem_at(
                doc,
                ("constituents",),
                "constituents",
                f"weights sum to {sum(weights):g}, not 1",
                "fix the weights, or declare weights: relative to have them divided by their sum",
            )


@check
def snapshot_has_each_constituent(index: Index) -> Iterator[Problem]:
    """A weighted-mean constituent that names a metric or subset its source snapshot files the benchmark under
    no result of: every row of the board would be incomplete. (Typically an importer that now files results under
    a subset, e.g. AA's HLE under aa-2684, whose output was not regenerated.) A snapshot without the benchmark
    at all is not flagged: a board may wait for its data."""
    wanted = {}
    for doc in index.repo.indices:
        snapshot = doc.data.get("source_snapshot")
        if doc.data.get("kind") == "weighted-mean" and isinstance(snapshot, str):
            for i, c in enumerate(list_of(doc.data, "constituents")):
                if isinstance(c, dict) and isinstance(c.get("benchmark"), str):
                    wanted[(doc.path, i)] = (doc, snapshot, c)
    if not wanted:
        return
    filed: dict[tuple[Any, Any], dict[tuple[str, str], int]] = {}  # (source, benchmark) -> {(metric, subset): results}
    for _, _, result, _, source_id, _ in index.results():
        key = (result.get("metric") or "", result.get("subset") or "")
        kinds = filed.setdefault((source_id, result.get("benchmark")), {})
        kinds[key] = kinds.get(key, 0) + 1
    for (_, i), (doc, snapshot, c) in sorted(wanted.items(), key=lambda kv: kv[0]):
        found = filed.get((snapshot, c["benchmark"]))
        want = (c.get("metric") or "", c.get("subset") or "")
        if not found or want in found:
            continue
        have = "; ".join(f"{n} under {_filed_as(*k)}" for k, n in sorted(found.items()))
        where = ("constituents", i) + (("subset",) if want[1] else ("metric",) if want[0] else ())
        yield problem_at(
            doc,
            where,
            field_path(where),
            f"no {c['benchmark']} result of {snapshot} is filed under "
            f"{_filed_as(*want)} ({have}), so no row of this index is complete",
            "regenerate the imported file (sitegen import --all) if its importer now files them so, "
            "or correct the constituent",
            key=len(where) == 2,
        )


def _filed_as(metric: str, subset: str) -> str:
    parts = [f"metric '{metric}'"] * bool(metric) + [f"subset '{subset}'"] * bool(subset)
    return ", ".join(parts) or "the primary metric on the full set"


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@check
def pages_do_not_collide(index: Index) -> Iterator[Problem]:
    """Two benchmark ids or methodology pages that become one URL (site.pages.slug, case ignored) lose a page."""
    seen: dict[str, str] = {}
    for entry, doc, path in index.benchmarks.values():
        url = _UNSAFE.sub("-", entry["id"]).strip("-.").casefold()
        if url in seen and seen[url] != entry["id"]:
            yield problem_at(
                doc,
                path + ("id",),
                field_path(path + ("id",)),
                f"'{entry['id']}' has the same page as '{seen[url]}'",
                "benchmark pages are named by id; choose an id that differs in letters or digits",
                key=False,
            )
        seen.setdefault(url, entry["id"])
    pages: dict[str, str] = {}
    for name, _ in index.repo.pages:
        url = _UNSAFE.sub("-", name.removesuffix(".md")).strip("-.").casefold() or "x"
        if url in pages:
            yield Problem(
                f"methodology/{name}",
                0,
                0,
                "",
                f"has the same page as methodology/{pages[url]}",
                "rename one of them: both would be published at one address",
            )
        pages.setdefault(url, name)


def _first_day(value: object) -> str:
    """A history date (YYYY, YYYY-MM or YYYY-MM-DD) -> the first day it can mean, as text."""
    text = str(value).strip()
    return {4: f"{text}-01-01", 7: f"{text}-01"}.get(len(text), text[:10])


@check
def history_versions_meet(index: Index) -> Iterator[Problem]:
    """Methodology versions run from `from` (inclusive) to `to` (exclusive): within one history an entry's `to` is
    the `from` of the version after it, and every definition of one index (same `name`) records a version with
    the same dates (the superseded version's own file carries the `to` its successor's history gives it)."""
    records: dict[tuple[str, str], list[Version]] = {}
    for doc in index.repo.indices:
        history = doc.data.get("history")
        if isinstance(history, list):
            yield from _consecutive(doc, history, records)
    yield from _same_dates_everywhere(records)


# One version as a definition records it: (the file, the entry's index in its history, the entry).
Version = tuple["Doc", int, dict[str, Any]]


def _consecutive(doc: Doc, history: list[Any], records: dict[tuple[str, str], list[Version]]) -> Iterator[Problem]:
    """Within one history, each entry's `to` is the `from` of the entry after it; each entry is also added to
    records under (index name, version)."""
    dated = sorted(
        (_first_day(e["from"]), i)
        for i, e in enumerate(history)
        if isinstance(e, dict) and isinstance(e.get("from"), str)
    )
    for (_start, i), after in zip(dated, dated[1:] + [None]):
        entry = history[i]
        records.setdefault((str(doc.data.get("name")), str(entry.get("version"))), []).append((doc, i, entry))
        end = entry.get("to")
        if after is None:
            continue
        nxt = history[after[1]]
        if end is None:
            yield problem_at(
                doc,
                ("history", i),
                f"history[{i}]",
                f"version {entry.get('version')} has no `to` although "
                f"version {nxt.get('version')} follows it from {nxt['from']}",
                f'write to: "{nxt["from"]}" (a version runs up to, not including, its successor\'s from)',
            )
        elif _first_day(end) != after[0]:
            yield problem_at(
                doc,
                ("history", i, "to"),
                f"history[{i}].to",
                f"version {entry.get('version')} ends on "
                f"{end} but version {nxt.get('version')} starts on {nxt['from']}",
                f'write to: "{nxt["from"]}" (`to` is exclusive: the first day of the next version)',
                key=False,
            )


def _same_dates_everywhere(records: dict[tuple[str, str], list[Version]]) -> Iterator[Problem]:
    """Every definition of one index records a version with the same `from` and `to`."""
    for (name, version), found in sorted(records.items()):
        for field in ("from", "to"):
            values = {_first_day(e[field]) if e.get(field) else None for _, _, e in found}
            if len(values) < 2:
                continue
            told = next(e[field] for _, _, e in found if e.get(field))
            for doc, i, entry in found:
                if entry.get(field) is None or _first_day(entry[field]) != _first_day(told):
                    others = ", ".join(sorted({d.path for d, _, e in found if e.get(field) == told}))
                    yield problem_at(
                        doc,
                        ("history", i),
                        f"history[{i}].{field}",
                        f"{name} version {version}: {field} {entry.get(field) or '(none)'} here but {told} in {others}",
                        "every definition's history must give a version the same dates",
                    )
