"""Errors of the extension API in Numba's form: an intrinsic's codegen returning nothing for a
signature with a result is Numba's LoweringError ("non-void function returns None from
implementation"); a function returning a value with no Python form (a module) is a TypeError at
the call ("cannot convert native Module..."), as Numba raises it from its wrapper; a type class
read in compiled code without the class method asked for is "Unknown attribute"; a Cython module
without the function asked for is Numba's ValueError text."""

import re

import numpy as np
import pytest

from taipan import njit, types
from taipan.errors import ConversionError, LoweringError, TypingError
from taipan.experimental.function_type import get_cython_function_address
from taipan.extending import intrinsic, overload, overload_classmethod
from taipan.runtime import live_blocks


@intrinsic
def does_nothing(typingctx, a):
    def codegen(context, builder, signature, args):
        pass  # a void signature: nothing to return

    return types.void(a), codegen


@intrinsic
def forgets_its_result(typingctx, a):
    def codegen(context, builder, signature, args):
        pass  # the signature has a result, which the codegen does not return

    return a(a), codegen


@pytest.mark.parametrize("value", [1, 2.5, np.int32(3)])
def test_a_void_intrinsic_may_return_nothing(value):
    @njit
    def calls(x):
        does_nothing(x)
        return x

    result = calls(value)
    assert result == value and type(result) is type(
        value.item() if hasattr(value, "item") else value
    )


@pytest.mark.parametrize("value", [1, 2.5])
def test_a_non_void_intrinsic_returning_nothing_is_a_lowering_error(value):
    @njit
    def calls(x):
        return forgets_its_result(x)

    with pytest.raises(LoweringError) as raised:
        calls(value)
    message = raised.value.msg
    assert message.startswith("non-void function returns None from implementation")
    assert "forgets_its_result" in message and "return forgets_its_result(x)" in message
    # codegen runs while taipan types the call: a TypingError as well
    assert isinstance(raised.value, TypingError)


def returns_numpy():
    return np


@overload(returns_numpy)
def _returns_numpy():
    def impl():
        return np

    return impl


def test_a_module_used_inside_compiled_code_works():
    @njit
    def arange_of(n):
        module = returns_numpy()
        return module.arange(n)

    before = live_blocks()
    for n in (0, 1, 7):
        np.testing.assert_array_equal(arange_of(n), np.arange(n))
    assert live_blocks() == before


@pytest.mark.parametrize("direct", [False, True])
def test_returning_a_module_is_a_type_error_at_the_call(direct):
    if direct:

        @njit
        def gives_module():
            return np

    else:

        @njit
        def gives_module():
            return returns_numpy()

    with pytest.raises(TypeError, match=r"^cannot convert native Module\(numpy\) to Python "):
        gives_module()
    with pytest.raises(ConversionError):  # a TypingError too, for taipan's own handlers
        gives_module()


def test_a_type_class_without_the_class_method_is_an_unknown_attribute():
    class Sized(types.Array):
        pass

    @overload_classmethod(Sized, "make")
    def _make(cls, n):
        def impl(cls, n):
            return np.arange(n) * 2

        return impl

    @njit
    def on_subclass(n):
        return Sized.make(n)

    @njit
    def on_base(n):
        return types.Array.make(n)

    before = live_blocks()
    np.testing.assert_array_equal(on_subclass(4), np.arange(4) * 2)
    assert live_blocks() == before
    with pytest.raises(TypingError, match=r"^Unknown attribute 'make' of type typeref\[Array\]"):
        on_base(4)


def test_an_unknown_attribute_names_the_users_line():
    @njit
    def reads(x):
        return x.nonexistent

    with pytest.raises(TypingError) as raised:
        reads(1)
    first, *rest = str(raised.value).splitlines()
    assert first == "Unknown attribute 'nonexistent' of type int64"
    assert "        return x.nonexistent" in rest and "in reads:" in rest[1]


def test_a_missing_cython_function_is_numbas_value_error():
    pytest.importorskip("scipy.special.cython_special")
    with pytest.raises(ValueError) as raised:
        get_cython_function_address("scipy.special.cython_special", "foo")
    assert str(raised.value) == (
        "No function 'foo' found in __pyx_capi__ of 'scipy.special.cython_special'"
    )
    address = get_cython_function_address("scipy.special.cython_special", "gammaln")
    assert re.fullmatch(r"\d+", str(address)) and address > 0
