"""np.datetime64 and np.timedelta64 globals (and closure values) in compiled code: frozen as
their count of units with their unit (NaT included), so arithmetic and comparisons with them
are NumPy's."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError

DATES = [
    np.datetime64("2001-01-01"),
    np.datetime64("NaT", "D"),
    np.datetime64("2020-02-29T12:30", "m"),
    np.datetime64("1969-12-31T23:59:59.999", "ms"),
    np.datetime64(-5, "W"),
]
DELTAS = [
    np.timedelta64(4, "D"),
    np.timedelta64(-4, "D"),
    np.timedelta64("NaT", "D"),
    np.timedelta64(0, "s"),
    np.timedelta64(7, "W"),
    np.timedelta64(3, "M"),
]


def adder(constant):
    def add_constant(x):
        return x + constant

    return taipan.njit(add_constant)


def compare(constant):
    def compare_constant(x):
        return x < constant, x == constant, constant

    return taipan.njit(compare_constant)


@pytest.mark.parametrize("constant", DATES + DELTAS, ids=repr)
def test_added_to_a_timedelta_like_numpy(constant):
    f = adder(constant)
    for x in (np.timedelta64(4, "D"), np.timedelta64("NaT", "D"), np.timedelta64(-90, "s")):
        try:
            expected = f.py_func(x)
        except TypeError:  # NumPy refuses timedeltas of years or months with day-based units
            with pytest.raises(TypingError):
                f(x)
            continue
        got = f(x)
        assert type(got) is type(expected) and got.dtype == expected.dtype
        assert (np.isnat(got) and np.isnat(expected)) or got == expected


@pytest.mark.parametrize("constant", DATES, ids=repr)
def test_compared_and_returned_like_numpy(constant):
    f = compare(constant)
    x = np.datetime64("2001-01-02")
    got = f(x)
    expected = f.py_func(x)
    assert got[:2] == expected[:2]
    assert got[2].dtype == constant.dtype
    assert (np.isnat(got[2]) and np.isnat(constant)) or got[2] == constant


def test_tuple_of_datetime_globals():
    pair = (np.datetime64("2001-01-01", "D"), np.timedelta64(2, "h"))

    @taipan.njit
    def shifted():
        return pair[0] + pair[1]

    assert shifted() == shifted.py_func()
    assert shifted().dtype == shifted.py_func().dtype
