"""Epoch AI Benchmarking Hub CSV dump: HLE, FrontierMath, ARC-AGI, SWE-bench Verified, Terminal-Bench, GPQA.

Files are recognised by name; pass any subset. Fractions become percent (stderr too). Terminal-Bench rows count
as `terminal-bench-2` only when their Source is the v2.0 leaderboard; the agent is the harness. Epoch lists
some models twice (e.g. GPT-5 `_high` and `_unknown` in HLE); `_unknown` effort stays out via ignore.yaml.
"""

from __future__ import annotations

import csv
from pathlib import Path

from .common import Context, Extract, ImportError_, files_entry, number

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
KNOWN = set(OWN_RUNS) | set(EXTERNAL) | {"hle_external.csv", "terminalbench_external.csv"}


def _rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _name(row: dict) -> str:
    return (row.get("Model version") or "").strip()


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    if not retrieved:
        raise ImportError_("the Epoch dump carries no retrieval date; pass --retrieved (the snapshot's commit date)")
    paths = sorted((Path(p) for p in paths), key=lambda p: p.name)
    unknown = [p.name for p in paths if p.name not in KNOWN]
    if unknown:
        raise ImportError_(f"epoch: no reader for {unknown}; known files: {sorted(KNOWN)}")
    ex = Extract(source, retrieved, files_entry(paths))
    for path in paths:
        for row in _rows(path):
            name = _name(row)
            if not name:
                ex.skipped.append((f"{path.name}:{row.get('id')}", "no model version"))
                continue
            ex.hint(name, row.get("Organization") or row.get("Model Org"), row.get("Name"))
            ex.model(name, released=(row.get("Release date") or "").strip() or None)
            if path.name in OWN_RUNS:
                ex.result(name, OWN_RUNS[path.name], number(row["mean_score"], 100),
                          stderr=number(row.get("stderr"), 100), url=(row.get("Log viewer") or "").strip() or None)
            elif path.name in EXTERNAL:
                ex.result(name, EXTERNAL[path.name], number(row["Score"], 100),
                          url=(row.get("Source link") or "").strip() or None,
                          notes=_notes(row.get("Source"), row.get("Notes")))
            elif path.name == "hle_external.csv":
                ex.result(name, "hle", number(row["Accuracy"], 100),
                          stderr=number(row.get("Accuracy Standard Error"), 100), notes=_notes(None, row.get("Notes")))
                ex.result(name, "hle", number(row.get("Calibration Error")), metric="calibration-error")
            elif path.name == "terminalbench_external.csv":
                if (row.get("Source") or "").strip() != TB2_SOURCE:
                    ex.skipped.append((name, f"terminalbench_external.csv row {row['id']}: source is not the v2.0 leaderboard"))
                    continue
                ex.result(name, "terminal-bench-2", number(row["Accuracy mean"], 100),
                          stderr=number(row.get("Accuracy SE"), 100), harness=" ".join(row["Agent"].split()),
                          url=(row.get("Source Link") or "").strip() or None, notes=_notes(None, row.get("Notes")))
    return ex


def _notes(source, notes) -> str | None:
    parts = [f"via {source.strip()}" if source and source.strip() else "", " ".join((notes or "").split())]
    text = "; ".join(p for p in parts if p)
    return text or None
