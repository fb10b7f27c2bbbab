"""Canonical export: sorted keys, rows by rank then id, fixed precision half-up, no NaN, trailing newline."""

from __future__ import annotations

import json

import pytest

from sitegen.export import to_csv, to_json

BOARD = {
    "index": "t", "name": "T", "version": "1", "kind": "weighted-mean", "unit": "points", "description": "d",
    "source_snapshot": None,
    "rows": [
        {"model": "z/none", "value": None, "rank": None, "status": "incomplete", "coverage": {"have": 1, "of": 2},
         "components": [{"id": "b1", "kind": "benchmark", "value": 1.0, "raw": None, "how": "observed",
                         "source": "s", "retrieved": "2025-01-01"},
                        {"id": "b2", "kind": "benchmark", "value": None, "raw": None, "how": "missing",
                         "reason": "none", "source": None, "retrieved": None}]},
        {"model": "b/two", "value": 2.00005, "rank": 2, "status": "complete", "coverage": {"have": 2, "of": 2},
         "components": []},
        {"model": "a/one", "value": 3.123449, "rank": 1, "status": "complete", "coverage": {"have": 2, "of": 2},
         "components": [], "manual": {"value": 120.0, "source": "x"}},
    ],
}


def test_json_is_canonical():
    text = to_json(BOARD)
    assert text.endswith("}\n") and text == to_json(json.loads(text))
    data = json.loads(text)
    assert [r["model"] for r in data["rows"]] == ["a/one", "b/two", "z/none"]
    assert data["rows"][0]["value"] == 3.1234 and data["rows"][1]["value"] == 2.0001   # half-up at 4 places
    assert list(data) == sorted(data) and list(data["rows"][2]) == sorted(data["rows"][2])


def test_json_is_byte_identical_whatever_the_input_order():
    shuffled = {**dict(reversed(list(BOARD.items()))), "rows": list(reversed(BOARD["rows"]))}
    assert to_json(shuffled).encode() == to_json(BOARD).encode()


def test_nan_is_refused():
    with pytest.raises(ValueError):
        to_json({**BOARD, "rows": [{**BOARD["rows"][1], "value": float("nan")}]})


def test_csv():
    lines = to_csv(BOARD).splitlines()
    assert lines[0] == "rank,model,value,status,coverage_have,coverage_of,manual_value,manual_source,b1,b2,b1_how,b2_how"
    assert lines[1] == "1,a/one,3.1234,complete,2,2,120.0,x,,,,"
    assert lines[3] == ",z/none,,incomplete,1,2,,,1.0,,observed,missing"
    assert to_csv(BOARD).endswith("\n")


def test_benchmark_board_csv():
    board = {"benchmark": "hle", "name": "HLE", "unit": "percent", "higher_is_better": True, "description": "",
             "rows": [{"model": "m", "value": 25.0, "rank": 1, "how": "observed", "source": "s",
                       "retrieved": "2025-01-01", "url": None, "stderr": 1.5, "ci_low": None, "ci_high": None,
                       "harness": None, "self_reported": False}]}
    assert to_csv(board).splitlines()[1] == "1,m,25.0,observed,s,2025-01-01,,1.5,,,,false"


def test_frontiers_csv_lists_points_then_month_members():
    from sitegen.export import frontiers_csv
    fr = {"value": {"points": [{"model": "a/m", "x": -2.0, "x_raw": 0.01, "y": 60.0, "released": "2025-01",
                                "price_source": "pedagogy-models", "price_as_of": "2025-06-30"},
                               {"model": "b/m", "x": 0.0, "x_raw": 1.0, "y": 55.0, "released": "2025-02",
                                "price_source": "pedagogy-models", "price_as_of": "2025-06-30"}],
                    "frontier": ["a/m"], "by_month": {"2025-01": ["a/m"]}},
          "size": {"points": [{"model": "a/m", "x": 0.477121254719662, "x_raw": 3.0, "y": 60.0, "released": None,
                               "count_source": "model registry"}], "frontier": ["a/m"]}}
    assert frontiers_csv(fr).splitlines() == [
        "frontier,month,model,on_frontier,x_raw,x_log10,y,released,price_source,price_as_of,count_source",
        "size,,a/m,true,3.0,0.4771,60.0,,,,model registry",
        "value,,a/m,true,0.01,-2.0,60.0,2025-01,pedagogy-models,2025-06-30,",
        "value,,b/m,false,1.0,0.0,55.0,2025-02,pedagogy-models,2025-06-30,",
        "value,2025-01,a/m,true,0.01,-2.0,60.0,2025-01,pedagogy-models,2025-06-30,",
    ]
