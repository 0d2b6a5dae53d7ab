"""Number types have no ``dtype`` attribute, as in Numba (code tells arrays from scalars with
``getattr(t, "dtype", t)``: Numba's own tests pick their precision that way); arrays, lists and
the types of NumPy's scalar classes keep theirs. Also np.sinc of a complex number computes in
complex128, as np.sinc of a real number computes in float64 (Numba's scalar rule)."""

import numpy as np
import pytest

import taipan
from taipan import types


@pytest.mark.parametrize(
    "t",
    [types.float32, types.float64, types.int8, types.uint64, types.complex64, types.boolean],
    ids=str,
)
def test_number_types_have_no_dtype(t):
    assert not hasattr(t, "dtype")
    assert getattr(t, "dtype", t) is t
    with pytest.raises(AttributeError, match="dtype"):
        t.dtype  # noqa: B018


def test_containers_keep_their_dtype():
    assert types.Array(types.float32, 2, "C").dtype == types.float32
    assert types.List(types.int64).dtype == types.int64
    assert taipan.typeof(np.float32).dtype == types.float32


@taipan.njit("complex128(complex64)")
def sinc_of_complex64(x):
    return np.sinc(x)


@taipan.njit
def sinc(x):
    return np.sinc(x)


@pytest.mark.parametrize("z", [1 + 0j, 1j, 0.5 + 0.5j, 0j, -0.0 + 0j, 2.5 - 1j])
def test_sinc_of_complex_numbers_in_double_precision(z):
    expected = np.sinc(np.complex128(np.complex64(z)))
    assert sinc_of_complex64(z) == pytest.approx(expected, rel=1e-15, abs=1e-300)
    assert sinc(z) == pytest.approx(np.sinc(z), rel=1e-15, abs=1e-300)


def test_sinc_of_complex64_arrays_stays_complex64():
    a = np.array([1 + 0j, 0.5j, 0j], dtype=np.complex64)
    got = sinc(a)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, np.sinc(a), rtol=1e-6, atol=1e-6)
