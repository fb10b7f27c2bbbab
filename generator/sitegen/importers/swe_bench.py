"""Official SWE-bench leaderboards (leaderboards.json flattened to CSV), licence CC BY-NC 4.0.

Only Verified rows are read. A result belongs to the model named by the row's single `Model:` tag and the
system (the row's name) is its harness. Rows naming several models, or none, cannot be attributed to one
model: their system name is reported as the source name, for ignore.yaml. Unchecked submissions are
self-reported.
"""

from __future__ import annotations

import json
from pathlib import Path

from .common import Context, Extract, files_entry, number, read_dated_csv

SOURCES = ("swe-bench",)
URL = "https://www.swebench.com/"


def source_name(row: dict) -> str:
    tags = json.loads(row["tags"] or "[]")
    models = [t.split(":", 1)[1].strip() for t in tags if t.startswith("Model:")]
    if len(models) == 1:
        return models[0]
    return f"{row['name'].strip()} [system with {len(models)} model tags]"


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    path, retrieved, rows = read_dated_csv(paths, retrieved, source)
    ex = Extract(source, retrieved, files_entry([path]))
    # Two Verified submissions can share a system name (e.g. 1 attempt and 2+ attempts, or a re-submission):
    # their harness then also names the submission folder, so each stays its own result.
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        if row["leaderboard"] == "Verified":
            k = (source_name(row), " ".join(row["name"].split()))
            seen[k] = seen.get(k, 0) + 1
    for row in rows:
        if row["leaderboard"] != "Verified":
            ex.skipped.append((row["name"], f"{row['leaderboard']} leaderboard, not Verified"))
            continue
        site = (row.get("site") or "").strip()
        checked = (row.get("checked") or "").strip().lower().startswith("true")
        harness = " ".join(row["name"].split())
        if seen[(source_name(row), harness)] > 1:
            harness = f"{harness} ({row['folder'].strip()})"
        ex.result(source_name(row), "swe-bench-verified", number(row["resolved"]), harness=harness,
                  url=site if site.startswith("https://") and " " not in site else None,
                  notes=f"submitted {row['date']}" if row.get("date") else None,
                  self_reported=None if checked else True)
    return ex
