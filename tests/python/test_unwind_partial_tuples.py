"""An exception raised while a tuple is being built releases what its earlier elements hold.

`return x, 1 // n` with n == 0 took a reference to x for the tuple before computing the second
element; the unwind then had no owner to release it through, and one block leaked per call.
"""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def variable_then_raise(n):
    x = np.ones(3)
    return x, 1 // n


@taipan.njit
def temporary_then_raise(n):
    return np.ones(3), 1 // n


@taipan.njit
def two_arrays_then_raise(n):
    a = np.arange(10)
    return a, np.zeros(2), int(a[n]) // (n - 9)


@taipan.njit
def nested_then_raise(n):
    x = np.ones(2)
    return (x, (np.ones(1), x)), 10 % n


@taipan.njit
def strings_then_raise(n):
    s = str(n) + "x"
    return s, s + "y", 3 // n


def same_items(got, want):
    if isinstance(want, tuple):
        return len(got) == len(want) and all(map(same_items, got, want))
    if isinstance(want, np.ndarray):
        return np.array_equal(got, want) and got.dtype == want.dtype
    return got == want


@pytest.mark.parametrize(
    ("function", "bad", "error"),
    [
        (variable_then_raise, 0, ZeroDivisionError),
        (temporary_then_raise, 0, ZeroDivisionError),
        (two_arrays_then_raise, 9, ZeroDivisionError),
        (nested_then_raise, 0, ZeroDivisionError),
        (strings_then_raise, 0, ZeroDivisionError),
    ],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
def test_no_block_leaks_when_an_element_raises(function, bad, error):
    good = function(1)
    want = function.py_func(1)
    assert same_items(good, want)
    with pytest.raises(error):
        function.py_func(bad)
    before = live_blocks()
    for _ in range(3):
        with pytest.raises(error):
            function(bad)
    assert live_blocks() == before
