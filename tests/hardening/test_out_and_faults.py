"""The output folder: what --out may not be, and what a full disk, a read-only folder or a kill does to a build.

Faults are injected at the write layer (sitegen.write.put_file, through which every output byte goes), not with
permissions: CI runs as root, where chmod proves nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hardkit import listing, make_tree, sitegen, snapshot

SUMMARY = "1 error, 0 warnings"


def _tree(root: Path) -> Path:
    root = make_tree(root)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return root


@pytest.fixture
def root(tmp_path):
    return _tree(tmp_path / "repo")


@pytest.mark.parametrize("command", ["build", "export"])
@pytest.mark.parametrize("out, message", [
    (".", "--out: is the data root; replacing it would delete scores/, methodology/ and .git (write the site to a "
          "folder of its own, e.g. site/)"),
    ("..", "--out: contains the data root (write the site to a folder of its own, e.g. site/)"),
    ("scores", "--out: lies inside scores/ or methodology/ (write the site outside the data, e.g. site/)"),
    ("methodology/site", "--out: lies inside scores/ or methodology/ (write the site outside the data, e.g. site/)"),
])
def test_out_that_would_delete_data_is_refused(root, command, out, message):
    before = snapshot(root.parent)
    result = sitegen(command, "--root", ".", "--out", out, cwd=root)
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [f"{out}: {message}", SUMMARY]
    assert snapshot(root.parent) == before


def test_non_empty_folder_not_written_by_sitegen_is_refused(root, tmp_path):
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work\n", encoding="utf-8")
    result = sitegen("build", "--root", str(root), "--out", str(mine), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{mine}: --out: is a non-empty folder that sitegen did not write (no .sitegen-output in it) "
        "(choose a new or empty folder, or empty this one yourself)", SUMMARY]
    assert snapshot(mine) == {"thesis.tex": b"years of work\n"}


def test_a_folder_sitegen_wrote_is_replaced(root, tmp_path):
    out = tmp_path / "api-out"
    first = sitegen("export", "--root", str(root), "--out", str(out), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert (out / ".sitegen-output").is_file()
    again = sitegen("export", "--root", str(root), "--out", str(out), cwd=tmp_path)
    assert again.returncode == 0, again.stderr


def failing_writes(after: int, action: str) -> str:
    """A prelude for the subprocess: the write layer works `after` times, then fails as `action` says."""
    return f'''
import errno, os, signal
import sitegen.write as w
_real, _count = w.put_file, [0]
def put_file(path, data):
    _count[0] += 1
    if _count[0] > {after}:
        if {action!r} == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        code = errno.ENOSPC if {action!r} == "full" else errno.EROFS
        raise OSError(code, os.strerror(code), str(path))
    return _real(path, data)
w.put_file = put_file
'''


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    """The tree (as `root` makes it) with its first successful build, made once for the file: each test that needs
    a built tree takes a copy (`built`), as all of them start from the same build."""
    where = tmp_path_factory.mktemp("faults")
    first_root = _tree(where / "repo")
    first = sitegen("build", "--root", str(first_root), cwd=where)
    assert first.returncode == 0, first.stderr
    return first_root


@pytest.fixture
def built(built_once, tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(built_once, root, symlinks=True)
    model = root / "scores/models/acme/alpha.yaml"  # a change, so the next build is not "up to date"
    model.write_text(model.read_text(encoding="utf-8").replace("value: 12.5", "value: 13.5"), encoding="utf-8")
    return root, snapshot(root / "site"), listing(root)


@pytest.mark.parametrize("action, reason", [("full", "No space left on device"), ("readonly", "Read-only file system")])
def test_failed_write_is_a_problem_and_keeps_the_site(built, tmp_path, action, reason):
    root, site, entries = built
    result = sitegen("build", "--root", str(root), cwd=tmp_path, env={"SITEGEN_JOBS": "1"},
                     prelude=failing_writes(5, action))
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        f"site: --out: cannot write the output: {reason} (free disk space or choose a writable folder; the "
        "previous output is unchanged)", SUMMARY]
    assert snapshot(root / "site") == site
    assert listing(root) == entries


def test_killed_build_leaves_the_site_and_the_next_build_removes_its_leftovers(built, tmp_path):
    root, site, entries = built
    # an incremental build writes only the files the edit changed (a dozen here): killed after five of them
    killed = sitegen("build", "--root", str(root), cwd=tmp_path, env={"SITEGEN_JOBS": "1"},
                     prelude=failing_writes(5, "kill"))
    assert killed.returncode == -9
    assert snapshot(root / "site") == site
    leftovers = [n for n in listing(root) if n not in entries]
    assert len(leftovers) == 1 and leftovers[0].startswith(".site.new-")
    again = sitegen("build", "--root", str(root), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert listing(root) == entries
    assert (root / "site/.sitegen-output").is_file() and snapshot(root / "site") != site
