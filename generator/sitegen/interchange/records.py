"""What the interchange formats share: the benchmark mapping table, value scales, model resolution, records."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import yaml

from ..data.interchange_names import norm


@dataclasses.dataclass(frozen=True)
class BenchmarkName:
    """How other formats name one of our benchmarks (an entry of methodology/interchange-names.yaml, the reviewed
    table)."""

    benchmark: str
    hubs: tuple[tuple[str, str | None], ...] = ()  # Hugging Face (dataset, config); config None = whole dataset
    name: str | None = None  # display name written on export
    names: tuple[str, ...] = ()  # names of the primary metric
    metrics: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (declared metric id, its names)

    @property
    def hub(self) -> str | None:
        return self.hubs[0][0] if self.hubs else None

    @property
    def config(self) -> str | None:
        return self.hubs[0][1] if self.hubs else None


@dataclasses.dataclass(frozen=True)
class NamesTable:
    """The repository's methodology/interchange-names.yaml: its entries, and its refusals as (kind 'hub' or 'name',
    normalised name, why). A repository without the file has the empty table: an exact benchmark id still names
    itself (Benchmarks.by_name)."""

    entries: tuple[BenchmarkName, ...] = ()
    refused: tuple[tuple[str, str, str], ...] = ()

    @classmethod
    def from_data(cls, data: dict | None) -> NamesTable:
        """The table of a file's data, valid by its schema (None: no file)."""
        entries = []
        for bench, entry in ((data or {}).get("benchmarks") or {}).items():
            hubs = tuple((h["dataset"], h.get("config")) for h in entry.get("hub") or ())
            metrics = tuple((m, tuple(str(n) for n in names)) for m, names in (entry.get("metrics") or {}).items())
            names = tuple(str(n) for n in entry.get("names") or ())
            entries.append(BenchmarkName(bench, hubs, entry.get("name"), names, metrics))
        refusals = tuple(
            ("hub", norm(r["hub"]), r["why"]) if "hub" in r else ("name", norm(r["name"]), r["why"])
            for r in (data or {}).get("not") or ()
        )
        return cls(tuple(entries), refusals)

    @classmethod
    def from_doc(cls, doc) -> NamesTable:
        """The table of a loaded repository's names file (load.Repo.names; None: no file)."""
        return cls.from_data(doc.data if doc is not None else None)

    @classmethod
    def load(cls, root: Path, registry: dict[str, dict]) -> NamesTable:
        """The table of root's methodology/interchange-names.yaml, read and checked as `sitegen validate` checks
        it (strict YAML, its schema, the rules against the registry `registry`); Refused with every error found.
        No file: the empty table."""
        from ..data import interchange_names, load, schema
        from ..problems import ERROR

        problems: list = []
        doc = load.read_doc(root, load.INTERCHANGE_NAMES, "interchange-names", problems)
        if doc is not None:
            problems += schema.check_doc(doc)
            if not problems:  # the rules read a table of the schema's shape
                problems += interchange_names.names_problems(doc, registry)
        errors = sorted(p for p in problems if p.severity == ERROR)
        if errors:
            raise Refused(errors)
        return cls.from_doc(doc)


#: Metric names that mean a benchmark's primary metric (compared after `norm`).
PRIMARY_METRICS = frozenset(
    {
        "accuracy",
        "acc",
        "score",
        "pass-1",
        "pass-at-1",
        "exact-match",
        "em",
        "resolved",
        "resolve-rate",
        "primary",
        "elo",
        "rating",
        "win-rate",
        "mean",
    }
)


_AT_K = re.compile(r"\b(pass|maj|cons)\s*(@|\^|-at-|_at_|\s+at\s+)\s*(\d+)", re.IGNORECASE)


def at_k(names) -> tuple[str, int] | None:
    """(how the name says it, k) when one of `names` is a k-sample measure: pass@k (best of k), pass^k (all of k),
    maj@k or cons@k (majority vote of k); None otherwise. Only k = 1 is a benchmark's usual single-attempt score."""
    for name in names:
        match = _AT_K.search(str(name or ""))
        if match:
            word, sep, k = match.group(1).casefold(), match.group(2), int(match.group(3))
            return f"{word}{'^' if sep == '^' else '@'}{k}", k
    return None


@dataclasses.dataclass(frozen=True)
class Benchmarks:
    """The benchmark registry (methodology/benchmarks.yaml entries) and the names table
    (methodology/interchange-names.yaml) with the lookups importers and exporters need."""

    entries: dict  # id -> registry entry
    names: NamesTable = NamesTable()

    @classmethod
    def from_list(cls, entries: list[dict], names: NamesTable | None = None) -> Benchmarks:
        return cls({e["id"]: e for e in entries}, names or NamesTable())

    @classmethod
    def load(cls, root: Path) -> Benchmarks:
        """Root's registry and names table (NamesTable.load: Refused when the table has errors)."""
        from ..data.load import read_yaml

        data = read_yaml(root, "methodology/benchmarks.yaml") or {}
        entries = {e["id"]: e for e in data.get("benchmarks", [])}
        return cls(entries, NamesTable.load(root, entries))

    def find(self, hub: str | None = None, config: str | None = None, names=()) -> str | None:
        """Our benchmark id for a Hub dataset (and config) or any of `names` (the names table); None when none matches."""
        return self.by_hub(hub, config) or next((hit[0] for hit in map(self.by_name, names) if hit), None)

    def by_hub(self, hub: str | None, config: str | None = None) -> str | None:
        """The benchmark a Hugging Face dataset (with its config) is, by the names table."""
        if not hub:
            return None
        for entry in self.names.entries:
            if entry.benchmark not in self.entries:
                continue
            for dataset, wanted in entry.hubs:
                if norm(hub) == norm(dataset) and (wanted is None or (config and norm(config) == norm(wanted))):
                    return entry.benchmark
        return None

    def by_name(self, name) -> tuple[str, str] | None:
        """(benchmark, metric) a name means: a benchmark id itself, or a name in the table ('' = primary metric)."""
        if name in (None, ""):
            return None
        key = norm(name)
        if key in self.entries:
            return key, ""
        for entry in self.names.entries:
            if entry.benchmark not in self.entries:
                continue
            if key in {norm(n) for n in (entry.name, *entry.names) if n}:
                return entry.benchmark, ""
            declared = {m["id"] for m in self.entries[entry.benchmark].get("metrics", [])}
            for metric, names in entry.metrics:
                if metric in declared and key in {norm(n) for n in names}:
                    return entry.benchmark, metric
        return None

    def refused(self, hub: str | None = None, names=()) -> str | None:
        """Why the table says a dataset (not matched with its config) or a name is not one of our benchmarks."""
        keys = {("hub", norm(hub))} if hub else set()
        keys |= {("name", norm(n)) for n in names if n not in (None, "")}
        return next((why for kind, key, why in self.names.refused if (kind, key) in keys), None)

    def metric(self, benchmark: str, names=()) -> str | None:
        """'' for the primary metric, a declared metric id, or None when the names mean some other metric.

        pass@k (and pass^k, maj@k, cons@k) with k > 1 is never the primary metric: it is a declared metric of that
        name (pass@5 or pass-at-5), or None."""
        declared = {}
        for m in self.entries[benchmark].get("metrics", []):
            declared[norm(m["id"])] = m["id"]
            declared[norm(m.get("name", m["id"]))] = m["id"]
        several = at_k(names)
        if several is not None and several[1] > 1:
            label = several[0]
            return declared.get(norm(label)) or declared.get(norm(label.replace("@", "-at-")))
        keys = [norm(n) for n in names if n not in (None, "")]
        for key in keys:
            if key in declared:
                return declared[key]
        if not keys or several is not None or any(key in PRIMARY_METRICS for key in keys):
            return ""
        return None

    def why_not_metric(self, benchmark: str, names=()) -> str:
        """The reason metric() gave None, for the skipped list."""
        several = at_k(names)
        if several is not None and several[1] > 1:
            return (
                f"{several[0]} is not {benchmark}'s primary value (a single attempt, pass@1), and {benchmark} "
                f"declares no {several[0]} metric"
            )
        return f"not a metric {benchmark} declares"

    def subset(self, benchmark: str, names=()) -> str | None:
        declared = {norm(s): s for s in self.entries[benchmark].get("subsets", [])}
        for name in names:
            if name and norm(name) in declared:
                return declared[norm(name)]
        return None

    def unit(self, benchmark: str, metric: str = "") -> str:
        entry = self.entries[benchmark]
        for m in entry.get("metrics", []):
            if m["id"] == metric:
                return m.get("scale", {}).get("unit", "")
        return entry.get("scale", {}).get("unit", "")

    def higher_is_better(self, benchmark: str, metric: str = "") -> bool:
        entry = self.entries[benchmark]
        for m in entry.get("metrics", []):
            if m["id"] == metric:
                return bool(m.get("higher_is_better", True))
        return bool(entry.get("higher_is_better", True))

    def export_name(self, benchmark: str) -> BenchmarkName:
        """The table's entry for a benchmark, its display name defaulting to the registry's."""
        registry_name = self.entries.get(benchmark, {}).get("name", benchmark)
        for entry in self.names.entries:
            if entry.benchmark == benchmark:
                return entry if entry.name else dataclasses.replace(entry, name=registry_name)
        return BenchmarkName(benchmark, name=registry_name)


def clean_number(value, factor: int = 1, digits: int = 6):
    """A number from another format, scaled exactly and free of float noise (int when integral)."""
    if value is None or isinstance(value, bool):
        return None
    d = round(Decimal(str(value)) * factor, digits)
    return int(d) if d == d.to_integral_value() else float(d)


def percent_factor(unit: str, max_score=None, value=None) -> int:
    """100 when a value on 0-1 must become a percent: the format says the maximum is 1, or (no maximum given)
    every value of the result is at most 1."""
    if unit != "percent":
        return 1
    if max_score is not None:
        return 100 if float(max_score) == 1.0 else 1
    return 100 if value is not None and abs(float(value)) <= 1.0 else 1


Resolve = Callable[[str], "list[str]"]


def resolver(root: Path | None = None, models: dict[str, dict] | None = None) -> Resolve:
    """name -> matching model ids: a model id itself, or a name or alias in the registry (the Hub's 'org/name'
    is also tried without its 'org/')."""
    from ..data.registry import Registry

    if models is None and root is None:
        raise ValueError("resolver: give the repository root or the models")
    registry = Registry.load(root) if root is not None and models is None else Registry.build(models or {})

    def resolve(name: str) -> list[str]:
        name = str(name).strip()
        if name.casefold() in registry.models:
            return [name.casefold()]
        for candidate in (name, name.split("/", 1)[-1]):
            hits = registry.match(candidate)
            if hits:
                return hits
        return []

    return resolve


@dataclasses.dataclass
class Imported:
    """An importer's outcome: a scores/imported/<source>.yaml-shaped document and what did not go in."""

    doc: dict
    unmatched: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # (name, why)
    skipped: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # (what, why)

    @property
    def results(self) -> list[dict]:
        return self.doc["results"]


RESULT_KEYS = (
    "model",
    "benchmark",
    "metric",
    "subset",
    "harness",
    "value",
    "url",
    "n",
    "stderr",
    "ci95",
    "notes",
    "self_reported",
    "retrieved",
)


def record(**fields) -> dict:
    """A result record in the imported-file shape: fixed key order, empty fields and self_reported: false left out."""
    out = {}
    for key in RESULT_KEYS:
        value = fields.get(key)
        if value in (None, "", []) or (key == "self_reported" and value is False):
            continue
        out[key] = value
    return out


def board_records(computed) -> list[dict]:
    """The published per-benchmark boards as records: one per row with a value, with the board's metric/subset."""
    config: dict = next((d for d in computed.index_defs.values() if d.get("kind") == "benchmark-boards"), {})
    base = config.get("selection") or {}
    per = config.get("per_benchmark") or {}
    out = []
    for bench, board in sorted(computed.benchmark_boards.items()):
        selection = {**base, **(per.get(bench) or {})}
        for row in board["rows"]:
            if row.get("value") is None:
                continue
            ci = [row.get("ci_low"), row.get("ci_high")]
            out.append(
                record(
                    model=row["model"],
                    benchmark=bench,
                    metric=selection.get("metric", ""),
                    subset=selection.get("subset", ""),
                    harness=row.get("harness"),
                    value=row["value"],
                    url=row.get("url"),
                    stderr=row.get("stderr"),
                    ci95=ci if all(v is not None for v in ci) else None,
                    self_reported=bool(row.get("self_reported")),
                    retrieved=row.get("retrieved"),
                )
                | {"source": row["source"], "how": row.get("how")}
            )
    return out


def _sort_key(r: dict):
    return tuple(str(r.get(k, "")) for k in ("model", "benchmark", "metric", "subset", "harness", "retrieved"))


def build_doc(source: str, retrieved: str, records: list[dict], unmatched, skipped) -> Imported:
    """Sort records; a record whose retrieval date is the file's own loses it (the file's date applies)."""
    results = []
    for r in sorted(records, key=_sort_key):
        if r.get("retrieved") == retrieved:
            r = {k: v for k, v in r.items() if k != "retrieved"}
        results.append(r)
    doc = {"source": source, "retrieved": retrieved, "results": results}
    return Imported(doc, sorted(set(unmatched)), sorted(set(skipped)))


def resolve_one(resolve: Resolve, names, unmatched: list) -> str | None:
    """The one model the first name that matches anything names; unmatched names are recorded."""
    names = [n for n in names if n]
    for name in names:
        hits = resolve(name)
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            unmatched.append((name, "matches several models: " + ", ".join(hits)))
            return None
    if names:
        unmatched.append((names[0], "matches no model"))
    return None


def to_model_results(imported: dict) -> dict[str, list[dict]]:
    """An imported document's results as model-file results (source and retrieved on each), by model id."""
    out: dict[str, list[dict]] = {}
    for r in imported["results"]:
        row = {k: v for k, v in r.items() if k not in ("model", "retrieved")}
        row["source"] = imported["source"]
        row["retrieved"] = r.get("retrieved", imported["retrieved"])
        out.setdefault(r["model"], []).append(row)
    return out


def imported_text(imported: dict, what: str) -> str:
    """scores/imported/<source>.yaml text for a document, with the generated-file header."""
    from ..data.registry import IMPORTED_HEADER

    body = yaml.safe_dump(imported, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=False)
    return IMPORTED_HEADER.format(source=imported["source"], files=what) + body


def comparable(records: list[dict], retrieved: str | None = None) -> list[dict]:
    """Records reduced to what every format carries, for round-trip comparisons."""
    keep = ("model", "benchmark", "metric", "subset", "value", "self_reported")
    return sorted(({k: r[k] for k in keep if k in r} for r in records), key=_sort_key)


# --------------------------------------------------------------------------- writing scores/imported/<source>.yaml


class Refused(Exception):
    """The import is not written; `problems` say why, in the validator's format."""

    def __init__(self, problems: list):
        super().__init__("; ".join(p.format() for p in problems))
        self.problems = problems


def registered_sources(root: Path) -> set[str]:
    """The source ids of scores/sources.yaml, read by the loader's rules (no link followed, strict YAML); a file
    that cannot be read so is Refused with its placed problems; a missing one is FileNotFoundError."""
    from ..data import load

    problems: list = []
    data = load.read_yaml(root, "scores/sources.yaml", problems)
    if problems:
        raise Refused(problems)
    if data is None:
        raise FileNotFoundError(2, "No such file or directory", "scores/sources.yaml")
    return {
        str(s.get("id")) for s in (data.get("sources") or [] if isinstance(data, dict) else []) if isinstance(s, dict)
    }


def imported_rel(source: str) -> str:
    return f"scores/imported/{source}.yaml"


def target_problems(root: Path, source: str, force: bool) -> list:
    """Why scores/imported/<source>.yaml may not be written: SOURCE is not a registered source id (so never a path),
    or the file exists and `force` is not given."""
    from ..data.load import SPECIAL_FILES
    from ..paths import link_problem
    from ..problems import Problem

    rel = imported_rel(source)
    if source not in registered_sources(root) or rel in SPECIAL_FILES:
        shown = source.encode("unicode_escape").decode("ascii")
        return [
            Problem(
                "scores/sources.yaml",
                0,
                0,
                "sources",
                f"'{shown}' is not a registered source id",
                "SOURCE is an id from scores/sources.yaml, not a path: add the source there first",
            )
        ]
    target = Path(root) / rel
    folder = (Path(root) / "scores" / "imported").resolve()
    if target.resolve().parent != folder or "/" in source:
        return [Problem(rel, 0, 0, "", "would be written outside scores/imported/", "check the source id")]
    linked = link_problem(root, target)  # no link on the way, scores/ and scores/imported/ included
    if linked is not None:
        return [linked]
    if target.exists() and not force:
        return [
            Problem(
                rel,
                0,
                0,
                "",
                "file already exists",
                "pass --force to replace it with this import (its current results are lost)",
            )
        ]
    return []


def validation_problems(root: Path, source: str, text: str) -> list:
    """The errors `sitegen validate` would report in scores/imported/<source>.yaml if it held `text`: the strict
    YAML reader, the imported-file schema and the cross-file checks, with the rest of the repository as it is."""
    from ..data import checks, load, schema, yamlstrict
    from ..problems import ERROR

    rel = imported_rel(source)
    parsed, found = yamlstrict.parse(text.encode("utf-8"), rel)
    if parsed is None:
        return found
    doc = load.Doc(rel, "imported", parsed)
    repo, _ = load.load_repo(root)
    repo = dataclasses.replace(repo, imported=tuple(d for d in repo.imported if d.path != rel) + (doc,))
    found += schema.check_doc(doc)
    found += checks.run_checks(repo)
    return sorted({p for p in found if p.path == rel and p.severity == ERROR})


def write_imported(root: Path, source: str, text: str, force: bool = False) -> Path:
    """Write scores/imported/<source>.yaml, or raise Refused and write nothing: the target must be allowed
    (target_problems) and the text must validate (validation_problems). The file is replaced atomically."""
    problems = target_problems(root, source, force) or validation_problems(root, source, text)
    if problems:
        raise Refused(problems)
    from ..paths import PathRefused
    from ..write import replace_files

    try:  # below scores/imported/ only, through no link; a reader sees the old file or the new one
        replace_files(root, {imported_rel(source): text.encode("utf-8")}, under=("scores/imported/",))
    except PathRefused as exc:
        raise Refused([exc.problem]) from None
    return Path(root) / imported_rel(source)


# --------------------------------------------------------------------------- reading other formats' files, bounded

#: No model card, .eval_results file or EEE log is near this; a bigger input is not one of them.
MAX_INPUT_BYTES = 16 * 1024 * 1024
#: The largest magnitude a number from another format may have (as yamlstrict's 15 digits): beyond it, a score,
#: an error or a count is not what the format means, and exact decimal scaling would not hold it.
MAX_NUMBER = 1e15

TEXT, NUMBER, SCORE = "text", "number", "score"


def problem(path: str, where: tuple[int, int], json_path: tuple, message: str, hint: str = ""):
    from ..problems import Problem, field_path

    return Problem(path, where[0], where[1], field_path(json_path, limit=200), message, hint)


def read_input(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """A file's bytes, or Refused: only a regular file (never a device, FIFO or folder; a FIFO is not even waited
    on), and at most `limit` bytes, checked before more than that is read (data/load.regular_bytes)."""
    from ..data.load import regular_bytes

    raw, why = regular_bytes(Path(path), limit)
    if raw is None:
        hint = (
            "give a file saved on disk, not a device, FIFO or folder"
            if "regular" in why
            else "this is not a model card, .eval_results file or EEE log"
            if "limit" in why
            else "check the path"
        )
        raise Refused([problem(str(path), (0, 0), (), why, hint)])
    return raw


def parse_yaml(raw: bytes, path: str):
    """YAML by the repository's strict reader (data/yamlstrict.py: no anchors or aliases, bounded size and depth,
    no YAML 1.1 surprises) with any top level; Refused with every problem it finds."""
    from ..data import yamlstrict

    parsed, found = yamlstrict.parse(raw, path, expect=None)
    if parsed is None or found:
        raise Refused(found)
    return parsed


def parse_json(raw: bytes, path: str):
    """JSON read strictly as UTF-8; Refused at its line and column when it is not JSON or is nested too deeply."""
    import json

    from ..data.yamlstrict import decode_utf8

    found: list = []
    text = decode_utf8(raw, path, found)
    if text is None:
        raise Refused(found)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(exc.doc.rstrip()) or exc.msg.startswith("Unterminated")
        what = "ends early (a truncated download?)" if cut else "is not valid JSON"
        raise Refused(
            [problem(path, (exc.lineno, exc.colno), (), f"{what}: {exc.msg}", "download the file again")]
        ) from None
    except RecursionError:
        raise Refused([problem(path, (1, 1), (), "is nested too deeply", "this is not an evaluation log")]) from None
    except ValueError as exc:  # a number past Python's 4,300-digit limit for int() of text
        raise Refused(
            [problem(path, (1, 1), (), f"is not valid JSON: {str(exc)[:120]}", "download the file again")]
        ) from None


def _kind(value) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


def shape_problems(data, spec, path: str, mark=lambda json_path: (0, 0)) -> list:
    """Where `data` does not have the shape `spec` describes, as placed problems (every one, not the first).

    spec: a dict (a mapping; the keys listed are checked when present, others are ignored), a one-item list (a
    list of that), TEXT (a scalar, read as text), NUMBER (a finite number within MAX_NUMBER), SCORE (a number
    within MAX_NUMBER when it is a finite number; anything else the importers skip with a reason), a function
    (value -> message or None), or None (anything). A null value is an absent one."""
    import math

    out: list = []

    def walk(value, spec, json_path: tuple) -> None:
        if value is None or spec is None:
            return
        if isinstance(spec, dict):
            if not isinstance(value, dict):
                out.append(problem(path, mark(json_path), json_path, f"must be a mapping, not {_kind(value)}"))
                return
            for key, sub in spec.items():
                if key in value:
                    walk(value[key], sub, json_path + (key,))
        elif isinstance(spec, list):
            if not isinstance(value, list):
                out.append(problem(path, mark(json_path), json_path, f"must be a list, not {_kind(value)}"))
                return
            for i, item in enumerate(value):
                if item is None and isinstance(spec[0], (dict, list)):  # an empty list item is not an absent field
                    out.append(
                        problem(
                            path,
                            mark(json_path + (i,)),
                            json_path + (i,),
                            f"must be {'a mapping' if isinstance(spec[0], dict) else 'a list'}, not null",
                        )
                    )
                    continue
                walk(item, spec[0], json_path + (i,))
        elif spec == TEXT:
            if isinstance(value, (dict, list)):
                out.append(problem(path, mark(json_path), json_path, f"must be text, not {_kind(value)}"))
        elif spec in (NUMBER, SCORE):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                if spec == NUMBER:
                    out.append(problem(path, mark(json_path), json_path, f"must be a number, not {_kind(value)}"))
            elif isinstance(value, float) and not math.isfinite(value):
                if spec == NUMBER:
                    out.append(problem(path, mark(json_path), json_path, f"{value} is not a finite number"))
            elif abs(value) > MAX_NUMBER:
                digits = str(abs(value)) if isinstance(value, int) else ""
                shown = f"{value:g}" if not digits or len(digits) <= 20 else f"a {len(digits)}-digit number"
                out.append(
                    problem(
                        path,
                        mark(json_path),
                        json_path,
                        f"{shown} is out of range",
                        f"numbers from other formats are at most {MAX_NUMBER:g} in size",
                    )
                )
        else:
            message = spec(value)
            if message:
                out.append(problem(path, mark(json_path), json_path, message))

    walk(data, spec, ())
    return out


def decode(raw: bytes, path: str) -> str:
    """UTF-8 text, or Refused placing a byte-order mark, UTF-16, a byte that is not UTF-8 or a NUL byte."""
    from ..data.yamlstrict import decode_utf8

    found: list = []
    text = decode_utf8(raw, path, found)
    if text is None:
        raise Refused(found)
    return text
