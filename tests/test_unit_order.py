"""The order pytest-xdist's workers take the work units in (tests/conftest.py): longest first from the committed
table of measured seconds, the second worker's first unit one that does not wait for the real data, and the table
written back from a whole run."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parent / "conftest.py"


@pytest.fixture(scope="module")
def conftest(request):
    """tests/conftest.py as pytest loaded it (`import conftest` may find another folder's conftest.py)."""
    return next(plugin for plugin in request.config.pluginmanager.get_plugins()
                if getattr(plugin, "__file__", None) and Path(plugin.__file__).resolve() == CONFTEST)


class Item:
    """What order_units reads of a collected test: its id and its fixtures (the closure)."""

    def __init__(self, nodeid: str, *fixtures: str):
        self.nodeid, self.fixturenames = nodeid, list(fixtures)

    def __repr__(self):
        return self.nodeid


def ids(items) -> list[str]:
    return [item.nodeid for item in items]


def test_a_unit_is_its_file_or_a_spread_files_test_without_xdists_group_suffix(conftest):
    assert conftest._unit("tests/a/test_x.py::test_one[2]") == "tests/a/test_x.py"
    assert conftest._unit("tests/a/test_x.py::test_one@tests/a/test_x.py") == "tests/a/test_x.py"
    assert conftest._unit("tests/site/test_browser.py::test_home") == "tests/site/test_browser.py::test_home"
    assert conftest._unit("tests/site/test_browser.py::test_v[390-844-dark]") == \
        "tests/site/test_browser.py::test_v[390-844-dark]"
    # an @ in a parameter is not a group suffix
    assert conftest._unit("tests/importers/test_refresh_pr.py::test_n[a@b]") == \
        "tests/importers/test_refresh_pr.py::test_n[a@b]"


def test_the_table_reads_seconds_and_units_and_skips_comments(conftest, tmp_path: Path):
    table = tmp_path / "unit-times.txt"
    table.write_text("# measured\n134.5 tests/test_docs.py\n\n2.0 tests/site/test_browser.py::test_v[390-844-dark]\n",
                     encoding="utf-8")
    assert conftest.unit_times(table) == {"tests/test_docs.py": 134.5,
                                          "tests/site/test_browser.py::test_v[390-844-dark]": 2.0}
    assert conftest.unit_times(tmp_path / "absent.txt") == {}


def test_the_committed_table_names_only_units_that_exist(conftest):
    times = conftest.unit_times()
    assert len(times) >= 20 and all(seconds >= 0 for seconds in times.values())  # a unit under 0.05 s reads 0.0
    for unit in times:
        assert (conftest.ROOT / unit.split("::", 1)[0]).is_file(), unit


def test_units_go_longest_first_each_files_tests_in_their_order_unlisted_ones_last(conftest):
    items = [Item("tests/test_a.py::t1"), Item("tests/test_b.py::t1"), Item("tests/test_a.py::t2"),
             Item("tests/test_new.py::t1"), Item("tests/test_c.py::t1"), Item("tests/test_b.py::t2")]
    conftest.order_units(items, {"tests/test_a.py": 5.0, "tests/test_b.py": 30.0, "tests/test_c.py": 10.0})
    assert ids(items) == ["tests/test_b.py::t1", "tests/test_b.py::t2", "tests/test_c.py::t1", "tests/test_a.py::t1",
                          "tests/test_a.py::t2", "tests/test_new.py::t1"]


def test_the_second_unit_is_the_longest_that_does_not_wait_for_the_real_data(conftest):
    items = [Item("tests/test_docs.py::t", "clone", "real_computed"),
             Item("tests/site/test_browser.py::test_kinds[a]", "pages_server", "real_site"),
             Item("tests/test_wheel.py::t", "tmp_path"),
             Item("tests/test_small.py::t"),
             Item("tests/test_real.py::t1"), Item("tests/test_real.py::t2", "real_computed")]
    times = {"tests/test_docs.py": 130.0, "tests/site/test_browser.py::test_kinds[a]": 110.0,
             "tests/test_real.py": 60.0, "tests/test_wheel.py": 35.0, "tests/test_small.py": 3.0}
    conftest.order_units(items, times)
    # test_real.py needs it in one of its tests: it is not the one moved
    assert ids(items) == ["tests/test_docs.py::t", "tests/test_wheel.py::t",
                          "tests/site/test_browser.py::test_kinds[a]", "tests/test_real.py::t1",
                          "tests/test_real.py::t2", "tests/test_small.py::t"]


def test_nothing_moves_when_the_first_two_units_do_not_both_wait(conftest):
    items = [Item("tests/test_docs.py::t", "real_computed"), Item("tests/test_wheel.py::t"),
             Item("tests/test_real.py::t", "real_computed"), Item("tests/test_free.py::t")]
    times = {"tests/test_docs.py": 130.0, "tests/test_wheel.py": 35.0, "tests/test_real.py": 20.0,
             "tests/test_free.py": 10.0}
    conftest.order_units(items, times)
    assert ids(items) == ["tests/test_docs.py::t", "tests/test_wheel.py::t", "tests/test_real.py::t",
                          "tests/test_free.py::t"]
    only_real = [Item("tests/test_a.py::t", "real_site"), Item("tests/test_b.py::t", "real_computed"),
                 Item("tests/test_c.py::t", "real_computed")]
    conftest.order_units(only_real, {"tests/test_a.py": 3.0, "tests/test_b.py": 2.0, "tests/test_c.py": 1.0})
    assert ids(only_real) == ["tests/test_a.py::t", "tests/test_b.py::t", "tests/test_c.py::t"]


def test_a_whole_passed_run_writes_the_table_longest_first_and_a_partial_or_failed_one_nothing(conftest, tmp_path,
                                                                                              monkeypatch):
    from types import SimpleNamespace

    target = tmp_path / "unit-times.txt"
    monkeypatch.setenv("SITEGEN_UNIT_TIMES", str(target))
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setattr(conftest, "_MEASURED", {})
    reports = [("tests/test_a.py::t1@tests/test_a.py", 1.25), ("tests/test_a.py::t2@tests/test_a.py", 2.0),
               ("tests/site/test_browser.py::test_home", 9.0), ("tests/test_a.py::t1@tests/test_a.py", 0.5)]
    for nodeid, seconds in reports:
        conftest.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=seconds))

    def session(keyword="", markexpr="", source=pytest.Config.ArgsSource.TESTPATHS):
        option = SimpleNamespace(keyword=keyword, markexpr=markexpr)
        return SimpleNamespace(config=SimpleNamespace(option=option, args_source=source))

    conftest.pytest_sessionfinish(session(), 1)  # a failure
    conftest.pytest_sessionfinish(session(keyword="browser"), 0)
    conftest.pytest_sessionfinish(session(source=pytest.Config.ArgsSource.ARGS), 0)  # named paths
    assert not target.exists()
    conftest.pytest_sessionfinish(session(), 0)
    lines = target.read_text(encoding="utf-8").splitlines()
    # test_a.py: 1.25 + 2.0 + 0.5 s, to 0.1 s
    assert lines[0].startswith("# ")
    assert lines[1:] == ["9.0 tests/site/test_browser.py::test_home", "3.8 tests/test_a.py"]
    assert conftest.unit_times(target) == {"tests/site/test_browser.py::test_home": 9.0, "tests/test_a.py": 3.8}
