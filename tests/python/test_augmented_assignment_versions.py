"""An augmented assignment `x += y` reads one version of x and starts another (Numba's
`x = inplace_binop(x, y)` in SSA form), so the result may have another type than x had: a
number widened, a tuple grown, a user type's `+=` giving a number (Numba's test_iadd_binop).
An earlier alias keeps its value and type; only joins of control flow (a loop carrying x, an
if/else) unify the versions, as before. Updates in place (arrays, lists, sets) still change
the one object every alias sees. Results compare with the Python function; every test checks
the runtime's block counters."""

import operator

import numpy as np
import pytest
from conftest import assert_raises_same, assert_same
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit, types
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    lower_cast,
    models,
    overload,
    register_model,
    typeof_impl,
    unbox,
)
from taipan.runtime import live_blocks


@pytest.fixture(autouse=True)
def no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


def widened_with_alias(x, y):
    alias = x
    x += y
    return x, alias


@pytest.mark.parametrize(
    "x, y",
    [(2, 1j), (2, 0.5), (True, 1), (True, 2.5), (3, False), (1.5, 2j), (np.int32(3), 4)],
)
def test_a_widened_number_is_a_new_version_and_the_alias_keeps_its_type(x, y):
    assert_same(njit(widened_with_alias), x, y)


def every_operator(x, y):
    results = []
    a = x
    a -= y
    results.append(a)
    b = x
    b *= y
    results.append(b)
    c = x
    c /= y
    results.append(c)
    d = x
    d //= y
    results.append(d)
    e = x
    e %= y
    results.append(e)
    f = x
    f **= y
    results.append(f)
    return results, x


@pytest.mark.parametrize("x, y", [(7, 2.0), (7, 2), (-7, 3)])
def test_every_operator_starts_a_version_of_its_result_type(x, y):
    assert_same(njit(every_operator), x, y)


def grown_tuple(x):
    t = (x,)
    first = t
    t += (x + 1, x + 2)
    t += t
    return t, first


def grown_string(s):
    original = s
    s += "!"
    s *= 2
    return s, original


def test_a_tuple_grows_and_a_string_is_rebuilt():
    assert_same(njit(grown_tuple), 4)
    assert_same(njit(grown_string), "ab")
    assert_same(njit(grown_string), "")


def widened_in_a_branch(x, flag):
    if flag:
        x += 0.5
    return x


def widened_in_a_loop(x, n):
    for _ in range(n):
        x += 0.25
    return x


def widened_before_a_loop(x, n):
    x += 0.5
    total = 0
    for _ in range(n):
        total += x
    return total, x


@pytest.mark.parametrize("flag", [True, False])
def test_joins_still_unify_the_versions(flag):
    # Numba's phi nodes: the branch's float and the int that bypasses it are one float.
    compiled = njit(widened_in_a_branch)
    result = compiled(2, flag)
    assert result == widened_in_a_branch(2, flag) and type(result) is float
    result = njit(widened_in_a_loop)(1, 3)
    assert result == 1.75 and type(result) is float
    assert_same(njit(widened_before_a_loop), 3, 4)


def tuple_grown_in_a_loop(n):
    t = ()
    for i in range(n):
        t += (i,)
    return t


def test_a_type_changing_in_a_loop_is_still_a_typing_error_at_the_line():
    # the loop carries t: every iteration's version is one variable (Numba refuses it too)
    with pytest.raises(TypingError, match="for variable 't'") as raised:
        njit(tuple_grown_in_a_loop)(3)
    assert "t += (i,)" in str(raised.value)


def array_alias(a):
    b = a
    a += 1
    a *= 2
    return b


def list_alias(values):
    other = values
    values += [3]
    values *= 2
    return other


def set_alias(s):
    other = s
    s |= {9}
    s -= {1}
    return other


def frozenset_rebuilt(f):
    other = f
    f |= frozenset({9})
    return f, other


def test_updates_in_place_change_the_object_every_alias_sees():
    a = np.arange(4.0)
    result = njit(array_alias)(a)
    expected = array_alias(np.arange(4.0))
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(a, expected)  # the argument itself changed
    assert njit(list_alias)([1, 2]) == list_alias([1, 2])
    assert njit(set_alias)({1, 2}) == set_alias({1, 2})
    assert_same(njit(frozenset_rebuilt), frozenset({1}))


def new_list_widened(n):
    items = []
    items += [n]
    items.append(n + 1)
    return items


def test_a_list_typed_by_its_update_keeps_one_type():
    assert_same(njit(new_list_widened), 5)


def unbound_update(flag):
    if flag:
        x = 1
    x += 0.5  # unbound where flag is false
    return x


@pytest.mark.parametrize("flag", [True, False])
def test_an_update_of_an_unbound_name_raises_cpythons_error(flag):
    compiled = njit(unbound_update)
    if flag:
        assert_same(compiled, flag)
    else:
        assert_raises_same(compiled, flag)


def versions_in_a_generator(x):
    alias = x
    t = (x,)
    yield float(len(t))
    t += (x * 2,)  # a new version, kept across the yields
    yield float(len(t))
    x += 0.5
    yield x
    yield float(t[1] + alias)


def test_versions_in_a_generator():
    compiled = njit(versions_in_a_generator)
    assert list(compiled(3)) == list(versions_in_a_generator(3))


def updated_in_a_try(x):
    try:
        x += 0.5  # inside a try statement a name is one variable: widened to float
    except ZeroDivisionError:
        pass
    return x


def test_inside_a_try_statement_the_name_stays_one_variable():
    assert_same(njit(updated_in_a_try), 2, strict_type=False)


# Numba's test_extending: a user type whose `+=` overload gives a number, and one that converts
# to a number, whose built-in arithmetic comes first (as for `+`).


class Convertible:
    pass


class Plain:
    pass


class ConvertibleType(types.Opaque):
    def can_convert_to(self, context, toty):
        if isinstance(toty, types.Number):
            from taipan.core.typeconv import Conversion

            return Conversion.safe


class PlainType(types.Opaque):
    pass


convertible_type = ConvertibleType("augmented_convertible")
plain_type = PlainType("augmented_plain")


@typeof_impl.register(Convertible)
def _typeof_convertible(val, c):
    return convertible_type


@typeof_impl.register(Plain)
def _typeof_plain(val, c):
    return plain_type


@lower_cast(ConvertibleType, types.Number)
def _convertible_to_number(context, builder, fromty, toty, val):
    return context.get_constant(toty, 42)


register_model(ConvertibleType)(models.OpaqueModel)
register_model(PlainType)(models.OpaqueModel)


@unbox(ConvertibleType)
def _unbox_convertible(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@unbox(PlainType)
def _unbox_plain(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@overload(operator.add)
def _add_dummies(a, b):
    if isinstance(a, (ConvertibleType, PlainType)) and isinstance(b, (ConvertibleType, PlainType)):
        return lambda a, b: 42


@overload(operator.iadd)
def _iadd_dummies(a, b):
    if isinstance(a, (ConvertibleType, PlainType)) and isinstance(b, (ConvertibleType, PlainType)):
        return lambda a, b: 42


def call_iadd_binop(arg1, arg2):
    arg1 += arg2
    return arg1


def test_numbas_iadd_binop():
    compiled = njit(call_iadd_binop)
    assert compiled(1, 2) == 3
    result = compiled(Plain(), Plain())
    assert result == 42 and type(result) is int
    result = compiled(Convertible(), Convertible())  # add(Number, Number) of the casts
    assert result == 84 and type(result) is int


def plain_update_then_number(arg1, arg2, n):
    arg1 += arg2
    return arg1 + n


def test_a_user_types_update_result_is_used_as_its_type():
    assert njit(plain_update_then_number)(Plain(), Plain(), 1.5) == 43.5


@needs_ptxas
def test_a_kernel_widening_a_number_assembles(tmp_path):
    def kernel(out, x):
        alias = x
        x += 0.5
        out[0] = x
        out[1] = alias

    compiled = cuda.jit(kernel).compile("void(float64[:], int32)")
    ptxas(compiled.ptx, tmp_path)
