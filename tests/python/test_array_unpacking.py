"""Unpacking an array into names, as Numba does: along the first axis.

`x0, y0 = vertices[i]` gives the scalars of a 1-d array and `p, q = grid` the rows (views) of an
n-d one; a length that does not match the names raises ValueError at run time, as CPython does.
"""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def edge_vector(vertices, edge):
    x0, y0 = vertices[edge[0]]
    x1, y1 = vertices[edge[1]]
    return x1 - x0, y1 - y0


@taipan.njit
def three(a):
    p, q, r = a
    return p, q, r


@taipan.njit
def rows_sum(a):
    top, bottom = a
    top[0] = -1.0  # a row is a view: the caller's array changes
    return top.sum() + 10 * bottom.sum()


@taipan.njit
def unpack_in_loop(points):
    total = 0.0
    for x, y in points:
        total += x * y
    return total


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.complex128])
def test_scalars_of_a_row(dtype):
    vertices = (np.arange(8).reshape(4, 2) * 3 % 7).astype(dtype)
    edge = np.array([3, 1])
    before = live_blocks()
    assert edge_vector(vertices, edge) == edge_vector.py_func(vertices, edge)
    assert live_blocks() == before


def test_non_contiguous_and_nan():
    a = np.array([np.nan, 1.0, -0.0, 2.0, np.inf, 3.0])[::2]
    got, want = three(a), three.py_func(a)
    assert np.array_equal(np.array(got), np.array(want), equal_nan=True)
    assert np.signbit(got[1]) and got[2] == np.inf


def test_rows_are_views():
    a = np.arange(6.0).reshape(2, 3)
    b = a.copy()
    before = live_blocks()
    assert rows_sum(a) == rows_sum.py_func(b)
    assert live_blocks() == before
    assert np.array_equal(a, b)


def test_for_loop_targets():
    points = np.arange(10.0).reshape(5, 2)
    assert unpack_in_loop(points) == unpack_in_loop.py_func(points)
    assert unpack_in_loop(points[::2]) == unpack_in_loop.py_func(points[::2])


@pytest.mark.parametrize(("n", "word"), [(2, "not enough"), (4, "too many"), (0, "not enough")])
def test_wrong_length_raises_value_error(n, word):
    a = np.arange(float(n))
    with pytest.raises(ValueError):
        three.py_func(a)
    before = live_blocks()
    with pytest.raises(ValueError, match=word):
        three(a)
    assert live_blocks() == before


def test_zero_dimensional_array_is_refused_at_its_line():
    @taipan.njit
    def scalar_unpack(a):
        p, q = a
        return p + q

    with pytest.raises(taipan.errors.TypingError, match="unpack"):
        scalar_unpack(np.array(1.0))
