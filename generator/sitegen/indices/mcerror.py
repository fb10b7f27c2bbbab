"""Monte-Carlo error of simulated bounds, and the precision a bound is published to.

A bound is an order statistic of the draws: the value interval's are numpy's linear quantiles
(uncertainty.quantile_interval), the rank interval's are inverted-CDF quantiles (uncertainty.rank_intervals). How
far such a bound would move with other seeds is read off the same draws, without rerunning: of N draws, the number
that fall below the true p-quantile is Binomial(N, p), with standard deviation d = sqrt(N p (1 - p)). So the order
statistics d positions below and above the bound's own position bracket the true quantile with about 68%
confidence (one standard error on each side), and half their distance is the bound's Monte-Carlo standard error
(the order-statistic binomial interval of the quantile, at one standard error; positions are rounded outwards and
kept within the draws). It needs no assumption about the shape of the distribution, and works for whole ranks too.

A value bound is published to the decimal place of its Monte-Carlo error's leading digit (an error of 0.4 keeps one
decimal, 0.04 two, 4 none, 40 rounds to tens), never finer than MOST_DECIMALS; the lower bound is rounded down and
the upper bound up, so the published interval always holds the simulated one (and the value it holds).

Every order statistic is read off the draws sorted once per column (`sorted_draws`): a bound, its Monte-Carlo
error and a median are rows of that one array. numpy's sort gives the same numbers as a partition at those
positions (an order statistic is one number whatever finds it) in a quarter of its time at a thousand draws.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from fractions import Fraction

import numpy as np

#: The finest a bound is published to: the API's fixed precision (export.PRECISION), for an error of 0 or unknown.
MOST_DECIMALS = 4


def _tail(level: float) -> Fraction:
    return (1 - Fraction(str(level))) / 2  # exact, as quantile_interval and rank_intervals take it


def _bracket(position: float, p: float, sims: int) -> tuple[int, int]:
    """The draws (0-based, sorted order) one binomial standard error below and above a bound at `position`."""
    d = math.sqrt(sims * p * (1 - p))
    return max(math.floor(position - d), 0), min(math.ceil(position + d), sims - 1)


def sorted_draws(samples: np.ndarray, overwrite: bool = False) -> np.ndarray:
    """Each column of a draws x columns array in ascending order (NaN last, as np.sort and np.partition place it).
    With `overwrite`, `samples` itself is sorted (an array the caller made for this and reads no more) and returned."""
    if overwrite:
        samples.sort(axis=0)
        return samples
    return np.sort(samples, axis=0)


def _errors(ordered: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """len(pairs) x columns: half the distance between the two order statistics of each pair, per column, from
    the columns sorted (sorted_draws)."""
    return np.array([(ordered[b] - ordered[a]) / 2 for a, b in pairs], dtype=float).reshape(len(pairs), -1)


def _linear_bounds(ordered: np.ndarray, level: float) -> np.ndarray:
    """2 x columns: numpy's linear quantiles at tail and 1 - tail, from the columns sorted (sorted_draws)."""
    sims = ordered.shape[0]
    tail = float(_tail(level))
    positions = np.array([tail, 1 - tail]) * (sims - 1)
    below = np.floor(positions).astype(int)
    above = np.minimum(below + 1, sims - 1)
    frac = (positions - below)[:, None]
    return ordered[below] + (ordered[above] - ordered[below]) * frac


def _quantile_pairs(sims: int, level: float) -> list[tuple[int, int]]:
    tail = float(_tail(level))
    return [_bracket(p * (sims - 1), p, sims) for p in (tail, 1 - tail)]


def quantile_interval(samples: np.ndarray, level: float) -> np.ndarray:
    """2 x columns: the central `level` interval of each column, numpy's linear quantile."""
    return _linear_bounds(sorted_draws(samples), level)


def quantile_errors(samples: np.ndarray, level: float) -> np.ndarray:
    """2 x columns: the Monte-Carlo standard error of each column's lower and upper bound as quantile_interval
    takes them (linear quantiles at positions tail x (N - 1) and (1 - tail) x (N - 1))."""
    return _errors(sorted_draws(samples), _quantile_pairs(samples.shape[0], level))


def _rank_positions(sims: int, level: float) -> tuple[Fraction, int, int]:
    """The tail and the draws (0-based, sorted order) of a rank interval's bounds: inverted-CDF quantiles."""
    tail = _tail(level)
    return tail, max(math.ceil(tail * sims), 1) - 1, max(math.ceil((1 - tail) * sims), 1) - 1


def rank_bounds(ranks: np.ndarray, level: float) -> tuple[list[list[int]], list[list[float]]]:
    """Per column of a draws x models array of ranks, the central `level` range of its ranks (inverted-CDF
    quantiles: draw ceil(tail x N) and ceil((1 - tail) x N), whole ranks) and the Monte-Carlo standard error of
    each bound (rank_errors), from one sort."""
    sims = ranks.shape[0]
    tail, lo, hi = _rank_positions(sims, level)
    ordered = sorted_draws(ranks)
    pairs = [_bracket(lo, float(tail), sims), _bracket(hi, float(1 - tail), sims)]
    intervals = [[int(a), int(b)] for a, b in zip(ordered[lo].tolist(), ordered[hi].tolist())]
    return intervals, _errors(ordered, pairs).T.tolist()


def rank_errors(ranks: np.ndarray, level: float) -> list[list[float]]:
    """Per column of a draws x models array of ranks, the Monte-Carlo standard error of each bound of its rank
    interval as rank_intervals takes them (inverted-CDF quantiles: draw ceil(tail x N) and ceil((1 - tail) x N))."""
    return rank_bounds(ranks, level)[1]


def medians(samples: np.ndarray, overwrite: bool = False) -> np.ndarray:
    """np.median of each column (the mean of the middle one or two draws; NaN where a column holds one), from
    the columns sorted."""
    ordered = sorted_draws(samples, overwrite)
    n = ordered.shape[0]
    middle = np.mean(ordered[(n - 1) // 2 : n // 2 + 1], axis=0)
    return np.where(np.isnan(ordered[-1]), ordered[-1], middle) if n else middle


def decimals(error: float | None, most: int = MOST_DECIMALS) -> int:
    """The decimal place an error supports: that of its leading digit (0.4 -> 1, 0.04 -> 2, 4 -> 0, 40 -> -1),
    at most `most`. An error of 0 (every draw near the bound agrees) or one not known (None, NaN, infinite) keeps
    `most`: no place can be read off it."""
    if error is None or not math.isfinite(error) or error <= 0:
        return most
    return min(-math.floor(math.log10(error)), most)


def _round(x: float, places: int, rounding: str) -> float:
    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-places), rounding=rounding)
    return float(q) + 0.0  # + 0.0: -0.0 becomes 0.0


def round_out(bounds: list[float], errors: list[float], most: int = MOST_DECIMALS) -> list[float]:
    """[low, high] each to the place its error supports, low rounded down and high up (outwards)."""
    (lo, hi), (e_lo, e_hi) = bounds, errors
    return [_round(lo, decimals(e_lo, most), ROUND_FLOOR), _round(hi, decimals(e_hi, most), ROUND_CEILING)]


def error_text(error: float) -> float:
    """An error as published: two significant figures (an estimate of a spread carries no more)."""
    if not math.isfinite(error) or error <= 0:
        return 0.0
    return float(f"{error:.2g}")


def describe(sims: int, level: float) -> str:
    """What the board's `uncertainty` says of the Monte-Carlo error of its bounds."""
    d = math.sqrt(sims * float(_tail(level)) * (1 - float(_tail(level))))
    return (
        f"each bound is an order statistic of the {sims:,} draws; its Monte-Carlo error "
        "(interval_mc_error, rank_interval_mc_error: one standard error, low and high) is half the distance "
        f"between the draws {d:.1f} positions below and above it (the number of draws below a true quantile "
        "is binomial), and a value bound is published to the decimal place of its error's leading digit, "
        "rounded outwards"
    )


def bounds(samples: np.ndarray, models: list[str], level: float, overwrite: bool = False) -> tuple[dict, dict]:
    """({model: [low, high]} as quantile_interval takes them, {model: their Monte-Carlo errors}) for the columns of
    a draws x models array, from one sort (`overwrite`: of `samples` itself, see sorted_draws)."""
    ordered = sorted_draws(samples, overwrite)
    return (
        dict(zip(models, _linear_bounds(ordered, level).T.tolist())),
        dict(zip(models, _errors(ordered, _quantile_pairs(ordered.shape[0], level)).T.tolist())),
    )
