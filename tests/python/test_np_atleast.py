"""np.atleast_1d, np.atleast_2d and np.atleast_3d in compiled code, compared with NumPy.

As in Numba they take arrays only: one array gives its view, several a tuple of views.
"""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def all_three(a):
    return np.atleast_1d(a), np.atleast_2d(a), np.atleast_3d(a)


@taipan.njit
def pairs(a, b):
    return np.atleast_1d(a, b), np.atleast_2d(a, b), np.atleast_3d(a, b)


@taipan.njit
def write_through(a):
    np.atleast_3d(a)[0, 0, 0] = -1.0
    return a


ARRAYS = [
    np.array(3.5),
    np.array([], dtype=np.float64),
    np.array([1.0, np.nan, -0.0, np.inf]),
    np.arange(12, dtype=np.int32).reshape(3, 4),
    np.arange(24.0).reshape(2, 3, 4)[:, ::2, 1:],
    np.ones((2, 1, 2, 1), dtype=np.complex128),
]


def assert_views_equal(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.ndim}d-{a.dtype}")
def test_one_array(a):
    before = live_blocks()
    for got, want in zip(all_three(a), all_three.py_func(a), strict=True):
        assert_views_equal(got, want)
    assert live_blocks() == before


def test_several_arrays_give_tuples():
    a, b = np.array(2), np.arange(3.0)
    for got, want in zip(pairs(a, b), pairs.py_func(a, b), strict=True):
        assert len(got) == len(want) == 2
        for g, w in zip(got, want, strict=True):
            assert_views_equal(g, w)


def test_results_are_views():
    a = np.arange(4.0)
    assert write_through(a)[0] == -1.0 and a[0] == -1.0


def test_scalars_are_refused_as_in_numba():
    @taipan.njit
    def of_scalar(x):
        return np.atleast_1d(x)

    with pytest.raises(taipan.errors.TypingError, match="atleast_1d takes arrays"):
        of_scalar(1.0)
