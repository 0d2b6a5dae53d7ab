"""A tuple indexed or sliced by a global or closure variable frozen as an int (or arithmetic on
them), as Numba's static_getitem allows: the position is known while compiling, so a tuple whose
items differ in type can be indexed, and the item keeps its own type."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError, UnsupportedError

SECOND = 1
LAST = -1
START, STOP, STEP = 1, 4, 2


def global_index(t):
    return t[SECOND], t[LAST], t[SECOND + 1], t[2 * SECOND]


def global_slices(t):
    return t[SECOND:], t[:LAST], t[START:STOP:STEP], t[::-SECOND], t[SECOND - 1 : SECOND + 1]


def closure_over(position, stop):
    def indexed(t):
        return t[position], t[position:stop], t[-position - 1]

    return indexed


MIXED = (1, 2.5, "three", np.arange(3.0), (4, 5))


def assert_same_items(f, t):
    """f(t) equals f.py_func(t), item by item (arrays by value), types included."""

    def equal(actual, expected):
        if isinstance(expected, tuple):
            return (
                isinstance(actual, tuple)
                and len(actual) == len(expected)
                and all(equal(a, e) for a, e in zip(actual, expected))
            )
        if isinstance(expected, np.ndarray):
            return isinstance(actual, np.ndarray) and np.array_equal(actual, expected)
        return type(actual) is type(expected) and actual == expected

    actual, expected = f(t), f.py_func(t)
    assert equal(actual, expected), (actual, expected)


@pytest.mark.parametrize("function", [global_index, global_slices])
def test_global_positions(function):
    f = njit(function)
    with no_allocation_leak():
        assert_same_items(f, MIXED)
        assert_same_items(f, (1, 2, 3, 4, 5))


@pytest.mark.parametrize("position, stop", [(0, 2), (1, 4), (3, 5), (2, 99)])
def test_closure_positions(position, stop):
    f = njit(closure_over(position, stop))
    with no_allocation_leak():
        assert_same_items(f, MIXED)


def test_uniform_tuples_still_take_run_time_indices():
    @njit
    def pick(t, i):
        return t[i] + t[SECOND]

    assert pick((1, 2, 3), 2) == 5
    assert pick((1, 2, 3), -1) == 5


def test_a_constant_out_of_range_is_a_typing_error():
    too_far = 7

    @njit
    def beyond(t):
        return t[too_far]

    with pytest.raises(TypingError, match="tuple index out of range"):
        beyond(MIXED)


def test_variables_assigned_in_the_function_are_not_constants():
    @njit
    def local_index(t, n):
        k = n
        return t[k]

    with pytest.raises(TypingError, match="can only be indexed with a constant integer"):
        local_index(MIXED, 1)

    @njit
    def local_slice(t, n):
        return t[n:]

    with pytest.raises(UnsupportedError, match="constant bounds"):
        local_slice(MIXED, 1)


def test_a_float_global_is_not_an_index():
    half = 1.5

    @njit
    def by_float(t):
        return t[half]

    with pytest.raises(TypingError):
        by_float(MIXED)
