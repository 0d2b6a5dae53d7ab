"""Slice objects passed to compiled code (Numba's slice3_type): ``s[sl]`` of strings and
``l[sl]`` of lists give what CPython gives for every combination of None, negative, large and
stepped bounds; a zero step is CPython's ValueError at the call; uses taipan does not support
are errors naming the construct."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit


@njit
def item(x, i):
    return x[i]


@njit
def sliced_twice(x, first, second):
    return x[first][second], len(x[first])


BOUNDS = [None, -7, -1, 0, 1, 2, 5, 2**62]
STEPS = [None, -3, -1, 1, 2]


@pytest.mark.parametrize("text", ["", "abc", "¡¡¡着着着", "a😀bΩc"])
@pytest.mark.parametrize("step", STEPS)
def test_string_slices(text, step):
    with no_allocation_leak():
        for start in BOUNDS:
            for stop in BOUNDS:
                sl = slice(start, stop, step)
                assert item(text, sl) == item.py_func(text, sl), sl


@pytest.mark.parametrize("items", [[1], [1.5, -0.0, 2.5], list(range(7))])
@pytest.mark.parametrize("step", STEPS)
def test_list_slices(items, step):
    with no_allocation_leak():
        for start in BOUNDS:
            for stop in BOUNDS:
                sl = slice(start, stop, step)
                got = item(items, sl)
                assert got == item.py_func(items, sl), sl
                del got


def test_two_slice_objects():
    text = "hello world"
    with no_allocation_leak():
        assert sliced_twice(text, slice(1, None), slice(None, None, -2)) == sliced_twice.py_func(
            text, slice(1, None), slice(None, None, -2)
        )


def test_zero_step_is_value_error():
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        item("abc", slice(0, 2, 0))


def test_array_index_and_return():
    # Once refused (an array indexed by a slice object, a slice returned); test_slice_values.py
    # covers both in full.
    np.testing.assert_array_equal(item(np.arange(4), slice(1, 3)), np.arange(4)[1:3])

    @njit
    def give_back(sl):
        return sl

    assert give_back(slice(1, 2)) == slice(1, 2)
