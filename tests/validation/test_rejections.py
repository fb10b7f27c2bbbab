"""One folder per rejection rule: a small input over a valid base tree and its exact expected output.

tests/validation/base/ is a complete, valid data tree. Each tests/validation/cases/<rule>/files/ is laid over
a copy of it, `sitegen validate --warnings` runs on the copy, and its output must equal expected.txt line
for line. Inputs that would harm a checkout (megabytes, newlines or case-only differences in file names)
are generated below instead of being committed.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main

HERE = Path(__file__).parent
BASE = HERE / "base"
CASES = sorted(p.name for p in (HERE / "cases").iterdir() if p.is_dir())
UPDATE = os.environ.get("SITEGEN_UPDATE_EXPECTED") == "1"


def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(BASE, root)
    return root


def validate(root: Path):
    result = CliRunner().invoke(main, ["validate", "--root", str(root), "--warnings"], env={"GITHUB_ACTIONS": "false"})
    return result


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_base_tree_is_valid(tmp_path):
    result = validate(tree(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "0 errors, 0 warnings"


@pytest.mark.parametrize("case", CASES)
def test_case(case, tmp_path):
    root = tree(tmp_path)
    shutil.copytree(HERE / "cases" / case / "files", root, dirs_exist_ok=True)
    before = snapshot(root)
    result = validate(root)
    expected_file = HERE / "cases" / case / "expected.txt"
    if UPDATE:
        expected_file.write_text(result.output, encoding="utf-8")
    expected = expected_file.read_text(encoding="utf-8")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.output == expected
    summary = expected.splitlines()[-1]
    assert result.exit_code == (0 if summary.startswith("0 errors") else 1)
    assert snapshot(root) == before, "validate must write nothing"


def _problem_lines(result) -> list[str]:
    return result.output.splitlines()[:-1]


def test_file_over_size_cap_is_refused_before_parsing(tmp_path):
    root = tree(tmp_path)
    big = root / "scores/models/acme/widget-1.yaml"
    with big.open("ab") as f:  # 6 MB of comments: valid YAML, but far over the cap
        f.write(b"# padding padding padding padding padding padding padding padding padding\n" * 80_000)
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        f"scores/models/acme/widget-1.yaml:1:1: (file): file is {big.stat().st_size:,} bytes, over the 5,242,880-byte "
        "limit (split it or remove what does not belong)"]


def test_newline_in_file_name(tmp_path):
    root = tree(tmp_path)
    (root / "scores/models/acme/bad\nname.yaml").write_text("id: acme/x\nname: X\norganization: Acme\n")
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        "scores/models/acme/bad\\nname.yaml: (file): file name 'bad\\nname.yaml' contains white space or control "
        "characters (use lower-case letters, digits, '.', '_' and '-')"]


def test_ids_differing_only_by_case(tmp_path):
    root = tree(tmp_path)
    (root / "scores/models/ACME").mkdir()
    (root / "scores/models/ACME/widget-1.yaml").write_text("id: ACME/widget-1\nname: Widget\norganization: Acme\n")
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        "scores/models/ACME/widget-1.yaml: (file): path segment 'ACME' is not a valid id "
        "(use lower-case letters, digits, '.', '_' and '-', starting with a letter or digit)"]


def test_case_collision_rule_itself(tmp_path):
    """The id rule already refuses upper case; the collision rule is a second line of defence, tested directly."""
    from sitegen.data import checks
    from sitegen.data.load import load_repo

    root = tree(tmp_path)
    shutil.copy(root / "scores/models/acme/widget-1.yaml", root / "scores/models/acme/widget-2.yaml")
    repo, _ = load_repo(root)
    fake = repo.models[0].__class__(repo.models[1].path.replace("widget-2", "WIDGET-1"), "model", repo.models[1].parsed)
    repo = dataclasses.replace(repo, models=(repo.models[0], fake))
    problems = list(checks.ids_unique_ignoring_case(checks.Index(repo)))
    assert [p.format() for p in problems] == [
        "scores/models/acme/WIDGET-1.yaml: id: collides with scores/models/acme/widget-1.yaml when case is ignored "
        "(ids must differ by more than letter case (case-insensitive file systems merge them))"]


def test_github_annotations_escape_forged_commands(tmp_path):
    root = tree(tmp_path)
    shutil.copytree(HERE / "cases" / "workflow-command-forgery" / "files", root, dirs_exist_ok=True)
    result = CliRunner().invoke(main, ["validate", "--root", str(root)], env={"GITHUB_ACTIONS": "true"})
    annotations = [line for line in result.output.splitlines() if line.startswith("::")]
    assert annotations, result.output
    for line in result.output.splitlines():
        # No line may start a workflow command except our own annotations, which carry the file position.
        assert not line.startswith("::") or line.startswith(("::error file=scores/", "::warning file=scores/"))
    assert all("\n" not in a for a in annotations)


@pytest.mark.parametrize("name", ["index", "assets", "api", "search", "404", "cname"])
@pytest.mark.parametrize("where", ["org", "model"])
def test_every_reserved_output_name_is_refused(tmp_path, name, where):
    """Names that would clash with generated pages or files, as an organisation folder or a model file."""
    root = tree(tmp_path)
    org, model = (name, "widget") if where == "org" else ("acme", name)
    path = root / "scores" / "models" / org / f"{model}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"id: {org}/{model}\nname: X\norganization: Acme\n", encoding="utf-8")
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        f"scores/models/{org}/{model}.yaml: (file): '{name}' is a reserved name on the site "
        "(choose another file name; it would clash with a generated page)"]


def test_upper_case_cname_is_refused_as_a_path_segment(tmp_path):
    root = tree(tmp_path)
    path = root / "scores" / "models" / "acme" / "CNAME.yaml"
    path.write_text("id: acme/CNAME\nname: X\norganization: Acme\n", encoding="utf-8")
    result = validate(root)
    assert result.exit_code == 1
    assert "path segment 'CNAME' is not a valid id" in result.output


def test_symlinked_data_file_is_refused_not_followed(tmp_path):
    """A link committed in a pull request must not load (or publish) a file from outside the repository."""
    root = tree(tmp_path)
    secret = tmp_path / "secret.yaml"
    secret.write_text("id: acme/leak\nname: Leak\norganization: Acme\n", encoding="utf-8")
    (root / "scores/models/acme/leak.yaml").symlink_to(secret)
    (root / "methodology/leak.md").symlink_to(secret)
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        "methodology/leak.md: (file): is a symbolic link (data files must be regular files in the repository)",
        "scores/models/acme/leak.yaml: (file): is a symbolic link (data files must be regular files in the repository)"]


def test_link_to_a_device_is_refused_without_reading_it(tmp_path):
    root = tree(tmp_path)
    (root / "scores/models/acme/zero.yaml").symlink_to("/dev/zero")
    (root / "scores/raw/quiz/acme").mkdir(parents=True)
    (root / "scores/raw/quiz/acme/widget-1.jsonl").symlink_to("/dev/zero")
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        "scores/models/acme/zero.yaml: (file): is a symbolic link (data files must be regular files in the repository)",
        "scores/raw/quiz/acme/widget-1.jsonl: (file): is a symbolic link (data files must be regular files in the "
        "repository)"]


def test_linked_folder_and_folder_named_like_a_file(tmp_path):
    root = tree(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text("id: other/x\nname: X\norganization: Other\n", encoding="utf-8")
    (root / "scores/models/other").symlink_to(outside, target_is_directory=True)
    (root / "methodology/evil.md").mkdir()
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        "methodology/evil.md: (file): is not a regular file (data files must be regular files in the repository)",
        "scores/models/other: (file): is a symbolic link (data folders must be real folders in the repository)"]


def test_citation_file_is_read_as_strictly_as_data(tmp_path):
    """CITATION.cff is rendered on the site, so it gets the same YAML rules and a schema."""
    root = tree(tmp_path)
    (root / "CITATION.cff").write_text(
        'cff-version: 1.2.0\nmessage: "Cite it"\ntitle: &t sitegen\nauthors:\n  - name: *t\n'
        'date-released: 2024-02-30\n', encoding="utf-8")
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        "CITATION.cff:3:8: title: anchor '&t' is not allowed (write the value out in full; anchors and aliases are refused)",
        "CITATION.cff:5:11: authors[0].name: alias '*t' is not allowed (write the value out in full; anchors and aliases "
        "are refused)",  # one error per value: the schema's "expected string, got nothing" would repeat it
        "CITATION.cff:6:16: date-released: 2024-02-30 is not a real date (check the day and month)",
    ]


def test_repository_citation_file_is_valid():
    from sitegen.data.load import load_repo

    repo, problems = load_repo(HERE.parents[1])
    assert repo.citation is not None and not [p for p in problems if p.path == "CITATION.cff"]


@pytest.mark.parametrize("rel, segment, why", [
    ("scores/models/acme/con.yaml", "con.yaml", "is a reserved device name on Windows"),
    ("scores/models/lpt1/widget.yaml", "lpt1", "is a reserved device name on Windows"),
    ("methodology/indices/aux.yaml", "aux.yaml", "is a reserved device name on Windows"),
    ("scores/models/acme./widget.yaml", "acme.", "ends in a dot"),
    ("scores/models/acme/widget..yaml", "widget..yaml", "ends in a dot"),
])
def test_names_windows_cannot_check_out(tmp_path, rel, segment, why):
    """Generated, not committed: such names would break a Windows checkout of this repository."""
    root = tree(tmp_path)
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    model = rel.removeprefix("scores/models/").removesuffix(".yaml")
    path.write_text(f"id: {model}\nname: X\norganization: Acme\n", encoding="utf-8")
    result = validate(root)
    assert result.exit_code == 1
    assert _problem_lines(result) == [
        f"{rel}: (file): '{segment}' {why} (rename it; Windows cannot check such a name out)"]
