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


class Used(Memory):
    """A store that records the entries a run used (build/simcache.FileStore's `used`: what prune keeps)."""

    def __init__(self):
        super().__init__()
        self.used: set[str] = set()

    def get(self, key):
        self.used.add(key)
        return super().get(key)

    def put(self, key, data):
        self.used.add(key)
        super().put(key, data)


def test_a_definition_whose_inputs_an_edit_did_not_reach_is_loaded_whole(monkeypatch):
    edited = BASE.copy()
    edited.loc[3, "value"] = 11.0  # o/a's b2: neither toy nor late reads it
    plain = asof.compute_asof(edited, PEOPLE, RECORDS, [], DEFS)
    store = Used()
    with simcache.kept_in(store):
        asof.compute_asof(BASE, PEOPLE, RECORDS, [], DEFS)
    months = set(store.entries)
    store.used.clear()
    # no month's frames are filtered and no engine runs: each definition's share comes from its one entry
    monkeypatch.setattr(asof, "frames_at", lambda *a, **k: pytest.fail("a month was filtered"))
    with simcache.kept_in(store):
        again = asof.compute_asof(edited, PEOPLE, RECORDS, [], DEFS)
    assert again == plain  # equal values (a loaded share's strings are its own objects, so not its pickle's bytes)
    assert again["engine_runs"] == plain["engine_runs"] == 3 + 2 + 1 + 3  # test_asof counts them
    # the months of a share loaded whole are used too: the build's prune keeps them for an edit that reaches them
    assert months <= store.used


def test_an_edit_of_a_read_result_recomputes_only_the_months_that_hold_it(monkeypatch):
    edited = BASE.copy()
    edited.loc[1, "value"] = 75.0  # o/b's b1, captured 10 April (o/b released 5 March)
    plain = asof.compute_asof(edited, PEOPLE, RECORDS, [], DEFS)
    store = Used()
    with simcache.kept_in(store):
        asof.compute_asof(BASE, PEOPLE, RECORDS, [], DEFS)
    seen = []
    engine = asof.compute_boards

    def recorded(res, models, benchmarks, defs, raw=None):
        seen.append((next(iter(defs)), sorted(set(res["model"]))))
        return engine(res, models, benchmarks, defs, raw)

    monkeypatch.setattr(asof, "compute_boards", recorded)
    with simcache.kept_in(store):
        again = asof.compute_asof(edited, PEOPLE, RECORDS, [], DEFS)
    assert again == plain
    # toy: April known and March released hold o/b's row (the same inputs: one run); January, February and
    # March known do not and are loaded. late: in force from March, the same frame as toy's, its own key
    assert seen == [("late", ["o/a", "o/b", "o/c"]), ("toy", ["o/a", "o/b", "o/c"])]


def test_each_definitions_share_is_keyed_by_what_it_reads():
    plan = asof.asof_plan(BASE, PEOPLE, RECORDS, DEFS)
    digests = asof.InputDigests(plan.results, plan.models, {}, [])

    def keys(frame=BASE, people=PEOPLE, defs=DEFS, slim=False):
        plan = asof.asof_plan(frame, people, RECORDS, defs)
        digests = asof.InputDigests(plan.results, plan.models, {}, [])
        return asof.part_keys(plan, digests, defs, {}, sorted(defs), slim)

    base = keys()
    assert base == asof.part_keys(plan, digests, DEFS, {}, ["late", "toy"], False) and base["toy"] != base["late"]
    b2 = BASE.copy()
    b2.loc[3, "value"] = 11.0
    assert keys(b2) == base  # a benchmark neither reads
    b1 = BASE.copy()
    b1.loc[0, "value"] = 51.0
    assert keys(b1)["toy"] != base["toy"] and keys(b1)["late"] != base["late"]
    moved = BASE.copy()
    moved.loc[3, "published"] = "2025-02-20"  # b2 unread, but o/a's publication month enters toy's changes
    assert keys(moved)["toy"] != base["toy"]
    renamed = models({"model": "o/a", "released": "2025-01-10", "name": "A"},
                     {"model": "o/b", "released": "2025-03-05"}, {"model": "o/c", "released": None})
    assert keys(people=renamed)["toy"] != base["toy"]
    assert keys(slim=True)["toy"] != base["toy"]
    # late's versions are read with toy's (same name): a change to late's history is toy's change too
    later = dict(DEFS, late=dict(DEFS["late"], history=[{"version": "2", "from": "2025-04", "change": "x"}]))
    assert keys(defs=later)["toy"] != base["toy"]
    other = dict(DEFS, other=dict(DEFS["toy"], id="other", name="Other"))
    assert keys(defs=other)["toy"] == base["toy"]
    # a version of the same name reading b2 too: versions may make the same board (one share holds it), so a
    # change to b2 reaches toy's share as well as late's, and the two hit or miss together
    wider = dict(DEFS, late=dict(DEFS["late"], constituents=[{"benchmark": "b1", "weight": 1},
                                                             {"benchmark": "b2", "weight": 1}]))
    assert keys(b2, defs=wider)["toy"] != keys(defs=wider)["toy"]
    assert keys(b2, defs=wider)["late"] != keys(defs=wider)["late"]


def test_a_boards_as_of_texts_are_kept_by_its_share_key_and_the_snapshots_days(monkeypatch):
    import dataclasses

    from sitegen import build, export

    plan = asof.asof_plan(BASE, PEOPLE, RECORDS, DEFS)
    plain = build._asof_texts(plan, asof.asof_part(plan, [], DEFS, slim=True))
    store = Memory()
    with simcache.kept_in(store):
        part = asof.asof_part(plan, [], DEFS, slim=True)
        assert set(part["keys"]) == {"toy", "late"}
        assert build._asof_texts(plan, part) == plain
        monkeypatch.setattr(export, "asof_texts", lambda *a, **k: pytest.fail("written again"))
        assert build._asof_texts(plan, asof.asof_part(plan, [], DEFS, slim=True)) == plain
        # the snapshot's day is in every month file ("snapshot_retrieved"): another day writes them again
        moved = dataclasses.replace(plan, snapshots={"snap": "2025-04-11"})
        with pytest.raises(pytest.fail.Exception, match="written again"):
            build._asof_texts(moved, asof.asof_part(moved, [], DEFS, slim=True))
    assert '"snapshot_retrieved":"2025-04-10"' in plain["toy"]["api/v1/indices/toy/2025-01.json"]
