"""Numba's ``lower_cast`` and ``lower_constant`` in taipan's extension API: values of user types
that convert to numbers (their type's ``can_convert_to`` with a ``lower_cast``: IntEnum members,
a user's ``Length``) where compiled code needs a number — library calls, indexing, arithmetic
with numbers, a declared return type — and global or closure values of user types built by
their ``lower_constant`` (or ``infer_global(value, type)``). Results are compared with the
plain Python functions."""

import enum
import math

import numpy as np
import pytest
from conftest import assert_same
from ptx_assembly import needs_ptxas, ptxas
from struct_user_types import no_leaks, struct_user_type  # noqa: F401 - the autouse fixture

from taipan import njit, types
from taipan.core import cgutils
from taipan.core.typeconv import Conversion
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    infer_global,
    lower_cast,
    lower_constant,
    models,
    overload,
    register_model,
    typeof_impl,
    unbox,
)

pytest.importorskip("llvmlite")


# IntEnum members are ints wherever compiled code needs one (Numba's IntEnumMember).


class Shape(enum.IntEnum):
    circle = 1
    square = 2
    triangle = 3


class Permission(enum.IntFlag):
    read = 4
    write = 2


class Color(enum.Enum):
    red = 1
    green = 2


SQUARE = Shape.square  # a member bound to a global name


def test_int_enum_member_in_range_and_int_conversions():
    @njit
    def f(m):
        total = 0
        for i in range(m):
            total += i
        return total, int(m), float(m), np.int16(m), np.float32(m), abs(m), m.value

    for member in Shape:
        assert_same(f, member)


def test_int_enum_member_indexes_sequences():
    @njit
    def f(m, a, t, text):
        items = [10, 20, 30, 40]
        return a[m], t[m], items[m], text[m], a[Shape.circle], t[SQUARE]

    for member in Shape:
        assert_same(f, member, np.arange(5.0), (1, 2, 3, 4), "abcd")


def test_int_enum_member_as_shapes():
    @njit
    def f(m):
        a = np.zeros((m, m), dtype=np.int64)
        b = np.ones((m, 2))
        c = np.empty(m)
        c[:] = 1.5
        return a, b, c, np.arange(m), np.full(SQUARE, 7)

    for member in Shape:
        for got, expected in zip(f(member), f.py_func(member)):
            np.testing.assert_array_equal(got, expected)
            assert got.dtype == expected.dtype


def test_int_enum_member_arithmetic_with_numbers():
    @njit
    def f(m, x):
        return m + x, x * m, m - 1, m / 2, Shape.triangle * 2.5, m + Shape.circle

    for member in Shape:
        assert_same(f, member, 3)
        assert_same(f, member, 0.5)


def test_int_flag_members_convert():
    @njit
    def f(p):
        return np.zeros(p).size, (1, 2, 3, 4, 5)[p], int(p)

    assert_same(f, Permission.read)
    assert_same(f, Permission.write)


def test_plain_enum_members_are_not_numbers():
    @njit
    def f(m):
        return range(m)

    with pytest.raises(TypingError, match=r"range\(\)|range") as raised:
        f(Color.red)
    assert "f(m)" in str(raised.value) or "return range(m)" in str(raised.value)


@needs_ptxas
def test_int_enum_members_in_a_kernel_assemble(tmp_path):
    from taipan import cuda, typeof

    def kernel(out, shape):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = out[shape] + np.float64(shape) + SQUARE

    ptx, _ = cuda.compile_ptx(kernel, (types.float64[::1], typeof(Shape.circle)), cc=(9, 0))
    assert "call" not in ptx.split(".entry")[1]  # the conversion is inlined
    ptxas(ptx, tmp_path)


# A user type converting to floats: its can_convert_to allows it, its lower_cast does it.


class Length:
    def __init__(self, meters):
        self.meters = meters

    def __float__(self):  # what the plain Python functions below need
        return float(self.meters)

    def __add__(self, other):
        return self.meters + other

    __radd__ = __add__

    def __mul__(self, other):
        return self.meters * other

    __rmul__ = __mul__


length_type = struct_user_type(
    "Length", {"meters": types.float64}, python_class=Length, converts_to=types.Float
).type


def test_user_type_converts_to_floats():
    @njit
    def f(length, x):
        return math.sqrt(length), length + x, x * length, float(length), np.float32(length)

    assert_same(f, Length(2.25), 1.5)
    assert_same(f, Length(9.0), 2)


def test_user_type_returned_as_a_declared_number():
    def meters(length):
        return length

    as_float = njit(types.float64(length_type))(meters)
    assert as_float(Length(3.5)) == 3.5
    as_float32 = njit(types.float32(length_type))(meters)
    assert as_float32(Length(0.1)) == np.float32(0.1)


def test_user_type_does_not_convert_where_can_convert_to_refuses():
    @njit
    def f(length):
        return np.empty(length)  # a shape needs ints; a Length converts to floats only

    with pytest.raises(TypingError, match="np.empty|numpy.empty") as raised:
        f(Length(2.0))
    assert "np.empty(length)" in str(raised.value)


# A type with a lower_cast but no can_convert_to does not convert (Numba asks the type first).


class Opaque1:
    pass


class Opaque1Type(types.Opaque):
    pass


opaque1_type = Opaque1Type("opaque1")
register_model(Opaque1Type)(models.OpaqueModel)


@typeof_impl.register(Opaque1)
def _typeof_opaque1(value, c):
    return opaque1_type


@unbox(Opaque1Type)
def _unbox_opaque1(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@lower_cast(Opaque1Type, types.Number)
def _opaque1_to_number(context, builder, fromty, toty, value):
    return context.get_constant(toty, 42)


def test_lower_cast_needs_can_convert_to():
    @njit
    def f(x):
        return range(x)

    with pytest.raises(TypingError):
        f(Opaque1())


# Numba's MyDummy: an opaque value converting to any number (42), added by taipan's own `+`
# (Numba's built-in templates come first); MyDummy2 does not convert, so the overload adds.


class MyDummy:
    pass


class MyDummy2:
    pass


class MyDummyType(types.Opaque):
    def can_convert_to(self, context, toty):
        if isinstance(toty, types.Number):
            return Conversion.safe
        return None


class MyDummyType2(types.Opaque):
    pass


mydummy_type = MyDummyType("mydummy")
mydummy_type_2 = MyDummyType2("mydummy2")
MYDUMMY = MyDummy()
for _cls, _type, _type_object in (
    (MyDummy, MyDummyType, mydummy_type),
    (MyDummy2, MyDummyType2, mydummy_type_2),
):
    typeof_impl.register(_cls)(lambda value, c, _t=_type_object: _t)
    register_model(_type)(models.OpaqueModel)
    unbox(_type)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))


@lower_cast(MyDummyType, types.Number)
def _mydummy_to_number(context, builder, fromty, toty, value):
    return context.get_constant(toty, 42)


def test_numba_mydummy_converts_in_arithmetic_and_returns():
    import operator

    @overload(operator.add)
    def add_dummies(a, b):
        if isinstance(a, (MyDummyType, MyDummyType2)) and isinstance(
            b, (MyDummyType, MyDummyType2)
        ):
            return lambda a, b: 7

    @njit
    def add(a, b):
        return a + b

    assert add(MyDummy(), MyDummy()) == 84  # both convert: taipan's (Numba's built-in) add
    assert add(MyDummy2(), MyDummy2()) == 7  # neither converts: the overload
    assert add(MyDummy(), MyDummy2()) == 7  # one does not: the overload, with both as given
    assert add(MyDummy(), 0.5) == 42.5

    get = njit(types.float64())(lambda: MYDUMMY)
    assert get() == 42.0


# lower_constant: global and closure values of user types.


class Point:
    def __init__(self, x, n):
        self.x = x
        self.n = n


PointType = struct_user_type(
    "Point", {"x": types.float64, "n": types.int64}, python_class=Point, unboxes=False
).type_class
constants_built = []


@lower_constant(PointType)
def _point_constant(context, builder, ty, pyval):
    constants_built.append(pyval)
    point = cgutils.create_struct_proxy(ty)(context, builder)
    point.x = context.get_constant(types.float64, pyval.x)
    point.n = context.get_constant(types.int64, pyval.n)
    return point._getvalue()


ORIGIN = Point(0.5, 3)


def test_lower_constant_builds_globals():
    @njit
    def f(k):
        return ORIGIN.x * k + ORIGIN.n

    assert_same(f, 2.0)
    assert ORIGIN in constants_built


def test_lower_constant_builds_closure_values():
    corner = Point(-1.25, 7)

    @njit
    def f():
        return corner.x, corner.n, [corner.n for _ in range(2)]

    assert_same(f)
    assert corner in constants_built


class Token:
    pass


TOKEN_TYPE = struct_user_type(
    "Token", {"code": types.int32}, python_class=Token, typeof=False, unboxes=False
)
TokenType = TOKEN_TYPE.type_class
token_type = TOKEN_TYPE.type
TOKEN = Token()
OTHER_TOKEN = Token()
infer_global(TOKEN, token_type)


@lower_constant(TokenType)
def _token_constant(context, builder, ty, pyval):
    token = cgutils.create_struct_proxy(ty)(context, builder)
    token.code = context.get_constant(types.int32, 11)
    return token._getvalue()


def test_infer_global_types_one_value():
    @njit
    def f():
        return TOKEN.code + 1

    assert f() == 12

    @njit
    def g():
        return OTHER_TOKEN  # the same class, but only TOKEN was given a type

    with pytest.raises(TypingError, match="OTHER_TOKEN"):
        g()


class Broken:
    pass


class BrokenType(types.Type):
    def __init__(self):
        super().__init__(name="Broken")


broken_type = BrokenType()
BROKEN = Broken()
register_model(BrokenType)(models.OpaqueModel)
infer_global(BROKEN, broken_type)


@lower_constant(BrokenType)
def _broken_constant(context, builder, ty, pyval):
    raise ValueError("no constant for this one")


def test_lower_constant_errors_reach_the_caller():
    @njit
    def f():
        x = BROKEN  # noqa: F841
        return 1

    with pytest.raises(Exception, match="no constant for this one"):
        f()
