"""Dates in years or months with week-, day- or finer-based units: NumPy converts the date to
its first day through the (proleptic Gregorian) calendar, so `datetime64[Y] + timedelta64[W]`,
`datetime64[M] - datetime64[D]` and their comparisons compute in the finer unit; a timedelta of
years or months still has no length in days and is refused at typing."""

import itertools
import warnings

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

DT = np.datetime64
TD = np.timedelta64

DATES = [
    DT(year + suffix)
    for year, suffix in itertools.product(
        ("-300", "600", "1900", "1969", "1970", "2000", "2014", "2100", "2400", "6001"),
        ("", "-01", "-02", "-03", "-12"),
    )
] + [DT("NaT", "Y"), DT("NaT", "M")]

DELTAS = [
    TD(2, "D"),
    TD(-10000, "D"),
    TD(3, "W"),
    TD(-100, "W"),
    TD(5, "h"),
    TD(7, "ms"),
    TD(0, "W"),
    TD("NaT", "W"),
    TD("NaT", "D"),
]


@taipan.njit
def add(a, b):
    return a + b


@taipan.njit
def sub(a, b):
    return a - b


@taipan.njit
def compare(a, b):
    return a < b, a == b, a >= b


def same_time(got, expected):
    return got.dtype == expected.dtype and (
        (np.isnat(got) and np.isnat(expected)) or got == expected
    )


@pytest.mark.parametrize("delta", DELTAS, ids=repr)
def test_date_in_years_or_months_plus_day_based_delta(delta):
    for date in DATES:
        expected = date + delta
        for got in (add(date, delta), add(delta, date), sub(date, -delta)):
            assert same_time(got, expected), (date, delta, got, expected)


@pytest.mark.parametrize("other", [DT("2014-01-01"), DT("2013-12-31T23:00"), DT("NaT", "D")])
def test_dates_of_calendar_and_day_units_subtract_and_compare(other):
    for date in DATES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = date - other
            assert same_time(sub(date, other), expected)
            assert compare(date, other) == (date < other, date == other, date >= other)


def test_arrays_of_dates_in_years():
    dates = np.array(["2014", "1600", "NaT", "-40"], "M8[Y]")
    before = live_blocks()
    got = add(dates, TD(3, "W"))
    np.testing.assert_array_equal(got, dates + TD(3, "W"))
    assert got.dtype == (dates + TD(3, "W")).dtype
    del got
    assert live_blocks() == before


@pytest.mark.parametrize("delta", [TD(1, "Y"), TD(1, "M")])
@pytest.mark.parametrize("function", [add, sub])
def test_delta_in_years_or_months_with_days_is_refused(function, delta):
    with pytest.raises(TypingError, match="cannot combine the units"):
        function(DT("2014-01-01"), delta)
    with pytest.raises(TypingError, match="cannot combine the units"):
        function(TD(3, "D"), delta)
