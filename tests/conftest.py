"""Session fixtures over the repository's own data, shared by every test that only reads them.

Validating and computing the real data takes ~25 s; a dozen test files used to do it again each. Here validation
is done once per test process (once per worker under pytest-xdist) and the computation once per run (the compute
cache, real_computed). A test that changes what it gets must copy it first; the session ends with a check that
nobody changed the shared computation."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
#: Set by GitHub Actions (and most CI services): tools/test.sh has prepared everything a test needs there.
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# Hypothesis: no test depends on the machine's speed (no per-example deadline, no too-slow health check: a busy
# machine is not a failure), and in CI every run draws the same examples (derandomize), so a red CI run is the
# same red run again and a green one is not luck. Locally examples stay random, and the failures found are kept
# in .hypothesis/. A test's own @settings still wins on what it sets.
settings.register_profile("sitegen", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("sitegen"), derandomize=True, database=None,
                          print_blob=True)
settings.load_profile("ci" if CI else "sitegen")

def pytest_configure(config):
    if CI and os.environ.get("SITEGEN_UPDATE_EXPECTED"):
        # the snapshot switch (tests/validation/test_rejections.py, CONTRIBUTING.md) rewrites the expected files
        # with whatever the code prints: a run with it proves nothing
        raise pytest.UsageError("SITEGEN_UPDATE_EXPECTED rewrites the expected outputs; it is not for CI")


#: Skips that CI keeps as skips, because they are not about the environment: a source capture whose terms forbid
#: redistribution is never in the repository, so no CI machine can have it (tests/indices/indexkit.py download(),
#: tests/importers/test_importers.py); whoever downloads it runs the test.
CI_MAY_SKIP = ("terms forbid redistribution",)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI=true a skipped test fails instead: a test that cannot run there (chromium, node, axe-core, the EEE
    validator's environment missing) means tools/test.sh did not prepare it, which CI must not pass over."""
    outcome = yield
    report = outcome.get_result()
    if not (CI and report.skipped) or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if not any(allowed in reason for allowed in CI_MAY_SKIP):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where tools/test.sh prepares what every test needs: {reason}"


def _shared_tmp(tmp_path_factory) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def _one_at_a_time(tmp_path_factory, name: str):
    with open(_shared_tmp(tmp_path_factory) / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield


@pytest.fixture(scope="session")
def shared_tmp(tmp_path_factory) -> Path:
    """The run's temporary folder, shared by every pytest-xdist worker (each has its own below it, popen-gw<N>)."""
    return _shared_tmp(tmp_path_factory)


@pytest.fixture(scope="session")
def one_at_a_time(tmp_path_factory):
    """one_at_a_time(name): a block held by one test process of the run at a time (a lock file in shared_tmp):
    what one makes in it, the others find made when their turn comes."""
    return functools.partial(_one_at_a_time, tmp_path_factory)


#: The data tree's digest (build/stamp.data_digest), taken before real_repo reads it: the compute cache's key.
_REAL_INPUTS: list[str] = []


@pytest.fixture(scope="session")
def real_repo():
    """This repository's data, validated (data.validate_repo): the Repo; a validation error fails the test."""
    from sitegen.build import stamp, validate_repo

    _REAL_INPUTS[:] = [stamp.data_digest(ROOT)]
    repo, problems = validate_repo(ROOT)
    assert repo is not None, [p.format() for p in problems if p.severity == "error"][:5]
    return repo


#: The browser the browser tests drive (tests/site/test_browser.py, tests/test_serve_browser.py): Debian's chromium,
#: which tools/test.sh installs.
CHROMIUM = os.environ.get("SITEGEN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def chromium():
    """One headless chromium per test process (per worker under pytest-xdist), shared by every browser test: one
    Playwright per process, as its sync API allows no second one while the first runs. A test opens its own
    context and closes it."""
    import shutil

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed")  # about the environment: fails under CI=true (below)
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"chromium not found at {CHROMIUM}")  # likewise
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


#: The parts of build.Computed the end-of-session check digests (~1 s; the as-of views and the DataFrames are left
#: out: pickling them takes longer than computing them).
CHECKED = ("boards", "benchmark_boards", "benchmarks", "sources", "index_defs", "api_files", "frontiers",
           "result_records", "model_records", "ahead")


def _digest(computed) -> str:
    parts = [getattr(computed, name) for name in CHECKED]
    return hashlib.sha256(pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest()


@pytest.fixture(scope="session")
def real_computed(real_repo, tmp_path_factory):
    """build.compute over this repository's data (every board, the API files, the as-of views): read-only.

    Computed as `sitegen build --root .` computes it, through the repository's compute cache (build/simcache.py:
    `.sitegen-cache/`, or SITEGEN_CACHE's folder; SITEGEN_CACHE=off computes afresh), keyed by the data's and the
    code's digests: the first test process computes and keeps it, the other workers wait for it (a lock in the
    run's shared temporary folder) and load it, and so does .ci/run's `build --check` after the tests."""
    from sitegen.build import compute, simcache

    with _one_at_a_time(tmp_path_factory, "real-computed"):
        computed = compute(real_repo, simcache.folder(ROOT), inputs=_REAL_INPUTS[0], root=ROOT)
    before = _digest(computed)
    yield computed
    assert _digest(computed) == before, "a test changed the shared real_computed (tests/conftest.py): copy it first"


#: Under pytest-xdist with --dist loadgroup (tools/test.sh), every file's tests run on one worker, so that its
#: module fixtures are built once, except the files named here: slow tests spread over the workers one by one,
#: which share no module fixture (test_refresh_pr) or only session ones (test_browser: chromium and the fixture
#: site, built once per worker, and the real site, rendered once per run; a third of the suite's time, which would
#: otherwise keep one worker busy alone; test_docs_commands: each part of the documents' commands in a clone of its
#: own; test_incremental: ~110 s of small builds whose module fixtures, a first build of each toy tree, take 1-4 s,
#: so a worker that runs its tests builds them again).
SPREAD = {"test_refresh_pr.py", "test_browser.py", "test_docs_commands.py", "test_incremental.py"}
#: Each work unit's measured seconds (setup + call + teardown of its tests), one `SECONDS UNIT` line each, the unit
#: a file's path or, for a SPREAD file, a test's id: the units are handed out longest first, so that no slow one
#: starts last and keeps one worker busy alone while the other has ended. A unit not listed (a new file) comes
#: after the listed ones. Refreshed from a whole run on an idle machine: SITEGEN_UNIT_TIMES=tests/unit-times.txt
#: CI=true bash tools/test.sh (below, pytest_sessionfinish; benchmarks/ci-time.md).
UNIT_TIMES = ROOT / "tests" / "unit-times.txt"
#: The fixtures of the real data that one worker computes (or renders) while the others wait for it (a lock).
REAL_DATA = {"real_computed", "real_site"}


def _unit(nodeid: str) -> str:
    """The work unit a test belongs to: its file, or the test itself in a SPREAD file (xdist's group suffix off)."""
    path = nodeid.split("::", 1)[0]
    if nodeid.endswith("@" + path):
        nodeid = nodeid[: -len(path) - 1]
    return nodeid if path.rsplit("/", 1)[-1] in SPREAD else path


def unit_times(path: Path = UNIT_TIMES) -> dict[str, float]:
    """The table of unit seconds ('#' lines are comments); {} without the file."""
    if not path.is_file():
        return {}
    times = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            seconds, unit = line.split(None, 1)
            times[unit] = float(seconds)
    return times


def order_units(items, times: dict[str, float]) -> None:
    """Sort items (in place, stably: each unit's tests stay in order) by their unit's time, longest first; then
    move the longest unit that uses no real data (REAL_DATA) to second place, so that the second worker has work
    while the first computes the real data rather than waiting on the lock for it."""
    items.sort(key=lambda item: -times.get(_unit(item.nodeid), 0.0))
    units: dict[str, list] = {}
    for item in items:
        units.setdefault(_unit(item.nodeid), []).append(item)
    order = list(units)

    def need(unit):
        return any(REAL_DATA & set(getattr(item, "fixturenames", ())) for item in units[unit])

    if len(order) < 3 or not need(order[0]) or not need(order[1]):
        return
    free = next((unit for unit in order[2:] if not need(unit)), None)
    if free is not None:
        order.remove(free)
        order.insert(1, free)
        items[:] = [item for unit in order for item in units[unit]]


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    if not getattr(config.option, "loadgroup", False):  # set on the workers of --dist loadgroup (xdist/remote.py)
        return
    order_units(items, unit_times())
    for item in items:
        if item.path.name not in SPREAD and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


#: SITEGEN_UNIT_TIMES=PATH: the run's seconds per unit, summed over its tests' setup, call and teardown as the
#: controller receives their reports, written to PATH when the run ends with every test passed (a whole run's table
#: for UNIT_TIMES; a partial or failed run writes nothing).
_MEASURED: dict[str, float] = {}


def pytest_runtest_logreport(report):
    if os.environ.get("SITEGEN_UNIT_TIMES") and not os.environ.get("PYTEST_XDIST_WORKER"):
        unit = _unit(report.nodeid)
        _MEASURED[unit] = _MEASURED.get(unit, 0.0) + report.duration


def pytest_sessionfinish(session, exitstatus):
    target = os.environ.get("SITEGEN_UNIT_TIMES")
    if not target or os.environ.get("PYTEST_XDIST_WORKER") or exitstatus != 0 or not _MEASURED:
        return
    config = session.config
    if config.option.keyword or config.option.markexpr or config.args_source == pytest.Config.ArgsSource.ARGS:
        return  # a part of the suite: its table would drop every unit it did not run
    lines = [f"{seconds:.1f} {unit}" for unit, seconds in sorted(_MEASURED.items(), key=lambda kv: (-kv[1], kv[0]))]
    header = ("# Seconds per work unit (tests/conftest.py UNIT_TIMES), from a whole run: "
              "SITEGEN_UNIT_TIMES=tests/unit-times.txt CI=true bash tools/test.sh\n")
    Path(target).write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
