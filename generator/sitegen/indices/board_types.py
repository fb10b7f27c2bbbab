"""Typed views of what the engine hands on: a board, its rows, and a row's cells.

The boards stay plain dicts (they are written as JSON as they are); these TypedDicts say which keys they carry and
what each holds where they cross a stage boundary: `build.Computed.boards` and `.benchmark_boards` (the engine's
output after build.compute has taken the simulation's `frontiers` and `ahead` off), read by site/, export.py and
the as-of views. tests/indices/test_board_types.py checks every board the repository computes against them, so a
key added to a board without being declared here fails there.

An index board (AI IQ, AA, LMArena, ...) and a benchmark board (one benchmark's results) share `Board`; the keys
only one kind carries are marked in the comments.
"""

# No `from __future__ import annotations`: TypedDict reads Required[...] from the evaluated annotations only, and
# tests/indices/test_board_types.py reads __required_keys__.
from typing import Any, Required, TypedDict


class Cell(TypedDict, total=False):
    """One component of an index row: a benchmark's (or a dimension's) contribution to the model's value."""

    id: Required[str]  # the benchmark or dimension
    kind: Required[str]  # "benchmark" or "dimension"
    value: Required[float | None]  # what the index takes (observed or imputed)
    raw: Required[float | None]  # the benchmark's own score, before the index's scaling
    how: Required[str]  # "observed", "imputed", ...
    source: Required[str | None]
    retrieved: Required[str | None]
    interval: list[float] | None
    interval_how: str | None
    interval_reason: str
    reason: str  # why an imputed value is what it is
    subset: str
    percentile: dict[str, Any]
    sibling: str  # the family member an imputed value was taken from


class Row(TypedDict, total=False):
    """One model on a board."""

    model: Required[str]
    value: Required[float | None]
    rank: Required[int | None]
    interval: list[float] | None
    interval_how: str | None
    interval_reason: str
    interval_method: str
    interval_mc_error: list[float]
    interval_measurement: list[float]
    rank_interval: list[int] | None
    rank_interval_mc_error: list[float]
    tier: int | None
    ahead_of_next: float | None
    source: str
    retrieved: str
    url: str | None
    subset: str
    note: str
    reason: str
    # index boards
    manual: dict[str, Any]  # a value given by hand where the index cannot be computed (value, source)
    status: str
    coverage: dict[str, Any]
    components: list[Cell]
    imputed_share: float
    best_subject: None
    worst_subject: None
    bad_format: None
    # benchmark boards
    how: str
    stderr: float | None
    ci_low: float | None
    ci_high: float | None
    harness: str | None
    self_reported: bool


class Board(TypedDict, total=False):
    """An index board or a benchmark board, as build.compute returns it."""

    name: Required[str]
    unit: Required[str]
    description: Required[str]
    rows: Required[list[Row]]
    uncertainty: Required[dict[str, Any]]
    higher_is_better: bool
    # index boards
    index: str
    version: str
    kind: str
    definition: str
    source_snapshot: str | None
    imputation_calibration: list[dict[str, Any]]
    scope: dict[str, Any]
    references: list[dict[str, Any]]
    # benchmark boards
    benchmark: str
    question_set: str
    other_question_sets: list[dict[str, Any]]
    category_tables: list[dict[str, Any]]
