"""What counts as a known number, the one test every stage uses: a finite int or float (numpy's too), never None,
NaN, pandas' NA, an infinity, a bool or a string. (history/pr_comment.py keeps its own copy: it runs alone.)"""

from __future__ import annotations

import math
import numbers


def known(x: object) -> float | None:
    """x as a float when it is a known number, else None."""
    if type(x) is float:  # the common case first: board cells and frame values, called per cell
        return x if math.isfinite(x) else None
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return None
    f = float(x)
    return f if math.isfinite(f) else None
