"""Official SWE-bench leaderboards (leaderboards.json flattened to CSV), licence CC BY-NC 4.0.

Only Verified rows are read. A result belongs to the model the row names and the system (the row's name) is its
harness. Which model that is, in order:
1. the row's own name, where a model file lists it as a reviewed `swe-bench` source alias (the system name as the
   leaderboard shows it, spaces collapsed): the name wins over a tag that contradicts it ('Tools + Claude 3.5
   Haiku' is tagged claude-3-haiku-20240307) and names the model of a row with no tag ('Tools + Claude 3.7 Sonnet
   (2025-02-24)');
2. else the row's single model: its `Model:` tags counted as distinct models, two tags that differ only in case or
   in '.' against '-' being one model spelled two ways (claude-3-5-sonnet-20241022, claude-3.5-sonnet-20241022).
   A row whose own name states a date ('mini-SWE-agent + Gemini 2.5 Pro (2025-05-06)') is read under the tag
   qualified by that date ('gemini-2.5-pro (2025-05-06)') when a model file lists that spelling for swe-bench:
   the date picks the checkpoint (here the 05-06 preview, not the later GA model the tag names);
3. else nothing: the row is reported for ignore.yaml as '<system> [no model tag]' or '<system> [N models]'.
Unchecked submissions are self-reported. A row's `date` (the submission date the leaderboard shows) is when its
number became public.
"""

from __future__ import annotations

import json
from pathlib import Path

from .extracts import Context, Extract, checkpoint_name, files_entry, number, read_dated_csv

SOURCES = ("swe-bench",)
URL = "https://www.swebench.com/"


def model_tags(row: dict) -> list[str]:
    """The models a row's `Model:` tags name, one spelling per model (the first), in the row's order."""
    models: dict[str, str] = {}
    for tag in json.loads(row["tags"] or "[]"):
        if tag.startswith("Model:"):
            name = tag.split(":", 1)[1].strip()
            models.setdefault(name.casefold().replace(".", "-"), name)
    return list(models.values())


def system_name(row: dict) -> str:
    """The row's name as the leaderboard shows it, runs of spaces collapsed."""
    return " ".join(row["name"].split())


def source_name(row: dict, resolve=lambda name: None, scoped=lambda name: None) -> str:
    """The name a row is attributed under (the module docstring's order): its system name where the registry
    lists it for swe-bench, else its single model (dated by the row's own name where the registry says so), else
    its system name marked with why no model can be read from its tags."""
    system = system_name(row)
    if scoped(system) is not None:
        return system
    models = model_tags(row)
    if len(models) == 1:
        return checkpoint_name(models[0], row["name"], resolve)
    return f"{system} [no model tag]" if not models else f"{system} [{len(models)} models]"


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    path, retrieved, rows = read_dated_csv(paths, retrieved, source)
    ex = Extract(source, retrieved, files_entry([path]))
    # Two Verified submissions can share a system name (e.g. 1 attempt and 2+ attempts, or a re-submission):
    # their harness then also names the submission folder, so each stays its own result.
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        if row["leaderboard"] == "Verified":
            k = (source_name(row, ctx.resolve, ctx.scoped), system_name(row))
            seen[k] = seen.get(k, 0) + 1
    for row in rows:
        if row["leaderboard"] != "Verified":
            ex.skipped.append((row["name"], f"{row['leaderboard']} leaderboard, not Verified"))
            continue
        site = (row.get("site") or "").strip()
        checked = (row.get("checked") or "").strip().lower().startswith("true")
        harness = system_name(row)
        name = source_name(row, ctx.resolve, ctx.scoped)
        if seen[(name, harness)] > 1:
            harness = f"{harness} ({row['folder'].strip()})"
        ex.result(
            name,
            "swe-bench-verified",
            number(row["resolved"]),
            harness=harness,
            url=site if site.startswith("https://") and " " not in site else None,
            notes=f"submitted {row['date']}" if row.get("date") else None,
            published=row.get("date"),
            self_reported=None if checked else True,
        )
    return ex
