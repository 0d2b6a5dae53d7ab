"""round(int, ndigits) rounds in integers, as CPython's int.__round__ (half to even): through a
double, an int above 2**53 came back with its low digits changed."""

import itertools

import numpy as np
from conftest import assert_same

from taipan import njit


@njit
def round_digits(i, ndigits):
    return round(i, ndigits)


def test_round_int_with_negative_ndigits_is_exact():
    values = [
        0,
        5,
        -5,
        15,
        25,
        -25,
        2**53 + 1,
        2**53 + 5,
        -(2**53) - 15,
        123456789012345678,
        9007199254740993,
        2**62 + 12345,
        2**63 - 1,
        -(2**63) + 1,
        4_999_999_999_999_999_999,
        5_000_000_000_000_000_000,
        -5_000_000_000_000_000_000,
        5_000_000_000_000_000_001,
    ]
    for value, ndigits in itertools.product(values, [-1, -2, -3, -10, -17, -18, -20, -25, 0, 3]):
        expected = round(value, ndigits)
        if -(2**63) <= expected < 2**63:  # beyond int64 the compiled result wraps
            assert_same(round_digits, value, ndigits)


def test_ties_go_to_even():
    for value in range(-1000, 1001, 5):
        assert_same(round_digits, value, -1)
        assert_same(round_digits, value * 10, -2)


def test_a_uint64_above_int64_keeps_its_value():
    """round(uint64) is a uint64: as an int64 the values above 2**63 wrapped to negatives."""

    @njit
    def round_plain(i):
        return round(i)

    values = [2**63 + 15, 2**63 + 25, 2**64 - 1, 2**64 - 6, 18_446_744_073_709_551_605, 12345]
    for value in values:
        assert round_plain(np.uint64(value)) == value
        for ndigits in [-1, -2, -5, -18, -19, -20, -21, 0, 2]:
            expected = round(value, ndigits)
            if expected < 2**64:  # beyond uint64 the compiled result wraps
                result = round_digits(np.uint64(value), ndigits)
                assert result == expected, (value, ndigits, result)
