"""np.zeros_like of arrays of records (and with a record dtype given), and np.empty_like /
np.zeros_like of a 0-d array of records (typed as one record): NumPy's dtype, shape, zeroed
fields and strides; writes to the result do not reach the prototype. The *_like functions keep
an F prototype's order (NumPy's order 'K'). Counters checked."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

RECORD = np.dtype([("a", np.int16), ("b", np.float32)])


@taipan.njit
def zeros_like(a):
    return np.zeros_like(a)


@taipan.njit
def zeros_like_record(a):
    return np.zeros_like(a, RECORD)


@taipan.njit
def empty_like(a):
    return np.empty_like(a)


@taipan.njit
def zeros_like_floats(a):
    return np.zeros_like(a, np.float64)


def prototypes(dtype):
    base = np.linspace(0, 5, 6).astype(dtype)
    yield base
    yield base.reshape(2, 3)
    yield base.reshape(3, 1, 2)
    yield base.reshape(2, 3)[:, ::2]
    yield base[-1:].reshape(())


@pytest.mark.parametrize("f", [zeros_like, empty_like])
def test_like_of_records(f):
    before = live_blocks()
    for a in prototypes(RECORD):
        expected = f.py_func(a)
        got = f(a)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        if f is zeros_like:
            np.testing.assert_array_equal(got, expected)
        got["a"] = 7  # writable, and not the prototype's memory
        assert not np.any(a["a"] == 7)
        del got
    assert live_blocks() == before


def test_zeros_like_with_a_record_dtype():
    before = live_blocks()
    for a in prototypes(np.float64):
        expected = np.zeros_like(a, RECORD)
        got = zeros_like_record(a)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        del got
    assert live_blocks() == before


def test_zeros_like_of_numbers_is_all_zero_bits_in_numpys_order():
    before = live_blocks()
    for a in (np.full((2, 3), np.nan), np.full(4, -0.0), np.asfortranarray(np.ones((2, 2)))):
        got = zeros_like_floats(a)
        assert got.tobytes() == np.zeros_like(a).tobytes()  # +0.0, never -0.0 or NaN
        assert got.flags.f_contiguous == np.zeros_like(a).flags.f_contiguous
        del got
    assert live_blocks() == before
