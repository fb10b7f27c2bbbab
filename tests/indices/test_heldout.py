"""The held-out experiment's parts on hand-written data (the experiment itself runs on the real data in
test_calibration_realdata.py): which imputed values hiding changed, the cases of one hidden set, and one case's
interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

from indexkit import definition, models, scores
from sitegen.indices import heldout


def test_changed_imputations_are_the_picked_models_imputed_values_that_hiding_moved():
    reduced = [
        {"model": "a", "components": [
            {"id": "m1", "how": "imputed", "value": 120.0},     # observed in the full data: hidden, changed
            {"id": "m2", "how": "observed", "value": 110.0},    # measured: never drawn here
            {"id": "math", "how": "imputed", "value": 115.0},   # imputed alike in the full data: unchanged
            {"id": "new", "how": "imputed", "value": 90.0},     # not a component in the full data: changed
        ]},
        {"model": "b", "components": [{"id": "m1", "how": "imputed", "value": 100.0}]},  # imputed, 99 before
        {"model": "c", "components": [{"id": "m1", "how": "imputed", "value": 1.0}]},    # not picked
    ]
    full = {
        "a": {"m1": ("observed", 130.0), "m2": ("observed", 110.0), "math": ("imputed", 115.0)},
        "b": {"m1": ("imputed", 99.0)},
        "c": {"m1": ("observed", 2.0)},
    }
    assert heldout.changed_imputations(reduced, ["a", "b"], full) == {("a", "m1"), ("a", "new"), ("b", "m1")}
    assert heldout.changed_imputations(reduced, [], full) == frozenset()


def test_interval_case_holds_the_full_composite_to_a_tolerance():
    draws = np.arange(11, dtype=float)  # 0..10: at 80% the tails are at positions 1 and 9 of 0..10
    case = heldout.interval_case(draws, 9.0, 0.8)
    assert case["interval"] == [1.0, 9.0] and case["covered"] is True
    assert case["sd"] == pytest.approx(math.sqrt(10))  # population variance of 0..10: (11**2 - 1) / 12
    assert heldout.interval_case(draws, 9.0 + 1e-10, 0.8)["covered"] is True   # within 1e-9
    assert heldout.interval_case(draws, 9.1, 0.8)["covered"] is False
    assert heldout.interval_case(draws, 0.5, 0.8)["covered"] is False


def test_cases_skip_picked_models_without_a_composite_or_draws():
    total = {"a": np.arange(11, dtype=float), "b": np.arange(11, dtype=float)}
    hidden = {"a": np.full(11, 4.0), "b": np.full(11, 4.0)}
    board = {"a": 5.0, "b": None}  # b lost its composite; c has no draws
    out = heldout.cases("x+y", ["a", "b", "c"], {"a": 4.0, "b": 3.0, "c": 2.0}, board,
                        {"total": total, "hidden": hidden}, 0.8)
    assert out == [{
        "set": "x+y", "model": "a", "full": 4.0, "value": 5.0,
        "total": {"interval": [1.0, 9.0], "sd": pytest.approx(math.sqrt(10)), "covered": True},
        "hidden": {"interval": [4.0, 4.0], "sd": 0.0, "covered": True},
    }]
    assert list(out[0]) == ["set", "model", "full", "value", "total", "hidden"]


def test_a_set_with_fewer_than_two_scored_models_hides_nothing():
    # One model with a composite (see test_aiiq's end-to-end test): half of one model, rounded down, is none, and
    # nobody has critpt, so no set of the default ones (each benchmark alone) has a case.
    frame = scores(source="aa-api-2026-07", **{"o__m": {"hle": 20, "gpqa-diamond": 65, "aime-2025": 80}})
    frame.loc[frame["benchmark"] == "hle", "subset"] = "aa-2684"
    assert heldout.hidden_half(["o/m"], "gpqa-diamond") == []
    assert heldout.run(definition("ai-iq"), frame, models(), {}) == []
    assert heldout.run(definition("ai-iq"), frame, models(), {}, sets=[("gpqa-diamond",), ("critpt",)]) == []


def test_default_sets_are_each_benchmark_alone_then_those_named_together_that_the_definition_has():
    two = {"dimensions": [{"benchmarks": [{"benchmark": "b1"}, {"benchmark": "b2"}]},
                          {"benchmarks": [{"benchmark": "b3"}]}]}
    assert heldout.default_sets(two) == [("b1",), ("b2",), ("b3",)]
    # the named set in its own order, without the benchmarks the definition lacks
    assert heldout.default_sets(two, ("b3", "zz", "b1")) == [("b1",), ("b2",), ("b3",), ("b3", "b1")]
    # one benchmark of it in the definition is no joint set: it is hidden alone already
    assert heldout.default_sets(two, ("b2", "zz")) == [("b1",), ("b2",), ("b3",)]
