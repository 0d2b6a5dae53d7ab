"""Variable versions (Numba's SSA rule): each assignment of a local variable has its own type,
and only where control flow joins (after if/else, at a loop's head, around try) are the
versions that meet unified. Results compare with the Python function; every test that
allocates checks the runtime's block counters."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same
from numpy_checks import no_allocation_leak

from taipan import njit, objmode, prange, types
from taipan.errors import TypingError
from taipan.runtime import live_blocks


def return_type(dispatcher):
    return dispatcher.nopython_signatures[0].return_type


def assert_same_values(f, *args):
    """``f(*args)`` equals ``f.py_func(*args)``: arrays by dtype and items, tuples by item."""

    def compare(actual, expected):
        if isinstance(expected, tuple):
            assert isinstance(actual, tuple) and len(actual) == len(expected)
            for a, e in zip(actual, expected):
                compare(a, e)
        elif isinstance(expected, np.ndarray):
            assert isinstance(actual, np.ndarray) and actual.dtype == expected.dtype
            np.testing.assert_array_equal(actual, expected)
        else:
            assert actual == expected and type(actual) is type(expected), (actual, expected)

    compare(f(*args), f.py_func(*args))


def strided(n=10, dtype=np.float64):
    """A non-contiguous 1-d array (layout A)."""
    return np.arange(2 * n, dtype=dtype)[::2]


# ---------------------------------------------------------------------------------------------
# a type per assignment in straight-line code


def test_ascontiguousarray_of_a_parameter_gives_layout_c():
    @njit
    def f(x):
        x = np.ascontiguousarray(x)
        return x

    with no_allocation_leak():
        assert_same_values(f, strided())
        assert_same_values(f, np.arange(5.0))
    assert return_type(f).layout == "C"


def test_declared_signature_returning_c_arrays_after_reassignment():
    # dcor's pattern: parameters of layout A made contiguous, returned as declared C arrays.
    vector = types.Array(types.float64, 1, "C", readonly=True)
    noncontiguous = types.Array(types.float64, 1, "A", readonly=True)

    def g(x, y):
        x = np.ascontiguousarray(x)
        y = np.ascontiguousarray(y)
        n = x.shape[0]
        order = np.argsort(x)
        return x, y[order], n

    f = njit(types.Tuple((vector, vector, types.int64))(noncontiguous, noncontiguous))(g)
    x, y = strided(), strided()[::-1]
    x.setflags(write=False)
    y.setflags(write=False)
    want = g(x, y)
    with no_allocation_leak():
        got = f(x, y)
        assert got[2] == want[2]
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert got[0].flags.c_contiguous
        del got


def test_astype_turns_an_int_parameter_into_floats():
    @njit
    def f(x):
        x = x.astype(np.float64)
        x /= 3
        return x

    with no_allocation_leak():
        assert_same_values(f, np.arange(7))
    assert str(return_type(f).dtype) == "float64"


def test_len_then_float():
    @njit
    def f(a):
        n = len(a)
        b = np.zeros(n)  # n is an int here
        n = float(n)
        return b.size, n / 2

    with no_allocation_leak():
        assert_same(f, np.arange(5.0))


def test_copy_of_a_readonly_array_is_writable():
    @njit
    def f(a):
        a = a.copy()
        a[0] = 42.0
        return a

    x = np.arange(4.0)
    x.setflags(write=False)
    with no_allocation_leak():
        assert_same_values(f, x)
    assert not return_type(f).readonly


def test_int_then_float_in_straight_line():
    @njit
    def f(k):
        s = k
        shifted = s << 2  # an int: a float would not shift
        s = s + 1.5
        return shifted, s

    assert_same(f, 3)
    assert_same(f, -7)


def test_string_then_number():
    @njit
    def f(text):
        x = text
        n = len(x)
        x = n * 2
        return x

    assert_same(f, "abcd")


def test_none_then_value_is_not_optional():
    @njit
    def f(k):
        x = None
        x = k + 1
        return x * 2

    assert_same(f, 4)
    assert str(return_type(f)) == "int64"


def test_tuple_unpacking_makes_versions():
    @njit
    def f(a):
        a, b = a.astype(np.float64), a
        a, b = b, a / 2
        return a.sum(), b.sum()

    with no_allocation_leak():
        assert_same(f, np.arange(6))


# ---------------------------------------------------------------------------------------------
# joins unify the versions that meet


def test_branches_unify_their_versions():
    @njit
    def f(c):
        if c:
            x = 1
        else:
            x = 2.5
        return x

    assert f(True) == 1.0 and isinstance(f(True), float)
    assert_same(f, False)


def test_branch_reassigning_a_layout_keeps_the_unified_layout():
    @njit
    def f(x, c):
        if c:
            x = np.ascontiguousarray(x)
        return x.sum()

    with no_allocation_leak():
        for c in (True, False):
            assert_same(f, strided(), c)


def test_version_before_a_branch_and_after_it():
    @njit
    def f(x, c):
        x = x.astype(np.float64)  # its own version
        if c:
            x = x * 2.0
        y = x
        x = len(x)  # a new version after the join
        return y.sum(), x

    with no_allocation_leak():
        for c in (True, False):
            assert_same(f, np.arange(4), c)


def test_loop_unifies_the_value_carried_between_iterations():
    @njit
    def f(n):
        s = 0
        for i in range(n):
            s = s + 0.5
        return s

    assert f(3) == 1.5
    assert f(0) == 0.0 and isinstance(f(0), float)


def test_straight_line_versions_inside_a_loop_body():
    @njit
    def f(a):
        total = 0.0
        for i in range(a.shape[0]):
            y = a[i]
            bits = y << 1  # an int version
            y = float(bits) / 4
            total += y
        return total

    assert_same(f, np.arange(6))


def test_while_loop_with_break_joins_the_break_path():
    @njit
    def f(n):
        x = 0
        while True:
            x = x + 1
            if x > n:
                y = x * 1.5
                break
            y = x
        return x, y

    assert_same(f, 3, strict_type=False)


def test_nested_loops_and_versions():
    @njit
    def f(m):
        out = 0.0
        for i in range(m.shape[0]):
            row = m[i]
            row = np.ascontiguousarray(row)
            for j in range(row.shape[0]):
                v = row[j]
                v = v * 2
                out += v
        return out

    with no_allocation_leak():
        assert_same(f, np.arange(12.0).reshape(3, 4)[:, ::2])


def test_loop_target_reused_by_a_later_loop_with_another_type():
    # Numba's test_issue3979: `i` is not live at the second loop's head, so no phi joins them.
    @njit
    def f(a, b):
        x = a[0]
        y = b[0]
        for i in a:
            x = i
        for i in b:
            y = i
        return x, y

    assert_same(f, (1, 2), ("A", "B"))


def test_loop_target_reassigned_in_the_body():
    @njit
    def f(a):
        total = 0.0
        for x in a:
            x = x * 2.5
            total += x
        return total, x

    assert_same(f, np.arange(4))


def test_versions_not_live_at_a_join_stay_apart():
    @njit
    def f(c):
        if c:
            tmp = 1
        else:
            tmp = "one"
        tmp = 2.5  # neither branch's value is read: no phi, no unification
        return tmp

    assert_same(f, True)
    assert_same(f, False)


def test_array_assigned_in_a_loop_is_released_by_the_next_version():
    @njit
    def f(n):
        for i in range(n):
            tmp = np.ones(100)
            tmp = tmp * 2
        tmp = np.zeros(2)  # ends the loop's version: its array is freed here
        with objmode(alive="int64"):
            alive = live_blocks()
        return tmp.sum(), alive

    f(2)
    before = live_blocks()
    total, alive = f(3)
    assert total == 0.0 and alive == before + 1
    assert live_blocks() == before


def test_try_keeps_one_version_through_the_statement():
    @njit
    def f(k):
        x = k
        try:
            x = x + 1
            if x > 3:
                raise ValueError("big")
        except ValueError:
            x = x * 10
        x = float(x)  # a version of its own after the try
        return x

    assert_same(f, 1)
    assert_same(f, 5)


def test_generator_with_versions():
    @njit
    def gen(a):
        x = a.sum()
        yield x
        x = a.astype(np.float64) / 2
        yield x.sum()

    a = np.arange(5)
    with no_allocation_leak():
        assert list(gen(a)) == list(gen.py_func(a))


# ---------------------------------------------------------------------------------------------
# memory: a version ended by an assignment is released there


def test_reassigned_array_in_a_loop_keeps_one_version():
    @njit
    def f(n):
        a = np.ones(8)
        for i in range(n):
            a = a * 2
            a = a + 1
        return a

    before = live_blocks()
    with no_allocation_leak():
        assert_same_values(f, 5)
    assert live_blocks() == before


def test_ended_version_is_released_at_the_assignment():
    @njit
    def f(n):
        a = np.ones(n)
        a = a * 2  # the first array dies here, not at the return
        a = a + 1
        with objmode(alive="int64"):
            alive = live_blocks()
        return a, alive

    f(3)  # compiled first: compiling may allocate
    before = live_blocks()
    result, alive = f(3)
    assert alive == before + 1
    np.testing.assert_array_equal(result, np.full(3, 3.0))
    del result
    assert live_blocks() == before


def test_versions_released_on_every_exit():
    @njit
    def f(n, fail):
        a = np.ones(n)
        a = a[1:] * 2
        if fail:
            raise ValueError("no")
        b = a
        a = np.zeros(2)
        return b.sum() + a.sum()

    with no_allocation_leak():
        assert_same(f, 4, False)
        assert_same(f, 4, True)


# ---------------------------------------------------------------------------------------------
# features that keep working


def test_locals_declaration_is_accepted_for_every_version():
    @njit(locals={"x": types.float64})
    def f(k):
        x = k * 2.0
        x = x + 1
        return x

    assert_same(f, 3)


def test_closure_reads_the_current_version():
    @njit
    def f(a):
        a = a.astype(np.float64)

        def scaled(k):
            return a * k

        first = scaled(2.0)
        a = np.ones(2)
        return first.sum(), scaled(3.0).sum()

    with no_allocation_leak():
        assert_same(f, np.arange(4))


def test_prange_reduction_after_reassignment():
    @njit(parallel=True)
    def f(a):
        s = 0
        s = 0.0
        for i in prange(a.shape[0]):
            s += a[i]
        return s

    assert_same(f, np.arange(100.0))


def test_objmode_block_reads_and_writes_versions():
    @njit
    def f(a):
        a = a.astype(np.float64)
        with objmode(total="float64"):
            total = float(a.sum())
        total = total * 2
        return total

    with no_allocation_leak():
        assert_same(f, np.arange(5))


def test_inspect_types_names_each_version():
    @njit
    def f(k):
        x = k
        x = x / 2
        return x

    f(3)
    text = str(f.inspect_types(pretty=True))
    assert "x = k      # x: int64" in text
    assert "x = x / 2  # x.1: float64" in text


# ---------------------------------------------------------------------------------------------
# errors name the variable as the source spells it, at the assignment's line


def test_unify_error_names_the_python_variable():
    def g(c):
        x = np.zeros(3)
        x = 1
        if c:
            x = "text"
        return x

    f = njit(g)
    with pytest.raises(TypingError) as info:
        f(True)
    message = str(info.value)
    assert "variable 'x'" in message
    assert "x.1" not in message
    line = g.__code__.co_firstlineno + 4
    assert f"line {line}" in message or f":{line}" in message
