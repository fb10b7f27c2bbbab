"""Cross-file rules: one small function each, registered in CHECKS (rules.py), each yielding problems."""

from __future__ import annotations

import datetime
import fnmatch
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..problems import WARNING, Problem, field_path
from . import identity, lookalike
from .rules import (
    BENCHMARK_HINT,
    CHECKS,
    MODEL_HINT,
    SOURCE_HINT,
    check,
    list_of,
    metric_hint,
    problem_at,
    subset_hint,
    suggest_id,
    unknown_id,
)
from .yamlstrict import describe_char

if TYPE_CHECKING:
    from . import metadata
    from .load import Doc, Repo

JsonPath = tuple[str | int, ...]
#: A result as the rules see it: (doc, json path, result dict, model id, source id, retrieved), the last three as
#: written (the schema checks their types).
ResultRow = tuple["Doc", JsonPath, dict[str, Any], Any, Any, Any]
#: An entry of a registry: (entry, the file it is in, its json path there).
Entry = tuple[dict[str, Any], "Doc", JsonPath]


def today() -> datetime.date:
    """The date that 'not in the future' is measured against: the real UTC date.

    Not SOURCE_DATE_EPOCH: that pins what the output says, and a pinned past date would reject data
    retrieved since. Only whether a problem is reported depends on the clock, never the output.
    """
    return datetime.datetime.now(datetime.UTC).date()


class Index:
    """Lookups shared by the checks, built once from the parsed files."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.benchmarks: dict[str, Entry] = {}
        if repo.benchmarks is not None:
            for i, entry in enumerate(list_of(repo.benchmarks.data, "benchmarks")):
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    self.benchmarks[entry["id"]] = (entry, repo.benchmarks, ("benchmarks", i))
        self.sources: dict[str, Entry] = {}
        if repo.sources is not None:
            for i, entry in enumerate(list_of(repo.sources.data, "sources")):
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    self.sources[entry["id"]] = (entry, repo.sources, ("sources", i))
        self.models: dict[str, Doc] = {}
        for doc in repo.models:
            model_id = doc.data.get("id")
            if isinstance(model_id, str):
                self.models.setdefault(model_id, doc)
        self._shared: dict[str, tuple[Any, BaseException | None]] = {}

    def shared(self, name: str, make: Callable[[], Any]) -> Any:
        """make(), worked out once for every rule that asks by this name; a make() that raised raises again (the
        same exception object) for each rule that asks, as if that rule had called make() itself."""
        if name not in self._shared:
            try:
                self._shared[name] = (make(), None)
            except RULE_ERRORS as exc:
                self._shared[name] = (None, exc)
        value, error = self._shared[name]
        if error is not None:
            raise error
        return value

    def benchmark(self, benchmark_id: Any) -> dict[str, Any] | None:
        """The registry entry of a benchmark id as a file writes it; None for one the registry does not list."""
        found = self.benchmarks.get(benchmark_id)
        return None if found is None else found[0]

    def results(self) -> Iterator[ResultRow]:
        """Every result everywhere: (doc, json path, result dict, model id, source id, retrieved). Listed once and
        shared by the rules; where listing them raised (a file whose shape the schema rejects), each rule gets the
        rows before that place and then the same exception, as it did when each rule listed them itself."""
        if "results" not in self._shared:
            rows: list[ResultRow] = []
            try:
                rows.extend(self._each_result())
            except RULE_ERRORS as exc:
                self._shared["results"] = (rows, exc)
            else:
                self._shared["results"] = (rows, None)
        rows, error = self._shared["results"]
        return iter(rows) if error is None else _then_raise(rows, error)

    def _each_result(self) -> Iterator[ResultRow]:
        for doc in self.repo.models:
            yield from _model_results(doc)
        for doc in self.repo.imported:
            yield from _imported_results(doc)


def _model_results(doc: Doc) -> Iterator[ResultRow]:
    """A model file's results as Index.results gives them."""
    model_id = doc.data.get("id")
    for i, result in enumerate(list_of(doc.data, "results")):
        if isinstance(result, dict):
            yield doc, ("results", i), result, model_id, result.get("source"), result.get("retrieved")


def _imported_results(doc: Doc) -> Iterator[ResultRow]:
    """An imported file's results as Index.results gives them."""
    for i, result in enumerate(list_of(doc.data, "results")):
        if isinstance(result, dict):
            yield (
                doc,
                ("results", i),
                result,
                result.get("model"),
                doc.data.get("source"),
                result.get("retrieved", doc.data.get("retrieved")),
            )


#: What a rule may raise on a file whose shape the schema rejects (run_checks drops the rest of that rule's problems;
#: the schema's errors are already reported).
RULE_ERRORS = (TypeError, KeyError, AttributeError, ValueError)


def _then_raise(rows: list[Any], error: BaseException) -> Iterator[Any]:
    yield from rows
    raise error


# ---------------------------------------------------------------- per-file rules (verdicts kept with the parse)

#: A per-file rule: the problems it finds in one file, given the date 'not in the future' is measured against.
FileRule = Callable[["Doc", datetime.date], Iterable[Problem]]
#: The per-file rules by name: (the kinds of file it judges, None: every kind; the rule). A rule is listed here only when its verdict on
#: a file reads nothing but that file (its path, kind, data and marks) and the date: the verdict is then kept with
#: the file's parse by its digest (parsecache, judge_file) and a run judges again only the files whose bytes changed.
FILE_RULES: dict[str, tuple[frozenset[str] | None, FileRule]] = {}


def file_rule(*kinds: str) -> Callable[[FileRule], FileRule]:
    """Register a per-file rule for the files of these kinds (none named: every kind)."""

    def register(fn: FileRule) -> FileRule:
        FILE_RULES[fn.__name__] = (frozenset(kinds) or None, fn)
        return fn

    return register


class RuleStopped(ValueError):
    """A per-file rule raised on a file (whose shape the schema rejects): the rule stops there, as it did when it
    walked every file itself (run_checks keeps what it found before)."""


def _judged(rule: FileRule, doc: Doc, limit: datetime.date) -> tuple[list[Problem], bool]:
    """rule's verdict on doc: the problems it found, and whether it raised after them."""
    found: list[Problem] = []
    try:
        found.extend(rule(doc, limit))
    except RULE_ERRORS:
        return found, True
    return found, False


def judge_file(doc: Doc) -> tuple[str, dict[str, tuple[list[Problem], bool]]]:
    """Every per-file rule's verdict on doc that judges its kind, with the day it was judged on (parsecache keeps
    them with the file's parse)."""
    limit = today()
    verdicts = {
        name: _judged(rule, doc, limit)
        for name, (kinds, rule) in FILE_RULES.items()
        if kinds is None or doc.kind in kinds
    }
    return limit.isoformat(), verdicts


def _each_file(rule: FileRule, docs: Iterable[Doc]) -> Iterator[Problem]:
    """A per-file rule over docs in order: each file's verdict from the parse cache when it has today's, else judged
    now; stops at the first file it raised on."""
    from . import parsecache

    name, limit = rule.__name__, today()
    day = limit.isoformat()
    for doc in docs:
        verdict = parsecache.verdict(doc, name, day)
        found, raised = verdict if verdict is not None else _judged(rule, doc, limit)
        yield from found
        if raised:
            raise RuleStopped(f"{name} stopped at {doc.path}")


@check
def model_id_matches_path(index: Index) -> Iterator[Problem]:
    return _each_file(model_id_in_path, index.repo.models)


@file_rule("model")
def model_id_in_path(doc: Doc, limit: datetime.date) -> Iterator[Problem]:
    model_id = doc.data.get("id")
    expected = doc.path[len("scores/models/") : -len(".yaml")]
    if isinstance(model_id, str) and model_id != expected:
        yield problem_at(
            doc,
            ("id",),
            "id",
            f"id '{model_id}' does not match the file's path",
            f"write id: {expected}",
            key=False,
        )


@check
def ids_unique_ignoring_case(index: Index) -> Iterator[Problem]:
    seen: dict[str, str] = {}
    for doc in index.repo.models:
        key = doc.path.casefold()
        if key in seen:
            yield Problem(
                doc.path,
                0,
                0,
                "id",
                f"collides with {seen[key]} when case is ignored",
                "ids must differ by more than letter case (case-insensitive file systems merge them)",
            )
        else:
            seen[key] = doc.path
    for registry, key in ((index.repo.benchmarks, "benchmarks"), (index.repo.sources, "sources")):
        if registry is None:
            continue
        doc = registry
        seen_ids: dict[str, int] = {}  # folded id -> the first entry's index (its line is looked up when repeated)
        for i, entry in enumerate(list_of(doc.data, key)):
            item_id = entry.get("id") if isinstance(entry, dict) else None
            if not isinstance(item_id, str):
                continue
            folded = item_id.casefold()
            if folded in seen_ids:
                yield problem_at(
                    doc,
                    (key, i, "id"),
                    f"{key}[{i}].id",
                    f"'{item_id}' is defined twice",
                    f"first at line {doc.value_mark(key, seen_ids[folded], 'id')[0]}",
                    key=False,
                )
            else:
                seen_ids[folded] = i


@check
def known_references(index: Index) -> Iterator[Problem]:
    """Every result names a known benchmark and source, an imported one a known model; an imported file's models
    and the sources of a model file's pricing and manual IQ are known; an imported file is named after its
    source."""
    suggest = _suggester()
    for doc, path, result, model_id, source_id, _ in index.results():
        yield from unknown_id(
            doc,
            path + ("benchmark",),
            "benchmark",
            result.get("benchmark"),
            index.benchmarks,
            BENCHMARK_HINT,
            suggest=suggest,
        )
        where = path + ("source",) if "source" in result else ("source",)
        yield from unknown_id(doc, where, "source", source_id, index.sources, SOURCE_HINT, suggest=suggest)
        if doc.kind == "imported":
            yield from unknown_id(doc, path + ("model",), "model", model_id, index.models, MODEL_HINT, suggest=suggest)
    for doc in index.repo.imported:
        for i, entry in enumerate(list_of(doc.data, "models")):
            model_id = entry.get("model") if isinstance(entry, dict) else None
            yield from unknown_id(
                doc, ("models", i, "model"), "model", model_id, index.models, MODEL_HINT, suggest=suggest
            )
        source_id = doc.data.get("source")
        if isinstance(source_id, str) and doc.path != f"scores/imported/{source_id}.yaml":
            yield problem_at(
                doc,
                ("source",),
                "source",
                f"source '{source_id}' does not match the file name",
                f"an importer writes scores/imported/{source_id}.yaml",
                key=False,
            )
    for doc in index.repo.models:
        for key in ("pricing", "manual_iq"):
            entry = doc.data.get(key)
            source_id = entry.get("source") if isinstance(entry, dict) else None
            yield from unknown_id(
                doc, (key, "source"), "source", source_id, index.sources, SOURCE_HINT, suggest=suggest
            )


@check
def named_files_and_lists_known(index: Index) -> Iterator[Problem]:
    """The ids a file's path or a reviewed list names: a per-question file's benchmark and model
    (scores/raw/<benchmark>/<org>/<model>.jsonl; unknown, it would be read by nothing) and the sources of
    scores/imported/ignore.yaml."""
    for raw in index.repo.raw:
        if raw.benchmark not in index.benchmarks:
            yield Problem(
                raw.path,
                0,
                0,
                "",
                f"unknown benchmark '{raw.benchmark}' in the path",
                suggest_id(
                    raw.benchmark,
                    index.benchmarks,
                    "per-question files live at "
                    "scores/raw/<benchmark>/<org>/<model>.jsonl, benchmark ids as in methodology/benchmarks.yaml",
                ),
            )
        if raw.model not in index.models:
            yield Problem(
                raw.path,
                0,
                0,
                "",
                f"unknown model '{raw.model}' in the path",
                suggest_id(raw.model, index.models, "name the file after a model file under scores/models/"),
            )
    doc = index.repo.ignore
    if doc is None:
        return
    for i, entry in enumerate(list_of(doc.data, "ignore")):
        source = entry.get("source") if isinstance(entry, dict) else None
        yield from unknown_id(doc, ("ignore", i, "source"), "source", source, index.sources, SOURCE_HINT)


MAX_SUGGESTIONS = 50


def _suggester(limit: int = MAX_SUGGESTIONS) -> Callable[[str, Collection[str], str], str]:
    """suggest_id with a memo and a budget: past `limit` different names the plain hint is given, so a file naming
    thousands of unknown ids is checked in linear time (difflib compares each name with every known id)."""
    memo: dict[tuple[str, str], str] = {}

    def suggest(name: str, known: Collection[str], fallback: str) -> str:
        key = (name, fallback)
        if key not in memo:
            memo[key] = suggest_id(name, known, fallback) if len(memo) < limit else fallback
        return memo[key]

    return suggest


@check
def metric_and_subset_declared(index: Index) -> Iterator[Problem]:
    for doc, path, result, *_ in index.results():
        entry = index.benchmark(result.get("benchmark"))
        if entry is None:
            continue
        metric = result.get("metric")
        metrics: list[Any] = [m.get("id") for m in entry.get("metrics", []) if isinstance(m, dict)]
        if isinstance(metric, str) and metric not in metrics:
            hint = metric_hint(entry["id"], metrics)
            yield problem_at(
                doc, path + ("metric",), field_path(path + ("metric",)), f"unknown metric '{metric}'", hint, key=False
            )
        subset = result.get("subset")
        subsets = entry.get("subsets", [])
        if isinstance(subset, str) and subset not in subsets:
            hint = subset_hint(entry["id"], subsets)
            yield problem_at(
                doc, path + ("subset",), field_path(path + ("subset",)), f"unknown subset '{subset}'", hint, key=False
            )


def scale_of(entry: dict[str, Any], metric: object) -> dict[str, Any]:
    for m in entry.get("metrics", []):
        if isinstance(m, dict) and m.get("id") == metric:
            return m.get("scale", {})
    return entry.get("scale", {})


def _valued(index: Index) -> Iterator[tuple[Doc, JsonPath, dict[str, Any]]]:
    """Every result and every override value: (doc, json path, entry). Overrides pass the same value checks."""
    for doc, path, result, *_ in index.results():
        yield doc, path, result
    if index.repo.overrides is not None:
        for i, entry in enumerate(list_of(index.repo.overrides.data, "overrides")):
            if isinstance(entry, dict):
                yield index.repo.overrides, ("overrides", i), entry


@check
def values_within_scale(index: Index) -> Iterator[Problem]:
    for doc, path, result in _valued(index):
        entry = index.benchmark(result.get("benchmark"))
        value = result.get("value")
        if entry is None or not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        scale = scale_of(entry, result.get("metric"))
        low, high = scale.get("min"), scale.get("max")
        field = field_path(path + ("value",))
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{low if low is not None else '-∞'}–{high if high is not None else '∞'}"
            hint = f"{entry['id']} is on {span} {scale.get('unit', '')}".strip()
            if scale.get("unit") == "percent" and high == 100 and 100 < value <= 10000 and value / 100 <= 1:
                hint += "; is it on another scale?"
            yield problem_at(
                doc, path + ("value",), field, f"{value} is outside the benchmark's scale", hint, key=False
            )
        elif scale.get("unit") == "percent" and 0 < value < min(1, plausible_min(entry)):
            yield problem_at(
                doc,
                path + ("value",),
                field,
                f"{value} looks like a fraction",
                f"percent benchmarks are on 0–100: write {round(value * 100, 4):g}?; if scores below 1% are "
                f"real on {entry['id']}, declare plausible: {{min: 0, reason: ...}} in methodology/benchmarks.yaml",
                WARNING,
                key=False,
            )


def plausible_min(entry: dict[str, Any]) -> float:
    """The lowest value a real result plausibly takes on a percent benchmark: its reviewed `plausible.min`, else 1
    (below that a value looks like a fraction written on a 0–100 scale)."""
    plausible = entry.get("plausible")
    low = plausible.get("min") if isinstance(plausible, dict) else None
    return low if isinstance(low, (int, float)) and not isinstance(low, bool) else 1


@check
def scales_in_order(index: Index) -> Iterator[Problem]:
    for entry, doc, path in index.benchmarks.values():
        scales = [(path + ("scale",), entry.get("scale"))]
        scales += [
            (path + ("metrics", i, "scale"), m.get("scale"))
            for i, m in enumerate(list_of(entry, "metrics"))
            if isinstance(m, dict)
        ]
        for where, scale in scales:
            low, high = (scale.get("min"), scale.get("max")) if isinstance(scale, dict) else (None, None)
            if isinstance(low, (int, float)) and isinstance(high, (int, float)) and not low < high:
                yield problem_at(
                    doc,
                    where + ("max",),
                    field_path(where + ("max",)),
                    f"scale max {high:g} is not above min {low:g}",
                    "write the scale's lowest and highest possible values",
                    key=False,
                )


@check
def intervals_in_order(index: Index) -> Iterator[Problem]:
    yield from _each_file(model_intervals_in_order, index.repo.models)
    yield from _each_file(imported_intervals_in_order, index.repo.imported)


@file_rule("model")
def model_intervals_in_order(doc: Doc, limit: datetime.date) -> Iterator[Problem]:
    return _intervals_in_order(_model_results(doc))


@file_rule("imported")
def imported_intervals_in_order(doc: Doc, limit: datetime.date) -> Iterator[Problem]:
    return _intervals_in_order(_imported_results(doc))


def _intervals_in_order(results: Iterable[ResultRow]) -> Iterator[Problem]:
    for doc, path, result, *_ in results:
        ci95 = result.get("ci95")
        if (
            isinstance(ci95, list)
            and len(ci95) == 2
            and all(isinstance(v, (int, float)) for v in ci95)
            and ci95[0] > ci95[1]
        ):
            yield problem_at(
                doc,
                path + ("ci95",),
                field_path(path + ("ci95",)),
                f"interval [{ci95[0]:g}, {ci95[1]:g}] is reversed",
                "write [low, high]",
                key=False,
            )


@check
def dates_real_and_past(index: Index) -> Iterator[Problem]:
    return _each_file(dates_in_file, index.repo.all_docs())


@file_rule()
def dates_in_file(doc: Doc, limit: datetime.date) -> Iterator[Problem]:
    return _dates_in(doc, doc.data, (), limit)


_DATE_FIELDS = {"retrieved", "as_of", "released", "date-released"}
DATE_FLOOR = datetime.date(2000, 1, 1)  # no model, benchmark or retrieval in this project is older


def _dates_in(doc: Doc, data: Any, path: JsonPath, limit: datetime.date) -> Iterator[Problem]:
    if isinstance(data, dict):
        for key, value in data.items():
            if key in _DATE_FIELDS and isinstance(value, str):
                problem = _date_problem(value, key == "released")
                parsed = _parsed_date(value) if problem is None else None
                if parsed is not None:
                    if parsed > limit:
                        problem = (f"{value} is in the future", "a date must be on or before today")
                    elif parsed < DATE_FLOOR:
                        problem = (f"{value} is before {DATE_FLOOR.isoformat()}", "check the year")
                if problem:
                    yield problem_at(doc, path + (key,), field_path(path + (key,)), problem[0], problem[1], key=False)
            else:
                yield from _dates_in(doc, value, path + (key,), limit)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _dates_in(doc, value, path + (i,), limit)


def _parsed_date(value: str) -> datetime.date | None:
    """A date or a month's first day; None for a form the schema reports (e.g. "2025-13"), so one bad value does not
    stop the rule before the files after it."""
    try:
        return datetime.date.fromisoformat(value if len(value) == 10 else value + "-01")
    except ValueError:
        return None


def _date_problem(value: str, month_allowed: bool) -> tuple[str, str] | None:
    text = value + "-01" if month_allowed and len(value) == 7 else value
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        if len(text) == 10 and text[4] == "-" and text[7] == "-":
            return f"{value} is not a real date", "check the day and month"
        return None  # the schema reports the form
    return None


@check
def results_not_repeated(index: Index) -> Iterator[Problem]:
    seen: dict[tuple[Any, ...], tuple[Doc, tuple[str | int, ...]]] = {}  # the first's line is looked up when repeated
    for doc, path, result, model_id, source_id, retrieved in index.results():
        key = (
            model_id,
            result.get("benchmark"),
            source_id,
            retrieved,
            result.get("metric", ""),
            result.get("subset", ""),
            result.get("harness", ""),
        )
        if key in seen:
            first_doc, first_path = seen[key]
            yield problem_at(
                doc,
                path,
                field_path(path),
                "the same result is given twice",
                f"first at {first_doc.path}:{first_doc.mark(*first_path)[0]} "
                "(same model, benchmark, source, date, metric, subset and harness)",
            )
        else:
            seen[key] = (doc, path)


def fold_alias(name: str) -> str:
    """How aliases are compared: case, width and spacing do not make two names different."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@check
def aliases_map_to_one_model(index: Index) -> Iterator[Problem]:
    owner: dict[str, tuple[Any, ...]] = {}
    for doc in index.repo.models:
        model_id = doc.data.get("id")
        names = [(("id",), model_id)] + [(("aliases", i), a) for i, a in enumerate(list_of(doc.data, "aliases"))]
        for path, name in names:
            if not isinstance(name, str):
                continue
            folded = fold_alias(name)
            if folded in owner and owner[folded][0] != model_id:
                other = owner[folded]
                yield problem_at(
                    doc,
                    path,
                    field_path(path),
                    f"'{name}' already names {other[0]}",
                    f"see {other[1]}; an alias must map to one model",
                    key=False,
                )
            else:
                owner.setdefault(folded, (model_id, doc.path))


def distinct_pairs(repo: Repo) -> set[frozenset[str]]:
    """The reviewed pairs of look-alike models that are different models (scores/identity.yaml)."""
    data = repo.identity.data if repo.identity is not None and isinstance(repo.identity.data, dict) else {}
    return {
        frozenset(e["models"])
        for e in list_of(data, "distinct")
        if isinstance(e, dict) and isinstance(e.get("models"), list) and len(e["models"]) == 2
    }


def _effort_key(effort: object) -> object:
    return tuple(sorted(effort.items())) if isinstance(effort, dict) else effort


@check
def release_and_effort_agree(index: Index) -> Iterator[Problem]:
    """A release belongs to the model's organisation; effort agrees with reasoning; former ids stay retired."""
    for doc in index.repo.models:
        data, model_id = doc.data, doc.data.get("id")
        release, effort = data.get("release"), data.get("effort")
        if (
            isinstance(release, str)
            and doc.path == f"scores/models/{model_id}.yaml"
            and release.split("/")[0] != model_id.split("/")[0]
        ):
            yield problem_at(
                doc,
                ("release",),
                "release",
                f"release {release} is not in organisation '{model_id.split('/')[0]}' of {model_id}",
                "a configuration belongs to its own lab's release",
                key=False,
            )
        reasoning = data.get("reasoning")
        if effort is not None and isinstance(reasoning, bool) and reasoning != (effort != "none"):
            yield problem_at(
                doc,
                ("reasoning",),
                "reasoning",
                f"reasoning: {str(reasoning).lower()} contradicts effort {identity.effort_label(effort)}",
                "effort none means non-reasoning; any other effort means "
                "reasoning (or leave reasoning out: effort decides)",
                key=False,
            )
        for i, former in enumerate(list_of(data, "former_ids")):
            if former in index.models:
                yield problem_at(
                    doc,
                    ("former_ids", i),
                    f"former_ids[{i}]",
                    f"{former} is still a model file",
                    f"see {index.models[former].path}; a former id must not be reused",
                    key=False,
                )


@check
def source_aliases_known_and_unique(index: Index) -> Iterator[Problem]:
    """A scoped alias names a known source and, at that source, one model."""
    owner: dict[tuple[Any, str], tuple[Any, str]] = {}
    for doc in sorted(index.repo.models, key=lambda d: d.path):
        for i, entry in enumerate(list_of(doc.data, "source_aliases")):
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                continue
            source = entry.get("source")
            yield from unknown_id(doc, ("source_aliases", i, "source"), "source", source, index.sources, SOURCE_HINT)
            folded = (source, fold_alias(entry["name"]))
            if folded in owner and owner[folded][0] != doc.data.get("id"):
                yield problem_at(
                    doc,
                    ("source_aliases", i, "name"),
                    f"source_aliases[{i}].name",
                    f"'{entry['name']}' at {source} already names {owner[folded][0]}",
                    f"see {owner[folded][1]}; at one source a name maps to one model",
                    key=False,
                )
            owner.setdefault(folded, (doc.data.get("id"), doc.path))


@check
def identity_file_references(index: Index) -> Iterator[Problem]:
    """scores/identity.yaml names known sources, models and releases (the vendor and source defaults' rules)."""
    doc = index.repo.identity
    if doc is None or not isinstance(doc.data, dict):
        return
    for i, table in enumerate(list_of(doc.data, "naming")):
        source = table.get("source") if isinstance(table, dict) else None
        yield from unknown_id(doc, ("naming", i, "source"), "source", source, index.sources, SOURCE_HINT)
    for i, entry in enumerate(list_of(doc.data, "unresolved")):
        mid = entry.get("model") if isinstance(entry, dict) else None
        yield from unknown_id(
            doc, ("unresolved", i, "model"), "model", mid, index.models, "an unresolved entry names a model file"
        )
    releases = {str(d.data.get("release") or d.data.get("id")) for d in index.repo.models if isinstance(d.data, dict)}
    for path, rule in _defaults_rules(doc.data):
        source = rule.get("source") if isinstance(rule, dict) else None
        yield from unknown_id(doc, path + ("source",), "source", source, index.sources, SOURCE_HINT)
        for k, release in enumerate(list_of(rule, "releases")):
            hint = "a rule names the `release` of model files"
            yield from unknown_id(doc, path + ("releases", k), "release", release, releases, hint)
    for i, pair in enumerate(list_of(doc.data, "distinct")):
        for j, mid in enumerate(list_of(pair, "models")):
            hint = "a distinct pair names two model files"
            yield from unknown_id(doc, ("distinct", i, "models", j), "model", mid, index.models, hint)


def _defaults_rules(data: dict[str, Any]) -> list[tuple[tuple[str | int, ...], Any]]:
    """(json path, rule) of every vendor-defaults and source-defaults rule of scores/identity.yaml."""
    rules: list[tuple[tuple[str | int, ...], Any]] = [
        (("vendor_defaults", i, "rules", j), rule)
        for i, vendor in enumerate(list_of(data, "vendor_defaults"))
        for j, rule in enumerate(list_of(vendor, "rules"))
    ]
    return rules + [(("source_defaults", i), rule) for i, rule in enumerate(list_of(data, "source_defaults"))]


@check
def configurations_unique(index: Index) -> Iterator[Problem]:
    """Two files with one release and one stated effort are the same configuration, entered twice."""
    seen: dict[tuple[str, object], Doc] = {}
    distinct = distinct_pairs(index.repo)
    for doc in sorted(index.repo.models, key=lambda d: d.path):
        release, effort = doc.data.get("release"), doc.data.get("effort")
        if not isinstance(release, str) or effort is None:
            continue
        key = (release, _effort_key(effort))
        if key in seen and frozenset((seen[key].data.get("id"), doc.data.get("id"))) in distinct:
            continue
        if key in seen:
            yield problem_at(
                doc,
                ("effort",),
                "effort",
                f"{release} at effort {identity.effort_label(effort)} is already {seen[key].data.get('id')}",
                f"see {seen[key].path}; merge the two files (the merged id goes "
                "under former_ids) or correct the release or effort",
                key=False,
            )
        else:
            seen[key] = doc


@check
def ids_not_mistyped(index: Index) -> Iterator[Problem]:
    """Two model ids within edit distance 2 of each other with one display name are one model entered twice, one
    id mistyped ('acme/widget-7b-instrcut' beside 'acme/widget-7b-instruct'); `sitegen aliases audit` reports the
    same pairs (data/lookalike.py). Only files that share a display name are compared."""
    models = {mid: doc.data for mid, doc in index.models.items() if isinstance(doc.data, dict)}
    for a, b in lookalike.typo_pairs(models, distinct_pairs(index.repo)):
        first, second = sorted((index.models[a], index.models[b]), key=lambda d: d.path)
        yield problem_at(
            second,
            ("id",),
            "id",
            f"{second.data['id']} is within two edits of {first.data['id']}, which has "
            f"the same name '{second.data.get('name')}'",
            f"see {first.path}; if one id is mistyped, merge it "
            "with `sitegen aliases merge OLD --into NEW`; if they are different models, give them different "
            "names or list the pair under distinct: in scores/identity.yaml with the reason",
            key=False,
        )


_CONFUSABLE_SCRIPTS = {"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE"}


def _scripts(word: str) -> set[str]:
    out = set()
    for ch in word:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            out.add(name.split(" ")[0] if name else "UNKNOWN")
    return out


@check
def names_not_mixed_script(index: Index) -> Iterator[Problem]:
    """Homoglyphs: a word mixing Latin with Cyrillic or Greek letters is almost always a spoof."""
    return _each_file(names_in_one_script, index.repo.models)


@file_rule("model")
def names_in_one_script(doc: Doc, limit: datetime.date) -> Iterator[Problem]:
    for key in ("name", "organization"):
        value = doc.data.get(key)
        if not isinstance(value, str):
            continue
        odd = [ch for ch in value if unicodedata.category(ch)[0] == "L" and unicodedata.normalize("NFKC", ch) != ch]
        if odd:  # fullwidth, mathematical or ligature letters that NFKC folds to plain ones (not ¹ footnotes)
            plain = "".join(unicodedata.normalize("NFKC", ch) if ch in odd else ch for ch in value)
            yield problem_at(
                doc,
                (key,),
                key,
                f"'{value}' has look-alike letters ({describe_char(odd[0])})",
                f"write it as '{plain}'",
                key=False,
            )
        for word in value.split():
            scripts = _scripts(word)
            if "LATIN" in scripts and scripts & _CONFUSABLE_SCRIPTS:
                yield problem_at(
                    doc,
                    (key,),
                    key,
                    f"'{word}' mixes Latin with {', '.join(sorted(scripts & _CONFUSABLE_SCRIPTS)).title()} letters",
                    "look-alike letters from another script; type the name in one script",
                    key=False,
                )


@check
def overrides_match_something(index: Index) -> Iterator[Problem]:
    """Each entry of scores/overrides.yaml names a known model, benchmark and source ('did you mean' for a typo) and
    matches an imported result; when it does not, the hint says what the imported files have for that model and
    benchmark."""
    doc = index.repo.overrides
    if doc is None:
        return
    keys, near = set(), defaultdict(set)
    for idoc in index.repo.imported:
        source_id = idoc.data.get("source")
        for result in list_of(idoc.data, "results"):
            if isinstance(result, dict):
                key = (
                    result.get("model"),
                    result.get("benchmark"),
                    source_id,
                    result.get("metric", ""),
                    result.get("subset", ""),
                    result.get("harness", ""),
                )
                keys.add(key)
                near[key[:2]].add(key[2:])
    known: dict[str, tuple[Collection[str], str]] = {
        "model": (index.models, MODEL_HINT),
        "benchmark": (index.benchmarks, BENCHMARK_HINT),
        "source": (index.sources, SOURCE_HINT),
        "disagrees_with": (index.sources, SOURCE_HINT),
    }
    for i, entry in enumerate(list_of(doc.data, "overrides")):
        if not isinstance(entry, dict):
            continue
        unknown = [
            problem
            for name, (ids, fallback) in known.items()
            for problem in unknown_id(
                doc,
                ("overrides", i, name),
                "source" if name == "disagrees_with" else name,
                entry.get(name),
                ids,
                fallback,
            )
        ]
        yield from unknown
        key = (
            entry.get("model"),
            entry.get("benchmark"),
            entry.get("source"),
            entry.get("metric", ""),
            entry.get("subset", ""),
            entry.get("harness", ""),
        )
        if not unknown and key not in keys:
            yield problem_at(
                doc,
                ("overrides", i),
                f"overrides[{i}]",
                "matches no imported result",
                _near_hint(key, near.get(key[:2], set())),
            )


def _near_hint(key: tuple[Any, ...], found: set[tuple[Any, ...]]) -> str:
    """What scores/imported/ has for an override's model and benchmark, so a wrong source, metric, subset or
    harness shows."""
    if not found:
        return f"scores/imported/ has no {key[1]} result for {key[0]}"
    shown = sorted(
        " ".join(f"{k}: {v}" for k, v in zip(("source", "metric", "subset", "harness"), f) if v) for f in found
    )
    more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
    return f"scores/imported/ has {key[0]} {key[1]} from: {'; '.join(shown[:3])}{more}"


def _tolerance(index: Index) -> dict[str, Any]:
    if index.repo.benchmarks is None:
        return {}
    return index.repo.benchmarks.data.get("checks", {}).get("disagreement_tolerance", {})


def _value_groups(index: Index) -> dict[tuple[Any, ...], list[tuple[Any, ...]]]:
    """(model, benchmark, metric, subset, harness) -> [(value, source id, doc, path)] of every numeric result (made
    once for the rules that read it; none of them changes it)."""
    return index.shared("value_groups", lambda: _make_value_groups(index))


def _make_value_groups(index: Index) -> dict[tuple[Any, ...], list[tuple[Any, ...]]]:
    groups = defaultdict(list)
    for doc, path, result, model_id, source_id, _ in index.results():
        value = result.get("value")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            groups[
                (
                    model_id,
                    result.get("benchmark"),
                    result.get("metric", ""),
                    result.get("subset", ""),
                    result.get("harness", ""),
                )
            ].append((value, source_id, doc, path))
    return groups


@check
def sources_disagree(index: Index) -> Iterator[Problem]:
    """Two sources giving the same model and benchmark values further apart than the tolerance: a likely mistake."""
    tolerance = _tolerance(index)
    if not tolerance:
        return
    groups = _value_groups(index)
    reviewed = reviewed_disagreements(index)
    for key, rows in sorted(groups.items(), key=lambda kv: tuple(str(k) for k in kv[0])):
        entry = index.benchmark(key[1])
        if entry is None or len({r[1] for r in rows}) < 2:
            continue
        limit = tolerance.get(scale_of(entry, key[2] or None).get("unit", ""))
        if limit is None:
            continue
        # Snapshots of one publisher differ by re-runs, as expected; only different publishers are compared.
        # Each publisher's lowest and highest value suffice: linear in the rows, however many there are.
        spans: dict[str, list] = {}
        for row in rows:
            span = spans.setdefault(publisher(index, row[1]), [row, row])
            span[0] = min(span[0], row, key=lambda r: (r[0], r[1]))
            span[1] = max(span[1], row, key=lambda r: (r[0], r[1]))
        if len(spans) < 2:
            continue
        best = None
        for name, (_, high) in spans.items():
            for other, (low, _) in spans.items():
                if other != name and (
                    best is None or (high[0] - low[0], high[1], low[1]) > (best[0], best[1][1], best[2][1])
                ):
                    best = (high[0] - low[0], high, low)
        assert best is not None  # two publishers at least: one pair was compared
        gap, high, low = best
        if gap > limit and (key, frozenset((publisher(index, high[1]), publisher(index, low[1])))) not in reviewed:
            doc, path = high[2], high[3]
            yield problem_at(
                doc,
                path + ("value",),
                field_path(path + ("value",)),
                f"{key[0]} {key[1]}: {high[1]} gives {high[0]:g}, {low[1]} gives {low[0]:g}",
                _disagreement_hint(limit, high, low),
                WARNING,
                key=False,
            )


@check
def metadata_rules_match_models(index: Index) -> Iterator[Problem]:
    """Every rule in scores/metadata.yaml sets a field and matches at least one model: a renamed or merged id
    leaves no stale rule."""
    from . import metadata

    doc = index.repo.metadata
    if doc is None:
        return
    by_org: dict[str, list[str]] = defaultdict(list)
    for model_id in sorted(index.models):
        by_org[model_id.partition("/")[0]].append(model_id)
    every = sorted(index.models)
    known = set(every)
    for i, entry in enumerate(list_of(doc.data, "rules")):
        if not isinstance(entry, dict):
            continue
        if not any(key in entry for key in metadata.FIELDS):
            yield problem_at(
                doc,
                ("rules", i),
                f"rules[{i}]",
                "sets no metadata field",
                f"give at least one of {', '.join(metadata.FIELDS)}, or remove the rule",
            )
        for j, pattern in enumerate(list_of(entry, "match")):
            if not isinstance(pattern, str):
                continue
            org = metadata.literal_org(pattern)  # a pattern confined to one organisation is tried on its ids
            ids = every if org is None else by_org.get(org, [])
            literal = metadata.is_literal(pattern)  # an id: the closest model id may be the one meant
            if not (pattern in known if literal else any(fnmatch.fnmatchcase(m, pattern) for m in ids)):
                fallback = "the model was renamed or merged, or the pattern has a typo; update or remove it"
                yield problem_at(
                    doc,
                    ("rules", i, "match", j),
                    f"rules[{i}].match[{j}]",
                    f"'{pattern}' matches no model",
                    suggest_id(pattern, every, fallback) if literal else fallback,
                    key=False,
                )


@check
def metadata_rules_agree(index: Index) -> Iterator[Problem]:
    """Two rules of one level that give one model different values for a field: the reader could not tell which."""
    from . import metadata

    doc = index.repo.metadata
    if doc is None:
        return
    rules = _metadata_rules(index)
    reported = set()
    for model_id in sorted(index.models):
        matched = metadata.matching(rules, model_id)
        for level in metadata.LEVELS:
            seen: dict[str, tuple] = {}
            for rule in matched:
                if rule.level != level:
                    continue
                for key, value in rule.values.items():
                    first = seen.setdefault(key, (value, rule))
                    if first[0] != value and (first[1].index, rule.index, key) not in reported:
                        reported.add((first[1].index, rule.index, key))
                        yield problem_at(
                            doc,
                            ("rules", rule.index, key),
                            f"rules[{rule.index}].{key}",
                            f"{model_id}: this {level} rule says {value!r}, the rule at line {first[1].line} says {first[0]!r}",
                            "narrow one rule's match, or move the exception to a more specific level",
                        )


def _metadata_rules(index: Index) -> metadata.RuleSet:
    """metadata.rules_of(scores/metadata.yaml), made once for the rules that read it."""
    from . import metadata

    return index.shared("metadata_rules", lambda: metadata.rules_of(index.repo.metadata))


def _said_by_sources(index: Index) -> dict[str, dict[str, list[tuple[Any, ...]]]]:
    """model id -> field -> [(value, source id, doc, entry index)] of every imported file, in source-id order."""
    from . import metadata

    said: dict[str, dict[str, list[tuple[Any, ...]]]] = {}
    for doc in sorted(index.repo.imported, key=lambda d: str(d.data.get("source"))):
        for i, entry in enumerate(list_of(doc.data, "models")):
            if isinstance(entry, dict) and isinstance(entry.get("model"), str):
                for key in metadata.FIELDS:
                    if entry.get(key) is not None:
                        said.setdefault(entry["model"], {}).setdefault(key, []).append(
                            (entry[key], doc.data.get("source"), doc, i)
                        )
    return said


def _settled(index: Index, rules: metadata.RuleSet, model_id: str) -> set[str]:
    """The fields a reviewer has settled for a model: set in its model file or by a reviewed rule."""
    from . import metadata

    model = index.models.get(model_id)
    own = {key for key in metadata.FIELDS if model is not None and model.data.get(key) is not None}
    return own | set(metadata.reviewed_values(rules, model_id))


REVIEW_HINT = (
    "record the reviewed choice as a rule in scores/metadata.yaml (match: [{model}], level: release, "
    "{key}: ..., source, url, reviewed: <why, with the evidence>)"
)


@check
def metadata_rules_agree_with_sources(index: Index) -> Iterator[Problem]:
    """A rule that a source contradicts for a model it matches: an error until a reviewer records the choice (a
    reviewed rule, or the model file's own value), since either the rule's pattern is too wide or the source is
    wrong, and a scraped value must not silently beat a vendor-stated one."""
    from . import metadata

    doc = index.repo.metadata
    rules = _metadata_rules(index)
    if doc is None or not rules:
        return
    said = _said_by_sources(index)
    for model_id in sorted(index.models):
        settled = None
        for key, (value, rule) in metadata.rule_values(rules, model_id).items():
            if key in metadata.NOT_COMPARED or rule.reviewed:
                continue  # licence spellings and release days differ between sources (see metadata.NOT_COMPARED)
            if value == metadata.NOT_STATED:
                continue  # 'not stated' says the vendor is silent: a source that states the mode fills it
            other = next((s for s in said.get(model_id, {}).get(key, []) if s[0] != value), None)
            if other is None:
                continue
            settled = _settled(index, rules, model_id) if settled is None else settled
            if key in settled:
                continue
            yield problem_at(
                doc,
                ("rules", rule.index, key),
                f"rules[{rule.index}].{key}",
                f"{model_id}: this rule says {value!r}, {other[1]} says {other[0]!r}",
                REVIEW_HINT.format(model=model_id, key=key) + ", or narrow this rule's match",
            )


@check
def metadata_sources_agree(index: Index) -> Iterator[Problem]:
    """Two sources giving one model different weights, reasoning, parameters, context window or licence: an error
    until the model file or a reviewed rule in scores/metadata.yaml settles the field (the reader would otherwise
    see whichever source sorts first)."""

    rules = _metadata_rules(index)
    for model_id, fields in sorted(_said_by_sources(index).items()):
        settled = None
        for key, rows in fields.items():
            if key == "released":
                continue  # sources date a release days apart; configurations of a release are compared instead
            first = rows[0]
            for value, source, doc, i in rows[1:]:
                if value == first[0]:
                    continue
                settled = _settled(index, rules, model_id) if settled is None else settled
                if key in settled:
                    break
                yield problem_at(
                    doc,
                    ("models", i, key),
                    f"models[{i}].{key}",
                    f"{model_id}: {source} says {value!r}, {first[1]} says {first[0]!r}",
                    REVIEW_HINT.format(model=model_id, key=key),
                    key=False,
                )


def _disagreement_hint(limit: float, high: tuple[Any, ...], low: tuple[Any, ...]) -> str:
    """What to do about two sources far apart; rows are (value, source, doc, path). A reviewed entry is keyed by an
    imported result, so it is offered only when one of the two is imported."""
    hint = f"sources differ by more than {limit:g}; check both"
    imported = next(((row, other) for row, other in ((high, low), (low, high)) if row[2].kind == "imported"), None)
    if imported is None:
        return hint
    (_, source, _, _), (_, other, _, _) = imported
    return (
        f"{hint}; if both stand, add a reviewed entry to scores/overrides.yaml (model, benchmark, source: {source}, "
        f"disagrees_with: {other}, reason)"
    )


@check
def reviewed_disagreements_exist(index: Index) -> Iterator[Problem]:
    """A `disagrees_with` entry in scores/overrides.yaml whose disagreement is gone (a source corrected its value,
    the other no longer gives one, or they are now within the tolerance): stale, so that a reviewed exception
    cannot silence a later, different disagreement of the same pair."""
    doc, tolerance = index.repo.overrides, _tolerance(index)
    entries = [
        (i, e)
        for i, e in enumerate(list_of(doc.data, "overrides") if doc is not None else [])
        if isinstance(e, dict) and isinstance(e.get("disagrees_with"), str)
    ]
    if doc is None or not entries or not tolerance:
        return
    groups = _value_groups(index)
    for i, entry in entries:
        key = (
            entry.get("model"),
            entry.get("benchmark"),
            entry.get("metric", ""),
            entry.get("subset", ""),
            entry.get("harness", ""),
        )
        bench = index.benchmark(key[1])
        if bench is None or entry.get("source") not in index.sources or entry["disagrees_with"] not in index.sources:
            continue  # an unknown id is reported by the id checks
        limit = tolerance.get(scale_of(bench, key[2] or None).get("unit", ""))
        if limit is None:
            continue
        mine, theirs = publisher(index, entry.get("source")), publisher(index, entry["disagrees_with"])
        values = {
            side: [r[0] for r in groups.get(key, []) if publisher(index, r[1]) == side] for side in (mine, theirs)
        }
        gone = _how_gone(values, mine, theirs, limit)
        if gone is None:
            continue
        yield problem_at(
            doc,
            ("overrides", i, "disagrees_with"),
            f"overrides[{i}].disagrees_with",
            f"{key[0]} {key[1]}: the reviewed disagreement with {entry['disagrees_with']} is gone ({gone})",
            "remove this entry",
            WARNING,
            key=False,
        )


def _how_gone(values: dict[str, list[float]], mine: str, theirs: str, limit: float) -> str | None:
    """How a reviewed disagreement between two publishers' values went away; None while it stands."""
    missing = [side for side in (mine, theirs) if not values[side]]
    if missing:
        return f"{missing[0]} gives no value for it now"
    gap = max(max(values[mine]) - min(values[theirs]), max(values[theirs]) - min(values[mine]))
    if gap > limit:
        return None
    return f"{mine} and {theirs} are {gap:g} apart now, within the tolerance of {limit:g}"


def reviewed_disagreements(index: Index) -> set[tuple[Any, ...]]:
    """The disagreements a reviewer has checked (scores/overrides.yaml entries with `disagrees_with`): both sources'
    values are kept. Keyed by (model, benchmark, metric, subset, harness) and the pair of publishers, since the
    check compares publishers."""
    doc = index.repo.overrides
    out = set()
    for entry in list_of(doc.data, "overrides") if doc is not None else []:
        if isinstance(entry, dict) and isinstance(entry.get("disagrees_with"), str):
            key = (
                entry.get("model"),
                entry.get("benchmark"),
                entry.get("metric", ""),
                entry.get("subset", ""),
                entry.get("harness", ""),
            )
            out.add(
                (key, frozenset((publisher(index, entry.get("source")), publisher(index, entry["disagrees_with"]))))
            )
    return out


def publisher(index: Index, source_id: Any) -> str:
    """Who publishes a source: its `publisher`, else the source itself."""
    found = index.sources.get(source_id)
    return (found[0] if found else {}).get("publisher") or str(source_id)


def run_checks(repo: Repo) -> list[Problem]:
    index = Index(repo)
    found: list[Problem] = []
    for fn in CHECKS:
        try:
            found.extend(fn(index))
        except RULE_ERRORS:
            # A file with schema errors can break a rule's assumptions; its errors are already reported.
            continue
    made = index._shared.get("model_records")
    if made is not None and made[1] is None:  # frame.model_records(repo), for the build: no rule changes them
        repo.made["model_records"] = made[0][0]
    return found


# ---------------------------------------------------------------- contributor warnings (likely slips)


@check
def organization_named_one_way(index: Index) -> Iterator[Problem]:
    """Models in one organisation folder (scores/models/<org>/) that spell the organisation differently, e.g.
    '01 AI' beside '01.AI': the site would show two developers. Warned at each model not using the usual name.
    Where scores/metadata.yaml has an organisations table, `organizations_in_table` checks the names instead."""
    if index.repo.metadata is not None and list_of(index.repo.metadata.data, "organizations"):
        return
    folders = defaultdict(list)
    for doc in index.repo.models:
        org = doc.data.get("organization")
        parts = doc.path.split("/")
        if isinstance(org, str) and len(parts) == 4:
            folders[parts[2]].append((org, doc))
    for folder, entries in sorted(folders.items()):
        for org, doc, usual, counts in _odd_ones(entries):
            yield problem_at(
                doc,
                ("organization",),
                "organization",
                f"'{org}' differs from '{usual}', the name {counts[usual]} other model"
                f"{'s' if counts[usual] != 1 else ''} in scores/models/{folder}/ use",
                f"write organization: {usual} (one organisation, one spelling)",
                WARNING,
                key=False,
            )


@check
def release_facts_agree(index: Index) -> Iterator[Problem]:
    """The configurations of one release that state its weights, parameters, licence or release date disagree (a
    month and a day in it agree): a warning at each configuration's file, since the release's value is then not
    known and is not given to its other configurations. A reviewed rule in scores/metadata.yaml at release level
    settles it. List prices are not compared: sources price reasoning and non-reasoning configurations apart."""
    from . import metadata

    # frame.release_disagreements(repo), read from the records the rules share (and the build takes) unchanged
    for release, field, values in metadata.release_disagreements(_model_facts(index)[0]):
        said = ", ".join(f"{mid} {_shown(value)}" for mid, value in sorted(values.items()))
        for mid in sorted(values):
            doc = index.models.get(mid)
            if doc is not None:
                yield problem_at(
                    doc,
                    ("release",),
                    "release",
                    f"configurations of {release} disagree on {field}: {said}",
                    f"record the release's {field} as a reviewed rule in scores/metadata.yaml "
                    f"(match: [{release.split('/')[0]}/...], level: release, {field}: ..., reviewed: <why>)",
                    WARNING,
                    key=False,
                )
                break


def _model_facts(index: Index) -> tuple[list[dict[str, Any]], dict[Any, Any]]:
    """frame.model_records(repo), made once for the rules (and left on the repo for the build: run_checks), and
    each model's `released`."""
    from . import frame

    def make() -> tuple[list[dict[str, Any]], dict[Any, Any]]:
        records = frame.model_records(index.repo)
        return records, {r["model"]: r.get("released") for r in records}

    return index.shared("model_records", make)


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return "/".join("–" if v is None else f"{v:g}" for v in value)
    return str(value)


@check
def organizations_in_table(index: Index) -> Iterator[Problem]:
    """Organisation names come from one reviewed table (scores/metadata.yaml `organizations:`): every model's
    folder has an entry and its `organization` is that entry's name; an entry no model uses is stale. Without a
    table (a tree with no scores/metadata.yaml or no `organizations:`) nothing is checked."""
    doc = index.repo.metadata
    entries = list_of(doc.data, "organizations") if doc is not None else []
    if doc is None or not entries:
        return
    table: dict[str, tuple[int, dict]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            continue
        if entry["id"] in table:
            yield problem_at(
                doc,
                ("organizations", i, "id"),
                f"organizations[{i}].id",
                f"'{entry['id']}' is in the table twice",
                "keep one entry per organisation",
                key=False,
            )
            continue
        table[entry["id"]] = (i, entry)
    used = set()
    for model_doc in index.repo.models:
        model_id, org = model_doc.data.get("id"), model_doc.data.get("organization")
        if not isinstance(model_id, str) or not isinstance(org, str):
            continue
        folder = model_id.partition("/")[0]
        used.add(folder)
        if folder not in table:
            yield problem_at(
                model_doc,
                ("organization",),
                "organization",
                f"organisation '{folder}' ({org}) is not in the organisations table",
                f"add {{id: {folder}, name: {org}}} to organizations: in scores/metadata.yaml, or file the "
                "model under an organisation the table has",
                key=False,
            )
        elif org != table[folder][1].get("name"):
            yield problem_at(
                model_doc,
                ("organization",),
                "organization",
                f"'{org}' is not the organisations table's name for {folder}",
                f"write organization: {table[folder][1].get('name')}",
                key=False,
            )
    for folder, (i, _) in sorted(table.items()):
        if folder not in used:
            yield problem_at(
                doc,
                ("organizations", i, "id"),
                f"organizations[{i}].id",
                f"no model is filed under '{folder}'",
                "remove the entry, or fix the folder name",
                key=False,
            )


@check
def base_model_known(index: Index) -> Iterator[Problem]:
    """A fine-tune's `base_model.model` names a model on the site, and not the fine-tune itself."""
    for doc in index.repo.models:
        base = doc.data.get("base_model")
        target = base.get("model") if isinstance(base, dict) else None
        if not isinstance(target, str):
            continue
        if target == doc.data.get("id"):
            yield problem_at(
                doc,
                ("base_model", "model"),
                "base_model.model",
                "a model is not its own base model",
                "name the model it was trained from",
                key=False,
            )
        else:
            hint = "leave `model` out when the site has no page for the base"
            yield from unknown_id(doc, ("base_model", "model"), "model", target, index.models, hint)


@check
def one_result_per_source_snapshot(index: Index) -> Iterator[Problem]:
    """A second result for the same model, benchmark, metric, subset, harness and source with another retrieval
    date and another value: usually an update pasted beside the old number instead of replacing it."""
    groups = defaultdict(list)
    for doc, path, result, model_id, source_id, retrieved in index.results():
        value = result.get("value")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(retrieved, str):
            key = (
                model_id,
                result.get("benchmark"),
                result.get("metric", ""),
                result.get("subset", ""),
                result.get("harness", ""),
                source_id,
            )
            groups[key].append((retrieved, value, doc, path))
    for key, rows in groups.items():
        rows.sort(key=lambda r: (r[0], r[2].path, r[3]))
        for (date, value, _, _), (later, later_value, doc, path) in zip(rows, rows[1:]):
            if later != date and later_value != value:
                yield problem_at(
                    doc,
                    path + ("retrieved",),
                    field_path(path + ("retrieved",)),
                    f"a second {key[1]} result from {key[5]} for {key[0]}: {later_value:g} on {later}, "
                    f"{value:g} on {date}",
                    "replace the older result with the newer one, or give each a different metric, subset "
                    "or harness if they measure different things",
                    WARNING,
                    key=False,
                )


@check
def question_counts_name_known_sources(index: Index) -> Iterator[Problem]:
    """The question counts in methodology/benchmarks.yaml (the binomial intervals' n): each named source has one
    count per benchmark, at most one count applies to all other sources, and a named source that does not exist
    is warned about (its count would apply to nothing)."""
    for bid, (entry, doc, path) in sorted(index.benchmarks.items()):
        seen, general = set(), 0
        for i, q in enumerate(list_of(entry, "questions")):
            if not isinstance(q, dict):
                continue
            where = path + ("questions", i)
            if not q.get("sources"):
                general += 1
                if general > 1:
                    yield problem_at(
                        doc,
                        where,
                        field_path(where),
                        f"{bid} has a second question count for all sources",
                        "name the sources each count applies to",
                    )
                continue
            for j, source_id in enumerate(list_of(q, "sources")):
                if not isinstance(source_id, str):
                    continue
                at = where + ("sources", j)
                if source_id not in index.sources:  # a warning: the count then applies to nothing
                    yield from unknown_id(doc, at, "source", source_id, index.sources, SOURCE_HINT, WARNING)
                elif source_id in seen:
                    yield problem_at(
                        doc,
                        at,
                        field_path(at),
                        f"{bid} has two question counts for source '{source_id}'",
                        "keep one",
                        key=False,
                    )
                seen.add(source_id)


@check
def question_count_or_unknown(index: Index) -> Iterator[Problem]:
    """A benchmark either declares its question count (`questions`) or says why it cannot (`questions_unknown`),
    not both. (That every percent benchmark of the real registry does one of the two is a real-data test: fixture
    trees need neither, and a value without either says so in its interval's reason.)"""
    for bid, (entry, doc, path) in sorted(index.benchmarks.items()):
        if list_of(entry, "questions") and entry.get("questions_unknown"):
            where = path + ("questions_unknown",)
            yield problem_at(
                doc,
                where,
                field_path(where),
                f"{bid} declares a question count and says it is unknown",
                "keep the count if a source states it, else remove `questions`",
            )


from . import checks_methodology, checks_site, interchange_names  # noqa: E402,F401  (register their rules)

# ---------------------------------------------------------------- display names (CONTRIBUTING.md, "Name a model")

_EFFORT_WORDS = ("minimal", "low", "medium", "high", "xhigh", "max")
_MODE_WORDS = {"reasoning": "Reasoning", "non-reasoning": "Non-reasoning"}
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_FOOTNOTE_MARKS = "*†‡§¶⁰¹²³⁴⁵⁶⁷⁸⁹"
_MONTH_YEAR = re.compile(
    r"\b(" + "|".join(_MONTH_NAMES) + r"|" + "|".join(_MONTHS) + r")\.?(?:(?: '|' ?| )(\d{2})|,? (\d{4}))\b"
)
_NUMERIC_MONTH_YEAR = re.compile(r"(?<![\d./-])(0?[1-9]|1[0-2])(?:-(\d{4})|/(\d{4}|\d{2}))(?![\d/-])")  # 08-2024, 2/26
_GLUED_DATE = re.compile(r"[A-Za-z0-9]-(20\d\d)-?(\d\d)-?(\d\d)\b")
_CLAUDE_ORDER = re.compile(r"\bClaude ([4-9](?:\.\d+)?) (Opus|Sonnet|Haiku)\b")
_PRODUCT_TAIL = re.compile(r"(?:\s+on\s+\S+|\s+(?:Thinking|Reasoning))+$")


def _month_year(month: int, year: str) -> str:
    return f"{_MONTHS[month - 1]} '{year[-2:]}"


def name_style_problems(name: str) -> list[tuple[str, str]]:
    """How one display name breaks the naming style (CONTRIBUTING.md, "Name a model"): (message, hint) pairs."""
    return [problem for style in _NAME_STYLES for problem in style(name)]


def _footnote_marks(name: str) -> Iterator[tuple[str, str]]:
    marks = sorted({ch for ch in name if ch in _FOOTNOTE_MARKS})
    if marks:
        plain = " ".join("".join(ch for ch in name if ch not in _FOOTNOTE_MARKS).split())
        yield (
            f"'{name}' has a footnote mark ({''.join(marks)})",
            f"write '{plain}'; a note about the model goes in its notes, not its name",
        )


def _mode_text(name: str) -> Iterator[tuple[str, str]]:
    if "not stated" in name.casefold() or "mode unknown" in name.casefold():
        yield (
            f"'{name}' writes the reasoning mode into the name",
            "leave the mode out of the name: the site renders 'not stated' from reasoning and effort",
        )


def _configuration_case(name: str) -> Iterator[tuple[str, str]]:
    for group in re.findall(r"\(([^()]*)\)", name):
        for part in (p.strip() for p in group.split(",")):
            if part.casefold() in _EFFORT_WORDS and part != part.casefold():
                yield (
                    f"'{name}' spells the effort '{part}'",
                    f"write ({part.casefold()}): effort words are lower-case",
                )
            elif part.casefold() in _MODE_WORDS and part != _MODE_WORDS[part.casefold()]:
                yield (f"'{name}' spells the mode '{part}'", f"write ({_MODE_WORDS[part.casefold()]})")


def _month_dates(name: str) -> Iterator[tuple[str, str]]:
    for match in _MONTH_YEAR.finditer(name):
        month = next(i for i, m in enumerate(_MONTHS) if match.group(1).startswith(m)) + 1
        wanted = _month_year(month, match.group(2) or match.group(3))
        if match.group(0) != wanted:
            yield (f"'{name}' writes the date '{match.group(0)}'", f"write {wanted}: month dates are Mon 'YY")
    for match in _NUMERIC_MONTH_YEAR.finditer(name):
        yield (
            f"'{name}' writes the date '{match.group(0)}'",
            f"write {_month_year(int(match.group(1)), match.group(2) or match.group(3))}: month dates are Mon 'YY",
        )


def _api_ids(name: str) -> Iterator[tuple[str, str]]:
    for match in _GLUED_DATE.finditer(name):
        yield (
            f"'{name}' reads like an API id (a date joined to the name)",
            f"use the vendor's product name, the date as ({match.group(1)}-{match.group(2)}-{match.group(3)})",
        )


def _claude_order(name: str) -> Iterator[tuple[str, str]]:
    for match in _CLAUDE_ORDER.finditer(name):
        yield (
            f"'{name}' orders Anthropic's name the old way",
            f"write 'Claude {match.group(2)} {match.group(1)}': Anthropic's names from version 4 on",
        )


# The naming style's rules, in the order a name's problems are listed.
_NAME_STYLES: tuple[Callable[[str], Iterator[tuple[str, str]]], ...] = (
    _footnote_marks,
    _mode_text,
    _configuration_case,
    _month_dates,
    _api_ids,
    _claude_order,
)


def product_name(name: str) -> str:
    """A display name without its configuration: what every configuration of one release shares."""
    return _PRODUCT_TAIL.sub("", name.split(" (", 1)[0]).strip()


def _odd_ones(entries: Iterable[tuple[Any, Any]]) -> Iterator[tuple[Any, Any, Any, dict[Any, int]]]:
    """(value, item, usual, counts) for each entry whose value differs from the group's most common one (ties: the
    first in sort order), for a group of (value, item) entries with at least two different values."""
    counts: defaultdict[Any, int] = defaultdict(int)
    for value, _ in entries:
        counts[value] += 1
    if len(counts) < 2:
        return
    usual = min(counts, key=lambda v: (-counts[v], v))
    for value, item in entries:
        if value != usual:
            yield value, item, usual, counts


@check
def names_follow_style(index: Index) -> Iterator[Problem]:
    """One naming style (CONTRIBUTING.md, "Name a model"): lower-case efforts, Mon 'YY dates, no footnote marks,
    no mode text, no API ids; every configuration of a release spells the product one way; no two models share
    a name."""
    by_release, by_name = defaultdict(list), defaultdict(list)
    for doc in index.repo.models:
        name = doc.data.get("name")
        if not isinstance(name, str):
            continue
        for message, hint in name_style_problems(name):
            yield problem_at(doc, ("name",), "name", message, hint, key=False)
        if isinstance(doc.data.get("release"), str):
            by_release[doc.data["release"]].append((product_name(name), doc))
        by_name[fold_alias(name)].append(doc)
    for release, entries in sorted(by_release.items()):
        for product, doc, usual, counts in _odd_ones(entries):
            yield problem_at(
                doc,
                ("name",),
                "name",
                f"'{product}' differs from '{usual}', the product name of "
                f"{counts[usual]} other configuration{'s' if counts[usual] != 1 else ''} of {release}",
                "one release, one spelling: the vendor's (keep the old spelling as an alias if a source uses it)",
                key=False,
            )
    for _folded, docs in sorted(by_name.items()):
        for doc in docs[1:]:
            yield problem_at(
                doc,
                ("name",),
                "name",
                f"'{doc.data['name']}' is also the name of {docs[0].data.get('id')}",
                "two models need names a reader can tell apart (add who built it or what differs)",
                key=False,
            )


@check
def published_in_order(index: Index) -> Iterator[Problem]:
    """A result's publication date (`published`, or the one it takes from its source's recorded version or its
    capture: frame.published_of) is on or before its retrieval, and not before its model's release (a month-only
    release counts from its first day) unless the result says `pre_release: true` with a `published_url`; an
    imported result says so through a reviewed entry in scores/overrides.yaml (`pre_release`, `published_url`)."""
    from . import frame

    released = _model_facts(index)[1]
    versions = frame.source_versions(index.repo)
    flagged, excluded = _reviewed_results(index)
    for doc, path, result, model_id, source_id, retrieved in index.results():
        imported = doc.kind == "imported"
        if not isinstance(retrieved, str) or (
            imported and frame.override_key(model_id, result.get("benchmark"), source_id, result) in excluded
        ):
            continue
        published, _ = frame.published_of(result, retrieved, None if imported else versions.get(source_id))
        where = path + ("published",) if result.get("published") else path
        said = (
            ""
            if result.get("published") or imported or source_id not in versions
            else (f" (the date of {source_id}'s recorded version, scores/sources.yaml)")
        )
        if published > retrieved:
            yield problem_at(
                doc,
                where,
                field_path(where),
                f"published {published}{said} is after retrieved {retrieved}",
                "a number cannot be read from a source before it is public: check both dates",
                key=False,
            )
        release = released.get(model_id)
        if not isinstance(release, str) or not release:
            continue
        first_day = {4: release + "-01-01", 7: release + "-01"}.get(len(release), release[:10])
        if published >= first_day:
            continue
        if imported and frame.override_key(model_id, result.get("benchmark"), source_id, result) in flagged:
            continue
        if not imported and result.get("pre_release") and result.get("published_url"):
            continue
        hint = _PRE_RELEASE_HINTS[imported]
        yield problem_at(
            doc,
            where,
            field_path(where),
            f"published {published}{said} is before {model_id}'s release ({release})",
            hint,
            key=False,
        )


# What to do about a result published before its model's release: (a model file's, an imported file's).
_PRE_RELEASE_HINTS = (
    "write pre_release: true with published_url (the page that shows it) if it was, else correct the date",
    "if it really was public before the release, add a reviewed entry to scores/overrides.yaml "
    "(model, benchmark, source, pre_release: true, published_url, reason); else correct the model's "
    "release date or which model the source's name means",
)


def _reviewed_results(index: Index) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    """The override keys (frame.override_key) of scores/overrides.yaml's reviewed pre-release results, and of the
    results it excludes (no board shows them)."""
    from . import frame

    flagged, excluded = set(), set()
    doc = index.repo.overrides
    for entry in list_of(doc.data, "overrides") if doc is not None else []:
        if not isinstance(entry, dict):
            continue
        key = frame.override_key(entry.get("model"), entry.get("benchmark"), entry.get("source"), entry)
        if entry.get("pre_release") and entry.get("published_url"):
            flagged.add(key)
        if entry.get("exclude"):
            excluded.add(key)
    return flagged, excluded
