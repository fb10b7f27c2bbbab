"""ARC Prize leaderboard JSON (evaluations.json + models.json): semi-private ARC-AGI-1 and ARC-AGI-2.

Public-eval, private-eval and ARC-AGI-3 rows are left out (no benchmark id; the site ranks semi-private sets).
The cost per task goes into the result's `cost_per_task_usd` field (USD, as the leaderboard reports it).
models.json's `modelType` ("CoT", "Base LLM", ...) is the chart's category, not the configuration's reasoning
mode (it calls GPT-5 (Minimal) a base LLM and Claude Opus 4.5 without thinking CoT), so reasoning is not read
from it.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from .extracts import Context, Extract, ImportError_, files_entry, number, read_json

SOURCES = ("arc-prize",)
URL = "https://arcprize.org/leaderboard"
DATASETS = {"v1_Semi_Private": "arc-agi-1", "v2_Semi_Private": "arc-agi-2"}


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    if not retrieved:
        raise ImportError_("the ARC Prize files carry no retrieval date; pass --retrieved")
    by_name = {Path(p).name: Path(p) for p in paths}
    if set(by_name) != {"evaluations.json", "models.json"}:
        raise ImportError_(f"arc-prize reads evaluations.json and models.json, got {sorted(by_name)}")
    evaluations = read_json(by_name["evaluations.json"], parse_float=Decimal)
    models = {m["id"]: m for m in read_json(by_name["models.json"])}
    ex = Extract(source, retrieved, files_entry([by_name["evaluations.json"], by_name["models.json"]]))
    for ev in evaluations:
        name = ev["modelId"].strip()
        bench = DATASETS.get(ev["datasetId"])
        if bench is None:
            ex.skipped.append((name, f"dataset {ev['datasetId']} is not a semi-private ARC-AGI-1/2 set"))
            continue
        cost = number(ev.get("costPerTask"), digits=4)
        ex.result(
            name,
            bench,
            number(ev["score"], 100),
            url=(ev.get("resultsUrl") or "").strip() or None,
            cost_per_task_usd=cost,
        )
        meta = models.get(name, {})
        released = (meta.get("modelReleaseDate") or "")[:10] or None
        ex.model(name, released=released)
        ex.hint(name, meta.get("providerId"), meta.get("displayName"))
    return ex
