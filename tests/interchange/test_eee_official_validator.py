"""Our Every Eval Ever export, checked by EEE's own validator (`every_eval_ever validate`, package every-eval-ever
on PyPI), then imported back.

The validator needs Python >= 3.12, which sitegen does not: tools/test.sh makes its environment, .venv-eee, before
pytest starts, at the versions eee-requirements.txt pins (the one verified to accept our export, and its
dependencies). The test installs nothing and uses no network; where that environment is missing it says so, and
fails in CI (tests/conftest.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from sitegen.interchange import eee, hf
from sitegen.interchange.records import Benchmarks, resolver

HERE = Path(__file__).parent
REQUIREMENTS = HERE / "eee-requirements.txt"
#: every-eval-ever, verified to accept our export (schema 0.3.0): the pin tools/test.sh installs
EEE_VERSION = re.search(r"^every-eval-ever==(\S+)$", REQUIREMENTS.read_text(encoding="utf-8"), re.M).group(1)
#: where tools/test.sh makes the validator's environment (SITEGEN_EEE_VENV names another one)
EEE_VENV = Path(os.environ.get("SITEGEN_EEE_VENV") or HERE.resolve().parents[1] / ".venv-eee")
BENCHMARKS = Benchmarks.load(HERE.resolve().parents[1])
MODELS = {
    "tesslate/omnicoder-9b": {"name": "OmniCoder-9B"},
    "01-ai/yi-1.5-34b-chat": {"name": "Yi-1.5-34B-Chat", "organization": "01.AI"},
    "tencentarc/llama-pro-8b-instruct": {"name": "LLaMA-Pro-8B-Instruct"},
}
RESOLVE = resolver(models=MODELS)


@pytest.fixture(scope="session")
def eee_validate():
    """A function running the official validator on files below a folder; it returns the JSON report."""
    python = EEE_VENV / "bin" / "python"
    if not python.exists():
        # about the environment: fails under CI=true (tests/conftest.py), where tools/test.sh has prepared it
        pytest.skip(f"the official EEE validator's environment {EEE_VENV} is missing: `bash tools/test.sh` makes it "
                    "(it needs a Python >= 3.12: python3.12+ on PATH or under pyenv)")
    found = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('every-eval-ever'))"],
                           capture_output=True, text=True, timeout=120)
    assert found.stdout.strip() == EEE_VERSION, (
        f"{EEE_VENV} has every-eval-ever {found.stdout.strip() or found.stderr.strip()[-200:]}, not {EEE_VERSION}: "
        "`bash tools/test.sh` remakes it")

    def validate(folder: Path, files: list[str]) -> list[dict]:
        run = subprocess.run([str(python), "-m", "every_eval_ever", "validate", "--format", "json", *files],
                             cwd=folder, capture_output=True, text=True, timeout=300)
        assert run.stdout.strip(), run.stderr
        return json.loads(run.stdout)

    return validate


def _records() -> list[dict]:
    """What the real files import as, plus hand-made records using every field the export writes."""
    real = HERE / "fixtures" / "real"
    logs = [p.read_text(encoding="utf-8") for p in sorted((real / "eee").glob("*.json"))]
    out = eee.import_eee(logs, source="eee-files", benchmarks=BENCHMARKS, resolve=RESOLVE)
    card = hf.import_model_index((real / "omnicoder-9b" / "README.md").read_text(encoding="utf-8"), source="hf-cards",
                                 retrieved="2026-11-20", benchmarks=BENCHMARKS, resolve=RESOLVE)
    records = [{**r, "source": "eee-files", "retrieved": r.get("retrieved", out.doc["retrieved"])} for r in out.results]
    records += [{**r, "source": "hf-cards", "retrieved": "2026-11-20"} for r in card.results]
    records += [
        {"model": "01-ai/yi-1.5-34b-chat", "benchmark": "hle", "metric": "calibration-error", "subset": "text-only",
         "harness": "inspect_ai", "value": 79.5, "stderr": 1.2, "ci95": [77.1, 81.9], "n": 2158,
         "url": "https://example.org/hle", "notes": "With tools", "source": "hand", "retrieved": "2026-01-02"},
        {"model": "01-ai/yi-1.5-34b-chat", "benchmark": "lmarena-text", "value": 1210, "self_reported": True,
         "source": "hand", "retrieved": "2026-01-02"},
    ]
    return records


def test_export_passes_the_official_validator_and_imports_back(tmp_path, eee_validate):
    records = _records()
    files = eee.to_eee(records, benchmarks=BENCHMARKS, models=MODELS)
    assert len(files) == len(records) == 6
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    report = eee_validate(tmp_path, sorted(files))
    assert [(r["file"], r["valid"], r["errors"], r.get("warnings", [])) for r in report] == [
        (path, True, [], []) for path in sorted(files)]
    again = eee.import_eee([(tmp_path / p).read_text(encoding="utf-8") for p in files], source="x",
                           benchmarks=BENCHMARKS, resolve=RESOLVE)
    assert again.skipped == [] and again.unmatched == []
    drop = ("source",)
    assert sorted((json.dumps({k: v for k, v in r.items() if k not in drop}, sort_keys=True) for r in records)) == \
        sorted(json.dumps({**r, "retrieved": r.get("retrieved", again.doc["retrieved"])}, sort_keys=True)
               for r in again.results)


def test_the_official_validator_rejects_the_old_layout(tmp_path, eee_validate):
    """The check above means something: a file outside data/ or not named by a UUID4 fails."""
    (name, text), *_ = eee.to_eee(_records()[:1], benchmarks=BENCHMARKS, models=MODELS).items()
    bad = tmp_path / "eee" / "mmlu-pro" / "01-ai" / "yi-1.5-34b-chat" / "not-a-uuid.json"
    bad.parent.mkdir(parents=True)
    bad.write_text(text, encoding="utf-8")
    (report,) = eee_validate(tmp_path, [bad.relative_to(tmp_path).as_posix()])
    assert report["valid"] is False


def test_board_export_end_to_end(root, tmp_path, eee_validate):
    """The real files imported with `sitegen interchange`, the boards exported with `sitegen export --format eee`,
    the files checked by EEE's validator and imported back: the same numbers on the same models."""
    from click.testing import CliRunner

    from sitegen.cli import main

    def run(*args):
        result = CliRunner().invoke(main, [str(a) for a in args], env={"GITHUB_ACTIONS": "false"})
        assert result.exit_code == 0, result.output
        return result

    real = HERE / "fixtures" / "real"
    run("interchange", "hf-model-index", "hf-cards", real / "omnicoder-9b" / "README.md", "--retrieved", "2026-11-20",
        "--root", root)
    run("interchange", "eee", "eee-files", real / "eee" / "676f4465-ce78-411a-9f5a-c97b3d2eac4f.json", "--root", root)
    out = tmp_path / "export"
    run("export", "--format", "eee", "--out", out, "--root", root)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.json"))
    assert [f.rsplit("/", 1)[0] for f in files] == [
        "data/gpqa-diamond/tesslate/omnicoder-9b", "data/mmlu-pro/01-ai/yi-1.5-34b-chat",
        "data/terminal-bench-2/tesslate/omnicoder-9b"]
    report = eee_validate(out, files)
    assert [(r["file"], r["valid"], r["errors"], r.get("warnings", [])) for r in report] == [
        (f, True, [], []) for f in files]
    back = run("interchange", "eee", "eee-files", *(out / f for f in files), "--print", "--root", root)
    assert yaml.safe_load(back.stdout)["results"] == [
        {"model": "01-ai/yi-1.5-34b-chat", "benchmark": "mmlu-pro", "harness": "MMLU-Pro leaderboard (TIGER-Lab)",
         "value": 52.29, "retrieved": "2026-05-01"},  # eee-files is the board's first source; old-import's 50 loses
        {"model": "tesslate/omnicoder-9b", "benchmark": "gpqa-diamond", "value": 83.8, "self_reported": True},
        {"model": "tesslate/omnicoder-9b", "benchmark": "terminal-bench-2", "value": 28.1, "self_reported": True},
    ]
