"""The validation cache (data/parsecache.py, data/checks.py FILE_RULES): each per-file rule's verdict is kept with
the file's parse by the file's digest and the day it was judged on, the cross-file rules run every time on lookups
made once (checks.Index.shared); the problems printed are the same, in the same order, with the cache warm or cold
as without it, after any edit."""

from __future__ import annotations

import datetime
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
from hardkit import dump, make_tree

from sitegen.cli import main
from sitegen.data import checks, validate_repo

ALPHA, BETA, GAMMA = "scores/models/acme/alpha.yaml", "scores/models/acme/beta.yaml", "scores/models/zeta/gamma.yaml"
#: The day the tree is judged on (a real day: the real registry's dates are on or before it), and a date after it
DAY = datetime.datetime.now(datetime.UTC).date()
AHEAD = (DAY + datetime.timedelta(days=40)).isoformat()


#: acme/alpha: a reversed interval (intervals_in_order, line 11) and a retrieval after DAY (dates_real_and_past,
#: line 17)
ALPHA_TEXT = f"""id: acme/alpha
name: Alpha
release: acme/alpha
organization: Acme
released: "2025-03"
weights: open
reasoning: false
results:
  - benchmark: hle
    value: 12.5
    ci95: [14, 11]
    source: paper
    retrieved: "2025-06-01"
  - benchmark: gpqa-diamond
    value: 70
    source: paper
    retrieved: "{AHEAD}"
"""
#: acme/beta with the id of another path (model_id_matches_path, line 1)
BETA_TEXT = """id: acme/bet
name: Beta
release: acme/beta
organization: Acme
released: "2025-03"
weights: open
reasoning: false
results:
  - benchmark: hle
    value: 25
    source: paper
    retrieved: "2025-06-01"
"""
#: zeta/gamma with a Cyrillic a in its name (names_not_mixed_script, line 2) and a source the registry does not
#: have (known_references, a cross-file rule, line 15)
GAMMA_TEXT = """id: zeta/gamma
name: G\u0430mma
release: zeta/gamma
organization: Zeta
released: "2025-03"
weights: open
reasoning: false
results:
  - benchmark: hle
    value: 5
    source: paper
    retrieved: "2025-06-01"
  - benchmark: gpqa-diamond
    value: 40
    source: nobody
    retrieved: "2025-06-01"
"""


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """Three models, each with a problem of a per-file rule, and one of a cross-file rule."""
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    monkeypatch.setattr(checks, "today", lambda: DAY)
    root = make_tree(tmp_path / "repo", models=[])
    for rel, text in ((ALPHA, ALPHA_TEXT), (BETA, BETA_TEXT), (GAMMA, GAMMA_TEXT)):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def shown(problems) -> list[str]:
    return [p.format() for p in problems]


def off(root: Path) -> list[str]:
    return shown(validate_repo(root, parse_cache=False)[1])


def counted_judging(monkeypatch) -> list[str]:
    """The files checks.judge_file judges from now on."""
    seen: list[str] = []
    judge = checks.judge_file

    def counting(doc):
        seen.append(doc.path)
        return judge(doc)

    monkeypatch.setattr(checks, "judge_file", counting)
    return seen


def edit(root: Path, rel: str, old: str, new: str) -> None:
    """Replace the first `old` in a file by `new`."""
    text = (root / rel).read_text(encoding="utf-8")
    assert old in text
    (root / rel).write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_fixture_has_each_rule_s_problem(tree):
    lines = [line for line in off(tree) if line.startswith("scores/models/")]
    assert lines == [
        f"{ALPHA}:11:11: results[0].ci95: interval [14, 11] is reversed (write [low, high])",
        f"{ALPHA}:17:16: results[1].retrieved: {AHEAD} is in the future (a date must be on or before today)",
        f"{BETA}:1:5: id: id 'acme/bet' does not match the file's path (write id: acme/beta)",
        f"{GAMMA}:2:7: name: 'G\u0430mma' mixes Latin with Cyrillic letters (look-alike letters from another "
        "script; type the name in one script)",
        f"{GAMMA}:15:13: results[1].source: unknown source 'nobody' (add it to scores/sources.yaml)",
    ], lines


def test_cold_warm_and_edited_runs_print_what_a_run_without_the_cache_prints(tree, monkeypatch):
    expected = off(tree)
    judged = counted_judging(monkeypatch)
    assert shown(validate_repo(tree, keep=True)[1]) == expected  # cold: every file judged, and kept
    assert {ALPHA, BETA, GAMMA} <= set(judged)
    judged.clear()
    assert shown(validate_repo(tree, keep=True)[1]) == expected  # warm: every verdict from the cache
    assert judged == []
    assert shown(validate_repo(tree)[1]) == expected  # as `sitegen validate` reads the entries a build kept

    # an edit that removes a per-file problem: only the edited file is judged again
    edit(tree, ALPHA, "ci95: [14, 11]", "ci95: [11, 14]")
    expected = off(tree)
    assert not any("reversed" in line for line in expected)
    judged.clear()
    assert shown(validate_repo(tree, keep=True)[1]) == expected
    assert judged == [ALPHA]

    # an edit that adds one, in another file
    edit(tree, BETA, "value: 25\n", "value: 25\n    ci95: [30, 20]\n")
    expected = off(tree)
    assert f"{BETA}:11:11: results[0].ci95: interval [30, 20] is reversed (write [low, high])" in expected
    judged.clear()
    assert shown(validate_repo(tree, keep=True)[1]) == expected
    assert judged == [BETA]

    # an edit of another file that changes a cross-file verdict on an unchanged file: gamma's unknown source
    # becomes known; gamma is not judged again, and its cross-file problem goes
    sources = yaml.safe_load((tree / "scores/sources.yaml").read_text(encoding="utf-8"))
    sources["sources"].append({**sources["sources"][0], "id": "nobody", "name": "Nobody"})
    dump(tree / "scores/sources.yaml", sources)
    expected = off(tree)
    assert not any("nobody" in line for line in expected), expected
    judged.clear()
    assert shown(validate_repo(tree, keep=True)[1]) == expected
    assert judged == ["scores/sources.yaml"]


def test_a_verdict_of_another_day_is_judged_again(tree, monkeypatch):
    """dates_real_and_past reads the date: a date that was in the future when the verdict was kept is not by the
    next day it is read, and one before today's date can be in the future on an earlier one (a clock set back)."""
    validate_repo(tree, keep=True)
    judged = counted_judging(monkeypatch)
    monkeypatch.setattr(checks, "today", lambda: DAY + datetime.timedelta(days=60))
    later = shown(validate_repo(tree, keep=True)[1])
    assert later == off(tree)
    assert not any("in the future" in line for line in later), later
    assert {ALPHA, BETA, GAMMA} <= set(judged)
    monkeypatch.setattr(checks, "today", lambda: datetime.date(2025, 5, 31))
    earlier = shown(validate_repo(tree, keep=True)[1])
    assert earlier == off(tree)
    future = [line for line in earlier if line.startswith("scores/models/") and "in the future" in line]
    assert len(future) == 5, earlier  # the four results retrieved 2025-06-01, and alpha's second
    # `sitegen validate` (nothing kept) on a day the entries were not judged on judges them, the same
    monkeypatch.setattr(checks, "today", lambda: DAY)
    assert shown(validate_repo(tree)[1]) == off(tree)


def test_a_bad_month_does_not_stop_the_date_rule(tree):
    """A retrieval month without a day ("2025-13") is the schema's problem; the date rule skips it and still judges
    every file after it: gamma's date in the future is reported, cold and warm."""
    edit(tree, BETA, 'retrieved: "2025-06-01"', 'retrieved: "2025-13"')
    edit(tree, GAMMA, 'retrieved: "2025-06-01"', f'retrieved: "{AHEAD}"')
    expected = off(tree)
    assert any(line.startswith(f"{ALPHA}:17:16:") and "in the future" in line for line in expected), expected
    assert any(line.startswith(f"{GAMMA}:") and "in the future" in line for line in expected), expected
    assert not any(line.startswith(f"{BETA}:") and "in the future" in line for line in expected), expected
    assert shown(validate_repo(tree, keep=True)[1]) == expected
    assert shown(validate_repo(tree, keep=True)[1]) == expected


def test_a_rule_that_raises_on_a_file_stops_there_warm_as_cold(tree, monkeypatch):
    """A per-file rule that raises on a file (here the date rule made to raise on beta's month, standing in for any
    rule's bug) reports what it found in the files before that one and nothing after (run_checks drops the rest),
    and a warm run keeps that to the letter."""
    real = checks._parsed_date

    def raising(value: str):
        if value == "2025-13":
            raise ValueError(value)
        return real(value)

    monkeypatch.setattr(checks, "_parsed_date", raising)
    edit(tree, BETA, 'retrieved: "2025-06-01"', 'retrieved: "2025-13"')
    edit(tree, GAMMA, 'retrieved: "2025-06-01"', f'retrieved: "{AHEAD}"')
    expected = off(tree)
    # alpha (before beta in the walk) keeps its future date; gamma's, after beta, is not judged: the rule stopped
    assert any(line.startswith(f"{ALPHA}:17:16:") and "in the future" in line for line in expected), expected
    assert not any(line.startswith(f"{GAMMA}:") and "in the future" in line for line in expected), expected
    assert shown(validate_repo(tree, keep=True)[1]) == expected
    assert shown(validate_repo(tree, keep=True)[1]) == expected


def test_shared_lookups_are_made_once_and_raise_again_for_each_rule(tree):
    """Index.shared makes a lookup once for every rule that asks; one that raised raises again for each, as if the
    rule had made it itself (run_checks then drops the rest of that rule's problems)."""
    from sitegen.data import load

    repo, _ = load.load_repo(tree)
    index = checks.Index(repo)
    made: list[str] = []

    def boom() -> None:
        made.append("boom")
        raise KeyError("results")

    for _ in range(2):
        with pytest.raises(KeyError):
            index.shared("boom", boom)
    assert made == ["boom"]
    assert index.shared("n", lambda: made.append("n") or 3) == index.shared("n", lambda: 4) == 3
    rows = [(doc.path, path, model) for doc, path, _, model, _, _ in index.results()]
    assert rows == [
        (r[0], r[1], r[2]) for r in ((doc.path, path, model) for doc, path, _, model, _, _ in index.results())
    ]
    assert rows == [
        (ALPHA, ("results", 0), "acme/alpha"),
        (ALPHA, ("results", 1), "acme/alpha"),
        (BETA, ("results", 0), "acme/bet"),
        (GAMMA, ("results", 0), "zeta/gamma"),
        (GAMMA, ("results", 1), "zeta/gamma"),
    ]


CASES = Path(__file__).resolve().parent / "validation"
#: Rejection cases of tests/validation (each an expected.txt checked by hand) that exercise the per-file rules, a
#: rule stopped by a file the schema rejects, and cross-file rules over unchanged files.
WARM_CASES = (
    "ci95-reversed",
    "date-before-floor",
    "future-date",
    "impossible-date",
    "fullwidth-name",
    "homoglyph-name",
    "id-not-path",
    "several-problems-sorted",
    "top-level-list",
    "duplicate-result",
    "sources-disagree",
    "release-facts-disagree",
    "published-before-release",
    "second-result-other-date",
    "name-style",
)


def test_rejection_cases_print_their_expected_output_with_the_cache_warm(tmp_path, monkeypatch):
    """One tree edited case after case (each case's files laid over the valid base, the previous case's taken
    away): `sitegen validate` over the entries a build kept prints each case's expected.txt, byte for byte, before
    and after the case's own files have entries."""
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    root = tmp_path / "repo"
    shutil.copytree(CASES / "base", root)
    validate_repo(root, keep=True)
    runner = CliRunner()

    def validate() -> str:
        result = runner.invoke(main, ["validate", "--root", str(root), "--warnings"], env={"GITHUB_ACTIONS": "false"})
        assert "Traceback" not in result.output
        return result.output

    for case in WARM_CASES:
        files = CASES / "cases" / case / "files"
        laid = [p.relative_to(files) for p in sorted(files.rglob("*")) if p.is_file()]
        shutil.copytree(files, root, dirs_exist_ok=True)
        expected = (CASES / "cases" / case / "expected.txt").read_text(encoding="utf-8")
        assert validate() == expected, case  # the case's files parsed and judged, the rest from the cache
        validate_repo(root, keep=True)
        assert validate() == expected, case  # every file from the cache
        for rel in laid:  # back to the base
            base = CASES / "base" / rel
            if base.is_file():
                shutil.copy(base, root / rel)
            else:
                (root / rel).unlink()
        validate_repo(root, keep=True)
    assert validate().strip() == "0 errors, 0 warnings"
