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
"""

from __future__ import annotations

import math
from collections.abc import Callable
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


def _errors(samples: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """len(pairs) x columns: half the distance between the two order statistics of each pair, per column."""
    part = np.partition(samples, sorted({i for pair in pairs for i in pair}), axis=0)
    return np.array([(part[b] - part[a]) / 2 for a, b in pairs], dtype=float).reshape(len(pairs), -1)


def quantile_errors(samples: np.ndarray, level: float) -> np.ndarray:
    """2 x columns: the Monte-Carlo standard error of each column's lower and upper bound as quantile_interval
    takes them (linear quantiles at positions tail x (N - 1) and (1 - tail) x (N - 1))."""
    sims = samples.shape[0]
    tail = float(_tail(level))
    pairs = [_bracket(p * (sims - 1), p, sims) for p in (tail, 1 - tail)]
    return _errors(samples, pairs)


def rank_errors(ranks: np.ndarray, level: float) -> list[list[float]]:
    """Per column of a draws x models array of ranks, the Monte-Carlo standard error of each bound of its rank
    interval as rank_intervals takes them (inverted-CDF quantiles: draw ceil(tail x N) and ceil((1 - tail) x N))."""
    sims = ranks.shape[0]
    tail = _tail(level)
    pairs = [_bracket(max(math.ceil(q * sims), 1) - 1, float(q), sims) for q in (tail, 1 - tail)]
    return _errors(ranks, pairs).T.tolist()


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


def bounds(samples: np.ndarray, models: list[str], interval: Callable, level: float) -> tuple[dict, dict]:
    """({model: [low, high]} as `interval` (quantile_interval) takes them, {model: their Monte-Carlo errors}) for
    the columns of a draws x models array."""
    return (
        dict(zip(models, interval(samples, level).T.tolist())),
        dict(zip(models, quantile_errors(samples, level).T.tolist())),
    )
