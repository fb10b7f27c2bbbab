"""#31 items 1 and 3: no symbolic link below the root is followed, top-level folders included, and every command
writes only where it may, after validating.

Each command runs with scores/, methodology/ or downloads/ replaced by a link to a copy outside the repository:
each must refuse with a placed message, exit 1 and write nothing, anywhere (the outside copy included).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hardkit import dump, make_tree, model_doc

from sitegen import paths, write
from sitegen.cli import main
from sitegen.data import load, validate_repo
from sitegen.importers import aliases


def tree_state(folder: Path) -> dict[str, object]:
    """Every entry below folder, links not followed: a file's bytes, a link's target, a folder's name."""
    state: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(folder).as_posix()
            state[rel] = ("link", os.readlink(path)) if path.is_symlink() else (
                path.read_bytes() if path.is_file() else "folder")
    return state


@pytest.fixture
def repo(tmp_path):
    root = make_tree(tmp_path / "repo")
    (root / "downloads").mkdir()
    (root / "downloads/notes.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    review = tmp_path / "review.yaml"
    review.write_text("proposals:\n- {source: paper, name: Alpha Two, match: acme/alpha}\n", encoding="utf-8")
    eee = tmp_path / "eee.json"
    eee.write_text("{}", encoding="utf-8")
    return root


def link_away(root: Path, name: str) -> Path:
    """Move root/name outside the repository and put a link to it in its place."""
    outside = root.parent / f"outside-{name}"
    shutil.move(root / name, outside)
    (root / name).symlink_to(outside, target_is_directory=True)
    return outside


def commands(root: Path) -> list[list[str]]:
    tmp = root.parent
    r = ["--root", str(root)]
    return [
        ["validate", *r], ["build", *r], ["build", "--check", *r], ["export", *r], ["export", "--format", "eee", *r],
        ["import", "--all", *r], ["import", "lmarena", str(tmp / "review.yaml"), *r],
        ["fetch", "--all", "--base-url", "http://127.0.0.1:9", "--timeout", "1", *r],  # offline: refused first
        ["aliases", "suggest", "lmarena", str(tmp / "review.yaml"), *r], ["aliases", "apply", str(tmp / "review.yaml"), *r],
        ["aliases", "rename", "acme/alpha", "acme/alpha-2", *r], ["aliases", "merge", "acme/alpha", "--into", "acme/beta", *r],
        ["aliases", "audit", *r],
        ["new", "model", "acme/delta", *r],
        ["new", "result", "acme/alpha", "--benchmark", "hle", "--value", "20", "--source", "paper", *r],
        ["interchange", "eee", "paper", str(tmp / "eee.json"), *r],
        ["stats", *r], ["diff", "HEAD", *r], ["changelog", *r],
    ]


@pytest.mark.parametrize("linked", ["scores", "methodology", "downloads"])
def test_every_command_refuses_a_linked_top_level_folder_and_writes_nothing(repo, linked):
    link_away(repo, linked)
    runner = CliRunner()
    for args in commands(repo):
        before = tree_state(repo.parent)
        done = runner.invoke(main, args)
        assert done.exit_code == 1, (args, done.output, done.exception)
        assert f"{linked}: (file): is a symbolic link (data folders must be real folders in the repository)" \
            in done.stderr, (args, done.stderr)
        assert tree_state(repo.parent) == before, args


def test_the_loader_refuses_a_linked_top_level_folder_even_without_the_command_line(repo):
    link_away(repo, "scores")
    found, problems = validate_repo(repo)
    assert found is None
    assert "scores: (file): is a symbolic link (data folders must be real folders in the repository)" in \
        [p.format() for p in problems]
    assert load.read_yaml(repo, "scores/sources.yaml") is None  # the one-file reader of the tools too


def test_a_repository_reached_through_a_linked_parent_works(repo, tmp_path):
    """The root itself is resolved once: a home or temporary folder that is a link is fine."""
    (tmp_path / "home").symlink_to(tmp_path, target_is_directory=True)
    via = tmp_path / "home" / "repo"
    assert paths.top_level_problems(via) == []
    found, problems = validate_repo(via)
    assert found is not None, [p.format() for p in problems if p.severity == "error"]
    done = CliRunner().invoke(main, ["new", "model", "acme/delta", "--root", str(via)])
    assert done.exit_code == 0, done.output
    assert (repo / "scores/models/acme/delta.yaml").is_file()


def test_link_problem_names_the_first_link_at_any_depth(tmp_path):
    root = tmp_path / "r"
    (root / "scores/models/acme").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (root / "scores/models/linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (root / "scores/models/acme/file.yaml").symlink_to(tmp_path / "elsewhere")
    assert paths.link_problem(root, root / "scores/models/acme/new.yaml") is None  # not there yet: fine to write
    assert paths.link_problem(root, root / "scores/models/linked/x.yaml").path == "scores/models/linked"
    assert paths.link_problem(root, root / "scores/models/acme/file.yaml").path == "scores/models/acme/file.yaml"
    outside = paths.link_problem(root, root / "scores/../../x.yaml")
    assert outside.message == "lies outside the repository"
    with pytest.raises(paths.PathRefused, match="scores/models/linked: .*is a symbolic link"):
        paths.inside(root, root / "scores/models/linked/new.yaml")


def test_a_root_resolved_once_gives_the_same_answers_and_only_inside_its_block(tmp_path):
    """link_problem within paths.resolved_once (load_repo's one resolve per load) answers as it does alone, the
    root reached through a linked parent too; after the block a change of where that link points is seen."""
    real, other = tmp_path / "real", tmp_path / "other"
    for base in (real, other):
        (base / "r/scores/models/acme").mkdir(parents=True)
    (real / "r/scores/models/acme/file.yaml").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "home").symlink_to(real, target_is_directory=True)
    root = tmp_path / "home" / "r"
    asked = [root / "scores/models/acme/file.yaml", root / "scores/models/acme/new.yaml",
             real / "r/scores/models/acme/file.yaml", root / "scores/../../x.yaml", tmp_path / "x.yaml"]
    alone = [paths.link_problem(root, p) for p in asked]
    assert [p.format() if p else None for p in alone] == [
        "scores/models/acme/file.yaml: (file): is a symbolic link (data files must be regular files in the repository)",
        None,
        "scores/models/acme/file.yaml: (file): is a symbolic link (data files must be regular files in the repository)",
        f"{root / 'scores/../../x.yaml'}: (file): lies outside the repository (sitegen reads and writes only below --root)",
        f"{tmp_path / 'x.yaml'}: (file): lies outside the repository (sitegen reads and writes only below --root)",
    ]
    with paths.resolved_once(root) as resolved:
        assert resolved == real / "r"
        assert [paths.link_problem(root, p) for p in asked] == alone
    (tmp_path / "home").unlink()
    (tmp_path / "home").symlink_to(other, target_is_directory=True)  # the same root string, now another tree
    assert paths.link_problem(root, root / "scores/models/acme/file.yaml") is None
    assert paths.link_problem(root, real / "r/scores/models/acme/file.yaml").message == "lies outside the repository"


def test_load_repo_resolves_the_root_a_fixed_number_of_times_whatever_the_file_count(tmp_path, monkeypatch):
    """The loader asks link_problem about every file: the root is resolved once per load, not twice per file."""
    few = make_tree(tmp_path / "few", [model_doc("acme/a1", {"hle": 1})])
    many = make_tree(tmp_path / "many", [model_doc(f"acme/a{i}", {"hle": i}) for i in range(1, 9)])
    calls: list[str] = []
    plain = Path.resolve

    def counted(self, *args, **kwargs):
        calls.append(str(self))
        return plain(self, *args, **kwargs)

    monkeypatch.setattr(Path, "resolve", counted)
    counts = []
    for root in (few, many):
        calls.clear()
        repo, problems = load.load_repo(root)
        assert not problems and len(repo.models) == len(list((root / "scores/models/acme").iterdir()))
        counts.append(len(calls))
    assert counts[0] == counts[1] <= 3, counts


def test_a_data_edit_writes_only_below_scores_and_through_no_link(tmp_path):
    root = tmp_path / "r"
    (root / "scores/imported").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    for rel in ("../pwned.yaml", ".github/workflows/evil.yaml", "scores/../x.yaml", "downloads/a.csv"):
        with pytest.raises(paths.PathRefused, match="may not be written by this command"):
            write.replace_files(root, {rel: b"x"})
    (root / "scores/models").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(paths.PathRefused, match="scores/models: .*is a symbolic link"):
        write.replace_files(root, {"scores/imported/a.yaml": b"a", "scores/models/acme/x.yaml": b"x"})
    assert tree_state(tmp_path) == {"r": "folder", "r/scores": "folder", "r/scores/imported": "folder",
                                    "r/scores/models": ("link", str(tmp_path / "elsewhere")), "elsewhere": "folder"}
    write.replace_files(root, {"scores/imported/a.yaml": b"a"})
    assert (root / "scores/imported/a.yaml").read_bytes() == b"a"


def test_an_output_folder_below_a_linked_folder_is_refused(repo, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (repo / "build").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    problem = write.out_problem(repo / "build" / "site", repo)
    assert problem.format() == (f"{repo / 'build' / 'site'}: --out: lies below build, which is a symbolic link "
                                "(write the site to a real folder, e.g. site/)")
    (repo / "site-link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert "is a symbolic link" in write.out_problem(repo / "site-link", repo).message
    assert write.out_problem(repo / "site", repo) is None


# ------------------------------------------------------------------ aliases: ids, references, validation


@pytest.mark.parametrize("hostile", ["../../pwned-outside", ".github/workflows/evil", "acme/../../x", "acme/.hidden",
                                     "acme/Alpha", "acme/a/b", "acme/index"])
def test_rename_to_a_hostile_id_is_refused_and_writes_nothing(repo, hostile):
    before = tree_state(repo.parent)
    done = CliRunner().invoke(main, ["aliases", "rename", "acme/alpha", hostile, "--root", str(repo)])
    assert done.exit_code == 1, done.output
    assert "Error: scores/models/" in done.stderr
    assert tree_state(repo.parent) == before


def test_apply_with_a_hostile_new_id_is_refused_and_writes_nothing(repo, tmp_path):
    before = tree_state(repo.parent)
    for hostile in ("../../pwned-outside", ".github/workflows/evil"):
        proposals = [{"source": "paper", "name": "Fine", "match": "acme/alpha"},
                     {"source": "paper", "name": "Evil", "new": {"id": hostile, "name": "Evil", "organization": "X"}}]
        with pytest.raises(ValueError, match="is not a valid id|model files live at"):
            aliases.apply(repo, proposals)
        review = tmp_path / "hostile.yaml"
        review.write_text(yaml.safe_dump({"proposals": proposals}), encoding="utf-8")
        done = CliRunner().invoke(main, ["aliases", "apply", str(review), "--root", str(repo)])
        assert done.exit_code == 1, done.output
        review.unlink()
    assert tree_state(repo.parent) == before  # the first, fine proposal was not written either
    assert not (tmp_path / "pwned-outside.yaml").exists() and not (repo / ".github").exists()


def test_rename_points_the_metadata_and_identity_references_at_the_new_id(repo):
    (repo / "scores/metadata.yaml").write_text(
        "rules:\n"
        "  - match: [acme/alpha, acme/alph*]\n    level: release\n    licence: MIT\n"
        "    source: \"The card of acme/alpha says MIT\"\n    url: https://example.org/alpha\n"
        "  - match:\n      - zeta/gamma\n      - acme/alpha\n    level: release\n    context_window: 8000\n"
        "    source: Card\n    url: https://example.org/card\n", encoding="utf-8")
    (repo / "scores/identity.yaml").write_text(
        "distinct:\n- models: [acme/alpha, acme/beta]\n  reason: Two products (acme/alpha is the older).\n",
        encoding="utf-8")
    assert validate_repo(repo)[0] is not None
    changed = aliases.rename(repo, "acme/alpha", "acme/alpha-one")
    assert changed == ["scores/models/acme/alpha-one.yaml", "scores/models/acme/alpha.yaml", "scores/metadata.yaml",
                       "scores/identity.yaml"]
    assert (repo / "scores/metadata.yaml").read_text(encoding="utf-8") == (
        "rules:\n"
        "  - match: [acme/alpha-one, acme/alph*]\n    level: release\n    licence: MIT\n"
        "    source: \"The card of acme/alpha says MIT\"\n    url: https://example.org/alpha\n"
        "  - match:\n      - zeta/gamma\n      - acme/alpha-one\n    level: release\n    context_window: 8000\n"
        "    source: Card\n    url: https://example.org/card\n")
    assert (repo / "scores/identity.yaml").read_text(encoding="utf-8") == (
        "distinct:\n- models: [acme/alpha-one, acme/beta]\n  reason: Two products (acme/alpha is the older).\n")
    assert not (repo / "scores/models/acme/alpha.yaml").exists()
    assert validate_repo(repo)[0] is not None


def test_merge_keeps_a_result_both_files_give_once(repo):
    dump(repo / "scores/models/acme/alpha-copy.yaml",
         model_doc("acme/alpha-copy", {"hle": 12.5, "gpqa-diamond": 70}, release="acme/alpha", name="Alpha Copy"))
    aliases.merge(repo, "acme/alpha-copy", "acme/alpha")
    merged = yaml.safe_load((repo / "scores/models/acme/alpha.yaml").read_text(encoding="utf-8"))
    assert [(r["benchmark"], r["value"]) for r in merged["results"]] == [
        ("hle", 12.5), ("gpqa-diamond", 70), ("aime-2025", 50), ("scicode", 30), ("arc-agi-1", 40)]
    assert merged["former_ids"] == ["acme/alpha-copy"]
    assert validate_repo(repo)[0] is not None


def test_a_merge_that_would_leave_two_values_for_one_result_writes_nothing(repo):
    dump(repo / "scores/models/acme/alpha-copy.yaml",
         model_doc("acme/alpha-copy", {"hle": 13.5}, release="acme/alpha", name="Alpha Copy"))
    before = tree_state(repo.parent)
    with pytest.raises(ValueError, match="nothing written:\nscores/models/acme/alpha.yaml:.*the same result is given twice"):
        aliases.merge(repo, "acme/alpha-copy", "acme/alpha")
    assert tree_state(repo.parent) == before
    done = CliRunner().invoke(main, ["aliases", "merge", "acme/alpha-copy", "--into", "acme/alpha", "--root", str(repo)])
    assert done.exit_code == 1 and "the same result is given twice" in done.stderr
    assert tree_state(repo.parent) == before


def test_an_import_into_a_linked_imported_folder_is_refused(repo, tmp_path):
    from sitegen.interchange.records import Refused, write_imported

    (tmp_path / "elsewhere").mkdir()
    (repo / "scores/imported").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(Refused, match="scores/imported: .*is a symbolic link"):
        write_imported(repo, "paper", "source: paper\n", force=True)
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize("leftover", [".site.new-k3j2/index.html", ".site.old-9x/index.html", ".export.new-a1/x.json",
                                      "scores/imported/.lmarena.yaml.new-x7"])
def test_what_a_killed_build_or_write_leaves_is_git_ignored(leftover):
    import subprocess

    from hardkit import ROOT

    done = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "--no-index", "-q", leftover], timeout=60)
    assert done.returncode == 0, f"{leftover} is not git-ignored"


def test_fetch_itself_refuses_a_linked_downloads_folder_before_any_request(repo):
    """fetch.py's own check, without the command line's: every capture path below the root goes through no link."""
    from sitegen.importers import fetch

    outside = link_away(repo, "downloads")
    name = sorted(fetch.plans(repo))[0]
    asked = []

    class Offline(fetch.Remote):
        def get(self, *args, **kwargs):  # pragma: no cover - reached only if the rule failed
            asked.append(args)
            raise AssertionError("a request was made")

    before = tree_state(repo.parent)
    with pytest.raises(fetch.FetchError, match=r"^downloads: \(file\): is a symbolic link .*; nothing written$"):
        fetch.fetch(repo, name, Offline("http://127.0.0.1:9", 1))
    assert asked == [] and tree_state(repo.parent) == before and outside.is_dir()
