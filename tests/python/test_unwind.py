"""Every way out of a compiled function releases what it owns: a return, a raise, a callee's
error, a failed bounds check, a failed allocation, a division by zero and an assert all leave
through one unwind block. Each test checks that the exception (class and message) reaches Python
as the pure-Python function raises it, and that the allocation counters balance."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import get_allocation_stats

CALLS = 5


def raised_by(function, *args):
    """The exception ``function(*args)`` raises (the test fails when it returns)."""
    with pytest.raises(Exception) as info:
        function(*args)
    return info.value


def assert_unwinds(compiled, *args, message=None):
    """``compiled(*args)`` raises what its Python function raises (``message`` where taipan keeps
    Numba's wording), CALLS times, and frees every block it allocated."""
    expected = raised_by(compiled.py_func, *args)
    raised_by(compiled, *args)  # compile outside the counted calls
    gc.collect()
    before = get_allocation_stats()
    for _ in range(CALLS):
        got = raised_by(compiled, *args)
        assert type(got) is type(expected)
        assert str(got) == (str(expected) if message is None else message)
    gc.collect()
    after = get_allocation_stats()
    allocated = after.alloc - before.alloc
    assert allocated > 0, "the test should exercise arrays made before the exception"
    assert after.free - before.free == allocated


# ---- a jitted callee raises ----------------------------------------------------------------


@njit
def raise_boom(a):
    if a.size > 0:
        raise ValueError("boom")
    return a


@njit
def owns_two_then_calls():
    a = np.ones(3)
    b = np.zeros(3)
    c = raise_boom(a)
    return b + c


def test_callee_raising_releases_the_callers_arrays():
    assert_unwinds(owns_two_then_calls)


@njit
def level_three(n):
    c = np.full(n, 3.0)
    if c[0] > 0:
        raise KeyError("deep")
    return c


@njit
def level_two(n):
    b = np.arange(n)
    return level_three(n) + b


@njit
def level_one(n):
    a = np.ones((n, 2))
    t = level_two(n)
    return a[:, 0] + t


def test_calls_nested_three_deep_each_owning_arrays():
    assert_unwinds(level_one, 4)


@njit
def fail_on(a, at):
    for i in range(a.size):
        if i == at:
            raise IndexError("fail_on")
    return a


@njit
def temporaries_alive_mid_statement(n):
    # np.ones(n) is alive (a statement temporary) when the call raises.
    x = np.ones(n) + fail_on(np.zeros(n), 1)
    return x


@njit
def array_expression_with_new_operands(n):
    # Every operand is a new array, and the callee raises after two were made.
    y = np.arange(n) * np.ones(n) + np.sin(fail_on(np.zeros(n), n - 1)) - np.full(n, 2.0)
    return y


def test_raise_with_statement_temporaries_alive():
    assert_unwinds(temporaries_alive_mid_statement, 3)


def test_raise_inside_an_array_expression():
    assert_unwinds(array_expression_with_new_operands, 4)


# ---- raises in loops ------------------------------------------------------------------------


@njit
def raise_in_for(n, stop):
    kept = np.zeros(2)
    total = 0.0
    for i in range(n):
        a = np.full(3, float(i))  # the previous iteration's array is released here
        total += a.sum() + kept[0]
        if i == stop:
            raise ValueError("stopped in the loop")
    return total


@njit
def raise_in_while(stop):
    a = np.empty(0)
    i = 0
    while True:
        a = np.arange(i + 1.0)
        b = a * 2
        if b.sum() > stop:
            raise OverflowError("too much")
        i += 1


@njit
def raise_in_loop_over_rows(m):
    out = np.zeros(m.shape[0])
    for k, row in enumerate(m):
        scaled = row * 2.0
        if scaled[0] < 0:
            assert k > 100, "negative row"
        out[k] = scaled.sum()
    return out


def test_raise_inside_for_loop_after_earlier_iterations():
    assert_unwinds(raise_in_for, 10, 4)


def test_raise_inside_while_loop():
    assert_unwinds(raise_in_while, 30.0)


def test_assert_inside_loop_over_a_new_array_rows():
    m = np.ones((4, 3))
    m[2, 0] = -1.0
    # (pytest rewrites the assert of py_func, adding its own explanation to the message)
    assert_unwinds(raise_in_loop_over_rows, m, message="negative row")


@njit
def divide_elements(values):
    made = np.arange(values.size)
    total = 0
    for x in values:
        total += 100 // int(x)  # a Python int in py_func too (NumPy's would give 0)
    return total + made[0]


@njit
def modulo_in_new_array(n):
    total = 0
    for x in np.arange(n) - 2:
        total += 7 % int(x)
    return total


def test_integer_division_by_zero_over_array_elements():
    assert_unwinds(
        divide_elements, np.array([5, 2, 0, 1]), message="integer division or modulo by zero"
    )
    assert_unwinds(modulo_in_new_array, 5, message="integer modulo by zero")


# ---- tuples, conditionals and other exits ----------------------------------------------------


@njit
def tuple_of_arrays(n):
    pair = (np.ones(n), np.zeros((n, n)))
    first, second = pair
    nested = (pair, np.arange(n))
    if nested[1][0] == 0:
        raise RuntimeError("tuple of arrays")
    return first.sum() + second.sum()


def test_tuple_of_array_variables():
    assert_unwinds(tuple_of_arrays, 3)


@njit(boundscheck=True)
def out_of_bounds(n, at):
    a = np.ones(n)
    b = a * 3
    return b[at]


def test_boundscheck_index_error():
    # NumPy's message (Python's list says "list index out of range").
    assert_unwinds(out_of_bounds, 4, 9, message="index 9 is out of bounds for axis 0 with size 4")


@njit
def failed_allocation(n):
    a = np.ones(3)
    b = np.zeros((2, n))
    return a.sum() + b.sum()


def test_failed_allocation_releases_earlier_arrays():
    assert_unwinds(failed_allocation, -2, message="negative dimensions are not allowed")


@njit
def conditional_arrays(flag, n):
    x = np.ones(n) if flag else np.zeros(n) + 1
    if x.sum() > 2:
        raise ValueError("conditional")
    return x


def test_conditional_expression_of_new_arrays():
    assert_unwinds(conditional_arrays, True, 3)
    assert_unwinds(conditional_arrays, False, 3)
    gc.collect()
    before = get_allocation_stats()
    for flag in (True, False):
        np.testing.assert_array_equal(conditional_arrays(flag, 2), np.ones(2))
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free >= 2


@njit
def return_from_loop_over_new_array(limit):
    for row in np.arange(12.0).reshape(4, 3):
        if row[0] > limit:
            return row.sum()
    return -1.0


@pytest.mark.parametrize("limit", [-1.0, 5.0, 100.0])
def test_return_from_inside_a_loop_over_a_temporary(limit):
    assert return_from_loop_over_new_array(limit) == return_from_loop_over_new_array.py_func(limit)
    gc.collect()
    before = get_allocation_stats()
    for _ in range(CALLS):
        return_from_loop_over_new_array(limit)
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == CALLS
    assert after.free - before.free == CALLS


@njit
def catch_nothing_returns_after_callee(n):
    # A callee that succeeds hands back an owned array; the caller's exit releases the rest.
    a = raise_boom(np.empty(0))
    b = np.ones(n)
    return a.size + b.size


def test_successful_calls_balance():
    gc.collect()
    before = get_allocation_stats()
    for _ in range(CALLS):
        assert catch_nothing_returns_after_callee(3) == 3
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == 2 * CALLS
    assert after.free - before.free == 2 * CALLS
