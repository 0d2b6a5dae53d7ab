"""Inner functions, closures and lambdas defined in compiled code, and functions as values:
jitted functions passed as arguments, inner functions passed to jitted functions."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import UnsupportedError


@njit
def square(x):
    return x * x


@njit
def cube(x):
    return x * x * x


@njit
def apply(f, x):
    return f(x)


def apply_in_python(f, x):
    return f(x)


# ---------------------------------------------------------------------------------------------
# inner functions and closures


def test_closure_reads_a_parameter():
    @njit
    def f(x):
        def inner(y):
            return x + y

        return inner(1)

    for x in (0, 5, -7):
        assert_same(f, x)
    assert_same(f, 2.5)


def test_inner_function_called_with_different_types():
    @njit
    def f(x):
        def inner(y):
            return x * y

        return inner(2), inner(0.5), inner(True)

    assert_same(f, 3)
    assert_same(f, 1.5)


def test_closure_sees_the_value_at_the_call():
    @njit
    def f(n):
        k = 1

        def scaled(i):
            return i * k

        total = 0
        for i in range(n):
            k = i  # Python reads the cell when scaled runs
            total += scaled(i)
        return total

    assert_same(f, 10)
    assert_same(f, 0)


def test_closure_defined_before_its_variable():
    @njit
    def f(a):
        def add(i):
            return a[i] * k

        k = 2.0
        s = 0.0
        for i in range(a.shape[0]):
            s += add(i)
        return s

    a = np.arange(6.0)
    assert_same(f, a)


def test_closure_over_an_array_does_not_leak():
    @njit
    def f(n):
        a = np.arange(n) * 2

        def total(scale):
            return (a * scale).sum()

        return total(1) + total(3)

    f(4)
    with no_allocation_leak():
        assert_same(f, 5)
        assert_same(f, 0)


def test_closure_returning_an_array_does_not_leak():
    @njit
    def f(n):
        base = np.ones(n)

        def shifted(k):
            return base + k

        return shifted(1.0) + shifted(2.0)

    f(2)
    with no_allocation_leak():
        np.testing.assert_array_equal(f(4), f.py_func(4))


def test_closure_with_default_and_keyword_arguments():
    @njit
    def f(x):
        def inner(a, b=10, c=-1.5):
            return a * b + c + x

        return inner(1), inner(1, 2), inner(1, c=0.0), inner(b=3, a=2)

    assert_same(f, 4)


def test_recursive_inner_function():
    @njit
    def f(n):
        def fact(k):
            if k <= 1:
                return 1
            return k * fact(k - 1)

        return fact(n)

    assert_same(f, 10)
    assert_same(f, 0)


def test_recursive_closure():
    @njit
    def f(n, step):
        def count(k):
            if k <= 0:
                return 0
            return 1 + count(k - step)

        return count(n)

    assert_same(f, 10, 3)


def test_inner_function_calls_another_closure():
    @njit
    def f(x):
        def h(y):
            return y + x

        def g(y):
            return h(y) * 2

        return g(1) + h(0)

    assert_same(f, 3)


def test_nested_inner_functions():
    @njit
    def f(x):
        def outer(y):
            def innermost(z):
                return x + y + z

            return innermost(1)

        return outer(10)

    assert_same(f, 100)


def test_inner_function_in_a_branch_and_a_loop():
    @njit
    def f(n):
        total = 0
        for i in range(n):

            def twice(v):
                return 2 * v

            if i % 2:
                total += twice(i)
        return total

    assert_same(f, 7)


def test_closure_over_outer_python_closure():
    k = 7

    @njit
    def f(x):
        def inner(y):
            return x + y + k

        return inner(1)

    assert_same(f, 2)


# ---------------------------------------------------------------------------------------------
# lambdas


def test_lambda_assigned_and_called():
    @njit
    def f(n):
        g = lambda a, b=2: a * b + n
        return g(3), g(3, 4), g(b=5, a=1)

    assert_same(f, 7)
    assert_same(f, 0.5)


def test_lambda_without_captures():
    @njit
    def f(x):
        neg = lambda v: -v
        return neg(x) + neg(1.5)

    assert_same(f, 2)


def test_recursive_lambda():
    @njit
    def f(n):
        fib = lambda k: k if k < 2 else fib(k - 1) + fib(k - 2)
        return fib(n)

    assert_same(f, 15)


# ---------------------------------------------------------------------------------------------
# functions as values


def test_jitted_function_as_argument():
    assert apply(square, 3) == 9
    assert apply(square, 2.5) == 6.25
    assert apply(cube, 2) == 8  # one specialisation per function passed
    assert apply(square, 4) == 16
    assert len(apply.signatures) == 3


def test_jitted_function_passed_between_jitted_functions():
    @njit
    def f(x):
        return apply(square, x) + apply(cube, x)

    assert f(3) == 36


def test_jitted_function_assigned_to_a_variable():
    @njit
    def f(x):
        g = cube
        return g(x)

    assert f(3) == 27


def test_inner_function_passed_to_a_jitted_function():
    @njit
    def f(x):
        def inner(y):
            return y * 2 + 1

        return apply(inner, x)

    assert f(4) == apply_in_python(lambda y: y * 2 + 1, 4)


def test_lambda_passed_to_a_jitted_function():
    @njit
    def f(x):
        return apply(lambda y: y - 1, x) + apply(lambda y: y * 10, x)

    assert f(3) == 32


def test_function_argument_in_a_loop():
    @njit
    def accumulate(f, a):
        total = 0.0
        for v in a:
            total += f(v)
        return total

    a = np.arange(5.0)
    with no_allocation_leak():
        assert accumulate(square, a) == sum(v * v for v in a)
        assert accumulate(cube, a) == sum(v**3 for v in a)


# ---------------------------------------------------------------------------------------------
# what stays unsupported, with a clear error at the user's line


def test_returning_a_function_is_an_error():
    @njit
    def f(x):
        def inner(y):
            return y

        return inner

    with pytest.raises(Exception, match="cannot return a value"):
        f(1)


def test_closure_as_a_value_is_an_error():
    @njit
    def f(x):
        def inner(y):
            return x + y

        return apply(inner, 1)

    with pytest.raises(UnsupportedError, match="can only be called"):
        f(1)


def test_lambda_with_captures_used_in_place_is_an_error():
    @njit
    def f(x):
        return apply(lambda y: x + y, 1)

    with pytest.raises(UnsupportedError, match="must be assigned to a name"):
        f(1)


def test_closure_bound_twice_is_an_error():
    @njit
    def f(x):
        def inner(y):
            return x + y

        a = inner(1)

        def inner(y):
            return x - y

        return a + inner(1)

    with pytest.raises(UnsupportedError, match="bound to its name only once"):
        f(1)


def test_decorated_inner_function_is_an_error():
    @njit
    def f(x):
        @njit
        def inner(y):
            return y

        return inner(x)

    with pytest.raises(UnsupportedError, match="decorators on inner functions"):
        f(1)


def test_python_function_argument_is_an_error():
    with pytest.raises(Exception, match="cannot determine the type of argument 0"):
        apply(apply_in_python, 1)
