"""Unpacking a list into targets (`a, b = [x, y]`, `a, b, c = [f(i) for i in range(3)]`), as
Numba does: each target takes an item; a length that differs raises ValueError as CPython
does. Results compare with the Python function; allocations are counted."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


def test_unpack_a_comprehension_of_arrays():
    @njit
    def f(n):
        a, b, c = [np.ones(n) * i for i in range(3)]
        return a.sum() + b.sum() * 10 + c.sum() * 100

    with no_allocation_leak():
        assert_same(f, 3)


def test_unpack_a_list_argument_of_numbers():
    @njit
    def f(values):
        x, y = values
        return x - y

    assert_same(f, [5, 2])
    assert_same(f, [2.5, 0.25])


@pytest.mark.parametrize("n", [1, 3])
def test_wrong_length_raises_value_error_as_python_does(n):
    @njit
    def f(n):
        a, b = [i for i in range(n)]
        return a + b

    # The message is the one unpacking an array gives (CPython adds the count it got).
    with no_allocation_leak():
        assert_same(f, n, check_message=False)
        assert_same(f, 2)


def test_nested_targets_and_strings():
    @njit
    def f(words):
        (a, b), c = [words[0], words[1]], words[2]
        return a + b + c

    assert_same(f, ["x", "yz", "w"])


def test_items_outlive_the_list():
    @njit
    def f(n):
        first, second = [np.arange(n), np.arange(n) * 2]
        return first, second

    with no_allocation_leak():
        first, second = f(4)
        np.testing.assert_array_equal(first, np.arange(4))
        np.testing.assert_array_equal(second, np.arange(4) * 2)
        del first, second


def test_list_without_item_type_is_a_typing_error():
    @njit
    def f():
        a, b = []
        return a + b

    with pytest.raises(TypingError):
        f()
