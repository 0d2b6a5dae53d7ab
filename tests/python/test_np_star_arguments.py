"""f(*t) into NumPy functions (overloads written in Python and the library's functions written
in C++), as Numba allows it: the tuple's items are the positional arguments, after any given
before it, with keywords after; a ufunc and a method refuse it at the user's line."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.errors import UnsupportedError


@njit
def digitize(*args):
    return np.digitize(*args)


@njit
def histogram(*args):
    return np.histogram(*args)


@njit
def atleast_2d(*args):
    return np.atleast_2d(*args)


@njit
def broadcast_arrays(*args):
    return np.broadcast_arrays(*args)


@njit
def broadcast_shapes(*args):
    return np.broadcast_shapes(*args)


@njit
def linspace_after_first(start, rest):
    return np.linspace(start, *rest)


@njit
def zeros_with_keyword(shape):
    return np.zeros(*shape, dtype=np.int32)


@njit
def maximum_of_tuple(*args):
    return max(*args)


def test_python_overloads():
    x = np.array([0.2, 6.4, 3.0, 1.6])
    bins = np.array([0.0, 1.0, 2.5, 4.0, 10.0])
    check_like_numpy(digitize, x, bins)
    check_like_numpy(digitize, x, bins, True)
    check_like_numpy(atleast_2d, np.arange(3.0))
    values, edges = histogram(x, 3)
    expected_values, expected_edges = np.histogram(x, 3)
    assert np.array_equal(values, expected_values) and np.array_equal(edges, expected_edges)


def test_several_arrays():
    out = broadcast_arrays(np.arange(3), np.ones((2, 1)))
    expected = np.broadcast_arrays(np.arange(3), np.ones((2, 1)))
    assert all(np.array_equal(a, e) for a, e in zip(out, expected))
    assert broadcast_shapes((2, 1), (3,)) == np.broadcast_shapes((2, 1), (3,))


def test_library_functions():
    check_like_numpy(linspace_after_first, 0.0, (1.0, 5))
    check_like_numpy(zeros_with_keyword, ((2, 3),))
    assert maximum_of_tuple(3, 9, 4) == 9


def test_ufuncs_refuse_star_arguments():
    @njit
    def add(*args):
        return np.add(*args)

    with pytest.raises(UnsupportedError, match=r"'\*' in a call of the ufunc"):
        add(np.ones(2), np.ones(2))


def test_array_methods_take_star_arguments():
    # (an array's methods are NumPy's functions; a container's stay refused:
    # test_np_method_star_args.py)
    @njit
    def reshape(a, shape):
        return a.reshape(*shape)

    np.testing.assert_array_equal(reshape(np.arange(6), (2, 3)), np.arange(6).reshape(2, 3))
