"""Calls: between jitted functions, keyword arguments and defaults, recursion, closures and
globals (frozen at compile time), lambdas, print, assert and raise."""

from __future__ import annotations

import math

import pytest
from _assert_functions import (
    assert_in_loop,
    assert_with_formatted_value,
    bare_assert,
    checked_sqrt,
)
from conftest import assert_same

import taipan
from taipan import njit

# ---------------------------------------------------------------------------------------------
# calls between jitted functions


@njit
def square(x):
    return x * x


@njit
def sum_of_squares(a, b):
    return square(a) + square(b)


@njit
def hypot_like(a, b):
    return math.sqrt(sum_of_squares(a, b))


@njit
def clamp(x, lo=0.0, hi=1.0):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@njit
def uses_defaults(x):
    return (
        clamp(x),
        clamp(x, -1.0),
        clamp(x, hi=10.0),
        clamp(x, lo=-5.0, hi=5.0),
        clamp(hi=2.0, x=x),
    )


@njit
def scale(x, factor=2, offset=0):
    return x * factor + offset


@njit
def keyword_only_order(a, b, c=3, d=4):
    return a * 1000 + b * 100 + c * 10 + d


@njit
def calls_keyword_only_order(x):
    return (
        keyword_only_order(x, 2),
        keyword_only_order(x, 2, d=9),
        keyword_only_order(b=1, a=x),
        keyword_only_order(x, 1, 2, 3),
    )


@njit
def returns_tuple(a, b):
    return a + b, a - b


@njit
def uses_returned_tuple(a, b):
    s, d = returns_tuple(a, b)
    return s * d


@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@njit
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@njit
def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


@njit
def gcd_recursive(a, b):
    if b == 0:
        return a
    return gcd_recursive(b, a % b)


@njit
def float_recursion(x, depth):
    if depth == 0:
        return x
    return float_recursion(math.sqrt(x + 1.0), depth - 1)


def test_call_chain():
    assert_same(sum_of_squares, 3, 4)
    assert_same(sum_of_squares, 1.5, -2.5)
    assert_same(hypot_like, 3.0, 4.0)
    assert_same(hypot_like, 3, 4)


def test_callee_specialised_per_type():
    assert_same(square, 7)
    assert_same(square, 7.5)
    assert_same(square, 1 + 1j)
    assert len(square.signatures) >= 3


def test_defaults_at_python_call():
    assert_same(clamp, 0.5)
    assert_same(clamp, -0.5)
    assert_same(clamp, 2.0, 0.0, 3.0)
    assert_same(clamp, 2.0, hi=1.5)
    assert_same(clamp, x=-2.0, lo=-1.0)
    assert_same(clamp, hi=0.25, lo=0.1, x=0.3)
    assert_same(scale, 3)
    assert_same(scale, 3, 5)
    assert_same(scale, 3, offset=1)
    assert_same(scale, 3.5, offset=1, factor=0.5)


def test_python_call_argument_errors():
    # same TypeError as CPython for a missing, an extra or an unknown argument
    for args, kwargs in [
        ((), {}),
        ((1.0, 2.0, 3.0, 4.0), {}),
        ((1.0,), {"nope": 1}),
        ((1.0,), {"x": 2.0}),
    ]:
        with pytest.raises(TypeError):
            clamp.py_func(*args, **kwargs)
        with pytest.raises(TypeError):
            clamp(*args, **kwargs)


def test_defaults_and_keywords_between_jitted_functions():
    assert_same(uses_defaults, 0.5)
    assert_same(uses_defaults, -3.0)
    assert_same(uses_defaults, 7.0)
    assert_same(calls_keyword_only_order, 5)


def test_returned_tuples():
    assert_same(uses_returned_tuple, 5, 3)
    assert_same(uses_returned_tuple, 5.5, 3)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 20, 25])
def test_fib(n):
    assert_same(fib, n)


def test_factorial():
    for n in (0, 1, 5, 20):
        assert_same(fact, n)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 100, 1001])
def test_mutual_recursion(n):
    assert_same(is_even, n)
    assert_same(is_odd, n)


def test_ackermann():
    for m, n in [(0, 0), (1, 2), (2, 3), (3, 3)]:
        assert_same(ackermann, m, n)


def test_gcd_recursive():
    assert_same(gcd_recursive, 1071, 462)
    assert_same(gcd_recursive, 17, 5)


def test_float_recursion():
    assert_same(float_recursion, 1.0, 50)


@njit
def sum_to(n, acc=0):
    if n == 0:
        return acc
    return sum_to(n - 1, acc=acc + n)


def test_recursion_with_keyword_argument():
    assert_same(sum_to, 100)
    assert_same(sum_to, 10, 5)


@pytest.mark.xfail(
    reason="missing: a function returning a value on one path and None on another "
    "(Numba types it Optional(int64)) is a TypingError 'cannot unify the return "
    "types int64 and none'",
    strict=True,
)
def test_optional_return():
    @njit
    def positive_or_none(x):
        if x > 0:
            return x
        return None

    assert_same(positive_or_none, 3)
    assert_same(positive_or_none, -3)


def test_functions_returning_none():
    @njit
    def no_return(x):
        y = x + 1  # noqa: F841 - assigned and never returned

    @njit
    def bare_return(x):
        if x:
            return
        return

    assert_same(no_return, 1)
    assert_same(bare_return, 1)
    assert_same(bare_return, 0)


def test_jitted_function_as_argument():
    @njit
    def apply(fn, x):
        return fn(x) + 1

    assert apply(square, 3) == 10


def test_calling_a_python_function_is_an_error():
    def plain(x):
        return x + 1

    @njit
    def f(x):
        return plain(x)

    with pytest.raises(taipan.errors.TypingError):
        f(1)


def test_dispatcher_passed_as_global_after_definition():
    @njit
    def outer(x):
        return inner(x) * 2

    @njit
    def inner(x):
        return x + 1

    assert outer(3) == 8


# ---------------------------------------------------------------------------------------------
# globals and closures are frozen at compile time

SCALE = 3
OFFSET = 0.5


@njit
def uses_globals(x):
    return x * SCALE + OFFSET


def test_globals_frozen_at_compile_time():
    global SCALE
    assert uses_globals(2) == 6.5
    old = SCALE
    try:
        SCALE = 100
        # already compiled for int: still sees SCALE == 3
        assert uses_globals(2) == 6.5
    finally:
        SCALE = old


def test_global_tuple_and_math_constant():
    @njit
    def f(i):
        return WEIGHTS[0] * i + WEIGHTS[-1] + math.pi

    assert_same(f, 2)


WEIGHTS = (1.5, 2.5, 3.5)


def test_closure_variables_frozen():
    def make(k):
        @njit
        def add_k(x):
            return x + k

        return add_k

    add2 = make(2)
    add_half = make(0.5)
    assert add2(1) == 3
    assert add_half(1) == 1.5
    assert_same(add2, 10)


def test_closure_value_frozen_after_first_call():
    k = 10

    @njit
    def f(x):
        return x + k

    assert f(1) == 11
    k = 20  # rebinding the cell after compilation does not change f
    assert f(1) == 11


def test_inner_function_defined_in_jitted_code():
    @njit
    def f(x):
        def g(y):
            return y * 2

        return g(x) + 1

    assert_same(f, 5)


# ---------------------------------------------------------------------------------------------
# lambdas


def test_lambda():
    inc = njit(lambda x: x + 1)
    assert inc(1) == 2
    assert inc(1.5) == 2.5
    assert inc.py_func(1) == 2
    assert inc.__name__ == "<lambda>"


def test_lambda_two_args_and_conditional():
    f = njit(lambda a, b: a if a > b else b * 2)
    assert_same(f, 3, 4)
    assert_same(f, 5.0, 4.0)


def test_lambdas_on_one_line():
    f, g = njit(lambda x: x * 2), njit(lambda y: y - 1)
    assert f(3) == 6
    assert g(3) == 2


def test_jitted_lambda_called_from_jitted_function():
    @njit
    def f(x):
        return DOUBLE(x) + 1

    assert f(4) == 9


DOUBLE = njit(lambda x: 2 * x)


def test_lambda_inside_jitted_function():
    @njit
    def f(x):
        g = lambda y: y * 3
        return g(x) + g(1)

    assert_same(f, 5)


# ---------------------------------------------------------------------------------------------
# print


@njit
def print_scalars(i, x, b):
    print(i)
    print(x)
    print(b)
    print(i, x, b)
    print("text", i, "more", x)
    print()
    print("a string")


@njit
def print_floats(x):
    print(x, -x, x * 3.0)


@njit
def print_complex(z):
    print(z)


@njit
def print_in_loop(n):
    for i in range(n):
        print("i =", i)
    return n


def _printed(capsys, fn, *args):
    fn.py_func(*args)
    expected = capsys.readouterr().out
    fn(*args)
    actual = capsys.readouterr().out
    return actual, expected


def test_print_scalars(capsys):
    actual, expected = _printed(capsys, print_scalars, 42, 1.5, True)
    assert actual == expected
    actual, expected = _printed(capsys, print_scalars, -(2**63), -0.0, False)
    assert actual == expected


@pytest.mark.parametrize(
    "x", [0.1, 1e300, 1e-300, 123456789.123, math.inf, math.nan, 1e16, 5e-324, 1.0, 100.0]
)
def test_print_floats_like_python(capsys, x):
    actual, expected = _printed(capsys, print_floats, x)
    assert actual == expected


def test_print_complex(capsys):
    actual, expected = _printed(capsys, print_complex, 1.5 - 2j)
    assert actual == expected


def test_print_in_loop(capsys):
    actual, expected = _printed(capsys, print_in_loop, 3)
    assert actual == expected


def test_print_interleaves_with_python_prints(capsys):
    print("before")
    print_in_loop(2)
    print("after")
    assert capsys.readouterr().out == "before\ni = 0\ni = 1\nafter\n"


# ---------------------------------------------------------------------------------------------
# assert and raise


@njit
def raises_value_error(x):
    if x < 0:
        raise ValueError("negative input")
    return x * 2


@njit
def raises_class(x):
    if x < 0:
        raise ValueError
    return x


@njit
def raises_other_types(kind):
    if kind == 0:
        raise TypeError("a type error")
    if kind == 1:
        raise IndexError("index out of range")
    if kind == 2:
        raise KeyError("key")
    if kind == 3:
        raise RuntimeError("runtime")
    if kind == 4:
        raise ZeroDivisionError("custom zero")
    if kind == 5:
        raise OverflowError("too big")
    if kind == 6:
        raise ArithmeticError("arith")
    if kind == 7:
        raise NotImplementedError("later")
    return kind


class MyError(Exception):
    """A user-defined exception raised from compiled code."""


class MyValueError(ValueError):
    pass


@njit
def raises_user_error(x):
    if x == 1:
        raise MyError("custom failure")
    if x == 2:
        raise MyValueError("a subclass of ValueError")
    if x == 3:
        raise MyError
    return x


@njit
def raise_in_callee_propagates(x):
    return raises_value_error(x) + 1


@njit
def raise_in_loop(n):
    total = 0
    for i in range(n):
        if i == 5:
            raise RuntimeError("stopped at five")
        total += i
    return total


def test_assert_passes_and_fails():
    assert_same(checked_sqrt, 4.0)
    assert_same(checked_sqrt, -1.0)  # AssertionError("x must be non-negative")
    assert_same(bare_assert, 3)
    assert_same(bare_assert, -3)  # AssertionError() with an empty message
    assert_same(assert_with_formatted_value, 3)
    assert_same(assert_with_formatted_value, 30)
    assert_same(assert_in_loop, 4)
    assert_same(assert_in_loop, 9)
    with pytest.raises(AssertionError, match="^x must be non-negative$"):
        checked_sqrt(-2.0)


def test_raise_value_error():
    assert_same(raises_value_error, 3)
    assert_same(raises_value_error, -3)
    assert_same(raises_class, -1)
    with pytest.raises(ValueError, match="^negative input$"):
        raises_value_error(-1)


@pytest.mark.parametrize("kind", range(9))
def test_raise_builtin_exception_types(kind):
    assert_same(raises_other_types, kind)


@pytest.mark.parametrize("x", [0, 1, 2, 3])
def test_raise_user_defined(x):
    assert_same(raises_user_error, x)


def test_user_error_is_the_same_class():
    with pytest.raises(MyError) as info:
        raises_user_error(1)
    assert type(info.value) is MyError
    assert info.value.args == ("custom failure",)


def test_raise_propagates_through_calls():
    assert_same(raise_in_callee_propagates, 5)
    assert_same(raise_in_callee_propagates, -5)


def test_raise_in_loop():
    assert_same(raise_in_loop, 3)
    assert_same(raise_in_loop, 10)


def test_exception_does_not_break_later_calls():
    for _ in range(3):
        with pytest.raises(ValueError):
            raises_value_error(-1.0)
        assert raises_value_error(2.0) == 4.0
