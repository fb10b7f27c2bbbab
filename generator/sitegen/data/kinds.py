"""Index kinds under generic names: what a definition in methodology/indices/*.yaml may write as its `kind`.

Each computation of the engine (`indices/boards.py`: `COMPUTERS`, `MULTI_BOARD`) is registered under the name of the
methodology it was first written for; the generic names below say what it does, so a leaderboard of any benchmark
can define an index in YAML alone. Loading a definition turns a generic name into the engine's name
(`resolve_kinds`), so every later stage sees one name per computation; the schema
(`schemas/index.schema.json`) accepts both and checks the same fields for both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

#: Generic kind name -> the engine's name for the same computation (methodology/index-kinds.md documents them).
GENERIC: Mapping[str, str] = {
    "anchor-mapping": "ai-iq",  # benchmarks mapped through anchor tables to one scale, imputation tiers, compression
    "anchor-mean": "ai-eq",  # the mean of a few benchmarks each mapped through an anchor table, with adjustments
    "question-accuracy": "hle",  # accuracy from per-question rows with binomial intervals, and calibration error
    "cost-frontier": "cost",  # blended price, cost and value frontiers
}


def engine_kind(kind: object) -> object:
    """The engine's name for a kind: a generic name resolved, any other value as it is (the schema judges it)."""
    return GENERIC.get(kind, kind) if isinstance(kind, str) else kind


def resolve_kinds(definitions: Iterable[dict]) -> None:
    """Write the engine's name into each parsed definition whose `kind` is a generic name (in place)."""
    for data in definitions:
        if isinstance(data, dict) and "kind" in data:
            data["kind"] = engine_kind(data["kind"])
