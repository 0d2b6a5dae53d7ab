"""np.asarray and np.array of complex items into a real dtype: refused while compiling, at the
user's line, as Numba refuses them (NumPy drops the imaginary part with a ComplexWarning); the
conversions that keep every part still compile and match NumPy."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def as_float32(a):
    return np.asarray(a, np.float32)


@taipan.njit
def array_as_float64(a):
    return np.array(a, dtype=np.float64)


@taipan.njit
def as_complex64(a):
    return np.asarray(a, np.complex64)


@pytest.mark.parametrize("function", [as_float32, array_as_float64])
@pytest.mark.parametrize("value", [np.ones(3, np.complex128), np.complex64(1 + 2j)])
def test_complex_into_real_is_refused_at_the_line(function, value):
    with pytest.raises(taipan.errors.TypingError, match="imaginary part") as raised:
        function(value)
    assert "return np." in str(raised.value)  # the user's line is quoted


@pytest.mark.parametrize(
    "a",
    [
        np.array([1 + 2j, np.nan, -0.0 - 1j, np.inf]),
        np.arange(4.0)[::2],
        np.array([], dtype=np.complex128),
    ],
)
def test_conversions_keeping_every_part(a):
    before = live_blocks()
    got, want = as_complex64(a), as_complex64.py_func(a)
    assert got.dtype == want.dtype
    assert np.array_equal(got, want, equal_nan=True)
    del got
    assert live_blocks() == before
