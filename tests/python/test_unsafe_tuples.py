"""taipan.unsafe's tuple primitives (tuple_setitem, tuple_insert, interleave, multiply_items),
compared with their Python versions, and the NumPy-library messages that name numbers now that
the library formats them at run time (axes, diff's order, cross's lengths) compared with
NumPy's, with the allocation counters."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import no_allocation_leak, numpy_quietly

from taipan import njit
from taipan.unsafe import interleave, multiply_items, tuple_insert, tuple_setitem


@njit
def set_item(values, index, value):
    return tuple_setitem(values, index, value)


@njit
def insert_item(values, index, value):
    return tuple_insert(values, index, value)


@njit
def interleaved(x, y):
    return interleave(x, y)


@njit
def products(x, y):
    return multiply_items(x, y)


@pytest.mark.parametrize("length", [0, 1, 2, 3, 4, 5, 9])
def test_tuple_setitem_replaces_one_item_at_a_run_time_index(length):
    values = tuple(range(10, 10 + length))
    for index in range(-1, length + 1):
        expected = tuple_setitem(values, index, -7)
        assert set_item(values, index, -7) == expected
        assert expected == tuple(-7 if i == index else v for i, v in enumerate(values))


def test_tuple_setitem_keeps_the_item_type():
    assert set_item((1.5, 2.5), 1, 7) == (1.5, 7.0)
    assert type(set_item((1.5, 2.5), 1, 7)[1]) is float


@pytest.mark.parametrize("length", [0, 1, 3, 5])
def test_tuple_insert_puts_an_item_before_a_run_time_index(length):
    values = tuple(range(length))
    for index in range(length + 1):
        assert insert_item(values, index, 99) == tuple_insert(values, index, 99)
        assert tuple_insert(values, index, 99) == values[:index] + (99,) + values[index:]


def test_interleave_and_multiply_items():
    assert (
        interleaved((1, 2, 3), (4, 5, 6)) == (1, 4, 2, 5, 3, 6) == interleave((1, 2, 3), (4, 5, 6))
    )
    assert interleaved((), ()) == ()
    assert products((2, 3), (4, 5)) == (8, 15) == multiply_items((2, 3), (4, 5))


@njit
def repeat_along(a, axis):
    return np.repeat(a, 2, axis)


@njit
def concatenate_along(a, axis):
    return np.concatenate((a, a), axis)


@njit
def difference(a, n):
    return np.diff(a, n)


@njit
def cross(a, b):
    return np.cross(a, b)


def same_error(compiled, exception, *args):
    with pytest.raises(exception) as expected:
        numpy_quietly(compiled.py_func, *args)
    with pytest.raises(exception) as actual:
        compiled(*args)
    assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize("axis", [2, 3, 40, -3, -41])
def test_axis_messages_name_any_axis_as_numpy_does(axis):
    a = np.arange(6.0).reshape(2, 3)
    same_error(repeat_along, np.exceptions.AxisError, a, axis)
    same_error(concatenate_along, np.exceptions.AxisError, a, axis)


@pytest.mark.parametrize("order", [-1, -8, -9, -1000])
def test_diff_names_any_negative_order(order):
    same_error(difference, ValueError, np.arange(4.0), order)


@pytest.mark.parametrize("lengths", [(4, 3), (7, 3), (3, 12)])
def test_cross_refuses_other_lengths_with_numpys_message(lengths):
    same_error(cross, ValueError, np.arange(float(lengths[0])), np.arange(float(lengths[1])))


def test_the_library_functions_free_what_they_allocate():
    a = np.arange(12.0).reshape(3, 4)
    repeat_along(a, 1)
    concatenate_along(a, 0)
    difference(a, 2)
    with no_allocation_leak():
        repeat_along(a, 1)
        concatenate_along(a, 0)
        difference(a, 2)
        for axis in (5, -9):
            with pytest.raises(np.exceptions.AxisError):
                repeat_along(a, axis)
