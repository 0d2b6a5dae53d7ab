"""np.nditer as a value, as Numba supports it: bound to a name and iterated later,
enumerate(np.nditer(a)), advanced by next(), passed to another compiled function; items are
0-d arrays in NumPy's memory order (order='K')."""

import numpy as np
import pytest
from conftest import assert_same
from numpy_checks import no_allocation_leak

import taipan
from taipan.extending import register_jitable


def bound_then_iterated(a):
    it = np.nditer(a)
    total = 0.0
    for x in it:
        total += x.item()
    return total


def enumerated(a):
    out = np.zeros(a.size)
    for i, x in enumerate(np.nditer(a)):
        out[i] = x.item()
    return out


def enumerated_from(a):
    weighted = 0.0
    for i, x in enumerate(np.nditer(a), 1):
        weighted += i * x.item()
    return weighted


def first_two(a):
    it = np.nditer(a)
    return next(it).item(), next(it).item()


@register_jitable
def _count(it):
    n = 0
    for _ in it:
        n += 1
    return n


def passed_on(a):
    return _count(np.nditer(a))


def item_shapes(a):
    shapes = 0
    for x in np.nditer(a):
        shapes += x.ndim + len(x.shape) + x.size
    return shapes


BASE = np.arange(12.0).reshape(3, 4) * 1.5
ARRAYS = {
    "vector": np.arange(5.0),
    "c": BASE,
    "fortran": np.asfortranarray(BASE),
    "transposed": BASE.T,
    "reversed": BASE[:, ::-1],
    "strided": BASE[::2, 1::2],
    "ints": np.arange(24, dtype=np.int32).reshape(2, 3, 4),
    "zero-d": np.array(7.5),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("function", [bound_then_iterated, enumerated, enumerated_from, passed_on])
def test_nditer_values_follow_numpy(function, name):
    f = taipan.njit(function)
    a = ARRAYS[name]
    with no_allocation_leak():
        actual = f(a)
        expected = function(a)
        if isinstance(expected, np.ndarray):
            np.testing.assert_array_equal(actual, expected)
        else:
            assert actual == expected
        del actual


def test_next_gives_items_in_memory_order():
    f = taipan.njit(first_two)
    for a in (BASE, BASE.T, BASE[::-1]):
        assert_same(f, a)


def test_items_are_zero_dimensional_arrays():
    f = taipan.njit(item_shapes)
    for a in ARRAYS.values():
        assert_same(f, a)


def test_a_non_array_is_refused_at_the_users_line():
    f = taipan.njit(bound_then_iterated)
    with pytest.raises(taipan.errors.TypingError, match="bound_then_iterated"):
        f(3.0)
