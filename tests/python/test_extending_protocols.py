"""The rest of Numba's extension hooks on user types: ``p[i] = v`` through
``operator.setitem``'s overloads, ``@infer`` of Numba's internal keys (``"print_item"``,
``"getitem"``, ``"setitem"``) lowered by ``lower_builtin`` with the same key,
``overload_classmethod`` on type classes, and Numba's array-compatible types (an
``"__array__"`` lowering: ``len(x)`` and ``x[i]`` read the array). Results are compared with
the plain Python functions; errors name the user's line."""

import operator
import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python
from struct_user_types import no_leaks, struct_user_type  # noqa: F401 - the autouse fixture

from taipan import njit, types
from taipan.core import cgutils
from taipan.core.typing import signature
from taipan.core.typing.templates import AbstractTemplate, infer
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    lower_builtin,
    make_attribute_wrapper,
    models,
    overload,
    overload_classmethod,
    register_model,
    typeof_impl,
    unbox,
)

# A fixed-size buffer of float64s over a NumPy array: p[i] = v by operator.setitem's overload.


class Buffer:
    def __init__(self, data):
        self.data = data

    def __setitem__(self, i, v):
        self.data[i % self.data.size] = v

    def __getitem__(self, i):
        return self.data[i]

    def __len__(self):
        return self.data.size


class BufferType(types.Type):
    def __init__(self):
        super().__init__(name="Buffer")

    @property
    def as_array(self):
        return types.float64[::1]


buffer_type = BufferType()


@typeof_impl.register(Buffer)
def _typeof_buffer(value, c):
    return buffer_type


@register_model(BufferType)
class _BufferModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("data", types.float64[::1])])


make_attribute_wrapper(BufferType, "data", "data")


@unbox(BufferType)
def _unbox_buffer(typ, obj, c):
    data = c.pyapi.object_getattr_string(obj, "data")
    native = c.unbox(types.float64[::1], data)
    c.pyapi.decref(data)
    buffer = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    buffer.data = native.value
    return NativeValue(buffer._getvalue(), is_error=native.is_error)


@overload(operator.setitem)
def _buffer_setitem(buffer, i, v):
    if isinstance(buffer, BufferType) and isinstance(i, types.Integer):

        def setitem(buffer, i, v):
            buffer.data[i % buffer.data.size] = v

        return setitem
    return None


@lower_builtin("__array__", BufferType)
def _buffer_array(context, builder, sig, args):
    """Numba's convention: the value's address in, the array member's address out."""
    buffer = cgutils.create_struct_proxy(sig.args[0])(context, builder, ref=args[0])
    return buffer._get_ptr_by_name("data")


def test_item_assignment_of_a_user_type():
    @njit
    def fill(b, n):
        for i in range(n):
            b[i] = i * 1.5
        b[n] = 7  # an int, converted by the implementation's store
        return b.data

    data = np.zeros(4)
    expected = np.zeros(4)
    fill.py_func(Buffer(expected), 6)
    result = fill(Buffer(data), 6)
    np.testing.assert_array_equal(data, expected)
    assert result is data  # as in Python: the very array the Buffer holds


def test_item_assignment_without_an_overload_names_the_line():
    @njit
    def store(b):
        b[0.5] = 1.0

    with pytest.raises(TypingError, match=r"b\[0.5\] = 1.0"):
        store(Buffer(np.zeros(2)))


def test_array_compatible_len_and_items():
    @njit
    def total(b):
        s = 0.0
        for i in range(len(b)):
            s += b[i] * (i + 1)
        return s, len(b), b[-1]

    b = Buffer(np.arange(5.0))
    assert total(b) == total.py_func(b)


def test_array_compatible_slices_are_refused():
    @njit
    def head(b):
        return b[:2]

    with pytest.raises(TypingError, match="with slices or arrays") as raised:
        head(Buffer(np.arange(3.0)))
    assert "return b[:2]" in str(raised.value)


def test_array_compatible_values_are_not_ufunc_operands():
    # Numba wraps a ufunc's result in the operand's own type (__array_wrap__): not an array
    @njit
    def sines(b):
        return np.sin(b)

    with pytest.raises(TypingError, match="numpy.sin"):
        sines(Buffer(np.arange(3.0)))


# @infer of Numba's internal keys.


class Tag:
    def __init__(self, code):
        self.code = code

    def __getitem__(self, i):
        return self.code * 10 + i


tag_type = struct_user_type("Tag", {"code": types.int64}, python_class=Tag).type
TagType = type(tag_type)


@infer
class _TagGetitem(AbstractTemplate):
    key = "getitem"

    def generic(self, args, kws):
        if isinstance(args[0], TagType) and isinstance(args[1], types.Integer):
            return signature(types.int64, tag_type, args[1])
        return None


@lower_builtin("getitem", TagType, types.Integer)
def _tag_getitem(context, builder, sig, args):
    code = builder.extract_value(args[0], 0)
    index = context.cast(builder, args[1], sig.args[1], types.int64)
    return builder.add(builder.mul(code, context.get_constant(types.int64, 10)), index)


def test_infer_getitem_key():
    @njit
    def read(t, i):
        return t[i], t[np.int32(3)]

    assert read(Tag(4), 2) == read.py_func(Tag(4), 2)


PRINT_ITEM_SCRIPT = textwrap.dedent(
    """
    import io
    import contextlib

    from taipan import njit, types
    from taipan.core.typing import signature
    from taipan.core.typing.templates import ConcreteTemplate, infer
    from taipan.extending import (NativeValue, lower_builtin, models, register_model,
                                  typeof_impl, unbox)

    class Dummy:
        pass

    class DummyType(types.Opaque):
        pass

    dummy_type = DummyType("dummy")
    typeof_impl.register(Dummy)(lambda value, c: dummy_type)
    register_model(DummyType)(models.OpaqueModel)
    unbox(DummyType)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))

    @infer
    class PrintDummy(ConcreteTemplate):
        key = "print_item"
        cases = [signature(types.none, dummy_type)]

    @lower_builtin("print_item", DummyType)
    def print_dummy(context, builder, sig, args):
        pyapi = context.get_python_api(builder)
        text = pyapi.unserialize(pyapi.serialize_object("hello!"))
        pyapi.print_object(text)
        pyapi.decref(text)
        return context.get_dummy_value()

    @njit
    def show(d, x):
        print(d)
        print(x, 2)
        print("items:", d, x, (1, "a"), d)

    @njit(nogil=True)
    def show_without_gil(d):
        print(d)

    @njit
    def show_long(d, a):
        print(d, a)

    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        show(Dummy(), 1.5)
        show_without_gil(Dummy())
    print(repr(captured.getvalue()))
    long = io.StringIO()
    with contextlib.redirect_stdout(long):
        show_long(Dummy(), "x" * 3000)
    print(long.getvalue() == "hello! " + "x" * 3000 + "\\n")
    """
)


def test_infer_print_item_key_prints_through_sys_stdout():
    result = run_python(["-c", PRINT_ITEM_SCRIPT], env=child_environment())
    lines = result.stdout.strip().splitlines()
    # the items, the others as Python prints them, and taipan's own print, in order, all
    # through sys.stdout
    expected = "hello!\n1.5 2\nitems: hello! 1.5 (1, 'a') hello!\nhello!\n"
    assert lines[-2] == repr(expected), result.stdout
    assert lines[-1] == "True", result.stdout  # a long item is not cut at 1000 bytes


# overload_classmethod.


class Ramp(types.Array):
    pass


class SteepRamp(Ramp):
    pass


@overload_classmethod(Ramp, "make")
def _ramp_make(cls, n):
    if isinstance(n, types.Integer):

        def make(cls, n):
            return np.arange(n) * 2

        return make
    return None


def test_overload_classmethod_on_a_type_class_and_subclasses():
    @njit
    def make(n):
        return Ramp.make(n), SteepRamp.make(n + 1)

    a, b = make(3)
    np.testing.assert_array_equal(a, np.arange(3) * 2)
    np.testing.assert_array_equal(b, np.arange(4) * 2)


def test_overload_classmethod_is_not_the_base_class_s():
    @njit
    def make(n):
        return types.Array.make(n)

    with pytest.raises(TypingError, match="Array"):
        make(3)


def test_overload_classmethod_declining_is_a_typing_error():
    @njit
    def make(x):
        return Ramp.make(x)

    with pytest.raises(TypingError, match="make"):
        make(1.5)


def test_borrowed_array_results_are_counted():
    @njit
    def data_of(b):
        return b.data, len(b)

    data = np.ones(3)
    got, n = data_of(Buffer(data))
    assert n == 3 and np.shares_memory(got, data)


@overload(operator.delitem)
def _buffer_delitem(buffer, i):
    if isinstance(buffer, BufferType) and isinstance(i, types.Integer):

        def delitem(buffer, i):
            buffer.data[i] = 0.0  # "deleting" clears the slot

        return delitem
    return None


def test_item_deletion_of_a_user_type():
    @njit
    def clear(b, i):
        del b[i]
        return b.data.sum()

    data = np.arange(1.0, 5.0)
    assert clear(Buffer(data), 2) == 7.0
    np.testing.assert_array_equal(data, [1.0, 2.0, 0.0, 4.0])

    @njit
    def clear_float(b):
        del b[0.5]

    with pytest.raises(TypingError, match=r"operator.delitem"):
        clear_float(Buffer(data))
