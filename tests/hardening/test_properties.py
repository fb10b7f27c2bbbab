"""Properties of the AI IQ engine on small generated frames, with the real methodology/indices/ai-iq.yaml.

Each property is stated on the exported board (what the site and the API publish), and every bound is
recomputed here from the anchors and the raw scores rather than read back from the engine's own helpers.
"""

from __future__ import annotations

import math
import random

import pandas as pd
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardkit import ROOT
from sitegen.export import to_json
from sitegen.indices import aiiq
from sitegen.indices.boards import compute_benchmark_boards
from sitegen.indices.parts import interpolate

DEF = yaml.safe_load((ROOT / "methodology/indices/ai-iq.yaml").read_text(encoding="utf-8"))
BOARDS_DEF = yaml.safe_load((ROOT / "methodology/indices/benchmark-boards.yaml").read_text(encoding="utf-8"))
BENCHMARKS = yaml.safe_load((ROOT / "methodology/benchmarks.yaml").read_text(encoding="utf-8"))["benchmarks"]
ANCHORS = {b["benchmark"]: b["anchors"] for d in DEF["dimensions"] for b in d["benchmarks"]}
DIM_OF = {b["benchmark"]: d["id"] for d in DEF["dimensions"] for b in d["benchmarks"]}
# The question set each benchmark is selected on (HLE: Artificial Analysis' own set).
SUBSET_OF = {b["benchmark"]: (b.get("selection") or {}).get("subset", "") for d in DEF["dimensions"] for b in d["benchmarks"]}
BENCHES = sorted(ANCHORS)
TOP = {b: float(ANCHORS[b][-1][0]) for b in BENCHES}  # the table's last raw value: 100, or 20 for CritPt
RESULT_COLUMNS = ["model", "benchmark", "metric", "subset", "harness", "value", "source", "retrieved", "url",
                  "n", "stderr", "ci_low", "ci_high", "self_reported", "origin"]
MODEL_COLUMNS = ["model", "name", "organization", "released", "weights", "reasoning", "total_b", "active_b",
                 "input_per_mtok", "output_per_mtok", "pricing_as_of", "pricing_source", "manual_iq",
                 "manual_iq_source", "family", "context_window", "licence"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def results_frame(rows: list[dict]) -> pd.DataFrame:
    base = {"metric": "", "subset": "", "harness": "", "source": "paper", "retrieved": "2025-06-01", "url": "",
            "n": math.nan, "stderr": math.nan, "ci_low": math.nan, "ci_high": math.nan, "self_reported": False,
            "origin": "scores/models/x.yaml"}
    return pd.DataFrame([{**base, **r} for r in rows], columns=RESULT_COLUMNS)


def models_frame(ids) -> pd.DataFrame:
    return pd.DataFrame([{c: {"model": m, "name": m}.get(c) for c in MODEL_COLUMNS} for m in sorted(ids)],
                        columns=MODEL_COLUMNS)


def board(scores: dict[str, dict[str, float]]) -> dict:
    """The AI IQ board for {model: {benchmark: raw}} (one result per model and benchmark)."""
    rows = [{"model": m, "benchmark": b, "value": v, "subset": SUBSET_OF[b]}
            for m, bs in sorted(scores.items()) for b, v in sorted(bs.items())]
    return aiiq.compute(DEF, results_frame(rows), models_frame(scores))


def raw(bench: str):
    return st.floats(min_value=0, max_value=TOP[bench], allow_nan=False, allow_infinity=False)


@st.composite
def frames(draw, min_models: int = 1, max_models: int = 6) -> dict[str, dict[str, float]]:
    """{model: {benchmark: raw score}}: 1-6 models, each with a random non-empty subset of the AI IQ benchmarks."""
    n = draw(st.integers(min_models, max_models))
    out = {}
    for i in range(n):
        benches = draw(st.lists(st.sampled_from(BENCHES), min_size=1, max_size=len(BENCHES), unique=True))
        out[f"org/m{i}"] = {b: draw(raw(b)) for b in sorted(benches)}
    return out


def row_of(b: dict, model: str) -> dict:
    return next(r for r in b["rows"] if r["model"] == model)


def comp(r: dict, cid: str) -> dict:
    return next(c for c in r["components"] if c["id"] == cid)


def iq_of(anchors, x: float) -> float:
    """x through the anchor table [(raw, iq), ...] by straight lines between neighbouring anchors, held at the
    first and last IQ outside the table: written here, apart from the engine's indices.common.interpolate."""
    points = [(float(a), float(b)) for a, b in anchors]
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def test_iq_of_by_hand():
    table = [[0, 70], [50, 100], [100, 130]]
    assert [iq_of(table, x) for x in (-5, 0, 25, 50, 75, 100, 200)] == [70, 70, 85, 100, 115, 130, 130]


def p80(values) -> float:
    """Nearest-rank 80th percentile, by integer arithmetic: position ceil(0.8 n) = (4n + 4) // 5."""
    ordered = sorted(values)
    return ordered[(4 * len(ordered) + 4) // 5 - 1]


# -- monotonicity -------------------------------------------------------------------------------------------------


@st.composite
def raised(draw):
    """A frame, one (model, benchmark) it holds, and a strictly higher raw score for it."""
    scores = draw(frames())
    model = draw(st.sampled_from(sorted(scores)))
    bench = draw(st.sampled_from(sorted(scores[model])))
    old = scores[model][bench]
    new = draw(st.floats(min_value=old, max_value=TOP[bench] + 10, allow_nan=False).filter(lambda v: v > old))
    return scores, model, bench, new


@SETTINGS
@given(raised())
def test_higher_raw_score_never_lowers_own_benchmark_iq_dimension_or_composite(case):
    scores, model, bench, new = case
    before = board(scores)
    after = board({**scores, model: {**scores[model], bench: new}})
    r0, r1 = row_of(before, model), row_of(after, model)
    assert comp(r1, bench)["value"] >= comp(r0, bench)["value"]
    assert comp(r1, DIM_OF[bench])["value"] >= comp(r0, DIM_OF[bench])["value"]
    assert (r0["value"] is None) == (r1["value"] is None)
    if r0["value"] is not None:
        assert r1["value"] >= r0["value"], (r0["value"], r1["value"])


@SETTINGS
@given(raised())
def test_p80_feedback_never_lowers_another_models_composite(case):
    # Raising one model's score can raise a benchmark's P80 and so another model's imputed values; it only
    # ever raises them (min(own, P80) with a higher P80), so no other composite goes down.
    scores, model, bench, new = case
    before = board(scores)
    after = board({**scores, model: {**scores[model], bench: new}})
    for other in scores:
        v0, v1 = row_of(before, other)["value"], row_of(after, other)["value"]
        if v0 is not None:
            assert v1 >= v0, (other, v0, v1)


# -- interpolation ------------------------------------------------------------------------------------------------


@SETTINGS
@given(st.sampled_from(BENCHES), st.floats(allow_nan=False), st.floats(allow_nan=False))
def test_interpolation_stays_within_the_anchor_iqs_and_is_monotone(bench, x, y):
    iqs = [float(a[1]) for a in ANCHORS[bench]]
    lo, hi = min(iqs), max(iqs)
    fx, fy = interpolate(ANCHORS[bench], x), interpolate(ANCHORS[bench], y)
    assert math.isclose(fx, iq_of(ANCHORS[bench], x), rel_tol=1e-12, abs_tol=1e-9)
    assert lo <= fx <= hi and lo <= fy <= hi
    if x <= y:
        assert fx <= fy


@SETTINGS
@given(frames(), st.data())
def test_observed_benchmark_iqs_on_the_board_stay_within_the_anchor_iqs(scores, data):
    # Scores outside the table (negative, above the top anchor) are clamped, never extrapolated.
    wide = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
    out = board({m: {b: data.draw(wide) for b in bs} for m, bs in scores.items()})
    for r in out["rows"]:
        for b in BENCHES:
            c = comp(r, b)
            if c["how"] == "observed":
                iqs = [a[1] for a in ANCHORS[b]]
                assert min(iqs) <= c["value"] <= max(iqs), (r["model"], b, c)


# -- imputation ---------------------------------------------------------------------------------------------------


@SETTINGS
@given(frames(min_models=2))
def test_imputed_values_never_exceed_their_p80_nor_the_models_own_mean(scores):
    out = board(scores)
    real = {b: {m: iq_of(ANCHORS[b], s[b]) for m, s in scores.items() if b in s} for b in BENCHES}
    for r in out["rows"]:
        model = r["model"]
        for d in DEF["dimensions"]:
            own = [real[b["benchmark"]][model] for b in d["benchmarks"] if model in real[b["benchmark"]]]
            for b in d["benchmarks"]:
                c = comp(r, b["benchmark"])
                if c["how"] != "imputed":
                    continue
                bound_p80, bound_own = p80(real[b["benchmark"]].values()), sum(own) / len(own)
                assert c["value"] <= bound_p80 + 1e-4, (model, c, bound_p80)
                assert c["value"] <= bound_own + 1e-4, (model, c, bound_own)
                assert math.isclose(c["value"], min(bound_p80, bound_own), abs_tol=1e-4), (model, c)
    # Dimension level: read each scored dimension's IQ from the board (4 decimals) and bound the imputed ones.
    dim_values = {d["id"]: [comp(r, d["id"])["value"] for r in out["rows"] if comp(r, d["id"])["how"] == "observed"]
                  for d in DEF["dimensions"]}
    for r in out["rows"]:
        scored = [comp(r, d["id"])["value"] for d in DEF["dimensions"] if comp(r, d["id"])["how"] == "observed"]
        for d in DEF["dimensions"]:
            c = comp(r, d["id"])
            if c["how"] != "imputed":
                continue
            assert d["imputable"], (r["model"], c)
            assert c["value"] <= p80(dim_values[d["id"]]) + 1e-3, (r["model"], c)
            assert c["value"] <= sum(scored) / len(scored) + 1e-3, (r["model"], c)


# -- order independence -------------------------------------------------------------------------------------------


@st.composite
def rows_with_duplicates(draw) -> list[dict]:
    """Result rows where a (model, benchmark) may have several candidates differing in source, harness, date."""
    scores = draw(frames())
    rows = []
    for m, bs in scores.items():
        for b, v in bs.items():
            for _ in range(draw(st.integers(1, 3))):
                rows.append({"model": m, "benchmark": b, "value": draw(st.sampled_from([v, draw(raw(b))])),
                             "source": draw(st.sampled_from(["paper", "epoch", "arc-prize", "aa-api-2025-10"])),
                             "harness": draw(st.sampled_from(["", "terminus-2", "Agent X"])),
                             "retrieved": draw(st.sampled_from(["2025-06-01", "2025-09-30"])),
                             "self_reported": draw(st.booleans())})
    return rows


@SETTINGS
@given(rows_with_duplicates(), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_the_order_of_models_or_rows(rows, rnd: random.Random):
    ids = sorted({r["model"] for r in rows})
    shuffled_rows, shuffled_ids = rows[:], ids[:]
    rnd.shuffle(shuffled_rows)
    rnd.shuffle(shuffled_ids)
    models_a = models_frame(ids)
    models_b = models_a.set_index("model").loc[shuffled_ids].reset_index()[MODEL_COLUMNS]
    a = aiiq.compute(DEF, results_frame(rows), models_a)
    b = aiiq.compute(DEF, results_frame(shuffled_rows), models_b)
    assert to_json(a) == to_json(b)
    defs = {"benchmark-boards": BOARDS_DEF}
    ba = compute_benchmark_boards(results_frame(rows), models_a, BENCHMARKS, defs)
    bb = compute_benchmark_boards(results_frame(shuffled_rows), models_b, BENCHMARKS, defs)
    assert {k: to_json(v) for k, v in ba.items()} == {k: to_json(v) for k, v in bb.items()}
