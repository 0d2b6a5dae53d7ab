"""Scalars of mixed integer types (NumPy's int8..uint64, Python's bool and int) met by min(),
max(), comparisons and int(), compared with CPython and NumPy (f.py_func) value by value, at each
type's extremes. A uint64 above 2**63 read as an int64 came out negative in all three (max(0,
2**64 - 1) was -1); found by a sweep of every operator over every pair of scalar types against
Numba and CPython."""

import itertools

import numpy as np
import pytest

from taipan import njit

INTEGER_TYPES = [bool, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64]


def extremes(kind):
    if kind is bool:
        return [False, True]
    info = np.iinfo(kind)
    return [kind(value) for value in sorted({info.min, info.min // 2, 0, 1, info.max})]


def signed_meets_uint64(a, b):
    """Numba's min and max of a signed integer and a uint64 are float64 (no integer type holds
    both), and so are taipan's: the value is compared as a float."""
    kinds = {type(a), type(b)}
    return np.uint64 in kinds and any(
        kind not in (bool, np.bool_) and np.issubdtype(kind, np.signedinteger) for kind in kinds
    )


@njit
def extremes_of(a, b):
    return min(a, b), max(a, b)


@pytest.mark.parametrize("left, right", list(itertools.product(INTEGER_TYPES, repeat=2)))
def test_min_and_max_keep_each_value(left, right):
    for a, b in itertools.product(extremes(left), extremes(right)):
        low, high = extremes_of(a, b)
        expected_low, expected_high = extremes_of.py_func(a, b)
        if signed_meets_uint64(a, b):
            assert type(low) is float and type(high) is float
            assert (low, high) == (float(expected_low), float(expected_high)), (a, b)
        else:
            assert (int(low), int(high)) == (int(expected_low), int(expected_high)), (a, b)


@njit
def comparisons(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b


@pytest.mark.parametrize("kind", [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int64])
def test_a_bool_compares_with_any_integer_by_value(kind):
    for flag, value in itertools.product([False, True, np.True_, np.False_], extremes(kind)):
        assert comparisons(flag, value) == comparisons.py_func(flag, value), (flag, value)
        assert comparisons(value, flag) == comparisons.py_func(value, flag), (value, flag)


@njit
def as_int(x):
    return int(x)


@pytest.mark.parametrize("kind", [np.uint64, np.uint32, np.int64, np.int8])
def test_int_keeps_the_value(kind):
    for value in extremes(kind):
        result = as_int(value)
        assert type(result) is int
        assert result == as_int.py_func(value)


def test_int_of_a_uint64_compares_as_its_value():
    # int() of a uint64 is a uint64 (as in Numba); compared with an int, it is not negative.
    @njit
    def positive(x):
        return int(x) > 0, int(x) == x

    for value in (np.uint64(2**64 - 2), np.uint64(2**63), np.uint64(1)):
        assert positive(value) == positive.py_func(value) == (True, True)


def test_max_of_a_tuple_with_a_uint64():
    @njit
    def tuple_extremes(t):
        return max(t), min(t)

    values = (np.int64(-1), np.uint64(2**64 - 1))
    assert tuple_extremes(values) == (float(2**64 - 1), -1.0)
    assert tuple_extremes.py_func(values) == (2**64 - 1, -1)
