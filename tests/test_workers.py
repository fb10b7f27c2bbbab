"""Compute on both cores (build/workers.py): a stage forked at the start of compute gives back what it would have
computed in the parent, and a worker that fails becomes the build's placed message, never a hang or a traceback."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from sitegen import build
from sitegen.build import workers

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the workers fork")


@pytest.fixture(autouse=True)
def two_jobs(monkeypatch):
    monkeypatch.setenv("SITEGEN_JOBS", "2")


def test_a_forked_stage_returns_its_value_computed_in_another_process():
    handle = workers.start("squares", lambda: (os.getpid(), [i * i for i in range(5)], {"k": (1.5, None)}))
    pid, squares, rest = handle.result()
    assert pid != os.getpid()
    assert squares == [0, 1, 4, 9, 16]
    assert rest == {"k": (1.5, None)}


def test_the_worker_gets_the_parent_s_objects_frozen_and_the_parent_takes_them_back():
    import gc

    held = [{"row": i} for i in range(1000)]  # the parent's objects at the fork: the worker's collections skip them
    before = gc.get_freeze_count()
    handle = workers.start("frozen", lambda: gc.get_freeze_count())
    assert gc.get_freeze_count() == before == 0  # the parent's collector sees them again at once
    assert handle.result() >= len(held)


def test_with_one_job_the_stage_runs_in_this_process_when_asked_for(monkeypatch):
    monkeypatch.setenv("SITEGEN_JOBS", "1")
    ran = []
    handle = workers.start("here", lambda: ran.append(os.getpid()) or "done")
    assert ran == []  # not begun until its result is wanted
    assert handle.result() == "done"
    assert ran == [os.getpid()]


def test_an_exception_in_the_worker_is_a_one_line_message():
    def fails():
        raise ValueError("month 2024-10 has no rows")

    with pytest.raises(workers.Failed) as caught:
        workers.start("the as-of months", fails).result()
    assert str(caught.value) == "the as-of months: ValueError: month 2024-10 has no rows"


def test_a_worker_that_dies_is_reported_with_its_signal():
    handle = workers.start("dies", lambda: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(workers.Failed) as caught:
        handle.result()
    assert str(caught.value) == f"dies: the worker process ended without an answer (stopped by signal {signal.SIGKILL})"


def test_a_result_that_cannot_be_sent_back_is_a_message():
    with pytest.raises(workers.Failed) as caught:
        workers.start("unpicklable", lambda: lambda: 1).result()
    assert str(caught.value).startswith("unpicklable: its result could not be sent back (")


def test_an_answer_larger_than_a_frame_comes_back_whole():
    big = [bytes([i]) * (workers.CHUNK // 3 + i) for i in range(10)]  # about 3.3 frames of pickled bytes
    text = "é" * (workers.CHUNK + 17)
    value = workers.start("big", lambda: (big, text, {"n": len(big)})).result()
    assert value == (big, text, {"n": 10})


class _Unpicklable:
    def __reduce__(self):
        raise TypeError("not this one")


class _Dies:
    def __reduce__(self):
        os._exit(3)


def test_an_answer_that_fails_to_pickle_after_frames_were_sent_is_its_message():
    # the first items are pickled (and sent) before the last one fails: the parent drops what it read of them
    answer = [b"x" * (2 * workers.CHUNK), b"y" * workers.CHUNK, _Unpicklable()]
    with pytest.raises(workers.Failed) as caught:
        workers.start("half sent", lambda: answer).result()
    assert str(caught.value) == "half sent: its result could not be sent back (TypeError: not this one)"


def test_a_worker_that_dies_while_sending_its_answer_is_reported():
    answer = [b"x" * (2 * workers.CHUNK), _Dies()]
    with pytest.raises(workers.Failed) as caught:
        workers.start("cut", lambda: answer).result()
    assert str(caught.value) == "cut: the worker process ended without an answer (exit status 3)"


def test_releasing_free_memory_is_safe_anywhere():
    freed = [bytes(1 << 20) for _ in range(8)]
    del freed
    assert workers.release_free_memory() is None  # glibc's malloc_trim where there is one, else nothing


def test_a_worker_past_its_deadline_is_stopped_and_reported():
    handle = workers.start("slow", lambda: time.sleep(60))
    began = time.monotonic()
    with pytest.raises(workers.Failed) as caught:
        handle.result(timeout=0.5)
    assert time.monotonic() - began < 10
    assert str(caught.value) == "slow: no answer from the worker process within 0.5 s (it was stopped)"
    assert handle.pid is None  # reaped: no zombie left


def test_the_deadline_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("SITEGEN_WORKER_DEADLINE", "2.5")
    assert workers.deadline() == 2.5
    monkeypatch.setenv("SITEGEN_WORKER_DEADLINE", "soon")
    assert workers.deadline() == workers.DEADLINE


def test_cancel_stops_a_worker_whose_result_is_not_wanted():
    handle = workers.start("unwanted", lambda: time.sleep(60))
    pid = handle.pid
    handle.cancel()
    assert handle.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone and reaped


def test_a_failed_as_of_worker_fails_the_build_with_a_placed_message(tmp_path, monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
    from hardkit import make_tree, model_doc

    root = make_tree(tmp_path / "repo", [model_doc("org/m1", {"hle": 20.0, "gpqa-diamond": 50.0})])
    monkeypatch.setenv("SITEGEN_CACHE", "off")

    def broken(*args):
        raise RuntimeError("no months")

    monkeypatch.setattr(build, "_asof_stage", broken)
    outcome = build.run(root, tmp_path / "out")
    assert [p.format() for p in outcome.problems if p.field == "build"] == [
        "build: computing the boards as of every month: RuntimeError: no months (nothing was written; "
        "SITEGEN_JOBS=1 computes everything in one process, SITEGEN_DEBUG=1 shows more)"
    ]
    assert not (tmp_path / "out").exists()


CHART_REBUILD = r"""
import json, sys
import jinja2
from pathlib import Path
from sitegen import build, reuse
from sitegen.site import render

root = Path(sys.argv[1])
env = render.environment()
edited = (Path(render.__file__).parent.parent / "templates/model.html").read_text(encoding="utf-8")
edited = edited.replace("{% block content %}", "{% block content %}<p>edited model template</p>", 1)
env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({"model.html": edited}), env.loader])
reuse.package_digest = lambda: "a package with an edited model.html"
outcome = build.run(root, root / "site")
print(json.dumps({"summary": outcome.summary, "altair": "altair" in sys.modules}))
"""


def test_a_rebuild_after_a_template_edit_imports_no_altair(tmp_path, monkeypatch):
    """The chart specs are kept in the compute cache by the digest of their inputs (the data, the code without its
    templates, the settings): a model-page template edit finds them there and never imports altair."""
    import json
    import subprocess

    sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
    from hardkit import make_tree, model_doc

    root = make_tree(
        tmp_path / "repo",
        [
            model_doc(f"org/m{i}", {"hle": 10.0 + i, "gpqa-diamond": 40.0 + 2 * i, "aime-2025": 30.0 + i})
            for i in range(4)
        ],
    )
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    assert build.run(root, root / "site").summary  # the first build fills the cache (and built the charts)
    assert list((root / ".sitegen-cache/charts").glob("*.pickle"))
    charts_before = {p.name: p.read_bytes() for p in (root / "site/assets/charts").iterdir()}
    done = subprocess.run(
        [sys.executable, "-c", CHART_REBUILD, str(root)], capture_output=True, text=True, timeout=600, check=True
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["summary"].startswith("4 models")
    assert answer["altair"] is False
    assert "edited model template" in (root / "site/models/org/m1/index.html").read_text(encoding="utf-8")
    assert {p.name: p.read_bytes() for p in (root / "site/assets/charts").iterdir()} == charts_before


def test_the_site_is_the_same_whether_the_as_of_months_are_forked_or_not(tmp_path, monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parent / "hardening"))
    from hardkit import make_tree, model_doc, snapshot

    root = make_tree(
        tmp_path / "repo",
        [
            model_doc(
                f"org/m{i}", {"hle": 8.0 + 3 * i, "gpqa-diamond": 35.0 + i, "aime-2025": 20.0 + 4 * i}, released=r
            )
            for i, r in enumerate(["2024-10", "2025-01", "2025-03", "2025-05"])
        ],
    )
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    monkeypatch.setenv("SITEGEN_CACHE", "off")
    sites = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("SITEGEN_JOBS", jobs)
        assert build.run(root, tmp_path / f"site-{jobs}").summary.startswith("4 models")
        sites[jobs] = snapshot(tmp_path / f"site-{jobs}")
    assert any(name.startswith("api/v1/indices/") and name.count("/") > 3 for name in sites["2"])  # as-of months
    assert sites["1"] == sites["2"]


def test_the_worker_computes_ai_iqs_months_and_the_parent_every_other_definitions():
    defs = {"iq": {"kind": "ai-iq"}, "iq-2": {"kind": "ai-iq"}, "aa": {"kind": "weighted-mean"}, "c": {"kind": "cost"}}
    assert build._worker_ids(defs) == {"iq", "iq-2"}
    assert build._worker_ids({"aa": {"kind": "weighted-mean"}}) == set()  # the worker then computes no board
