"""sitegen.known: the one test of a known number, which every stage uses."""

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from sitegen.known import known


@pytest.mark.parametrize("value,expected", [
    (0, 0.0), (3, 3.0), (-2.5, -2.5), (1e308, 1e308), (np.float64(0.25), 0.25), (np.int64(7), 7.0),
    (np.float32(0.5), 0.5), (Fraction(1, 4), 0.25),
])
def test_a_finite_number_is_known_as_a_float(value, expected):
    assert known(value) == expected and type(known(value)) is float


@pytest.mark.parametrize("value", [
    None, math.nan, np.nan, pd.NA, np.float64("nan"), math.inf, -math.inf, np.inf, True, False, np.bool_(True),
    "3", "", [1], {"value": 1},
])
def test_anything_else_is_unknown(value):
    assert known(value) is None

