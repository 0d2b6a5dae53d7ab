"""np.flatnonzero and np.argwhere of None and of strings (NumPy makes a 0-d array of the value,
whose one item is nonzero when the value is true), beside numbers and sequences; and a.ravel()
/ np.ravel of a read-only C array is a read-only view (NumPy's), while a copy (F arrays, strided
views) is writable. Compared with NumPy; counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def flatnonzero(a):
    return np.flatnonzero(a)


@taipan.njit
def argwhere(a):
    return np.argwhere(a)


@taipan.njit
def of_constants():
    return np.argwhere("xy"), np.flatnonzero(""), np.argwhere(None), np.flatnonzero(None)


VALUES = [None, "a_string", "", "0", 0, 1, np.nan, -0.0, 2 + 1j, False, (), (0.0, 1.0, -6.0)]


@pytest.mark.parametrize("a", VALUES, ids=repr)
@pytest.mark.parametrize("f", [flatnonzero, argwhere])
def test_like_numpy(f, a):
    before = live_blocks()
    expected = f.py_func(a)
    got = f(a)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    del got
    assert live_blocks() == before


def test_constants_inside_compiled_code():
    before = live_blocks()
    results = of_constants()
    for got, expected in zip(results, of_constants.py_func()):
        assert got.dtype == expected.dtype and got.shape == expected.shape
    del results, got
    assert live_blocks() == before


@taipan.njit
def method_ravel(a):
    return a.ravel()


@taipan.njit
def function_ravel(a):
    return np.ravel(a)


@taipan.njit
def ravel_and_write(a):
    b = a.ravel()
    b[0] = 5
    return b


def read_only(a):
    a = a.copy(order="K")
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("f", [method_ravel, function_ravel])
def test_ravel_is_read_only_exactly_when_numpy_views(f):
    base = np.arange(12.0).reshape(3, 4)
    before = live_blocks()
    for a in (read_only(base), read_only(np.asfortranarray(base)), read_only(base)[::2], base):
        expected = np.ravel(a)
        got = f(a)
        np.testing.assert_array_equal(got, expected)
        assert got.flags.writeable == expected.flags.writeable, (a.flags, got.flags)
        assert np.shares_memory(got, a) == np.shares_memory(expected, a)
        del got
    assert live_blocks() == before


def test_writing_through_a_read_only_ravel_is_a_typing_error():
    with pytest.raises(TypingError, match="read-only"):
        ravel_and_write(read_only(np.ones((2, 2))))
    got = ravel_and_write(np.ones((2, 2)))  # a writable array's ravel stays writable
    assert got[0] == 5
