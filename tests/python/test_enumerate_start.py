"""enumerate(iterable, start) in for loops, over tuples (built), arrays, lists and ranges
(iterated in step), compared with CPython; a start that is not an integer is a TypingError."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


@njit
def counted(a, start):
    out = []
    for i, x in enumerate(a, start):
        out.append(i * 10 + x)
    for i, x in enumerate(a, start=start):
        out.append(i - x)
    for i, x in enumerate(a):
        out.append(i + x)
    return out


@njit
def counted_range(n, start):
    total = 0
    for i, x in enumerate(range(n), start):
        total += i * x
    return total


@pytest.mark.parametrize("a", [(1.0, 2.5, 3.0), np.arange(4.0), [1.5, -2.5], np.zeros(0)])
@pytest.mark.parametrize("start", [42, -3, 0, True, 2**40])
def test_enumerate_start(a, start):
    with no_allocation_leak():
        got = counted(a, start)
        assert got == counted.py_func(a, start)
        del got
    assert counted_range(5, start) == counted_range.py_func(5, start)


def test_non_integer_start_is_a_typing_error():
    @njit
    def float_start():
        total = 0.0
        for i, x in enumerate((1.0, 2.5), 3.5):
            total += i * x
        return total

    with pytest.raises(TypingError, match="enumerate\\(\\)'s start must be an integer"):
        float_start()
