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
KNOWN = set(OWN_RUNS) | set(EXTERNAL) | {"hle_external.csv", "terminalbench_external.csv", ECI}
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
    ex = Extract(source, retrieved, files_entry(paths))
    access = {}
    for path in paths:
        if path.name == ECI:
            for row in _rows(path):
                weights = weights_from_accessibility(row.get("Model accessibility"))
                if _name(row) and weights:
                    access[_name(row)] = weights
    named = set()
    for path in paths:
        if path.name == ECI:
            continue
        rows = _rows(path)
        names_of = {}
        for row in rows:
            names_of.setdefault(_name(row), set()).add(" ".join((row.get("Name") or "").split()))
        latest = {}
        if path.name in OWN_RUNS:
            for row in rows:
                best = latest.get(_name(row))
                if best is None or (row.get("Started at") or "") > (best.get("Started at") or ""):
                    latest[_name(row)] = row
        agents = {}
        if path.name == "terminalbench_external.csv":
            for row in rows:
                k = (_terminal_bench_name(row), " ".join((row.get("Agent") or "").split()))
                agents[k] = agents.get(k, 0) + 1
        for row in rows:
            name = _name(row)
            if path.name in EXTERNAL and named_by_display(name, row.get("Name"), len(names_of.get(name, ()))):
                name = " ".join(row["Name"].split())
            if path.name == "terminalbench_external.csv":
                name = _terminal_bench_name(row)
            if not name:
                ex.skipped.append((f"{path.name}:{row.get('id')}", "no model version"))
                continue
            ex.hint(name, row.get("Organization") or row.get("Model Org"), row.get("Name"))
            ex.model(name, released=(row.get("Release date") or "").strip() or None, weights=access.get(name),
                     reasoning=reasoning_from_version(name))
            named.add(name)
            if path.name in OWN_RUNS:
                if latest[name] is not row:
                    ex.skipped.append((name, f"{path.name} run {row.get('id')} of {row.get('Started at')} "
                                             f"({number(row['mean_score'], 100)}) superseded by the later run {latest[name].get('id')}"))
                    continue
                ex.result(name, OWN_RUNS[path.name], number(row["mean_score"], 100),
                          stderr=number(row.get("stderr"), 100), url=(row.get("Log viewer") or "").strip() or None,
                          published=row.get("Started at"),
                          notes=f"Epoch run {row.get('id')}, started {(row.get('Started at') or '')[:10]}" if row.get("id") else None)
            elif path.name in EXTERNAL:
                ex.result(name, EXTERNAL[path.name], number(row["Score"], 100),
                          url=(row.get("Source link") or "").strip() or None,
                          notes=_notes(row.get("Source"), row.get("Notes")))
            elif path.name == "hle_external.csv":
                ex.result(name, "hle", number(row["Accuracy"], 100), ci95=_hle_interval(row),
                          notes=_notes(None, row.get("Notes")))
                ex.result(name, "hle", number(row.get("Calibration Error")), metric="calibration-error")
            elif path.name == "terminalbench_external.csv":
                if (row.get("Source") or "").strip() != TB2_SOURCE:
                    ex.skipped.append((name, f"terminalbench_external.csv row {row['id']}: source is not the v2.0 leaderboard"))
                    continue
                agent = " ".join(row["Agent"].split())
                harness = agent if agents[(name, agent)] == 1 else f"{agent} (run of {(row.get('Run date') or '').strip()})"
                ex.result(name, "terminal-bench-2", number(row["Accuracy mean"], 100),
                          stderr=number(row.get("Accuracy SE"), 100), harness=harness,
                          published=published_day(row.get("Run date")) or published_day(row.get("Created")),
                          url=(row.get("Source Link") or "").strip() or None, notes=_notes(None, row.get("Notes")))
    for path in paths:  # versions only the capabilities index lists: metadata, for models the registry knows
        if path.name != ECI:
            continue
        for row in _rows(path):
            name = _name(row)
            said = {"weights": access.get(name), "reasoning": reasoning_from_version(name)}
            if name and name not in named and any(v is not None for v in said.values()) and ctx.resolve(name):
                ex.model(name, released=(row.get("Release date") or "").strip() or None, **said)
                named.add(name)
    return ex


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
