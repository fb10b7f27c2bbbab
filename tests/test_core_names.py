"""The core names none of this repository's ids (issue #34 item 1): no board, index, benchmark or source id of
scores/ and methodology/ is a string literal in the core's modules. The repository's own files name them
(methodology/site.yaml, methodology/indices/*.yaml); the core reads them from there.

One parametrised case per core folder; a folder is added here when its modules are clean. Engine kind names
(`ai-iq` as a *kind*, `cost`, `hle`) are the engine's vocabulary and allowed: ENGINE_KINDS, checked against the
kinds the engine registers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from sitegen.data.kinds import GENERIC
from sitegen.indices.boards import COMPUTERS, MULTI_BOARD, NOT_BOARDS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator" / "sitegen"

#: Index kind names some of this repository's ids share: the engine's own words, allowed as literals.
ENGINE_KINDS = frozenset({"ai-iq", "ai-eq", "cost", "hle", "pedagogy", "weighted-mean", "published",
                          "benchmark-boards"})

#: The core's folders whose modules name no id of this repository (coredata adds data/ and indices/).
CLEAN_FOLDERS = ["site"]


def _load(rel: str) -> dict:
    return yaml.safe_load((ROOT / rel).read_text(encoding="utf-8")) or {}


def _board_ids(definition: dict) -> set[str]:
    """The boards a definition makes: its own id (but for a definition of no board) and those under `boards`."""
    out = set() if definition.get("kind") in NOT_BOARDS else {definition["id"]}
    boards = definition.get("boards") or []
    for b in boards.values() if isinstance(boards, dict) else boards:
        if isinstance(b, dict) and isinstance(b.get("id"), str):
            out.add(b["id"])
    return out


def repository_ids() -> dict[str, set[str]]:
    """This repository's ids by what they name, read from its files."""
    definitions = [_load(str(p.relative_to(ROOT))) for p in sorted((ROOT / "methodology" / "indices").glob("*.yaml"))]
    return {
        "index": {d["id"] for d in definitions},
        "board": set().union(*(_board_ids(d) for d in definitions)),
        "benchmark": {b["id"] for b in _load("methodology/benchmarks.yaml")["benchmarks"]},
        "source": {s["id"] for s in _load("scores/sources.yaml")["sources"]},
    }


def named_ids(source: str, ids: dict[str, set[str]], allowed: frozenset[str] = ENGINE_KINDS) -> list[str]:
    """Each string literal of a module's source that is one of `ids` and not an allowed kind name, as
    "line: 'id' (what it names)"; docstrings and f-string parts included (an id is an id wherever it is)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value not in allowed:
            what = sorted(k for k, v in ids.items() if node.value in v)
            if what:
                found.append(f"{node.lineno}: {node.value!r} ({', '.join(what)})")
    return sorted(found, key=lambda f: int(f.split(":")[0]))


def test_the_allowed_names_are_the_engines_kinds():
    assert ENGINE_KINDS <= set(COMPUTERS) | set(MULTI_BOARD) | set(NOT_BOARDS) | set(GENERIC)


def test_an_id_literal_is_found_and_a_kind_name_is_not():
    ids = {"board": {"quiz-board", "hle"}, "source": {"quiz-paper"}}
    code = 'A = "quiz-board"\nB = ("quiz-paper", "other")\nC = f"x{A}"\nD = "hle"\n"""Doc: quiz-board."""\n'
    assert named_ids(code, ids, frozenset({"hle"})) == ["1: 'quiz-board' (board)", "2: 'quiz-paper' (source)"]
    assert named_ids(code, ids, frozenset()) == ["1: 'quiz-board' (board)", "2: 'quiz-paper' (source)",
                                                 "4: 'hle' (board)"]


def test_the_repositorys_ids_are_read():
    ids = repository_ids()
    assert {"ai-iq", "hle-calibration", "pedagogy-cdpk", "aa-intelligence-v3-0"} <= ids["board"]
    assert "benchmark-boards" in ids["index"] and "benchmark-boards" not in ids["board"]
    assert "lmarena" in ids["source"] and "aa-response-time" in ids["benchmark"]


@pytest.mark.parametrize("folder", CLEAN_FOLDERS)
def test_no_core_module_names_an_id_of_this_repository(folder):
    ids = repository_ids()
    found = {
        str(path.relative_to(PACKAGE)): hits
        for path in sorted((PACKAGE / folder).glob("*.py"))
        if (hits := named_ids(path.read_text(encoding="utf-8"), ids))
    }
    assert found == {}
