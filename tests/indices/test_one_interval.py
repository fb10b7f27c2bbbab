"""One interval per value (issue #27, item 7): a value an index computes the interval of (the Pedagogy boards:
the paper's question bootstrap, or its exact binomial limit; HLE's accuracy board: upstream's Wald interval) shows
that same interval on the benchmark board, in the API (JSON and CSV) and on the model page; the benchmark board
no longer gives it a Wilson interval of its own.

A small tree (hardening/hardkit.make_tree: the real methodology and sources) with published results whose
intervals are worked out by hand below.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardening"))
from hardkit import dump, make_tree  # noqa: E402

from sitegen import build  # noqa: E402
from sitegen.data import validate_repo  # noqa: E402
from sitegen.indices import uncertainty as u  # noqa: E402


def _model(mid: str, results: list[dict]) -> dict:
    return {"id": mid, "name": mid.split("/")[1].title(), "release": mid, "organization": mid.split("/")[0].title(),
            # retrieved after the pedagogy paper's recorded version (2025-06-23): published must not follow it
            "released": "2025-03", "weights": "open", "reasoning": False,
            "results": [dict(r, retrieved="2025-07-01") for r in results]}


# Pedagogy: 5 of 10 right. Resampling 10 answers at 1/2 is Binomial(10, 1/2): P(X <= 1) = 11/1024 < 0.025 <=
# P(X <= 2) = 56/1024, so the lower 2.5% quantile is 2/10; by symmetry the upper is 8/10 -> [20, 80].
# Wilson at p = 1/2, n = 10, z = 1.959964 would be [23.66, 76.34]: a different interval for the same value.
# SEND: 1 of 10. P(X = 0) = 0.9^10 = 0.349 >= 0.025 -> 0; P(X <= 2) = 0.930 < 0.975 <= P(X <= 3) = 0.987 -> 3/10.
# HLE: 20% of 2,500, upstream's Wald with z = 1.96: 1.96 * sqrt(0.2 * 0.8 / 2500) = 1.96 * 0.008 = 0.01568.
MODELS = [
    _model("acme/alpha", [
        {"benchmark": "pedagogy-cdpk", "value": 50.0, "n": 10, "source": "pedagogy-paper"},
        {"benchmark": "pedagogy-send", "value": 10.0, "n": 10, "source": "pedagogy-paper"},
        {"benchmark": "hle", "value": 20.0, "source": "hle-paper"},
    ]),
    _model("acme/beta", [
        {"benchmark": "pedagogy-cdpk", "value": 70.0, "n": 10, "source": "pedagogy-paper"},
        {"benchmark": "hle", "value": 10.0, "source": "hle-paper"},
    ]),
]
EXPECTED = {
    ("pedagogy-cdpk", "acme/alpha"): [20.0, 80.0],
    ("pedagogy-send", "acme/alpha"): [0.0, 30.0],
    ("hle", "acme/alpha"): [18.432, 21.568],
}


@pytest.fixture(scope="module")
def computed(tmp_path_factory):
    root = make_tree(tmp_path_factory.mktemp("one-interval") / "repo", models=MODELS)
    repo, problems = validate_repo(root)
    assert repo is not None, [p.format() for p in problems]
    return build.compute(repo)


def _row(board: dict, model: str) -> dict:
    return next(r for r in board["rows"] if r["model"] == model)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_the_same_value_has_the_same_interval_on_both_boards(computed, key):
    bid, model = key
    index_row, bench_row = _row(computed.boards[bid], model), _row(computed.benchmark_boards[bid], model)
    assert index_row["interval"] == pytest.approx(EXPECTED[key], abs=1e-9)
    assert bench_row["interval"] == index_row["interval"]
    assert bench_row["interval_how"] == index_row["interval_how"] == "derived"
    assert bench_row["interval_reason"] == index_row["interval_reason"]
    assert "Wilson" not in bench_row["interval_reason"]


def test_the_method_is_named_alike(computed):
    cdpk = _row(computed.benchmark_boards["pedagogy-cdpk"], "acme/alpha")
    assert cdpk["interval_method"] == "exact binomial"
    assert "Binomial(n = 10, 5/10)" in cdpk["interval_reason"]
    assert _row(computed.benchmark_boards["hle"], "acme/alpha")["interval_reason"] == \
        "Wald interval from the published accuracy and n = 2500"


def test_the_api_and_csv_carry_the_one_interval(computed):
    files = computed.api_files
    for bid, model in EXPECTED:
        want = [round(x, 4) for x in EXPECTED[(bid, model)]]
        for folder in ("indices", "benchmarks"):
            rows = json.loads(files[f"api/v1/{folder}/{bid}.json"])["rows"]
            assert _row({"rows": rows}, model)["interval"] == pytest.approx(want, abs=1e-9), (folder, bid)
            table = list(csv.DictReader(io.StringIO(files[f"api/v1/{folder}/{bid}.csv"])))
            line = next(r for r in table if r["model"] == model)
            assert [float(line["interval_low"]), float(line["interval_high"])] == pytest.approx(want, abs=1e-9)


def test_rank_intervals_come_from_the_same_draws(computed):
    # The same rows, the same streams (board id = benchmark id) and the same spread: the same rank intervals.
    index, bench = computed.boards["pedagogy-cdpk"], computed.benchmark_boards["pedagogy-cdpk"]
    assert {r["model"] for r in index["rows"]} == {r["model"] for r in bench["rows"]}
    for r in index["rows"]:
        assert _row(bench, r["model"])["rank_interval"] == r["rank_interval"]


def test_a_value_the_index_does_not_hold_keeps_the_benchmark_boards_own_spread():
    owner = {"level": 0.95, "rows": {"a/m": {"model": "a/m", "value": 50.0, "source": "pedagogy-paper", "subset": "",
                                             "interval": [20.0, 80.0], "interval_how": "derived"}}}
    bench = {"id": "pedagogy-cdpk", "scale": {"min": 0, "max": 100, "unit": "percent"},
             "questions": [{"count": 10, "basis": "test"}]}
    boards = {"pedagogy-cdpk": {"rows": [
        {"model": "a/m", "value": 50.0, "source": "other", "rank": 1},      # another source: not the index's value
        {"model": "b/m", "value": 50.0, "source": "pedagogy-paper", "rank": 1},  # no row on the index board
    ]}}
    u.annotate_benchmark_boards(boards, [bench], {"uncertainty": {"simulations": 50, "level": 0.95}},
                                {"pedagogy-cdpk": owner})
    for row in boards["pedagogy-cdpk"]["rows"]:
        assert row["interval"] == pytest.approx([100 * x for x in u.wilson(0.5, 10, u.z_of(0.95))])
        assert "interval_method" not in row and "interval_level" not in row


def test_an_owned_value_at_another_level_says_its_own_level():
    owner = {"level": 0.95, "rows": {"a/m": {"model": "a/m", "value": 50.0, "source": "s", "interval": [20.0, 80.0],
                                             "interval_how": "derived", "interval_reason": "r"}}}
    boards = {"b": {"rows": [{"model": "a/m", "value": 50.0, "source": "s", "rank": 1}]}}
    u.annotate_benchmark_boards(boards, [{"id": "b", "scale": {"min": 0, "max": 100, "unit": "percent"}}],
                                {"uncertainty": {"simulations": 50, "level": 0.8}}, {"b": owner})
    row = boards["b"]["rows"][0]
    assert row["interval"] == [20.0, 80.0] and row["interval_level"] == 0.95 and row["interval_reason"] == "r"
    assert boards["b"]["uncertainty"]["level"] == 0.8
