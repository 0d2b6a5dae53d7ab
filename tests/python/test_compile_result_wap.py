"""``types.CompileResultWAP`` and typed Lists of first-class function values.

A dispatcher's ``overloads`` are compile results (``signature``, ``entry_point``, ``py_func``)
and ``types.CompileResultWAP(cres)`` makes one a first-class function value of its signature,
as Numba's does: passed to compiled code, called there through its C entry, stored in typed
Lists with cfuncs and called in a loop; from Python it calls the overload.
"""

from __future__ import annotations

import numpy as np
import pytest

from taipan import cfunc, njit, types
from taipan.runtime import live_blocks
from taipan.typed import List


@njit
def add_template(x, y):
    return x + y


@njit
def call_with(add, x, y):
    return add(x, y)


def compile_results():
    add_template(1, 2)
    add_template(1.2, 3.4)
    return add_template.overloads


def test_overloads_are_compile_results_with_numba_attributes():
    overloads = compile_results()
    cres = overloads[(types.int64, types.int64)]
    assert cres.signature == types.int64(types.int64, types.int64)
    assert cres.py_func is add_template.py_func
    assert cres.entry_point(2, 5) == 7
    # taipan's own attributes read through
    assert isinstance(cres.hash, str) and cres.return_type == types.int64


@pytest.mark.parametrize(
    "key, args",
    [
        ((types.int64, types.int64), (3, 4)),
        ((types.int64, types.int64), (-(2**62), 2**61)),
        ((types.float64, types.float64), (3.4, 4.5)),
        ((types.float64, types.float64), (float("inf"), -1.0)),
    ],
)
def test_compile_result_wap_called_from_compiled_code(key, args):
    wap = types.CompileResultWAP(compile_results()[key])
    assert wap.signature() == compile_results()[key].signature
    assert isinstance(wap.__wrapper_address__(), int) and wap.__wrapper_address__() > 0
    expected = add_template.py_func(*args)
    before = live_blocks()
    assert call_with(wap, *args) == expected
    assert wap(*args) == expected
    assert live_blocks() == before


def test_compile_result_wap_refuses_other_values():
    with pytest.raises(TypeError, match="CompileResultWAP takes a compile result"):
        types.CompileResultWAP(add_template)


SIGNATURE = types.float64(types.float64)
FUNCTION_TYPE = types.FunctionType(SIGNATURE)


@cfunc(SIGNATURE)
def plus_one(x):
    return x + 1.0


@njit
def twice(x):
    return 2.0 * x


@njit
def sum_of_calls(functions, x):
    total = 0.0
    for f in functions:
        total += f(x)
    for i in range(len(functions)):
        total += functions[i](x) * (i + 1)
    return total


def function_list(*items):
    functions = List.empty_list(FUNCTION_TYPE)
    for item in items:
        functions.append(item)
    return functions


@pytest.mark.parametrize("x", [0.0, 3.5, -2.0, float("nan")])
def test_typed_list_of_function_values_called_in_a_loop(x):
    twice(1.0)
    wap = types.CompileResultWAP(twice.overloads[(types.float64,)])
    functions = function_list(plus_one, wap, plus_one)
    python = [plus_one.py_func, twice.py_func, plus_one.py_func]
    expected = sum(f(x) for f in python) + sum(f(x) * (i + 1) for i, f in enumerate(python))
    before = live_blocks()
    np.testing.assert_equal(sum_of_calls(functions, x), expected)
    assert live_blocks() == before
    assert [f(x) for f in functions] == pytest.approx([f(x) for f in python], nan_ok=True)


def test_empty_typed_list_of_function_values():
    assert sum_of_calls(function_list(), 1.0) == 0.0


@njit
def built_inside(f, g, x):
    functions = List.empty_list(FUNCTION_TYPE)
    functions.append(f)
    functions.append(g)
    functions.append(f)
    total = 0.0
    for h in functions:
        total = total * 10.0 + h(x)
    return total, len(functions)


def test_typed_list_of_function_values_built_in_compiled_code():
    twice(1.0)
    wap = types.CompileResultWAP(twice.overloads[(types.float64,)])
    before = live_blocks()
    assert built_inside(plus_one, wap, 2.0) == ((3.0 * 10.0 + 4.0) * 10.0 + 3.0, 3)
    assert live_blocks() == before
