"""Memory management of arrays created in compiled code: allocation counters balance, returned
arrays own their memory, views keep their base alive, inputs come back as the same object, and
arrays (and tuples of arrays) travel between compiled functions."""

from __future__ import annotations

import gc
import sys

import numpy as np
import pytest
from array_helpers import assert_array_same

from taipan import njit
from taipan.runtime import get_allocation_stats

LOOPS = 100_000


def live_delta(f, *args):
    """Blocks allocated minus blocks freed while running ``f(*args)`` (result dropped)."""
    gc.collect()
    before = get_allocation_stats()
    f(*args)
    gc.collect()
    after = get_allocation_stats()
    allocated = after.alloc - before.alloc
    freed = after.free - before.free
    return allocated, freed


def test_allocation_stats_shape():
    stats = get_allocation_stats()
    assert len(stats) == 2
    alloc, free = stats
    assert stats.alloc == alloc and stats.free == free
    assert alloc >= free >= 0


# ---------------------------------------------------------------------------------------------
# create and drop arrays many times: every block allocated is freed


@njit
def churn_zeros(n):
    total = 0.0
    for i in range(n):
        a = np.zeros(4)
        a[0] = i
        total += a[0]
    return total


@njit
def churn_expressions(n):
    x = np.arange(5.0)
    total = 0.0
    for _ in range(n):
        y = x * 2.0 + np.sin(x) - x / 3.0  # temporaries of every step
        total += y[1]
    return total


@njit
def churn_views_and_copies(n):
    base = np.ones((4, 4))
    total = 0.0
    for _ in range(n):
        v = base[1:, ::2]
        c = v.copy()
        r = c.reshape(-1)
        t = base.T
        total += r[0] + t[0, 1]
    return total


@njit
def churn_reductions(n):
    base = np.arange(12.0).reshape((3, 4))
    total = 0.0
    for _ in range(n):
        s = base.sum(axis=0)
        m = np.max(base, axis=1)
        c = np.cumsum(base)
        total += s[0] + m[0] + c[-1]
    return total


@njit
def churn_masks(n):
    base = np.arange(10.0)
    total = 0.0
    for _ in range(n):
        picked = base[base > 4.0]
        fancy = base[np.arange(3)]
        total += picked[0] + fancy[2]
    return total


@njit
def make_pair(k):
    return np.full(3, k), np.arange(k)


@njit
def churn_calls(n):
    total = 0.0
    for i in range(n):
        a, b = make_pair(i % 5 + 1)
        total += a[0] + b.size
    return total


@njit
def churn_reassign(n):
    a = np.zeros(3)
    for i in range(n):
        a = np.full(3, i * 1.0)  # the previous array dies at each rebinding
    return a[0]


@njit
def churn_conditional(n):
    total = 0.0
    for i in range(n):
        if i % 2 == 0:
            a = np.ones(2)
        else:
            a = np.zeros(2)
        total += a[0]
    return total


@njit
def churn_astype_linspace(n):
    total = 0.0
    for _ in range(n):
        a = np.linspace(0.0, 1.0, 5).astype(np.float32)
        b = np.eye(3)
        total += a[4] + b[1, 1]
    return total


@njit
def churn_creation_forms(n):
    total = 0.0
    x = np.ones(3)
    for _ in range(n):
        a = np.empty_like(x)
        a[:] = 1.0
        b = np.zeros_like(x)
        c = np.ones((2, 2), np.int32)
        d = np.array([1.0, 2.0])
        e = np.asarray(x)
        f = x.ravel()
        g = x.flatten()
        total += a[0] + b[0] + c[0, 0] + d[1] + e[0] + f[0] + g[0]
    return total


@njit
def churn_iteration(n):
    base = np.ones((3, 2))
    total = 0.0
    for _ in range(n):
        for row in base:
            total += row[1]
    return total


CHURNERS = [
    churn_zeros,
    churn_expressions,
    churn_views_and_copies,
    churn_reductions,
    churn_masks,
    churn_calls,
    churn_reassign,
    churn_conditional,
    churn_astype_linspace,
    churn_creation_forms,
    churn_iteration,
]


@pytest.mark.parametrize("f", CHURNERS, ids=[f.__name__ for f in CHURNERS])
def test_no_leak_when_creating_and_dropping_arrays(f):
    f(10)  # compile first
    allocated, freed = live_delta(f, LOOPS)
    assert allocated == freed, f"{allocated} blocks allocated, {freed} freed"
    if f is not churn_iteration:  # the others make at least one new array per iteration
        assert allocated >= LOOPS


def test_churn_results_are_right():
    assert churn_zeros(100) == sum(range(100))
    assert churn_reassign(10) == 9.0
    assert churn_conditional(10) == 5.0
    assert churn_calls(5) == churn_calls.py_func(5)


def test_allocations_are_counted():
    churn_zeros(1)
    allocated, freed = live_delta(churn_zeros, 1000)
    assert allocated == freed == 1000


# ---------------------------------------------------------------------------------------------
# returned arrays


@njit
def new_array(n):
    a = np.arange(n) * 2.0
    return a


@njit
def identity(a):
    return a


@njit
def identity_tuple(a, b):
    return a, b


@njit
def view_of(a):
    return a[1:-1]


@njit
def transposed_view(a):
    return a.T[::-1]


def test_returned_array_owns_its_memory():
    gc.collect()
    before = get_allocation_stats()
    a = new_array(5)
    assert type(a) is np.ndarray
    assert a.base is not None
    assert a.flags.writeable and a.flags.c_contiguous
    assert_array_same(a, np.arange(5) * 2.0)
    after = get_allocation_stats()
    assert after.alloc - before.alloc >= 1
    assert after.alloc - after.free >= before.alloc - before.free + 1  # alive while a is
    a[0] = 7.0
    del a
    gc.collect()
    final = get_allocation_stats()
    assert final.alloc - final.free == before.alloc - before.free


@njit
def make_filled(n):
    a = np.empty(n)
    a[:] = 1.5
    return a


def test_returning_does_not_copy():
    make_filled(1)
    gc.collect()
    before = get_allocation_stats()
    a = make_filled(1000)
    after = get_allocation_stats()
    assert after.alloc - before.alloc == 1  # the block made inside is the one returned
    assert after.free - before.free == 0
    assert a.base is not None and a.flags.owndata is False
    assert_array_same(a, np.full(1000, 1.5))
    del a
    gc.collect()
    assert get_allocation_stats().free - before.free == 1


def test_returned_arrays_are_independent_of_each_other():
    a = new_array(3)
    b = new_array(3)
    assert not np.shares_memory(a, b)
    a[0] = 100.0
    assert b[0] == 0.0


def test_returned_array_survives_many_round_trips():
    gc.collect()
    before = get_allocation_stats()
    for i in range(2000):
        a = new_array(3)
        b = identity(a)
        assert b is a
        assert b[1] == 2.0
    del a, b
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - after.free == before.alloc - before.free


def test_returning_input_gives_same_object():
    a = np.arange(4.0)
    assert identity(a) is a
    f = np.asfortranarray(np.ones((2, 3)))
    assert identity(f) is f
    v = np.arange(10)[::3]
    assert identity(v) is v
    r = np.arange(3.0)
    r.setflags(write=False)
    assert identity(r) is r
    x, y = identity_tuple(a, f)
    assert x is a and y is f


def test_returning_input_does_not_change_refcount_balance():
    a = np.arange(4.0)
    before = sys.getrefcount(a)
    for _ in range(1000):
        identity(a)
        identity_tuple(a, a)
    assert sys.getrefcount(a) == before


def test_returned_view_keeps_input_alive():
    a = np.arange(6.0) * 1.5
    expected = a[1:-1].copy()
    v = view_of(a)
    assert np.shares_memory(v, a)
    del a
    gc.collect()
    np.zeros(1000)  # reuse freed memory if any was freed too early
    assert_array_same(v, expected)


def test_returned_view_of_compiled_array_keeps_it_alive():
    @njit
    def view_of_new(n):
        a = np.arange(n) * 3.0
        return a[::2]

    gc.collect()
    before = get_allocation_stats()
    v = view_of_new(10)
    gc.collect()
    churn_zeros(100)
    assert_array_same(v, np.arange(0, 30, 6, dtype=np.float64))
    del v
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - after.free == before.alloc - before.free


def test_returned_2d_view_keeps_input_alive():
    a = np.arange(12.0).reshape(3, 4)
    expected = a.T[::-1].copy()
    v = transposed_view(a)
    del a
    gc.collect()
    assert_array_same(v, expected)
    v[0, 0] = -1.0  # still writable, still valid memory
    assert v[0, 0] == -1.0


def test_input_refcount_balanced_after_view():
    a = np.arange(6.0)
    before = sys.getrefcount(a)
    v = view_of(a)
    del v
    gc.collect()
    assert sys.getrefcount(a) == before


# ---------------------------------------------------------------------------------------------
# arrays and tuples of arrays between compiled functions


@njit
def make_arrays(n):
    return np.arange(n), np.ones((n, 2)), np.zeros(0)


@njit
def consume_arrays(t):
    a, b, c = t
    return a.sum() + b.sum() + c.size


@njit
def consume_three(a, b, c):
    return a.sum() + b.sum() + c.size


@njit
def pipeline(n):
    t = make_arrays(n)
    return consume_arrays(t), consume_three(t[0], t[1], t[2])


@njit
def scale_in_place(a, k):
    a *= k
    return a


@njit
def caller_of_in_place(n):
    a = np.ones(n)
    b = scale_in_place(a, 3.0)
    b[0] = 10.0
    return a


@njit
def nested_tuple():
    return (np.ones(2), (np.zeros(3), 5))


def test_tuple_of_arrays_returned_to_python():
    a, b, c = make_arrays(3)
    assert_array_same(a, np.arange(3))
    assert_array_same(b, np.ones((3, 2)))
    assert_array_same(c, np.zeros(0))


def test_tuple_of_arrays_passed_back_in():
    t = make_arrays(4)
    assert consume_arrays(t) == consume_arrays.py_func(t)
    assert consume_three(*t) == consume_three.py_func(*t)


def test_arrays_between_compiled_functions():
    assert pipeline(4) == pipeline.py_func(4)
    allocated, freed = live_delta(lambda: [pipeline(4) for _ in range(1000)])
    assert allocated == freed


def test_in_place_through_callee():
    assert_array_same(caller_of_in_place(3), np.array([10.0, 3.0, 3.0]))


def test_nested_tuple_with_arrays():
    a, (b, k) = nested_tuple()
    assert_array_same(a, np.ones(2))
    assert_array_same(b, np.zeros(3))
    assert k == 5


def test_no_leak_returning_tuples_to_python():
    make_arrays(2)

    def run():
        for _ in range(2000):
            t = make_arrays(3)
            consume_arrays(t)

    allocated, freed = live_delta(run)
    assert allocated == freed


@njit
def large_arrays(n):
    a = np.arange(n) * 2.0  # 8n bytes: asks for huge pages from 4 MiB up
    b = a[1:] + a[:-1]
    return a, b


def test_large_arrays_asking_for_huge_pages_hold_their_values_and_balance():
    for n in (524_287, 524_288, 3_000_001):  # one item either side of 4 MiB, and 24 MB
        allocated, freed = live_delta(large_arrays, n)
        assert allocated == freed >= 2
        a, b = large_arrays(n)
        np.testing.assert_array_equal(a, np.arange(n) * 2.0)
        np.testing.assert_array_equal(b, a[1:] + a[:-1])
        assert a.ctypes.data % 64 == 0 and b.ctypes.data % 64 == 0
