"""Operators bound to a user's implementation that return arrays (Numba's test_array_exprs
test_external_type): `Foo(x) + Foo(y)` with an @overload(operator.add) making an array is a call
of the overload, never part of a fused array expression (whose operands it is not), which
crashed the interpreter while compiling. Expected values are Numba 0.68's results."""

import operator
import os
import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python

from taipan import njit, types
from taipan.core import cgutils
from taipan.errors import TypingError
from taipan.experimental import jitclass
from taipan.extending import (
    lower_builtin,
    make_attribute_wrapper,
    models,
    overload,
    register_model,
    type_callable,
)
from taipan.runtime import live_blocks

TESTS = os.path.dirname(os.path.abspath(__file__))


class FooType(types.Type):
    def __init__(self):
        super().__init__(name="OperatorCrashFoo")


class Foo:
    def __init__(self, value):
        self.value = value


@register_model(FooType)
class FooModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        models.StructModel.__init__(self, dmm, fe_type, [("value", types.intp)])


make_attribute_wrapper(FooType, "value", "value")


@type_callable(Foo)
def _type_foo(context):
    def typer(value):
        return FooType()

    return typer


@lower_builtin(Foo, types.intp)
def _make_foo(context, builder, sig, args):
    foo = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    foo.value = args[0]
    return foo._getvalue()


@overload(operator.add)
def _add_foo_array(lhs, rhs):
    if isinstance(lhs, FooType) and isinstance(rhs, types.Array):
        return lambda lhs, rhs: np.array([lhs.value, rhs[0]])


@overload(operator.add)
def _add_foos(lhs, rhs):
    if isinstance(lhs, FooType) and isinstance(rhs, FooType):
        return lambda lhs, rhs: np.array([lhs.value, rhs.value])


def foo_plus_foo(x, y):
    return Foo(x) + Foo(y)


def foo_plus_array(x, y):
    return Foo(x) + np.array([y])


def foo_plus_foo_through_variables(x, y):
    f = Foo(x)
    g = Foo(y)
    return f + g


def array_plus_foo(x, y):
    return np.array([y]) + Foo(x)


def foo_minus_foo(x, y):
    return Foo(x) - Foo(y)


def foo_in_place_plus_foo(x, y):
    a = Foo(x)
    a += Foo(y)
    return a


def sum_in_array_expression(x, y):
    return (Foo(x) + Foo(y)) * 2 + 1


def mixed_array_expression(x, y):
    return 1 + (Foo(x) + np.array([y])) - np.ones(2)


def negated(x, y):
    return -(Foo(x) + Foo(y))


def reduced(x, y):
    return np.sum(Foo(x) + Foo(y) + 1)


def ufunc_of_sum(x, y):
    return np.sqrt(Foo(x) + Foo(y))


def compared(x, y):
    return (Foo(x) + Foo(y)) > 2


def test_foo_plus_foo_in_a_child_process_compiles_as_numba(tmp_path):
    # The form that crashed: run where a crash cannot take the test run with it.
    script = tmp_path / "foo_plus_foo.py"
    script.write_text(
        textwrap.dedent(
            """
            from taipan import njit
            from taipan.runtime import live_blocks
            from test_extending_operator_crash import foo_plus_foo, foo_plus_array

            print(repr(njit(foo_plus_foo)(2, 3)), repr(njit(foo_plus_array)(2, 3)))
            print(live_blocks())
            """
        )
    )
    environment = child_environment(TESTS, settings="none")
    completed = run_python([script], cwd=tmp_path, env=environment, timeout=240)
    assert completed.stdout.splitlines() == ["array([2, 3]) array([2, 3])", "0"]


@pytest.mark.parametrize(
    "function, expected",
    [
        (foo_plus_foo, np.array([2, 3])),
        (foo_plus_array, np.array([2, 3])),
        (foo_plus_foo_through_variables, np.array([2, 3])),
        (sum_in_array_expression, np.array([5, 7])),
        (mixed_array_expression, np.array([2.0, 3.0])),
        (negated, np.array([-2, -3])),
        (reduced, 7),
        (ufunc_of_sum, np.sqrt(np.array([2, 3]))),
        (compared, np.array([False, True])),
        # `a += b` is the add overload (taipan falls back to it, as CPython falls back from
        # __iadd__ to __add__; Numba 0.68 types operator.iadd only and refuses), and its array
        # is a new version of `a`, as Numba's `a = inplace_binop(a, b)` is.
        (foo_in_place_plus_foo, np.array([2, 3])),
    ],
)
def test_overloaded_operator_making_an_array(function, expected):
    compiled = njit(function)
    before = live_blocks()
    result = compiled(2, 3)
    assert type(result) is type(expected)
    if isinstance(expected, np.ndarray):
        assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)
    del result
    assert live_blocks() == before


@pytest.mark.parametrize(
    "function, message",
    [
        (array_plus_foo, "No implementation of operator.add for argument types"),
        (foo_minus_foo, "No implementation of operator.sub for argument types"),
    ],
)
def test_operators_with_no_matching_overload_are_typing_errors(function, message):
    # Numba: a TypingError for each (no overload for (array, Foo) or for '-').
    with pytest.raises(TypingError) as error:
        njit(function)(2, 3)
    assert message in str(error.value)
    assert f"in {function.__name__}" in str(error.value)  # the user's line


@jitclass([("v", types.int64)])
class Pair:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return np.array([self.v, other.v])

    def __neg__(self):
        return np.array([-self.v])


def test_jitclass_operators_making_arrays_inside_array_expressions():
    # (Numba 0.68 fuses the __add__ call into its array expression and fails in lowering.)
    @njit
    def f(x, y):
        return (Pair(x) + Pair(y)) + 1, -Pair(x) * 2

    before = live_blocks()
    total, negated_twice = f(2, 3)
    np.testing.assert_array_equal(total, np.array([3, 4]))
    np.testing.assert_array_equal(negated_twice, np.array([-4]))
    del total, negated_twice
    assert live_blocks() == before
