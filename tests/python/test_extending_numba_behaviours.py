"""Numba's behaviours of the extension API that its test_extending checks: ``operator.add(a, b)``
called as a function takes the numbers' operator before the user's overloads where both values
are or convert to numbers (Numba's built-in templates come first), intrinsics pickle with a
uuid into one object per process (``_Intrinsic._memo``), ``is_jitted``, the ``_nrt=False`` jit
option's refusal of functions returning new arrays, ``imputils.Registry``, the typing context's
``can_convert``, ``c.pyapi.call_jit_code``, calls of values of a type class's overloads, the
disk cache's counters per specialisation and integers returned as ``void*``. Results are
compared with the plain Python functions."""

import operator
import pickle

import numpy as np
import pytest
from conftest import assert_same
from struct_user_types import no_leaks  # noqa: F401 - the autouse fixture

from taipan import njit, types, vectorize
from taipan.core.typeconv import Conversion
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    _Intrinsic,
    box,
    intrinsic,
    is_jitted,
    lower_cast,
    models,
    overload,
    overload_method,
    register_jitable,
    register_model,
    typeof_impl,
    unbox,
)

# Two opaque user types: Converting converts to any number (to 42), Plain to none.


class Converting:
    pass


class Plain:
    pass


class ConvertingType(types.Opaque):
    def can_convert_to(self, typingctx, other):
        if isinstance(other, types.Number):
            return Conversion.safe
        return None


class PlainType(types.Opaque):
    pass


converting_type = ConvertingType("converting")
plain_type = PlainType("plain")
register_model(ConvertingType)(models.OpaqueModel)
register_model(PlainType)(models.OpaqueModel)


@typeof_impl.register(Converting)
def _typeof_converting(value, c):
    return converting_type


@typeof_impl.register(Plain)
def _typeof_plain(value, c):
    return plain_type


@unbox(ConvertingType)
@unbox(PlainType)
def _unbox_opaque(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@lower_cast(ConvertingType, types.Number)
def _converting_to_number(context, builder, fromty, toty, value):
    return context.get_constant(toty, 42)


def _user_overload(function, result):
    @overload(function)
    def typer(a, b):
        if isinstance(a, (ConvertingType, PlainType)) and isinstance(
            b, (ConvertingType, PlainType)
        ):
            return lambda a, b: result


_user_overload(operator.add, -1)
_user_overload(operator.sub, -2)
_user_overload(operator.mul, -3)


def add_called(a, b):
    return operator.add(a, b)


def sub_called(a, b):
    return operator.sub(a, b)


def mul_called(a, b):
    return operator.mul(a, b), a * b


def test_operator_functions_of_converting_values_are_the_numbers_operator():
    add = njit(add_called)
    assert add(Converting(), Converting()) == 84
    assert add(Converting(), 1.5) == 43.5
    assert njit(sub_called)(Converting(), Converting()) == 0
    # the call and the operator agree
    assert njit(mul_called)(Converting(), Converting()) == (1764, 1764)


def test_operator_functions_of_other_values_take_the_users_overload():
    add = njit(add_called)
    assert add(Plain(), Plain()) == -1
    assert add(Plain(), Converting()) == -1  # one side is no number: Numba's templates fail
    assert njit(sub_called)(Plain(), Plain()) == -2
    assert njit(mul_called)(Plain(), Plain()) == (-3, -3)


def test_operator_functions_of_numbers_are_unchanged():
    for args in [(1, 2), (2.5, -1), (True, 3), (1 + 2j, 0.5)]:
        assert_same(njit(add_called), *args)
        assert_same(njit(sub_called), *args)
    a = np.arange(3.0)
    np.testing.assert_array_equal(njit(add_called)(a, a), a + a)


# Pickling intrinsics (Numba's _Intrinsic._memo).


def _identity_typer(context, x):
    def codegen(context, builder, signature, args):
        return args[0]

    return x(x), codegen


def test_intrinsic_round_trip_is_the_same_object():
    # (the typing functions here are defined in functions: they travel by cloudpickle)
    cloudpickle = pytest.importorskip("cloudpickle")

    @intrinsic
    def identity(context, x):
        return _identity_typer(context, x)

    @njit
    def use(x):
        return identity(x)

    assert use(7) == 7
    size = len(_Intrinsic._memo)
    rebuilt_function = pickle.loads(cloudpickle.dumps(use))
    assert len(_Intrinsic._memo) == size + 1  # the intrinsic travelled with the function
    assert rebuilt_function(2.5) == 2.5
    assert pickle.loads(pickle.dumps(identity)) is identity
    assert len(_Intrinsic._memo) == size + 1
    assert repr(identity) == "<intrinsic identity>"


def test_intrinsic_rebuilt_in_a_fresh_state_is_registered_once():
    pytest.importorskip("cloudpickle")

    def defn(context, x):
        return _identity_typer(context, x)

    original = _Intrinsic("rebuilt_identity", defn)
    assert original._defn is defn
    pickled = pickle.dumps(original)
    del original
    _Intrinsic._recent.clear()  # the memo is weak: the original is gone
    rebuilt = pickle.loads(pickled)
    assert rebuilt._defn is not defn
    assert pickle.loads(pickled) is rebuilt

    @njit
    def use(x):
        return rebuilt(x)

    assert use(3) == 3


def test_is_jitted():
    def f(x):
        return x

    assert is_jitted(njit(f))
    assert not is_jitted(f)
    assert not is_jitted(vectorize(["float64(float64)"])(f))
    assert not is_jitted(np.sin)


# jit_options={"_nrt": False}: Numba refuses a function returning an array it did not receive.

_NO_NRT = "Only accept returning of array passed into the function as argument"


def test_no_nrt_register_jitable_returning_a_new_array_is_refused():
    @register_jitable(_nrt=False)
    def make(n):
        return np.arange(n)

    @njit
    def caller(n):
        return make(n)

    with pytest.raises(TypingError, match=_NO_NRT) as raised:
        caller(3)
    assert "return make(n)" in str(raised.value)  # the caller's line


def test_no_nrt_allows_returning_an_argument_and_numbers():
    @register_jitable(_nrt=False)
    def same(a):
        return a

    @register_jitable(_nrt=False)
    def total(a):
        return a.sum()

    @njit
    def caller(a):
        return same(a), total(a)

    a = np.arange(4.0)
    got, s = caller(a)
    assert got is a and s == 6.0


def test_no_nrt_refuses_a_reassigned_argument():
    @register_jitable(_nrt=False)
    def shifted(a):
        a = a + 1
        return a

    @njit
    def caller(a):
        return shifted(a)

    with pytest.raises(TypingError, match=_NO_NRT):
        caller(np.arange(3))


def test_no_nrt_on_overload_and_method_and_jit():
    def source():
        pass

    @overload(source, jit_options={"_nrt": False})
    def _source_typer():
        return lambda: np.zeros(2)

    @overload_method(ConvertingType, "fresh_array", jit_options={"_nrt": False})
    def _fresh_typer(value):
        return lambda value: np.ones(3)

    @overload_method(ConvertingType, "fresh_array_with_runtime", jit_options={"_nrt": True})
    def _fresh_with_runtime_typer(value):
        return lambda value: np.ones(3)

    @njit
    def call_source():
        return source()

    @njit
    def call_method(value):
        return value.fresh_array()

    @njit
    def call_method_with_runtime(value):
        return value.fresh_array_with_runtime()

    with pytest.raises(TypingError, match=_NO_NRT):
        call_source()
    with pytest.raises(TypingError, match=_NO_NRT):
        call_method(Converting())
    np.testing.assert_array_equal(call_method_with_runtime(Converting()), np.ones(3))

    @njit(_nrt=False)
    def direct(n):
        return np.arange(n)

    with pytest.raises(TypingError, match=_NO_NRT):
        direct(2)
    assert njit(_nrt=False)(lambda n: n + 1)(2) == 3


# Numba's imputils.Registry (numba-cuda's cudaimpl.registry, extension libraries' own).


class Counter:
    def __init__(self, count):
        self.count = count


class CounterType(types.Type):
    def __init__(self):
        super().__init__(name="counter")


counter_type = CounterType()


def test_an_imputils_registry_registers_at_once_and_records():
    from taipan.core.imputils import Registry
    from taipan.extending import make_attribute_wrapper, type_callable

    registry = Registry("counters")

    @register_model(CounterType)
    class _CounterModel(models.StructModel):
        def __init__(self, dmm, fe_type):
            models.StructModel.__init__(self, dmm, fe_type, [("count", types.int64)])

    make_attribute_wrapper(CounterType, "count", "count")

    @type_callable(Counter)
    def _type_counter(context):
        def typer(count):
            if isinstance(count, types.Integer):
                return counter_type

        return typer

    @registry.lower(Counter, types.Integer)
    def _make_counter(context, builder, sig, args):
        from taipan.core import cgutils

        counter = cgutils.create_struct_proxy(sig.return_type)(context, builder)
        counter.count = context.cast(builder, args[0], sig.args[0], types.int64)
        return counter._getvalue()

    @njit
    def f(n):
        return Counter(n).count * 2

    assert_same(f, 21)
    assert registry.name == "counters"
    assert registry.functions == [(_make_counter, Counter, (types.Integer,))]
    assert registry.getattrs == registry.casts == registry.constants == []


def test_typing_context_can_convert_answers_as_numbas():
    from taipan.extending import _TYPING_CONTEXT as context

    assert context.can_convert(types.int32, types.int32) == Conversion.exact
    assert context.can_convert(types.int8, types.int64) == Conversion.promote
    assert context.can_convert(types.int32, types.float64) == Conversion.safe
    assert context.can_convert(types.float64, types.int8) == Conversion.unsafe
    assert context.can_convert(converting_type, types.float32) == Conversion.safe
    assert context.can_convert(plain_type, types.float32) is None
    assert context.can_convert(types.int64, types.int64[::1]) is None


# c.pyapi.call_jit_code: box and unbox functions calling compiled code.


def _token_type(name):
    class Token:
        pass

    class TokenType(types.Opaque):
        pass

    token_type = TokenType(name)
    typeof_impl.register(Token)(lambda value, c: token_type)
    register_model(TokenType)(models.OpaqueModel)
    return Token, TokenType


def test_box_and_unbox_call_compiled_code():
    from taipan.core import cgutils
    from taipan.core.typing import signature

    Token, TokenType = _token_type("token_jit_code")

    @intrinsic
    def plus_offset(typingctx, value):
        def codegen(context, builder, sig, args):
            return builder.add(args[0], args[0].type(312))

        return signature(value, value), codegen

    def bridge(x):
        return plus_offset(x) * 2

    @unbox(TokenType)
    def _unbox(typ, obj, c):
        arguments = [c.context.get_constant(types.intp, 10)]
        is_error, result = c.pyapi.call_jit_code(
            bridge, signature(types.intp, types.intp), arguments
        )
        pointer = c.builder.inttoptr(result, c.context.get_value_type(typ))
        return NativeValue(pointer, is_error=is_error)

    @box(TokenType)
    def _box(typ, val, c):
        arguments = [c.builder.ptrtoint(val, cgutils.intp_t)]
        _is_error, result = c.pyapi.call_jit_code(
            bridge, signature(types.intp, types.intp), arguments
        )
        return c.pyapi.long_from_ssize_t(result)

    @njit
    def passthru(x):
        return x

    assert passthru(Token()) == ((10 + 312) * 2 + 312) * 2


def _checked(x):
    if x > 5:
        raise ValueError("too large:", x)
    return x


def _token_calling_checked(name, unbox_argument, box_argument):
    """A token type whose unbox and box call _checked with these arguments."""
    from taipan.core import cgutils
    from taipan.core.typing import signature

    Token, TokenType = _token_type(name)
    sig = signature(types.intp, types.intp)

    @unbox(TokenType)
    def _unbox(typ, obj, c):
        arguments = [c.context.get_constant(types.intp, unbox_argument)]
        is_error, result = c.pyapi.call_jit_code(_checked, sig, arguments)
        pointer = c.builder.inttoptr(result, c.context.get_value_type(typ))
        return NativeValue(pointer, is_error=is_error)

    @box(TokenType)
    def _box(typ, val, c):
        arguments = [c.context.get_constant(types.intp, box_argument)]
        is_error, result = c.pyapi.call_jit_code(_checked, sig, arguments)
        retval = cgutils.alloca_once(c.builder, c.pyapi.pyobj, zfill=True)
        with c.builder.if_then(c.builder.not_(is_error)):
            c.builder.store(c.pyapi.long_from_ssize_t(result), retval)
        return c.builder.load(retval)

    return Token


def test_exceptions_of_compiled_code_in_box_and_unbox_reach_the_caller():
    @njit
    def passthru(x):
        return x

    assert passthru(_token_calling_checked("token_fine", 2, 3)()) == 3
    with pytest.raises(ValueError, match="too large") as raised:
        passthru(_token_calling_checked("token_unbox_raises", 9, 3)())
    assert raised.value.args == ("too large:", 9)
    with pytest.raises(ValueError, match="too large") as raised:
        passthru(_token_calling_checked("token_box_raises", 2, 7)())
    assert raised.value.args == ("too large:", 7)


# @overload(TypeClass): calls of values whose type is an instance of it (Numba's
# types.Callable subclasses typed by infer_global(value, type)).


class Maker:
    pass


class MakerType(types.Type):
    def __init__(self, instance_class):
        self.instance_class = instance_class
        super().__init__(f"maker[{instance_class.__name__}]")


def _register_maker():
    from taipan.extending import infer_global, lower_constant

    register_model(MakerType)(models.OpaqueModel)
    infer_global(Maker, MakerType(Maker))

    @lower_constant(MakerType)
    def _maker_constant(context, builder, ty, pyval):
        return context.get_dummy_value()

    @overload(MakerType)
    def _make_from_number(x):
        if isinstance(x, types.Integer):
            return lambda x: 42.5 + x

    @overload(MakerType)
    def _make_from_text(x):
        if isinstance(x, types.UnicodeType):
            return lambda x: "42.5" + x


_register_maker()


def test_calls_of_a_value_take_its_type_class_overloads():
    @njit
    def f(a, b):
        return Maker(a), Maker(b)

    assert f(4, "4") == (46.5, "42.54")

    @njit
    def g(x):
        return Maker(x)

    with pytest.raises(TypingError) as raised:
        g(1.5)
    assert "return Maker(x)" in str(raised.value)


# Numba's per-specialisation disk-cache counters (_cache_hits, _cache_misses).

_CACHED_PROGRAM = """
from taipan import njit, types
from taipan.extending import (
    NativeValue, models, overload_method, register_model, typeof_impl, unbox,
)

class Thing:
    pass

class ThingType(types.Opaque):
    pass

thing_type = ThingType("thing")
typeof_impl.register(Thing)(lambda value, c: thing_type)
register_model(ThingType)(models.OpaqueModel)
unbox(ThingType)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))

@overload_method(ThingType, "size")
def _size(thing):
    return lambda thing: 13

@njit(cache=True)
def use(thing, n):
    return thing.size() + n

print(use(Thing(), 1), use(Thing(), 2.5))
for key in use.signatures:
    print(use._cache_hits[key], use._cache_misses[key])
"""


def test_cache_counters_per_specialisation(tmp_path):
    import subprocess
    import sys

    from child_processes import child_python_path

    (tmp_path / "program.py").write_text(_CACHED_PROGRAM)

    def run():
        result = subprocess.run(
            [sys.executable, "program.py"],
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": child_python_path(tmp_path)},
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return result.stdout.split("\n")[:3]

    assert run() == ["14 15.5", "0 1", "0 1"]
    assert run() == ["14 15.5", "1 0", "1 0"]  # a later process loads both


# An integer returned where the signature declares void* (Numba's unsafe uintp -> voidptr, an
# inttoptr): how call_jit_code's bridges in Numba's tests return an address.


def test_integers_return_as_void_pointers():
    from taipan import cfunc

    @cfunc(types.voidptr(types.intp))
    def address(n):
        return n + 8

    @cfunc(types.voidptr(types.int32))
    def narrow(n):
        return n

    assert address.ctypes(100) == 108
    assert narrow.ctypes(-1) == 2**32 - 1  # zero-extended, as LLVM's inttoptr
    with pytest.raises(TypingError, match="does not convert to its declared return type void"):

        @cfunc(types.voidptr(types.float64))
        def not_an_address(x):
            return x


# A kernel links the foreign code that an overload's implementation calls
# (numba-cuda's test_linked_called_through_overload).


def test_kernels_link_what_overload_implementations_declare():
    from taipan import cuda

    source = cuda.CUSource(
        'extern "C" __device__ int twice(int *out, int a) { *out = 2 * a; return 0; }'
    )
    twice = cuda.declare_device("twice", "int32(int32)", link=source)

    def twice_call(value):
        return 2 * value

    @overload(twice_call, target="cuda")
    def _twice_call(a):
        return lambda a: twice(a)

    def kernel(r, x):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = twice_call(x[i])

    dispatcher = cuda.jit(kernel)
    assert dispatcher.link_files() == []  # no implementation chosen yet
    ptx, _ = cuda.compile_ptx(kernel, (types.int32[::1], types.int32[::1]))
    assert "twice" in ptx
    assert dispatcher.link_files() == [source]
