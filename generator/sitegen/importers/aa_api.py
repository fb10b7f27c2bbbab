"""Artificial Analysis API `GET /api/v2/data/llms/models` (one JSON per snapshot): evals, indices, prices, dates.

Evals are fractions (x 100 here); the three indices are published on 0-100 as they are. The v4.x index of the
2026 dump is on another scale than v3.0 and cannot be recomputed (its components are not in the API); it is
still AA's published value for that snapshot. MATH-500, AIME 2024, Terminal-Bench 2.1 and tau-banking have no
benchmark id here and are not imported. A 0/0 price means 'no public price' and is left out.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from .extracts import Context, Extract, files_entry, number, one_dated_file, pricing, read_json

SOURCES = ("aa-api-2025-10", "aa-api-2026-07")
#: AA runs HLE on its own question set (seed 000: the 2,684 text-only questions of the original 3,000, judged
#: by GPT-4o), neither the paper's 2,500 nor its text-only subset: every AA importer files HLE under this subset.
AA_HLE_SUBSET = "aa-2684"
SUBSETS = {"hle": AA_HLE_SUBSET}
URL = "https://artificialanalysis.ai/models/{slug}"

INDICES = {
    "artificial_analysis_intelligence_index": "aa-intelligence-index",
    "artificial_analysis_coding_index": "aa-coding-index",
    "artificial_analysis_math_index": "aa-math-index",
}
EVALS = {
    "mmlu_pro": "mmlu-pro",
    "gpqa": "gpqa-diamond",
    "hle": "hle",
    "livecodebench": "livecodebench",
    "scicode": "scicode",
    "aime_25": "aime-2025",
    "ifbench": "ifbench",
    "lcr": "aa-lcr",
    "terminalbench_hard": "terminal-bench-hard",
    "tau2": "tau2-bench-telecom",
}


def extract(paths: list[Path], retrieved: str | None, ctx: Context, source: str = SOURCES[0]) -> Extract:
    path, retrieved = one_dated_file(paths, retrieved, source, "API JSON file")
    data = read_json(path, parse_float=Decimal)
    records = data["data"] if isinstance(data, dict) else data
    ex = Extract(source, retrieved, files_entry([path]))
    for rec in records:
        name = rec["name"].strip()
        url = URL.format(slug=rec["slug"])
        ev = rec.get("evaluations") or {}
        for field, bench in INDICES.items():
            ex.result(name, bench, number(ev.get(field)), url=url)
        for field, bench in EVALS.items():
            ex.result(name, bench, number(ev.get(field), 100), url=url, subset=SUBSETS.get(bench))
        price = rec.get("pricing") or {}
        ex.hint(name, (rec.get("model_creator") or {}).get("name"))
        ex.model(
            name,
            released=rec.get("release_date"),
            reasoning=reasoning_from_name(name),
            pricing=pricing(
                number(price.get("price_1m_input_tokens")), number(price.get("price_1m_output_tokens")), retrieved
            ),
        )
    return ex


_EFFORT = re.compile(r"\((?:[^()]*\b)?(minimal|low|medium|high|xhigh|max)\b[^()]*\)\s*$", re.IGNORECASE)


def reasoning_from_name(name: str) -> bool | None:
    """What AA's display name says about reasoning: "(Reasoning)"/"Thinking" or a reasoning effort such as
    "(high)" mean a reasoning configuration, "(Non-reasoning)" means none; otherwise unknown."""
    lowered = name.lower()
    if "non-reasoning" in lowered or "non reasoning" in lowered:
        return False
    if "reasoning" in lowered or "thinking" in lowered or _EFFORT.search(name):
        return True
    return None
