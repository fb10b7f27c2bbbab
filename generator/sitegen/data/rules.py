"""The registry of cross-file rules and what every rule uses to say where a problem is.

checks.py and checks_methodology.py register their rules here (`@check`); checks.run_checks runs them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..problems import Problem, field_path

if TYPE_CHECKING:
    from .checks import Index
    from .load import Doc

#: A rule: the problems it finds in the repository, through the lookups every rule shares.
Rule = Callable[["Index"], Iterable[Problem]]
#: suggest_id's shape: (unknown name, known ids, fallback hint) -> hint.
Suggest = Callable[[str, Collection[str], str], str]

CHECKS: list[Rule] = []

# The hints for an id that names nothing, one per kind of id, so every rule says the same.
BENCHMARK_HINT = "benchmark ids are listed in methodology/benchmarks.yaml"
SOURCE_HINT = "add it to scores/sources.yaml"
MODEL_HINT = "add a model file under scores/models/"


def check(fn: Rule) -> Rule:
    CHECKS.append(fn)
    return fn


def list_of(data: Any, key: str) -> list[Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def problem_at(
    doc: Doc,
    path: tuple[str | int, ...],
    field: str,
    message: str,
    hint: str = "",
    severity: str = "error",
    key: bool = True,
) -> Problem:
    line, col = doc.mark(*path) if key else doc.value_mark(*path)
    return Problem(doc.path, line, col, field, message, hint, severity)


def suggest_id(name: str, known: Collection[str], fallback: str) -> str:
    """'did you mean X?' for the known id closest to an unknown one (difflib over the ids in sorted order, so the
    same input always gets the same hint), else the fallback hint."""
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else fallback


def metric_hint(benchmark_id: str, metrics: list[Any]) -> str:
    """What to do about a metric the benchmark does not declare (its declared `metrics` ids)."""
    if metrics:
        return f"{benchmark_id} has metrics: {', '.join(metrics)}"
    return f"{benchmark_id} has only its primary metric; leave metric out"


def subset_hint(benchmark_id: str, subsets: list[Any]) -> str:
    """What to do about a subset the benchmark does not declare (its declared `subsets`)."""
    if subsets:
        return f"{benchmark_id} has subsets: {', '.join(subsets)}"
    return f"{benchmark_id} declares no subsets; leave subset out"


def unknown_id(
    doc: Doc,
    path: tuple[str | int, ...],
    what: str,
    value: object,
    known: Collection[str],
    hint: str,
    severity: str = "error",
    suggest: Suggest = suggest_id,
) -> Iterator[Problem]:
    """`unknown <what> '<value>'` at a value (field: its path) that names no known id, hinting at the closest
    known one, else the hint; nothing when the value is known or is not a string (the schema reports that)."""
    if isinstance(value, str) and value not in known:
        yield problem_at(
            doc, path, field_path(path), f"unknown {what} '{value}'", suggest(value, known, hint), severity, key=False
        )
