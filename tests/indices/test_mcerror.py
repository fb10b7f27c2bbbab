"""Monte-Carlo error of simulated bounds (indices/mcerror.py), the precision bounds are published to, seeds, and the
simulation cache (indices/simcache.py, build/simcache.py)."""

from __future__ import annotations

import hashlib
import math
import os

import numpy as np
import pytest

from sitegen.indices import mcerror, simcache
from sitegen.indices import uncertainty as u

from indexkit import results


# ------------------------------------------------------------------------------------------ MC error, by hand

def test_quantile_error_of_ten_draws_by_hand():
    # sorted: 1 1 2 3 3 4 5 5 6 9. Level 0.95: tail 0.025, N = 10, d = sqrt(10 x 0.025 x 0.975) = 0.494.
    # Lower bound at position 0.025 x 9 = 0.225: draws floor(-0.27) -> 0 and ceil(0.72) = 1: (1 - 1) / 2 = 0.
    # Upper bound at 0.975 x 9 = 8.775: draws floor(8.28) = 8 and ceil(9.27) -> 9: (9 - 6) / 2 = 1.5.
    draws = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], dtype=float)[:, None]
    assert mcerror.quantile_errors(draws, 0.95).tolist() == [[0.0], [1.5]]


def test_quantile_error_of_a_thousand_evenly_spaced_draws():
    # N = 1000, d = sqrt(1000 x 0.025 x 0.975) = 4.937. Lower bound at 24.975: draws 20 and 30; upper at 974.025:
    # draws 969 and 979. The draws are 0..999 (column 0) and twice that (column 1), shuffled.
    order = np.random.default_rng(7).permutation(1000).astype(float)
    draws = np.column_stack([order, 2 * order])
    assert mcerror.quantile_errors(draws, 0.95).tolist() == [[5.0, 10.0], [5.0, 10.0]]


def test_rank_error_by_hand():
    # 40 draws of ranks 1..40 (shuffled) and 40 draws of rank 3. Level 0.5: tail 0.25, d = sqrt(40 x 0.25 x 0.75)
    # = 2.739. Lower bound: draw ceil(0.25 x 40) - 1 = 9, bracketed by draws 6 and 12 (ranks 7 and 13): 3.
    # Upper: draw 29, bracketed by 26 and 32 (ranks 27 and 33): 3. A rank that never moves has no error.
    ranks = np.column_stack([np.random.default_rng(1).permutation(40) + 1, np.full(40, 3)])
    assert mcerror.rank_errors(ranks, 0.5) == [[3.0, 3.0], [0.0, 0.0]]
    assert u.rank_intervals(ranks, 0.5) == [[10, 30], [3, 3]]


def test_bounds_and_errors_of_ten_draws_from_one_sort_by_hand():
    # sorted: 1 1 2 3 3 4 5 5 6 9. Level 0.95: low at 0.225 -> 1 + (1 - 1) x 0.225 = 1; high at 8.775 -> 6 + (9 - 6)
    # x 0.775 = 8.325; errors as in test_quantile_error_of_ten_draws_by_hand. With overwrite the draws are sorted in
    # place (the caller's scratch array); without, they are left as they were.
    draws = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], dtype=float)[:, None]
    kept = draws.copy()
    expected = ({"m": [1.0, pytest.approx(8.325, abs=1e-12)]}, {"m": [0.0, 1.5]})
    assert mcerror.bounds(draws, ["m"], 0.95) == expected
    assert (draws == kept).all()
    assert mcerror.bounds(draws, ["m"], 0.95, overwrite=True) == expected
    assert draws[:, 0].tolist() == [1, 1, 2, 3, 3, 4, 5, 5, 6, 9]


def test_rank_bounds_give_the_interval_and_its_errors_by_hand():
    # as test_rank_error_by_hand: ranks 1..40 shuffled, and rank 3 in every draw, at level 0.5
    ranks = np.column_stack([np.random.default_rng(1).permutation(40) + 1, np.full(40, 3)]).astype(np.int32)
    assert mcerror.rank_bounds(ranks, 0.5) == ([[10, 30], [3, 3]], [[3.0, 3.0], [0.0, 0.0]])


def test_medians_by_hand():
    # odd: the middle draw; even: the mean of the two middle draws; a column holding NaN: NaN (as np.median)
    assert mcerror.medians(np.array([[3.0], [1.0], [2.0]])).tolist() == [2.0]
    four = np.array([[4.0, 1.0, 7.0], [1.0, 1.0, np.nan], [3.0, 2.0, 1.0], [2.0, 5.0, 0.0]])
    out = mcerror.medians(four)
    assert out[:2].tolist() == [2.5, 1.5] and np.isnan(out[2])


def test_order_statistics_from_a_sort_are_numpys_partition_and_median_to_the_bit():
    # what lets the bounds and medians move from np.partition and np.median to one sort without moving a number
    rng = np.random.default_rng(5)
    draws = np.asfortranarray(rng.standard_normal((1000, 40)) * 13.7 + 100)
    draws[:, 3] = np.round(draws[:, 3])  # ties
    ordered = mcerror.sorted_draws(draws)
    kth = [20, 24, 25, 30, 969, 974, 975, 979]
    assert np.array_equal(ordered[kth], np.partition(draws, kth, axis=0)[kth])
    assert np.array_equal(mcerror.medians(draws), np.median(draws, axis=0))
    lo_hi = np.quantile(draws, [0.025, 0.975], axis=0)  # numpy's linear quantile, as quantile_interval documents
    assert np.array_equal(mcerror.quantile_interval(draws, 0.95), lo_hi)


def test_quantile_error_matches_the_spread_between_seeds():
    # 300 columns of 4,000 standard normals: the true standard error of the 2.5% quantile is
    # sqrt(0.025 x 0.975 / 4000) / phi(1.96) = 0.0422; both the estimate and the spread of the bounds agree.
    draws = np.random.default_rng(11).standard_normal((4000, 300))
    truth = math.sqrt(0.025 * 0.975 / 4000) / (math.exp(-1.959964 ** 2 / 2) / math.sqrt(2 * math.pi))
    assert truth == pytest.approx(0.0422, abs=5e-4)
    errors = mcerror.quantile_errors(draws, 0.95)
    assert np.median(errors[0]) == pytest.approx(truth, rel=0.1)
    assert np.median(errors[1]) == pytest.approx(truth, rel=0.1)
    assert np.std(u.quantile_interval(draws, 0.95)[0]) == pytest.approx(truth, rel=0.15)


# ------------------------------------------------------------------------------------------------ precision

@pytest.mark.parametrize("error, places", [
    (0.4, 1), (0.04, 2), (0.099, 2), (0.1, 1), (1.0, 0), (4.0, 0), (40.0, -1), (37.0, -1), (1e-9, 4),
    (0.0, 4), (None, 4), (math.nan, 4), (math.inf, 4), (-1.0, 4)])
def test_decimals_are_the_place_of_the_errors_leading_digit(error, places):
    assert mcerror.decimals(error) == places


@pytest.mark.parametrize("bounds, errors, expected", [
    ([118.46, 121.349], [0.4, 0.4], [118.4, 121.4]),  # outwards: low down, high up
    ([-3.45, -1.01], [0.3, 0.3], [-3.5, -1.0]),  # negative values: down is away from zero
    ([-0.04, 0.04], [0.3, 0.3], [-0.1, 0.1]),
    ([0.04, 0.06], [0.3, 0.3], [0.0, 0.1]),  # 0.0, not -0.0
    ([1.234561, 2.345612], [0.0, 0.0], [1.2345, 2.3457]),  # no error: the API's 4 decimals
    ([123.4, 156.2], [37.0, 0.04], [120.0, 156.2]),  # each bound its own place
    ([123.4, 156.2], [1e6, 1e6], [0.0, 1e6]),  # a very large error keeps only its own place
    ([5.0, 5.0], [0.02, 0.02], [5.0, 5.0]),
])
def test_bounds_round_outwards_to_the_place_their_error_supports(bounds, errors, expected):
    out = mcerror.round_out(bounds, errors)
    assert out == expected
    assert all(math.copysign(1.0, x) == 1.0 for x in out if x == 0)
    assert out[0] <= bounds[0] and out[1] >= bounds[1]


def test_published_errors_keep_two_significant_figures():
    assert [mcerror.error_text(e) for e in (0.34567, 0.0, 123.4, 1.5, math.nan)] == [0.35, 0.0, 120.0, 1.5, 0.0]


# ----------------------------------------------------------------------------------------------- on a board

def _board(n: int, gap: float = 0.5) -> dict:
    return {"index": "synthetic", "rows": [{"model": f"m{j:03d}", "value": 100.0 - gap * j, "rank": j + 1}
                                           for j in range(n)]}


def _samples(board: dict, sims: int, sd: float = 1.0) -> dict:
    z = u.normals(board["index"], [(r["model"],) for r in board["rows"]], sims)
    return {r["model"]: r["value"] + sd * z[:, j] for j, r in enumerate(board["rows"])}


def test_annotated_rows_carry_their_bounds_errors_and_rounded_bounds():
    board = _board(5)
    samples = _samples(board, 1000)
    u.annotate(board, samples, {m: "r" for m in samples}, 1000, 0.95)
    for row in board["rows"]:
        raw = u.quantile_interval(samples[row["model"]][:, None], 0.95)[:, 0]
        errors = mcerror.quantile_errors(samples[row["model"]][:, None], 0.95)[:, 0]
        assert row["interval_mc_error"] == [mcerror.error_text(e) for e in errors]
        assert row["interval"] == mcerror.round_out(raw.tolist(), errors.tolist())
        assert row["interval"][0] <= raw[0] and row["interval"][1] >= raw[1]
        assert 0.05 < errors[0] < 0.3  # sd 1, 1,000 draws: about 0.085
        assert len(row["rank_interval_mc_error"]) == 2
    assert "Monte-Carlo error" in board["uncertainty"]["monte_carlo"]


def test_two_seeds_agree_on_the_top_50_within_the_published_error():
    """The promise: a rank bound moves between seeds by at most 1 + 4 x the combined published error of the two
    runs; a value bound by at most 4 x that plus one step of the place it is published to."""
    runs = []
    for salt in ("", "1"):
        board = _board(80, gap=0.25)
        with u.seed_salt(salt):
            samples = _samples(board, 1000)
        u.annotate(board, samples, {m: "r" for m in samples}, 1000, 0.95)
        runs.append({r["model"]: r for r in board["rows"] if r["rank"] <= 50})
    moved = 0
    for m, a in runs[0].items():
        b = runs[1][m]
        for k in (0, 1):
            spread = math.hypot(a["rank_interval_mc_error"][k], b["rank_interval_mc_error"][k])
            assert abs(a["rank_interval"][k] - b["rank_interval"][k]) <= 1 + 4 * spread, (m, k)
            moved += a["rank_interval"][k] != b["rank_interval"][k]
            spread = math.hypot(a["interval_mc_error"][k], b["interval_mc_error"][k])
            step = 10.0 ** -mcerror.decimals(max(a["interval_mc_error"][k], b["interval_mc_error"][k]))
            assert abs(a["interval"][k] - b["interval"][k]) <= 4 * spread + step, (m, k)
    assert moved  # the seeds differ: the test compares two real runs


def test_the_same_seed_gives_the_same_board():
    boards = []
    for _ in range(2):
        board = _board(30)
        samples = _samples(board, 500)
        u.annotate(board, samples, {m: "r" for m in samples}, 500, 0.95)
        boards.append(board)
    assert boards[0] == boards[1]


def test_a_seed_salt_changes_every_stream_and_no_salt_is_the_published_seed():
    plain = u.stream("b", "m").standard_normal(3)
    with u.seed_salt("1"):
        salted = u.stream("b", "m").standard_normal(3)
        with u.seed_salt(""):
            assert u.stream("b", "m").standard_normal(3).tolist() == plain.tolist()
    assert salted.tolist() != plain.tolist()
    assert u.stream("b", "m").standard_normal(3).tolist() == plain.tolist()
    with u.kept_normals():
        first = u.normals("b", [("m",)], 4).copy()
        with u.seed_salt("1"):
            assert u.normals("b", [("m",)], 4).tolist() != first.tolist()  # a kept stream is kept per salt


# -------------------------------------------------------------------------------------------- the cache

class DictStore:
    """The Store protocol over a dict, counting lookups that found an entry."""

    def __init__(self, salt: str = "code"):
        self.salt, self.data, self.hits = salt, {}, 0

    def get(self, key):
        found = self.data.get(key)
        self.hits += found is not None
        return found

    def put(self, key, data):
        self.data[key] = data


def _index_run(store, value_b: float = 4.0, sims: int = 200):
    """A weighted-mean board annotated through annotate_boards (inside `kept_in(store)`), as the API's JSON."""
    from sitegen.export import to_json
    from sitegen.indices import aa

    definition = {"id": "wm", "name": "WM", "version": "1", "kind": "weighted-mean", "unit": "points",
                  "description": "t", "source_snapshot": "snap", "higher_is_better": True,
                  "uncertainty": {"simulations": sims, "level": 0.95},
                  "constituents": [{"benchmark": "x", "weight": 1}, {"benchmark": "y", "weight": 1}]}
    frame = results(*({"model": m, "benchmark": b, "value": v, "source": "snap", "stderr": 1.0}
                      for m, values in {"o/a": (60.0, 50.0), "o/b": (55.0, value_b), "o/c": (40.0, 42.0)}.items()
                      for b, v in zip("xy", values)))
    board = aa.compute(definition, frame, None)
    board["definition"] = "wm"
    benchmarks = [{"id": b, "scale": {"unit": "points"}} for b in "xy"]
    with simcache.kept_in(store):
        u.annotate_boards({"wm": board}, {"wm": definition}, frame, None, benchmarks)
    board.pop("ahead", None)
    return to_json(board)


def test_the_cache_gives_the_same_bytes_and_a_changed_input_misses():
    plain = _index_run(None)
    store = DictStore()
    assert _index_run(store) == plain and store.hits == 0 and len(store.data) == 1
    assert _index_run(store) == plain and store.hits == 1  # loaded, byte for byte the same
    changed = _index_run(store, value_b=30.0)
    assert store.hits == 1 and len(store.data) == 2 and changed != plain  # a changed result misses
    assert _index_run(store, sims=100) != plain and store.hits == 1  # so does a changed definition
    assert _index_run(DictStore(salt="other code")) == plain  # another package digest keys apart
    store.data = {k: b"not a pickle" for k in store.data}
    assert _index_run(store) == plain  # a damaged entry is computed again


def test_file_store_keeps_entries_whole_and_prunes_what_a_build_did_not_use(tmp_path):
    from sitegen.build.simcache import FileStore

    folder = tmp_path / ".sitegen-cache" / "simulations"
    store = FileStore(folder, "salt")
    assert store.get("a" * 64) is None
    store.put("a" * 64, b"one")
    store.put("b" * 64, b"two")
    assert FileStore(folder, "salt").get("a" * 64) == b"one"
    assert FileStore(folder, "other code").get("a" * 64) is None  # the file's name is salted: new code misses
    (folder / ".leftover.tmp").write_bytes(b"")
    later = FileStore(folder, "salt")
    later.get("b" * 64)
    later.prune()
    assert sorted(os.listdir(folder)) == [hashlib.sha256(("salt\0" + "b" * 64).encode()).hexdigest() + ".pickle"]


def test_file_store_behind_a_symlink_keeps_nothing(tmp_path):
    from sitegen.build.simcache import FileStore

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / ".sitegen-cache").symlink_to(elsewhere)
    store = FileStore(tmp_path / "root" / ".sitegen-cache" / "simulations", "salt")
    store.put("a" * 64, b"one")
    store.prune()
    assert store.get("a" * 64) is None and list(elsewhere.iterdir()) == []


def test_a_patch_turns_the_board_as_computed_into_the_board_as_annotated():
    before = {"index": "b", "rows": [{"model": "a", "value": 1.0, "components": [{"id": "x", "value": 2}]},
                                     {"model": "b", "value": None, "gone": 1}]}
    after = {"index": "b", "rows": [{"model": "a", "value": 1.0, "components": [{"id": "x", "value": 2,
                                                                                   "interval": [1, 3]}],
                                     "rank_interval": (1, 2)},
                                    {"model": "b", "value": None, "tier": None}],
             "ahead": np.arange(3), "uncertainty": {"level": 0.95}}
    patch = simcache.diff(before, after)
    assert patch == ("d", {"rows": ("l", {0: ("d", {"components": ("l", {0: ("d", {"interval": ("=", [1, 3])}, [])}),
                                                    "rank_interval": ("=", (1, 2))}, []),
                                          1: ("d", {"tier": ("=", None)}, ["gone"])}),
                           "ahead": ("=", after["ahead"]), "uncertainty": ("=", {"level": 0.95})}, [])
    assert simcache.diff(before, before) is None
    assert simcache.diff(after, after)[1] == {"ahead": ("=", after["ahead"]), "rows": (
        "l", {0: ("d", {"rank_interval": ("=", (1, 2))}, [])})}  # an array or a tuple is replaced whole
    got = simcache.apply(before, patch)
    assert got is before and list(got) == list(after) and list(got["rows"][1]) == ["model", "value", "tier"]
    assert got["rows"] == after["rows"] and got["ahead"] is after["ahead"]
