"""ARCHITECTURE.md: "only `data/` reads `scores/` and `methodology/`". Every file the interpreter opens below those
folders while the commands run is seen by an audit hook (PEP 578), and the innermost sitegen module on the stack
at that moment must be one of data/'s."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
from hardkit import make_tree  # noqa: E402

ENV = {"GITHUB_ACTIONS": "false", "SOURCE_DATE_EPOCH": "1751328000"}

WRITING = os.O_WRONLY | os.O_RDWR
#: (folder watched, [(sitegen module, path opened)]) while a test records; None otherwise. One hook per process
#: (audit hooks cannot be removed), which does nothing when no test records.
_RECORDING: list = [None]


def _hook(event: str, args: tuple) -> None:
    watch = _RECORDING[0]
    if watch is None or event != "open" or not isinstance(args[0], (str, Path)):
        return
    folders, seen = watch
    path, mode, flags = str(args[0]), args[1], args[2]
    if (isinstance(mode, str) and set(mode) & set("wax+")) or (isinstance(flags, int) and flags & WRITING):
        return  # a write (write.replace_file for `new`): the claim is about reading
    if not any(path.startswith(folder) for folder in folders):
        return
    frame = sys._getframe(1)
    while frame is not None and not frame.f_globals.get("__name__", "").startswith("sitegen."):
        frame = frame.f_back
    seen.append((frame.f_globals["__name__"] if frame is not None else "(not sitegen)", path))


sys.addaudithook(_hook)


def opened_by(root: Path, *commands: list[str]) -> list[tuple[str, str]]:
    """Run each command on root; the (module, path) of every file opened below root's scores/ and methodology/."""
    seen: list[tuple[str, str]] = []
    _RECORDING[0] = ([str(root / "scores") + "/", str(root / "methodology") + "/"], seen)
    try:
        for args in commands:
            result = CliRunner().invoke(main, [*args, "--root", str(root)], env=ENV)
            assert result.exit_code == 0, (args, result.output)
    finally:
        _RECORDING[0] = None
    return seen


@pytest.fixture
def root(tmp_path) -> Path:
    return make_tree(tmp_path / "repo")


def test_the_hook_sees_a_read_and_names_its_module(tmp_path):
    """The oracle itself: a read from this test module is seen, with this module's name (not sitegen's)."""
    (tmp_path / "scores").mkdir()
    (tmp_path / "scores" / "x.yaml").write_text("a: 1\n")
    (tmp_path / "other.yaml").write_text("c: 3\n")
    seen: list = []
    _RECORDING[0] = ([str(tmp_path / "scores") + "/"], seen)
    try:
        (tmp_path / "scores" / "x.yaml").read_text()
        (tmp_path / "scores" / "y.yaml").write_text("b: 2\n")  # a write is not a read
        (tmp_path / "other.yaml").read_text()
    finally:
        _RECORDING[0] = None
    assert seen == [("(not sitegen)", str(tmp_path / "scores" / "x.yaml"))]


def test_only_data_reads_scores_and_methodology(root, tmp_path):
    seen = opened_by(root, ["validate", "--warnings"], ["build", "--out", str(tmp_path / "site"), "--quiet"],
                     ["export", "--out", str(tmp_path / "api")], ["new", "result", "acme/alpha", "--benchmark", "hle",
                     "--value", "13", "--source", "paper", "--retrieved", "2025-07-01"])
    assert seen, "the commands read the data tree"
    elsewhere = {(module, Path(path).relative_to(root).as_posix()) for module, path in seen
                 if module != "sitegen.data" and not module.startswith("sitegen.data.")}
    assert sorted(elsewhere) == []
    read = {Path(path).relative_to(root).as_posix() for _, path in seen}
    assert {"scores/sources.yaml", "methodology/benchmarks.yaml", "scores/models/acme/alpha.yaml"} <= read
