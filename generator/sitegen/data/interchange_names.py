"""Cross-file rules for methodology/interchange-names.yaml, the reviewed table of the names other formats (Every Eval
Ever, Hugging Face) give the registry's benchmarks: each benchmark and metric it names exists, and no name, Hub
dataset or refusal means two things, so an import never picks one of two readings by the table's order.

`norm` is the comparison key the importers match names by (interchange/records.py); the rules compare by it too.
Registered into rules.CHECKS like every rule (checks.py imports this module)."""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..problems import Problem, field_path
from .rules import BENCHMARK_HINT, check, metric_hint, problem_at, suggest_id

if TYPE_CHECKING:
    from .checks import Index
    from .load import Doc

Where = tuple[str | int, ...]


def norm(text: object) -> str:
    """A comparison key: case folded, every run of other characters than letters and digits one '-'."""
    return re.sub(r"[^0-9a-z²]+", "-", str(text).casefold()).strip("-")


def _entries(data: Any) -> dict[str, dict[str, Any]]:
    table = data.get("benchmarks") if isinstance(data, dict) else None
    return {k: v for k, v in table.items() if isinstance(v, dict)} if isinstance(table, dict) else {}


def _named(bench: str, entry: dict[str, Any]) -> Iterator[tuple[Where, str, str]]:
    """(where, the name, what it means: 'benchmark' or 'benchmark metric') for each name of one entry."""
    if isinstance(entry.get("name"), str):
        yield ("benchmarks", bench, "name"), entry["name"], bench
    for i, name in enumerate(entry.get("names") or ()):
        yield ("benchmarks", bench, "names", i), str(name), bench
    for metric, names in (entry.get("metrics") or {}).items():
        for i, name in enumerate(names or ()):
            yield ("benchmarks", bench, "metrics", metric, i), str(name), f"{bench} {metric}"


def _hubs(bench: str, entry: dict[str, Any]) -> Iterator[tuple[Where, tuple[str, str | None]]]:
    for i, hub in enumerate(entry.get("hub") or ()):
        config = hub.get("config")
        yield ("benchmarks", bench, "hub", i), (norm(hub["dataset"]), None if config is None else norm(config))


def _at(doc: Doc, path: Where, message: str, hint: str) -> Problem:
    return problem_at(doc, path, field_path(path), message, hint, key=False)


def names_problems(doc: Doc, registry: Mapping[str, Mapping[str, Any]]) -> Iterator[Problem]:
    """Every problem of the names table `doc` against the registry (benchmark id -> its entry)."""
    entries = _entries(doc.data)
    for bench, entry in entries.items():
        if bench not in registry:
            yield problem_at(
                doc,
                ("benchmarks", bench),
                f"benchmarks.{bench}",
                f"unknown benchmark '{bench}'",
                suggest_id(bench, registry, BENCHMARK_HINT),
            )
            continue
        declared = [m["id"] for m in registry[bench].get("metrics") or () if isinstance(m, dict) and "id" in m]
        for metric in entry.get("metrics") or {}:
            if metric not in declared:
                where = ("benchmarks", bench, "metrics", metric)
                yield problem_at(
                    doc,
                    where,
                    field_path(where),
                    f"'{metric}' is not a metric {bench} declares",
                    metric_hint(bench, declared),
                )
    seen = yield from _names_twice(doc, entries, registry)
    hubs = yield from _hubs_twice(doc, entries)
    yield from _refusals_listed(doc, seen, hubs)


def _names_twice(
    doc: Doc, entries: dict[str, dict[str, Any]], registry: Mapping[str, Any]
) -> Generator[Problem, None, dict[Any, tuple[Where, str]]]:
    """A name that is another benchmark's id, or that means two things; returns each name's first place and meaning
    by its comparison key."""
    named = []
    for bench, entry in entries.items():
        for path, name, means in _named(bench, entry):
            key = norm(name)
            if key in registry and key != means:
                yield _at(
                    doc,
                    path,
                    f"'{name}' is the id of benchmark {key}, which it always names",
                    "an exact benchmark id names itself: remove it here",
                )
            else:
                named.append((path, key, means, f"'{name}'"))
    hint = "a name means one benchmark and metric: keep it where it belongs"
    return (yield from _first_places(doc, named, "a name of", hint))


def _hubs_twice(doc: Doc, entries: dict[str, dict[str, Any]]) -> Generator[Problem, None, dict[Any, tuple[Where, str]]]:
    """A Hub dataset (with its config) listed for two benchmarks; returns each one's first place and benchmark."""
    listed = [
        (path, hub, bench, "this dataset") for bench, entry in entries.items() for path, hub in _hubs(bench, entry)
    ]
    hint = "a Hub dataset (with its config) is one benchmark: keep it where it belongs"
    return (yield from _first_places(doc, listed, "listed for", hint))


def _first_places(
    doc: Doc, items: list[tuple[Where, Any, str, str]], also: str, hint: str
) -> Generator[Problem, None, dict[Any, tuple[Where, str]]]:
    """items: (place, comparison key, what it means, how it is shown). A key met again with another meaning is a
    problem at its place; returns each key's first (place, meaning)."""
    first: dict[Any, tuple[Where, str]] = {}
    for path, key, means, shown in items:
        if key in first and first[key][1] != means:
            yield _at(doc, path, f"{shown} is also {also} {first[key][1]} ({field_path(first[key][0])})", hint)
        first.setdefault(key, (path, means))
    return first


def _refusals_listed(
    doc: Doc, seen: dict[Any, tuple[Where, str]], hubs: dict[Any, tuple[Where, str]]
) -> Iterator[Problem]:
    """A refused name the table lists, or a refused dataset the table lists whole."""
    refusals = doc.data.get("not") if isinstance(doc.data, dict) else None
    for i, refusal in enumerate(refusals if isinstance(refusals, list) else ()):
        name, hub = (refusal.get("name"), refusal.get("hub")) if isinstance(refusal, dict) else (None, None)
        if name is not None and norm(name) in seen:
            path, means = seen[norm(name)]
            yield _at(
                doc,
                ("not", i, "name"),
                f"'{name}' is refused but names {means} ({field_path(path)})",
                "list a name either as a benchmark's or under not, never both",
            )
        if hub is not None and (norm(hub), None) in hubs:
            path, bench = hubs[(norm(hub), None)]
            yield _at(
                doc,
                ("not", i, "hub"),
                f"'{hub}' is refused but is {bench}, all of it ({field_path(path)})",
                "refuse a dataset only where the table lists some of its configs",
            )


@check
def interchange_names_agree_with_the_registry(index: Index) -> Iterator[Problem]:
    """methodology/interchange-names.yaml names only benchmarks and metrics the registry declares, and each name
    one of them."""
    if index.repo.names is not None:
        yield from names_problems(index.repo.names, {bench: found[0] for bench, found in index.benchmarks.items()})
