"""User-defined types through Numba's low-level extension API: Numba's Interval example
(docs/source/extending/interval-example.rst) with ``numba`` changed to ``taipan``, and the
rules around it (name/key/equality, data models, typing errors, box/unbox errors)."""

import math
import os
from contextlib import ExitStack

import numpy as np
import pytest
from ptx_assembly import PTXAS, ptxas

from taipan import njit, typeof, types
from taipan.core import cgutils
from taipan.core.typing.templates import AttributeTemplate
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    as_numba_type,
    box,
    infer_getattr,
    lower_builtin,
    lower_getattr,
    lower_getattr_generic,
    make_attribute_wrapper,
    models,
    overload,
    overload_attribute,
    register_model,
    type_callable,
    typeof_impl,
    unbox,
)
from taipan.runtime import live_blocks

pytest.importorskip("llvmlite")


class Interval:
    """A half-open interval on the real number line."""

    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi

    def __repr__(self):
        return f"Interval({self.lo:f}, {self.hi:f})"

    @property
    def width(self):
        return self.hi - self.lo


class IntervalType(types.Type):
    def __init__(self):
        super().__init__(name="Interval")


interval_type = IntervalType()


@typeof_impl.register(Interval)
def typeof_index(val, c):
    return interval_type


as_numba_type.register(Interval, interval_type)


@type_callable(Interval)
def type_interval(context):
    def typer(lo, hi):
        if isinstance(lo, types.Float) and isinstance(hi, types.Float):
            return interval_type

    return typer


@register_model(IntervalType)
class IntervalModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [
            ("lo", types.float64),
            ("hi", types.float64),
        ]
        models.StructModel.__init__(self, dmm, fe_type, members)


make_attribute_wrapper(IntervalType, "lo", "lo")
make_attribute_wrapper(IntervalType, "hi", "hi")


@overload_attribute(IntervalType, "width")
def get_width(interval):
    def getter(interval):
        return interval.hi - interval.lo

    return getter


@lower_builtin(Interval, types.Float, types.Float)
def impl_interval(context, builder, sig, args):
    typ = sig.return_type
    lo, hi = args
    interval = cgutils.create_struct_proxy(typ)(context, builder)
    interval.lo = lo
    interval.hi = hi
    return interval._getvalue()


@unbox(IntervalType)
def unbox_interval(typ, obj, c):
    """Convert a Interval object to a native interval structure."""
    is_error_ptr = cgutils.alloca_once_value(c.builder, cgutils.false_bit)
    interval = cgutils.create_struct_proxy(typ)(c.context, c.builder)

    with ExitStack() as stack:
        lo_obj = c.pyapi.object_getattr_string(obj, "lo")
        with cgutils.early_exit_if_null(c.builder, stack, lo_obj):
            c.builder.store(cgutils.true_bit, is_error_ptr)
        lo_native = c.unbox(types.float64, lo_obj)
        c.pyapi.decref(lo_obj)
        with cgutils.early_exit_if(c.builder, stack, lo_native.is_error):
            c.builder.store(cgutils.true_bit, is_error_ptr)

        hi_obj = c.pyapi.object_getattr_string(obj, "hi")
        with cgutils.early_exit_if_null(c.builder, stack, hi_obj):
            c.builder.store(cgutils.true_bit, is_error_ptr)
        hi_native = c.unbox(types.float64, hi_obj)
        c.pyapi.decref(hi_obj)
        with cgutils.early_exit_if(c.builder, stack, hi_native.is_error):
            c.builder.store(cgutils.true_bit, is_error_ptr)

        interval.lo = lo_native.value
        interval.hi = hi_native.value

    return NativeValue(interval._getvalue(), is_error=c.builder.load(is_error_ptr))


@box(IntervalType)
def box_interval(typ, val, c):
    """Convert a native interval structure to an Interval object."""
    ret_ptr = cgutils.alloca_once(c.builder, c.pyapi.pyobj)
    fail_obj = c.pyapi.get_null_object()

    with ExitStack() as stack:
        interval = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
        lo_obj = c.box(types.float64, interval.lo)
        with cgutils.early_exit_if_null(c.builder, stack, lo_obj):
            c.builder.store(fail_obj, ret_ptr)

        hi_obj = c.box(types.float64, interval.hi)
        with cgutils.early_exit_if_null(c.builder, stack, hi_obj):
            c.pyapi.decref(lo_obj)
            c.builder.store(fail_obj, ret_ptr)

        class_obj = c.pyapi.unserialize(c.pyapi.serialize_object(Interval))
        with cgutils.early_exit_if_null(c.builder, stack, class_obj):
            c.pyapi.decref(lo_obj)
            c.pyapi.decref(hi_obj)
            c.builder.store(fail_obj, ret_ptr)

        res = c.pyapi.call_function_objargs(class_obj, (lo_obj, hi_obj))
        c.pyapi.decref(lo_obj)
        c.pyapi.decref(hi_obj)
        c.pyapi.decref(class_obj)
        c.builder.store(res, ret_ptr)

    return c.builder.load(ret_ptr)


@njit
def inside_interval(interval, x):
    return interval.lo <= x < interval.hi


@njit
def interval_width(interval):
    return interval.width


@njit
def sum_intervals(i, j):
    return Interval(i.lo + j.lo, i.hi + j.hi)


def check_equal_intervals(x, y):
    assert isinstance(x, Interval) and isinstance(y, Interval)
    assert (x.lo, x.hi) == (y.lo, y.hi)
    assert type(x.lo) is float and type(x.hi) is float


@pytest.fixture(autouse=True)
def _no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


# The example, as Numba's test_interval_example runs it.


def test_box_unbox_round_trip():
    a = Interval(2.5, 3.0)
    return_func = njit(lambda x: x)
    check_equal_intervals(a, return_func(a))
    # ints in the attributes unbox through float(), as Numba's float unboxing does
    check_equal_intervals(Interval(2.0, 3.0), return_func(Interval(2, 3)))


@pytest.mark.parametrize("lo, hi", [(2.0, 3.0), (-1.5, 0.25), (0.0, -0.0), (1e308, float("inf"))])
def test_width_attribute_from_overload_attribute(lo, hi):
    a = Interval(lo, hi)
    assert interval_width(a) == a.width


@pytest.mark.parametrize("x", [1.0, 2.0, 2.5, 3.0, 5.0, float("nan")])
def test_attributes_from_the_struct_model(x):
    a = Interval(2.0, 3.0)
    assert inside_interval(a, x) is inside_interval.py_func(a, x)


def test_construction_in_compiled_code():
    a, b = Interval(2.0, 3.0), Interval(4.0, 5.5)
    check_equal_intervals(sum_intervals.py_func(a, b), sum_intervals(a, b))


def test_unbox_error_of_an_attribute_that_is_not_a_float():
    class NotAFloat:
        def __float__(self):
            raise RuntimeError("I am not a float")

    # Numba's float unboxing loses __float__'s error (PyFloat_AsDouble of NULL: a TypeError)
    with pytest.raises(TypeError):
        interval_width(Interval(2, NotAFloat()))


def test_unbox_error_of_a_missing_attribute():
    bad_interval = Interval(1, 2)
    del bad_interval.hi
    with pytest.raises(AttributeError):
        interval_width(bad_interval)


# The rules around it.


def test_type_name_key_and_equality():
    assert interval_type == IntervalType()
    assert hash(interval_type) == hash(IntervalType())
    assert str(interval_type) == repr(interval_type) == interval_type.name == "Interval"
    assert interval_type.key == "Interval"
    assert isinstance(interval_type, types.Type)
    assert interval_type != types.float64
    assert not isinstance(interval_type, types.Float)
    assert typeof(Interval(1.0, 2.0)) == interval_type
    assert as_numba_type(Interval) is interval_type


class ParametrizedType(types.Type):
    """A type class with one type per key (Numba's rule: same class and equal keys)."""

    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__(name=f"Parametrized({dtype})")

    @property
    def key(self):
        return self.dtype


class OtherParametrizedType(ParametrizedType):
    pass


def test_typeof_impl_types_any_value():
    # Numba's typeof_impl dispatches to the built-in rules for values no function is
    # registered for (pdlike_usecase's typeof of an Index asks it for the Index's array)
    assert typeof_impl(np.zeros(3)) == types.float64[::1]
    assert typeof_impl(2.5) == types.float64
    assert typeof_impl(Interval(0.0, 1.0)) is interval_type
    assert typeof_impl(object()) is None


def test_types_with_keys():
    assert ParametrizedType(types.int64) == ParametrizedType(types.int64)
    assert ParametrizedType(types.int64) != ParametrizedType(types.float64)
    # the same key in another class is another type
    assert OtherParametrizedType(types.int64) != ParametrizedType(types.int64)
    assert ParametrizedType(types.int64).name == "Parametrized(int64)"
    assert ParametrizedType(types.int64).dtype == types.int64
    assert len({ParametrizedType(types.int64), ParametrizedType(types.int64)}) == 1


def test_user_types_in_signatures():
    signature = types.float64(interval_type, types.float64)
    assert signature.args == (interval_type, types.float64)
    compiled = njit(types.boolean(interval_type, types.float64))(inside_interval.py_func)
    assert compiled(Interval(0.0, 1.0), 0.5) is True


def test_intervals_through_calls_between_compiled_functions():
    @njit
    def shifted(interval, by):
        return Interval(interval.lo + by, interval.hi + by)

    @njit
    def twice_shifted_width(interval):
        moved = shifted(shifted(interval, 1.0), 2.0)
        return moved.lo, moved.width

    assert twice_shifted_width(Interval(1.0, 4.0)) == (4.0, 3.0)


def test_tuples_of_intervals_box_and_unbox():
    @njit
    def swap(pair):
        return pair[1], pair[0]

    first, second = swap((Interval(1.0, 2.0), Interval(3.0, 4.0)))
    check_equal_intervals(first, Interval(3.0, 4.0))
    check_equal_intervals(second, Interval(1.0, 2.0))


def test_lists_of_intervals_in_and_out():
    @njit
    def total_width(intervals):
        total = 0.0
        for interval in intervals:
            total += interval.width
        return total

    @njit
    def make(n):
        out = []
        for i in range(n):
            out.append(Interval(float(i), float(i) + 0.5))
        return out

    intervals = [Interval(0.0, 1.0), Interval(2.0, 4.5)]
    assert total_width(intervals) == total_width.py_func(intervals)
    made = make(3)
    assert len(made) == 3
    for got, expected in zip(made, make.py_func(3)):
        check_equal_intervals(got, expected)


def test_typed_containers_and_optionals_of_intervals():
    from taipan.typed import List

    @njit
    def typed_list(n):
        out = List()
        for i in range(n):
            out.append(Interval(float(i), 2.0 * i))
        return out

    @njit
    def dict_lookup(n):
        out = {}
        for i in range(n):
            out[i] = Interval(float(i), 2.0 * i)
        return out[n - 1].hi

    @njit
    def maybe(flag, interval):
        return interval if flag else None

    got = typed_list(2)
    check_equal_intervals(got[1], Interval(1.0, 2.0))
    assert dict_lookup(3) == 4.0
    check_equal_intervals(maybe(True, Interval(1.0, 2.0)), Interval(1.0, 2.0))
    assert maybe(False, Interval(1.0, 2.0)) is None


def test_operators_without_an_overload_are_typing_errors_naming_the_line():
    @njit
    def same(a, b):
        return a == b

    with pytest.raises(TypingError, match="return a == b"):
        same(Interval(1.0, 2.0), Interval(1.0, 2.0))


def test_user_types_in_overload_typing_functions():
    def lower_bound(x):
        pass

    @overload(lower_bound)
    def lower_bound_impl(x):
        if isinstance(x, IntervalType):
            return lambda x: x.lo

    @njit
    def f(interval):
        return lower_bound(interval)

    assert f(Interval(-2.0, 1.0)) == -2.0


def test_construction_with_arguments_no_typer_accepts_is_a_typing_error():
    @njit
    def make(lo, hi):
        return Interval(lo, hi)

    with pytest.raises(TypingError, match="Interval") as error:
        make(1, 2)
    assert "test_extending_user_types.py" in str(error.value)


def test_unknown_attribute_is_a_typing_error():
    @njit
    def middle(interval):
        return interval.middle

    with pytest.raises(TypingError, match="middle"):
        middle(Interval(0.0, 1.0))


# Other data models.


class CounterType(types.Type):
    def __init__(self):
        super().__init__(name="Counter")


counter_type = CounterType()


@register_model(CounterType)
class CounterModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("count", types.int32), ("seen", types.boolean), ("total", types.float32)]
        super().__init__(dmm, fe_type, members)


make_attribute_wrapper(CounterType, "count", "count")
make_attribute_wrapper(CounterType, "seen", "seen")
make_attribute_wrapper(CounterType, "total", "total")


class Counter:
    def __init__(self, count, seen, total):
        self.count, self.seen, self.total = count, seen, total


@type_callable(Counter)
def type_counter(context):
    def typer(count, seen, total):
        if isinstance(count, types.Integer) and isinstance(seen, types.Boolean):
            return counter_type(types.int32, types.boolean, types.float32)

    return typer


@lower_builtin(Counter, types.int32, types.boolean, types.float32)
def impl_counter(context, builder, sig, args):
    counter = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    counter.count, counter.seen, counter.total = args
    return counter._getvalue()


def test_struct_model_of_mixed_members_and_signature_typers():
    @njit
    def fields(n, flag):
        c = Counter(n, flag, 0.5)
        return c.count, c.seen, c.total

    assert fields(7, True) == (7, True, 0.5)
    assert fields(-3, False) == (-3, False, 0.5)


def test_value_without_unbox_is_refused():
    @njit
    def identity(x):
        return x

    typeof_impl.register(Counter)(lambda val, c: counter_type)
    with pytest.raises(TypeError, match="unbox"):
        identity(Counter(1, True, 2.0))


class Handle:
    """An address a C library gave (here: any integer)."""

    def __init__(self, address):
        self.address = address


class HandleType(types.Opaque):
    pass


handle_type = HandleType("handle")
register_model(HandleType)(models.OpaqueModel)
typeof_impl.register(Handle)(lambda val, c: handle_type)


@unbox(HandleType)
def unbox_handle(typ, obj, c):
    address_obj = c.pyapi.object_getattr_string(obj, "address")
    address = c.pyapi.long_as_longlong(address_obj)
    c.pyapi.decref(address_obj)
    failed = cgutils.is_not_null(c.builder, c.pyapi.err_occurred())
    return NativeValue(c.builder.inttoptr(address, c.pyapi.voidptr), is_error=failed)


@box(HandleType)
def box_handle(typ, val, c):
    address = c.pyapi.long_from_longlong(c.builder.ptrtoint(val, c.pyapi.longlong))
    handle_class = c.pyapi.unserialize(c.pyapi.serialize_object(Handle))
    result = c.pyapi.call_function_objargs(handle_class, (address,))
    c.pyapi.decref(address)
    c.pyapi.decref(handle_class)
    return result


def test_opaque_types():
    assert handle_type.name == "handle"
    assert isinstance(handle_type, types.Opaque) and isinstance(handle_type, types.Dummy)
    assert handle_type != HandleType("other handle")

    @njit
    def pass_through(handles, index):
        return handles[index]

    got = pass_through((Handle(0x1234), Handle(0xCAFE)), 1)
    assert type(got) is Handle and got.address == 0xCAFE
    with pytest.raises(TypeError):  # the unbox's error: int() of a string
        pass_through((Handle(1), Handle("not an address")), 0)


class CountType(types.Type):
    def __init__(self):
        super().__init__(name="Count")


count_type = CountType()


@register_model(CountType)
class CountModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, cgutils.int64_t)


class Count(int):
    """An int that compiled code keeps as a Count."""


typeof_impl.register(Count)(lambda val, c: count_type)


@type_callable(Count)
def type_count(context):
    def typer(value):
        if isinstance(value, types.Integer):
            return count_type(types.int64)

    return typer


@lower_builtin(Count, types.int64)
def impl_count(context, builder, sig, args):
    return builder.add(args[0], args[0].type(1))  # counts from one


@unbox(CountType)
def unbox_count(typ, obj, c):
    value = c.pyapi.long_as_longlong(obj)
    return NativeValue(value, is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))


@box(CountType)
def box_count(typ, val, c):
    number = c.pyapi.long_from_longlong(val)
    count_class = c.pyapi.unserialize(c.pyapi.serialize_object(Count))
    result = c.pyapi.call_function_objargs(count_class, (number,))
    c.pyapi.decref(number)
    c.pyapi.decref(count_class)
    return result


def test_primitive_model():
    @njit
    def make(n):
        return Count(n)

    @njit
    def same(count):
        return count

    made = make(41)
    assert type(made) is Count and made == 42
    assert type(same(Count(-5))) is Count and same(Count(-5)) == -5


# type_callable and lower_builtin on a plain function (Numba's test_extending func1).


def func1(x=None):
    raise NotImplementedError


@type_callable(func1)
def type_func1(context):
    def typer(x=None):
        if x in (None, types.none):  # types compare with None
            return types.int32
        if isinstance(x, types.Float):
            return x

    return typer


@lower_builtin(func1)
@lower_builtin(func1, types.none)
def func1_nullary(context, builder, sig, args):
    return context.get_constant(sig.return_type, 42)


@lower_builtin(func1, types.Float)
def func1_unary(context, builder, sig, args):
    def func1_impl(x):
        return math.sqrt(2 * x)

    return context.compile_internal(builder, func1_impl, sig, args)


def test_type_callable_and_lower_builtin_on_a_function():
    @njit
    def nullary():
        return func1()

    @njit
    def with_none():
        return func1(None)

    @njit
    def unary(x):
        return func1(x)

    assert nullary() == 42 and with_none() == 42
    assert unary(18.0) == 6.0
    assert unary(np.float32(8.0)) == 4.0  # typed float32 -> float32, boxed as a float (Numba's)
    with pytest.raises(TypingError, match="func1"):
        unary(3)  # the typer declines integers


def test_types_compare_with_none():
    assert types.none != None
    assert types.float64 != None
    assert types.float64.__eq__(None) is False
    assert None in (None, types.none)


def test_numba_base_type_classes():
    class BufferLike(types.Buffer):
        pass

    class CallableRef(types.Callable):
        def __init__(self, instance_type):
            self.instance_type = instance_type
            super().__init__("callable_ref")

    buffer = BufferLike(types.float64, 1, "C")
    assert buffer.name == "bufferlike(float64, 1d, C)"
    assert buffer.as_array == types.float64[::1]
    assert (buffer.dtype, buffer.ndim, buffer.layout) == (types.float64, 1, "C")
    assert buffer == BufferLike(types.float64, 1, "C") != BufferLike(types.float64, 2, "C")
    assert CallableRef(int).instance_type is int and CallableRef(int).name == "callable_ref"
    assert isinstance(types.Any, types.Phantom)


# The Quaternion: attributes typed by an AttributeTemplate, lowered with lower_getattr
# calling taipan's math.atan2 through context.get_function, and lower_getattr_generic.


class Quaternion:
    def __init__(self, w, x, y, z):
        self.w, self.x, self.y, self.z = w, x, y, z


class QuaternionType(types.Type):
    def __init__(self):
        super().__init__(name="Quaternion")


quaternion_type = QuaternionType()


@register_model(QuaternionType)
class QuaternionModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [(n, types.float64) for n in "wxyz"]
        super().__init__(dmm, fe_type, members)


for n in "wxyz":
    make_attribute_wrapper(QuaternionType, n, n)


@type_callable(Quaternion)
def type_quaternion(context):
    def typer(w, x, y, z):
        return quaternion_type

    return typer


@lower_builtin(Quaternion, types.Float, types.Float, types.Float, types.Float)
def impl_q(context, builder, sig, args):
    q = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    q.w, q.x, q.y, q.z = args
    return q._getvalue()


@infer_getattr
class QuaternionAttribute(AttributeTemplate):
    key = quaternion_type

    def resolve_phi(self, q):
        return types.float64

    def resolve_norm2(self, q):
        return types.float64


@lower_getattr(QuaternionType, "phi")
def q_phi(context, builder, typ, val):
    q = cgutils.create_struct_proxy(typ)(context, builder, value=val)
    sig = types.float64(types.float64, types.float64)
    atan2 = context.get_function(math.atan2, sig)
    return atan2(builder, [q.x, q.w])


@lower_getattr_generic(QuaternionType)
def q_generic(context, builder, typ, val, attr):
    q = cgutils.create_struct_proxy(typ)(context, builder, value=val)
    s = builder.fmul(q.w, q.w)
    for n in "xyz":
        v = getattr(q, n)
        s = builder.fadd(s, builder.fmul(v, v))
    return s


def test_attribute_templates_and_lower_getattr():
    @njit
    def attributes(a, b):
        q = Quaternion(a, b, 0.5, 0.25)
        return q.phi, q.norm2, q.x

    for a, b in [(1.0, 2.0), (-3.0, 0.5), (0.0, -0.0)]:
        assert attributes(a, b) == (math.atan2(b, a), a * a + b * b + 0.3125, b)

    @njit
    def unknown(a):
        return Quaternion(a, a, a, a).theta

    with pytest.raises(TypingError, match="theta"):
        unknown(1.0)


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_user_types_compile_into_kernels(tmp_path):
    from taipan import cuda

    def kernel(out, lo):
        i = cuda.grid(1)
        if i < out.size:
            interval = Interval(lo[i], lo[i] + 2.5)
            out[i] = interval.width + interval.lo + Quaternion(1.0, 1.0, 0.0, 0.0).norm2

    ptx, _ = cuda.compile_ptx(kernel, (types.float64[::1], types.float64[::1]), cc=(9, 0))
    ptxas(ptx, tmp_path)
