"""The as-of engine on the repository's own data: the methodology version in force, the data date, and the
frontier over release date (indices/asof.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def computed(real_computed):
    return real_computed  # tests/conftest.py: computed once per session


def test_the_frontier_over_release_date_never_gets_worse_for_every_index(computed):
    frontier = computed.as_of["frontier"]
    assert frontier, "no board has a frontier over time"
    for board_id, series in frontier.items():
        values = [p["value"] for p in series["best"]]
        assert values, board_id
        higher = computed.index_defs[computed.as_of["boards"][board_id][
            max(computed.as_of["boards"][board_id])]["released"]["definition"]].get("higher_is_better", True)
        steps = list(zip(values, values[1:]))
        assert all((b > a) if higher else (b < a) for a, b in steps), (board_id, values)
        dates = [p["date"] for p in series["best"]]
        assert dates == sorted(dates) and all(p["released"] <= p["date"] for p in series["best"]), board_id


def test_aa_v2_2_is_in_force_before_v3_0_and_superseded_from_it(computed):
    boards = computed.as_of["boards"]
    for aa in ("aa-intelligence", "aa-coding"):
        old = boards[f"{aa}-v2-2"]
        assert [m for m, views in sorted(old.items()) if views["known"]] == ["2025-08"], aa
        assert all(views["released"] for m, views in old.items() if m >= "2025-08")  # today's definition, every month
        gone = computed.as_of["superseded"][f"{aa}-v2-2"]
        assert gone["2025-09"] == {"from": "2025-09-01", "by": f"{aa}-v3-0", "version": "3.0"}
        assert min(gone) == "2025-09" and max(gone) == max(old)
        month_file = computed.api_files[f"api/v1/indices/{aa}-v2-2/2025-10.json"]
        assert '"superseded":{"by":"' + aa + '-v3-0","from":"2025-09-01","version":"3.0"}' in month_file.replace(
            " ", "").replace("\n", "")


def test_nothing_is_dated_after_the_data_date(computed):
    as_of = computed.as_of
    last = as_of["data_date"]
    assert last == max(d for col in ("published", "retrieved") if col in computed.results
                       for d in computed.results[col].dropna().astype(str))
    assert max(as_of["dates"].values()) == last and as_of["dates"][last[:7]] == last
    for board_id, series in as_of["frontier"].items():
        assert all(p["date"] <= last for p in series["best"] + series["as_known"]), board_id
    for change in (c for per in as_of["changes"].values() for c in per.values()):
        assert change["to"] <= last


def test_o3_shows_the_vendors_steps_and_no_step_back(computed):
    steps = computed.as_of["price_steps"]["openai/o3-medium"]
    assert [(s["date"], s["input"], s["output"], s["source"], s["captured"]) for s in steps] == [
        ("2025-04-16", 10.0, 40.0, "vendor", False), ("2025-06-10", 2.0, 8.0, "vendor", False)]
    lmarena = [d for d in computed.as_of["price_disagreements"]["openai/o3-medium"] if d["source"] == "lmarena"]
    assert [(d["date"], d["input"], d["output"], d["in_force"]["date"]) for d in lmarena] == [
        ("2025-12-17", 10.0, 40.0, "2025-06-10")]


def test_no_step_comes_from_a_source_outranked_on_its_date(computed):
    from sitegen.indices.asof import price_tier

    for model, steps in computed.as_of["price_steps"].items():
        for before, step in zip(steps, steps[1:]):
            assert (before["input"], before["output"]) != (step["input"], step["output"]), model
            # a later step by a lower-precedence source would mean it overrode a higher one still in force
            assert price_tier(step["source"]) <= price_tier(before["source"]), (model, before, step)


def test_no_benchmark_board_ranks_two_snapshots_of_one_source(computed):
    import re

    snapshot = re.compile(r"^([a-z0-9]+)-.*-(\d{4}-\d{2})$")
    boards = list(computed.benchmark_boards.items()) + [
        (f"{bid}/{qs['subset']}", qs) for bid, b in computed.benchmark_boards.items()
        for qs in b.get("other_question_sets") or []]
    excluded = 0
    for bid, board in boards:
        ranked = {r["source"] for r in board["rows"] if r.get("rank") is not None}
        by_publisher: dict[str, set] = {}
        for source in ranked:
            if snapshot.match(source):
                by_publisher.setdefault(snapshot.match(source).group(1), set()).add(source)
        assert all(len(s) == 1 for s in by_publisher.values()), (bid, by_publisher)
        excluded += sum(1 for r in board["rows"] if str(r.get("reason", "")).startswith("from the older snapshot"))
    assert excluded > 0  # the older AA rows (e.g. GPQA Diamond's 13 from 2025-08) are listed, unranked
