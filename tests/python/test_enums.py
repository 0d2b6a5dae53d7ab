"""Enums in compiled code (taipan.enums; Numba's EnumMember/IntEnumMember, EnumClass): classes
and members as globals and closure variables, members as arguments, results and tuple items,
`.value`, `.name`, `==`/`!=`/`is`/`is not`, `Color['red']`, the errors naming the user's line,
and kernels (PTX through ptxas, the simulator). Results are compared with `py_func`."""

import enum
import os

import numpy as np
import pytest
from child_processes import run_in_simulator
from ptx_assembly import PTXAS, ptxas

from taipan import cuda, njit, typeof, types
from taipan.errors import TypingError
from taipan.runtime import live_blocks

pytest.importorskip("llvmlite")


class Color(enum.Enum):
    red = 1
    green = 2
    orange = 3
    blue = 2  # an alias of green  # noqa: PIE796


class Shade(enum.Enum):
    red = 1  # the value of Color.red, of another class
    dark = 5


class Shape(enum.IntEnum):
    circle = 1
    square = 2


class Negative(enum.IntEnum):
    one = -1
    two = 2  # the value of Shape.square, of another IntEnum


class Planet(enum.Enum):
    MERCURY = (3.303e23, 2.4397e6)
    VENUS = (4.869e24, 6.0518e6)
    EARTH = (5.976e24, 6.37814e6)


class Ratio(enum.Enum):
    half = 0.5
    negative = -2.25


MEMBERS = [
    Color.red,
    Color.green,
    Color.blue,
    Shade.red,
    Shape.circle,
    Shape.square,
    Negative.one,
    Negative.two,
    Planet.VENUS,
    Ratio.negative,
]


@pytest.fixture(autouse=True)
def _no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


def check(function, *args):
    """The compiled result equals py_func's, member for member (the same objects)."""
    got = function(*args)
    expected = function.py_func(*args)
    assert got == expected
    assert type(got) is type(expected)
    flat_got = got if isinstance(got, tuple) else (got,)
    flat_expected = expected if isinstance(expected, tuple) else (expected,)
    for g, e in zip(flat_got, flat_expected):
        if isinstance(e, enum.Enum):
            assert g is e


@njit
def identity(member):
    return member


@njit
def value_of(member):
    return member.value


@njit
def name_of(member):
    return member.name


@pytest.mark.parametrize("member", MEMBERS, ids=repr)
def test_member_argument_returned_value_and_name(member):
    check(identity, member)
    check(value_of, member)
    check(name_of, member)


def test_member_types_are_numbas():
    assert str(typeof(Color.red)) == "EnumMember(<enum 'test_enums.Color'>, int64)"
    assert str(typeof(Shape.circle)) == "IntEnumMember(<enum 'test_enums.Shape'>, int64)"
    assert typeof(Color.red) == typeof(Color.green)
    assert typeof(Color.red) != typeof(Shade.red)


@njit
def compare(a, b):
    return a == b, a != b, a is b, a is not b


PAIRS = [
    (Color.red, Color.red),
    (Color.red, Color.green),
    (Color.green, Color.blue),  # an alias is its member
    (Color.red, Shade.red),  # equal values, other classes
    (Planet.EARTH, Planet.EARTH),
    (Planet.VENUS, Planet.MERCURY),
    (Shape.square, Negative.two),  # IntEnums of equal values compare as ints
    (Shape.circle, Negative.one),
    (Ratio.half, Ratio.negative),
]


@pytest.mark.parametrize("a, b", PAIRS, ids=repr)
def test_compare(a, b):
    check(compare, a, b)


@njit
def global_members():
    return Color.red, Color.green.value, Shape.square, Planet.EARTH.value[1], Color["orange"]


@njit
def global_comparisons():
    return (
        Color.red == Color.green,
        Color["red"] == Color.red,
        Color["blue"] is Color.green,
        Shape.circle != Shape["square"],
    )


def test_global_classes_and_members():
    check(global_members)
    check(global_comparisons)


def closure_over_enums():
    member = Shade.dark
    cls = Planet

    @njit
    def closure():
        return member, cls.VENUS, member.value, cls["MERCURY"].value[0]

    return closure


def test_closure_variables():
    check(closure_over_enums())


@njit
def choose(flag):
    return Color.red if flag else Color.green


@njit
def in_tuples(pair):
    first, second = pair
    return (second, first), (Color.orange, Shape.circle), first.value


@njit
def returns_class():
    return Color


def test_members_in_tuples_and_branches():
    check(choose, True)
    check(choose, False)
    check(in_tuples, (Color.green, Planet.VENUS))
    check(in_tuples, (Shape.square, Negative.one))
    assert returns_class() is Color


@njit
def nested_callee(member):
    return member if member.value > 1 else Color.orange


@njit
def caller(member):
    return nested_callee(member), nested_callee(Color.red) == Color.orange


def test_members_through_calls():
    for member in (Color.red, Color.green):
        check(caller, member)


@njit
def unknown_member():
    return Color["purple"]


@njit
def member_by_variable(name):
    return Color[name]


@njit
def unknown_attribute():
    return Color.purple


@njit
def other_class_member_compare(a, b):
    return a < b


def test_errors_name_the_users_line():
    with pytest.raises(TypingError, match=r"(?s)Color has no member 'purple'.*in unknown_member"):
        unknown_member()
    with pytest.raises(TypingError, match=r"(?s)constant string naming a member.*Color\[name\]"):
        member_by_variable("red")
    with pytest.raises(TypingError, match=r"(?s)purple.*return Color.purple"):
        unknown_attribute()
    with pytest.raises(TypingError, match=r"(?s)operator.lt.*a < b"):
        other_class_member_compare(Color.red, Color.green)


def test_heterogeneous_enum_is_refused_at_its_argument():
    class Mixed(enum.Enum):
        number = 1
        text = "one"

    with pytest.raises(TypingError, match="cannot determine the type of argument 0"):
        identity(Mixed.number)


def kernel_compare(a, b, out):
    out[0] = a == b
    out[1] = a != b
    out[2] = a is b
    out[3] = a is not b
    out[4] = Color.red == Color["green"]
    out[5] = a.value == Color.green.value


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_kernel_ptx(tmp_path):
    member = typeof(Color.red)
    ptx, _ = cuda.compile_ptx(kernel_compare, (member, member, types.boolean[::1]))
    ptxas(ptx, tmp_path)
    # Members are their values: two int64 parameters compared, no call into Python.
    assert "setp.eq.s64" in ptx and "call" not in ptx.split(".entry")[1]


def test_kernels_in_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda
        from test_enums import Color, Shape, Negative, kernel_compare

        compiled = cuda.jit(kernel_compare)
        for a, b in [(Color.red, Color.red), (Color.red, Color.green), (Shape.square, Negative.two)]:
            got = np.zeros(6, dtype=np.bool_)
            expected = got.copy()
            compiled[1, 1](a, b, got)
            kernel_compare(a, b, expected)
            assert (got == expected).all(), (a, b, got, expected)
        print("ok")
        """,
    )


def test_frozen_members_keep_their_bytes():
    # A global member is frozen as its unboxed value: floats and tuples bit for bit.
    @njit
    def planet_values():
        return Planet.MERCURY.value, Ratio.negative.value, np.float64(Ratio.half.value)

    assert planet_values() == planet_values.py_func()


class RequestError(enum.IntEnum):
    dummy = 2
    not_found = 404
    internal_error = 500


@njit
def int_coerce(x):
    # Numba's test_int_coerce: IntEnum members on either side of int operators
    if x > RequestError.internal_error:
        return x - RequestError.not_found
    return x + Shape.circle


@njit
def int_operators(x):
    return (
        Shape.square * x,
        x // Shape.square,
        x % Negative.two,
        -Negative.one,
        Shape.circle + Shape.square,
        Shape.circle < x,
        x == Shape.circle,
        Shape.square != 2,
        2.5 * Shape.square,
        x << Shape.circle,
        x**Shape.square,
    )


@pytest.mark.parametrize("x", [-3, 0, 1, 2, 300, 450, 550])
def test_int_enum_members_are_ints(x):
    check(int_coerce, x)
    check(int_operators, x)


@njit
def plain_enum_arithmetic(x):
    return Color.red + x


def test_plain_enum_members_are_not_numbers():
    with pytest.raises(TypingError, match=r"(?s)operator.add.*Color.red \+ x"):
        plain_enum_arithmetic(1)


@njit
def int_hash(member, x):
    return hash(member), hash(member) == hash(x)


@pytest.mark.parametrize("member", [Shape.circle, Negative.one, RequestError.not_found], ids=repr)
def test_int_enum_hash(member):
    check(int_hash, member, 404)


@njit
def builtins_as_types(n, x):
    # Enum support registers overloads (operators, hash): the builtins that are types stay
    # types (dtype=float, astype(int), isinstance), whose global would otherwise change kind.
    return (
        np.empty(n, dtype=float).dtype == np.float64,
        np.arange(n).astype(int)[-1],
        np.ones(n, dtype=bool).all(),
        np.zeros(n, np.int16).dtype == np.int16,
        isinstance(x, int),
        isinstance(x, float),
        int(x),
        hash(n),
        hash((n, x)),
    )


def test_builtins_stay_types_with_enums_loaded():
    identity(Color.red)  # loads taipan.enums
    check(builtins_as_types, 3, 2.5)


class Text(enum.Enum):
    short = "x"
    longer = "yy"


@njit
def text_member():
    return Text.short


def test_enums_of_strings_are_refused_naming_the_line():
    with pytest.raises(TypingError, match=r"(?s)cannot determine the type of argument 0"):
        identity(Text.short)
    with pytest.raises(TypingError, match=r"(?s)Untyped global name 'Text'.*return Text.short"):
        text_member()


class Permission(enum.IntFlag):
    read = 4
    write = 2


@njit
def int_flags(member, x):
    return member, member.value, member & x, x | Permission.write, member == Permission.read


@pytest.mark.parametrize("member", [Permission.read, Permission.write], ids=repr)
def test_int_flag_members_are_ints(member):
    # IntFlag does not derive from IntEnum; its members are ints all the same. `&`/`|` give
    # ints here (Python gives IntFlag members, equal to them).
    got = int_flags(member, 6)
    expected = int_flags.py_func(member, 6)
    assert got == expected
    assert got[0] is expected[0]


@njit
def member_in_tuple(member):
    return member in (Color.red, Color.green)


def test_in_of_a_tuple_of_members_is_refused_naming_the_line():
    # The tuple's 'in' compares numbers and strings only: refused rather than answering False.
    with pytest.raises(TypingError, match=r"(?s)'in' of a tuple.*member in \(Color.red"):
        member_in_tuple(Color.red)
