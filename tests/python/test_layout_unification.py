"""A variable, return or conditional expression that holds arrays of one dtype and ndim but
different layouts has the 'A' layout, as in Numba; read-only arrays stay read-only."""

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError

TABLE = np.arange(5.0)


@njit
def strided_or_whole(a, whole):
    if whole:
        x = a
    else:
        x = a[::2]
    return x.sum(), x.shape[0]


@njit
def returned(a, whole):
    if whole:
        return a
    return a[::2]


@njit
def chosen(a, whole):
    x = a.cumsum() if whole else a.T[::-1]
    return x


@njit
def existing_or_new(q, n, size):
    w = q if size < 0 else np.empty(n)
    return w.shape[0]


@pytest.mark.parametrize("whole", [True, False])
def test_mixed_layouts_unify_to_any(whole):
    a = np.arange(6.0)
    assert strided_or_whole(a, whole) == strided_or_whole.py_func(a, whole)
    np.testing.assert_array_equal(returned(a, whole), returned.py_func(a, whole))
    np.testing.assert_array_equal(chosen(a, whole), chosen.py_func(a, whole))
    assert existing_or_new(a, 4, -1 if whole else 1) == existing_or_new.py_func(
        a, 4, -1 if whole else 1
    )


def test_read_only_arrays_stay_read_only():
    @njit
    def write(a, use_table):
        x = TABLE if use_table else a
        x[0] = 1.0
        return x

    with pytest.raises(TypingError):
        write(np.zeros(5), True)
