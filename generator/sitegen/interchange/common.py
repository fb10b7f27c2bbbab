"""What the interchange formats share: the benchmark mapping table, value scales, model resolution, records."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from pathlib import Path
from typing import Callable

import yaml


@dataclasses.dataclass(frozen=True)
class BenchmarkName:
    """How other formats name one of our benchmarks: a Hub dataset (with its config) and display names."""

    benchmark: str
    hub: str | None = None  # Hugging Face dataset id
    config: str | None = None  # the Hub config / task id that is this benchmark, when the dataset holds several
    name: str | None = None  # display name written on export
    names: tuple[str, ...] = ()  # other names sources use


#: Our benchmark ids by the names other formats use. An exact benchmark id always maps to itself as well.
BENCHMARK_NAMES: tuple[BenchmarkName, ...] = (
    BenchmarkName("gpqa-diamond", "Idavidrein/gpqa", "gpqa_diamond", "GPQA Diamond", ("gpqa_diamond",)),
    BenchmarkName("hle", "cais/hle", None, "Humanity's Last Exam", ("HLE",)),
    BenchmarkName("mmlu-pro", "TIGER-Lab/MMLU-Pro", None, "MMLU-Pro", ("mmlu_pro",)),
    BenchmarkName("aime-2025", "math-ai/aime25", None, "AIME 2025", ("aime25", "AIME2025", "opencompass/AIME2025")),
    BenchmarkName("livecodebench", "livecodebench/code_generation_lite", None, "LiveCodeBench", ()),
    BenchmarkName("swe-bench-verified", "princeton-nlp/SWE-bench_Verified", None, "SWE-bench Verified",
                  ("swe_bench_verified", "SWE-bench_Verified")),
    BenchmarkName("global-mmlu-lite", "CohereLabs/Global-MMLU-Lite", None, "Global-MMLU-Lite",
                  ("CohereForAI/Global-MMLU-Lite", "global_mmlu_lite")),
    BenchmarkName("mgsm", "juletxara/mgsm", None, "MGSM", ()),
    BenchmarkName("ifbench", None, None, "IFBench", ()),
    BenchmarkName("scicode", None, None, "SciCode", ()),
    BenchmarkName("arc-agi-1", None, None, "ARC-AGI-1", ("ARC-AGI", "arc_agi_1")),
    BenchmarkName("arc-agi-2", None, None, "ARC-AGI-2", ("arc_agi_2",)),
    BenchmarkName("terminal-bench-2", None, None, "Terminal-Bench 2.0", ("terminal-bench@2.0", "terminal_bench_2")),
    BenchmarkName("tau2-bench-telecom", None, None, "τ²-Bench Telecom", ("tau2-bench telecom", "tau2_telecom")),
    BenchmarkName("eq-bench-3", None, None, "EQ-Bench 3", ("eqbench3",)),
)

#: Metric names that mean a benchmark's primary metric (compared after `norm`).
PRIMARY_METRICS = frozenset({"accuracy", "acc", "score", "pass-1", "pass-at-1", "exact-match", "em", "resolved",
                             "resolve-rate", "primary", "elo", "rating", "win-rate", "mean"})


def norm(text) -> str:
    """A comparison key: case folded, every run of other characters than letters and digits one '-'."""
    return re.sub(r"[^0-9a-z²]+", "-", str(text).casefold()).strip("-")


@dataclasses.dataclass(frozen=True)
class Benchmarks:
    """The benchmark registry (methodology/benchmarks.yaml entries) with the lookups importers need."""

    entries: dict  # id -> registry entry

    @classmethod
    def from_list(cls, entries: list[dict]) -> "Benchmarks":
        return cls({e["id"]: e for e in entries})

    @classmethod
    def load(cls, root: Path) -> "Benchmarks":
        from ..load import read_yaml

        data = read_yaml(root, "methodology/benchmarks.yaml") or {}
        return cls.from_list(data.get("benchmarks", []))

    def find(self, hub: str | None = None, config: str | None = None, names=()) -> str | None:
        """Our benchmark id for a Hub dataset (and config) or any of `names`; None when nothing matches."""
        for entry in BENCHMARK_NAMES:
            if entry.benchmark not in self.entries:
                continue
            if hub and entry.hub and norm(hub) == norm(entry.hub):
                if entry.config is None or (config and norm(config) == norm(entry.config)):
                    return entry.benchmark
        keys = [norm(n) for n in names if n]
        for key in keys:
            if key in self.entries:
                return key
            for entry in BENCHMARK_NAMES:
                if entry.benchmark in self.entries and key in {norm(n) for n in (entry.name, *entry.names) if n}:
                    return entry.benchmark
        if hub and not config:
            tail = norm(str(hub).rsplit("/", 1)[-1])
            if tail in self.entries:
                return tail
        return None

    def metric(self, benchmark: str, names=()) -> str | None:
        """'' for the primary metric, a declared metric id, or None when the name is some other metric."""
        declared = {}
        for m in self.entries[benchmark].get("metrics", []):
            declared[norm(m["id"])] = m["id"]
            declared[norm(m.get("name", m["id"]))] = m["id"]
        keys = [norm(n) for n in names if n not in (None, "")]
        for key in keys:
            if key in declared:
                return declared[key]
        if not keys or any(k in PRIMARY_METRICS for k in keys):
            return ""
        return None

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
        for entry in BENCHMARK_NAMES:
            if entry.benchmark == benchmark:
                return entry
        return BenchmarkName(benchmark, None, None, self.entries.get(benchmark, {}).get("name", benchmark))


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
    from ..importers.registry import Registry

    registry = Registry.load(root) if models is None else Registry.build(models)

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


RESULT_KEYS = ("model", "benchmark", "metric", "subset", "harness", "value", "url", "n", "stderr", "ci95", "notes",
               "self_reported", "retrieved")


def record(**fields) -> dict:
    """A result record in the imported-file shape: fixed key order, empty fields and self_reported: false left out."""
    out = {}
    for key in RESULT_KEYS:
        value = fields.get(key)
        if value in (None, "", []) or (key == "self_reported" and value is False):
            continue
        out[key] = value
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
    from ..importers.common import HEADER

    body = yaml.safe_dump(imported, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=False)
    return HEADER.format(source=imported["source"], files=what) + body


def comparable(records: list[dict], retrieved: str | None = None) -> list[dict]:
    """Records reduced to what every format carries, for round-trip comparisons."""
    keep = ("model", "benchmark", "metric", "subset", "value", "self_reported")
    return sorted(({k: r[k] for k in keep if k in r} for r in records), key=_sort_key)
