"""round(int, ndigits) rounds in integers, as CPython's int.__round__ (half to even): through a
double, an int above 2**53 came back with its low digits changed."""

import itertools

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
