"""A source's own published index (kind `published`): one value per model as the source publishes it, never
recomputed (its components are not public), from one source snapshot."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .parts import board, round_half_up, rows_of_source, select_by_benchmark


def compute(definition: Mapping, results: pd.DataFrame, models: pd.DataFrame) -> dict:
    """One board: every model the snapshot publishes the index for, ranked by the published value."""
    snapshot = definition["source_snapshot"]
    bench = definition["published"]["benchmark"]
    precision = definition.get("precision", 4)
    chosen = select_by_benchmark(
        rows_of_source(results, snapshot),
        {"sources": [snapshot], "only_listed": True},
        {bench: {"metric": "", "subset": ""}},
    )
    rows = [
        {
            "model": model,
            "value": round_half_up(rec["value"], precision),
            "rank": None,
            "status": "published",
            "source": rec["source"],
            "retrieved": rec["retrieved"],
            "url": rec["url"] or None,
            "coverage": {"have": None, "of": None},
            "_ranked": True,
        }  # no components to count: none are public
        for (model, _), rec in sorted(chosen.items())
    ]
    return board(definition, rows)
