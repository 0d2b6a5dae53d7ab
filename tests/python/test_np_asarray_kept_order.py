"""np.asarray(a, dtype) and np.array(a[, dtype]) of an array: a copy keeps NumPy's order 'K'
(an F array gives an F copy; C arrays and strided views, whose order typing cannot know, give
C), values converted to the dtype
(NaN, -0.0 kept); np.asarray of the same dtype is the array itself. Counters checked."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def asarray_complex(a):
    return np.asarray(a, dtype=np.complex128)


@taipan.njit
def asarray_float32(a):
    return np.asarray(a, np.float32)


@taipan.njit
def array_copy(a):
    return np.array(a)


@taipan.njit
def array_float64(a):
    return np.array(a, np.float64)


@taipan.njit
def asarray_same(a):
    return np.asarray(a)


def arrays():
    base = np.array([[0.0, -0.0, np.nan, 1.5], [np.inf, -2.0, 3.0, 4.0], [5, 6, 7, 8]])
    yield base
    yield base.T
    yield np.asfortranarray(base)
    yield base[:, ::2]
    yield base.T[::2]
    yield np.arange(24, dtype=np.int32).reshape(2, 3, 4).T
    yield np.zeros((0, 3), order="F")
    yield np.array(2.5)


def strides_fixed(a):
    return tuple(s for s, n in zip(a.strides, a.shape) if n > 1)


@pytest.mark.parametrize("f", [asarray_complex, asarray_float32, array_copy, array_float64])
def test_copies_keep_numpys_order(f):
    before = live_blocks()
    for a in arrays():
        expected = f.py_func(a)
        got = f(a)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert got.tobytes(order="C") == expected.tobytes(order="C")  # NaN, -0.0 kept
        # a strided view's order is known only at run time: its copy is C (as in Numba)
        if expected.size and (a.flags.c_contiguous or a.flags.f_contiguous):
            assert strides_fixed(got) == strides_fixed(expected), (a.strides, got.strides)
        assert not np.shares_memory(got, a)
        del got
    assert live_blocks() == before


def test_asarray_of_the_same_dtype_is_the_array():
    before = live_blocks()
    for a in arrays():
        assert asarray_same(a) is a
    assert live_blocks() == before


@taipan.njit
def like_family(a):
    return np.empty_like(a), np.zeros_like(a), np.ones_like(a, np.int8), np.full_like(a, -0.0)


def test_like_functions_keep_numpys_order():
    before = live_blocks()
    for a in arrays():
        got = like_family(a)
        expected = (np.empty_like(a), np.zeros_like(a), np.ones_like(a, np.int8))
        expected += (np.full_like(a, -0.0),)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype and g.shape == e.shape
            if e.size and (a.flags.c_contiguous or a.flags.f_contiguous):
                assert strides_fixed(g) == strides_fixed(e), (a.strides, g.strides)
        for g, e in zip(got[1:], expected[1:]):
            assert g.tobytes(order="A") == e.tobytes(order="A")
        del got, g
    assert live_blocks() == before
