"""np.add and np.subtract with NumPy's datetime loops: datetime64 arrays plus or minus
timedelta64 scalars or arrays (a unitless timedelta64 takes the other's unit), timedeltas
between datetimes, in either order, with NaT kept; combinations NumPy refuses (datetime +
datetime, years with days) are TypingErrors at the user's line. Compared with NumPy; counters
checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def add(a, b):
    return np.add(a, b)


@taipan.njit
def subtract(a, b):
    return np.subtract(a, b)


DATES = np.array(["2011-01-01", "1971-02-02", "NaT", "2021-03-03", "2004-12-07"], "M8[D]")


def datetime_arrays():
    yield DATES
    yield DATES.astype("M8[ns]")
    yield DATES.astype("M8[s]")[::-2]
    yield DATES.astype("M8[h]").reshape(1, 5)
    yield DATES[:0]


TIMEDELTAS = [
    np.timedelta64(1000),
    np.timedelta64(-54557),
    np.timedelta64(3, "h"),
    np.timedelta64(2, "D"),
    np.timedelta64("NaT"),
]


def same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_datetimes_plus_and_minus_timedeltas():
    before = live_blocks()
    for a in datetime_arrays():
        for td in TIMEDELTAS:
            same(add(a, td), np.add(a, td))
            same(add(td, a), np.add(td, a))
            same(subtract(a, td), np.subtract(a, td))
        td_array = np.arange(a.size).reshape(a.shape).astype("m8[m]")
        same(add(a, td_array), np.add(a, td_array))
        same(subtract(a, td_array), np.subtract(a, td_array))
    assert live_blocks() == before


def test_datetime_differences_and_timedelta_sums():
    before = live_blocks()
    later = DATES.astype("M8[s]") + np.timedelta64(90, "s")
    same(subtract(later, DATES), np.subtract(later, DATES))
    same(
        subtract(DATES[::-1], np.datetime64("2000-01-01")),
        np.subtract(DATES[::-1], np.datetime64("2000-01-01")),
    )
    tds = np.array([1, -2, 0, 5], "m8[ms]")
    same(add(tds, np.timedelta64(2, "s")), np.add(tds, np.timedelta64(2, "s")))
    same(subtract(tds, tds[::-1]), np.subtract(tds, tds[::-1]))
    assert live_blocks() == before


def test_refused_combinations_name_the_users_line():
    for f, a, b in [
        (add, DATES, DATES),
        (add, DATES, np.timedelta64(1, "M")),
        (subtract, np.timedelta64(1, "D"), DATES),
    ]:
        with pytest.raises(TypeError):  # NumPy: no loop, or no casting of the units
            f.py_func(a, b)
        with pytest.raises(TypingError) as info:
            f(a, b)
        assert "test_np_datetime_ufuncs.py" in str(info.value)
