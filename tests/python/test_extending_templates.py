"""Numba's typing templates in taipan's extension API: ``infer_global`` / ``infer`` with
``ConcreteTemplate``, ``AbstractTemplate`` and ``CallableTemplate`` typing calls that
``lower_builtin`` lowers, over plain Python functions, operators and user types; and attribute
stores (``value.attr = x``) typed by an ``AttributeTemplate`` and lowered by ``lower_setattr``
/ ``lower_setattr_generic``. Results are compared with the plain Python functions."""

# ruff: noqa: RUF012 - templates list their cases in a class attribute, as Numba's API has it

import math
import operator
import os

import numpy as np
import pytest
from ptx_assembly import PTXAS, ptxas
from struct_user_types import no_leaks, struct_user_type  # noqa: F401 - the autouse fixture

from taipan import njit, types
from taipan.core import cgutils
from taipan.core.imputils import impl_ret_borrowed
from taipan.core.typing import signature
from taipan.core.typing.templates import (
    AbstractTemplate,
    AttributeTemplate,
    CallableTemplate,
    ConcreteTemplate,
    infer,
    infer_getattr,
    infer_global,
)
from taipan.errors import TypingError
from taipan.extending import (
    lower_builtin,
    lower_getattr,
    lower_setattr,
    lower_setattr_generic,
    models,
    overload,
    register_model,
    type_callable,
)

# A function typed by a ConcreteTemplate: one case per float type.


def clamp01(x):
    return min(max(x, 0.0), 1.0)


@infer_global(clamp01)
class Clamp01Typing(ConcreteTemplate):
    cases = [signature(types.float64, types.float64), signature(types.float32, types.float32)]


@lower_builtin(clamp01, types.Float)
def lower_clamp01(context, builder, sig, args):
    (x,) = args
    zero = context.get_constant(sig.return_type, 0.0)
    one = context.get_constant(sig.return_type, 1.0)
    low = builder.select(builder.fcmp_ordered("<", x, zero), zero, x)
    return builder.select(builder.fcmp_ordered(">", low, one), one, low)


@pytest.mark.parametrize("value", [-2.5, 0.0, 0.25, 1.0, 7.0])
def test_concrete_template_cases(value):
    @njit
    def f(x):
        return clamp01(x)

    assert f(value) == clamp01(value)
    # the float32 case: computed in float32 (a float32 result returns as a Python float)
    assert f(np.float32(value)) == np.float32(clamp01(np.float32(value)))


def test_concrete_template_converts_numbers_to_a_case():
    @njit
    def f(n):
        return clamp01(n)

    assert f(3) == 1.0
    assert f(-3) == 0.0
    assert isinstance(f(0), float)


def test_concrete_template_without_a_case_is_a_typing_error():
    @njit
    def f(x):
        return clamp01(x)  # no case takes a tuple

    with pytest.raises(TypingError, match="clamp01"):
        f((1.0, 2.0))


# AbstractTemplate.generic and CallableTemplate.generic.


def weighted(a, b, w):
    return a * w + b * (1 - w)


@infer_global(weighted)
class WeightedTyping(AbstractTemplate):
    def generic(self, args, kws):
        assert not kws
        a, b, w = args
        if isinstance(a, types.Integer) and isinstance(b, types.Integer):
            return signature(types.float64, types.float64, types.float64, types.float64)
        if a == b and isinstance(a, types.Float) and isinstance(w, types.Float):
            return signature(a, a, a, a)
        return None


@lower_builtin(weighted, types.Float, types.Float, types.Float)
def lower_weighted(context, builder, sig, args):
    def impl(a, b, w):
        return a * w + b * (1 - w)

    return context.compile_internal(builder, impl, sig, args)


@pytest.mark.parametrize(
    "args", [(1.0, 3.0, 0.25), (2, 5, 0.5), (np.float32(1.5), np.float32(2.5), 0.5)]
)
def test_abstract_template(args):
    @njit
    def f(a, b, w):
        return weighted(a, b, w)

    assert f(*args) == pytest.approx(weighted(*args))


def test_abstract_template_declining_is_a_typing_error():
    @njit
    def f(a, b):
        return weighted(a, b, 0.5)  # mixed float widths: declined

    with pytest.raises(TypingError, match="weighted"):
        f(1.0, np.float32(2.0))


def cube(x):
    return x * x * x


@infer
class CubeTyping(CallableTemplate):
    key = cube

    def generic(self):
        def typer(x):
            if isinstance(x, types.Integer):
                return types.int64
            if isinstance(x, types.Float):
                return x

        return typer


@lower_builtin(cube, types.Integer)
@lower_builtin(cube, types.Float)
def lower_cube(context, builder, sig, args):
    (x,) = args
    x = context.cast(builder, x, sig.args[0], sig.return_type)
    if isinstance(sig.return_type, types.Integer):
        return builder.mul(builder.mul(x, x), x)
    return builder.fmul(builder.fmul(x, x), x)


@pytest.mark.parametrize("value", [0, 3, -4, 2.5, -0.5])
def test_callable_template_with_infer(value):
    @njit
    def f(x):
        return cube(x)

    assert f(value) == cube(value)


def test_infer_of_numbas_other_internal_keys_is_accepted():
    # "print_item", "getitem", "setitem" and infer_global(value, type) work now (they were
    # refused: test_extending_protocols.py, test_extending_casts_constants.py); Numba's other
    # internal keys are registered (a module registering them imports) and asked for by nothing
    class IterTyping(ConcreteTemplate):
        key = "getiter"
        cases = []

    assert infer(IterTyping) is IterTyping

    @njit
    def f(x):
        return clamp01(x)

    assert f(1.5) == 1.0


def test_typed_but_not_lowered_is_a_typing_error():
    def halve(x):
        return x / 2

    @infer_global(halve)
    class HalveTyping(ConcreteTemplate):
        cases = [signature(types.float64, types.float64)]

    @njit
    def f(x):
        return halve(x)

    with pytest.raises(TypingError, match="no lower_builtin implements it"):
        f(1.0)


# An operator on a user type, typed by a template.


class Vec2:
    def __init__(self, x, y):
        self.x = x
        self.y = y


VEC2 = struct_user_type(
    "Vec2",
    {"x": types.float64, "y": types.float64},
    python_class=Vec2,
    attributes=False,  # the attribute templates below type them
    typeof=False,
    unboxes=False,
    constructs=True,
)
Vec2Type = VEC2.type_class
vec2_type = VEC2.type


@infer_global(operator.add)
class Vec2Add(ConcreteTemplate):
    cases = [signature(vec2_type, vec2_type, vec2_type)]


@lower_builtin(operator.add, Vec2Type, Vec2Type)
def lower_vec2_add(context, builder, sig, args):
    a = cgutils.create_struct_proxy(vec2_type)(context, builder, value=args[0])
    b = cgutils.create_struct_proxy(vec2_type)(context, builder, value=args[1])
    result = cgutils.create_struct_proxy(vec2_type)(context, builder)
    result.x = builder.fadd(a.x, b.x)
    result.y = builder.fadd(a.y, b.y)
    return result._getvalue()


@infer_getattr
class Vec2Attributes(AttributeTemplate):
    key = Vec2Type

    def resolve_x(self, vec):
        return types.float64

    def resolve_y(self, vec):
        return types.float64

    def resolve_norm(self, vec):
        return types.float64


@lower_getattr(Vec2Type, "x")
def vec2_x(context, builder, typ, value):
    return builder.extract_value(value, 0)


@lower_getattr(Vec2Type, "y")
def vec2_y(context, builder, typ, value):
    return builder.extract_value(value, 1)


@lower_getattr(Vec2Type, "norm")
def vec2_norm(context, builder, typ, value):
    def impl(x, y):
        return math.hypot(x, y)

    x, y = builder.extract_value(value, 0), builder.extract_value(value, 1)
    sig = signature(types.float64, types.float64, types.float64)
    return context.compile_internal(builder, impl, sig, [x, y])


def test_operator_typed_by_a_template_on_a_user_type():
    @njit
    def f(a, b, c, d):
        v = Vec2(a, b) + Vec2(c, d)
        return v.x, v.y, v.norm

    assert f(1.0, 2.0, 3, 4) == (4.0, 6.0, math.hypot(4.0, 6.0))


@infer_global(operator.neg)
class Vec2Neg(ConcreteTemplate):
    cases = [signature(vec2_type, vec2_type)]


@lower_builtin(operator.neg, Vec2Type)
def lower_vec2_neg(context, builder, sig, args):
    a = cgutils.create_struct_proxy(vec2_type)(context, builder, value=args[0])
    result = cgutils.create_struct_proxy(vec2_type)(context, builder)
    result.x = builder.fneg(a.x)
    result.y = builder.fneg(a.y)
    return result._getvalue()


@overload(operator.sub)
def vec2_sub(a, b):  # the high-level API on the same type
    if isinstance(a, Vec2Type) and isinstance(b, Vec2Type):

        def impl(a, b):
            return Vec2(a.x - b.x, a.y - b.y)

        return impl


def test_unary_operator_and_an_overload_of_an_operator_on_a_user_type():
    @njit
    def f(a, b):
        v = -Vec2(a, b) - Vec2(1.0, 1.0)
        return v.x, v.y

    assert f(2.0, -3.0) == (-3.0, 2.0)


@overload(operator.getitem)
def vec2_getitem(v, i):
    if isinstance(v, Vec2Type) and isinstance(i, types.Integer):

        def impl(v, i):
            return v.x if i == 0 else v.y

        return impl


@infer_global(operator.eq)
class Vec2Eq(ConcreteTemplate):
    cases = [signature(types.boolean, vec2_type, vec2_type)]


@lower_builtin(operator.eq, Vec2Type, Vec2Type)
def lower_vec2_eq(context, builder, sig, args):
    a = cgutils.create_struct_proxy(vec2_type)(context, builder, value=args[0])
    b = cgutils.create_struct_proxy(vec2_type)(context, builder, value=args[1])
    same_x = builder.fcmp_ordered("==", a.x, b.x)
    return builder.and_(same_x, builder.fcmp_ordered("==", a.y, b.y))


@pytest.mark.parametrize("a, b", [(1.0, 2.0), (3.0, 3.0), (float("nan"), 1.0)])
def test_indexing_and_comparing_user_types(a, b):
    @njit
    def f(a, b):
        v = Vec2(a, b)
        same = v == Vec2(a, b)
        if v == Vec2(b, a):
            return v[0], v[1], same, True
        return v[0], v[1], same, False

    got = f(a, b)
    assert got[:2] == (a, b) or (math.isnan(got[0]) and math.isnan(a))
    no_nan = not (math.isnan(a) or math.isnan(b))
    assert got[2:] == (no_nan, no_nan and a == b)  # as the lowering compares: ordered


def test_a_comparison_nothing_types_is_a_typing_error():
    @njit
    def f(a):
        return Vec2(a, a) < Vec2(a, a)  # the line

    with pytest.raises(TypingError, match="operator.lt"):
        f(1.0)


def test_an_operator_nothing_types_for_a_user_type_is_a_typing_error():
    @njit
    def f(a):
        return Vec2(a, a) * 2  # the line

    with pytest.raises(TypingError, match="mul"):
        f(1.0)


def test_the_operator_keeps_its_own_implementations():
    @njit
    def f(a, b):
        return a + b, (a, 1) + (b, 2)

    assert f(1, 2.5) == (3.5, (1, 1, 2.5, 2))


# Attribute stores: lower_setattr and lower_setattr_generic.


class Cell:
    """A view of the first element of an array, with a readable and writable ``value``."""

    def __init__(self, data):
        self.data = data

    @property
    def value(self):
        return self.data[0]

    @value.setter
    def value(self, new):
        self.data[0] = new


class CellType(types.Type):
    def __init__(self):
        super().__init__(name="Cell")


cell_type = CellType()


@register_model(CellType)
class CellModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        models.StructModel.__init__(self, dmm, fe_type, [("data", types.float64[::1])])


@type_callable(Cell)
def type_cell(context):
    def typer(data):
        if data == types.float64[::1]:
            return cell_type

    return typer


@lower_builtin(Cell, types.Array)
def lower_cell(context, builder, sig, args):
    cell = cgutils.create_struct_proxy(cell_type)(context, builder)
    cell.data = args[0]
    return impl_ret_borrowed(context, builder, cell_type, cell._getvalue())


@infer_getattr
class CellAttributes(AttributeTemplate):
    key = CellType

    def resolve_value(self, cell):
        return types.float64

    def resolve_twice(self, cell):
        return types.float64


def _first_element_pointer(context, builder, cell_value):
    cell = cgutils.create_struct_proxy(cell_type)(context, builder, value=cell_value)
    array = context.make_array(types.float64[::1])(context, builder, value=cell.data)
    return array.data


@lower_getattr(CellType, "value")
def cell_value(context, builder, typ, value):
    return builder.load(_first_element_pointer(context, builder, value))


@lower_setattr(CellType, "value")
def set_cell_value(context, builder, sig, args):
    assert sig.args[1] == types.float64  # the value arrives converted to the template's type
    builder.store(args[1], _first_element_pointer(context, builder, args[0]))


@lower_setattr_generic(CellType)
def set_cell_generic(context, builder, sig, args, attr):
    assert attr == "twice"
    doubled = builder.fmul(args[1], context.get_constant(types.float64, 2.0))
    builder.store(doubled, _first_element_pointer(context, builder, args[0]))


@pytest.mark.parametrize("new", [2.5, 7, np.float32(0.5), True])
def test_lower_setattr_stores_converted_values(new):
    def f(a, new):
        c = Cell(a)
        before = c.value
        c.value = new
        return before, c.value

    compiled = njit(f)
    a, b = np.array([1.0, 2.0]), np.array([1.0, 2.0])
    assert compiled(a, new) == f(b, new)
    np.testing.assert_array_equal(a, b)


def test_lower_setattr_generic_gets_the_attribute_name():
    @njit
    def f(a):
        c = Cell(a)
        c.twice = 4.0
        return c.value

    a = np.zeros(3)
    assert f(a) == 8.0
    assert a[0] == 8.0


def test_setting_an_attribute_no_template_types_is_a_typing_error():
    @njit
    def f(a):
        c = Cell(a)
        c.other = 1.0  # not typed by CellAttributes
        return c.value

    with pytest.raises(TypingError, match="cannot set attribute 'other' of Cell"):
        f(np.zeros(1))


def test_setting_an_attribute_of_a_type_without_setattr_is_a_typing_error():
    @njit
    def f(a, b):
        v = Vec2(a, b)
        v.x = 3.0  # typed by Vec2Attributes, but no lower_setattr
        return v.x

    with pytest.raises(TypingError, match="cannot set attribute 'x' of Vec2"):
        f(1.0, 2.0)


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_templates_operators_and_setattr_compile_into_kernels(tmp_path):
    from taipan import cuda

    def kernel(out, data):
        i = cuda.grid(1)
        if i < out.size:
            v = -(Vec2(data[i], 1.0) + Vec2(2.0, data[i]))
            out[i] = clamp01(v.x) + cube(v.y)  # (compile_internal's weighted: CPU only)
            if i == 0:
                c = Cell(data)
                c.value = out[i]

    signature_ = (types.float64[::1], types.float64[::1])
    ptx, _ = cuda.compile_ptx(kernel, signature_, cc=(9, 0))
    ptxas(ptx, tmp_path)
