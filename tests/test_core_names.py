"""The core names none of this repository's boards, indices or sources (issue 34, item 1): the repository's data
names them (scores/, methodology/), and its importers' commands come through an entry point, outside the core."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import click
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator" / "sitegen"
#: The core's folders and modules checked here.
FOLDERS = ("data", "indices", "build", "history", "contrib", "interchange", "export.py", "site")


def repository_ids(root: Path = ROOT) -> set[str]:
    """Every source, benchmark, index and board id this repository's data defines (scores/sources.yaml,
    methodology/benchmarks.yaml, methodology/indices/*.yaml and their `boards`), less the engine's kind names
    (schemas/index.schema.json), which are the engine's vocabulary even where an index of that kind shares one."""
    ids = {s["id"] for s in yaml.safe_load((root / "scores" / "sources.yaml").read_text())["sources"]}
    ids |= {b["id"] for b in yaml.safe_load((root / "methodology" / "benchmarks.yaml").read_text())["benchmarks"]}
    for path in (root / "methodology" / "indices").glob("*.yaml"):
        definition = yaml.safe_load(path.read_text())
        boards = definition.get("boards") or []
        ids |= {definition["id"], *(b["id"] for b in (boards.values() if isinstance(boards, dict) else boards))}
    return ids - engine_kinds()


@lru_cache(maxsize=1)
def engine_kinds() -> frozenset[str]:
    """The index kinds the engine computes (schemas/index.schema.json): its vocabulary, never an id here."""
    return frozenset(json.loads((PACKAGE / "schemas" / "index.schema.json").read_text())["properties"]["kind"]["enum"])


def names_an_id(text: str, ids: set[str]) -> bool:
    """An id, or the start of one up to a hyphen ('aa-', 'aa-intelligence'): how code picks a family of them. A
    kind name ('hle', 'pedagogy') is the engine's word, even where this repository's ids start with it."""
    return (
        len(text) >= 2
        and text not in engine_kinds()
        and any(i == text or (i.startswith(text) and "-" in (text[-1], i[len(text)])) for i in ids)
    )


def id_literals(path: Path, ids: set[str]) -> list[str]:
    """`file:line: 'literal'` for each string literal of a module that names an id."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and names_an_id(node.value, ids)
    ]


def test_names_an_id_finds_ids_and_their_hyphen_prefixes_only():
    ids = {"aa-api-2026-07", "lmarena-text", "critpt"}
    assert [t for t in ("critpt", "aa-", "aa-api", "lmarena", "lmarena-text") if names_an_id(t, ids)] == [
        "critpt", "aa-", "aa-api", "lmarena", "lmarena-text"]
    assert [t for t in ("a", "aa-api-2", "crit", "lmarena-text-x", "text", "") if names_an_id(t, ids)] == []
    assert not names_an_id("hle", {"hle-paper"})  # a kind name


def test_id_literals_reads_the_string_literals_of_a_module(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text('X = ("critpt", "other")\ndef f(s):\n    return s.startswith("aa-") or f"{s}-critpt"\n')
    assert id_literals(module, {"critpt", "aa-api"}) == ["sample.py:1: 'critpt'", "sample.py:3: 'aa-'"]


def test_the_repository_ids_are_its_sources_benchmarks_indices_and_boards_but_no_kind_name():
    ids = repository_ids()
    assert {"lmarena", "aa-api-2026-07", "critpt", "lmarena-text", "aa-intelligence-v3-0", "pedagogy-cdpk"} <= ids
    assert not ids & {"ai-iq", "cost", "hle", "pedagogy", "weighted-mean", "benchmark-boards"}


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_of_the_core_names_an_id_of_this_repository(folder):
    ids = repository_ids()
    target = PACKAGE / folder
    modules = [target] if target.suffix == ".py" else sorted(target.rglob("*.py"))
    assert modules, folder
    assert [hit for path in modules for hit in id_literals(path, ids)] == []


def test_the_core_cli_imports_neither_the_importers_nor_their_commands():
    # the import commands come from the entry-point group, loaded at start-up; the importers only when one runs
    source = (PACKAGE / "cli" / "__init__.py").read_text(encoding="utf-8")
    imported = {
        alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert "imports" not in imported
    code = (
        "import json, sys, click, sitegen.cli as c; "
        "before = sorted(c.main.commands); "
        "listed = c.main.list_commands(click.Context(c.main)); "
        "print(json.dumps([before, listed, [m for m in sys.modules if m.startswith('sitegen.importers')], "
        "'importlib.metadata' in sys.modules]))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, commands, importers, metadata_read = json.loads(run.stdout)
    # the entry points are read only when a name is not the core's or the list is asked for (--help)
    assert "build" in before and "import" not in before
    assert {"import", "aliases", "stats", "fetch", "build", "validate"} <= set(commands)
    assert importers == [] and metadata_read


def test_plugin_commands_load_in_name_order_a_core_name_stays_the_cores_and_a_broken_one_is_reported():
    group = click.Group(commands={"build": click.Command("build")})
    entries = [
        metadata.EntryPoint("stats", "sitegen.cli.imports:stats_command", "sitegen.commands"),
        metadata.EntryPoint("build", "sitegen.cli.imports:fetch_command", "sitegen.commands"),
        metadata.EntryPoint("broken", "sitegen.no_such_module:command", "sitegen.commands"),
    ]
    from sitegen.cli import add_plugin_commands
    from sitegen.cli.imports import stats_command

    failed = add_plugin_commands(group, entries)
    assert list(group.commands) == ["build", "stats"]
    assert group.commands["stats"] is stats_command and group.commands["build"].callback is None
    assert failed == [
        "sitegen: command 'broken' (sitegen.no_such_module:command) not loaded: "
        "ModuleNotFoundError: No module named 'sitegen.no_such_module'"
    ]
