"""The smallest signed integer divided by -1, the one integer division that overflows: x86's
divide instruction traps on it (SIGFPE, which kills the interpreter) where it does not wrap.
NumPy's integer ufuncs give 0 for the remainders and wrap the quotient; Python's // and % (which
Numba and taipan compute in int64) give the wrapped quotient and 0. np.fmod of int64's minimum
by -1 crashed the interpreter; found by a sweep of every operator over every scalar type."""

import warnings

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


SIGNED = [np.int8, np.int16, np.int32, np.int64]


@njit
def numpy_remainders(x, y):
    return np.fmod(x, y), np.mod(x, y), np.remainder(x, y)


@njit
def numpy_quotient(x, y):
    return np.floor_divide(x, y)


@njit
def remainders_of_arrays(a, b):
    return np.fmod(a, b), np.mod(a, b), np.floor_divide(a, b)


def numpy_results(f, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f.py_func(*args)


@pytest.mark.parametrize("kind", SIGNED)
def test_remainders_of_the_minimum_by_minus_one(kind):
    smallest, minus_one = kind(np.iinfo(kind).min), kind(-1)
    assert numpy_remainders(smallest, minus_one) == (0, 0, 0)
    assert numpy_remainders(smallest, minus_one) == tuple(
        int(r) for r in numpy_results(numpy_remainders, smallest, minus_one)
    )


@pytest.mark.parametrize("kind", SIGNED)
def test_floor_divide_of_the_minimum_by_minus_one_wraps(kind):
    smallest = kind(np.iinfo(kind).min)
    assert int(numpy_results(numpy_quotient, smallest, kind(-1))) == int(smallest)
    assert int(numpy_quotient(smallest, kind(-1))) == int(smallest)


@pytest.mark.parametrize("kind", SIGNED)
def test_array_remainders_by_minus_one_and_zero(kind):
    info = np.iinfo(kind)
    a = np.array([info.min, info.min, -7, 7, info.max, 0], dtype=kind)
    b = np.array([-1, 0, -1, 2, -1, -1], dtype=kind)
    got = remainders_of_arrays(a, b)
    expected = numpy_results(remainders_of_arrays, a, b)
    for actual, reference in zip(got[:2], expected[:2]):
        np.testing.assert_array_equal(actual, reference)
    # The quotient of the minimum by -1 wraps (NumPy warns and gives the minimum).
    np.testing.assert_array_equal(got[2], expected[2])


def test_python_operators_of_int64_minimum_by_minus_one():
    @njit
    def operators(x, y):
        return x // y, x % y, divmod(x, y)

    smallest = -(2**63)
    assert operators(smallest, -1) == (smallest, 0, (smallest, 0))
