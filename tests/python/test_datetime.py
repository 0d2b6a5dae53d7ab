"""NumPy datetime64/timedelta64 scalars and arrays in compiled code, against NumPy."""

import warnings

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit, types
from taipan.errors import TypingError

NAT_S = np.timedelta64("NaT", "s")
TIMEDELTAS = [np.timedelta64(-7, "s"), np.timedelta64(0, "s"), np.timedelta64(9, "s"), NAT_S]


def same(got, expected):
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            same(g, e)
        return
    if isinstance(expected, (np.datetime64, np.timedelta64)):
        assert type(got) is type(expected) and got.dtype == expected.dtype
        assert (np.isnat(got) and np.isnat(expected)) or got == expected
    elif isinstance(expected, float) and np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == expected


def check(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = f.py_func(*args)
    with no_allocation_leak():
        got = f(*args)
    same(got, expected)


@njit
def timedelta_ops(a, b):
    return a + b, a - b, -a, abs(a), a * 3, 3 * a, a // 2, a / 2, a * 0.5, a / b, a // b, a % b


@njit
def comparisons(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


@pytest.mark.parametrize("a", TIMEDELTAS)
@pytest.mark.parametrize("b", TIMEDELTAS + [np.timedelta64(2, "m"), np.timedelta64(-3, "ms")])
def test_timedelta_arithmetic_and_comparisons(a, b):
    check(timedelta_ops, a, b)
    check(comparisons, a, b)


@pytest.mark.parametrize(
    "d",
    [np.datetime64(5, "D"), np.datetime64(-40, "D"), np.datetime64("NaT", "D")],
)
@pytest.mark.parametrize("t", [np.timedelta64(3, "h"), np.timedelta64(-2, "W"), NAT_S])
def test_datetime_plus_minus_timedelta(d, t):
    @njit
    def f(d, t):
        return d + t, t + d, d - t, d - d, (d + t) - d

    check(f, d, t)
    check(comparisons, d, d + t)


def test_years_and_months():
    @njit
    def f(a, b):
        return a + b, a < b

    check(f, np.timedelta64(1, "Y"), np.timedelta64(5, "M"))
    with pytest.raises(TypingError, match="cannot combine"):
        f(np.timedelta64(1, "Y"), np.timedelta64(1, "D"))


def test_refused_operations():
    @njit
    def add(a, b):
        return a + b

    with pytest.raises(TypingError):
        add(np.datetime64(1, "D"), np.datetime64(1, "D"))


def test_types_and_signatures():
    assert str(types.NPDatetime("ns")) == "datetime64[ns]"
    assert str(types.NPTimedelta("")) == "timedelta64[]"
    assert types.NPTimedelta("s").unit == "s"
    assert isinstance(types.NPDatetime("D"), types.NPDatetime)
    assert str(types.NPDatetime("ns")[:]) == "array(datetime64[ns], 1d, A)"

    @njit(types.NPTimedelta("s")(types.NPTimedelta("s"), types.int64))
    def scale(t, n):
        return t * n

    same(scale(np.timedelta64(4, "s"), 3), np.timedelta64(12, "s"))


@pytest.mark.parametrize("unit", ["s", "ns", "D"])
def test_arrays_pass_through_and_elements(unit):
    @njit
    def f(a, t):
        a[1] = a[0] + t
        return a, a[0]

    for kind in ("M8", "m8"):
        a = np.array([3, -5, 7, np.iinfo(np.int64).min], dtype="i8").view(f"{kind}[{unit}]")
        b = a.copy()
        t = np.timedelta64(2, unit)
        with no_allocation_leak():
            got, first = f(a, t)
        _, expected_first = f.py_func(b, t)
        assert got is a
        np.testing.assert_array_equal(a.view("i8"), b.view("i8"))
        same(first, expected_first)
    strided = np.arange(8).astype("m8[s]")[::2]
    with no_allocation_leak():
        got, _ = f(strided, np.timedelta64(1, "s"))
    assert got is strided
