"""`x.item()` of a scalar in compiled code: the value itself, as Numba gives it (dcor calls it
on the float64 result of a reduction)."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def item_of_sum(a):
    return a.sum().item()


@taipan.njit
def item_of_element(a, i):
    return a[i].item()


@taipan.njit
def item_of_literal():
    return (
        np.float32(2.5).item(),
        np.int16(-3).item(),
        np.complex128(1 + 2j).item(),
        np.bool_(True).item(),
    )


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.complex128])
def test_item_of_array_scalars(dtype):
    a = np.array([1, 0, 3], dtype=dtype)
    before = live_blocks()
    assert item_of_sum(a) == item_of_sum.py_func(a)
    for i in range(3):
        assert item_of_element(a, i) == item_of_element.py_func(a, i)
    assert live_blocks() == before


@pytest.mark.parametrize("value", [np.nan, -0.0, np.inf, -np.inf])
def test_special_floats(value):
    a = np.array([value])
    got, want = item_of_element(a, 0), item_of_element.py_func(a, 0)
    assert np.array_equal(got, want, equal_nan=True) and np.signbit(got) == np.signbit(want)


def test_literals():
    assert item_of_literal() == item_of_literal.py_func()
