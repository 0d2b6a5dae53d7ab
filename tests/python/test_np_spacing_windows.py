"""np.linspace between complex bounds, np.logspace, np.geomspace (numpy_library/spacing.py) and
the window functions np.bartlett, np.blackman, np.hamming, np.hanning, np.kaiser
(numpy_library/windows.py) compared with NumPy; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.errors import TypingError


@njit
def linspace(start, stop, num):
    return np.linspace(start, stop, num)


@njit
def logspace(start, stop, num):
    return np.logspace(start, stop, num)


@njit
def logspace_default(start, stop):
    return np.logspace(start, stop)


@njit
def geomspace(start, stop, num):
    return np.geomspace(start, stop, num)


@njit
def geomspace_default(start, stop):
    return np.geomspace(start, stop)


# (float32 and complex64 bounds give float64 and complex128, as in Numba: NumPy 2's result
# depends on whether the other bound is a Python number, which compiled code cannot see)
BOUNDS = [(1, 5), (2.5, -3.0), (1 + 2j, 3 - 1j), (0.5, 2j), (-3, 1j)]
COUNTS = [0, 1, 2, 5, 50]


@pytest.mark.parametrize("bounds", BOUNDS, ids=str)
@pytest.mark.parametrize("num", COUNTS)
def test_linspace_and_logspace(bounds, num):
    check_like_numpy(linspace, *bounds, num, rtol=1e-15)
    check_like_numpy(logspace, *bounds, num, rtol=1e-13)


def test_logspace_default_count():
    check_like_numpy(logspace_default, 0, 2.5, rtol=1e-13)
    check_like_numpy(logspace_default, 1j, 2.5, rtol=1e-13)


GEOMETRIC = [(1, 1000), (-1, -1000.0), (2.0, 3), (1j, 1000j), (1 + 1j, -1000 + 2j), (-2j, 5 + 5j)]


@pytest.mark.parametrize("bounds", GEOMETRIC, ids=str)
@pytest.mark.parametrize("num", COUNTS)
def test_geomspace(bounds, num):
    check_like_numpy(geomspace, *bounds, num, rtol=1e-13)


def test_geomspace_default_and_errors():
    check_like_numpy(geomspace_default, 1, 256, rtol=1e-13)
    check_like_numpy(geomspace, 0, 10, 3)  # NumPy's ValueError and message
    check_like_numpy(geomspace, 1j, 0, 3)
    with pytest.raises(TypingError, match='The argument "start" must be a number'):
        geomspace("a", 1, 3)
    with pytest.raises(TypingError, match='The third argument "num" must be an integer'):
        logspace(1, 2, 2.5)


@njit
def bartlett(m):
    return np.bartlett(m)


@njit
def blackman(m):
    return np.blackman(m)


@njit
def hamming(m):
    return np.hamming(m)


@njit
def hanning(m):
    return np.hanning(m)


@njit
def kaiser(m, beta):
    return np.kaiser(m, beta)


WINDOWS = [bartlett, blackman, hamming, hanning]


@pytest.mark.parametrize("f", WINDOWS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("m", [-3, 0, 1, 2, 5, 6, 51])
def test_windows(f, m):
    check_like_numpy(f, m, rtol=1e-14)


@pytest.mark.parametrize("m", [-1, 0, 1, 2, 7, 12])
@pytest.mark.parametrize("beta", [0, 3, 5.5, 14.0, 30.0])
def test_kaiser(m, beta):
    check_like_numpy(kaiser, m, beta, rtol=1e-13)


def test_window_arguments():
    with pytest.raises(TypingError, match="M must be an integer"):
        hamming(5.0)
    with pytest.raises(TypingError, match="beta must be an integer or float"):
        kaiser(5, 1j)
