"""Index kinds under generic names: what a definition in methodology/indices/*.yaml may write as its `kind`.

Each computation of the engine (`indices/boards.py`: `COMPUTERS`, `MULTI_BOARD`) is registered under the name of the
methodology it was first written for; the generic names below say what it does, so a leaderboard of any benchmark
can define an index in YAML alone. Loading a definition turns a generic name into the engine's name
(`resolve_kinds`), so every later stage sees one name per computation; the schema
(`schemas/index.schema.json`) accepts both and checks the same fields for both.

What the author wrote stays what they see: the definition keeps it under `WRITTEN` (only when it differs from the
engine's name), the engine copies it into the boards it makes, and the JSON API shows it as the board's `kind`
(`as_published`); the schema judges the definition as written (`as_written`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: Generic kind name -> the engine's name for the same computation (methodology/index-kinds.md documents them).
GENERIC: Mapping[str, str] = {
    "anchor-mapping": "ai-iq",  # benchmarks mapped through anchor tables to one scale, imputation tiers, compression
    "anchor-mean": "ai-eq",  # the mean of a few benchmarks each mapped through an anchor table, with adjustments
    "question-accuracy": "hle",  # accuracy from per-question rows with binomial intervals, and calibration error
    "cost-frontier": "cost",  # blended price, cost and value frontiers
}


#: The key under which a resolved definition, and each board made from it, keep the kind as the author wrote it
#: (the engine's `indices/parts.py`, `hle.py` and `compare.py` name it by this string: the engine imports no reader).
WRITTEN = "kind_as_written"


def engine_kind(kind: object) -> object:
    """The engine's name for a kind: a generic name resolved, any other value as it is (the schema judges it)."""
    return GENERIC.get(kind, kind) if isinstance(kind, str) else kind


def resolve_kinds(definitions: Iterable[dict]) -> None:
    """Write the engine's name into each parsed definition whose `kind` is a generic name (in place)."""
    for data in definitions:
        if isinstance(data, dict) and "kind" in data and engine_kind(data["kind"]) != data["kind"]:
            data[WRITTEN], data["kind"] = data["kind"], engine_kind(data["kind"])


def as_written(data: Any) -> Any:
    """A resolved definition as its author wrote it (the kind they gave, no `WRITTEN`): what the schema judges."""
    if not isinstance(data, dict) or WRITTEN not in data:
        return data
    return {key: (data[WRITTEN] if key == "kind" else value) for key, value in data.items() if key != WRITTEN}


def as_published(board: Mapping) -> Mapping:
    """A board with the kind its definition's author wrote as its `kind` (the engine's name stays internal)."""
    if WRITTEN not in board:
        return board
    return {key: (board[WRITTEN] if key == "kind" else value) for key, value in board.items() if key != WRITTEN}
