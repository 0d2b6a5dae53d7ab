"""np.sort, argsort and np.unique of datetime64/timedelta64 arrays put NaT last, as NumPy does
(their counts sorted as int64 would put NaT, INT64_MIN, first), and a datetime array's a.dtype
makes arrays (np.empty(n, a.dtype))."""

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import live_blocks

NAT = np.datetime64("NaT")
DATES = np.array(
    ["2001-01-02", "NaT", "2001-01-01", "1969-12-31", "2001-01-01", "NaT"], dtype="M8[D]"
)


@njit
def sorted_copy(a):
    return np.sort(a)


@njit
def order(a):
    return np.argsort(a)


@njit
def unique(a):
    return np.unique(a)


@njit
def empty_like_dtype(a):
    return np.empty(len(a), a.dtype)


@pytest.mark.parametrize(
    "values",
    [DATES, DATES - DATES[2], DATES[::-1], DATES[:1], DATES[1:2], DATES.astype("M8[s]")],
    ids=["dates", "timedeltas", "reversed", "one", "only-nat", "seconds"],
)
def test_nat_sorts_last(values):
    before = live_blocks()
    np.testing.assert_array_equal(sorted_copy(values), np.sort(values))
    assert sorted_copy(values).dtype == values.dtype
    assert order(values).tolist() == np.argsort(values, kind="stable").tolist()
    np.testing.assert_array_equal(unique(values), np.unique(values))
    assert empty_like_dtype(values).dtype == values.dtype
    assert live_blocks() == before


def test_lists_of_dates_still_sort():
    @njit
    def sorted_list(a):
        items = [a[0], a[2], a[3]]
        items.sort()
        return items[0], items[2]

    assert sorted_list(DATES) == (DATES[3], DATES[0])
