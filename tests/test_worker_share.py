"""Which as-of shares the compute worker takes (build._worker_share): those of build.WORKER_KINDS; but when the
compute cache holds all of theirs (the worker would only load them), the shares the cache lacks instead, the ones an
edit reached, so those months are computed on the second core beside today's boards (the parent loads the rest). The
fixture is test_asof's toy and late indices over b1, with an AI IQ definition over b2."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent / "indices"))
from indexkit import results
from test_asof import DEFS, FRAME, PEOPLE, RECORDS

from sitegen import build
from sitegen.build.simcache import FileStore
from sitegen.indices import asof, simcache

IQ = {"id": "iq", "kind": "ai-iq", "name": "IQ", "version": "1", "dimensions": [{"benchmarks": [{"benchmark": "b2"}]}]}
ALL = {**DEFS, "iq": IQ}
BASE = pd.concat(
    [FRAME, results({"model": "o/a", "benchmark": "b2", "value": 10, "source": "snap", "retrieved": "2025-01-20"})],
    ignore_index=True,
)


def _share(store: FileStore | None) -> set[str]:
    plan = asof.asof_plan(BASE, PEOPLE, RECORDS, ALL)
    digests = asof.InputDigests(plan.results, PEOPLE, {}, [])
    with simcache.kept_in(store):
        return build._worker_share(plan, ALL, {}, digests)


def _kept(tmp_path: Path, ids: list[str]) -> FileStore:
    """A store holding the shares of `ids` (their bytes do not matter here: only whether they are kept)."""
    plan = asof.asof_plan(BASE, PEOPLE, RECORDS, ALL)
    keys = asof.part_keys(plan, asof.InputDigests(plan.results, PEOPLE, {}, []), ALL, {}, sorted(ALL), slim=True)
    store = FileStore(tmp_path / "blocks", "salt")
    for index_id in ids:
        store.put(keys[index_id], b"kept")
    return FileStore(tmp_path / "blocks", "salt")


def test_the_worker_takes_the_shares_an_edit_reached_when_its_own_are_kept(tmp_path):
    # iq's and late's shares are kept, toy's is not (as after an edit that reached toy alone)
    assert _share(_kept(tmp_path / "a", ["iq", "late"])) == {"toy"}
    # everything kept: nothing for the worker to compute (the parent loads every share)
    assert _share(_kept(tmp_path / "b", ["iq", "late", "toy"])) == set()


def test_the_worker_keeps_its_own_kinds_when_their_shares_are_missing_or_there_is_no_cache(tmp_path):
    assert _share(_kept(tmp_path / "a", ["late"])) == {"iq"}  # iq's months are computed: the parent keeps toy's
    assert _share(None) == {"iq"}  # SITEGEN_CACHE=off: no store to ask
    assert not FileStore(tmp_path / "empty", "salt").has("anything")
