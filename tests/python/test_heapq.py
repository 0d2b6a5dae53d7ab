"""heapq in compiled code (taipan.heapq_library): every function against CPython's heapq on the
same lists, the heap's layout included, with ties, -0.0, inf and NaN; errors as CPython's."""

import heapq
import math
import random

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit, typeof, types
from taipan.errors import TypingError


def same(a, b):
    """Equal lists (or values), telling -0.0 from 0.0 and NaN equal to NaN."""
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return type(a) is type(b) and a == b


@njit
def push_all_then_pop_all(values):
    heap = [values[0]]
    heap.pop()
    for value in values:
        heapq.heappush(heap, value)
    layout = heap.copy()
    popped = [values[0]]
    popped.pop()
    while len(heap) > 0:
        popped.append(heapq.heappop(heap))
    return layout, popped


@njit
def heapify_and_replace(heap, item):
    heapq.heapify(heap)
    smallest = heapq.heapreplace(heap, item)
    kept = heapq.heappushpop(heap, item)
    return smallest, kept


@njit
def best(values, n):
    return heapq.nsmallest(n, values), heapq.nlargest(n, values)


def float_lists():
    rng = random.Random(5)
    yield [rng.random() for _ in range(40)]
    yield [float(rng.randrange(4)) for _ in range(33)]  # many ties
    yield [0.0, -0.0, 1.5, -0.0, 0.0, -1.5, math.inf, -math.inf, 0.0]
    # Two NaN objects: CPython compares one object with itself as equal inside tuples.
    yield [1.0, float("nan"), 3.0, -2.0, float("nan"), 0.5, 7.0]
    yield [2.0]


def int_lists():
    rng = random.Random(9)
    yield [rng.randrange(-50, 50) for _ in range(3000)]  # past CPython's cache-friendly heapify
    yield [3, 1, 2]
    yield [7]


@pytest.mark.parametrize("values", list(float_lists()) + list(int_lists()))
def test_push_and_pop_follow_cpython(values):
    with no_allocation_leak():
        assert same(push_all_then_pop_all(values), push_all_then_pop_all.py_func(values))


@pytest.mark.parametrize("values", list(float_lists()) + list(int_lists()))
def test_heapify_replace_and_pushpop_leave_cpythons_heap(values):
    item = values[len(values) // 2]
    ours, theirs = list(values), list(values)
    with no_allocation_leak():
        result = heapify_and_replace(ours, item)
    assert same(result, heapify_and_replace.py_func(theirs, item))
    assert same(ours, theirs)  # the caller's list is the heap CPython's heapq leaves


@pytest.mark.parametrize("values", list(float_lists()) + list(int_lists()))
def test_nsmallest_and_nlargest_follow_cpython(values):
    for n in (-1, 0, 1, 2, 3, len(values) // 2, len(values) - 1, len(values), len(values) + 4):
        expected = best.py_func(values, n)
        if n > 1 and any(isinstance(x, float) and math.isnan(x) for x in expected[0] + expected[1]):
            # CPython's order of kept NaNs comes from its list.sort: taipan refuses, never differs.
            with no_allocation_leak(), pytest.raises(ValueError, match="kept a NaN"):
                best(values, n)
            continue
        with no_allocation_leak():
            got = best(values, n)
        assert same(got, expected), n


def test_nsmallest_and_nlargest_take_uniform_tuples():
    values = (5, 1, 4, 1, 3)
    for n in (0, 1, 2, 5, 7):
        with no_allocation_leak():
            assert best(values, n) == best.py_func(values, n)


def test_tuples_are_heap_items():
    values = [(3, 1.0), (1, 2.0), (3, 0.5), (2, 9.0), (1, 1.0)]
    with no_allocation_leak():
        assert push_all_then_pop_all(values) == push_all_then_pop_all.py_func(values)
        assert best(values, 2) == best.py_func(values, 2)


@njit
def pop_from_empty():
    heap = [1]
    heap.pop()
    return heapq.heappop(heap)


@njit
def replace_in_empty():
    heap = [1]
    heap.pop()
    return heapq.heapreplace(heap, 1)


def test_empty_heaps_raise_cpythons_index_error():
    for f in (pop_from_empty, replace_in_empty):
        with pytest.raises(IndexError) as expected:
            f.py_func()
        with no_allocation_leak(), pytest.raises(IndexError) as raised:
            f()
        assert str(raised.value) == str(expected.value) == "index out of range"


@njit
def heapify_an_array(a):
    heapq.heapify(a)


def test_a_heap_that_is_not_a_list_is_a_typing_error_at_the_line():
    with pytest.raises(TypingError) as error:
        heapify_an_array(np.ones(3))
    assert "heapq.heapify() takes a list as its heap" in str(error.value)
    assert "heapq.heapify(a)" in str(error.value)


def test_list_types_are_numbas_list_class():
    t = typeof([1.5, 2.5])
    assert isinstance(t, types.List) and t.dtype == types.float64
    assert types.List(types.int64).dtype == types.int64
    assert not isinstance(typeof(np.ones(2)), types.List)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_nsmallest_and_nlargest_take_one_dimensional_arrays(dtype):
    values = np.array([5, 1, 9, 3, 7, 3], dtype=dtype)
    for n in (0, 1, 2, 6, 8):
        with no_allocation_leak():
            got = best(values, n)
        expected = best.py_func(values, n)  # NumPy scalars in CPython, numbers here
        assert same(got, tuple([x.item() for x in items] for items in expected))
