"""A month's frames hold only the rows of the benchmarks its run's definitions read (asof._AsofRun): a definition's
boards and its month key (InputDigests.key) read no others, so a run of the one definition an edit reached
filters its own few rows month after month, not every result. The fixture is test_asof's toy index over b1, with
a result and per-question rows of b2, which neither toy nor late reads."""

from __future__ import annotations

import pandas as pd
from indexkit import results
from test_asof import DEFS, FRAME, PEOPLE, RECORDS

from sitegen.indices import asof

OTHER = results({"model": "o/a", "benchmark": "b2", "value": 10, "source": "snap", "retrieved": "2025-01-20"})
BASE = pd.concat([FRAME, OTHER], ignore_index=True)
RAW = {("b2", "o/a"): pd.DataFrame([{"question": "q1", "correct": True}])}


def test_the_engine_is_given_the_read_benchmarks_rows_only_and_computes_the_same_boards(monkeypatch):
    seen = []
    engine = asof.compute_boards

    def recorded(res, models, benchmarks, defs, raw=None):
        seen.append((next(iter(defs)), sorted(set(res["benchmark"])), sorted(raw or {})))
        return engine(res, models, benchmarks, defs, raw)

    monkeypatch.setattr(asof, "compute_boards", recorded)
    out = asof.compute_asof(BASE, PEOPLE, RECORDS, [], DEFS, RAW)
    # every month of toy and late on b1's rows and no per-question rows (b2's result is o/a's of January, in the
    # months of both views from then on)
    assert len(seen) == 9 and {(d, tuple(b), tuple(r)) for d, b, r in seen} == {
        ("toy", ("b1",), ()),
        ("late", ("b1",), ()),
    }
    seen.clear()
    # a part of one definition filters its rows alone, and its boards are those of the run over every definition
    plan = asof.asof_plan(BASE, PEOPLE, RECORDS, DEFS)
    part = asof.asof_part(plan, [], DEFS, RAW, only={"toy"})
    assert {d for d, _, _ in seen} == {"toy"}
    assert part["boards"]["toy"] == out["boards"]["toy"]
    # b2's result and rows change none of the boards: the same as the run without them
    assert out["boards"] == asof.compute_asof(FRAME, PEOPLE, RECORDS, [], DEFS)["boards"]


def test_a_month_is_filtered_once_for_both_views(monkeypatch):
    filtered = []
    frames_at = asof.frames_at

    def recorded(results, models, available, raw, day, view):
        filtered.append((day, view))
        return frames_at(results, models, available, raw, day, view)

    monkeypatch.setattr(asof, "frames_at", recorded)
    out = asof.compute_asof(BASE, PEOPLE, RECORDS, [], DEFS, RAW)
    # January to April, once each: the known view's frames are the released view's rows published by the day
    assert filtered == [
        ("2025-01-31", "released"),
        ("2025-02-28", "released"),
        ("2025-03-31", "released"),
        ("2025-04-10", "released"),
    ]
    # o/b's result is published on 10 April: in March's released view (o/b released 5 March), not its known view
    assert [r["model"] for r in out["boards"]["toy"]["2025-03"]["released"]["rows"]] == ["o/b", "o/c", "o/a"]
    assert [r["model"] for r in out["boards"]["toy"]["2025-03"]["known"]["rows"]] == ["o/c", "o/a"]


def test_a_month_s_models_are_filtered_by_their_ids_and_their_whole_rows_taken_when_its_boards_are_computed():
    steps, _ = asof.price_tables(RECORDS)
    present = PEOPLE[PEOPLE["model"].isin(["o/a", "o/b"])]  # the models a month holds: any of the frame's
    lazy = asof._MonthModels(present[["model", "manual_iq"]], steps, "2025-03-31", {}, whole=PEOPLE)
    eager = asof._MonthModels(present, steps, "2025-03-31", {})
    digests = asof.InputDigests(FRAME, PEOPLE, {}, [])
    assert lazy.digest(digests) == eager.digest(digests)  # the month's key reads the ids and prices alone
    pd.testing.assert_frame_equal(lazy.frame(), eager.frame())
    # o/a's price from 15 March (src2), o/b's from 1 March; every other column as the models frame has it
    assert lazy.frame()["input_per_mtok"].tolist() == [0.5, 4.0]
    assert lazy.frame()["released"].tolist() == ["2025-01-10", "2025-03-05"]


def test_a_plan_keeps_its_shares_keys_for_the_same_definitions_and_frames(monkeypatch):
    plan = asof.asof_plan(BASE, PEOPLE, RECORDS, DEFS)
    digests = asof.InputDigests(plan.results, PEOPLE, RAW, [])
    made = []  # the layout (slim) of each computation of the keys: their common part is digested once in each
    digest = asof._digest

    def spy(value):
        if type(value) is tuple and value and value[0] == asof.PIECE:
            made.append(value[1])
        return digest(value)

    monkeypatch.setattr(asof, "_digest", spy)
    every = asof.part_keys(plan, digests, DEFS, RAW, ["late", "toy"], True)
    # made once (build._worker_share, before the fork) and read by each process's asof_part
    assert asof.part_keys(plan, digests, DEFS, dict(RAW), ["toy"], True) == {"toy": every["toy"]}
    assert made == [True]
    # other definitions (an equal copy is another object), another layout or other frames: worked out again
    assert asof.part_keys(plan, digests, dict(DEFS), RAW, ["toy"], True) == {"toy": every["toy"]}
    assert asof.part_keys(plan, digests, DEFS, RAW, ["toy"], False) != {"toy": every["toy"]}
    assert asof.part_keys(plan, digests, DEFS, {}, ["toy"], True) == {"toy": every["toy"]}  # toy reads no b2 rows
    assert made == [True, True, False, True]
