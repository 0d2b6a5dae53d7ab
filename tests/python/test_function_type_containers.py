"""First-class function values (``types.FunctionType``) in typed Lists, Dicts and tuples.

Jitted functions, cfuncs, ``WrapperAddressProtocol`` objects and compile results stored in a
``List.empty_list(types.FunctionType(sig))`` (or a typed Dict's values, or tuple items) from
Python and inside compiled code, then called indirectly from the container. A jitted function
converts where a FunctionType is expected, as Numba's dispatcher does: it is compiled to a C
entry for the signature (call inference and casting, not the List code). Every compiled result
is compared with the Python function's, and every call checks the runtime's block counters.
"""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap

import pytest
from child_processes import child_python_path
from conftest import assert_same, run

from taipan import cfunc, njit, types
from taipan.errors import TypingError
from taipan.runtime import live_blocks
from taipan.typed import Dict, List

FLOAT_SIGNATURE = types.float64(types.float64)
FLOAT_FUNCTION = types.FunctionType(FLOAT_SIGNATURE)
INT_SIGNATURE = types.int64(types.int64, types.int64)
INT_FUNCTION = types.FunctionType(INT_SIGNATURE)
FLOAT_PAIR = types.UniTuple(FLOAT_FUNCTION, 2)


@njit
def plus_one(x):
    return x + 1.0


@njit
def halve(x):
    return x / 2.0


@njit(FLOAT_SIGNATURE)
def squared(x):  # an explicit signature: its compilation is closed
    return x * x


@cfunc(FLOAT_SIGNATURE)
def negated(x):
    return -x


@njit
def add(x, y):
    return x + y


@njit
def mul(x, y):
    return x * y


@cfunc(INT_SIGNATURE)
def floor_divide(x, y):
    return x // y


@njit
def inverse(x):
    return 1.0 / x  # ZeroDivisionError at 0.0, raised through the function value


class Cube(types.WrapperAddressProtocol):
    """A protocol object whose C function is a cfunc of the signature."""

    def __init__(self):
        self._cfunc = cfunc(FLOAT_SIGNATURE)(lambda x: x * x * x)

    def __wrapper_address__(self):
        return self._cfunc.address

    def signature(self):
        return FLOAT_SIGNATURE

    def __call__(self, x):
        return x * x * x


CUBE = Cube()


def float_list(*functions):
    items = List.empty_list(FLOAT_FUNCTION)
    for function in functions:
        items.append(function)
    return items


def checked(function, *args):
    """assert_same with the runtime's block counters equal before and after."""
    run(function, *args)  # compiled (and its function values' entries made) first
    before = live_blocks()
    result = assert_same(function, *args)
    assert live_blocks() == before
    return result


@njit
def call_each_by_index(functions, x):
    total = 0.0
    for i in range(len(functions)):
        total = total * 3.0 + functions[i](x)
    return total


@njit
def call_each_by_iteration(functions, x):
    results = List.empty_list(types.float64)
    for f in functions:
        results.append(f(x))
    return results


@njit
def compose(functions, x):
    for i in range(len(functions) - 1, -1, -1):
        x = functions[i](x)
    return x


# --- lists filled from Python ---------------------------------------------------------------


@pytest.mark.parametrize("x", [0.5, 3.0, -2.25, 0.0, 1e300, float("inf"), float("nan")])
def test_list_of_jitted_functions_appended_from_python(x):
    functions = float_list(plus_one, halve, plus_one)
    checked(call_each_by_index, functions, x)
    checked(compose, functions, x)
    assert list(call_each_by_iteration(functions, x)) == pytest.approx(
        [plus_one.py_func(x), halve.py_func(x), plus_one.py_func(x)], nan_ok=True
    )


@pytest.mark.parametrize(
    "members",
    [
        (plus_one,),
        (squared, halve),
        (negated, plus_one),
        (CUBE, halve, negated),
        (plus_one, squared, negated, CUBE, halve),
    ],
    ids=["jitted", "explicit-signature", "cfunc", "protocol", "all-kinds"],
)
@pytest.mark.parametrize("x", [1.5, -4.0, 0.0])
def test_list_of_every_kind_of_function_value(members, x):
    functions = float_list(*members)
    checked(call_each_by_index, functions, x)
    checked(compose, functions, x)


def test_items_read_back_in_python_are_the_objects_stored():
    functions = float_list(plus_one, negated, CUBE)
    assert functions[0] is plus_one and functions[1] is negated and functions[2] is CUBE
    assert [f(2.0) for f in functions] == [3.0, -2.0, 8.0]


def test_setitem_and_insert_from_python():
    functions = float_list(negated, negated)
    functions[1] = halve
    functions.insert(0, plus_one)
    assert functions[0] is plus_one and functions[2] is halve
    checked(compose, functions, 7.0)


def test_empty_list_of_function_values():
    checked(call_each_by_index, List.empty_list(FLOAT_FUNCTION), 1.0)


def test_list_of_integer_functions_with_two_parameters():
    functions = List.empty_list(INT_FUNCTION)
    for function in (add, mul, floor_divide):
        functions.append(function)

    @njit
    def fold(functions, x, y):
        total = 0
        for f in functions:
            total = total * 100 + f(x, y)
        return total

    for x, y in [(7, 3), (-7, 3), (0, 5), (2**20, 2**10)]:
        checked(fold, functions, x, y)


def test_exception_raised_through_a_stored_jitted_function():
    functions = float_list(plus_one, inverse)
    checked(call_each_by_index, functions, 4.0)
    checked(call_each_by_index, functions, 0.0)  # ZeroDivisionError from inverse, as Python


def test_function_values_kept_alive_by_the_list():
    functions = List.empty_list(FLOAT_FUNCTION)
    functions.append(Cube())  # its only reference is the list's
    functions.append(njit(lambda x: x - 3.0))
    import gc

    gc.collect()
    assert functions[0](2.0) == 8.0
    assert call_each_by_index(functions, 2.0) == 8.0 * 3.0 - 1.0


STORED_ARGUMENT_OUTLIVES_ITS_CALLER = """
    import gc
    from taipan import cfunc, njit, types
    from taipan.typed import List

    SIGNATURE = types.float64(types.float64)

    class Triple(types.WrapperAddressProtocol):
        def __init__(self):
            self.cfunc = cfunc(SIGNATURE)(lambda x: x * 3.0)

        def __wrapper_address__(self):
            return self.cfunc.address

        def signature(self):
            return SIGNATURE

    @njit
    def keep(functions, function):
        functions.append(function)

    @njit
    def call_first(functions, x):
        return functions[0](x)

    functions = List.empty_list(types.FunctionType(SIGNATURE))
    keep(functions, Triple())  # the caller's only reference is gone after the call
    gc.collect()
    for _ in range(1000):
        Triple()
    gc.collect()
    assert type(functions[0]).__name__ == "Triple"
    assert call_first(functions, 2.0) == 6.0
    print("ok")
"""


def test_function_object_stored_by_compiled_code_outlives_its_caller(tmp_path):
    # Was a use after free (a crash): the stored value borrowed the argument's object.
    script = tmp_path / "stored.py"
    script.write_text(textwrap.dedent(STORED_ARGUMENT_OUTLIVES_ITS_CALLER))
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": child_python_path()},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout + result.stderr


# --- lists built in compiled code -------------------------------------------------------------


@njit
def build_from_globals(x):
    functions = List.empty_list(FLOAT_FUNCTION)
    functions.append(plus_one)
    functions.append(halve)
    functions.append(squared)
    functions.append(negated)
    functions.insert(0, halve)
    total = 0.0
    for f in functions:
        total = total * 3.0 + f(x)
    return total, len(functions)


@njit
def build_from_arguments(f, g, x):
    functions = List.empty_list(FLOAT_FUNCTION)
    functions.append(f)
    functions.append(g)
    functions.append(f)
    functions[1] = plus_one
    return call_each_by_index(functions, x)


@njit
def build_and_return(f):
    functions = List.empty_list(FLOAT_FUNCTION)
    functions.append(plus_one)
    functions.append(f)
    functions.append(negated)
    return functions


@pytest.mark.parametrize("x", [2.0, -0.5, 0.0, float("inf")])
def test_list_built_in_compiled_code_from_global_functions(x):
    checked(build_from_globals, x)


@pytest.mark.parametrize("f, g", [(halve, squared), (negated, CUBE), (plus_one, halve)])
def test_list_built_in_compiled_code_from_arguments(f, g):
    checked(build_from_arguments, f, g, 3.0)


def test_list_built_in_compiled_code_returned_to_python():
    before = live_blocks()
    functions = build_and_return(halve)
    assert len(functions) == 3
    assert [f(6.0) for f in functions] == [7.0, 3.0, -6.0]
    # values made in compiled code box as the objects they came from
    assert functions[0] is plus_one and functions[1] is halve and functions[2] is negated
    assert call_each_by_index(functions, 6.0) == (7.0 * 3.0 + 3.0) * 3.0 - 6.0
    del functions
    assert live_blocks() == before


@njit
def append_to(functions, which):
    if which == 0:
        functions.append(plus_one)
    else:
        functions.append(halve)
    return len(functions)


def test_append_in_compiled_code_to_a_list_from_python():
    functions = float_list(negated)
    assert append_to(functions, 0) == 2 and append_to(functions, 1) == 3
    assert [f(4.0) for f in functions] == [-4.0, 5.0, 2.0]
    checked(compose, functions, 4.0)


@njit
def append_a_choice(first, x):
    function = plus_one if first else halve  # one of two jitted functions, chosen at run time
    functions = List.empty_list(FLOAT_FUNCTION)
    functions.append(function)
    functions.append(negated)
    return call_each_by_index(functions, x)


@pytest.mark.parametrize("first", [True, False])
def test_variable_holding_one_of_several_jitted_functions_is_appended(first):
    checked(append_a_choice, first, 5.0)


class SharedAddress(types.WrapperAddressProtocol):
    """A second protocol object for negated's C function."""

    def __wrapper_address__(self):
        return negated.address

    def signature(self):
        return FLOAT_SIGNATURE


@njit
def return_negated():
    return negated


def test_value_of_an_address_several_objects_share_boxes_as_a_plain_function_value():
    assert return_negated() is negated
    shared = SharedAddress()
    assert call_each_by_index(float_list(shared), 2.0) == -2.0  # both objects now known
    value = return_negated()
    assert value is not negated and value is not shared
    assert value(2.0) == -2.0 and value.signature() == FLOAT_SIGNATURE


# --- dicts --------------------------------------------------------------------------------------


@njit
def call_by_key(functions, key, x):
    return functions[key](x)


def test_dict_of_function_values_filled_from_python():
    functions = Dict.empty(types.int64, FLOAT_FUNCTION)
    functions[1] = plus_one
    functions[2] = squared
    functions[3] = negated
    functions[4] = CUBE
    for key in (1, 2, 3, 4):
        checked(call_by_key, functions, key, 1.5)
    checked(call_by_key, functions, 9, 1.5)  # KeyError, as Python
    assert functions[1] is plus_one


@njit
def dict_built_inside(x):
    functions = Dict.empty(types.unicode_type, FLOAT_FUNCTION)
    functions["one"] = plus_one
    functions["half"] = halve
    functions["neg"] = negated
    functions.setdefault("square", squared)
    total = 0.0
    for key in functions:
        total = total * 3.0 + functions[key](x)
    return total, len(functions)


@pytest.mark.parametrize("x", [0.5, -3.0])
def test_dict_of_function_values_built_in_compiled_code(x):
    checked(dict_built_inside, x)


# --- tuples ----------------------------------------------------------------------------------


@njit
def tuple_literal_called(x, i):
    functions = (plus_one, halve, squared, negated)
    return functions[i](x)


@pytest.mark.parametrize("i", [0, 1, 2, 3, -1])
def test_tuple_literal_of_function_values_indexed_at_run_time(i):
    checked(tuple_literal_called, 2.5, i)


def test_list_of_tuples_of_function_values():
    pair = types.UniTuple(FLOAT_FUNCTION, 2)
    pairs = List.empty_list(pair)
    pairs.append((plus_one, halve))
    pairs.append((negated, squared))

    @njit
    def apply_pairs(pairs, x):
        total = 0.0
        for first, second in pairs:
            total = total * 3.0 + second(first(x))
        return total

    checked(apply_pairs, pairs, 3.0)
    assert pairs[0][0] is plus_one


@njit
def call_items(functions, i, x):
    total = 0.0
    for f in functions:
        total = total * 3.0 + f(x)
    return total + functions[i](x)


@pytest.mark.parametrize(
    "functions",
    [(plus_one, negated), (negated, halve, CUBE), (CUBE, squared)],
    ids=["jitted-cfunc", "cfunc-jitted-protocol", "protocol-explicit"],
)
def test_tuple_argument_of_function_values_with_one_signature(functions):
    for i in range(-len(functions), len(functions)):
        checked(call_items, functions, i, 1.5)


@njit(types.float64(FLOAT_FUNCTION, types.float64))
def apply_declared(function, x):
    return function(x)


@njit
def pass_to_declared(x):
    return apply_declared(plus_one, x) + apply_declared(negated, x) * 10.0


def test_jitted_function_given_to_a_declared_function_type_parameter():
    checked(pass_to_declared, 2.5)
    checked(apply_declared, halve, 3.0)
    checked(apply_declared, CUBE, 3.0)


@njit
def extended_with_tuples(x):
    functions = List.empty_list(FLOAT_FUNCTION)
    functions.extend((plus_one, halve))  # two jitted functions of no signature of their own
    functions.extend((negated, squared, plus_one))
    return compose(functions, x), len(functions)


@pytest.mark.parametrize("x", [1.25, -8.0])
def test_extend_with_a_tuple_of_function_values_in_compiled_code(x):
    checked(extended_with_tuples, x)


def test_extend_from_python_with_function_values():
    functions = List.empty_list(FLOAT_FUNCTION)
    functions.extend([plus_one, negated, CUBE, halve])
    assert functions[0] is plus_one and functions[3] is halve
    checked(compose, functions, 2.0)


@njit
def tuples_built_inside(x):
    pairs = List.empty_list(FLOAT_PAIR)
    pairs.append((plus_one, halve))
    pairs.append((negated, plus_one))
    pairs.append((squared, squared))
    pairs[2] = (halve, negated)
    by_name = Dict.empty(types.unicode_type, FLOAT_PAIR)
    by_name["a"] = (halve, plus_one)
    by_name["b"] = (negated, CUBE_GLOBAL)
    total = 0.0
    for first, second in pairs:
        total = total * 3.0 + first(second(x))
    for key in by_name:
        first, second = by_name[key]
        total = total * 3.0 + first(second(x))
    return total


CUBE_GLOBAL = CUBE


@pytest.mark.parametrize("x", [0.75, -2.0])
def test_tuples_of_function_values_in_lists_and_dicts_built_in_compiled_code(x):
    checked(tuples_built_inside, x)


def test_dict_of_tuples_of_function_values_filled_from_python():
    by_name = Dict.empty(types.unicode_type, FLOAT_PAIR)
    by_name["a"] = (plus_one, negated)
    by_name["b"] = (CUBE, squared)

    @njit
    def apply_named(by_name, key, x):
        first, second = by_name[key]
        return first(second(x))

    for key in ("a", "b"):
        checked(apply_named, by_name, key, 1.5)
    assert by_name["a"][0] is plus_one and by_name["b"][0] is CUBE


# --- function values returned ---------------------------------------------------------------


@njit
def call_and_return(function, x):
    function(x)
    return function


@njit
def return_global_jitted():
    return halve


@pytest.mark.parametrize("function", [plus_one, squared, negated, CUBE])
def test_function_value_called_and_returned_is_the_object_given(function):
    assert call_and_return(function, 2.0) is function


def test_returned_global_jitted_function_is_its_dispatcher():
    assert return_global_jitted() is halve
    assert return_global_jitted()(3.0) == 1.5


# --- errors ----------------------------------------------------------------------------------


@njit
def text_of(x):
    return str(x)


def test_jitted_function_of_another_signature_is_refused_from_python():
    functions = List.empty_list(FLOAT_FUNCTION)
    with pytest.raises(TypingError, match="text_of"):
        functions.append(text_of)
    assert len(functions) == 0


def test_jitted_function_of_another_signature_is_refused_in_compiled_code():
    @njit
    def store_text():
        functions = List.empty_list(FLOAT_FUNCTION)
        functions.append(text_of)
        return len(functions)

    with pytest.raises(TypingError, match="text_of"):
        store_text()


def test_cfunc_of_another_signature_is_refused():
    functions = List.empty_list(INT_FUNCTION)
    with pytest.raises(TypeError, match="cannot store"):
        functions.append(negated)

    @njit
    def store_wrong():
        functions = List.empty_list(INT_FUNCTION)
        functions.append(negated)
        return len(functions)

    with pytest.raises(TypingError, match="store_wrong|append"):
        store_wrong()


def test_values_that_are_not_functions_are_refused():
    functions = List.empty_list(FLOAT_FUNCTION)
    with pytest.raises(TypeError, match="cannot store"):
        functions.append(1.5)
    with pytest.raises(TypeError, match="cannot store"):
        functions.append(math.sqrt)
