"""User types whose data model holds counted references (Numba's StructModel with an array
member, as pandas-like extensions wrap arrays): construction with ``impl_ret_borrowed``,
member reads, passing, storing in containers, returning to Python and raising, with the
runtime's counters checked everywhere (taipan.runtime.live_blocks), and intrinsics returning
references (Numba's contract: the codegen's result is a new reference)."""

import numpy as np
import pytest
from struct_user_types import no_leaks  # noqa: F401 - the autouse fixture

from taipan import njit, typed, types
from taipan.core import cgutils
from taipan.core.imputils import impl_ret_borrowed, impl_ret_new_ref
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    box,
    intrinsic,
    lower_builtin,
    make_attribute_wrapper,
    models,
    register_model,
    type_callable,
    typeof_impl,
    unbox,
)
from taipan.runtime import live_blocks


class Scaled:
    """An array with a scale factor (a plain Python class; compiled code has its own type)."""

    def __init__(self, data, scale):
        self.data = data
        self.scale = scale


class ScaledType(types.Type):
    def __init__(self, dtype):
        self.item = dtype
        super().__init__(name=f"Scaled({dtype})")


@register_model(ScaledType)
class ScaledModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("data", types.Array(fe_type.item, 1, "C")), ("scale", types.float64)]
        models.StructModel.__init__(self, dmm, fe_type, members)


make_attribute_wrapper(ScaledType, "data", "data")
make_attribute_wrapper(ScaledType, "scale", "scale")


@type_callable(Scaled)
def type_scaled(context):
    def typer(data, scale):
        if (
            isinstance(data, types.Array)
            and data.ndim == 1
            and data.layout == "C"
            and isinstance(scale, (types.Float, types.Integer))
        ):
            return ScaledType(data.dtype)

    return typer


@lower_builtin(Scaled, types.Array, types.Float)
def impl_scaled(context, builder, sig, args):
    scaled = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    scaled.data = args[0]
    scaled.scale = args[1]
    # The array is the caller's (borrowed): the new value holds a reference of its own.
    return impl_ret_borrowed(context, builder, sig.return_type, scaled._getvalue())


@typeof_impl.register(Scaled)
def typeof_scaled(value, c):
    return ScaledType(typeof_scaled_item(value.data))


def typeof_scaled_item(data):
    from taipan import typeof

    return typeof(data).dtype


@box(ScaledType)
def box_scaled(typ, val, c):
    """Boxes a Scaled as its scale alone (the array member is released by taipan)."""
    scaled = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    return c.pyapi.float_from_double(scaled.scale)


def test_construct_and_read_members_of_a_caller_array():
    @njit
    def f(a, s):
        x = Scaled(a, s)
        return x.data.sum() * x.scale

    a = np.arange(5.0)
    assert f(a, 2.0) == (a.sum() * 2.0)
    assert f(a, 0.5) == f.py_func(a, 0.5)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
def test_arrays_made_in_compiled_code_are_kept_alive_by_the_struct(dtype):
    @njit
    def f(n, s):
        x = Scaled(np.arange(n).astype(dtype), s)
        d = x.data  # a new reference to the member
        x = Scaled(np.ones(n, dtype=dtype), 1.0)  # the first struct (and its array) released
        return d.sum() * s + x.data.sum()

    for n in (0, 1, 7):
        assert f(n, 3.0) == f.py_func(n, 3.0)


def test_returning_a_member_array_to_python():
    @njit
    def f(n):
        x = Scaled(np.arange(n) * 1.5, 2.0)
        return x.data

    before = live_blocks()
    result = f(4)
    np.testing.assert_array_equal(result, np.arange(4) * 1.5)
    assert live_blocks() == before + 1  # the array's block, now the NumPy array's
    del result
    assert live_blocks() == before


def test_passed_to_and_returned_from_other_compiled_functions():
    @njit
    def total(x):
        return x.data.sum() * x.scale

    @njit
    def rescale(x, s):
        return Scaled(x.data, x.scale * s)

    @njit
    def f(n):
        x = Scaled(np.arange(float(n)), 1.0)
        y = rescale(x, 3.0)
        return total(x) + total(y)

    for n in (0, 3, 10):  # x's total and y's, three times x's
        assert f(n) == 4.0 * sum(range(n))


def test_in_lists_typed_lists_and_tuples():
    @njit
    def in_list(n):
        items = [Scaled(np.full(i + 1, 1.0), float(i)) for i in range(n)]
        total = 0.0
        for item in items:
            total += item.data.sum() * item.scale
        return total

    @njit
    def in_tuple(n):
        pair = (Scaled(np.ones(n), 2.0), Scaled(np.ones(n + 1), 3.0))
        return pair[0].data.sum() * pair[0].scale + pair[1].data.sum() * pair[1].scale

    @njit
    def in_typed_list(n):
        items = typed.List()
        for i in range(n):
            items.append(Scaled(np.arange(float(i)), 1.0))
        items.pop()
        return len(items), items[len(items) - 1].data.sum() if len(items) else 0.0

    expected = sum((i + 1) * float(i) for i in range(6))
    assert in_list(6) == expected
    assert in_tuple(4) == 4 * 2.0 + 5 * 3.0
    assert in_typed_list(5) == (4, float(sum(range(3))))


def test_returned_to_python_the_box_function_runs_and_members_are_released():
    @njit
    def f(n, s):
        return Scaled(np.arange(float(n)), s)

    @njit
    def pair(n):
        return Scaled(np.ones(n), 1.0), Scaled(np.zeros(n), 2.0)

    assert f(5, 4.0) == 4.0
    assert pair(3) == (1.0, 2.0)


def test_passing_one_from_python_needs_an_unbox():
    @njit
    def f(x):
        return x.data.sum() * x.scale

    # typeof_impl types it, but no @unbox converts it (c.unbox of arrays is not offered)
    with pytest.raises(TypeError, match=r"can't unbox Scaled\(float64\) type"):
        f(Scaled(np.arange(6.0), 2.0))


def test_exceptions_release_the_structs_made_before():
    @njit
    def f(n):
        x = Scaled(np.arange(float(n)), 1.0)
        if n > 2:
            raise ValueError("too long")
        return x.data.sum()

    assert f(2) == 1.0
    with pytest.raises(ValueError, match="too long"):
        f(5)


def test_in_a_loop_reassigned():
    @njit
    def f(n):
        x = Scaled(np.zeros(1), 0.0)
        total = 0.0
        for i in range(n):
            x = Scaled(np.full(i + 1, float(i)), 1.0)
            total += x.data.sum()
        return total

    assert f(20) == sum(float(i) * (i + 1) for i in range(20))


def test_intrinsic_results_holding_references_are_new_references():
    @intrinsic
    def same_array(typingctx, a):
        def codegen(context, builder, sig, args):
            return impl_ret_borrowed(context, builder, sig.return_type, args[0])

        return a(a), codegen

    @njit
    def f(n):
        a = np.arange(n)
        b = same_array(a)
        return b.sum() + a.sum()

    @njit
    def g(a):
        return same_array(a)

    assert f(5) == 20
    a = np.arange(3.0)
    np.testing.assert_array_equal(g(a), a)
    np.testing.assert_array_equal(a, np.arange(3.0))


def test_nrt_incref_and_decref_in_a_codegen_balance():
    @intrinsic
    def touch(typingctx, x):
        def codegen(context, builder, sig, args):
            context.nrt.incref(builder, sig.args[0], args[0])
            context.nrt.decref(builder, sig.args[0], args[0])
            one = context.get_constant(types.int64, 1)
            return impl_ret_new_ref(context, builder, sig.return_type, one)

        return types.int64(x), codegen

    @njit
    def f(n):
        x = Scaled(np.arange(float(n)), 1.0)
        items = typed.List()
        items.append(x)
        return touch(x) + touch((x, np.ones(2))) + touch(items)

    assert f(3) == 3


def test_a_model_member_must_be_a_runtime_value():
    class ModelLessType(types.Type):  # no data model: a compile-time type
        def __init__(self):
            super().__init__(name="ModelLess")

    class BadType(types.Type):
        def __init__(self):
            super().__init__(name="Bad")

    @register_model(BadType)
    class BadModel(models.StructModel):
        def __init__(self, dmm, fe_type):
            models.StructModel.__init__(self, dmm, fe_type, [("m", ModelLessType())])

    with pytest.raises(TypeError, match="members must be values compiled code holds"):
        BadType()


def test_typing_errors_name_the_users_line():
    @njit
    def f(a):
        return Scaled(a, "no").data  # the line

    with pytest.raises(TypingError) as raised:
        f(np.ones(2))
    assert "the line" in str(raised.value) or "Scaled" in str(raised.value)


# A type whose box and unbox convert its array member with c.box / c.unbox (pandas-like
# extensions' Index and Series), round-tripping through compiled code.


class Tagged:
    def __init__(self, data, tag):
        self.data = data
        self.tag = tag


class TaggedType(types.Type):
    def __init__(self, array_type):
        self.array_type = array_type
        super().__init__(name=f"Tagged({array_type})")


@register_model(TaggedType)
class TaggedModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("data", fe_type.array_type), ("tag", types.int64)]
        models.StructModel.__init__(self, dmm, fe_type, members)


make_attribute_wrapper(TaggedType, "data", "data")
make_attribute_wrapper(TaggedType, "tag", "tag")


@typeof_impl.register(Tagged)
def typeof_tagged(value, c):
    from taipan import typeof

    return TaggedType(typeof(value.data))


@type_callable(Tagged)
def type_tagged(context):
    def typer(data, tag):
        if isinstance(data, types.Array) and isinstance(tag, types.Integer):
            return TaggedType(data)

    return typer


@lower_builtin(Tagged, types.Array, types.Integer)
def impl_tagged(context, builder, sig, args):
    tagged = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    tagged.data = args[0]
    tagged.tag = context.cast(builder, args[1], sig.args[1], types.int64)
    return impl_ret_borrowed(context, builder, sig.return_type, tagged._getvalue())


@unbox(TaggedType)
def unbox_tagged(typ, obj, c):
    tagged = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    data_obj = c.pyapi.object_getattr_string(obj, "data")
    tag_obj = c.pyapi.object_getattr_string(obj, "tag")
    data = c.unbox(typ.array_type, data_obj)
    tag = c.unbox(types.int64, tag_obj)
    c.pyapi.decref(data_obj)
    c.pyapi.decref(tag_obj)
    tagged.data = data.value
    tagged.tag = tag.value
    is_error = c.builder.or_(data.is_error, tag.is_error)
    return NativeValue(tagged._getvalue(), is_error=is_error)


@box(TaggedType)
def box_tagged(typ, val, c):
    tagged = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    data_obj = c.box(typ.array_type, tagged.data)
    tag_obj = c.box(types.int64, tagged.tag)
    class_obj = c.pyapi.unserialize(c.pyapi.serialize_object(Tagged))
    result = c.pyapi.call_function_objargs(class_obj, (data_obj, tag_obj))
    for obj in (data_obj, tag_obj, class_obj):
        c.pyapi.decref(obj)
    return result


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_box_and_unbox_convert_array_members(dtype):
    @njit
    def passthrough(t):
        return t

    @njit
    def retag(t, n):
        return Tagged(t.data, t.tag + n)

    @njit
    def made_inside(n):
        return Tagged(np.arange(n).astype(dtype), n)

    a = np.arange(5).astype(dtype)
    same = passthrough(Tagged(a, 3))
    assert isinstance(same, Tagged) and same.tag == 3 and same.data is a
    other = retag(Tagged(a, 3), 4)
    assert other.tag == 7 and other.data is a
    made = made_inside(4)
    np.testing.assert_array_equal(made.data, np.arange(4).astype(dtype))
    assert made.data.dtype == dtype and made.tag == 4
    before = live_blocks()
    del made
    assert live_blocks() == before - 1  # the array made inside was the Tagged's


def test_unbox_errors_of_members_raise():
    @njit
    def f(t):
        return t.tag

    with pytest.raises(TypeError, match="reflected container"):
        f(Tagged([1, 2], 1))  # a list member: typed, but its changes could not reflect
    with pytest.raises(ValueError, match="invalid literal for int"):
        f(Tagged(np.arange(3.0), "one"))  # the tag's int() fails, as Python's
