"""`x in a` and `x not in a` of an array (issue 31): whether some item equals the number x, as
NumPy's `(a == x).any()`; across dtypes, layouts (C, F, strided views), 0-d and empty arrays,
NaN (in no array), datetimes; a value that cannot be compared is a TypingError naming the
line."""

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks


def contains(a, x):
    return x in a


def not_contains(a, x):
    return x not in a


def layouts(a):
    wide = np.zeros(tuple(2 * n for n in a.shape), dtype=a.dtype)
    view = wide[tuple(slice(None, None, 2) for _ in a.shape)]
    view[...] = a
    return [a, np.asfortranarray(a), view]


@pytest.mark.parametrize(
    "dtype", [np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64, np.bool_]
)
def test_numbers(dtype):
    base = (np.arange(24) % 5).astype(dtype).reshape(2, 3, 4)
    for a in layouts(base):
        for x in [0, 3, 4, 7, -1, 2.0, 2.5, True]:
            before = live_blocks()
            assert njit(contains)(a, x) == contains(a, x), (a.dtype, x)
            assert njit(not_contains)(a, x) == not_contains(a, x)
            assert live_blocks() == before


def test_edge_cases():
    assert njit(contains)(np.zeros(0), 0.0) is False
    assert njit(contains)(np.array(3.0), 3) is True
    assert njit(contains)(np.array([np.nan, 1.0]), np.nan) is False
    assert njit(contains)(np.array([1 + 2j]), 1 + 2j) is True
    days = np.array(["2020-01-01", "2021-06-01"], dtype="M8[D]")
    assert njit(contains)(days, np.datetime64("2021-06-01", "D")) is True
    assert njit(contains)(days, np.datetime64("2021-06-02", "D")) is False


def test_refused():
    with pytest.raises(TypingError, match="in"):
        njit(contains)(np.zeros(3), "a")
    with pytest.raises(TypingError, match="in"):
        njit(contains)(np.zeros(3), np.zeros(2))
