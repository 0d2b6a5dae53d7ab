"""np.eye's dtype given as a number (np.complex64(1)): NumPy reads the scalar's dtype, and
Numba's eye takes any number as its dtype; the result has the number's type."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

DTYPES = [None, np.complex128, np.complex64(1), np.float32(2), np.int8(3), np.uint16(0)]


@pytest.mark.parametrize("dt", DTYPES, ids=repr)
def test_eye_dtype_default_of_a_number(dt):
    def func(n, dtype=dt):
        return np.eye(n, dtype=dtype)

    compiled = taipan.njit(func)
    before = live_blocks()
    for n in (0, 1, 3):
        got = compiled(n)
        expected = func(n)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
        del got
    assert live_blocks() == before


def test_eye_dtype_number_argument_with_m_and_k():
    @taipan.njit
    def eye(n, m, k, like):
        return np.eye(n, m, k, like)

    for like in (np.float32(1), np.int16(1), np.complex64(1)):
        got = eye(3, 4, 1, like)
        expected = np.eye(3, 4, 1, dtype=np.asarray(like).dtype)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


def test_identity_still_refuses_a_number():
    @taipan.njit
    def identity(n, like):
        return np.identity(n, like)

    with pytest.raises(taipan.errors.TypingError, match="dtype must be a NumPy scalar type"):
        identity(2, np.float32(1))
