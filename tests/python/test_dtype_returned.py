"""A dtype returned to Python: `a.dtype` and NumPy's scalar classes (np.float32) are
compile-time values in compiled code; returned, they box as np.dtype objects, as Numba boxes its
DType and NumberClass. A record array's `a.dtype` is its dtype object, usable as a dtype."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

RECORD = np.dtype([("x", np.int8), ("y", np.float64)])

ARRAYS = [
    np.zeros(3, np.float32),
    np.zeros((2, 2), np.int16),
    np.zeros(2, np.uint64),
    np.zeros(2, np.bool_),
    np.zeros(2, np.complex64),
    np.zeros(0, np.float16),
    np.zeros(4, RECORD),
    np.zeros(2, "M8[ns]"),
    np.zeros(2, "m8[W]"),
    np.zeros((3, 4), np.float64)[:, ::2],
]


@taipan.njit
def dtype_of(a):
    return a.dtype


@pytest.mark.parametrize("array", ARRAYS, ids=lambda a: str(a.dtype))
def test_array_dtype_is_returned_as_numpy_dtype(array):
    before = live_blocks()
    got = dtype_of(array)
    assert type(got) is type(array.dtype)
    assert got == array.dtype
    assert live_blocks() == before


@pytest.mark.parametrize("dtype", ["f4", "f8", "c8", "c16"])
def test_dtype_of_a_result_is_returned(dtype):
    @taipan.njit
    def angle_dtype(x):
        return np.angle(x).dtype

    x = np.array([1.0], dtype=dtype)
    assert angle_dtype(x) == angle_dtype.py_func(x)
    assert isinstance(angle_dtype(x), np.dtype)


def test_scalar_classes_are_returned_as_dtypes_as_numba_does():
    @taipan.njit
    def classes():
        return np.float32, np.int8, np.bool_

    assert classes() == (np.dtype(np.float32), np.dtype(np.int8), np.dtype(np.bool_))
    assert all(isinstance(d, np.dtype) for d in classes())


def test_dtype_in_a_tuple_with_values():
    @taipan.njit
    def described(a):
        return a.shape, a.dtype, a.sum()

    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert described(a) == ((2, 3), np.dtype(np.int32), 15)


def test_record_dtype_makes_arrays():
    @taipan.njit
    def like(a, n):
        b = np.zeros(n, a.dtype)
        return b, a.dtype

    a = np.zeros(2, RECORD)
    before = live_blocks()
    b, d = like(a, 3)
    assert b.dtype == RECORD and d == RECORD and b.shape == (3,)
    del b
    assert live_blocks() == before


def test_dtype_of_a_record_array_is_still_usable_in_comparisons():
    @taipan.njit
    def same_dtype(a, b):
        return a.dtype == b.dtype

    assert same_dtype(np.zeros(2, RECORD), np.zeros(3, RECORD))


def test_tuple_with_a_dtype_returned_to_compiled_code_keeps_its_values():
    # The callee's result holds a compile-time item; its other items were once left unstored.
    @taipan.njit
    def shape_and_dtype(a):
        return a.dtype, a.size + 5, np.float32

    @taipan.njit
    def caller(a):
        d, n, _f = shape_and_dtype(a)
        return np.zeros(n, d), n

    before = live_blocks()
    made, n = caller(np.zeros(3, np.int16))
    assert n == 8 and made.dtype == np.int16 and made.shape == (8,)
    del made
    assert live_blocks() == before
