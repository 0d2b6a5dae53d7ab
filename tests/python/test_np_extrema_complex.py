"""np.min/np.max/np.amin/np.amax/np.argmin/np.argmax and the array methods of complex arrays,
and np.ptp of every dtype, in compiled code compared with NumPy: lexicographic order, the first
NaN-containing element propagating, the first of equal elements kept (-0.0 and 0.0), empty
arrays' errors, non-contiguous arrays."""

import math

import numpy as np
import pytest
from conftest import assert_raises_same

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

nan = float("nan")
inf = float("inf")


@taipan.njit
def extremes(a):
    return np.min(a), np.max(a), np.amin(a), np.amax(a)


@taipan.njit
def methods(a):
    return a.min(), a.max(), a.argmin(), a.argmax()


@taipan.njit
def indices(a):
    return np.argmin(a), np.argmax(a)


@taipan.njit
def smallest(a):
    return np.min(a)


@taipan.njit
def largest_index(a):
    return a.argmax()


@taipan.njit
def peak_to_peak(a):
    return np.ptp(a)


@taipan.njit
def peak_to_peak_along(a, axis):
    return np.ptp(a, axis)


COMPLEX = [
    np.array([1 + 1j, 1 + 0j, 2 - 1j, -0.0 + 0j]),
    np.array([0.0 + 0j, -0.0 + 0j, -0.0 - 0.0j]),
    np.array([1 + 1j, complex(nan, 0), complex(0, nan), -5 + 0j]),
    np.array([complex(0, nan), 1 + 1j]),
    np.array([complex(inf, 0), complex(-inf, 1), complex(-inf, -inf), 0j]),
    np.array([3 + 0j]),
    np.array([2j, 1 + 0j, 1 - 1j, 2j], dtype=np.complex64),
    np.arange(24.0).reshape(2, 3, 4).astype(np.complex128)[:, ::2, ::-1] * (1 - 1j),
    np.array([[1 + 2j, 1 + 2j], [0 + 9j, 0 + 9j]]).T,
]


def same_scalar(got, want):
    got, want = complex(got), complex(want)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if math.isnan(w):
            assert math.isnan(g)
        else:
            assert g == w and math.copysign(1, g) == math.copysign(1, w), (got, want)


@pytest.mark.parametrize("index", range(len(COMPLEX)))
def test_complex_extremes_like_numpy(index):
    a = COMPLEX[index]
    before = live_blocks()
    for got, want in zip(extremes(a), extremes.py_func(a), strict=True):
        same_scalar(got, want)
    got = methods(a)
    want = methods.py_func(a)
    same_scalar(got[0], want[0])
    same_scalar(got[1], want[1])
    assert got[2:] == want[2:]
    assert indices(a) == indices.py_func(a)
    assert live_blocks() == before


def test_complex_result_dtype():
    a = np.array([1 + 1j, 2 + 0j], dtype=np.complex64)
    assert taipan.typeof(smallest(a)) == taipan.typeof(complex(0))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_empty_complex_arrays_raise_like_numpy(dtype):
    empty = np.zeros((0, 2), dtype=dtype)
    for compiled in (extremes, methods, indices, smallest, largest_index, peak_to_peak):
        assert_raises_same(compiled, empty)


@taipan.njit
def along_axis(a, axis):
    return np.min(a, axis), np.max(a, axis=axis), np.argmin(a, axis), a.argmax(axis), a.min(axis)


@pytest.mark.parametrize("index", range(len(COMPLEX)))
def test_complex_extremes_along_an_axis_like_numpy(index):
    a = COMPLEX[index]
    before = live_blocks()
    for axis in range(-a.ndim, a.ndim):
        for got, want in zip(along_axis(a, axis), along_axis.py_func(a, axis), strict=True):
            if a.ndim == 1:
                same_scalar(got, want) if np.iscomplexobj(want) else None
                assert np.iscomplexobj(want) or got == want
                continue
            assert got.dtype == want.dtype and got.shape == want.shape
            for g, w in zip(got.ravel(), want.ravel(), strict=True):
                same_scalar(g, w)
        del got
    assert live_blocks() == before


def test_complex_axis_errors_like_numpy():
    a = np.ones((2, 0, 3), dtype=np.complex128)
    for axis in (1, 3, -4):
        assert_raises_same(along_axis, a, axis)
    got = along_axis(a, 0)
    want = along_axis.py_func(a, 0)
    assert [g.shape for g in got] == [w.shape for w in want]


PTP = [
    np.array([-128, 127], dtype=np.int8),
    np.array([0, 255], dtype=np.uint8),
    np.array([3, -7, 12], dtype=np.int64),
    np.array([1.0, nan, 2.0]),
    np.array([-0.0, 0.0]),
    np.array([-inf, 1.0]),
    np.array([inf, inf]),
    np.arange(12.0, dtype=np.float32).reshape(3, 4).T,
    np.arange(24, dtype=np.int16).reshape(2, 3, 4)[:, ::2, 1:],
    COMPLEX[0],
    COMPLEX[2],
    COMPLEX[6],
]


def check_ptp(got, want):
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        return
    # (compiled code returns scalars as Python numbers, as Numba does: the value is compared)
    if isinstance(want, (complex, np.complexfloating)):
        same_scalar(got, want)
    elif math.isnan(want):
        assert math.isnan(got)
    else:
        assert got == want


@pytest.mark.parametrize("index", range(len(PTP)))
def test_ptp_like_numpy(index):
    a = PTP[index]
    before = live_blocks()
    check_ptp(peak_to_peak(a), np.ptp(a))
    for axis in range(-a.ndim, a.ndim):
        got, want = peak_to_peak_along(a, axis), np.ptp(a, axis)
        if a.dtype.kind == "c" and a.ndim > 1:
            assert got.dtype == want.dtype and got.shape == want.shape
            for g, w in zip(got.ravel(), want.ravel(), strict=True):
                same_scalar(g, w)
        else:
            check_ptp(got, want)
        del got
    assert live_blocks() == before


def test_ptp_errors_like_numpy():
    assert_raises_same(peak_to_peak, np.zeros(0))
    assert_raises_same(peak_to_peak_along, np.zeros((2, 0)), 1)
    assert_raises_same(peak_to_peak_along, np.zeros((2, 3)), 2)
    with pytest.raises(TypingError, match="ptp"):
        peak_to_peak(np.array([True, False]))
