"""site/assembly._in_parallel: the pages in interleaved shares over forked processes, each process starting with
a share of its own and then taking the next share left, so every item is done exactly once, whoever does it."""

from __future__ import annotations

import os

from sitegen.site import assembly


def by_process(items: list[int]) -> dict[str, tuple[int, int]]:
    """Each item squared, with the process that did it."""
    return {str(i): (i * i, os.getpid()) for i in items}


def test_every_item_is_done_once_and_each_process_does_a_share(monkeypatch):
    monkeypatch.setenv("SITEGEN_JOBS", "2")
    monkeypatch.setattr(assembly, "_FEW", 2)
    items = list(range(100))  # 2 processes x 8 shares: shares of 6 or 7 items
    out = assembly._in_parallel(by_process, items)
    assert {k: v[0] for k, v in out.items()} == {str(i): i * i for i in items}
    pids = {pid for _, pid in out.values()}
    assert os.getpid() in pids and len(pids) == 2  # this process's first share, and the worker's
    # a share is items[n::16]: the items one process did are whole shares
    for pid in pids:
        done = {int(k) for k, (_, p) in out.items() if p == pid}
        assert done == {i for i in items if i % 16 in {i % 16 for i in done}}
    assert assembly._JOB is None  # the job is handed to the workers only while they run


def test_one_process_does_everything_with_one_job(monkeypatch):
    monkeypatch.setenv("SITEGEN_JOBS", "1")
    monkeypatch.setattr(assembly, "_FEW", 2)
    out = assembly._in_parallel(by_process, [3, 1, 2])
    assert out == {"3": (9, os.getpid()), "1": (1, os.getpid()), "2": (4, os.getpid())}
