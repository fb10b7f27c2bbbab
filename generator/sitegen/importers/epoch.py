"""Epoch AI Benchmarking Hub CSV dump: HLE, FrontierMath, ARC-AGI, SWE-bench Verified, Terminal-Bench, GPQA.

Metadata: `epoch_capabilities_index.csv` (optional; its ECI scores are not imported) gives each model version's
"Model accessibility": "Open weights (...)" means open weights; "API access", "Hosted access (no API)" and
"Unreleased" mean the weights are not published (closed). Only versions that match a registry model are read from
it. A model version's suffix names its configuration: an effort (`_minimal` ... `_max`), a thinking budget (`_16K`)
or `_thinking` means a reasoning configuration, `_none` means reasoning off; `_unknown` and bare names say nothing.

Publication dates (`published`): an own run's `Started at` (Epoch shows a run on the Hub when it finishes); a
Terminal-Bench row's `Run date` (the leaderboard row's date), else `Created` (when Epoch recorded the public row);
the ARC-AGI and HLE compilations carry no date, so their numbers are public by the dump's capture.
Files are recognised by name; pass any subset. Fractions become percent (stderr too). Terminal-Bench rows count
as `terminal-bench-2` only when their Source is the v2.0 leaderboard; the agent is the harness. Epoch lists
some models twice (e.g. GPT-5 `_high` and `_unknown` in HLE); `_unknown` effort stays out via ignore.yaml.

Several runs of one model version in one file are kept apart where Epoch tells them apart:
- ARC-AGI (external) rows whose Model version repeats with different `Name`s are configurations (e.g.
  'Claude Opus 4.6 (120K, Max)' and '(120K, Low)' under one version): such rows are named by their `Name`.
  So is a row whose version states no configuration while its `Name` ends in one effort level
  ('gemini-3-flash-preview' named 'Gemini 3 Flash Preview (Minimal)'): the row's own name wins over the bare
  version, which would mean the vendor's default (high).
- Terminal-Bench rows repeating (model version, agent) get the run date in the harness.
- Epoch's own runs (FrontierMath, GPQA, SWE-bench) repeating a model version are re-runs of one
  configuration: the latest (`Started at`) is kept and each earlier run is reported as skipped with its value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from .extracts import Context, Extract, ImportError_, files_entry, number, published_day, read_csv

SOURCES = ("epoch",)
URL = "https://epoch.ai/benchmarks"
TB2_SOURCE = "Terminal-Bench v2 Leaderboard"

# file -> (benchmark, score column, stderr column)
OWN_RUNS = {
    "frontiermath.csv": "frontiermath-tier-1-3",
    "frontiermath_tier_4.csv": "frontiermath-tier-4",
    "swe_bench_verified.csv": "swe-bench-verified",
    "gpqa_diamond.csv": "gpqa-diamond",
}
EXTERNAL = {"arc_agi_external.csv": "arc-agi-1", "arc_agi_2_external.csv": "arc-agi-2"}
ECI = "epoch_capabilities_index.csv"
REASONING_SUFFIX = re.compile(r"_(minimal|low|medium|high|xhigh|max|thinking|\d+[Kk])$")
NO_REASONING_SUFFIX = re.compile(r"_none$")
# A display name ending in one effort level: 'Gemini 3 Flash Preview (Minimal)', 'GPT-5.2 (X-High)'.
EFFORT_IN_DISPLAY = re.compile(r"\((minimal|low|medium|high|x-?high|max)\)$", re.IGNORECASE)


def _rows(path: Path) -> list[dict]:
    return read_csv(path)


def _name(row: dict) -> str:
    return (row.get("Model version") or "").strip()


def _terminal_bench_name(row: dict) -> str:
    """A Terminal-Bench row's source name: its model version; an agent run without one (Epoch's Model Org
    'Multiple') is named by its agent, so ignore.yaml gives its reason and the benchmark page lists it with its
    value instead of dropping it."""
    agent = " ".join((row.get("Agent") or "").split())
    if _name(row) or not agent:
        return _name(row)
    return f"{agent} (model: {(row.get('Model Org') or '').strip() or 'not named'})"


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    if not retrieved:
        raise ImportError_("the Epoch dump carries no retrieval date; pass --retrieved (the snapshot's commit date)")
    paths = sorted((Path(p) for p in paths), key=lambda p: p.name)
    unknown = [p.name for p in paths if p.name not in KNOWN]
    if unknown:
        raise ImportError_(f"epoch: no reader for {unknown}; known files: {sorted(KNOWN)}")
    eci = [row for path in paths if path.name == ECI for row in _rows(path)]
    reading = _Reading(Extract(source, retrieved, files_entry(paths)), _accessibility(eci))
    for path in paths:
        if path.name != ECI:
            READERS[path.name](reading, path.name, _rows(path))
    _index_only_versions(reading, eci, ctx)
    return reading.ex


@dataclass
class _Reading:
    """What the readers share: the extract they add to, the weights the capabilities index gives each version,
    and the source names read so far (the capabilities index adds metadata only for versions no file named)."""

    ex: Extract
    access: dict[str, str]
    named: set[str] = field(default_factory=set)

    def model(self, file: str, row: dict, name: str) -> bool:
        """Record the model a row names; False (and the row skipped) when it names none."""
        if not name:
            self.ex.skipped.append((f"{file}:{row.get('id')}", "no model version"))
            return False
        self.ex.hint(name, row.get("Organization") or row.get("Model Org"), row.get("Name"))
        self.ex.model(
            name,
            released=(row.get("Release date") or "").strip() or None,
            weights=self.access.get(name),
            reasoning=reasoning_from_version(name),
        )
        self.named.add(name)
        return True


def _accessibility(eci: list[dict]) -> dict[str, str]:
    """{model version: "open" | "closed"} from the capabilities index's "Model accessibility"."""
    access = {}
    for row in eci:
        weights = weights_from_accessibility(row.get("Model accessibility"))
        if _name(row) and weights:
            access[_name(row)] = weights
    return access


def _read_own_runs(reading: _Reading, file: str, rows: list[dict]) -> None:
    """frontiermath*.csv, swe_bench_verified.csv, gpqa_diamond.csv: Epoch's own runs; of several runs of one model
    version the latest (`Started at`) is kept and each earlier one reported as skipped."""
    latest: dict[str, dict] = {}
    for row in rows:
        best = latest.get(_name(row))
        if best is None or (row.get("Started at") or "") > (best.get("Started at") or ""):
            latest[_name(row)] = row
    for row in rows:
        name = _name(row)
        if not reading.model(file, row, name):
            continue
        if latest[name] is not row:
            reading.ex.skipped.append(
                (
                    name,
                    f"{file} run {row.get('id')} of {row.get('Started at')} "
                    f"({number(row['mean_score'], 100)}) superseded by the later run {latest[name].get('id')}",
                )
            )
            continue
        reading.ex.result(
            name,
            OWN_RUNS[file],
            number(row["mean_score"], 100),
            stderr=number(row.get("stderr"), 100),
            url=(row.get("Log viewer") or "").strip() or None,
            published=row.get("Started at"),
            notes=f"Epoch run {row.get('id')}, started {(row.get('Started at') or '')[:10]}" if row.get("id") else None,
        )


def _read_external(reading: _Reading, file: str, rows: list[dict]) -> None:
    """arc_agi_external.csv, arc_agi_2_external.csv: ARC-AGI results Epoch compiled; a row is named by its display
    Name where that tells configurations apart (named_by_display)."""
    names_of: dict[str, set[str]] = {}
    for row in rows:
        names_of.setdefault(_name(row), set()).add(" ".join((row.get("Name") or "").split()))
    for row in rows:
        name = _name(row)
        if named_by_display(name, row.get("Name"), len(names_of.get(name, ()))):
            name = " ".join(row["Name"].split())
        if reading.model(file, row, name):
            reading.ex.result(
                name,
                EXTERNAL[file],
                number(row["Score"], 100),
                url=(row.get("Source link") or "").strip() or None,
                notes=_notes(row.get("Source"), row.get("Notes")),
            )


def _read_hle(reading: _Reading, file: str, rows: list[dict]) -> None:
    """hle_external.csv: accuracy with its 95% interval, and calibration error."""
    for row in rows:
        name = _name(row)
        if reading.model(file, row, name):
            reading.ex.result(
                name, "hle", number(row["Accuracy"], 100), ci95=_hle_interval(row), notes=_notes(None, row.get("Notes"))
            )
            reading.ex.result(name, "hle", number(row.get("Calibration Error")), metric="calibration-error")


def _read_terminal_bench(reading: _Reading, file: str, rows: list[dict]) -> None:
    """terminalbench_external.csv: only the v2.0 leaderboard's rows; the agent is the harness, and the run date
    tells apart rows that repeat (model version, agent)."""
    agents: dict[tuple[str, str], int] = {}
    for row in rows:
        k = (_terminal_bench_name(row), " ".join((row.get("Agent") or "").split()))
        agents[k] = agents.get(k, 0) + 1
    for row in rows:
        name = _terminal_bench_name(row)
        if not reading.model(file, row, name):
            continue
        if (row.get("Source") or "").strip() != TB2_SOURCE:
            reading.ex.skipped.append(
                (name, f"terminalbench_external.csv row {row['id']}: source is not the v2.0 leaderboard")
            )
            continue
        agent = " ".join(row["Agent"].split())
        harness = agent if agents[(name, agent)] == 1 else f"{agent} (run of {(row.get('Run date') or '').strip()})"
        reading.ex.result(
            name,
            "terminal-bench-2",
            number(row["Accuracy mean"], 100),
            stderr=number(row.get("Accuracy SE"), 100),
            harness=harness,
            published=published_day(row.get("Run date")) or published_day(row.get("Created")),
            url=(row.get("Source Link") or "").strip() or None,
            notes=_notes(None, row.get("Notes")),
        )


def _index_only_versions(reading: _Reading, eci: list[dict], ctx: Context) -> None:
    """Versions only the capabilities index lists: metadata (weights, reasoning), for models the registry knows."""
    for row in eci:
        name = _name(row)
        said = {"weights": reading.access.get(name), "reasoning": reasoning_from_version(name)}
        if name and name not in reading.named and any(v is not None for v in said.values()) and ctx.resolve(name):
            reading.ex.model(name, released=(row.get("Release date") or "").strip() or None, **said)
            reading.named.add(name)


#: One reader per file of the dump (the capabilities index is read by _accessibility and _index_only_versions).
READERS: dict[str, Callable[[_Reading, str, list[dict]], None]] = {
    **dict.fromkeys(OWN_RUNS, _read_own_runs),
    **dict.fromkeys(EXTERNAL, _read_external),
    "hle_external.csv": _read_hle,
    "terminalbench_external.csv": _read_terminal_bench,
}
KNOWN = set(READERS) | {ECI}


def named_by_display(version: str, display: str | None, names: int) -> bool:
    """Whether an ARC-AGI row is named by its display `Name` rather than its model version: when the version
    repeats under `names` different Names (each a configuration), or when the version states no configuration
    (no suffix) while the Name ends in one effort level."""
    display = " ".join((display or "").split())
    if not version or not display:
        return False
    if names > 1:
        return True
    return reasoning_from_version(version) is None and EFFORT_IN_DISPLAY.search(display) is not None


def weights_from_accessibility(text: str | None) -> str | None:
    """Epoch's "Model accessibility": open weights (unrestricted, restricted use or non-commercial) or not."""
    text = (text or "").strip()
    if not text:
        return None
    if text.startswith("Open weights"):
        return "open"
    if text in ("API access", "Hosted access (no API)", "Unreleased"):
        return "closed"
    raise ImportError_(f"epoch: unknown model accessibility {text!r}; add it to weights_from_accessibility")


def reasoning_from_version(name: str) -> bool | None:
    """What an Epoch model version's suffix says about reasoning (see the module docstring)."""
    if REASONING_SUFFIX.search(name):
        return True
    if NO_REASONING_SUFFIX.search(name):
        return False
    return None


def _notes(source, notes) -> str | None:
    parts = [f"via {source.strip()}" if source and source.strip() else "", " ".join((notes or "").split())]
    text = "; ".join(p for p in parts if p)
    return text or None


def prefer(model: str, records: list[tuple[str, dict]]) -> tuple[str, dict]:
    """Two Epoch model versions of one registry model (e.g. gemini-2.5-pro-exp-03-25 and the same weights'
    preview-03-25 endpoint): the earliest release date is the model's; then the name."""
    return sorted(records, key=lambda r: (r[1].get("released") or "9999", r[0]))[0]


def _hle_interval(row) -> list | None:
    """The 95% interval of an HLE accuracy from the column Epoch calls "Accuracy Standard Error".

    That column is the official leaderboard's 95% half-width (1.96·sqrt(p(1-p)/n)), not a standard error:
    on every row it is 1.95-1.97 times sqrt(p(1-p)/2500). Read as a standard error, intervals came out 1.96x
    too wide. So it becomes the interval [accuracy - x, accuracy + x] itself.
    """
    acc, half = number(row.get("Accuracy"), 100), number(row.get("Accuracy Standard Error"), 100)
    if acc is None or half is None:
        return None
    return [number(Decimal(str(acc)) - Decimal(str(half))), number(Decimal(str(acc)) + Decimal(str(half)))]
