"""The Pedagogy Benchmark (seed 004): CDPK and SEND accuracy, bootstrap CIs, value and size frontiers.

- Accuracy with a 95% bootstrap interval: 1,000 resamples of the questions with replacement; without
  per-question data, the exact quantiles of what that resampling converges to, Binomial(n, k/n) / n
  (n = 899 / 220), so equal scores get equal intervals and no Monte-Carlo noise is published.
- Models with more than 5% badly formatted answers, where known, are excluded from the board.
- Value frontier: the rising part of the convex upper hull of accuracy against log10 input price;
  the same over time (month ends, from release dates); size frontier over models with a published
  parameter count on log10 total parameters.
- Per-subject sub-scores and each model's best and worst subject where subject data exists.

Pure functions: frames and dicts in, dicts out. All constants come from `methodology/indices/pedagogy.yaml`.
"""

from __future__ import annotations

import functools
import hashlib
import math
import pickle
import re
import zlib
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ..known import known
from . import simcache
from .hle import DERIVED, EXCLUDED, MISSING, OBSERVED, PUBLISHED, pick_result, rank_rows
from .parts import model_lookup

# Geometric tolerance: accuracies are in percent and x is a log10, so 1e-9 is far below any real difference
# while absorbing float noise (log10(0.1) + 1 is not always exactly 0).
TOL = 1e-9


# --------------------------------------------------------------------------------------------------
# Bootstrap intervals
# --------------------------------------------------------------------------------------------------


def rng_for(seed: int, *keys: str) -> np.random.Generator:
    """A generator for one (board, model): the YAML seed plus CRC-32s of the keys.

    One stream per model, so adding or removing a model never shifts another model's interval.
    CRC-32 rather than hash(): Python's str hash is salted per process.
    """
    return np.random.default_rng([int(seed), *(zlib.crc32(k.encode("utf-8")) for k in keys)])


def _percentile_interval(stats: np.ndarray, level: float) -> list[float]:
    """The central `level` percentile interval of bootstrap statistics (numpy's linear percentile)."""
    tail = 100.0 * (1.0 - level) / 2.0
    lo, hi = np.percentile(stats, [tail, 100.0 - tail])
    return [float(lo), float(hi)]


def bootstrap_interval(correct: np.ndarray, resamples: int, rng: np.random.Generator, level: float) -> list[float]:
    """Percentile bootstrap interval of accuracy (percent): resample the questions with replacement."""
    correct = np.asarray(correct, dtype=float)
    idx = rng.integers(0, len(correct), size=(int(resamples), len(correct)))
    return _percentile_interval(100.0 * correct[idx].mean(axis=1), level)


def correct_count(accuracy: float, n: int) -> int:
    """k of a published accuracy k/n in percent (published to two decimals, so k is the nearest whole number)."""
    return min(max(round(float(accuracy) * int(n) / 100.0), 0), int(n))


def binomial_interval(k: int, n: int, level: float) -> list[float]:
    """The central `level` interval of the resampled accuracy without per-question data, exactly.

    Resampling n answers of which k are right is a draw X ~ Binomial(n, k/n); the interval is the lower and
    upper (1 - level)/2 quantiles of 100 X / n, each the smallest x with P(X <= x) >= q. The CDF is summed in
    exact integers (n^n P(X <= x) = sum of C(n, j) k^j (n - k)^(n - j)), so it depends on (n, k) alone.
    """
    return list(_binomial_interval(int(k), int(n), Fraction(str(level))))


@functools.cache
def _binomial_interval(k: int, n: int, level: Fraction) -> tuple[float, ...]:
    total, miss = n**n, n - k
    tail = (1 - level) / 2
    targets = [tail, 1 - tail]  # compared as cumulative * den >= num * total, in integers
    out: list[float] = []
    cumulative, term = 0, miss**n  # term = n^n P(X = x) = C(n, x) k^x (n - k)^(n - x), from x = 0
    for x in range(n + 1):
        cumulative += term
        while targets and cumulative * targets[0].denominator >= targets[0].numerator * total:
            out.append(100.0 * x / n)
            targets.pop(0)
        if not targets:
            break
        # The next term from this one, dividing exactly: C(n, x + 1) (x + 1) = C(n, x) (n - x). A product of
        # powers per term cost ten times more. With k = n every answer is right (the whole mass is at x = n).
        term = term * (n - x) * k // ((x + 1) * miss) if miss else (total if x + 1 == n else 0)
    return tuple(out)


# --------------------------------------------------------------------------------------------------
# Per-question data
# --------------------------------------------------------------------------------------------------


def answered(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows with a known outcome."""
    return rows[rows["correct"].notna()]


def bad_format_share(rows: pd.DataFrame) -> float | None:
    """Share (0–1) of answers flagged `bad_format`, or None when the rows do not say."""
    if "bad_format" not in rows.columns or rows["bad_format"].isna().all():
        return None
    return float(rows["bad_format"].fillna(False).astype(bool).mean())


def subject_scores(rows: pd.DataFrame) -> list[dict]:
    """Accuracy per subject as components, sorted by subject; [] without subject data."""
    if "subject" not in rows.columns:
        return []
    done = answered(rows)
    done = done[done["subject"].notna() & (done["subject"].astype(str) != "")]
    out = []
    for subject, group in sorted(done.groupby("subject", sort=False), key=lambda g: str(g[0])):
        out.append(
            {
                "id": str(subject),
                "value": 100.0 * float(group["correct"].astype(bool).mean()),
                "n": len(group),
                "how": OBSERVED,
            }
        )
    return out


def best_and_worst(components: list[dict]) -> tuple[dict | None, dict | None]:
    """The best and the worst subject ({"subject", "value"}); ties go to the first subject by name."""
    if not components:
        return None, None
    best = min(components, key=lambda c: (-c["value"], c["id"]))
    worst = min(components, key=lambda c: (c["value"], c["id"]))
    return ({"subject": best["id"], "value": best["value"]}, {"subject": worst["id"], "value": worst["value"]})


# --------------------------------------------------------------------------------------------------
# Frontiers
# --------------------------------------------------------------------------------------------------


def _cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """z of (a − o) × (b − o): > 0 when o→a→b turns left."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def rising_hull(points: Iterable[tuple[str, float, float]], include_collinear: bool = True) -> dict:
    """The rising part of the convex upper hull of (model, x, y) points.

    Returns {"frontier": [model ids in x order], "hull": [[x, y] vertices]}. The hull runs from the
    cheapest point (the best one at the lowest x) to the first point of highest y; beyond that it
    falls and nobody there is worth the price. Rules:
    - several models at one x: only the best can be on the hull;
    - identical (x, y): all of them are on the frontier (nothing tells them apart), listed by id;
    - a point exactly on a hull edge (collinear) is on the frontier when `include_collinear`
      (it is not dominated by any mix of two frontier models), but is never a hull vertex;
    - several models at the top accuracy: the cheapest one ends the frontier.
    """
    pts = [(m, float(x), float(y)) for m, x, y in points]
    if not pts:
        return {"frontier": [], "hull": []}
    best: dict[float, float] = {}
    for _, x, y in pts:
        best[x] = max(best.get(x, -math.inf), y)
    hull: list[tuple[float, float]] = []
    for x in sorted(best):
        p = (x, best[x])
        while len(hull) >= 2 and _cross(hull[-2], hull[-1], p) >= -TOL:
            hull.pop()
        hull.append(p)
    top = max(range(len(hull)), key=lambda i: (hull[i][1], -i))
    hull = hull[: top + 1]

    def on_frontier(x: float, y: float) -> bool:
        if include_collinear:
            if x < hull[0][0] - TOL or x > hull[-1][0] + TOL:
                return False
            return y >= float(np.interp(x, [h[0] for h in hull], [h[1] for h in hull])) - TOL
        return any(abs(x - hx) <= TOL and abs(y - hy) <= TOL for hx, hy in hull)

    members = sorted((x, y, m) for m, x, y in pts if on_frontier(x, y))
    return {"frontier": [m for _, _, m in members], "hull": [[x, y] for x, y in hull]}


def release_month(value: Any) -> str | None:
    """ "YYYY-MM" from a release date given as YYYY-MM, YYYY-MM-DD or a date; None when unknown or unreadable."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, (date, pd.Timestamp)):
        return f"{value.year:04d}-{value.month:02d}"
    match = re.fullmatch(r"(\d{4})-(\d{2})(?:-\d{2})?", str(value).strip())
    if not match or not 1 <= int(match.group(2)) <= 12:
        return None
    return f"{match.group(1)}-{match.group(2)}"


def month_range(first: str, last: str) -> list[str]:
    """Every "YYYY-MM" from first to last inclusive."""
    y, m = int(first[:4]), int(first[5:])
    out = []
    while f"{y:04d}-{m:02d}" <= last:
        out.append(f"{y:04d}-{m:02d}")
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def frontier(
    rows: list[dict],
    models: pd.DataFrame | Mapping[str, Mapping],
    x_of: XOf,
    include_collinear: bool,
    by_month: bool,
) -> dict:
    """A frontier over board rows: points, exclusions with reasons, the rising hull and, optionally, by month.
    `models` is the models frame, or its cells by model id (model_lookup's) of at least the rows' models.

    `x_of(model id, model row as a dict, NA as None)` returns (x before log10, None, provenance) or (None, reason, {}); the provenance
    (where x comes from: a price's source and date, a parameter count's source) is kept on the point.
    """
    # Each named model's cells once, as a dict (a frame row lookup per model cost more than the frontier itself).
    named = {row["model"] for row in rows}
    cells_of = model_lookup(models) if isinstance(models, pd.DataFrame) else models
    info = {m: cells for m, cells in cells_of.items() if m in named}
    points, excluded = [], []
    released: dict[str, str | None] = {}
    for row in rows:
        model = row["model"]
        if row["value"] is None:
            excluded.append({"model": model, "reason": row.get("reason") or "no value"})
            continue
        if model not in info:
            excluded.append({"model": model, "reason": "not in the model registry"})
            continue
        raw_x, reason, provenance = x_of(model, info[model])
        if reason or raw_x is None:
            excluded.append({"model": model, "reason": reason})
            continue
        released[model] = release_month(info[model].get("released"))
        points.append(
            {
                "model": model,
                "x": math.log10(raw_x),
                "x_raw": float(raw_x),
                "y": float(row["value"]),
                "released": released[model],
                **provenance,
            }
        )
    out = {
        "points": sorted(points, key=lambda p: (p["x"], p["y"], p["model"])),
        "excluded": sorted(excluded, key=lambda e: e["model"]),
        **rising_hull(((p["model"], p["x"], p["y"]) for p in points), include_collinear),
    }
    if by_month:
        out.update(_by_month(points, released, include_collinear))
    return out


def _by_month(points: list[dict], released: dict[str, str | None], include_collinear: bool) -> dict:
    """The frontier and hull at each month end from the first release month to the last, over the points released
    by then; the points without a readable release date listed apart."""
    month_of = {model: month for model, month in released.items() if month}
    dated = [p for p in points if p["model"] in month_of]
    out: dict[str, Any] = {
        "by_month_excluded": sorted(
            ({"model": p["model"], "reason": "no readable release date"} for p in points if p["model"] not in month_of),
            key=lambda e: e["model"],
        ),
        "by_month": {},
        "hull_by_month": {},
    }
    if dated:
        months = sorted(month_of[p["model"]] for p in dated)
        for month in month_range(months[0], months[-1]):
            hull = rising_hull(
                ((p["model"], p["x"], p["y"]) for p in dated if month_of[p["model"]] <= month), include_collinear
            )
            out["by_month"][month] = hull["frontier"]
            out["hull_by_month"][month] = hull["hull"]
    return out


XOf = Callable[[str, Mapping], tuple[float | None, str | None, dict]]


def price_x(source: str | None = None) -> XOf:
    """Input price per 1M tokens as the value-frontier x (from one source's prices when `source` is given)."""

    def x_of(model_id: str, model: Mapping) -> tuple[float | None, str | None, dict]:
        src: str | None
        if source:
            prices = model.get("prices")
            entry = (prices.get(source) if isinstance(prices, dict) else None) or {}
            price, as_of, src = entry.get("input_per_mtok"), entry.get("as_of"), source
            missing = f"no input price from {source}"
        else:
            price, missing = model.get("input_per_mtok"), "no input price"
            as_of, src = model.get("pricing_as_of"), model.get("pricing_source")
        value = known(price)
        if value is None:
            return None, missing, {}
        if value <= 0:
            return None, "input price is not positive (free or experimental); log10 undefined", {}
        return value, None, {"price_source": _text(src), "price_as_of": _text(as_of)}

    return x_of


def size_x(counts: Mapping[str, Mapping[str, Any]] | None = None) -> XOf:
    """Total parameters (billions) as the size-frontier x, for every model with a published count (open or
    closed weights: the paper's own size frontier includes closed-weight LFM-3B, whose size is published).
    `counts` (from the definition) gives the count a source plotted where it differs from the registry's."""
    counts = counts or {}

    def x_of(model_id: str, model: Mapping) -> tuple[float | None, str | None, dict]:
        if model_id in counts:
            entry = counts[model_id]
            return float(entry["total_b"]), None, {"count_source": entry["source"]}
        total = known(model.get("total_b"))
        if total is None or total <= 0:
            return None, "no published total parameter count", {}
        return total, None, {"count_source": "model registry"}

    return x_of


def _text(x: Any) -> str | None:
    """A string cell or None (NaN / NA are None)."""
    return None if x is None or (not isinstance(x, str) and pd.isna(x)) else str(x)


# --------------------------------------------------------------------------------------------------
# Boards
# --------------------------------------------------------------------------------------------------


def _bad_format_from_results(
    results: pd.DataFrame, model: str, benchmark: str, metric: str, sources: list[str] | None
) -> float | None:
    """Published share (0–1) of badly formatted answers, from a result with metric `metric` in percent."""
    res = pick_result(results, model, benchmark, metric, [""], sources)
    return None if res is None else float(res["value"]) / 100.0


def board_rows(
    results: pd.DataFrame, raw: Mapping[str, pd.DataFrame], definition: Mapping[str, Any], board: Mapping[str, Any]
) -> list[dict]:
    """Unranked rows of one accuracy board (CDPK or SEND), one per model with data for its benchmark.

    Each row is a function of the model's own result rows of the board's benchmark, its per-question rows and the
    definition's settings alone (its bootstrap stream is seeded by board and model), so inside a simcache.kept_in
    block each is kept by those (simcache.kept_row): an edit to one model's results computes its row again and
    takes the others' from the store."""
    bench = board["benchmark"]
    sources = definition.get("sources") or None
    mine = results[results["benchmark"] == bench]
    published = mine[(mine["metric"] == "") & (mine["subset"] == "")]
    if sources:
        published = published[published["source"].isin(sources)]
    models = sorted(set(published["model"]) | {m for m, df in raw.items() if len(df)})
    if simcache.current() is None:
        return [_row(model, mine, raw.get(model), definition, board) for model in models]
    settings = hashlib.sha256(
        pickle.dumps(
            (tuple(results.columns), board, sources, definition["bootstrap"], definition["bad_format"]), protocol=5
        )
    ).digest()
    own: dict[str, list[tuple]] = {}
    for model, record in zip(mine["model"].tolist(), zip(*(mine[c].tolist() for c in mine.columns))):
        own.setdefault(model, []).append(record)
    return [
        simcache.kept_row(
            "pedagogy-row-1",
            settings,
            pickle.dumps((model, own.get(model, []), raw.get(model)), protocol=5),
            functools.partial(_row, model, mine, raw.get(model), definition, board),
        )
        for model in models
    ]


def _row(
    model: str,
    results: pd.DataFrame,
    rows_raw: pd.DataFrame | None,
    definition: Mapping[str, Any],
    board: Mapping[str, Any],
) -> dict:
    """One model's row of an accuracy board, from its rows of `results` (those of the board's benchmark) and its
    per-question rows."""
    bench, n_questions = board["benchmark"], int(board["questions"])
    sources = definition.get("sources") or None
    boot, bad = definition["bootstrap"], definition["bad_format"]
    resamples, level, seed = int(boot["resamples"]), float(boot["ci_level"]), int(boot["seed"])
    max_share = float(bad["max_share"])
    rng = rng_for(seed, board["id"], model)
    if rows_raw is not None and len(answered(rows_raw)):
        done = answered(rows_raw)
        correct = done["correct"].astype(bool).to_numpy()
        components = subject_scores(done)
        best, worst = best_and_worst(components)
        row: dict[str, Any] = {
            "model": model,
            "value": 100.0 * float(correct.mean()),
            "status": OBSERVED,
            "coverage": {"have": len(done), "of": n_questions},
            "interval": bootstrap_interval(correct, resamples, rng, level),
            "interval_how": OBSERVED,
            "interval_method": "question bootstrap",
            "interval_reason": (
                f"bootstrap over the {len(done)} answered questions: {resamples} "
                f"resamples with replacement, percentile interval"
            ),
            "components": components,
            "best_subject": best,
            "worst_subject": worst,
            "bad_format": bad_format_share(rows_raw),
        }
        if row["bad_format"] is None:
            row["bad_format"] = _bad_format_from_results(results, model, bench, bad["metric"], sources)
    else:
        res = pick_result(results, model, bench, "", [""], sources)
        if res is None:  # only raw rows without outcomes
            return {
                "model": model,
                "value": None,
                "status": MISSING,
                "reason": "no answered questions",
                "coverage": {"have": 0, "of": n_questions},
                "interval": None,
                "components": [],
            }
        value = float(res["value"])
        n = int(res["n"]) if known(res.get("n")) is not None else n_questions
        row = {
            "model": model,
            "value": value,
            "status": PUBLISHED,
            "source": res["source"],
            "coverage": {"have": n, "of": n_questions},
            "components": [],
            "best_subject": None,
            "worst_subject": None,
            "bad_format": _bad_format_from_results(results, model, bench, bad["metric"], sources),
        }
        if known(res.get("ci_low")) is not None and known(res.get("ci_high")) is not None:
            row.update(
                interval=[float(res["ci_low"]), float(res["ci_high"])],
                interval_how=PUBLISHED,
                interval_method="published",
            )
        else:
            k = correct_count(value, n)
            row.update(
                interval=binomial_interval(k, n, level),
                interval_how=DERIVED,
                interval_method="exact binomial",
                interval_reason=(
                    f"no per-question results: exact {100 * (1 - level) / 2:g}% and "
                    f"{100 * (1 + level) / 2:g}% quantiles of the resampled accuracy, "
                    f"Binomial(n = {n}, {k}/{n}) / n"
                ),
            )
    if row["bad_format"] is not None and row["bad_format"] > max_share:
        row.update(
            status=EXCLUDED,
            measured=row["value"],
            value=None,
            interval=None,
            reason=(
                f"{100 * row['bad_format']:.1f}% of answers badly formatted "
                f"(more than {100 * max_share:g}%): unable to perform the benchmark"
            ),
        )
    return row


def paper_over_time(value: Mapping[str, Any], claims: Mapping[str, Any] | None) -> list[dict]:
    """The paper's "accuracy a at price p by month m" claims against the frontier as it stood at m.

    Ours is the hull of that month read at log10 p (straight between its vertices). It cannot be read when p lies
    outside the hull's price range then (no model that cheap, or that dear, released by m): the reason says so.
    """
    if not claims:
        return []
    tolerance = float(claims["tolerance"])
    out = []
    for claim in claims["points"]:
        month, price, paper = str(claim["month"]), float(claim["price"]), float(claim["accuracy"])
        hull = value.get("hull_by_month", {}).get(month)
        entry = {"month": month, "price": price, "paper": paper, "ours": None, "reproduced": False}
        if not hull:
            entry["reason"] = "no priced model with a release date by then"
        else:
            xs, ys, x = [h[0] for h in hull], [h[1] for h in hull], math.log10(price)
            if x < xs[0] - TOL:
                entry["reason"] = (
                    f"no model released by then costs {price:g} USD per 1M input tokens or less at the "
                    f"paper's prices (the cheapest then cost {10 ** xs[0]:.3g})"
                )
            elif x > xs[-1] + TOL:
                entry["reason"] = f"the frontier then ended at {10 ** xs[-1]:.3g} USD per 1M input tokens"
            else:
                ours = float(np.interp(x, xs, ys))
                entry.update(ours=ours, reproduced=abs(ours - paper) <= tolerance + TOL)
                if not entry["reproduced"]:
                    entry["reason"] = (
                        f"the frontier from the paper's model list, prices and release months gives "
                        f"{ours:.1f}%; the paper does not say how it dated models, and its figure "
                        f"may use other dates"
                    )
        out.append(entry)
    return out


def _reference(board: Mapping[str, Any]) -> list[dict]:
    """The board's reference lines (the estimated human baseline), from the YAML."""
    base = board.get("human_baseline")
    if not base:
        return []
    return [
        {
            "id": "human-baseline",
            "value": float(base["value"]),
            "how": PUBLISHED,
            "estimate": True,
            "label": base["label"],
            "note": base["note"],
            "source": base["source"],
        }
    ]


def compute_pedagogy(
    results: pd.DataFrame,
    models: pd.DataFrame,
    raw_by_model: Mapping[str, Mapping[str, pd.DataFrame]],
    definition: Mapping[str, Any],
) -> dict:
    """Both Pedagogy boards, keyed by index id: {"pedagogy-cdpk": board, "pedagogy-send": board}.

    `raw_by_model` maps benchmark id -> model id -> the rows of `scores/raw/<benchmark>/<org>/<model>.jsonl`
    (columns id, correct, and optionally subject, bad_format). Each board carries, beside its rows,
    `frontiers` ({"value": {...with by_month}, "size": {...}}) and `references` (the human baseline).
    """
    fr = definition["frontier"]
    collinear = bool(fr["include_collinear"])
    # Every lookup below is per model; narrowing the frame once keeps them off the whole repository's results.
    results = results[results["benchmark"].isin([b["benchmark"] for b in definition["boards"]])]
    boards = {}
    for board in definition["boards"]:
        rows = board_rows(results, raw_by_model.get(board["benchmark"], {}), definition, board)
        ranked = rank_rows(rows, bool(board["higher_is_better"]), int(board["rank_decimals"]))
        boards[board["id"]] = {
            "index": board["id"],
            "name": board["name"],
            "version": str(definition["version"]),
            "kind": definition["kind"],
            "unit": board["unit"],
            "description": board["description"],
            "higher_is_better": bool(board["higher_is_better"]),
            "rows": ranked,
            "frontiers": {
                "value": {
                    "axes": fr["value"]["axes"],
                    **frontier(ranked, models, price_x(fr["value"].get("price_source")), collinear, by_month=True),
                },
                "size": {
                    "axes": fr["size"]["axes"],
                    **frontier(ranked, models, size_x(fr["size"].get("counts")), collinear, by_month=False),
                },
            },
            "references": _reference(board),
        }
        value = boards[board["id"]]["frontiers"]["value"]
        value["paper_over_time"] = paper_over_time(value, board.get("paper_over_time"))
    return boards
