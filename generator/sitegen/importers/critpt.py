"""CritPt README leaderboard: challenge accuracy in percent, stored as published (AI IQ reads its 0-20 anchor
table on this number directly; see methodology/ai-iq.md).

Tool-use variants ('GPT-5 (high, code & web)') are the model with a harness ('code & web').
"""

from __future__ import annotations

import re
from pathlib import Path

from .extracts import Context, Extract, ImportError_, files_entry, number, read_csv

SOURCES = ("critpt",)
URL = "https://github.com/CritPt-Benchmark/CritPt"
TOOLS = re.compile(r"^(?P<model>.*)\((?P<effort>[^,()]+),\s*(?P<tools>[^()]+)\)$")


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    if not retrieved:
        raise ImportError_("the CritPt table carries no retrieval date; pass --retrieved")
    if len(paths) != 1:
        raise ImportError_(f"critpt reads one CSV, got {len(paths)}")
    path = Path(paths[0])
    rows = read_csv(path)
    ex = Extract(source, retrieved, files_entry([path]))
    for row in rows:
        name, harness = row["model"].strip(), None
        m = TOOLS.match(name)
        if m:
            name, harness = f"{m['model'].strip()} ({m['effort'].strip()})", m["tools"].strip()
        ex.result(
            name,
            "critpt",
            number(row["challenge_accuracy_pct"]),
            harness=harness,
            notes=(row.get("note") or "").strip() or None,
        )
    return ex
