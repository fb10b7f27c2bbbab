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


# The charts' words (issue 34, item 1): this repository's are texts of its charts.draw entries in methodology/site.yaml;
# the chart kinds' own defaults are made from the boards' names. The rule: no string literal of site/charts.py (a
# whole literal or an f-string's literal part, docstrings left out) equals a text site.yaml carries, contains one of
# LONG characters or more (a short one, "IQ" or "Index", may be any kind's word), or contains the `name` of one of
# this repository's index definitions or boards (methodology/indices/*.yaml: "AI IQ", "Effective cost").
CHARTS = PACKAGE / "site" / "charts.py"
LONG = 12


def carried_chart_texts(root: Path = ROOT) -> set[str]:
    """The texts methodology/site.yaml's charts.draw entries give (every field but kind and the boards)."""
    site = yaml.safe_load((root / "methodology" / "site.yaml").read_text(encoding="utf-8"))
    return {
        text
        for entry in site["charts"]["draw"].values()
        for key, text in entry.items()
        if key not in ("kind", "board", "x", "y")
    }


def index_names(root: Path = ROOT) -> set[str]:
    """The `name` of each index definition of this repository and of each board one lists."""
    names = set()
    for path in (root / "methodology" / "indices").glob("*.yaml"):
        definition = yaml.safe_load(path.read_text(encoding="utf-8"))
        boards = definition.get("boards") or []
        names |= {definition["name"], *(b["name"] for b in (boards.values() if isinstance(boards, dict) else boards)
                                         if "name" in b)}
    return names


def worded_literals(path: Path, texts: set[str], names: set[str]) -> list[str]:
    """`file:line: 'literal'` for each string literal of a module, docstrings aside, that is one of `texts` or
    holds one of LONG characters or more, or holds one of `names`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        f"{path.name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        and (node.value in texts or any(t in node.value for t in names | {t for t in texts if len(t) >= LONG}))
    ]


def test_worded_literals_finds_carried_texts_and_names_but_not_docstrings(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text('"""Quiz vs price: the module."""\ndef f(n):\n    """Quiz vs price."""\n'
                      '    return ("Quiz vs price", f"{n} vs price", f"The Quiz Index: {n}", "Quiz (%)", "Index",\n'
                      '            "Index (points)", "Quiz vs price, log")\n')
    texts = {"Quiz vs price", "Index", "Quiz (%)"}
    assert sorted(worded_literals(module, texts, {"The Quiz Index"})) == [
        "sample.py:4: 'Index'", "sample.py:4: 'Quiz (%)'", "sample.py:4: 'Quiz vs price'",
        "sample.py:4: 'The Quiz Index: '", "sample.py:5: 'Quiz vs price, log'"]


def test_this_repositorys_chart_texts_and_names_are_the_data_s():
    texts, names = carried_chart_texts(), index_names()
    assert {"AI IQ vs effective cost", "CDPK vs SEND", "CDPK accuracy (%)", "CDPK (%)"} <= texts
    assert any("{level}" in t for t in texts) and {"AI IQ", "Effective cost"} <= names
    assert worded_literals(CHARTS, texts, names) == []
