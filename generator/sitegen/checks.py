"""Cross-file rules: one small function each, registered in CHECKS, each yielding problems."""

from __future__ import annotations

import datetime
import unicodedata
from collections import defaultdict

from .problems import WARNING, Problem

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def today() -> datetime.date:
    """The date that 'not in the future' is measured against: the real UTC date.

    Not SOURCE_DATE_EPOCH: that pins what the output says, and a pinned past date would reject data
    retrieved since. Only whether a problem is reported depends on the clock, never the output.
    """
    return datetime.datetime.now(datetime.timezone.utc).date()


class Index:
    """Lookups shared by the checks, built once from the parsed files."""

    def __init__(self, repo):
        self.repo = repo
        self.benchmarks = {}
        if repo.benchmarks is not None:
            for i, entry in enumerate(_list(repo.benchmarks.data, "benchmarks")):
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    self.benchmarks[entry["id"]] = (entry, repo.benchmarks, ("benchmarks", i))
        self.sources = {}
        if repo.sources is not None:
            for i, entry in enumerate(_list(repo.sources.data, "sources")):
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    self.sources[entry["id"]] = (entry, repo.sources, ("sources", i))
        self.models = {}
        for doc in repo.models:
            model_id = doc.data.get("id")
            if isinstance(model_id, str):
                self.models.setdefault(model_id, doc)

    def results(self):
        """Every result everywhere: (doc, json path, result dict, model id, source id, retrieved)."""
        for doc in self.repo.models:
            model_id = doc.data.get("id")
            for i, result in enumerate(_list(doc.data, "results")):
                if isinstance(result, dict):
                    yield doc, ("results", i), result, model_id, result.get("source"), result.get("retrieved")
        for doc in self.repo.imported:
            for i, result in enumerate(_list(doc.data, "results")):
                if isinstance(result, dict):
                    yield (doc, ("results", i), result, result.get("model"), doc.data.get("source"),
                           result.get("retrieved", doc.data.get("retrieved")))


def _list(data, key) -> list:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def _at(doc, path, field, message, hint="", severity="error", key=True) -> Problem:
    line, col = doc.mark(*path) if key else doc.value_mark(*path)
    return Problem(doc.path, line, col, field, message, hint, severity)


def _field(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@check
def model_id_matches_path(index):
    for doc in index.repo.models:
        model_id = doc.data.get("id")
        expected = doc.path[len("scores/models/"): -len(".yaml")]
        if isinstance(model_id, str) and model_id != expected:
            yield _at(doc, ("id",), "id", f"id '{model_id}' does not match the file's path", f"write id: {expected}",
                      key=False)


@check
def ids_unique_ignoring_case(index):
    seen = {}
    for doc in index.repo.models:
        key = doc.path.casefold()
        if key in seen:
            yield Problem(doc.path, 0, 0, "id", f"collides with {seen[key]} when case is ignored",
                          "ids must differ by more than letter case (case-insensitive file systems merge them)")
        else:
            seen[key] = doc.path
    for doc, key in ((index.repo.benchmarks, "benchmarks"), (index.repo.sources, "sources")):
        if doc is None:
            continue
        seen_ids = {}
        for i, entry in enumerate(_list(doc.data, key)):
            item_id = entry.get("id") if isinstance(entry, dict) else None
            if not isinstance(item_id, str):
                continue
            folded = item_id.casefold()
            if folded in seen_ids:
                yield _at(doc, (key, i, "id"), f"{key}[{i}].id", f"'{item_id}' is defined twice",
                          f"first at line {seen_ids[folded]}", key=False)
            else:
                seen_ids[folded] = doc.value_mark(key, i, "id")[0]


@check
def known_references(index):
    for doc, path, result, model_id, source_id, _ in index.results():
        base = _field(path)
        benchmark = result.get("benchmark")
        if isinstance(benchmark, str) and benchmark not in index.benchmarks:
            yield _at(doc, path + ("benchmark",), f"{base}.benchmark", f"unknown benchmark '{benchmark}'",
                      _suggest(benchmark, index.benchmarks, "benchmark ids are listed in methodology/benchmarks.yaml"),
                      key=False)
        if isinstance(source_id, str) and source_id not in index.sources:
            where = path + ("source",) if "source" in result else ("source",)
            yield _at(doc, where, f"{base}.source" if "source" in result else "source", f"unknown source '{source_id}'",
                      _suggest(source_id, index.sources, "add it to scores/sources.yaml"), key=False)
        if doc.kind == "imported" and isinstance(model_id, str) and model_id not in index.models:
            yield _at(doc, path + ("model",), f"{base}.model", f"unknown model '{model_id}'",
                      _suggest(model_id, index.models, "add a model file under scores/models/"), key=False)
    for doc in index.repo.imported:
        source_id = doc.data.get("source")
        for i, entry in enumerate(_list(doc.data, "models")):
            model_id = entry.get("model") if isinstance(entry, dict) else None
            if isinstance(model_id, str) and model_id not in index.models:
                yield _at(doc, ("models", i, "model"), f"models[{i}].model", f"unknown model '{model_id}'",
                          _suggest(model_id, index.models, "add a model file under scores/models/"), key=False)
        if isinstance(source_id, str) and doc.path != f"scores/imported/{source_id}.yaml":
            yield _at(doc, ("source",), "source", f"source '{source_id}' does not match the file name",
                      f"an importer writes scores/imported/{source_id}.yaml", key=False)
    for doc in index.repo.models:
        for key in ("pricing", "manual_iq"):
            entry = doc.data.get(key)
            source_id = entry.get("source") if isinstance(entry, dict) else None
            if isinstance(source_id, str) and source_id not in index.sources:
                yield _at(doc, (key, "source"), f"{key}.source", f"unknown source '{source_id}'",
                          _suggest(source_id, index.sources, "add it to scores/sources.yaml"), key=False)


def _suggest(name: str, known, fallback: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else fallback


@check
def metric_and_subset_declared(index):
    for doc, path, result, *_ in index.results():
        entry = index.benchmarks.get(result.get("benchmark"), (None,))[0]
        if entry is None:
            continue
        metric = result.get("metric")
        metrics = [m.get("id") for m in entry.get("metrics", []) if isinstance(m, dict)]
        if isinstance(metric, str) and metric not in metrics:
            hint = f"{entry['id']} has metrics: {', '.join(metrics)}" if metrics else f"{entry['id']} has only its primary metric; leave metric out"
            yield _at(doc, path + ("metric",), _field(path + ("metric",)), f"unknown metric '{metric}'", hint, key=False)
        subset = result.get("subset")
        subsets = entry.get("subsets", [])
        if isinstance(subset, str) and subset not in subsets:
            hint = f"{entry['id']} has subsets: {', '.join(subsets)}" if subsets else f"{entry['id']} declares no subsets; leave subset out"
            yield _at(doc, path + ("subset",), _field(path + ("subset",)), f"unknown subset '{subset}'", hint, key=False)


def scale_of(entry: dict, metric) -> dict:
    for m in entry.get("metrics", []):
        if isinstance(m, dict) and m.get("id") == metric:
            return m.get("scale", {})
    return entry.get("scale", {})


@check
def values_within_scale(index):
    for doc, path, result, *_ in index.results():
        entry = index.benchmarks.get(result.get("benchmark"), (None,))[0]
        value = result.get("value")
        if entry is None or not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        scale = scale_of(entry, result.get("metric"))
        low, high = scale.get("min"), scale.get("max")
        field = _field(path + ("value",))
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{low if low is not None else '-∞'}–{high if high is not None else '∞'}"
            hint = f"{entry['id']} is on {span} {scale.get('unit', '')}".strip()
            if scale.get("unit") == "percent" and high == 100 and 100 < value <= 10000 and value / 100 <= 1:
                hint += "; is it on another scale?"
            yield _at(doc, path + ("value",), field, f"{value} is outside the benchmark's scale", hint, key=False)
        elif scale.get("unit") == "percent" and 0 < value < 1:
            yield _at(doc, path + ("value",), field, f"{value} looks like a fraction",
                      f"percent benchmarks are on 0–100: write {round(value * 100, 4):g}?", WARNING, key=False)


@check
def dates_real_and_past(index):
    limit = today()
    for doc in index.repo.all_docs():
        yield from _dates_in(doc, doc.data, (), limit)


_DATE_FIELDS = {"retrieved", "as_of", "released", "date-released"}


def _dates_in(doc, data, path, limit):
    if isinstance(data, dict):
        for key, value in data.items():
            if key in _DATE_FIELDS and isinstance(value, str):
                problem = _date_problem(value, key == "released")
                if problem is None:
                    parsed = datetime.date.fromisoformat(value if len(value) == 10 else value + "-01")
                    if parsed > limit:
                        problem = (f"{value} is in the future", "a date must be on or before today")
                if problem:
                    yield _at(doc, path + (key,), _field(path + (key,)), problem[0], problem[1], key=False)
            else:
                yield from _dates_in(doc, value, path + (key,), limit)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _dates_in(doc, value, path + (i,), limit)


def _date_problem(value: str, month_allowed: bool):
    text = value + "-01" if month_allowed and len(value) == 7 else value
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        if len(text) == 10 and text[4] == "-" and text[7] == "-":
            return f"{value} is not a real date", "check the day and month"
        return None  # the schema reports the form
    return None


@check
def results_not_repeated(index):
    seen = {}
    for doc, path, result, model_id, source_id, retrieved in index.results():
        key = (model_id, result.get("benchmark"), source_id, retrieved, result.get("metric", ""),
               result.get("subset", ""), result.get("harness", ""))
        line = doc.mark(*path)[0]
        if key in seen:
            first_doc, first_line = seen[key]
            yield _at(doc, path, _field(path), "the same result is given twice",
                      f"first at {first_doc}:{first_line} (same model, benchmark, source, date, metric, subset and harness)")
        else:
            seen[key] = (doc.path, line)


def fold_alias(name: str) -> str:
    """How aliases are compared: case, width and spacing do not make two names different."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@check
def aliases_map_to_one_model(index):
    owner = {}
    for doc in index.repo.models:
        model_id = doc.data.get("id")
        names = [(("id",), model_id)] + [(("aliases", i), a) for i, a in enumerate(_list(doc.data, "aliases"))]
        for path, name in names:
            if not isinstance(name, str):
                continue
            folded = fold_alias(name)
            if folded in owner and owner[folded][0] != model_id:
                other = owner[folded]
                yield _at(doc, path, _field(path), f"'{name}' already names {other[0]}",
                          f"see {other[1]}; an alias must map to one model", key=False)
            else:
                owner.setdefault(folded, (model_id, doc.path))


_CONFUSABLE_SCRIPTS = {"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE"}


def _scripts(word: str) -> set[str]:
    out = set()
    for ch in word:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            out.add(name.split(" ")[0] if name else "UNKNOWN")
    return out


@check
def names_not_mixed_script(index):
    """Homoglyphs: a word mixing Latin with Cyrillic or Greek letters is almost always a spoof."""
    for doc in index.repo.models:
        for key in ("name", "organization"):
            value = doc.data.get(key)
            if not isinstance(value, str):
                continue
            for word in value.split():
                scripts = _scripts(word)
                if "LATIN" in scripts and scripts & _CONFUSABLE_SCRIPTS:
                    yield _at(doc, (key,), key, f"'{word}' mixes Latin with {', '.join(sorted(scripts & _CONFUSABLE_SCRIPTS)).title()} letters",
                              "look-alike letters from another script; type the name in one script", key=False)


@check
def overrides_match_something(index):
    doc = index.repo.overrides
    if doc is None:
        return
    keys = set()
    for idoc in index.repo.imported:
        source_id = idoc.data.get("source")
        for result in _list(idoc.data, "results"):
            if isinstance(result, dict):
                keys.add((result.get("model"), result.get("benchmark"), source_id, result.get("metric", ""),
                          result.get("subset", ""), result.get("harness", "")))
    for i, entry in enumerate(_list(doc.data, "overrides")):
        if not isinstance(entry, dict):
            continue
        key = (entry.get("model"), entry.get("benchmark"), entry.get("source"), entry.get("metric", ""),
               entry.get("subset", ""), entry.get("harness", ""))
        if key not in keys:
            yield _at(doc, ("overrides", i), f"overrides[{i}]", "matches no imported result",
                      "check model, benchmark, source, metric, subset and harness against scores/imported/")


@check
def sources_disagree(index):
    """Two sources giving the same model and benchmark values further apart than the tolerance: a likely mistake."""
    tolerance = {}
    if index.repo.benchmarks is not None:
        tolerance = index.repo.benchmarks.data.get("checks", {}).get("disagreement_tolerance", {})
    if not tolerance:
        return
    groups = defaultdict(list)
    for doc, path, result, model_id, source_id, _ in index.results():
        value = result.get("value")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            groups[(model_id, result.get("benchmark"), result.get("metric", ""), result.get("subset", ""),
                    result.get("harness", ""))].append((value, source_id, doc, path))
    for key, rows in sorted(groups.items(), key=lambda kv: tuple(str(k) for k in kv[0])):
        entry = index.benchmarks.get(key[1], (None,))[0]
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
                if other != name and (best is None or (high[0] - low[0], high[1], low[1]) > (best[0], best[1][1], best[2][1])):
                    best = (high[0] - low[0], high, low)
        gap, high, low = best
        if gap > limit:
            doc, path = high[2], high[3]
            yield _at(doc, path + ("value",), _field(path + ("value",)),
                      f"{key[0]} {key[1]}: {high[1]} gives {high[0]:g}, {low[1]} gives {low[0]:g}",
                      f"sources differ by more than {limit:g}; check both", WARNING, key=False)


def publisher(index, source_id) -> str:
    """Who publishes a source: its `publisher`, else the source itself."""
    entry = index.sources.get(source_id, ({},))[0]
    return entry.get("publisher") or str(source_id)


def run_checks(repo) -> list[Problem]:
    index = Index(repo)
    found: list[Problem] = []
    for fn in CHECKS:
        try:
            found.extend(fn(index))
        except (TypeError, KeyError, AttributeError, ValueError):
            # A file with schema errors can break a rule's assumptions; its errors are already reported.
            continue
    return found


# ---------------------------------------------------------------- contributor warnings (likely slips)

@check
def organization_named_one_way(index):
    """Models in one organisation folder (scores/models/<org>/) that spell the organisation differently, e.g.
    '01 AI' beside '01.AI': the site would show two developers. Warned at each model not using the usual name."""
    folders = defaultdict(list)
    for doc in index.repo.models:
        org = doc.data.get("organization")
        parts = doc.path.split("/")
        if isinstance(org, str) and len(parts) == 4:
            folders[parts[2]].append((org, doc))
    for folder, entries in sorted(folders.items()):
        counts = defaultdict(int)
        for org, _ in entries:
            counts[org] += 1
        if len(counts) < 2:
            continue
        usual = min(counts, key=lambda name: (-counts[name], name))
        for org, doc in entries:
            if org != usual:
                yield _at(doc, ("organization",), "organization",
                          f"'{org}' differs from '{usual}', the name {counts[usual]} other model"
                          f"{'s' if counts[usual] != 1 else ''} in scores/models/{folder}/ use",
                          f"write organization: {usual} (one organisation, one spelling)", WARNING, key=False)


@check
def one_result_per_source_snapshot(index):
    """A second result for the same model, benchmark, metric, subset, harness and source with another retrieval
    date and another value: usually an update pasted beside the old number instead of replacing it."""
    groups = defaultdict(list)
    for doc, path, result, model_id, source_id, retrieved in index.results():
        value = result.get("value")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(retrieved, str):
            key = (model_id, result.get("benchmark"), result.get("metric", ""), result.get("subset", ""),
                   result.get("harness", ""), source_id)
            groups[key].append((retrieved, value, doc, path))
    for key, rows in groups.items():
        rows.sort(key=lambda r: (r[0], r[2].path, r[3]))
        for (date, value, _, _), (later, later_value, doc, path) in zip(rows, rows[1:]):
            if later != date and later_value != value:
                yield _at(doc, path + ("retrieved",), _field(path + ("retrieved",)),
                          f"a second {key[1]} result from {key[5]} for {key[0]}: {later_value:g} on {later}, "
                          f"{value:g} on {date}",
                          "replace the older result with the newer one, or give each a different metric, subset "
                          "or harness if they measure different things", WARNING, key=False)


@check
def question_counts_name_known_sources(index):
    """The question counts in methodology/benchmarks.yaml (the binomial intervals' n): each named source has one
    count per benchmark, at most one count applies to all other sources, and a named source that does not exist
    is warned about (its count would apply to nothing)."""
    for bid, (entry, doc, path) in sorted(index.benchmarks.items()):
        seen, general = set(), 0
        for i, q in enumerate(_list(entry, "questions")):
            if not isinstance(q, dict):
                continue
            where = path + ("questions", i)
            if not q.get("sources"):
                general += 1
                if general > 1:
                    yield _at(doc, where, _field(where), f"{bid} has a second question count for all sources",
                              "name the sources each count applies to")
                continue
            for j, source_id in enumerate(_list(q, "sources")):
                if not isinstance(source_id, str):
                    continue
                at = where + ("sources", j)
                if source_id not in index.sources:  # a warning: the count then applies to nothing
                    yield _at(doc, at, _field(at), f"unknown source '{source_id}'",
                              _suggest(source_id, index.sources, "add it to scores/sources.yaml"), WARNING,
                              key=False)
                elif source_id in seen:
                    yield _at(doc, at, _field(at), f"{bid} has two question counts for source '{source_id}'",
                              "keep one", key=False)
                seen.add(source_id)
