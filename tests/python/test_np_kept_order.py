"""Memory order of new arrays as NumPy gives it (order 'K'): np.copy(a), a.astype() and the
ufunc calls np.where / np.add(...) keep a Fortran-ordered input Fortran-ordered (a.copy() is C);
the allocation itself honours an F type (strides from the first axis). Also a.astype between
datetime64/timedelta64 and numbers (the count of units; NaN <-> NaT). Values, dtypes and strides
compared with NumPy; counters checked."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


def strides_fixed(a):
    """Strides with those of axes of extent <= 1 left out (they may be anything)."""
    return tuple(s for s, n in zip(a.strides, a.shape) if n > 1)


def same_layout(got, expected):
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    if expected.size:  # (an empty array's strides mean nothing; NumPy's may be 0)
        assert strides_fixed(got) == strides_fixed(expected), (got.strides, expected.strides)


def arrays():
    base = np.arange(24, dtype=np.int16)
    yield base
    yield base.reshape(3, 8)
    yield base.reshape(3, 8).T
    yield base.reshape(3, 8)[::2]
    yield base.reshape(2, 3, 4)
    yield base.reshape(2, 3, 4).T
    yield base.reshape(2, 3, 4)[::2]
    yield np.asfortranarray(base.reshape(2, 3, 4))
    yield np.zeros((0, 3), order="F", dtype=np.int16)
    yield np.array(5, dtype=np.int16)


@taipan.njit
def np_copy(a):
    return np.copy(a)


@taipan.njit
def method_copy(a):
    return a.copy()


@taipan.njit
def astype_float32(a):
    return a.astype(np.float32)


@taipan.njit
def astype_complex(a):
    return a.astype("complex128")


@pytest.mark.parametrize("f", [np_copy, method_copy, astype_float32, astype_complex])
def test_copies_keep_numpys_order(f):
    before = live_blocks()
    for a in arrays():
        same_layout(f(a), f.py_func(a))
    assert live_blocks() == before


@taipan.njit
def where3(c, x, y):
    return np.where(c, x, y)


@taipan.njit
def add_then_scale(x, y):
    z = np.add(x, y)
    z[0, 0] = 100  # written through the F strides
    return z


@taipan.njit
def sin_of(x):
    return np.sin(x)


def test_ufunc_calls_of_fortran_arrays_are_fortran():
    x = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    y = np.asfortranarray(np.ones((3, 4)))
    c = np.asfortranarray(x > 4)
    before = live_blocks()
    same_layout(where3(c, x, y), np.where(c, x, y))
    same_layout(where3(c, x, 2.5), np.where(c, x, 2.5))
    same_layout(where3(c, 1, 2), np.where(c, 1, 2))
    same_layout(add_then_scale(x, y), add_then_scale.py_func(x, y))
    same_layout(sin_of(x), np.sin(x))
    x3 = np.asfortranarray(np.arange(24.0).reshape(2, 3, 4))
    same_layout(sin_of(x3), np.sin(x3))
    # mixed orders: NumPy's C wins
    xc = np.ascontiguousarray(x)
    same_layout(where3(c, xc, y), np.where(c, xc, y))
    same_layout(where3(np.ascontiguousarray(c), x, y), np.where(np.ascontiguousarray(c), x, y))
    # 1-d operands do not decide
    same_layout(where3(c, x, np.arange(4.0)), np.where(c, x, np.arange(4.0)))
    assert live_blocks() == before


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 3, 4), (0, 2)])
def test_where_values_across_shapes(order, shape):
    rng = np.random.default_rng(1)
    c = np.asarray(rng.random(shape) > 0.5, order=order)
    x = np.asarray(rng.random(shape), order=order)
    y = np.asarray(rng.integers(0, 9, shape), order=order)
    before = live_blocks()
    got, expected = where3(c, x, y), np.where(c, x, y)
    if expected.ndim:
        same_layout(got, expected)
    else:
        np.testing.assert_array_equal(got, expected)
    del got
    assert live_blocks() == before


@taipan.njit
def to_int64(a):
    return a.astype(np.int64)


@taipan.njit
def to_int(a):
    return a.astype(int)


@taipan.njit
def to_float(a):
    return a.astype(np.float64)


@taipan.njit
def to_seconds(a):
    return a.astype("m8[s]")


@taipan.njit
def to_days(a):
    return a.astype("M8[D]")


def test_astype_between_datetimes_and_numbers():
    td = np.array([1, -2, 0, np.timedelta64("NaT")], "m8[s]")
    dt = np.array(["2020-01-01", "NaT", "1969-12-31"], "M8[D]")
    before = live_blocks()
    for f in (to_int64, to_int, to_float):
        for a in (td, dt, td[::-1], np.array([], "m8[ms]")):
            same_layout(f(a), f.py_func(a))
    for a in (np.array([1.9, -2.5, np.nan, 0.0]), np.arange(4), np.array([True, False])):
        same_layout(to_seconds(a), to_seconds.py_func(a))
    same_layout(to_days(np.arange(-2, 3)), to_days.py_func(np.arange(-2, 3)))
    assert live_blocks() == before


@taipan.njit
def to_int32(a):
    return a.astype(np.int32)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_astype_of_complex_to_reals_keeps_the_real_part():
    before = live_blocks()
    for a in (np.array([1 + 2j, -3.5 - 1j, np.nan + 1j]), np.arange(6, dtype=np.complex64)[::2]):
        same_layout(to_float(a), to_float.py_func(a))
        same_layout(to_int32(a[:2]), to_int32.py_func(a[:2]))
    assert live_blocks() == before


def test_where_of_numbers_is_a_zero_d_array():
    before = live_blocks()
    for args in [(True, 4, 5), (0.0, 4.5, 5), (1, 2.5, 3j), (np.array(1.5), 1, 2)]:
        got, expected = where3(*args), np.where(*args)
        assert isinstance(got, np.ndarray) and got.shape == ()
        assert got.dtype == expected.dtype and got == expected
    del got
    assert live_blocks() == before
