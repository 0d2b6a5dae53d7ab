"""Lists in compiled code (Numba's reflected lists): literals, appends, indexing, iteration,
methods, lists returned to Python and lists passed in (changes reflected back)."""

import pytest
from numpy_checks import no_allocation_leak

from taipan import njit


def literal_len():
    values = [1, 2, 3]
    return len(values)


def negative_index():
    values = [1, 2, 3]
    return values[-1] + values[0]


def append_unifies():
    values = []
    values.append(1.5)
    values.append(2)
    return values[1]


def iterate():
    total = 0
    for x in [1, 2, 3]:
        total += x
    return total


def set_item():
    values = [1, 2]
    values[0] = 5
    return values[0]


def pop_last():
    values = [1, 2, 3]
    return values.pop() + len(values)


def returned():
    return [1, 2, 3]


@pytest.mark.parametrize(
    "function", [literal_len, negative_index, append_unifies, iterate, set_item, pop_last, returned]
)
def test_matches_python(function):
    compiled = njit(function)
    with no_allocation_leak():
        assert compiled() == function()


def append_to(values):
    values.append(4)
    return len(values)


def test_argument_changes_are_reflected():
    compiled = njit(append_to)
    mine, theirs = [1, 2, 3], [1, 2, 3]
    with no_allocation_leak():
        assert compiled(mine) == append_to(theirs)
    assert mine == theirs
