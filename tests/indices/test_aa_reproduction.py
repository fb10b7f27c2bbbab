"""Real data: our AA v2.2 and v3.0 reproduce the published index (±0.5 and ±0.1, from the YAML) on every complete row.

Reads the captures in downloads/artificial-analysis directly with a small parser, so it does not depend on the importer.
"""

from __future__ import annotations

import csv
import json

import pytest

from indexkit import definition, download, models, results
from sitegen.indices import aa
from sitegen.importers.aa_api import AA_HLE_SUBSET  # AA files HLE under its own question set

LEADERBOARD_COLUMNS = {
    "Artificial Analysis Intelligence Index": "aa-intelligence-index",
    "MMLU-Pro (Reasoning & Knowledge)": "mmlu-pro", "GPQA Diamond (Scientific Reasoning)": "gpqa-diamond",
    "Humanity's Last Exam (Reasoning & Knowledge)": "hle", "LiveCodeBench (Coding)": "livecodebench",
    "SciCode (Coding)": "scicode", "IFBench (Instruction Following)": "ifbench",
    "AIME 2025 (Competition Math)": "aime-2025", "AA-LCR (Long Context Reasoning)": "aa-lcr",
}
API_COLUMNS = {
    "artificial_analysis_intelligence_index": "aa-intelligence-index",
    "artificial_analysis_coding_index": "aa-coding-index", "mmlu_pro": "mmlu-pro",
    "gpqa": "gpqa-diamond", "hle": "hle", "livecodebench": "livecodebench", "scicode": "scicode",
    "aime_25": "aime-2025", "ifbench": "ifbench", "lcr": "aa-lcr", "terminalbench_hard": "terminal-bench-hard",
    "tau2": "tau2-bench-telecom",
}


def number(text: str) -> float | None:
    text = (text or "").strip().rstrip("%")
    if text in ("", "N/A", "-"):
        return None
    return float(text)


def leaderboard_frame(name: str, source: str):
    """One model per (provider, model) row of the providers-leaderboard scrape; evals are whole percent."""
    path = download(f"artificial-analysis/{name}")
    rows = []
    with open(path, newline="", encoding="utf-8") as fh:
        for i, rec in enumerate(csv.DictReader(fh)):
            model = f"row{i:04d}"
            for column, bench in LEADERBOARD_COLUMNS.items():
                value = number(rec[column])
                if value is not None:
                    rows.append({"model": model, "benchmark": bench, "value": value, "source": source,
                                 "subset": AA_HLE_SUBSET if bench == "hle" else ""})
    return results(*rows)


def api_frame(name: str, source: str):
    """The Oct-2025 API snapshot (the API's JSON); evals are fractions, indices 0-100."""
    rows = []
    for rec in json.loads(download(f"artificial-analysis/{name}").read_text(encoding="utf-8")):
        for key, bench in API_COLUMNS.items():
            value = rec["evaluations"].get(key)
            if value is not None:
                scale = 1 if bench.endswith("-index") else 100
                rows.append({"model": rec["slug"], "benchmark": bench, "value": value * scale, "source": source,
                                 "subset": AA_HLE_SUBSET if bench == "hle" else ""})
    return results(*rows)


def check(board: dict, published_id: str, tolerance: float) -> int:
    checked = 0
    for r in board["rows"]:
        pub = next((c for c in r["components"] if c["id"] == published_id), None)
        if r["status"] != "complete" or pub is None or pub["value"] is None:
            continue
        assert abs(r["value"] - pub["value"]) <= tolerance + 1e-9, (r["model"], r["value"], pub["value"])
        checked += 1
    return checked


@pytest.mark.parametrize("name", ["aa_providers_leaderboard_scrape_2025-08-13_a7fdade.csv",
                                  "aa_providers_leaderboard_scrape_2025-08-14_6affa2a.csv"])
def test_v22_reproduces_the_published_index(name):
    d = definition("aa-intelligence-v2-2")
    board = aa.compute(d, leaderboard_frame(name, d["source_snapshot"]), models())
    assert check(board, "aa-intelligence-index", d["reproduction_tolerance"]) >= 200


def test_v30_reproduces_the_published_index():
    d = definition("aa-intelligence-v3-0")
    board = aa.compute(d, api_frame("aa_api_v2_llms_snapshot_2025-10-14.json", d["source_snapshot"]), models())
    assert check(board, "aa-intelligence-index", d["reproduction_tolerance"]) >= 25


def test_v30_coding_index_reproduces():
    d = definition("aa-coding-v3-0")
    board = aa.compute(d, api_frame("aa_api_v2_llms_snapshot_2025-10-14.json", "aa-api-2025-10"), models())
    assert check(board, "aa-coding-index", 0.1) >= 25
