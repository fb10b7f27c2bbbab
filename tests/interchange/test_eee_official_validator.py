"""Our Every Eval Ever export, checked by EEE's own validator (`every_eval_ever validate`, package every-eval-ever
on PyPI), then imported back.

The validator needs Python >= 3.12, which sitegen does not: the test builds a venv for it once with the first
Python >= 3.12 it finds (this interpreter, python3.1x on PATH, or pyenv's), caches it by version under the user's
cache folder, and skips, saying why, only where no such Python exists. The version is pinned to the one verified."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from sitegen.interchange import eee, hf
from sitegen.interchange.records import Benchmarks, resolver

EEE_VERSION = "0.3.0"  # every-eval-ever, verified to accept our export (schema 0.3.0)
HERE = Path(__file__).parent
BENCHMARKS = Benchmarks.load(HERE.resolve().parents[1])
MODELS = {
    "tesslate/omnicoder-9b": {"name": "OmniCoder-9B"},
    "01-ai/yi-1.5-34b-chat": {"name": "Yi-1.5-34B-Chat", "organization": "01.AI"},
    "tencentarc/llama-pro-8b-instruct": {"name": "LLaMA-Pro-8B-Instruct"},
}
RESOLVE = resolver(models=MODELS)


def _python_312() -> str | None:
    """The first interpreter >= 3.12 that runs: this one, python3.1x on PATH, or one of pyenv's versions."""
    if sys.version_info >= (3, 12):
        return sys.executable
    candidates = [shutil.which(n) for n in ("python3.14", "python3.13", "python3.12")]
    versions = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    if versions.is_dir():
        candidates += [str(p) for p in sorted(versions.glob("3.1[2-9]*/bin/python3"))]
    for candidate in filter(None, candidates):
        check = subprocess.run([candidate, "-c", "import sys; assert sys.version_info >= (3, 12)"],
                               capture_output=True)  # a pyenv shim for a version not selected fails here
        if check.returncode == 0:
            return candidate
    return None


@pytest.fixture(scope="session")
def eee_validate():
    """A function running the official validator on files below a folder; it returns the JSON report."""
    python = _python_312()
    if python is None:
        pytest.skip("the official EEE validator (every-eval-ever) needs Python >= 3.12, and none was found "
                    "(python3.12+ on PATH or under pyenv)")
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cache = cache_home / "sitegen" / f"every-eval-ever-{EEE_VERSION}"
    venv_python = cache / "bin" / "python"
    if not venv_python.exists():
        building = cache.with_name(f"{cache.name}.building-{os.getpid()}")
        shutil.rmtree(building, ignore_errors=True)
        subprocess.run([python, "-m", "venv", str(building)], check=True)
        subprocess.run([str(building / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", f"every-eval-ever=={EEE_VERSION}"], check=True, timeout=900)
        try:
            building.rename(cache)  # `python -m every_eval_ever` does not mind the move; console scripts would
        except OSError:
            shutil.rmtree(building, ignore_errors=True)  # another run finished first

    def validate(folder: Path, files: list[str]) -> list[dict]:
        run = subprocess.run([str(venv_python), "-m", "every_eval_ever", "validate", "--format", "json", *files],
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
