"""NumPy's scalar classes called on an array (``np.float32(a)``): a new array of that dtype, as
NumPy's a.astype gives (Numba's page: "with a numeric input ... or a sequence"); numbers still
give numbers."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

CLASSES = [
    np.bool_,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.intc,
    np.intp,
    np.uintc,
    np.uintp,
    np.float32,
    np.float64,
    np.complex64,
    np.complex128,
]

SOURCES = [
    np.array([3, 0, 7, 1]),
    np.array([[1.5, 0.0], [2.25, 7.75]]),
    np.array([True, False, True]),
    np.arange(6.0)[::2],  # not contiguous
]


@pytest.mark.parametrize("scalar_class", CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("source", SOURCES, ids=["int", "float2d", "bool", "strided"])
def test_array_argument(scalar_class, source):
    function = taipan.njit(lambda a: scalar_class(a))
    before = live_blocks()
    got = function(source)
    want = scalar_class(source)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    got[...] = 0  # a new array, not a view of the argument
    assert not np.array_equal(source, np.zeros_like(source)) or source.size == 0
    del got
    assert live_blocks() == before


def test_fortran_order_is_kept_as_astype_keeps_it():
    a = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    got = taipan.njit(lambda a: np.int32(a))(a)
    assert got.flags.f_contiguous and got.dtype == np.int32
    np.testing.assert_array_equal(got, a.astype(np.int32))


def test_numbers_still_give_numbers():
    @taipan.njit
    def of_number(x):
        return np.float32(x), np.int8(x), np.complex64(x)

    assert of_number(2.5) == of_number.py_func(2.5)
