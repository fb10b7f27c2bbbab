"""EQ-Bench 3 leaderboard (the CSV string in eqbench3.js): normalised Elo with its interval.

A leading `*` on a model name is not explained in the data; it is stripped from the name and kept in notes.
"""

from __future__ import annotations

from pathlib import Path

from .extracts import Context, Extract, ImportError_, files_entry, number, read_csv

SOURCES = ("eq-bench",)
URL = "https://eqbench.com/"


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    if not retrieved:
        raise ImportError_("the EQ-Bench file carries no retrieval date; pass --retrieved")
    if len(paths) != 1:
        raise ImportError_(f"eq-bench reads one CSV, got {len(paths)}")
    path = Path(paths[0])
    rows = read_csv(path)
    ex = Extract(source, retrieved, files_entry([path]))
    for row in rows:
        raw = row["model_name"].strip()
        name = raw.lstrip("*").strip()
        ex.result(
            name,
            "eq-bench-3",
            number(row["elo_norm"]),
            ci95=[number(row["ci_low_norm"]), number(row["ci_high_norm"])],
            notes="marked * on the leaderboard (meaning not stated)" if raw.startswith("*") else None,
        )
    return ex
