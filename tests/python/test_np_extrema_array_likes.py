"""np.ptp, np.nanmin and np.nanmax of array-likes (lists, tuples, nested tuples, numbers,
booleans), as NumPy converts them with np.asarray (Numba's tests pass them)."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def ptp(a):
    return np.ptp(a)


@taipan.njit
def nanmin(a):
    return np.nanmin(a)


@taipan.njit
def nanmax(a):
    return np.nanmax(a)


PTP_INPUTS = [
    (4, 2, 5),
    (1,),
    [2.2, -2.3, 0.1],
    6,
    6.5,
    -np.inf,
    1 + 4j,
    [2.2, np.nan],
    [2.2, np.inf],
    ((4.1, 2.0, -7.6), (4.3, 2.7, 5.2)),
    1 + np.nan * 1j,
    np.nan,
]

NAN_INPUTS = [
    [1, 6, 4, 2],
    ((-10, 4, -12), (5, 200, -30)),
    (2,),
    3.142,
    False,
    True,
    (np.nan, 3.142, -5.2, 3.0),
    [np.inf, np.nan, -np.inf],
    [(np.nan, 1.1), (-4.4, 8.7)],
    [np.nan, np.nan],
]


def check(function, value):
    before = live_blocks()
    got = function(value)
    expected = function.py_func(value)
    assert type(got) is type(expected.item()), (value, got, expected)
    np.testing.assert_array_equal(got, expected)
    assert live_blocks() == before


@pytest.mark.filterwarnings("ignore:invalid value")
@pytest.mark.parametrize("value", PTP_INPUTS, ids=repr)
def test_ptp_of_array_likes(value):
    check(ptp, value)


@pytest.mark.filterwarnings("ignore:All-NaN")
@pytest.mark.parametrize("function", [nanmin, nanmax], ids=lambda f: f.__name__)
@pytest.mark.parametrize("value", NAN_INPUTS, ids=repr)
def test_nan_extrema_of_array_likes(function, value):
    check(function, value)


def test_with_an_axis():
    @taipan.njit
    def along(a):
        return np.ptp(a, 1), np.nanmax(a, 0)

    value = ((4.1, np.nan, -7.6), (4.3, 2.7, 5.2))
    got = along(value)
    expected = along.py_func(value)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)


def test_empty_list_raises_as_numpy():
    @taipan.njit
    def empty_min(n):
        return np.nanmin([float(i) for i in range(n)])

    with pytest.raises(ValueError, match="zero-size array"):
        empty_min(0)
