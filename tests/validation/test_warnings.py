"""Warnings a contributor can trust (issue #30, item 3): the repository's own data validates with none, so a new one
stands out; each benchmark says how low a real score goes, so only a likely fraction is warned about."""

from __future__ import annotations

from pathlib import Path

from sitegen.data import checks, load, validate_repo
from sitegen.problems import WARNING

REPO = Path(__file__).parent.parent.parent


def test_repository_validates_without_warnings():
    """main carries no warnings: each one was reviewed (scores/overrides.yaml `disagrees_with`, a reviewed release
    rule in scores/metadata.yaml) or the benchmark declares its plausible range (methodology/benchmarks.yaml)."""
    _, problems = validate_repo(REPO)
    assert [p.format() for p in problems] == []


def test_plausible_min_reads_the_reviewed_declaration():
    assert checks.plausible_min({"id": "mmlu-pro"}) == 1  # undeclared: below 1 looks like a fraction
    assert checks.plausible_min({"id": "arc-agi-2", "plausible": {"min": 0, "reason": "no guessing floor"}}) == 0
    assert checks.plausible_min({"id": "x", "plausible": {"min": 0.5, "reason": "r"}}) == 0.5
    assert checks.plausible_min({"id": "x", "plausible": {"min": True, "reason": "r"}}) == 1  # schema rejects it
    assert checks.plausible_min({"id": "x", "plausible": "0"}) == 1


def _fraction_warnings(benchmark: dict, value: float) -> list[str]:
    class Repo:
        models, imported, overrides = [], [], None

    index = checks.Index.__new__(checks.Index)
    index.repo, index.benchmarks = Repo(), {benchmark["id"]: (benchmark, _Doc(), ("benchmarks", 0))}
    index.results = lambda: iter([(_Doc(), ("results", 0), {"benchmark": benchmark["id"], "value": value},
                                   "acme/widget-1", "paper", "2025-06-01")])
    return [p.message for p in checks.values_within_scale(index) if p.severity == WARNING]


class _Doc:
    path = "scores/models/acme/widget-1.yaml"

    def mark(self, *path):
        return 1, 1

    value_mark = mark


def test_fraction_rule_uses_each_benchmarks_range():
    percent = {"min": 0, "max": 100, "unit": "percent"}
    mmlu_pro = {"id": "mmlu-pro", "scale": percent}
    arc = {"id": "arc-agi-2", "scale": percent, "plausible": {"min": 0, "reason": "no guessing floor"}}
    half = {"id": "half", "scale": percent, "plausible": {"min": 0.5, "reason": "one task of 200"}}
    assert _fraction_warnings(mmlu_pro, 0.62) == ["0.62 looks like a fraction"]  # 62% written as a fraction
    assert _fraction_warnings(arc, 0.4) == []  # a real 0.4% on ARC-AGI-2
    assert _fraction_warnings(arc, 0.62) == []
    assert _fraction_warnings(half, 0.3) == ["0.3 looks like a fraction"]  # below the declared floor
    assert _fraction_warnings(half, 0.5) == []
    assert _fraction_warnings(mmlu_pro, 1) == [] and _fraction_warnings(mmlu_pro, 0) == []


def test_real_registry_declares_sub_one_scores_only_with_a_reason():
    """Every `plausible` in methodology/benchmarks.yaml has a reason; MMLU-Pro (ten choices, a 10% guessing floor)
    declares none, so a 0.62 there is still warned about."""
    repo, _ = load.load_repo(REPO)
    entries = {b["id"]: b for b in repo.benchmarks.data["benchmarks"]}
    declared = {bid for bid, b in entries.items() if "plausible" in b}
    assert {"arc-agi-2", "hle", "frontiermath-tier-1-3", "terminal-bench-hard"} <= declared
    assert "mmlu-pro" not in declared and "gpqa-diamond" not in declared
    assert all(len(entries[bid]["plausible"]["reason"]) > 40 for bid in declared)
    assert _fraction_warnings(entries["mmlu-pro"], 0.62) == ["0.62 looks like a fraction"]
    assert _fraction_warnings(entries["arc-agi-2"], 0.4) == []


# ---------------------------------------------------------------- the commands' summaries and CI's strict gate

def _base_with_fraction(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "repo"
    shutil.copytree(Path(__file__).parent / "base", root)
    shutil.copytree(Path(__file__).parent / "cases" / "fraction-warning" / "files", root, dirs_exist_ok=True)
    return root


def _run(*args: str):
    from click.testing import CliRunner

    from sitegen.cli import main

    return CliRunner().invoke(main, list(args), env={"GITHUB_ACTIONS": "false"})


def test_max_warnings_fails_on_more_warnings_and_lists_them(tmp_path):
    root = _base_with_fraction(tmp_path)
    line = ("scores/models/acme/widget-1.yaml:6:12: warning: results[0].value: 0.634 looks like a fraction (percent "
            "benchmarks are on 0–100: write 63.4?; if scores below 1% are real on quiz, declare plausible: {min: 0, "
            "reason: ...} in methodology/benchmarks.yaml)")
    strict = _run("validate", "--root", str(root), "--max-warnings", "0")
    assert strict.exit_code == 1
    assert strict.output.splitlines() == [
        line, "0 errors, 1 warning (more than --max-warnings 0 allows: review each, or fix the data)"]
    assert _run("validate", "--root", str(root), "--max-warnings", "1").exit_code == 0
    plain = _run("validate", "--root", str(root))
    assert plain.exit_code == 0 and plain.output == "0 errors, 1 warning (list them with --warnings)\n"
    assert _run("validate", "--root", str(root), "--max-warnings", "-1").exit_code == 2  # click refuses it


def test_ci_validates_with_max_warnings_zero():
    text = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "sitegen validate --max-warnings 0 --root ." in text.splitlines()


def test_an_unchanged_rebuild_counts_the_warnings_its_inputs_have(tmp_path, monkeypatch):
    """The up-to-date shortcut (site/.sitegen-inputs) reports the warnings the build that wrote the stamp found, so
    a no-change rebuild does not say '0 warnings' while validate says 1."""
    import sys

    sys.path.insert(0, str(REPO / "tests" / "hardening"))
    from hardkit import dump, make_tree, model_doc

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    for name in ("GITHUB_REPOSITORY", "SITEGEN_SITE_URL", "GITHUB_SERVER_URL"):
        monkeypatch.delenv(name, raising=False)
    root = make_tree(tmp_path / "repo")
    dump(root / "scores/models/acme/slip.yaml", model_doc("acme/slip", {"gpqa-diamond": 0.62}))
    validated = _run("validate", "--root", str(root))
    first = _run("build", "--root", str(root), "--quiet")
    second = _run("build", "--root", str(root), "--quiet")
    assert validated.output.splitlines()[-1] == "0 errors, 1 warning (list them with --warnings)"
    assert first.exit_code == second.exit_code == 0, first.output + second.output
    assert "0 errors, 1 warning (list them with --warnings)" in first.output.splitlines()
    assert second.output.splitlines()[:2] == [
        "0 errors, 1 warning (list them with --warnings)",
        f"wrote {root / 'site'}: up to date (nothing changed since the last build of {root / 'site'})"]
    listed = _run("build", "--root", str(root), "--quiet", "--warnings")
    assert listed.output.splitlines()[0].startswith(
        "scores/models/acme/slip.yaml:") and "0.62 looks like a fraction" in listed.output
