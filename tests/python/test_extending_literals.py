"""Numba's literal arguments in the extension API: an integer written as a call's argument
reaches typing functions as ``types.IntegerLiteral`` (``literal_value``) — after its plain type
(int64) by default, first with ``prefer_literal=True`` — in ``overload``, ``overload_method`` and
``intrinsic``; the call compiles with the value's own type. Results are compared with the
plain Python functions where they have one."""

import pytest
from llvmlite import ir
from struct_user_types import no_leaks  # noqa: F401 - the autouse fixture

from taipan import njit, types
from taipan.core.typing import signature
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    intrinsic,
    models,
    overload,
    overload_method,
    register_model,
    typeof_impl,
    unbox,
)


def _typer(x):
    """0xcafe for the literal 1, a TypingError for other literals, x * 100 otherwise."""
    if isinstance(x, types.IntegerLiteral):
        if x.literal_value == 1:
            return lambda x: 0xCAFE
        raise TypingError("literal value")
    return lambda x: x * 100


def preferring(x):
    return x


def plain(x):
    return x


overload(preferring, prefer_literal=True)(_typer)
overload(plain)(_typer)


def test_prefer_literal_overload_sees_literals_first():
    @njit
    def f(x):
        return preferring(1), preferring(2), preferring(x), preferring(1)

    assert f(3) == (0xCAFE, 200, 300, 0xCAFE)


def test_overloads_see_plain_types_first():
    @njit
    def f(x):
        return plain(1), plain(2), plain(x)

    assert f(3) == (100, 200, 300)


def literal_only(x):
    return x


@overload(literal_only)
def _literal_only(x):
    if isinstance(x, types.IntegerLiteral):
        value = x.literal_value
        return lambda x: value + 1
    return None


def test_a_literal_is_tried_after_the_plain_type_declines():
    @njit
    def f():
        return literal_only(41), literal_only(0)

    assert f() == (42, 1)

    @njit
    def g(n):
        return literal_only(n)

    with pytest.raises(TypingError, match="literal_only"):
        g(3)


def reasons(x):
    return x


@overload(reasons)
def _reasons(x):
    raise TypingError(f"cannot take {x}")


def test_the_plain_types_reason_stays_when_the_literal_declines_too():
    @njit
    def f():
        return reasons(5)

    with pytest.raises(TypingError, match=r"cannot take int64") as raised:
        f()
    assert "return reasons(5)" in str(raised.value)


class Box:
    pass


class BoxType(types.Opaque):
    pass


box_type = BoxType("literal_box")
typeof_impl.register(Box)(lambda value, c: box_type)
register_model(BoxType)(models.OpaqueModel)
unbox(BoxType)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))


def _method_typer(self, x):
    if isinstance(x, types.IntegerLiteral):
        if x.literal_value == 1:
            return lambda self, x: 0xCAFE
        raise TypingError("literal value")
    return lambda self, x: x * 100


overload_method(BoxType, "preferring", prefer_literal=True)(_method_typer)
overload_method(BoxType, "plain")(_method_typer)


def test_prefer_literal_methods():
    @njit
    def f(b, x):
        return b.preferring(1), b.preferring(2), b.preferring(x), b.plain(1), b.plain(x)

    assert f(Box(), 3) == (0xCAFE, 200, 300, 100, 300)


def _intrinsic_typer(context, x):
    sig = signature(types.intp, x)
    if isinstance(x, types.IntegerLiteral):
        if x.literal_value != 1:
            raise TypingError("literal value")

        def literal(context, builder, signature, args):
            return ir.Constant(context.get_value_type(signature.args[0]), 0xCAFE)

        return sig, literal

    def times_100(context, builder, signature, args):
        return builder.mul(args[0], ir.Constant(context.get_value_type(signature.return_type), 100))

    return sig, times_100


intrinsic_preferring = intrinsic(prefer_literal=True)(_intrinsic_typer)
intrinsic_plain = intrinsic(prefer_literal=False)(_intrinsic_typer)


def test_prefer_literal_intrinsics():
    @njit
    def f(x):
        return (
            intrinsic_preferring(1),
            intrinsic_preferring(2),
            intrinsic_preferring(x),
            intrinsic_plain(1),
            intrinsic_plain(x),
        )

    assert f(3) == (0xCAFE, 200, 300, 100, 300)


def test_integer_literal_types():
    one = types.IntegerLiteral(1)
    assert one.literal_value == 1 and one.literal_type == types.int64
    assert one == types.IntegerLiteral(1) and one != types.IntegerLiteral(2)
    assert isinstance(one, types.Literal) and str(one) == "Literal[int](1)"
