"""`sitegen interchange` on the real files, in a small repository made here: what it writes, and each refusal
(an existing file without --force, an unregistered SOURCE or a path, a document that does not validate), where it
exits 1 and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sitegen.cli import main

HERE = Path(__file__).parent
REAL = HERE / "fixtures" / "real"
OMNICODER = REAL / "omnicoder-9b" / "README.md"
FALCON = REAL / "falcon-mamba-7b" / "README.md"
TIGER = REAL / "eee" / "676f4465-ce78-411a-9f5a-c97b3d2eac4f.json"
ENV = {"GITHUB_ACTIONS": "false"}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], env=ENV)


def _tree(root: Path) -> dict:
    """Every file beside and below the repository, to see that nothing was written anywhere."""
    files = sorted(p for p in root.parent.rglob("*") if p.is_file())
    return {p.relative_to(root.parent).as_posix(): p.read_bytes() for p in files}


def _results(root: Path, source: str) -> list[dict]:
    return yaml.safe_load((root / "scores" / "imported" / f"{source}.yaml").read_text(encoding="utf-8"))["results"]


def test_model_card_import_writes_a_valid_file(root):
    result = run("interchange", "hf-model-index", "hf-cards", OMNICODER, "--retrieved", "2026-11-20", "--root", root)
    assert result.exit_code == 0, result.output
    assert "hf-cards: wrote scores/imported/hf-cards.yaml (2 results)" in result.output
    assert "skipped 'OmniCoder-9B: AIME 2025 pass@5': pass@5 is not aime-2025's primary value" in result.output
    assert _results(root, "hf-cards") == [
        {"model": "tesslate/omnicoder-9b", "benchmark": "gpqa-diamond", "value": 83.8, "self_reported": True},
        {"model": "tesslate/omnicoder-9b", "benchmark": "terminal-bench-2", "value": 28.1, "self_reported": True},
    ]
    check = run("validate", "--root", root)
    assert check.exit_code == 0, check.output


def test_eee_import_writes_a_valid_file(root):
    result = run("interchange", "eee", "eee-files", TIGER, "--root", root)
    assert result.exit_code == 0, result.output
    assert _results(root, "eee-files") == [{"model": "01-ai/yi-1.5-34b-chat", "benchmark": "mmlu-pro",
                                            "harness": "MMLU-Pro leaderboard (TIGER-Lab)", "value": 52.29}]
    assert run("validate", "--root", root).exit_code == 0


def test_refuses_to_overwrite_without_force(root):
    before = _tree(root)
    result = run("interchange", "eee", "old-import", TIGER, "--root", root)
    assert result.exit_code == 1
    assert ("scores/imported/old-import.yaml: (file): file already exists (pass --force to replace it"
            in result.output)
    assert "nothing written" in result.output
    assert _tree(root) == before
    forced = run("interchange", "eee", "old-import", TIGER, "--force", "--root", root)
    assert forced.exit_code == 0, forced.output
    assert _results(root, "old-import")[0]["value"] == 52.29


@pytest.mark.parametrize("source", ["not-registered", "../../../evil", "../models/tesslate/omnicoder-9b", "ignore",
                                    "/tmp/evil"])
def test_refuses_unregistered_sources_and_paths(root, source):
    before = _tree(root)
    result = run("interchange", "eee", source, TIGER, "--force", "--root", root)
    assert result.exit_code == 1
    assert "is not a registered source id (SOURCE is an id from scores/sources.yaml, not a path" in result.output
    assert _tree(root) == before


def test_refuses_a_document_that_does_not_validate(root, tmp_path):
    """Two cards giving the same model's GPQA Diamond: the file would repeat a result, so nothing is written."""
    copy = tmp_path / "again" / "README.md"
    copy.parent.mkdir()
    copy.write_text(OMNICODER.read_text(encoding="utf-8"), encoding="utf-8")
    before = _tree(root)
    result = run("interchange", "hf-model-index", "hf-cards", OMNICODER, copy, "--retrieved", "2026-11-20",
                 "--root", root)
    assert result.exit_code == 1
    assert "scores/imported/hf-cards.yaml:" in result.output and "the same result is given twice" in result.output
    assert "nothing written" in result.output
    assert _tree(root) == before


def test_refuses_a_future_retrieval_date(root):
    before = _tree(root)
    result = run("interchange", "hf-model-index", "hf-cards", OMNICODER, "--retrieved", "2999-01-01", "--root", root)
    assert result.exit_code == 1
    assert "scores/imported/hf-cards.yaml:4:12: retrieved: 2999-01-01 is in the future" in result.output
    assert "nothing written" in result.output
    assert _tree(root) == before


def test_print_writes_nothing(root):
    before = _tree(root)
    # hf-cards is registered and has no file yet; old-import is registered and has one: --print needs no --force
    for source in ("hf-cards", "old-import"):
        result = run("interchange", "hf-model-index", source, FALCON, "--retrieved", "2026-11-20", "--print",
                     "--root", root)
        assert result.exit_code == 0, result.output
        assert f"source: {source}" in result.output and "results: []" in result.output
        assert "Open LLM Leaderboard v2 score (normalised" in result.output
    assert _tree(root) == before


@pytest.mark.parametrize("source", ["not-registered", "../models/tesslate/omnicoder-9b"])
def test_print_refuses_a_source_not_in_the_registry(root, source):
    """--print shows the file `interchange` would write: for a SOURCE that could never be written, it is refused."""
    before = _tree(root)
    result = run("interchange", "hf-model-index", source, FALCON, "--retrieved", "2026-11-20", "--print",
                 "--root", root)
    assert result.exit_code == 1
    assert "is not a registered source id (SOURCE is an id from scores/sources.yaml, not a path" in result.output
    assert "results:" not in result.output
    assert _tree(root) == before
