"""enumerate(iterable, start) in for loops, over tuples (built), arrays, lists and ranges
(iterated in step), and sum() of 1-D arrays and ranges, compared with CPython; a start that is
not an integer, and sum() of a 2-D array, are TypingErrors."""

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


@njit
def sum_of(a):
    return sum(a)


@njit
def sum_of_ranges(n):
    return sum(range(n)), sum(range(n, -n, -3))


@pytest.mark.parametrize(
    "a",
    [
        np.arange(5.0),
        np.array([1, -2, 3], np.int32),
        np.array([True, False, True]),
        np.array([1 + 2j, -0.5j]),
        np.arange(10.0)[::-3],
        np.array([np.nan, 1.0]),
    ],
)
def test_sum_of_arrays(a):
    got, expected = sum_of(a), sum_of.py_func(a)
    assert got == expected or (np.isnan(got) and np.isnan(expected))


def test_sum_of_ranges_and_empty_array():
    for n in (0, 1, 10):
        assert sum_of_ranges(n) == sum_of_ranges.py_func(n)
    assert sum_of(np.zeros(0)) == 0.0  # float over nothing: 0.0, as in Numba (Python: 0)


def test_sum_of_2d_array_is_a_typing_error():
    with pytest.raises(TypingError, match="no implementation of sum"):
        sum_of(np.ones((2, 2)))


# sum(iterable, start) and min()/max() of a range.


@njit
def sums_from_a_start(n, start):
    a = np.arange(n) * 0.5
    return (
        sum(range(n), start),
        sum(range(n), start=start),
        sum([1, 2, 3], start),
        sum((1, 2.5, 3), start),
        sum(a, start),
        sum((), start),
    )


@pytest.mark.parametrize(("n", "start"), [(0, 5), (4, 5), (4, 1.5), (7, -2)])
def test_sum_with_a_start(n, start):
    with no_allocation_leak():
        assert sums_from_a_start(n, start) == sums_from_a_start.py_func(n, start)


@njit
def range_extremes(start, stop, step):
    r = range(start, stop, step)
    return min(r), max(r)


@pytest.mark.parametrize("step", [-4, -3, -1, 1, 2, 5])
def test_min_and_max_of_a_range(step):
    for start in range(-6, 7):
        for stop in range(-6, 7):
            try:
                expected = range_extremes.py_func(start, stop, step)
            except ValueError as error:  # in the running CPython's words (changed in 3.12)
                with pytest.raises(ValueError) as raised:
                    range_extremes(start, stop, step)
                assert str(raised.value) == str(error)
                continue
            assert range_extremes(start, stop, step) == expected
