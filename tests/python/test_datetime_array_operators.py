"""Operators on arrays of datetime64/timedelta64 (`dt_array + td`, `dt - dt`, `td / td`,
`td * n`, `td // td`, `td % td`, comparisons), item by item with the scalar operators' rules:
NumPy's result dtypes and units (the finer unit; years and months with each other), NaT
propagating (and unordered in comparisons), division by zero giving NaT; mismatched kinds and
units that NumPy refuses are TypingErrors. np.searchsorted of datetime arrays with datetime
keys (NaT sorts last). Compared with NumPy; counters checked."""

import operator
import warnings

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

NAT = np.iinfo(np.int64).min

DATES = np.array(["2020-01-01", "NaT", "1969-12-31", "2000-02-29"], "M8[D]")
DAYS = np.array([1, -5, 0, NAT], "m8[D]")
HOURS = np.array([1, 2, 30, -4], "m8[h]")
MONTHS = np.array([1, -2, NAT, 7], "m8[M]")
YEARS = np.array([1, 0, 3, -1], "m8[Y]")

OPERATORS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
}

CASES = [
    ("+", DATES, DAYS),
    ("+", DAYS, DATES),
    ("+", DATES, np.timedelta64(2, "D")),
    ("+", DATES, HOURS),
    ("+", DATES[::-1], DAYS[:, None]),
    ("-", DATES, DATES[::-1]),
    ("-", DATES, HOURS),
    ("-", DATES, np.datetime64("2000-01-01T12", "h")),
    ("+", MONTHS, YEARS),
    ("-", YEARS, MONTHS),
    ("*", DAYS, 3),
    ("*", 2.5, HOURS),
    ("*", HOURS, np.array([0.5, np.nan, -1.0, 2.0])),
    ("/", MONTHS, MONTHS[::-1]),
    ("/", MONTHS, YEARS),
    ("/", YEARS, MONTHS),
    ("/", MONTHS, 2),
    ("/", HOURS, np.array([1, 0, 3, 2])),
    ("/", HOURS, np.array([1.5, 0.0, np.nan, -2.0])),
    ("/", DAYS, HOURS),
    ("//", HOURS, np.array([7, 1, -3, 2], "m8[h]")),
    ("%", HOURS, np.array([7, 1, -3, 2], "m8[h]")),
    ("<", DATES, DATES[::-1]),
    ("<=", DATES, np.datetime64("2000-01-01")),
    ("==", DATES, DATES),
    ("!=", DATES, DATES),
    (">", HOURS, DAYS),
    ("==", MONTHS, YEARS),
]


def jitted(symbol):
    function = OPERATORS[symbol]
    return taipan.njit(lambda a, b: function(a, b))


@pytest.mark.parametrize("symbol, a, b", CASES, ids=lambda x: x if isinstance(x, str) else "")
def test_like_numpy(symbol, a, b):
    f = jitted(symbol)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = OPERATORS[symbol](a, b)
    before = live_blocks()
    got = f(a, b)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(got, expected)  # NaN where NumPy has NaN
    else:
        assert got.tobytes() == expected.tobytes()  # NaT exactly where NumPy has it
    del got
    assert live_blocks() == before


@pytest.mark.parametrize(
    "symbol, a, b",
    [
        ("+", DATES, DATES),
        ("+", DAYS, MONTHS),
        ("-", DAYS, DATES),
        ("*", DAYS, DAYS),
        ("/", DATES, DAYS),
        ("<", DATES, DAYS),
        ("+", DATES, np.ones(4)),
    ],
)
def test_numpys_refusals_are_typing_errors(symbol, a, b):
    with pytest.raises(TypeError):
        OPERATORS[symbol](a, b)
    with pytest.raises(TypingError):
        jitted(symbol)(a, b)


@taipan.njit
def searchsorted(a, v):
    return np.searchsorted(a, v)


@taipan.njit
def searchsorted_right(a, v):
    return np.searchsorted(a, v, side="right")


@pytest.mark.parametrize("unit", ["ns", "D", "s"])
def test_searchsorted_of_datetimes(unit):
    a = np.sort(np.array(["2020-01-01", "NaT", "1969-12-31", "2000-02-29", "2000-02-29"], "M8[D]"))
    a = a.astype(f"M8[{unit}]")
    t = np.sort(np.array([5, NAT, -1, 3, 0, 3], f"m8[{unit}]"))
    before = live_blocks()
    for array in (a, t):
        for key in (array[2], array[-1], array[0], array, array[::-1], array[:0]):
            for f in (searchsorted, searchsorted_right):
                got = f(array, key)
                expected = f.py_func(array, key)
                assert np.array_equal(got, expected), (array, key, got, expected)
    del got
    assert live_blocks() == before
