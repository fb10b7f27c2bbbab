"""Boards as of month ends, price steps, frontier over time and month-to-month changes, on a small dated fixture.

The fixture (hand-built, one toy weighted-mean index over benchmark b1 from source "snap"):

    model  released     b1   retrieved    prices (as_of: input/output)
    o/a    2025-01-10   50   2025-01-15   2025-01-01: 1/2 (src1), 2025-03-15: 0.5/1 (src2), undated 9/9 (src3)
    o/b    2025-03-05   70   2025-04-10   2025-03-01: 4/8 (src1)
    o/c    (none)       60   2025-02-20   2025-02-01: 2/4 (src1)        -> counts from its first retrieval

Months covered: 2025-01 .. 2025-04.
"""

from __future__ import annotations

import math

from indexkit import ROOT, definition, models, results
from sitegen.indices import asof, parts

TOY = {"id": "toy", "kind": "weighted-mean", "name": "Toy", "version": "1", "unit": "", "precision": 4,
       "higher_is_better": True, "publish": "when-data", "description": "toy", "source_snapshot": "snap",
       "constituents": [{"benchmark": "b1", "weight": 1}]}
# The same index in a version in force only from March 2025.
LATE = dict(TOY, id="late", version="2", history=[{"version": "2", "from": "2025-03", "change": "x"},
                                                  {"version": "1", "from": "2024-01", "to": "2025-03", "change": "y"}])
DEFS = {"toy": TOY, "late": LATE}
FRAME = results(
    {"model": "o/a", "benchmark": "b1", "value": 50, "source": "snap", "retrieved": "2025-01-15"},
    {"model": "o/b", "benchmark": "b1", "value": 70, "source": "snap", "retrieved": "2025-04-10"},
    {"model": "o/c", "benchmark": "b1", "value": 60, "source": "snap", "retrieved": "2025-02-20"},
)
PEOPLE = models({"model": "o/a", "released": "2025-01-10"}, {"model": "o/b", "released": "2025-03-05"},
                {"model": "o/c", "released": None})
RECORDS = [
    {"model": "o/a", "prices": {"src1": {"as_of": "2025-01-01", "input_per_mtok": 1, "output_per_mtok": 2},
                                "src2": {"as_of": "2025-03-15", "input_per_mtok": 0.5, "output_per_mtok": 1},
                                "src3": {"input_per_mtok": 9, "output_per_mtok": 9}}},
    {"model": "o/b", "prices": {"src1": {"as_of": "2025-03-01", "input_per_mtok": 4, "output_per_mtok": 8}}},
    {"model": "o/c", "prices": {"src1": {"as_of": "2025-02-01", "input_per_mtok": 2, "output_per_mtok": 4}}},
]


def _run():
    return asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS)


def _rows(out, board, month, view):
    b = out["boards"][board][month][view]
    return None if b is None else sorted((r["model"], r["value"], r["rank"]) for r in b["rows"])


def test_months_run_from_first_release_or_retrieval_to_last_retrieval():
    assert _run()["months"] == ["2025-01", "2025-02", "2025-03", "2025-04"]
    assert asof.month_end("2024-02") == "2024-02-29"


def test_a_model_without_release_date_counts_from_its_first_retrieval():
    assert asof.availability(FRAME, PEOPLE) == {"o/a": "2025-01-10", "o/b": "2025-03-05", "o/c": "2025-02-20"}


def test_known_view_a_result_retrieved_later_does_not_appear_earlier():
    out = _run()
    assert _rows(out, "toy", "2025-01", "known") == [("o/a", 50.0, 1)]
    assert _rows(out, "toy", "2025-02", "known") == [("o/a", 50.0, 2), ("o/c", 60.0, 1)]
    # o/b is released in March but its result is retrieved only on 10 April
    assert _rows(out, "toy", "2025-03", "known") == [("o/a", 50.0, 2), ("o/c", 60.0, 1)]
    assert _rows(out, "toy", "2025-04", "known") == [("o/a", 50.0, 3), ("o/b", 70.0, 1), ("o/c", 60.0, 2)]


def test_released_view_a_model_released_later_does_not_appear():
    out = _run()
    assert _rows(out, "toy", "2025-01", "released") == [("o/a", 50.0, 1)]
    assert _rows(out, "toy", "2025-02", "released") == [("o/a", 50.0, 2), ("o/c", 60.0, 1)]
    # every result we have now (o/b's April one), for the models released by 31 March
    assert _rows(out, "toy", "2025-03", "released") == [("o/a", 50.0, 3), ("o/b", 70.0, 1), ("o/c", 60.0, 2)]


def test_known_view_uses_the_methodology_version_in_force():
    out = _run()
    assert _rows(out, "late", "2025-02", "known") is None          # version 2 starts in March
    assert _rows(out, "late", "2025-03", "known") == [("o/a", 50.0, 2), ("o/c", 60.0, 1)]
    assert _rows(out, "late", "2025-02", "released") == [("o/a", 50.0, 2), ("o/c", 60.0, 1)]
    assert asof.in_force(LATE, "2025-02-28") is False and asof.in_force(LATE, "2025-03-31") is True
    assert asof.in_force(TOY, "1999-01-31") is True                 # no dated version: always


def test_known_view_counts_a_result_from_its_publication_not_its_retrieval():
    # Retrieved on 10 April, but the source dates the number 20 March: the known view has it from March's board.
    frame = results({"model": "o/a", "benchmark": "b1", "value": 50, "source": "snap", "retrieved": "2025-01-15"},
                    {"model": "o/b", "benchmark": "b1", "value": 70, "source": "snap", "retrieved": "2025-04-10",
                     "published": "2025-03-20"})
    out = asof.compute_asof(frame, PEOPLE.iloc[:2], RECORDS[:2], [], {"toy": TOY})
    assert _rows(out, "toy", "2025-02", "known") == [("o/a", 50.0, 1)]
    assert _rows(out, "toy", "2025-03", "known") == [("o/a", 50.0, 2), ("o/b", 70.0, 1)]
    # published on the last day of a month counts in that month (on or before the day)
    late = results({"model": "o/a", "benchmark": "b1", "value": 50, "source": "snap", "retrieved": "2025-04-10",
                    "published": "2025-02-28"})
    out = asof.compute_asof(late, PEOPLE.iloc[:1], RECORDS[:1], [], {"toy": TOY})
    assert _rows(out, "toy", "2025-01", "known") is None
    assert _rows(out, "toy", "2025-02", "known") == [("o/a", 50.0, 1)]


# Version 1 of the same index ("Toy", as LATE), in force from January 2025 to March 2025 (exclusive): superseded by LATE.
EARLY = dict(TOY, id="early", version="1", history=[{"version": "1", "from": "2025-01-15", "to": "2025-03",
                                                      "change": "y"}])


def test_a_version_runs_from_its_from_inclusive_to_its_to_exclusive():
    assert asof.in_force(EARLY, "2025-01-14") is False
    assert asof.in_force(EARLY, "2025-01-15") is True               # `from` inclusive
    assert asof.in_force(EARLY, "2025-02-28") is True
    assert asof.in_force(EARLY, "2025-03-01") is False              # `to` exclusive; "2025-03" is its first day
    only_to = dict(TOY, history=[{"version": "1", "to": "2025-02-10", "change": "z"}])
    assert asof.in_force(only_to, "2025-02-09") is True and asof.in_force(only_to, "2025-02-10") is False
    other = dict(TOY, history=[{"version": "0", "from": "2030-01", "change": "not this version"}])
    assert asof.in_force(other, "2025-01-01") is True               # only its own version's entry counts


def test_a_superseded_version_says_what_replaced_it():
    defs = {"early": EARLY, "late": LATE}
    assert asof.superseded(EARLY, defs, "2025-02-28") is None
    assert asof.superseded(EARLY, defs, "2025-03-31") == {"from": "2025-03-01", "by": "late", "version": "2"}
    assert asof.superseded(EARLY, {"early": EARLY}, "2025-03-31") == {"from": "2025-03-01", "by": None,
                                                                     "version": None}
    out = asof.compute_asof(FRAME, PEOPLE, RECORDS, [], defs)
    assert _rows(out, "early", "2025-02", "known") == [("o/a", 50.0, 2), ("o/c", 60.0, 1)]
    assert _rows(out, "early", "2025-03", "known") is None
    assert _rows(out, "early", "2025-03", "released") is not None   # the released view: today's definition
    assert out["superseded"] == {"early": {m: {"from": "2025-03-01", "by": "late", "version": "2"}
                                           for m in ("2025-03", "2025-04")}}  # late, not yet begun: not superseded
    files = asof.api_files(out)
    assert files["api/v1/indices/early/2025-03.json"]["superseded"] == {"from": "2025-03-01", "by": "late",
                                                                        "version": "2"}
    assert "superseded" not in files["api/v1/indices/early/2025-02.json"]


def _real_definitions() -> dict:
    import yaml
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / "methodology/indices").glob("*.yaml"))}


def test_in_force_on_every_real_definition():
    defs = _real_definitions()
    assert len(defs) == 13  # twelve recomputed definitions and AA v4.x as AA publishes it
    v3_from = "2025-09-01"  # aa-intelligence-v3-0's history: 3.0 from 2025-09
    for aa in ("aa-intelligence", "aa-coding"):
        old, new = defs[f"{aa}-v2-2"], defs[f"{aa}-v3-0"]
        assert asof.in_force(old, "2025-08-05") is False            # 2.2 from 2025-08-06
        assert asof.in_force(old, "2025-08-06") is True
        assert asof.in_force(old, "2025-08-31") is True             # before v3.0's from
        assert asof.in_force(new, "2025-08-31") is False
        assert asof.in_force(old, v3_from) is False                 # superseded from it
        assert asof.in_force(new, v3_from) is True and asof.in_force(new, "2026-11-22") is True
        assert asof.superseded(old, defs, "2025-10-31") == {"from": v3_from, "by": f"{aa}-v3-0", "version": "3.0"}
    for single in ("aa-math-v2-2", "aa-multilingual-v2-2"):         # no successor recorded: in force since 2.2
        assert asof.in_force(defs[single], "2025-08-05") is False
        assert asof.in_force(defs[single], "2026-11-22") is True
    for undated in ("ai-iq", "ai-eq", "cost", "hle", "pedagogy", "benchmark-boards", "aa-intelligence-v4-x"):
        assert asof.in_force(defs[undated], "1990-01-01") is True, undated  # no dated entry of their own version


def test_known_view_selection_takes_the_newest_snapshot_retrieved_by_then():
    # Two snapshots of one source id are told apart by retrieval: in March only the January value was known.
    frame = results({"model": "o/a", "benchmark": "b1", "value": 50, "source": "snap", "retrieved": "2025-01-15"},
                    {"model": "o/a", "benchmark": "b1", "value": 55, "source": "snap", "retrieved": "2025-04-02"})
    out = asof.compute_asof(frame, PEOPLE.iloc[:1], RECORDS[:1], [], {"toy": TOY})
    assert _rows(out, "toy", "2025-03", "known") == [("o/a", 50.0, 1)]
    assert _rows(out, "toy", "2025-04", "known") == [("o/a", 55.0, 1)]
    assert _rows(out, "toy", "2025-03", "released") == [("o/a", 55.0, 1)]


def test_price_steps_keep_every_dated_price_in_date_order():
    steps = asof.price_steps(RECORDS)
    assert steps["o/a"] == [{"date": "2025-01-01", "input": 1.0, "output": 2.0, "source": "src1"},
                            {"date": "2025-03-15", "input": 0.5, "output": 1.0, "source": "src2"}]  # src3 undated
    assert asof.price_at(steps["o/a"], "2024-12-31") is None
    assert asof.price_at(steps["o/a"], "2025-03-14")["source"] == "src1"
    assert asof.price_at(steps["o/a"], "2025-03-15")["source"] == "src2"
    priced = asof.models_priced_at(PEOPLE, steps, "2025-02-28").set_index("model")
    assert priced.loc["o/a", "input_per_mtok"] == 1.0 and priced.loc["o/a", "pricing_source"] == "src1"
    assert math.isnan(priced.loc["o/b", "input_per_mtok"])          # o/b's first price is 1 March: unpriced
    assert priced.loc["o/c", "output_per_mtok"] == 4.0


def test_priced_lookup_is_the_lookup_of_the_priced_frame():
    # The engine derives each month's priced lookup from the full one instead of converting the month's frame;
    # both must give the same cells, prices in force (or None before any step) included.
    steps = asof.price_steps(RECORDS)
    for day in ("2024-12-31", "2025-02-28", "2025-03-20"):
        for present in ({"o/a", "o/b", "o/c"}, {"o/a", "o/c"}):
            frame = asof.models_priced_at(PEOPLE[PEOPLE["model"].isin(present)], steps, day)
            assert asof.priced_lookup(parts._model_lookup(PEOPLE), steps, day, present) == \
                parts._model_lookup(frame)
    assert asof.priced_lookup(parts._model_lookup(PEOPLE), steps, "2025-02-28", {"o/a", "o/b"})["o/b"][
        "input_per_mtok"] is None  # o/b's first price is 1 March: unpriced


def test_best_value_over_time_by_release_date():
    assert _run()["frontier"]["toy"]["best"] == [
        {"date": "2025-01-31", "value": 50.0, "model": "o/a", "released": "2025-01-10"},
        {"date": "2025-02-28", "value": 60.0, "model": "o/c", "released": "2025-02-20"},
        {"date": "2025-03-31", "value": 70.0, "model": "o/b", "released": "2025-03-05"},
    ]  # April changes nothing: no point


def test_value_frontier_at_quarter_end_uses_prices_in_force():
    # 31 March: log10 input prices a 0.5 -> -0.301, c 2 -> 0.301, b 4 -> 0.602. The a-b edge at x=0.301 is
    # 50 + 20 * 0.602 / 0.903 = 63.3 > 60, so c is under the hull; the frontier is a then b.
    assert _run()["frontier"]["toy"]["value_by_quarter"] == {"2025-03-31": [
        {"model": "o/a", "value": 50.0, "input_per_mtok": 0.5},
        {"model": "o/b", "value": 70.0, "input_per_mtok": 4.0}]}


def test_month_to_month_changes_in_the_known_view():
    changes = _run()["changes"]["toy"]
    assert sorted(changes) == ["2025-02", "2025-04"]                  # March changed nothing
    feb = changes["2025-02"]
    assert (feb["from"], feb["to"]) == ("2025-01-31", "2025-02-28")
    assert [(e["model"], e["rank"], e["cause"]) for e in feb["entered"]] == [("o/c", 1, "own-results")]
    assert feb["left"] == [] and feb["moved"] == [] and feb["rank_shifts"] == 1   # o/a: rank 1 -> 2
    apr = changes["2025-04"]
    assert [e["model"] for e in apr["entered"]] == ["o/b"] and apr["rank_shifts"] == 2
    late = _run()["changes"]["late"]
    assert late["2025-03"]["status"] == "added"


def test_api_files_list_the_dates_and_carry_both_views():
    out = _run()
    files = asof.api_files(out)
    feb = files["api/v1/indices/toy/2025-02.json"]
    assert feb["views"]["known"]["rows"] == [{"model": "o/c", "value": 60.0, "rank": 1, "status": "complete"},
                                             {"model": "o/a", "value": 50.0, "rank": 2, "status": "complete"}]
    assert files["api/v1/indices/late/2025-02.json"]["views"]["known"] is None
    # a board pinned to one snapshot says when that snapshot was taken (its newest retrieval)
    assert (feb["source_snapshot"], feb["snapshot_retrieved"]) == ("snap", "2025-04-10")
    dates = files["api/v1/indices/toy/dates.json"]
    assert [d["month"] for d in dates["dates"]] == ["2025-01", "2025-02", "2025-03", "2025-04"]
    assert dates["frontier"]["best"][-1]["model"] == "o/b"


def test_unchanged_months_reuse_the_engine():
    # One run per definition whenever the results it reads changed: toy known Jan, Feb, Apr (March has no new
    # b1 result); late known Mar (in force), Apr; toy released Mar only (Jan and Feb take the known view's boards
    # of the month, whose inputs are the same; April reuses March); late released Jan, Feb, Mar.
    assert _run()["engine_runs"] == 3 + 2 + 1 + 3


def test_ai_iq_as_known_takes_the_newest_snapshot_it_could_have_had():
    # AI IQ's rule prefers the newest AA snapshot (aa-api-2026-07 first). In September 2025 only the August-2025
    # leaderboard had been retrieved, so that is the one it takes; by July 2026 the 2026 snapshot wins.
    from indexkit import benchmarks, definition

    frame = results(
        {"model": "o/m", "benchmark": "gpqa-diamond", "value": 60, "source": "aa-leaderboard-2025-08",
         "retrieved": "2025-08-14"},
        {"model": "o/m", "benchmark": "gpqa-diamond", "value": 80, "source": "aa-api-2026-07",
         "retrieved": "2026-07-31"},
        # a second dimension, so the model gets a composite and the board is published
        {"model": "o/m", "benchmark": "aime-2025", "value": 90, "source": "aa-leaderboard-2025-08",
         "retrieved": "2025-08-14"},
    )
    people = models({"model": "o/m", "released": "2025-05-01"})
    out = asof.compute_asof(frame, people, [], benchmarks(), {"ai-iq": definition("ai-iq")},
                            months=["2025-07", "2025-09", "2026-07"])

    def gpqa(month, view):
        board = out["boards"]["ai-iq"][month][view]
        comps = {c["id"]: c for c in board["rows"][0]["components"]}
        return comps["gpqa-diamond"]["source"], comps["gpqa-diamond"]["raw"]

    assert out["boards"]["ai-iq"]["2025-07"]["known"] is None       # nothing retrieved yet
    assert gpqa("2025-09", "known") == ("aa-leaderboard-2025-08", 60.0)
    assert gpqa("2026-07", "known") == ("aa-api-2026-07", 80.0)
    assert gpqa("2025-09", "released") == ("aa-api-2026-07", 80.0)   # release view: every result we have now


def test_cost_board_uses_the_prices_in_force_at_each_date():
    # One model with token data (so its efficiency is 1x the median, itself): effective cost = 2 x input + output.
    # 28 Feb: src1's 1/2 -> 4; 31 March: src2's 0.5/1 (from 15 March) -> 2.
    from indexkit import benchmarks, definition

    frame = results({"model": "o/a", "benchmark": "aa-suite-tokens", "value": 100, "source": "aa-tokens-2026-07",
                     "retrieved": "2025-01-15"})
    out = asof.compute_asof(frame, PEOPLE.iloc[:1], RECORDS[:1], benchmarks(), {"cost": definition("cost")},
                            months=["2025-02", "2025-03"])
    for month, value, source in [("2025-02", 4.0, "src1"), ("2025-03", 2.0, "src2")]:
        row = out["boards"]["cost"][month]["known"]["rows"][0]
        token_cost = next(c for c in row["components"] if c["id"] == "token-cost")
        assert (row["value"], token_cost["source"]) == (value, source)


def test_no_data_no_months():
    empty = results()
    assert asof.months_covered(empty, {}) == []
    out = asof.compute_asof(empty, models(), [], [], DEFS)
    assert out["months"] == [] and out["boards"] == {} and out["frontier"] == {}


def test_nothing_is_dated_after_the_data_date():
    # The newest retrieval is 2025-04-10: April's board speaks for that day, not 30 April; earlier months end.
    out = _run()
    assert out["data_date"] == "2025-04-10"
    assert out["dates"] == {"2025-01": "2025-01-31", "2025-02": "2025-02-28", "2025-03": "2025-03-31",
                            "2025-04": "2025-04-10"}
    files = asof.api_files(out)
    assert files["api/v1/indices/toy/2025-04.json"]["date"] == "2025-04-10"
    assert [d["date"] for d in files["api/v1/indices/toy/dates.json"]["dates"]][-1] == "2025-04-10"
    assert out["changes"]["toy"]["2025-04"]["to"] == "2025-04-10"
    # a `published` date counts too (the newest of both columns), and months after the data's are left as they end
    frame = FRAME.assign(published=["2025-01-15", "2025-04-20", "2025-02-20"])
    assert asof.data_date(frame) == "2025-04-20"
    assert asof.month_day("2025-04", "2025-04-20") == "2025-04-20" and asof.month_day("2025-05", "2025-04-20") == \
        "2025-05-31"


def _board(higher, **values):
    rows = sorted(({"model": m, "value": v} for m, v in values.items()), key=lambda r: -r["value"] if higher
                  else r["value"])
    return {"definition": "toy", "higher_is_better": higher,
            "rows": [dict(r, rank=i + 1) for i, r in enumerate(rows)]}


AVAILABLE = {"o/a": "2025-01-10", "o/c": "2025-02-20", "o/b": "2025-03-05"}


def test_frontier_over_release_date_is_the_running_best_of_todays_values():
    # Each month's board has its own population, so o/a's value falls from 90 (Jan) to 80 (Feb) to 70 (today);
    # the frontier reads today's values only: Jan o/a 70, Feb o/c 75, March o/b 72 is not better than 75.
    per_month = {"2025-01": {"released": _board(True, **{"o/a": 90}), "known": _board(True, **{"o/a": 90})},
                 "2025-02": {"released": _board(True, **{"o/a": 80, "o/c": 85}),
                             "known": _board(True, **{"o/a": 80, "o/c": 85})},
                 "2025-03": {"released": _board(True, **{"o/a": 70, "o/c": 75, "o/b": 72}),
                             "known": _board(True, **{"o/a": 70, "o/c": 75, "o/b": 72})}}
    assert asof.best_over_time(per_month, AVAILABLE, {}) == [
        {"date": "2025-01-31", "value": 70, "model": "o/a", "released": "2025-01-10"},
        {"date": "2025-02-28", "value": 75, "model": "o/c", "released": "2025-02-20"}]
    # "as known then": each month's own top, which falls with the population
    assert [(p["date"], p["value"], p["model"]) for p in asof.best_as_known(per_month, AVAILABLE, {})] == [
        ("2025-01-31", 90, "o/a"), ("2025-02-28", 85, "o/c"), ("2025-03-31", 75, "o/c")]
    # lower is better: o/a's 70 stays the best; the later, higher values never replace it
    low = {m: {v: _board(False, **{r["model"]: r["value"] for r in b["rows"]}) for v, b in views.items()}
           for m, views in per_month.items()}
    assert asof.best_over_time(low, AVAILABLE, {}) == [
        {"date": "2025-01-31", "value": 70, "model": "o/a", "released": "2025-01-10"}]
    # an unranked row does not lead, and a month's point carries that month's day (the data date in its month)
    per_month["2025-03"]["released"]["rows"].append({"model": "o/z", "value": 99, "rank": None})
    assert asof.best_over_time(per_month, {**AVAILABLE, "o/z": "2025-01-01"}, {},
                               {"2025-01": "2025-01-31", "2025-02": "2025-02-28", "2025-03": "2025-03-12"})[-1][
        "model"] == "o/c"


def test_a_frontier_on_a_pinned_snapshot_states_its_coverage():
    board = dict(_board(True, **{"o/a": 70, "o/c": 75}), source_snapshot="snap")
    board["rows"].append({"model": "o/b", "value": 60, "rank": None})   # unranked: not counted
    people = models({"model": "o/a", "organization": "Org A"}, {"model": "o/b", "organization": "Org B"},
                    {"model": "o/c", "organization": "Org A"})
    assert asof.coverage({"2025-01": {"released": board}}, people) == {"snapshot": "snap", "models": 2,
                                                                      "organisations": ["Org A"]}
    assert asof.coverage({"2025-01": {"released": _board(True, **{"o/a": 1})}}, people) is None  # not pinned


def test_entered_that_month_leads_with_the_highest_ranked_entrants():
    old = _board(True, **{"o/a": 50})
    new = _board(True, **{"o/a": 50, "o/b": 40, "o/c": 70})
    new["rows"].append({"model": "o/0", "value": 10, "rank": None})  # unranked: last, though its id sorts first
    change = asof.monthly_changes({"2025-01": {"known": old}, "2025-02": {"known": new}}, FRAME)["2025-02"]
    assert [(r["model"], r["rank"]) for r in change["entered"]] == [("o/c", 1), ("o/b", 3), ("o/0", None)]


def test_month_files_keep_interval_rank_range_and_tier():
    board = {"definition": "toy", "rows": [
        {"model": "o/a", "value": 50.0, "rank": 1, "status": "full", "interval": [48.0, 52.0],
         "rank_interval": [1, 2], "tier": 1, "components": ["not in the file"]},
        {"model": "o/b", "value": 40.0, "rank": 2, "status": "full"}]}
    out = {"boards": {"toy": {"2025-01": {"known": board, "released": None}}}, "changes": {}, "frontier": {},
           "dates": {"2025-01": "2025-01-20"}}
    rows = asof.api_files(out)["api/v1/indices/toy/2025-01.json"]["views"]["known"]["rows"]
    assert rows == [{"model": "o/a", "value": 50.0, "rank": 1, "status": "full", "interval": [48.0, 52.0],
                     "rank_interval": [1, 2], "tier": 1},
                    {"model": "o/b", "value": 40.0, "rank": 2, "status": "full"}]


# Hand-written price precedence (scores/sources.yaml's `price_precedence`): the AA snapshots one source, LMArena
# after them, every other source (the Pedagogy models list, "other-paper") after both.
PRECEDENCE = {"aa-leaderboard-2025-08": 1, "aa-api-2025-10": 1, "aa-api-2026-07": 1, "lmarena": 2}


def _priced(**prices):
    """A model record from {source: (as_of, input, output)} and vendor list prices under the key "vendor"."""
    vendor = prices.pop("vendor", [])
    return {"model": "o/x",
            "prices": {s: {"as_of": d, "input_per_mtok": i, "output_per_mtok": o} for s, (d, i, o) in prices.items()},
            "list_prices": [{"as_of": d, "input_per_mtok": i, "output_per_mtok": o, "url": "https://v.example/" + d,
                             "capture": c} for d, i, o, c in vendor]}


def test_a_lower_source_disagreeing_is_not_a_step():
    # o3's case: $2/$8 from the AA snapshots, LMArena's $10/$40 in between: a disagreement, no step back and forth
    record = _priced(**{"aa-leaderboard-2025-08": ("2025-08-14", 2, 8), "lmarena": ("2025-12-17", 10, 40),
                        "aa-api-2026-07": ("2026-07-31", 2, 8)})
    steps, disagreements = asof.price_history(record, PRECEDENCE)
    assert [(s["date"], s["input"], s["source"]) for s in steps] == [("2025-08-14", 2.0, "aa-leaderboard-2025-08")]
    assert disagreements == [{"date": "2025-12-17", "input": 10.0, "output": 40.0, "source": "lmarena",
                              "in_force": {"date": "2025-08-14", "input": 2.0, "output": 8.0,
                                           "source": "aa-leaderboard-2025-08"}}]


def test_the_vendor_list_price_sets_the_steps_and_says_whether_it_was_captured():
    record = _priced(vendor=[("2025-04-16", 10, 40, None), ("2025-06-10", 2, 8, "downloads/v/page.html")],
                     **{"pedagogy-models": ("2025-06-30", 2, 8), "lmarena": ("2025-12-17", 10, 40),
                        "aa-api-2026-07": ("2026-07-31", 2, 8)})
    steps, disagreements = asof.price_history(record, PRECEDENCE)
    assert steps == [
        {"date": "2025-04-16", "input": 10.0, "output": 40.0, "source": "vendor", "url": "https://v.example/2025-04-16",
         "captured": False},
        {"date": "2025-06-10", "input": 2.0, "output": 8.0, "source": "vendor", "url": "https://v.example/2025-06-10",
         "captured": True}]
    # the paper and AA agree with the vendor's price in force: no disagreement; LMArena does not
    assert [(d["source"], d["in_force"]["date"]) for d in disagreements] == [("lmarena", "2025-06-10")]
    assert asof.price_at(steps, "2025-06-09")["input"] == 10.0 and asof.price_at(steps, "2026-08-01")["input"] == 2.0


def test_a_higher_source_arriving_later_with_another_price_is_a_disagreement_not_a_step():
    # LMArena's December price, then AA's first capture with another price: the two speak about one period (a
    # capture says what the price was when read, not since when), so AA (higher precedence) holds from LMArena's
    # date, marked with its own date, and LMArena's price is a disagreement. A newer AA snapshot is a step.
    record = _priced(**{"lmarena": ("2025-01-10", 3, 15), "aa-leaderboard-2025-08": ("2025-08-14", 3, 12),
                        "aa-api-2025-10": ("2025-10-14", 2.5, 10), "other-paper": ("2025-09-01", 1, 1)})
    steps, disagreements = asof.price_history(record, PRECEDENCE)
    assert steps == [
        {"date": "2025-01-10", "input": 3.0, "output": 12.0, "source": "aa-leaderboard-2025-08",
         "source_date": "2025-08-14"},                                                   # AA for the whole period
        {"date": "2025-10-14", "input": 2.5, "output": 10.0, "source": "aa-api-2025-10"}]  # newer AA snapshot
    assert [(d["date"], d["source"], d["in_force"]["date"], d["in_force"]["source"]) for d in disagreements] == [
        ("2025-01-10", "lmarena", "2025-08-14", "aa-leaderboard-2025-08"),
        ("2025-09-01", "other-paper", "2025-08-14", "aa-leaderboard-2025-08")]
    # priced from the first capture's day; unpriced before it
    assert asof.price_at(steps, "2025-01-09") is None and asof.price_at(steps, "2025-02-01")["output"] == 12.0
    # a source agreeing with the price in force adds nothing; undated prices are not steps
    same = _priced(**{"aa-api-2025-10": ("2025-10-14", 2, 8), "lmarena": ("2025-12-17", 2, 8)})
    same["prices"]["undated"] = {"input_per_mtok": 9}
    assert asof.price_history(same, PRECEDENCE) == ([{"date": "2025-10-14", "input": 2.0, "output": 8.0,
                                          "source": "aa-api-2025-10"}], [])
    # a lower source alone sets the price (the paper's, then LMArena's: LMArena outranks it for the whole period)
    lower = _priced(**{"pedagogy-models": ("2025-06-30", 0.3, 2.5), "lmarena": ("2025-12-17", 0.15, 0.6)})
    steps, disagreements = asof.price_history(lower, PRECEDENCE)
    assert [(s["date"], s["input"], s["source"], s.get("source_date")) for s in steps] == [
        ("2025-06-30", 0.15, "lmarena", "2025-12-17")]
    assert [(d["source"], d["in_force"]["source"]) for d in disagreements] == [("pedagogy-models", "lmarena")]


def test_captures_before_the_vendors_first_list_price_decide_only_until_it():
    # AA's price read before the vendor's announced change holds until the change; an AA capture after the change
    # is not carried back before it, and one that differs from the vendor's is a disagreement.
    record = _priced(vendor=[("2025-09-01", 1, 4, None)],
                     **{"lmarena": ("2025-07-01", 5, 5), "aa-leaderboard-2025-08": ("2025-08-14", 2, 8),
                        "aa-api-2026-07": ("2026-07-31", 1.5, 4)})
    steps, disagreements = asof.price_history(record, PRECEDENCE)
    assert [(s["date"], s["input"], s["output"], s["source"], s.get("source_date")) for s in steps] == [
        ("2025-07-01", 2.0, 8.0, "aa-leaderboard-2025-08", "2025-08-14"),
        ("2025-09-01", 1.0, 4.0, "vendor", None)]
    assert [(d["date"], d["source"], d["in_force"]["source"]) for d in disagreements] == [
        ("2025-07-01", "lmarena", "aa-leaderboard-2025-08"), ("2026-07-31", "aa-api-2026-07", "vendor")]


def test_todays_price_follows_the_same_precedence_a_hand_entered_list_price_first():
    from sitegen.data import frame

    # The price the boards use today (model_records) is the one in force at the end of the price history.
    o3 = {"aa-api-2026-07": {"as_of": "2026-07-31", "input_per_mtok": 2.5, "output_per_mtok": 9},
          "lmarena": {"as_of": "2025-12-17", "input_per_mtok": 10, "output_per_mtok": 40}}
    vendor = [{"as_of": "2025-04-16", "input_per_mtok": 10, "output_per_mtok": 40, "url": "https://v.example/a"},
              {"as_of": "2025-06-10", "input_per_mtok": 2, "output_per_mtok": 8, "url": "https://v.example/b"}]
    steps, _ = frame.price_history({"prices": o3, "list_prices": vendor}, PRECEDENCE)
    assert (steps[-1]["input"], steps[-1]["output"], steps[-1]["source"]) == (2.0, 8.0, "vendor")
    steps, _ = frame.price_history({"prices": o3}, PRECEDENCE)  # without it, AA's newest snapshot, not LMArena
    assert (steps[-1]["input"], steps[-1]["source"], steps[-1]["source_date"]) == (2.5, "aa-api-2026-07", "2026-07-31")


def test_without_a_precedence_every_source_but_the_vendors_is_alike_newest_first():
    # A repository whose sources state no `price_precedence`: LMArena's later price is a step, not a disagreement.
    record = _priced(**{"aa-leaderboard-2025-08": ("2025-08-14", 2, 8), "lmarena": ("2025-12-17", 10, 40)})
    steps, disagreements = asof.price_history(record)
    assert [(s["date"], s["input"], s["source"]) for s in steps] == [
        ("2025-08-14", 2.0, "aa-leaderboard-2025-08"), ("2025-12-17", 10.0, "lmarena")]
    assert disagreements == []
    # the ranks the other way round: LMArena speaks for the whole period, AA's price disagrees
    steps, disagreements = asof.price_history(record, {"lmarena": 1, "aa-leaderboard-2025-08": 2})
    assert [(s["date"], s["input"], s["source"], s.get("source_date")) for s in steps] == [
        ("2025-08-14", 10.0, "lmarena", "2025-12-17")]
    assert [(d["source"], d["in_force"]["source"]) for d in disagreements] == [("aa-leaderboard-2025-08", "lmarena")]


def test_price_tier_puts_the_vendor_first_and_sources_without_a_precedence_last():
    from sitegen.data.frame import price_tier

    assert price_tier("vendor", {"vendor": 5}) == 0
    assert price_tier("a", {"a": 1}) < price_tier("b", {"b": 2}) < price_tier("c", {"b": 2}) == math.inf
    assert price_tier("a") == price_tier("b") == math.inf


def test_price_precedence_is_each_sources_stated_number():
    from types import SimpleNamespace

    from sitegen.data.frame import price_precedence

    sources = {"sources": [{"id": "snap-1", "price_precedence": 1}, {"id": "arena", "price_precedence": 2},
                           {"id": "paper"}, {"id": "snap-2", "price_precedence": 1}]}
    assert price_precedence(SimpleNamespace(sources=SimpleNamespace(data=sources))) == {
        "snap-1": 1, "arena": 2, "snap-2": 1}
    assert price_precedence(SimpleNamespace(sources=None)) == {}


def test_the_as_of_price_steps_follow_the_precedence_compute_asof_is_given():
    # o/a: src1 from January, src2 from 15 March. Alike, src2's newer price is a step; with src1 first, a disagreement.
    assert [s["source"] for s in _run()["price_steps"]["o/a"]] == ["src1", "src2"]
    ranked = asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS, price_precedence={"src1": 1})
    assert [(s["date"], s["source"]) for s in ranked["price_steps"]["o/a"]] == [("2025-01-01", "src1")]
    assert [(d["date"], d["source"]) for d in ranked["price_disagreements"]["o/a"]] == [("2025-03-15", "src2")]


# The toy index with a simulation, over results with a published standard error, so every month's board carries
# intervals, rank intervals and tiers drawn from the (board, model, component) streams.
SIMULATED = dict(TOY, uncertainty={"simulations": 200, "level": 0.95})
SE_FRAME = results(
    {"model": "o/a", "benchmark": "b1", "value": 50, "stderr": 2, "source": "snap", "retrieved": "2025-01-15"},
    {"model": "o/b", "benchmark": "b1", "value": 53, "stderr": 3, "source": "snap", "retrieved": "2025-04-10"},
    {"model": "o/c", "benchmark": "b1", "value": 51, "stderr": 1, "source": "snap", "retrieved": "2025-02-20"},
)


def _plain(x):
    """Boards as plain data (the compare page's rank draws are arrays), so two runs compare with ==."""
    import numpy as np

    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x.tolist() if isinstance(x, np.ndarray) else x


def test_kept_normals_give_the_as_of_output_of_drawing_every_month_afresh(monkeypatch):
    import contextlib

    kept = asof.compute_asof(SE_FRAME, PEOPLE, RECORDS, [], {"toy": SIMULATED})
    # o/a's interval is the same draws in every month it is on the board; the months differ in who else is there
    board = kept["boards"]["toy"]
    assert [board[m]["known"]["rows"][0]["model"] for m in ("2025-01", "2025-04")] == ["o/a", "o/b"]
    assert all(r.get("rank_interval") for m in kept["months"] for r in board[m]["known"]["rows"])
    monkeypatch.setattr(asof, "kept_normals", contextlib.nullcontext)  # every stream drawn again, every month
    fresh = asof.compute_asof(SE_FRAME, PEOPLE, RECORDS, [], {"toy": SIMULATED})
    assert _plain(kept) == _plain(fresh)
    assert asof.api_files(kept) == asof.api_files(fresh)


def test_a_kept_stream_is_the_stream_and_only_its_own_ids_and_size_reuse_it():
    import numpy as np

    from sitegen.indices import uncertainty

    first = uncertainty.normals("toy", [("o/a", "b1"), ("o/b", "b1")], 50)
    with uncertainty.kept_normals():
        once = uncertainty.normals("toy", [("o/a", "b1"), ("o/b", "b1")], 50)
        once[:] = 0.0  # a caller changing its array does not change what is kept
        again = uncertainty.normals("toy", [("o/b", "b1"), ("o/a", "b1")], 50)
        other_board = uncertainty.normals("late", [("o/a", "b1")], 50)
        longer = uncertainty.normals("toy", [("o/a", "b1")], 80)
        assert len(uncertainty._KEPT) == 4
    assert uncertainty._KEPT is None  # nothing is kept outside the block
    assert np.array_equal(again, first[:, ::-1])
    assert not np.array_equal(other_board[:, 0], first[:, 0])
    assert np.array_equal(longer[:, 0], uncertainty.stream("toy", "o/a", "b1").standard_normal(80, dtype=np.float32))


def test_as_of_boards_draw_shared_questions_together_as_todays_boards_do():
    # Three HLE rows computed from per-question files: b is a with 4 more questions wrong, so in every draw of the
    # question set (one resample for all models) a stays ahead of b; drawn independently their ranges overlap. The
    # as-of board is annotated with the month's per-question rows, like today's, so both say a is 1st, b 2nd.
    import numpy as np
    import pandas as pd

    from indexkit import benchmarks
    from sitegen.indices import boards as engine, uncertainty

    hle = definition("hle")
    a = np.array([i % 10 < 6 for i in range(200)])
    b = a.copy()
    b[:4] = False
    c = np.array([i % 10 < 3 for i in range(200)])
    answers = {m: x for m, x in (("o/a", a), ("o/b", b), ("o/c", c))}
    raw = {("hle", m): pd.DataFrame({"id": [f"q{i}" for i in range(200)], "correct": x}) for m, x in answers.items()}
    frame = results(*[{"model": m, "benchmark": "hle", "value": 100 * float(x.mean()), "n": 200,
                       "source": "hle-paper", "retrieved": "2025-07-01"} for m, x in answers.items()])
    people = models(*[{"model": m, "released": "2025-06-01"} for m in answers])
    people["kind"] = "language"
    today = {k: v for k, v in engine.compute_boards(frame, people, benchmarks(), {"hle": hle}, raw).items()
             if engine.publishable(v, hle)}
    uncertainty.annotate_boards(today, {"hle": hle}, frame, people, benchmarks(), raw)
    ranges = [(r["model"], r["rank_interval"]) for r in today["hle"]["rows"]]
    assert ranges == [("o/a", [1, 1]), ("o/b", [2, 2]), ("o/c", [3, 3])]
    out = asof.compute_asof(frame, people, [{"model": m} for m in answers], benchmarks(), {"hle": hle}, raw)
    known = out["boards"]["hle"]["2025-07"]["known"]
    assert [(r["model"], r["rank_interval"]) for r in known["rows"]] == ranges


# ---------------------------------------------------------------------------------------------------------------
# Parts and streaming (build/__init__.py computes AI IQ's months in a worker and the others in the parent).

def test_parts_of_disjoint_definitions_join_to_the_whole_result_byte_for_byte():
    import pickle

    plan = asof.asof_plan(FRAME, PEOPLE, RECORDS, DEFS)
    whole = asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS)
    for first, second in (({"toy"}, {"late"}), ({"late"}, {"toy"})):
        parts = [asof.asof_part(plan, [], DEFS, only=first), asof.asof_part(plan, [], DEFS, only=second)]
        assert set(parts[0]["boards"]) == first and set(parts[1]["boards"]) == second
        joined = asof.join_asof(plan, parts)
        assert pickle.dumps(joined) == pickle.dumps(whole)
    assert whole["engine_runs"] == sum(asof.asof_part(plan, [], DEFS, only={i})["engine_runs"] for i in DEFS)


def test_between_is_called_after_every_month_and_changes_nothing():
    import pickle

    plan = asof.asof_plan(FRAME, PEOPLE, RECORDS, DEFS)
    assert plan.months == ["2025-01", "2025-02", "2025-03", "2025-04"]
    calls = []
    part = asof.asof_part(plan, [], DEFS, slim=True, between=lambda: calls.append(len(calls)))
    assert calls == [0, 1, 2, 3]  # once a month, both views done
    assert pickle.dumps(part) == pickle.dumps(asof.asof_part(plan, [], DEFS, slim=True))


def test_the_joined_result_keeps_the_order_of_one_pass_over_the_views():
    # known view first: "late" is in force from 2025-03 (known boards in March and April), and its released view
    # (today's definition for every month) adds January and February after them; "toy" comes first (January)
    out = _run()
    assert list(out["boards"]) == ["toy", "late"]
    assert list(out["boards"]["late"]) == ["2025-03", "2025-04", "2025-01", "2025-02"]
    assert list(out["boards"]["late"]["2025-01"]) == ["released", "known"]
    assert list(out["boards"]["toy"]) == ["2025-01", "2025-02", "2025-03", "2025-04"]


def test_changes_made_month_by_month_equal_those_of_the_whole_boards():
    out = _run()
    for board_id, per_month in out["boards"].items():
        assert out["changes"][board_id] == asof.monthly_changes(per_month, FRAME, out["dates"]), board_id
    # o/b is released and retrieved in 2025-03/04: it enters toy's known board in April
    assert [r["model"] for r in out["changes"]["toy"]["2025-04"]["entered"]] == ["o/b"]
    assert out["changes"]["late"]["2025-03"]["status"] == "added"


def test_slim_boards_keep_what_the_published_views_read_and_the_same_files():
    whole, slim = _run(), asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS, slim=True)
    assert asof.api_files(slim) == asof.api_files(whole)
    assert slim["changes"] == whole["changes"] and slim["frontier"] == whole["frontier"]
    board = slim["boards"]["toy"]["2025-04"]["known"]
    assert board == {"definition": "toy", "version": "1", "source_snapshot": "snap",
                     "rows": [{"model": "o/b", "value": 70.0, "rank": 1, "status": "complete"},
                              {"model": "o/c", "value": 60.0, "rank": 2, "status": "complete"},
                              {"model": "o/a", "value": 50.0, "rank": 3, "status": "complete"}]}
    # a board shared by months with the same inputs stays one object (one copy in memory and in a pickle): o/b is
    # released in March with every result we have, so the released view is the same in March and April
    assert slim["boards"]["toy"]["2025-04"]["released"] is slim["boards"]["toy"]["2025-03"]["released"]
    assert slim["boards"]["toy"]["2025-04"]["released"] == slim["boards"]["toy"]["2025-04"]["known"]


def test_as_of_boards_carry_no_draws():
    board = {"rows": [{"model": "o/a", "value": 1.0}], "ahead": {"models": ["o/a"], "draws": [[1]]}, "name": "x"}
    assert asof.without_draws(board) == {"rows": [{"model": "o/a", "value": 1.0}], "name": "x"}
    assert asof.without_draws({"rows": []}) == {"rows": []}
    assert asof.shown(None) is None
    assert asof.shown({"definition": "d", "uncertainty": {"level": 0.9, "draws": 1000}, "rows": [
        {"model": "o/a", "value": 1.0, "rank": 1, "how": "imputed", "components": [], "interval": [0.5, 1.5]}]}) == {
        "definition": "d", "uncertainty": {"level": 0.9},
        "rows": [{"model": "o/a", "value": 1.0, "rank": 1, "status": "imputed", "interval": [0.5, 1.5]}]}


def test_input_digests_of_the_same_rows_in_another_order_key_the_same():
    # build/__init__.py digests the frames once, in their own order, for today's boards and both as-of parts,
    # whose months are filtered from the frame sorted by `published`
    ahead, behind = asof.InputDigests(FRAME, PEOPLE, {}, []), asof.InputDigests(FRAME.iloc[::-1], PEOPLE, {}, [])
    today = asof._TodayModels(PEOPLE)
    without_b = FRAME[FRAME["model"] != "o/b"]
    assert ahead.key("toy", TOY, without_b, {}, today, ("b1",)) == behind.key("toy", TOY, without_b, {}, today, ("b1",))
    assert ahead.key("toy", TOY, FRAME, {}, today, ("b1",)) != ahead.key("toy", TOY, without_b, {}, today, ("b1",))
