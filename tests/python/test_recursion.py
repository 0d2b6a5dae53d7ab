"""Recursion, after Numba's test_recursion: functions compiled from an explicit signature inside
their decorator call themselves before their name is bound (the dispatcher answers for its own
name meanwhile, dispatcher.dispatcher_being_defined); self and mutual recursion compiled at the
first call; an inner function's explicit signature; several signatures."""

import math

import pytest
import recursion_cases as cases
from conftest import assert_raises_same, assert_same

from taipan import jit, njit
from taipan.errors import TypingError


def test_global_explicit_signature():
    assert cases.fib1(10) == 55
    assert cases.fib1(0) == 0
    assert len(cases.fib1.signatures) == 1


def test_inner_explicit_signature():
    assert cases.fib2(10) == 55
    assert cases.fib2(1) == 1


def test_several_explicit_signatures_each_call_themselves():
    assert_same(cases.power_by_halves, 1.5, 7)
    assert_same(cases.power_by_halves, 3, 13)
    assert len(cases.power_by_halves.signatures) == 2


def test_explicit_signature_with_branches():
    for n in (1, 2, 7, 27, 97):
        assert_same(cases.collatz_steps, n)


def test_raise_from_deep_in_the_recursion():
    assert_raises_same(cases.raise_at_one, 5)
    assert_raises_same(cases.raise_at_one, 1)
    assert_same(cases.raise_at_one, 0)


def test_global_implicit_signature():
    assert cases.fib3(10) == 55


def test_type_changing_self_recursion():
    compiled = cases.make_type_change_self(jit(nopython=True))
    python = cases.make_type_change_self()
    assert compiled(13, 0.125) == python(13, 0.125)
    assert compiled(1, 2) == python(1, 2)


def test_mutual_recursion():
    assert cases.outer_fac(10) == math.factorial(10)
    assert cases.inner_fac(7) == math.factorial(7)


def test_mutual_recursion_through_keywords():
    python_foo, python_bar = cases.make_mutual2()
    foo, bar = cases.make_mutual2(njit)
    for x in (-1, 0, 1, 3):
        assert foo(x=x) == python_foo(x=x)
        assert bar(y=x, z=1) == python_bar(y=x, z=1)


def test_type_changing_mutual_recursion():
    python = cases.make_type_change_mutual()
    compiled = cases.make_type_change_mutual(njit)
    assert compiled(13, 0.125) == python(13, 0.125)


def test_optional_return_of_a_recursive_function():
    python = cases.make_optional_return()
    compiled = cases.make_optional_return(njit)
    for x in (0, 1, 3, 5, 10, 15):
        assert compiled(x) == python(x)


def test_explicit_signature_of_a_decorated_inner_closure_over_itself():
    # The name is a closure cell of the enclosing function, empty while the decorator runs.
    def make():
        @njit("f8(f8, i8)")
        def halve(x, n):
            if n == 0:
                return x
            return halve(x / 2.0, n - 1)

        return halve

    halve = make()
    assert_same(halve, 10.0, 3)


def test_another_undefined_name_is_still_an_error():
    # Only the function's own name means its dispatcher while the decorator runs.
    with pytest.raises(TypingError, match="not defined"):

        @njit("i8(i8)")
        def calls_an_unknown_name(n):
            return n + not_defined_anywhere(n)  # noqa: F821


def test_the_name_is_released_after_the_decorator():
    from taipan.dispatcher import _being_defined

    @njit("i8(i8)")
    def countdown(n):
        return 0 if n <= 0 else countdown(n - 1)

    assert countdown(5) == 0
    assert not _being_defined


def test_a_failing_signature_releases_the_name():
    from taipan.dispatcher import _being_defined

    with pytest.raises(TypingError):

        @njit("i8(i8)")
        def bad(n):
            return bad(n) + "text"

    assert not _being_defined


def test_cuda_device_function_with_an_explicit_signature_calls_itself():
    # numba-cuda's form: the device function compiles (to PTX) inside its decorator.
    import numpy as np

    from taipan import cuda

    @cuda.jit("i8(i8)", device=True)
    def device_fib(n):
        if n < 2:
            return n
        return device_fib(n - 1) + device_fib(n=n - 2)

    @cuda.jit
    def fill(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = device_fib(i)

    if not cuda.is_available():
        pytest.skip("no CUDA driver or GPU to run the kernel")
    out = np.zeros(12, np.int64)
    fill[1, 32](out)
    assert out.tolist() == [cases.fib1(i) for i in range(12)]
