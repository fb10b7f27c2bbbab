"""ARCHITECTURE.md: "only `data/` reads `scores/` and `methodology/`, only `write.py` writes output folders". Every
file the interpreter opens below those folders while the commands run is seen by an audit hook (PEP 578), and the
innermost sitegen module on the stack at that moment must be one of data/'s (write.py for an output folder)."""

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
#: (folders watched, [(sitegen module, path opened)], writes or reads) while a test records; None otherwise. One hook per process
#: (audit hooks cannot be removed), which does nothing when no test records.
_RECORDING: list = [None]


def _hook(event: str, args: tuple) -> None:
    watch = _RECORDING[0]
    if watch is None or event != "open" or not isinstance(args[0], (str, Path)):
        return
    folders, seen, writes = watch
    path, mode, flags = str(args[0]), args[1], args[2]
    writing = (isinstance(mode, str) and bool(set(mode) & set("wax+"))) or (isinstance(flags, int) and flags & WRITING)
    if writing != writes or not any(path.startswith(folder) for folder in folders):
        return
    frame = sys._getframe(1)
    while frame is not None and not frame.f_globals.get("__name__", "").startswith("sitegen."):
        frame = frame.f_back
    seen.append((frame.f_globals["__name__"] if frame is not None else "(not sitegen)", path))


sys.addaudithook(_hook)


def opened_by(root: Path, *commands: list[str], folders=("scores/", "methodology/"), writes=False):
    """Run each command on root; the (module, path) of every file opened for reading (writes: for writing) whose
    path starts with root / one of `folders`."""
    seen: list[tuple[str, str]] = []
    prefixes = [os.path.normpath(root / folder) + ("/" if folder.endswith("/") else "") for folder in folders]
    _RECORDING[0] = (prefixes, seen, writes)
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
    _RECORDING[0] = ([str(tmp_path / "scores") + "/"], seen, False)
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


def test_only_write_writes_the_output_folders(root):
    out = root.parent
    seen = opened_by(root, ["build", "--out", str(out / "site"), "--quiet"], ["export", "--out", str(out / "api")],
                     ["export", "--format", "eee", "--out", str(out / "eee")], folders=("../site", "../.site.new-", "../api", "../.api.new-",
                                                      "../eee", "../.eee.new-"),
                     writes=True)
    assert {module for module, _ in seen} == {"sitegen.write"}
    assert {Path(path).name for _, path in seen} >= {"index.html", "dates.json"}
