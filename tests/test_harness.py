"""benchmarks/harness.py's pure parts: the peers' Markdown pages, the printed table and the target lines.

The harness itself runs in .ci/run (a small smoke run); here only what it writes and prints from given data."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("harness", ROOT / "benchmarks" / "harness.py")
harness = importlib.util.module_from_spec(spec)
sys.modules["harness"] = harness
spec.loader.exec_module(harness)

DATA = {
    "models": [{"id": "acme/a-1", "name": "A|1", "org": "Acme",
                "results": [["hle", "HLE", 12.5, "epoch", "2026-01-02"], ["gpqa", "GPQA", None, "epoch", "2026-01-02"]]},
               {"id": "acme/b", "name": "B", "org": "Acme", "results": []}],
    "boards": [{"id": "ai-iq", "title": "AI IQ", "rows": [[1, "acme/a-1", "A|1", 101.0], [None, "acme/b", "B", None]]}],
    "benchmarks": [{"id": "hle", "title": "HLE", "rows": [[1, "acme/a-1", "A|1", 12.5]]}],
    "methodology": {"index.md": "# Methodology\n\ntext\n"},
}


def test_markdown_pages_one_per_model_board_benchmark_and_methodology_page():
    pages = harness.markdown_pages(DATA)
    assert sorted(pages) == ["benchmarks/hle.md", "boards/ai-iq.md", "index.md", "methodology/index.md",
                             "models/acme/a-1.md", "models/acme/b.md"]
    model = pages["models/acme/a-1.md"]
    assert model.startswith('---\ntitle: "A|1"\n---\n\n# A\\|1\n')  # a pipe in a name would end the table cell
    assert "| [HLE](../../../benchmarks/hle/) | 12.5 | epoch | 2026-01-02 |" in model  # from models/acme/a-1/
    assert "| [GPQA](../../../benchmarks/hle/)" not in model and "| unknown |" in model  # unknown, never 0
    board = pages["boards/ai-iq.md"]
    assert "| 1 | [A\\|1](../../models/acme/a-1/) | 101 |" in board
    assert "| unknown | [B](../../models/acme/b/) | unknown |" in board


def test_peer_sources_give_hugo_section_indexes_not_leaf_bundles(tmp_path):
    projects = harness.write_peer_sources(DATA, tmp_path)
    hugo, mkdocs = projects["hugo"], projects["mkdocs-material"]
    assert (hugo / "content" / "_index.md").exists() and (hugo / "content" / "methodology" / "_index.md").exists()
    assert not list((hugo / "content").rglob("index.md"))
    assert (mkdocs / "docs" / "methodology" / "index.md").exists()
    assert "navigation.prune" in (mkdocs / "mkdocs.yml").read_text()


def test_table_has_every_column_and_marks_what_a_tool_lacks():
    rows = [{"models": 1000, "tool / sitegen stage": "hugo", "pages": 1040, "wall s": 1.234, "CPU s": 2.0,
             "PSS MB": 120.4, "peak MB": 99.6, "ms/model": 1.234, "site MB": 4.5, "kB/model": 4.5, "search MB": None},
            {"tool / sitegen stage": "  load", "wall s": 0.5, "CPU s": 0.4, "peak MB": 100.0, "ms/model": 0.5}]
    head, hugo, stage = harness.table(rows).splitlines()
    for column in harness.COLUMNS:
        assert column in head
    assert hugo.split() == ["1,000", "hugo", "1,040", "1.23", "2.00", "120", "100", "1.2", "4.50", "4.5", "-"]
    assert stage.split() == ["load", "0.50", "0.40", "100", "0.5"]  # columns a stage has no value for stay blank


def test_targets_say_which_hold():
    results = {5000: {"sitegen": {"wall": 30.0, "cpu": 40.0, "pss": 900.0}, "hugo": {"wall": 10.0},
                      "mkdocs-material": {"wall": 200.0}},
               20000: {"sitegen": {"wall": 100.0, "cpu": 170.0, "pss": 2500.0}}}
    assert harness.targets(results) == [
        "5,000 models <= 5x Hugo's wall time: sitegen 30.0 s, hugo 10.0 s = 3.0x: holds",
        "5,000 models >= 3x faster than mkdocs-material: sitegen 30.0 s, mkdocs-material 200.0 s = 6.7x: holds",
        "20,000 models <= 120 s: 100.0 s: holds; <= 2 GB PSS summed over all processes: 2500 MB: does NOT hold",
        "CPU time per model within 15%: 5,000: 8.0 ms, 20,000: 8.5 ms (largest / smallest 1.06): holds",
    ]


def test_a_stopped_build_gives_lower_bounds_and_no_verdict_it_cannot_support():
    results = {1000: {"sitegen": {"wall": 5.0, "cpu": 6.0, "pss": 900.0, "stopped": ""}},
               20000: {"sitegen": {"wall": 600.0, "cpu": 590.0, "pss": 1500.0, "stopped": "stopped at 600 s"}}}
    assert harness.targets(results) == [
        "20,000 models <= 120 s: >= 600 s (stopped at 600 s): does NOT hold; <= 2 GB PSS summed over all processes: "
        ">= 1500 MB: not known (stopped)",
        "CPU time per model within 15%: 1,000: 6.0 ms, 20,000: >= 29.5 ms (largest / smallest 4.92): does NOT hold",
    ]


def test_results_file_keeps_the_figures_recorded_by_hand(tmp_path):
    path = tmp_path / "RESULTS.md"
    harness.write_results(path, "# Benchmark results\n\nfirst run\n")
    assert path.read_text().endswith(harness.KEPT + "\n\nNothing yet.\n")
    path.write_text(path.read_text().replace("Nothing yet.", "5,000 models: 51.7 s (2026-11-20)"))
    harness.write_results(path, "# Benchmark results\n\nsecond run\n")
    text = path.read_text()
    assert "second run" in text and "first run" not in text and "5,000 models: 51.7 s (2026-11-20)" in text


def test_ai_iq_edit_moves_the_value_ai_iq_observes_for_a_ranked_model(tmp_path):
    board = {"rows": [
        {"model": "acme/unranked", "rank": None,
         "components": [{"kind": "benchmark", "how": "observed", "id": "hle", "source": "epoch", "raw": 10.0}]},
        {"model": "acme/only-imported", "rank": 1,
         "components": [{"kind": "benchmark", "how": "observed", "id": "hle", "source": "epoch", "raw": 10.0}]},
        {"model": "acme/b-2", "rank": 2,
         "components": [{"kind": "dimension", "how": "observed", "id": "academic", "source": None, "raw": None},
                        {"kind": "benchmark", "how": "imputed", "id": "gpqa", "source": None, "raw": None},
                        {"kind": "benchmark", "how": "observed", "id": "hle", "source": "epoch", "raw": 12.5}]},
    ]}
    (tmp_path / "site/api/v1/indices").mkdir(parents=True)
    (tmp_path / "site/api/v1/indices/ai-iq.json").write_text(json.dumps(board), encoding="utf-8")
    (tmp_path / "scores/models/acme").mkdir(parents=True)
    unranked = "results:\n- benchmark: hle\n  value: 10.0\n  source: epoch\n"
    (tmp_path / "scores/models/acme/unranked.yaml").write_text(unranked, encoding="utf-8")
    model = ("id: acme/b-2\nresults:\n- benchmark: hle\n  value: 12.5\n  source: other-lab\n"
             "- benchmark: hle\n  value: 3.0\n  source: epoch\n- benchmark: hle\n  value: 12.5\n  source: epoch\n")
    (tmp_path / "scores/models/acme/b-2.yaml").write_text(model, encoding="utf-8")
    assert harness.edit_ai_iq_value(tmp_path, -1) == "scores/models/acme/b-2.yaml (hle, epoch)"
    # only the observed result (its benchmark, source and value) moved, by a tenth; the unranked model's file not
    assert (tmp_path / "scores/models/acme/b-2.yaml").read_text(encoding="utf-8") == model.replace(
        "  value: 12.5\n  source: epoch", "  value: 12.4\n  source: epoch")
    assert (tmp_path / "scores/models/acme/unranked.yaml").read_text(encoding="utf-8") == unranked


def test_ai_iq_edit_without_an_observed_result_in_a_model_file_stops(tmp_path):
    (tmp_path / "site/api/v1/indices").mkdir(parents=True)
    (tmp_path / "site/api/v1/indices/ai-iq.json").write_text(json.dumps({"rows": []}), encoding="utf-8")
    with pytest.raises(SystemExit, match="no result AI IQ observes"):
        harness.edit_ai_iq_value(tmp_path, 1)
