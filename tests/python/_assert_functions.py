"""Jitted functions with ``assert`` statements, kept out of the test modules: pytest rewrites
the asserts of test modules (and their messages), so ``py_func`` would not be plain CPython."""

import math

from taipan import njit


@njit
def checked_sqrt(x):
    assert x >= 0, "x must be non-negative"
    return math.sqrt(x)


@njit
def bare_assert(x):
    assert x > 0
    return x


@njit
def assert_with_formatted_value(x):
    assert x < 10, "too big"
    return x


@njit
def assert_in_loop(n):
    total = 0
    for i in range(n):
        assert i < 5, "i reached five"
        total += i
    return total
