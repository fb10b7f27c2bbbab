"""indices/board_types.py: the TypedDicts say every key a board, a row and a cell carry, and what each holds.

`problems` checks a value against a TypedDict at run time (mypy checks the code that reads the boards; this checks
that the boards the engine makes are what the types say), first on hand-written boards, then on every board this
repository computes."""

from __future__ import annotations

import types
import typing

from sitegen.indices.board_types import Board, Cell, Row


def problems(value, hint, where: str = "board") -> list[str]:
    """Where `value` is not of type `hint` (a TypedDict, list[...], dict[...], a union, a plain class or Any)."""
    origin = typing.get_origin(hint)
    if hint is typing.Any:
        return []
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a mapping"]
        hints = typing.get_type_hints(hint)
        found = [f"{where}.{k}: not declared in {hint.__name__}" for k in value if k not in hints]
        found += [f"{where}.{k}: missing" for k in sorted(hint.__required_keys__) if k not in value]
        for k, v in value.items():
            if k in hints:
                found += problems(v, hints[k], f"{where}.{k}")
        return found
    if origin in (typing.Union, types.UnionType):
        options = [problems(value, option, where) for option in typing.get_args(hint)]
        return [] if any(not o for o in options) else [f"{where}: {value!r} is none of {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        (item,) = typing.get_args(hint)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        return [] if isinstance(value, dict) else [f"{where}: {type(value).__name__}, not a mapping"]
    if hint is None or hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint is float:  # an integral value may be an int (a rank, a count written as a score)
        return [] if isinstance(value, (int, float)) and not isinstance(value, bool) else [f"{where}: {value!r} is not a number"]
    return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint.__name__}"]


CELL = {"id": "hle", "kind": "benchmark", "value": 20.0, "raw": None, "how": "observed", "source": "epoch",
        "retrieved": "2026-07-31", "interval": [18.5, 21.5], "interval_how": "derived"}
ROW = {"model": "o/m", "value": 61.2, "rank": 1, "status": "ranked", "coverage": {"scored": 1},
       "components": [CELL], "interval": None, "rank_interval": [1, 2], "tier": 1}
BOARD = {"name": "Index", "unit": "IQ", "description": "d", "rows": [ROW], "uncertainty": {}, "index": "ai-iq",
         "source_snapshot": None}


def test_a_board_of_declared_keys_and_types_conforms():
    assert problems(BOARD, Board) == []
    assert problems(ROW, Row, "row") == []
    assert problems(CELL, Cell, "cell") == []


def test_an_undeclared_key_a_missing_key_and_a_wrong_type_are_each_found():
    cell = {k: v for k, v in CELL.items() if k != "how"} | {"colour": "red", "value": "20"}
    row = ROW | {"rank": 1.5, "components": [cell]}
    board = BOARD | {"rows": [row]}
    assert sorted(problems(board, Board)) == [
        "board.rows[0].components[0].colour: not declared in Cell",
        "board.rows[0].components[0].how: missing",
        "board.rows[0].components[0].value: '20' is none of float | None",
        "board.rows[0].rank: 1.5 is none of int | None",
    ]


def test_every_board_the_repository_computes_conforms(real_computed):
    found = [p for boards in (real_computed.boards, real_computed.benchmark_boards)
             for key, board in sorted(boards.items()) for p in problems(board, Board, key)]
    assert found == []
    assert len(real_computed.boards) > 5 and len(real_computed.benchmark_boards) > 10
