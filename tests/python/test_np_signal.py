"""convolve, correlate (modes, complex conjugation, operand swapping) and trapezoid compared
with NumPy over dtypes, lengths, layouts and errors; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.errors import TypingError


def check(f, *args):
    check_like_numpy(f, *args, rtol=1e-12)


@njit
def convolve(a, v):
    return np.convolve(a, v)


@njit
def convolve_same(a, v):
    return np.convolve(a, v, mode="same")


@njit
def convolve_valid(a, v):
    return np.convolve(a, v, "valid")


@njit
def correlate(a, v):
    return np.correlate(a, v)


@njit
def correlate_same(a, v):
    return np.correlate(a, v, mode="same")


@njit
def correlate_full(a, v):
    return np.correlate(a, v, mode="full")


SIGNAL = [convolve, convolve_same, convolve_valid, correlate, correlate_same, correlate_full]
LENGTHS = [(5, 3), (3, 5), (4, 2), (2, 4), (4, 4), (1, 3), (6, 1)]


@pytest.mark.parametrize("f", SIGNAL, ids=[f.__name__ for f in SIGNAL])
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex128", "bool"])
def test_modes_lengths_and_dtypes(f, dtype):
    rng = np.random.default_rng(1)
    for n1, n2 in LENGTHS:
        a = rng.standard_normal(n1) * 4 + 1j * rng.standard_normal(n1)
        v = rng.standard_normal(n2) * 4 - 1j * rng.standard_normal(n2)
        if dtype == "bool":
            a, v = a.real > 0, v.real > 0
        elif dtype != "complex128":
            a, v = a.real.astype(dtype), v.real.astype(dtype)
        check(f, a, v)


@pytest.mark.parametrize("f", SIGNAL, ids=[f.__name__ for f in SIGNAL])
def test_mixed_dtypes_layouts_and_empty(f):
    a = np.arange(10.0)
    check(f, a[::2], np.arange(3, dtype=np.int32))
    check(f, a[::-3], np.array([1j, 2.0]))
    check(f, np.arange(4, dtype=np.float32), np.ones(2, np.float32))
    if np.lib.NumpyVersion(np.__version__) >= "2.4.0":
        check(f, np.zeros(0), np.ones(3))
    else:  # NumPy 2.2 names v for an empty a too, and taipan's message follows the NumPy it runs
        with pytest.raises(ValueError, match="cannot be empty"):
            f(np.zeros(0), np.ones(3))
    check(f, np.ones(3), np.zeros(0))


@njit
def convolve_bad_mode(a):
    return np.convolve(a, a, mode="middle")


def test_bad_mode_is_a_typing_error_naming_the_line():
    with pytest.raises(TypingError) as error:
        convolve_bad_mode(np.ones(3))
    assert "mode must be one of 'valid', 'same', or 'full' (got 'middle')" in str(error.value)
    assert 'return np.convolve(a, a, mode="middle")' in str(error.value)


@njit
def trapezoid(y):
    return np.trapezoid(y)


@njit
def trapezoid_x(y, x):
    return np.trapezoid(y, x)


@njit
def trapezoid_dx(y, dx):
    return np.trapezoid(y, dx=dx)


@njit
def trapezoid_keywords(y, x):
    return np.trapezoid(y=y, x=x, axis=-1)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float64", "complex128", "bool"])
def test_trapezoid(dtype):
    y = (np.arange(7) ** 2 % 5).astype(dtype)
    x = np.linspace(0.0, 2.0, 7) ** 2
    check(trapezoid, y)
    check(trapezoid, y[::-2])
    check(trapezoid_x, y, x)
    check(trapezoid_x, y[::2], x[::2])
    check(trapezoid_dx, y, 0.25)
    check(trapezoid_dx, y, 3)
    check(trapezoid_keywords, y, x)


def test_trapezoid_short_and_empty():
    for n in (0, 1, 2):
        check(trapezoid, np.ones(n))
        check(trapezoid_x, np.ones(n), np.arange(float(n)))
