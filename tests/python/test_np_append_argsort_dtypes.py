"""np.append (flattened and along an axis), argsort's kind= (method and function; every kind is
stable in taipan, which each of NumPy's kinds allows, and mergesort/stable require), and dtype
objects held in module globals (``DT = np.dtype(np.float64)``) used by NumPy's constructors, in
compiled code compared with NumPy."""

import numpy as np
import pytest
from conftest import assert_raises_same

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

GRID = np.arange(6.0).reshape(2, 3)


@taipan.njit
def appended(arr, values):
    return np.append(arr, values)


@taipan.njit
def appended_along(arr, values, axis):
    return np.append(arr, values, axis=axis)


def check_array(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


APPENDS = [
    (np.arange(3), np.arange(2.0)),
    (GRID, GRID),
    (GRID, 5),
    (3, (1.0, 2.0)),
    (np.zeros(0, np.float32), np.zeros(0, np.float32)),
    (GRID.T, GRID[:, ::2]),
    (np.array([True]), np.array([False, True])),
    (np.array([1 + 1j]), np.array([np.nan, -0.0])),
    (np.arange(4, dtype=np.int8), np.arange(2, dtype=np.uint8)),
]


@pytest.mark.parametrize("index", range(len(APPENDS)))
def test_append_flat_like_numpy(index):
    arr, values = APPENDS[index]
    before = live_blocks()
    check_array(appended(arr, values), np.append(arr, values))
    assert live_blocks() == before


@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_append_along_an_axis_like_numpy(axis):
    before = live_blocks()
    check_array(appended_along(GRID, GRID, axis), np.append(GRID, GRID, axis=axis))
    other = np.ones((2, 2), dtype=np.int32).T
    if axis in (1, -1):
        check_array(appended_along(GRID, other, axis), np.append(GRID, other, axis=axis))
    check_array(
        appended_along(np.zeros((0, 3)), GRID[:, ::-1], 0),
        np.append(np.zeros((0, 3)), GRID[:, ::-1], 0),
    )
    assert live_blocks() == before


def test_append_errors_like_numpy():
    assert_raises_same(appended_along, GRID, GRID, 2)
    assert_raises_same(appended_along, GRID, np.ones((3, 3)), 1)
    assert_raises_same(appended_along, GRID, np.arange(3.0), 0)


SORTED = [
    np.array([3, 1, 2, 1, 3, 1.0, np.nan, -0.0, 0.0, np.inf, -np.inf, np.nan]),
    np.array([2, 2, 1, 1, 0, 0, 2], dtype=np.int16),
    np.array([True, False, True, False]),
    np.zeros(0),
    np.repeat(np.arange(5, dtype=np.uint8), 7)[::-3],
]


@taipan.njit
def method_kinds(a):
    return (
        a.argsort(kind="mergesort"),
        a.argsort(kind="stable"),
        a.argsort(kind="quicksort"),
        a.argsort(kind="heapsort"),
        a.argsort(kind=None),
        a.argsort(-1, "stable"),
    )


@taipan.njit
def function_kinds(a):
    return np.argsort(a, kind="mergesort"), np.argsort(a, kind="stable"), np.argsort(a, 0)


@pytest.mark.parametrize("index", range(len(SORTED)))
def test_argsort_kinds_are_stable(index):
    a = SORTED[index]
    stable = np.argsort(a, kind="stable")
    before = live_blocks()
    for got in method_kinds(a) + function_kinds(a):
        check_array(got, stable)
    del got
    assert live_blocks() == before


def test_argsort_kind_along_an_axis():
    @taipan.njit
    def along(a):
        return a.argsort(axis=0, kind="mergesort"), a.argsort(axis=None, kind="stable")

    a = np.array([[3, 1, 3], [1, 1, 0], [3, 0, 0.0]])
    got = along(a)
    check_array(got[0], a.argsort(axis=0, kind="stable"))
    check_array(got[1], a.argsort(axis=None, kind="stable"))


def test_argsort_unknown_kind_is_a_typing_error():
    @taipan.njit
    def unknown(a):
        return a.argsort(kind="bogus")

    with pytest.raises(TypingError, match="kind"):
        unknown(np.arange(3))


DT = np.dtype(np.float64)
DI = np.dtype("int32")
DC = np.dtype(np.complex64)
DB = np.dtype(bool)
DU = np.dtype(np.uint8)


@taipan.njit
def built_with_global_dtypes(n):
    return (
        np.empty(n, DT),
        np.zeros(n, dtype=DI),
        np.ones((n, 2), DC),
        np.full(n, 3, DU),
        np.arange(n).astype(DT),
        np.arange(n, dtype=DI),
        np.zeros(n, DB),
        np.asarray(np.arange(n), DT),
        np.empty_like(np.arange(n), DC),
    )


@pytest.mark.parametrize("n", [0, 3])
def test_dtype_objects_as_globals(n):
    before = live_blocks()
    got = built_with_global_dtypes(n)
    want = built_with_global_dtypes.py_func(n)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.dtype == w.dtype and g.shape == w.shape
        if index not in (0, 8):  # np.empty and np.empty_like: contents undefined
            np.testing.assert_array_equal(g, w)
    del got, g
    assert live_blocks() == before
