"""Array methods of Numba's page that NumPy 2 dropped or taipan lacked: ``a.ptp()`` (np.ptp),
``a.itemset(value)`` (the one-argument form: a size-1 array's item) and ``a.transpose(axes)``,
``a.transpose(i, j, ...)``."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@pytest.mark.parametrize(
    "a",
    [np.array([3, -1, 7, 2]), np.arange(12.0).reshape(3, 4) - 5.5, np.array([[1.5]])],
    ids=["int", "float2d", "one"],
)
def test_ptp_method_is_np_ptp(a):
    got = taipan.njit(lambda a: a.ptp())(a)
    assert got == np.ptp(a) and type(got) is type(np.ptp(a).item())


def test_ptp_of_empty_array_raises_as_np_ptp():
    with pytest.raises(ValueError):
        np.ptp(np.zeros(0))
    with pytest.raises(ValueError):
        taipan.njit(lambda a: a.ptp())(np.zeros(0))


@pytest.mark.parametrize("a", [np.array([1.5]), np.array([[7]]), np.arange(6.0)[2:3]])
def test_itemset_sets_the_only_item(a):
    @taipan.njit
    def set_item(a, value):
        a.itemset(value)

    before = live_blocks()
    set_item(a, 4)
    assert a.ravel()[0] == 4
    assert live_blocks() == before


def test_itemset_of_several_items_raises():
    @taipan.njit
    def set_item(a):
        a.itemset(1.0)

    with pytest.raises(ValueError, match="size 1"):
        set_item(np.zeros(2))


def test_transpose_with_axes():
    @taipan.njit
    def transposed(a):
        return a.transpose((1, 0, 2)), a.transpose(2, 0, 1), a.transpose(), a.transpose([0, 2, 1])

    a = np.arange(24.0).reshape(2, 3, 4)
    for got, want in zip(transposed(a), transposed.py_func(a)):
        assert got.shape == want.shape and got.strides == want.strides
        np.testing.assert_array_equal(got, want)
    got = transposed(a)[0]
    got[0, 0, 0] = -1.0  # a view, as NumPy's
    assert a[0, 0, 0] == -1.0


def test_transpose_with_bad_axes_raises_as_numpy():
    @taipan.njit
    def transposed(a, i):
        return a.transpose(i, 0)

    with pytest.raises(ValueError):
        transposed(np.zeros((2, 3)), 0)  # repeated axis
    with pytest.raises(ValueError):
        transposed(np.zeros((2, 3)), 5)
