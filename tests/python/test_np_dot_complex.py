"""np.dot and the @ operator of complex arrays (Numba's take complex64 and complex128, 1-D and
2-D, of one dtype), compared with NumPy's."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

RNG = np.random.default_rng(3)


def complex_array(shape, dtype):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize(
    "left, right",
    [
        ((5,), (5,)),
        ((3, 4), (4,)),
        ((4,), (4, 2)),
        ((3, 4), (4, 2)),
        ((0, 3), (3, 2)),
        ((2,), (2, 0)),
    ],
)
def test_dot_matches_numpy(dtype, left, right):
    a, b = complex_array(left, dtype), complex_array(right, dtype)
    function = taipan.njit(lambda a, b: np.dot(a, b))
    before = live_blocks()
    got = function(a, b)
    want = np.dot(a, b)
    if want.ndim == 0:  # a number comes back as Python's complex, as Numba's does
        assert type(got) is complex
    else:
        assert got.dtype == want.dtype and got.shape == want.shape
    tolerance = 1e-5 if dtype == np.complex64 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)
    del got
    assert live_blocks() == before


def test_strided_operands():
    a = complex_array((4, 6), np.complex128)[:, ::2]
    b = complex_array((6, 3), np.complex128)[::2].T.copy().T
    got = taipan.njit(lambda a, b: np.dot(a, b))(a, b)
    np.testing.assert_allclose(got, np.dot(a, b), rtol=1e-12)


def test_misaligned_shapes_raise_value_error():
    function = taipan.njit(lambda a, b: np.dot(a, b))
    with pytest.raises(ValueError):
        np.dot(np.ones(3, complex), np.ones(4, complex))
    with pytest.raises(ValueError, match="not aligned"):
        function(np.ones(3, complex), np.ones(4, complex))


def test_method_form():
    a = complex_array((3, 3), np.complex128)
    np.testing.assert_allclose(taipan.njit(lambda a: a.dot(a))(a), a.dot(a), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_matmul_operator(dtype):
    a = complex_array((3, 4), dtype)
    b = complex_array((4, 2), dtype)
    v = complex_array((4,), dtype)

    @taipan.njit
    def products(a, b, v):
        return a @ b, a @ v, v @ b, v @ v

    tolerance = 1e-5 if dtype == np.complex64 else 1e-12
    for got, want in zip(products(a, b, v), products.py_func(a, b, v)):
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)


def test_mixed_dtypes_are_refused():
    with pytest.raises(taipan.TypingError, match="of one dtype"):
        taipan.njit(lambda a, b: np.dot(a, b))(np.ones(2, complex), np.ones(2))
