"""A small repository for the interchange commands: the project's benchmark registry and names table, three
registered sources (hf-cards, eee-files, old-import, which already has an imported file), the models the real files
name, and a per-benchmark board definition."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).parent
BOARDS = """id: benchmark-boards
kind: benchmark-boards
name: Per-benchmark boards
version: "1"
unit: ""
precision: 4
publish: when-data
description: One row per model and benchmark.
selection:
  metric: ""
  subset: ""
  order: [independent-first, source-precedence, newest, highest]
  sources: [eee-files, hf-cards]
"""


def _source(source_id: str) -> dict:
    return {"id": source_id, "name": f"Test source {source_id}", "url": "https://example.org/", "licence": "unknown",
            "attribution": "Test data", "provenance": "secondary"}


@pytest.fixture
def root(tmp_path) -> Path:
    """The repository described above, in tmp_path/repo."""
    repo = tmp_path / "repo"
    (repo / "methodology").mkdir(parents=True)
    shutil.copy(HERE.parents[1] / "methodology" / "benchmarks.yaml", repo / "methodology" / "benchmarks.yaml")
    shutil.copy(HERE.parents[1] / "methodology" / "interchange-names.yaml", repo / "methodology")
    (repo / "scores" / "imported").mkdir(parents=True)
    sources = {"sources": [_source("hf-cards"), _source("eee-files"), _source("old-import")]}
    (repo / "scores" / "sources.yaml").write_text(yaml.safe_dump(sources, sort_keys=False), encoding="utf-8")
    for model_id, name, org, aliases in (("tesslate/omnicoder-9b", "OmniCoder-9B", "Tesslate", []),
                                         ("tiiuae/falcon-mamba-7b", "Falcon Mamba 7B", "TII", ["falcon-mamba-7b"]),
                                         ("01-ai/yi-1.5-34b-chat", "Yi-1.5-34B-Chat", "01.AI", [])):
        path = repo / "scores" / "models" / f"{model_id}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        doc = {"id": model_id, "name": name, "release": model_id, "organization": org,
               **({"aliases": aliases} if aliases else {})}
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    (repo / "scores" / "imported" / "old-import.yaml").write_text(
        "source: old-import\nretrieved: '2026-01-01'\nresults:\n- model: 01-ai/yi-1.5-34b-chat\n  benchmark: mmlu-pro\n"
        "  value: 50\n", encoding="utf-8")
    (repo / "methodology" / "indices").mkdir()
    (repo / "methodology" / "indices" / "benchmark-boards.yaml").write_text(BOARDS, encoding="utf-8")
    return repo
