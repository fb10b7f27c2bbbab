"""The compute cache (build/simcache.py, indices/asof.InputDigests): a month's or today's boards are keyed by the
inputs they are computed from, so an edit recomputes only what it reaches, and a key never hits where an input
the engine reads differs. The fixture is test_asof's toy index over benchmark b1, with one result of another
benchmark (b2) it does not read."""

from __future__ import annotations

import pandas as pd
import pytest
from test_asof import DEFS, FRAME, PEOPLE, RECORDS

from indexkit import models, results
from sitegen.indices import asof, simcache

OTHER = results({"model": "o/a", "benchmark": "b2", "value": 10, "source": "snap", "retrieved": "2025-01-20"})
BASE = pd.concat([FRAME, OTHER], ignore_index=True)


def _key(frame: pd.DataFrame, people: pd.DataFrame = PEOPLE, definition: dict = DEFS["toy"], day: str = "2025-04-30",
         steps: dict | None = None) -> str:
    digests = asof.InputDigests(frame, people, {}, [])
    month = asof._MonthModels(people, steps if steps is not None else {}, day, {})
    return digests.key("toy", definition, frame, {}, month, asof.benchmarks_read(definition))


def test_a_changed_value_of_a_read_benchmark_changes_the_key():
    edited = BASE.copy()
    edited.loc[0, "value"] = 51.0  # o/a's b1
    assert _key(BASE) == _key(BASE.copy())
    assert _key(edited) != _key(BASE)


def test_a_result_of_a_benchmark_the_definition_does_not_read_leaves_the_key():
    edited = BASE.copy()
    edited.loc[3, "value"] = 11.0  # o/a's b2: toy reads b1 only
    assert _key(edited) == _key(BASE)
    assert _key(FRAME) == _key(BASE)


def test_a_model_row_a_definition_and_a_price_in_force_each_change_the_key():
    renamed = models({"model": "o/a", "released": "2025-01-10", "name": "A"},
                     {"model": "o/b", "released": "2025-03-05"}, {"model": "o/c", "released": None})
    assert _key(BASE, people=renamed) != _key(BASE)
    assert _key(BASE, definition=dict(DEFS["toy"], precision=3)) != _key(BASE)
    steps, _ = asof.price_tables(RECORDS)
    # o/a's price steps: 1/2 from 2025-01-01, 0.5/1 from 2025-03-15: the key follows the one in force that day
    assert _key(BASE, steps=steps, day="2025-02-28") != _key(BASE, steps=steps, day="2025-03-31")
    assert _key(BASE, steps=steps, day="2025-03-31") == _key(BASE, steps=steps, day="2025-04-30")


class Memory:
    salt = "test"

    def __init__(self):
        self.entries: dict[str, bytes] = {}

    def get(self, key):
        return self.entries.get(key)

    def put(self, key, data):
        self.entries[key] = data


def test_as_of_boards_kept_in_a_store_are_loaded_and_equal_a_computation_without_one(monkeypatch):
    plain = asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS)
    store = Memory()
    with simcache.kept_in(store):
        first = asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS)
    assert store.entries and first == plain
    # a second run loads every board: the engine is never called
    monkeypatch.setattr(asof, "compute_boards", lambda *a, **k: pytest.fail("computed again"))
    with simcache.kept_in(store):
        again = asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS)
    assert again == plain


def test_a_damaged_entry_is_computed_again_and_replaced():
    store = Memory()
    assert simcache.kept("a" * 64, lambda: {"x": 1}) == {"x": 1} and not store.entries  # outside kept_in
    with simcache.kept_in(store):
        assert simcache.kept("a" * 64, lambda: {"x": 1}) == {"x": 1}
        store.entries["a" * 64] = b"not a pickle"
        assert simcache.kept("a" * 64, lambda: {"x": 2}) == {"x": 2}
        assert simcache.kept("a" * 64, lambda: pytest.fail("not loaded")) == {"x": 2}
