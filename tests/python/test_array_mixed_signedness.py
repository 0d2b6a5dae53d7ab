"""Array expressions mixing a signed integer (array or scalar) with a uint64 array: NumPy's result
is float64 and its loop computes in float64. The elements were computed in int64 first (the scalar
operators' promotion), so a uint64 of 2**63 or more read as negative: int8 -1 + uint64 2**64 - 1
gave -2.0. Compared with NumPy (f.py_func) element by element."""

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import live_blocks


@pytest.fixture(autouse=True)
def no_leaks():
    """Every block the compiled code allocated (the result arrays) is freed."""
    before = live_blocks()
    yield
    assert live_blocks() == before


UNSIGNED = np.array([2**64 - 1, 2**63, 2**63 - 1, 5, 1, 0], np.uint64)
SIGNED_KINDS = [np.int8, np.int16, np.int32, np.int64]


def signed_values(kind):
    info = np.iinfo(kind)
    return np.array([info.min, -1, 0, 1, 7, info.max], kind)


@njit
def arithmetic(a, b):
    return a + b, b - a, a * b, a / b, b / a, a // b, b % a, a - b * 2


@njit
def with_scalars(a, b):
    return b + a[0], a + b[1], b[0] - a, (a + b) * 0.5


@pytest.mark.parametrize("kind", SIGNED_KINDS)
@pytest.mark.parametrize("function", [arithmetic, with_scalars])
def test_signed_with_uint64_arrays_match_numpy(kind, function):
    a = signed_values(kind)
    with np.errstate(all="ignore"):
        expected = function.py_func(a, UNSIGNED)
        got = function(a, UNSIGNED)
    for actual, reference in zip(got, expected):
        assert actual.dtype == reference.dtype
        np.testing.assert_array_equal(actual, reference)
