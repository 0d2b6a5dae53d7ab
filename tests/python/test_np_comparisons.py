"""isclose, allclose and array_equal compared with NumPy: arrays (broadcast, non-contiguous),
scalars, NaN and infinities, keywords, dtypes; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


def check(f, *args):
    expected = f.py_func(*args)
    with no_allocation_leak():
        actual = f(*args)
        if isinstance(expected, np.ndarray) and expected.ndim > 0:
            assert isinstance(actual, np.ndarray)
            assert actual.dtype == expected.dtype and actual.shape == expected.shape
            np.testing.assert_array_equal(actual, expected)
        else:
            assert type(actual) is bool and actual == bool(expected)
        del actual


@njit
def isclose(a, b):
    return np.isclose(a, b)


@njit
def isclose_keywords(a, b, rtol, atol, equal_nan):
    return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


@njit
def allclose(a, b):
    return np.allclose(a, b)


@njit
def allclose_keywords(a, b, rtol, atol, equal_nan):
    return np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


@njit
def array_equal(a, b):
    return np.array_equal(a, b)


@njit
def array_equal_nan(a, b):
    return np.array_equal(a, b, equal_nan=True)


X = np.array([1.0, np.nan, np.inf, -np.inf, 1e-9, 2.0, 1e10, 0.0])
Y = np.array([1.0 + 1e-6, np.nan, np.inf, np.inf, 0.0, 2.1, 1.00001e10, -0.0])


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64", "complex128", "bool"])
def test_isclose_and_allclose_each_dtype(dtype):
    with np.errstate(all="ignore"):
        x, y = X.astype(dtype), Y.astype(dtype)
    for f in (isclose, allclose):
        check(f, x, y)
        check(f, x, x)
        check(f, x[::2], y[1::2])


def test_isclose_keywords_and_nan():
    for equal_nan in (False, True):
        for rtol, atol in ((1e-5, 1e-8), (0.1, 0.0), (0.0, 1e-8)):
            check(isclose_keywords, X, Y, rtol, atol, equal_nan)
            check(allclose_keywords, X, Y, rtol, atol, equal_nan)
            check(isclose_keywords, np.nan, np.nan, rtol, atol, equal_nan)


def test_isclose_broadcasting_and_layouts():
    a = np.arange(12.0).reshape(3, 4)
    check(isclose, a, a[0])
    check(isclose, a.T, np.arange(3.0).reshape(3, 1).T)
    check(isclose, a[:, ::-1], 5.0)
    check(isclose, 5, a)
    check(isclose, np.zeros((2, 0)), np.zeros(0))
    check(allclose, a, a[:, :1])
    check(allclose, np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError):
        isclose(a, np.zeros(3))


def test_isclose_scalars():
    for x, y in ((1.0, 1.0 + 1e-7), (1, 2), (np.inf, np.inf), (np.inf, -np.inf), (1 + 1j, 1)):
        check(isclose, x, y)
        check(allclose, x, y)


@pytest.mark.parametrize("f", [array_equal, array_equal_nan], ids=["plain", "equal_nan"])
def test_array_equal(f):
    nan = np.array([1.0, np.nan, 3.0])
    check(f, nan, nan.copy())
    check(f, nan, np.array([1.0, 2.0, 3.0]))
    check(f, np.arange(6).reshape(2, 3), np.arange(6.0).reshape(2, 3))
    check(f, np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2))
    check(f, np.arange(6).reshape(2, 3).T, np.arange(6).reshape(2, 3).T[::-1, ::-1][::-1, ::-1])
    check(f, np.arange(3), np.arange(4))
    check(f, np.zeros((2, 3)), np.zeros(3))
    check(f, np.zeros(0), np.zeros(0, np.int32))
    check(f, np.array([True, False]), np.array([1, 0]))
    check(f, np.array([complex(np.nan, 1)]), np.array([complex(1, np.nan)]))
    check(f, 1.0, 1)
    check(f, np.nan, np.nan)


@njit
def isclose_bad_rtol(a):
    return np.isclose(a, a, rtol=True)


def test_bad_tolerance_is_a_typing_error_naming_the_line():
    with pytest.raises(TypingError) as error:
        isclose_bad_rtol(np.ones(3))
    assert "'rtol' must be a real number" in str(error.value)
    assert "return np.isclose(a, a, rtol=True)" in str(error.value)
