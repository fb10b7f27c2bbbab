"""The as-of engine on the repository's own data: the methodology version in force, the data date, and the
frontier over release date (indices/asof.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def repo(real_repo):
    return real_repo  # tests/conftest.py: validated once per session


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


def test_no_step_comes_from_a_source_outranked_on_its_date(computed, repo):
    from sitegen.data.frame import price_precedence
    from sitegen.indices.asof import price_tier

    precedence = price_precedence(repo)
    for model, steps in computed.as_of["price_steps"].items():
        for before, step in zip(steps, steps[1:]):
            assert (before["input"], before["output"]) != (step["input"], step["output"]), model
            # a later step by a lower-precedence source would mean it overrode a higher one still in force
            assert price_tier(step["source"], precedence) <= price_tier(before["source"], precedence), (
                model, before, step)


def test_lmarena_disagreeing_with_aa_is_a_disagreement_never_a_step(computed):
    # The models whose LMArena price (2025-12-17) differs from every AA snapshot's: LMArena's table and AA's
    # captures speak about one period, so AA's price holds and LMArena's is listed as a disagreement (issue 28:
    # these were price steps, LMArena's then AA's, before). Hand-entered list prices would outrank both.
    price = ("input_per_mtok", "output_per_mtok")
    found = []
    for record in computed.model_records:
        prices = record.get("prices") or {}
        arena = prices.get("lmarena")
        aa = [p for s, p in prices.items() if s.startswith("aa-")]
        if not arena or not aa or record.get("list_prices"):
            continue
        if all(tuple(p.get(k) for k in price) != tuple(arena.get(k) for k in price) for p in aa):
            model = record["model"]
            found.append(model)
            steps = computed.as_of["price_steps"][model]
            assert [s for s in steps if s["source"] == "lmarena"] == [], (model, steps)
            assert [d for d in computed.as_of["price_disagreements"][model] if d["source"] == "lmarena"], model
            # today's price (the boards') is AA's newest, as the history's last step
            newest = min((s for s in prices if s.startswith("aa-")),
                         key=lambda s: tuple(-ord(c) for c in prices[s]["as_of"]))
            assert (record["input_per_mtok"], record["pricing_source"]) == (
                float(prices[newest]["input_per_mtok"]), steps[-1]["source"]), model
    assert len(found) >= 10, found  # 11 on the data of November 2026 (deepseek-v3.1, glm-4.5-air, kimi-k2, ...)
    assert {"zai/glm-4.5-air", "kimi/kimi-k2", "deepseek/deepseek-v3.1-reasoning"} <= set(found)


def test_every_step_after_the_first_is_the_same_source_ranks_change_or_the_vendors(computed, repo):
    # A step is a change made by the source that sets the price for that period: a switch from one source's
    # price to a higher-ranked source's different price is a disagreement, not a step.
    from sitegen.data.frame import price_precedence, price_tier

    rank = price_precedence(repo)
    for model, steps in computed.as_of["price_steps"].items():
        for before, step in zip(steps, steps[1:]):
            assert step["source"] == "vendor" or price_tier(step["source"], rank) == price_tier(before["source"], rank), (
                model, before, step)


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


# ---------------------------------------------------------------------------------------------------------------
# The as-of boards recomputed from the data filtered by `published`, as a fresh build of that data would compute
# them, for the months on each side of every source's first publication and a month where AA v2.2 was superseded.

RECOMPUTED = ("ai-iq", "aa-intelligence-v2-2", "aa-coding-v2-2", "aa-math-v2-2", "aa-intelligence-v3-0",
              "aa-coding-v3-0", "pedagogy")


def _straddling_months(computed, index_ids) -> list[str]:
    """The month before and the month of each source's first `published` date, for every source whose results
    one of these indices reads, among the months the as-of engine covers; plus 2025-10 (AA v2.2 superseded)."""
    from sitegen.indices.asof import benchmarks_read

    read = {b for i in index_ids for b in benchmarks_read(computed.index_defs[i])}
    res = computed.results[computed.results["benchmark"].isin(read)]
    months = set(computed.as_of["months"])
    chosen = {"2025-10"}
    for _, first in sorted(res.groupby("source")["published"].min().items()):
        y, m = int(first[:4]), int(first[5:7])
        before = f"{y - (m == 1)}-{12 if m == 1 else m - 1:02d}"
        chosen |= {before, first[:7]}
    return sorted(chosen & months)


def _plain(board):
    """What a board says: per model its value, rank, status, interval, rank range and tier."""
    return {r["model"]: (r.get("value"), r.get("rank"), r.get("status"), r.get("interval"), r.get("rank_interval"),
                         r.get("tier")) for r in board["rows"]}


def test_as_known_boards_equal_a_fresh_computation_on_the_data_published_by_then(repo, computed):
    from sitegen.build import raw_frames
    from sitegen.indices import boards as engine
    from sitegen.indices.asof import availability, in_force, models_priced_at, shown
    from sitegen.indices.uncertainty import annotate_boards

    results, models, as_of = computed.results, computed.models, computed.as_of
    raw = raw_frames(repo)
    available = availability(results, models)
    months = _straddling_months(computed, RECOMPUTED)
    assert {"2025-01", "2025-05", "2025-06", "2025-07", "2025-08", "2025-10"} <= set(months), months
    compared = 0
    for month in months:
        day = as_of["dates"][month]
        # the data a build on the tree filtered by `published` reads: every result public by the day, the models
        # out by then (a model without a release date counts from its first published result), prices then
        public = results[(results["published"] <= day)]
        present = {m for m, d in available.items() if d <= day}
        assert set(public["model"]) <= present, month  # no result public before its model (validate's rule)
        mods = models_priced_at(models[models["model"].isin(present)], as_of["price_steps"], day)
        for index_id in RECOMPUTED:
            definition = computed.index_defs[index_id]
            if not in_force(definition, day):
                built = [b for b, per in as_of["boards"].items()
                         if per.get(month, {}).get("known") and per[month]["known"]["definition"] == index_id]
                assert built == [], (month, index_id)
                continue
            fresh = engine.compute_boards(public, mods, computed.benchmarks, {index_id: definition}, raw)
            fresh = {b: v for b, v in fresh.items() if engine.publishable(v, definition)}
            annotate_boards(fresh, {index_id: definition}, public, mods, computed.benchmarks, raw)
            built = {b: per[month]["known"] for b, per in as_of["boards"].items()
                     if per.get(month, {}).get("known") and per[month]["known"]["definition"] == index_id}
            assert set(built) == set(fresh), (month, index_id, sorted(built), sorted(fresh))
            for board_id, board in fresh.items():
                # the build keeps what the published views read of each board (asof.shown)
                assert _plain(built[board_id]) == _plain(shown(board)), (month, board_id)
                compared += 1
    assert compared >= 30, compared
    # and in a month AA v2.2 was superseded its boards are not offered, v3.0's are
    assert as_of["boards"]["aa-intelligence-v2-2"]["2025-10"]["known"] is None
    assert as_of["superseded"]["aa-intelligence-v2-2"]["2025-10"]["by"] == "aa-intelligence-v3-0"
    assert as_of["boards"]["aa-intelligence-v3-0"]["2025-10"]["known"] is not None
