"""Humanity's Last Exam (seed 003): accuracy with a Wald interval, RMS calibration error, per-category accuracy.

Every number follows the official evaluation code (`hle_eval/run_judge_results.py`, which takes its
calibration function from Hendrycks et al.'s `calibration_tools.py`), so that values recomputed from
per-question results under `scores/raw/hle/` agree with the figures the paper publishes. Where no
per-question results exist, the published figures are used and marked `published`.

Pure functions: frames and dicts in, dicts out. All constants come from `methodology/indices/hle.yaml`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..known import known
from .parts import written_kind

# The provenance vocabulary of ARCHITECTURE.md.
OBSERVED, PUBLISHED, IMPUTED, DERIVED, EXCLUDED, MISSING = (
    "observed",
    "published",
    "imputed",
    "derived",
    "excluded",
    "missing",
)


# --------------------------------------------------------------------------------------------------
# Shared small helpers (also used by pedagogy.py; candidates for indices/parts.py)
# --------------------------------------------------------------------------------------------------


def competition_ranks(values: Sequence[float | None], higher_is_better: bool, decimals: int) -> list[int | None]:
    """Rank values "1224"-style (competition ranking): equal values, compared at `decimals`, share a rank."""
    keyed = [None if v is None else round(float(v), decimals) for v in values]
    present = [v for v in keyed if v is not None]
    ranks: list[int | None] = []
    for v in keyed:
        if v is None:
            ranks.append(None)
        else:
            better = sum(1 for w in present if (w > v if higher_is_better else w < v))
            ranks.append(better + 1)
    return ranks


def rank_rows(rows: list[dict], higher_is_better: bool, decimals: int) -> list[dict]:
    """Set each row's `rank` (None for rows without a value) and sort by rank, then model id."""
    ranks = competition_ranks([r["value"] for r in rows], higher_is_better, decimals)
    for row, rank in zip(rows, ranks):
        row["rank"] = rank
    return sorted(rows, key=lambda r: (r["rank"] is None, r["rank"] or 0, r["model"]))


_CANDIDATES: dict[tuple, tuple[pd.DataFrame, dict]] = {}


def _candidates(results: pd.DataFrame, benchmark: str) -> dict:
    """One benchmark's result records grouped by (model, benchmark, metric), built once per frame and benchmark
    (boolean masks per model call dominated the build; records of the whole frame, every as-of month, did next)."""
    hit = _CANDIDATES.get((id(results), benchmark))
    if hit is not None and hit[0] is results:
        return hit[1]
    grouped: dict[tuple, list[dict]] = {}
    for rec in results[results["benchmark"] == benchmark].to_dict("records"):
        grouped.setdefault((rec["model"], rec["benchmark"], rec["metric"]), []).append(rec)
    if len(_CANDIDATES) > 8:
        _CANDIDATES.clear()
    _CANDIDATES[(id(results), benchmark)] = (results, grouped)  # the frame is kept: its id cannot be reused
    return grouped


def pick_result(
    results: pd.DataFrame,
    model: str,
    benchmark: str,
    metric: str,
    subsets: Sequence[str],
    sources: Sequence[str] | None,
) -> dict | None:
    """The one published result to use: first subset in preference order, then source order, then newest."""
    subset_order = {s: i for i, s in enumerate(subsets)}
    source_order = {s: i for i, s in enumerate(sources or [])}
    candidates = [
        rec
        for rec in _candidates(results, benchmark).get((model, benchmark, metric), [])
        if rec["subset"] in subset_order
        and (not sources or rec["source"] in source_order)
        and rec["value"] == rec["value"]
    ]
    if not candidates:
        return None
    # Preferred subset, then preferred source, then the newest retrieval, then the file it came from.
    candidates.sort(key=lambda r: r["origin"])
    candidates.sort(key=lambda r: r["retrieved"], reverse=True)
    candidates.sort(key=lambda r: (subset_order[r["subset"]], source_order.get(r["source"], len(source_order))))
    return candidates[0]


# --------------------------------------------------------------------------------------------------
# Accuracy and its interval
# --------------------------------------------------------------------------------------------------


def wald_interval(correct: int, n: int, z: float) -> tuple[float, float, float, float]:
    """Accuracy and the Wald interval p ± z·sqrt(p(1−p)/n) in percent: (value, lo, hi, half_width).

    The interval is clamped to 0–100; upstream prints the unclamped half-width, kept as the fourth item.
    """
    p = correct / n
    half = z * math.sqrt(p * (1.0 - p) / n)
    return 100.0 * p, 100.0 * max(0.0, p - half), 100.0 * min(1.0, p + half), 100.0 * half


def accuracy_from_rows(rows: pd.DataFrame, z: float, questions: int | None = None) -> dict:
    """Accuracy, Wald interval and coverage from per-question rows (`correct` column).

    Like upstream, the denominator is the number of questions in the set when known (unanswered
    questions count as wrong), else the number of answered rows.
    """
    answered = rows[rows["correct"].notna()]
    k = int(answered["correct"].astype(bool).sum())
    have = len(answered)
    n = max(questions or 0, have)
    if n == 0:
        return {"value": None, "interval": None, "coverage": {"have": 0, "of": questions or 0}}
    value, lo, hi, half = wald_interval(k, n, z)
    return {"value": value, "interval": [lo, hi], "half_width": half, "coverage": {"have": have, "of": n}}


def category_accuracy(rows: pd.DataFrame, z: float) -> list[dict]:
    """Per-category accuracy components from rows with a `subject` column, sorted by subject."""
    if "subject" not in rows.columns:
        return []
    answered = rows[rows["correct"].notna() & rows["subject"].notna() & (rows["subject"] != "")]
    out = []
    for subject, group in sorted(answered.groupby("subject", sort=False), key=lambda g: str(g[0])):
        k, n = int(group["correct"].astype(bool).sum()), len(group)
        value, lo, hi, _ = wald_interval(k, n, z)
        out.append({"id": str(subject), "value": value, "interval": [lo, hi], "n": n, "how": OBSERVED})
    return out


# --------------------------------------------------------------------------------------------------
# RMS calibration error, as the official HLE code computes it
# --------------------------------------------------------------------------------------------------


def calib_err(confidence: np.ndarray, correct: np.ndarray, p: str = "2", beta: int = 100) -> float:
    """Hendrycks' calib_err, reproduced line for line (confidence as a fraction 0–1).

    Quirks kept on purpose because the published numbers come from them:
    - `np.argsort` with numpy's default kind (quicksort/introsort, not stable), so tied confidences
      fall into bins in whatever order numpy leaves them;
    - bins of `beta` rows, the last one extended to the end of the array;
    - `for i in range(len(bins) - 1)` never visits the last bin, yet the weights divide by all rows;
    - under `beta` rows it raises IndexError, under 2·beta it returns 0 (callers guard against both).
    """
    idxs = np.argsort(confidence)
    confidence = confidence[idxs]
    correct = correct[idxs]
    bins = [[i * beta, (i + 1) * beta] for i in range(len(confidence) // beta)]
    bins[-1] = [bins[-1][0], len(confidence)]

    cerr = 0.0
    total_examples = len(confidence)
    for i in range(len(bins) - 1):
        bin_confidence = confidence[bins[i][0] : bins[i][1]]
        bin_correct = correct[bins[i][0] : bins[i][1]]
        num_examples_in_bin = len(bin_confidence)
        if num_examples_in_bin > 0:
            difference = np.abs(np.nanmean(bin_confidence) - np.nanmean(bin_correct))
            if p == "2":
                cerr += num_examples_in_bin / total_examples * np.square(difference)
            elif p == "1":
                cerr += num_examples_in_bin / total_examples * difference
            elif p in ("infty", "infinity", "max"):
                cerr = np.maximum(cerr, difference)
            else:
                raise ValueError("p must be '1', '2', or 'infty'")
    if p == "2":
        cerr = np.sqrt(cerr)
    return float(cerr)


def calibration_error(rows: pd.DataFrame, calibration: Mapping[str, Any]) -> tuple[float | None, str | None]:
    """RMS calibration error in percent as upstream reports it (100 × round(err, 2)), or (None, reason).

    A missing confidence counts as `missing_confidence` (100, as the upstream judge is told to put 100
    when the response states none). Fewer than `min_answered` rows give no value: upstream would crash
    (< 1 bin) or report 0 (a single, skipped bin), neither of which is a measurement.
    """
    answered = rows[rows["correct"].notna()]
    minimum = int(calibration["min_answered"])
    if len(answered) < minimum:
        return None, (
            f"{len(answered)} answered questions; the binned calibration error needs at "
            f"least {minimum} (bins of {calibration['bin_size']}, the last bin is skipped)"
        )
    if "confidence" in answered.columns:
        conf = pd.to_numeric(answered["confidence"], errors="coerce")
        conf = conf.fillna(float(calibration["missing_confidence"]))
    else:
        conf = pd.Series(float(calibration["missing_confidence"]), index=answered.index)
    confidence = conf.to_numpy(dtype=float) / 100.0
    correct = answered["correct"].astype(bool).to_numpy()
    err = calib_err(confidence, correct, p=str(calibration["norm"]), beta=int(calibration["bin_size"]))
    # `100 * round(err, 2)` is upstream's expression; the outer round only strips float noise (28.999…).
    return round(100 * round(err, 2), 6), None


# --------------------------------------------------------------------------------------------------
# Boards
# --------------------------------------------------------------------------------------------------


def _published_interval(res: Mapping, z: float, questions: int | None) -> tuple[list | None, str, str | None]:
    """Interval for a published value: its own CI, else ±z·stderr, else Wald from n; with how and reason."""
    if known(res.get("ci_low")) is not None and known(res.get("ci_high")) is not None:
        return [float(res["ci_low"]), float(res["ci_high"])], PUBLISHED, None
    if known(res.get("stderr")) is not None:
        half = z * float(res["stderr"])
        return [float(res["value"]) - half, float(res["value"]) + half], PUBLISHED, None
    n = int(res["n"]) if known(res.get("n")) is not None else questions
    if n:
        p = float(res["value"]) / 100.0
        half = z * math.sqrt(max(p * (1 - p), 0.0) / n)
        return (
            [100 * max(0.0, p - half), 100 * min(1.0, p + half)],
            DERIVED,
            f"Wald interval from the published accuracy and n = {n}",
        )
    return None, MISSING, "the source publishes neither a standard error nor the number of questions"


def _subset_info(definition: Mapping[str, Any]) -> tuple[list[str], dict[str, int | None], dict[str, str]]:
    """Subset ids in preference order, their question counts and labels."""
    subsets = definition["subsets"]
    return (
        [s["id"] for s in subsets],
        {s["id"]: s.get("questions") for s in subsets},
        {s["id"]: s.get("label", s["id"]) for s in subsets},
    )


def _board_header(definition: Mapping[str, Any], board: Mapping[str, Any]) -> dict:
    """The fixed keys of a board dict."""
    out = {
        "index": board["id"],
        "name": board["name"],
        "version": str(definition["version"]),
        "kind": definition["kind"],
        "unit": board["unit"],
        "description": board["description"],
        "higher_is_better": bool(board["higher_is_better"]),
        **written_kind(definition),
    }
    if definition.get("scope"):
        out["scope"] = {"text": " ".join(definition["scope"].split()), "benchmark": definition["benchmark"]}
    return out


def hle_rows(
    results: pd.DataFrame, raw_by_model: Mapping[str, pd.DataFrame], definition: Mapping[str, Any]
) -> tuple[list[dict], list[dict]]:
    """Unranked rows of the accuracy board and the calibration board, one per model with any HLE data."""
    benchmark = definition["benchmark"]
    sources = definition.get("sources") or None
    subsets, questions, labels = _subset_info(definition)
    raw_subset = definition.get("raw_subset", "")
    z = float(definition["accuracy"]["z"])
    calibration = definition["calibration"]
    acc_board, cal_board = definition["boards"]["accuracy"], definition["boards"]["calibration"]

    has_results = results[
        (results["benchmark"] == benchmark)
        & results["subset"].isin(subsets)
        & results["metric"].isin([acc_board["metric"], cal_board["metric"]])
    ]
    if sources:
        has_results = has_results[has_results["source"].isin(sources)]
    models = sorted(set(has_results["model"]) | {m for m, df in raw_by_model.items() if len(df)})

    acc_rows, cal_rows = [], []
    for model in models:
        raw = raw_by_model.get(model)
        if raw is not None and len(raw):
            acc = accuracy_from_rows(raw, z, questions.get(raw_subset))
            acc_rows.append(
                {
                    "model": model,
                    "value": acc["value"],
                    "status": OBSERVED if acc["value"] is not None else MISSING,
                    **({} if acc["value"] is not None else {"reason": "no answered questions"}),
                    "subset": raw_subset,
                    "coverage": acc["coverage"],
                    "interval": acc["interval"],
                    "interval_how": OBSERVED,
                    "half_width": acc.get("half_width"),
                    "components": category_accuracy(raw, z),
                }
            )
            value, reason = calibration_error(raw, calibration)
            cal = {
                "model": model,
                "value": value,
                "status": OBSERVED if value is not None else MISSING,
                "subset": raw_subset,
                "coverage": acc["coverage"],
                "interval": None,
                "components": [],
            }
            if reason:
                cal["reason"] = reason
            cal_rows.append(cal)
            continue

        res = pick_result(results, model, benchmark, acc_board["metric"], subsets, sources)
        if res is None:
            acc_rows.append(
                {
                    "model": model,
                    "value": None,
                    "status": MISSING,
                    "subset": None,
                    "reason": "no per-question results and no published accuracy",
                    "coverage": {"have": 0, "of": 1},
                    "interval": None,
                    "components": [],
                }
            )
        else:
            interval, how, reason = _published_interval(res, z, questions.get(res["subset"]))
            row = {
                "model": model,
                "value": float(res["value"]),
                "status": PUBLISHED,
                "subset": res["subset"],
                "source": res["source"],
                "coverage": {"have": 1, "of": 1},
                "interval": interval,
                "interval_how": how,
                "components": [],
            }
            if reason:
                row["interval_reason"] = reason
            if res["subset"] != subsets[0]:
                row["note"] = f"evaluated on the {labels[res['subset']]} only"
            acc_rows.append(row)

        cres = pick_result(results, model, benchmark, cal_board["metric"], subsets, sources)
        if cres is None:
            cal_rows.append(
                {
                    "model": model,
                    "value": None,
                    "status": MISSING,
                    "subset": None,
                    "reason": "no per-question confidences and no published calibration error",
                    "coverage": {"have": 0, "of": 1},
                    "interval": None,
                    "components": [],
                }
            )
        else:
            row = {
                "model": model,
                "value": float(cres["value"]),
                "status": PUBLISHED,
                "subset": cres["subset"],
                "source": cres["source"],
                "coverage": {"have": 1, "of": 1},
                "interval": None,
                "components": [],
            }
            if cres["subset"] != subsets[0]:
                row["note"] = f"evaluated on the {labels[cres['subset']]} only"
            cal_rows.append(row)
    return acc_rows, cal_rows


def compute_hle(
    results: pd.DataFrame, models: pd.DataFrame, raw_by_model: Mapping[str, pd.DataFrame], definition: Mapping[str, Any]
) -> dict:
    """Both HLE boards, keyed by index id: {"hle": board, "hle-calibration": board}.

    `raw_by_model` maps model id -> the rows of `scores/raw/hle/<org>/<model>.jsonl`
    (columns id, correct, and optionally confidence, subject). `models` is accepted for a uniform
    signature; HLE needs nothing from it.
    """
    del models  # uniform signature across indices; unused here
    # Every lookup below is per model; narrowing the frame once keeps them off the whole repository's results.
    results = results[results["benchmark"] == definition["benchmark"]]
    acc_rows, cal_rows = hle_rows(results, raw_by_model, definition)
    boards = {}
    for key, rows in (("accuracy", acc_rows), ("calibration", cal_rows)):
        board = definition["boards"][key]
        out = _board_header(definition, board)
        out["rows"] = rank_rows(rows, bool(board["higher_is_better"]), int(board["rank_decimals"]))
        boards[board["id"]] = out
    return boards
