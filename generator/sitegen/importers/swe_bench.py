"""Official SWE-bench leaderboards (leaderboards.json flattened to CSV), licence CC BY-NC 4.0.

Only Verified rows are read. A result belongs to the model named by the row's single `Model:` tag and the
system (the row's name) is its harness. Rows naming several models, or none, cannot be attributed to one
model: their system name is reported as the source name, for ignore.yaml. Unchecked submissions are
self-reported. A row's `date` (the submission date the leaderboard shows) is when its number became public.
A row whose own name states a date ('mini-SWE-agent + Gemini 2.5 Pro (2025-05-06)') is read
under the tag qualified by that date ('gemini-2.5-pro (2025-05-06)') when a model file lists that spelling for
swe-bench: the date picks the checkpoint (here the 05-06 preview, not the later GA model the tag names).
"""

from __future__ import annotations

import json
from pathlib import Path

from .common import Context, Extract, checkpoint_name, files_entry, number, read_dated_csv

SOURCES = ("swe-bench",)
URL = "https://www.swebench.com/"


def source_name(row: dict, resolve=lambda name: None) -> str:
    """The row's single model tag (dated by the row's own name where the registry says so), or its system name."""
    tags = json.loads(row["tags"] or "[]")
    models = [t.split(":", 1)[1].strip() for t in tags if t.startswith("Model:")]
    if len(models) == 1:
        return checkpoint_name(models[0], row["name"], resolve)
    return f"{row['name'].strip()} [system with {len(models)} model tags]"


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    path, retrieved, rows = read_dated_csv(paths, retrieved, source)
    ex = Extract(source, retrieved, files_entry([path]))
    # Two Verified submissions can share a system name (e.g. 1 attempt and 2+ attempts, or a re-submission):
    # their harness then also names the submission folder, so each stays its own result.
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        if row["leaderboard"] == "Verified":
            k = (source_name(row, ctx.resolve), " ".join(row["name"].split()))
            seen[k] = seen.get(k, 0) + 1
    for row in rows:
        if row["leaderboard"] != "Verified":
            ex.skipped.append((row["name"], f"{row['leaderboard']} leaderboard, not Verified"))
            continue
        site = (row.get("site") or "").strip()
        checked = (row.get("checked") or "").strip().lower().startswith("true")
        harness = " ".join(row["name"].split())
        name = source_name(row, ctx.resolve)
        if seen[(name, harness)] > 1:
            harness = f"{harness} ({row['folder'].strip()})"
        ex.result(name, "swe-bench-verified", number(row["resolved"]), harness=harness,
                  url=site if site.startswith("https://") and " " not in site else None,
                  notes=f"submitted {row['date']}" if row.get("date") else None, published=row.get("date"),
                  self_reported=None if checked else True)
    return ex
