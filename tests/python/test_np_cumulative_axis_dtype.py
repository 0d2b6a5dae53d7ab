"""cumsum and cumprod with ``axis`` and ``dtype``, as functions and as array methods
(a.cumsum(axis=..., dtype=...), a.cumsum(*args)): NumPy's result dtype (the given one, else
int64/uint64 for small integers and booleans), every axis of C, F and strided arrays, NaN and
-0.0 kept, empty arrays, and the flattened form without an axis. Counters checked."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def method_sum(a, axis, dtype):
    return a.cumsum(axis=axis, dtype=dtype)


@taipan.njit
def method_prod(a, axis, dtype):
    return a.cumprod(axis=axis, dtype=dtype)


@taipan.njit
def function_sum(a, axis, dtype):
    return np.cumsum(a, axis, dtype)


@taipan.njit
def method_star(a, *args):
    return a.cumsum(*args)


@taipan.njit
def method_dtype_string(a):
    return a.cumsum(dtype="float32")


def arrays(dtype):
    base = (np.arange(24) % 5 - 2).astype(dtype).reshape(2, 3, 4)
    yield base
    yield np.asfortranarray(base)
    yield base.T
    yield base[:, ::-1, ::2]
    yield base[0]
    yield base[0, 0]
    yield np.zeros((0, 3), dtype)


# the input dtype -> the dtypes NumPy accumulates it in without a complex-to-real cast
OUT_DTYPES = {
    np.float64: [np.float64, np.float32, np.complex128],
    np.float32: [np.float64, np.float32],
    np.int64: [np.float64, np.int64, np.float32],
    np.int32: [np.float64, np.int64, np.int32, np.int8],
    np.uint32: [np.float64, np.int64, np.uint32],
    np.bool_: [np.float64, np.int64, np.int32, np.bool_],
    np.complex64: [np.complex64, np.complex128],
}


def check(f, a, axis, dtype):
    expected = f.py_func(a, axis, dtype)
    got = f(a, axis, dtype)
    assert got.dtype == expected.dtype, (a.dtype, axis, dtype, got.dtype, expected.dtype)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", list(OUT_DTYPES))
def test_axis_and_dtype(dtype):
    before = live_blocks()
    for a in arrays(dtype):
        for out in OUT_DTYPES[dtype] + [None]:
            for axis in [None] + list(range(-a.ndim, a.ndim)):
                check(method_sum, a, axis, out)
                check(method_prod, a, axis, out)
                check(function_sum, a, axis, out)
    assert live_blocks() == before


def test_special_values():
    a = np.array([[1.0, np.nan, -0.0], [-0.0, -0.0, np.inf]])
    before = live_blocks()
    for axis in (None, 0, 1):
        for out in (None, np.float32):
            got = method_sum(a, axis, out)
            expected = a.cumsum(axis=axis, dtype=out)
            assert got.tobytes() == expected.tobytes()  # NaN propagates, -0.0 + -0.0 is -0.0
    del got
    assert live_blocks() == before


def test_star_arguments_and_defaults():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    before = live_blocks()
    for args in ((), (0,), (1,), (1, np.float64), (None, np.int32)):
        expected = a.cumsum(*args)
        got = method_star(a, *args)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    got = method_dtype_string(a)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, a.cumsum(dtype="float32"))
    del got
    assert live_blocks() == before


def test_axis_out_of_range_is_numpys_axis_error():
    a = np.ones((2, 3))
    with pytest.raises(np.exceptions.AxisError) as expected:
        a.cumsum(axis=2, dtype=np.float64)
    with pytest.raises(np.exceptions.AxisError) as got:
        method_sum(a, 2, np.float64)
    assert str(got.value) == str(expected.value)
