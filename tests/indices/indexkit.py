"""Helpers for the index tests: inline frames with ARCHITECTURE.md's columns, and the methodology files."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
RESULT_COLUMNS = ["model", "benchmark", "metric", "subset", "harness", "value", "source", "retrieved", "published",
                  "public_by", "url", "n", "stderr", "ci_low", "ci_high", "self_reported", "origin"]
MODEL_COLUMNS = ["model", "name", "organization", "released", "weights", "reasoning", "total_b", "active_b",
                 "input_per_mtok", "output_per_mtok", "pricing_as_of", "pricing_source", "manual_iq",
                 "manual_iq_source", "family", "context_window", "licence"]


def results(*rows: dict) -> pd.DataFrame:
    """A results frame; unspecified cells take neutral defaults (`published`: the retrieval, as "public by")."""
    base = {"metric": "", "subset": "", "harness": "", "source": "src", "retrieved": "2025-10-01", "url": "",
            "n": math.nan, "stderr": math.nan, "ci_low": math.nan, "ci_high": math.nan,
            "self_reported": False, "origin": "scores/imported/src.yaml"}
    full = [{**base, **r} for r in rows]
    for row, given in zip(full, rows):
        row.setdefault("published", row["retrieved"])
        row.setdefault("public_by", "published" not in given)
    return pd.DataFrame(full, columns=RESULT_COLUMNS)


def scores(source: str = "src", **by_model: dict[str, float]) -> pd.DataFrame:
    """results(...) from {model: {benchmark: value}} keyword arguments (model ids use '__' for '/')."""
    rows = [{"model": m.replace("__", "/"), "benchmark": b, "value": v, "source": source}
            for m, bench in by_model.items() for b, v in bench.items()]
    return results(*rows)


def models(*rows: dict) -> pd.DataFrame:
    """A models frame; unknown cells are None."""
    return pd.DataFrame([{c: r.get(c) for c in MODEL_COLUMNS} for r in rows], columns=MODEL_COLUMNS)


def definition(index_id: str) -> dict:
    return yaml.safe_load((ROOT / "methodology/indices" / f"{index_id}.yaml").read_text(encoding="utf-8"))


def benchmarks() -> list[dict]:
    return yaml.safe_load((ROOT / "methodology/benchmarks.yaml").read_text(encoding="utf-8"))["benchmarks"]


def download(name: str, root: Path = ROOT) -> Path:
    """A source capture in downloads/ (listed in scores/sources.yaml). A file whose terms forbid redistribution
    is not in the repository: the test that needs it skips, saying how to get it; any other missing file fails."""
    from sitegen.importers import captures

    path = root / "downloads" / name
    cap = next((c for c in captures(root) if c.name == name), None)
    assert cap is not None, f"{name} is not listed in scores/sources.yaml"
    if not cap.redistributable and not path.is_file():
        # not about the environment: no CI machine can have such a file, so CI keeps this skip (tests/conftest.py)
        pytest.skip(f"{name}: its source's terms forbid redistribution, so it is not in the repository; "
                    f"to run this test, get it into downloads/ ({cap.download})")
    return path


def row(board: dict, model: str) -> dict:
    return next(r for r in board["rows"] if r["model"] == model)


def comp(r: dict, cid: str) -> dict:
    return next(c for c in r["components"] if c["id"] == cid)
