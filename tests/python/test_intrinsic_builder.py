"""@intrinsic in Numba's form: the typing function returns (signature, codegen) and
codegen(context, builder, signature, args) builds the body with llvmlite's IRBuilder
(taipan.intrinsic_builder). Results are compared with what Python or NumPy compute; code that
allocates checks the runtime's counters. Numba's documented intrinsic examples run with the
import changed."""

import math
import os
import sys
import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python
from ptx_assembly import PTXAS, ptxas

from taipan import carray, cfunc, cuda, njit, prange, types
from taipan.core import cgutils
from taipan.core.imputils import impl_ret_untracked
from taipan.core.typing import signature
from taipan.errors import TypingError
from taipan.extending import intrinsic, overload
from taipan.runtime import live_blocks

llvmlite_ir = pytest.importorskip("llvmlite.ir")

INTEGERS = [types.int8, types.int16, types.int32, types.int64]
UNSIGNED = [types.uint8, types.uint16, types.uint32, types.uint64]
FLOATS = [types.float32, types.float64]
COMPLEX = [types.complex64, types.complex128]


# --- scalars -------------------------------------------------------------------------------


@intrinsic
def identity(typingctx, x):
    def codegen(context, builder, sig, args):
        return args[0]

    return x(x), codegen


@intrinsic
def plus_one(typingctx, x):
    """x + 1 for any number, the constant made by context.get_constant."""

    def codegen(context, builder, sig, args):
        one = context.get_constant(sig.return_type, 1)
        if isinstance(x, types.Complex):
            real = builder.fadd(builder.extract_value(args[0], 0), one.constant[0])
            return builder.insert_value(args[0], real, 0)
        if isinstance(x, types.Float):
            return builder.fadd(args[0], one)
        if isinstance(x, types.Boolean):
            return builder.xor(args[0], one)  # not x
        return builder.add(args[0], one)

    return x(x), codegen


@pytest.mark.parametrize("t", INTEGERS + UNSIGNED + FLOATS + COMPLEX + [types.boolean], ids=str)
def test_identity_and_constants_of_every_number_type(t):
    @njit
    def f(x):
        return identity(x), plus_one(x)

    dtype = np.dtype(str(t) if t != types.boolean else "bool")
    if t == types.boolean:
        values = [True, False]
    elif isinstance(t, types.Integer):
        info = np.iinfo(dtype)
        values = [info.min, info.max, 0, 7]
    elif isinstance(t, types.Complex):
        values = [1.5 - 2j, -0.0 + 0j]
    else:
        values = [1.5, -0.0, np.inf]
    for value in values:
        scalar = dtype.type(value)
        got = f(scalar)
        assert got[0] == scalar
        if t == types.boolean:
            expected = not value
        elif isinstance(t, types.Integer):
            expected = dtype.type(np.array(value, dtype).astype(dtype) + dtype.type(1))
        else:
            expected = scalar + dtype.type(1)
        assert got[1] == expected, (t, value, got)


@intrinsic
def cast_to(typingctx, x, target):
    """context.cast of x to the number class given as the second argument."""
    to = target.dtype

    def codegen(context, builder, sig, args):
        return context.cast(builder, args[0], x, to)

    return to(x, target), codegen


CAST_SOURCES = [
    (np.int8(-5), [np.int64, np.uint8, np.float64, np.bool_, np.complex128]),
    (np.uint16(65535), [np.int64, np.int16, np.float32, np.bool_]),
    (np.int64(-(2**40)), [np.int32, np.float64, np.uint64]),
    (np.float64(-3.75), [np.int64, np.int32, np.float32, np.bool_, np.complex64]),
    (np.float32(0.0), [np.bool_, np.float64]),
    (np.bool_(True), [np.int64, np.float64, np.complex128]),
    (np.complex128(1.5 - 2j), [np.complex64, np.bool_]),
]


@pytest.mark.parametrize("value, targets", CAST_SOURCES, ids=lambda v: repr(v))
def test_context_cast_converts_as_numpy(value, targets):
    for target in targets:

        @njit
        def f(x):
            return cast_to(x, target)  # noqa: B023 - compiled at once

        got = f(value)
        with np.errstate(all="ignore"):
            expected = np.array(value).astype(target)[()]
        # Returned as Python's scalars, as Numba boxes them.
        kind = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[np.dtype(target).kind]
        assert got == expected and type(got) is kind, (value, target, got)


@intrinsic
def tuple_constant(typingctx):
    ty = types.Tuple((types.int64, types.float32, types.boolean))

    def codegen(context, builder, sig, args):
        return context.get_constant_generic(builder, ty, (-7, 2.5, True))

    return ty(), codegen


def test_get_constant_generic_of_a_tuple():
    @njit
    def f():
        return tuple_constant()

    assert f() == (-7, 2.5, True)


# --- pointers, alloca, loops, branches -----------------------------------------------------


@intrinsic
def stack_empty(typingctx, size, dtype):
    """numba-celltree's: stack memory of the caller for `size` elements."""

    def impl(context, builder, signature, args):
        ty = context.get_value_type(dtype.dtype)
        return cgutils.alloca_once(builder, ty, size=args[0])

    return types.CPointer(dtype.dtype)(types.int64, dtype), impl


@njit(inline="always")
def stack_polygon():
    return carray(stack_empty(8, np.float64), (4, 2), dtype=np.float64)


@njit
def sum_of_stack_arrays(rounds):
    total = 0.0
    for r in range(rounds):
        a = stack_polygon()
        b = carray(stack_empty(3, np.int32), (3,), dtype=np.int32)
        for i in range(4):
            a[i, 0] = r + i
            a[i, 1] = -i
        for i in range(3):
            b[i] = i * r
        total += a.sum() + b.sum()
    return total


def test_alloca_once_gives_memory_of_the_callers_frame():
    before = live_blocks()
    expected = sum(
        sum(r + i - i for i in range(4)) + sum(i * r for i in range(3)) for r in range(5)
    )
    assert sum_of_stack_arrays(5) == expected
    assert live_blocks() == before


@njit
def stack_of_runtime_size(n):
    p = stack_empty(n, np.float64)
    a = carray(p, (n,), dtype=np.float64)
    for i in range(n):
        a[i] = i * 0.5
    return a.sum()


@pytest.mark.parametrize("n", [1, 2, 17, 1000])
def test_alloca_of_a_size_known_at_run_time(n):
    assert stack_of_runtime_size(n) == sum(i * 0.5 for i in range(n))


@intrinsic
def data_pointer(typingctx, array):
    """The array's data pointer, through Numba's array struct (context.make_array)."""

    def codegen(context, builder, sig, args):
        return context.make_array(array)(context, builder, value=args[0]).data

    return types.CPointer(array.dtype)(array), codegen


@intrinsic
def load_at(typingctx, pointer, index):
    def codegen(context, builder, sig, args):
        return builder.load(builder.gep(args[0], [args[1]]))

    return pointer.dtype(pointer, types.int64), codegen


@intrinsic
def array_shape(typingctx, array):
    ty = types.UniTuple(types.int64, array.ndim)

    def codegen(context, builder, sig, args):
        proxy = context.make_array(array)(context, builder, value=args[0])
        return context.make_tuple(builder, ty, cgutils.unpack_tuple(builder, proxy.shape))

    return ty(array), codegen


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.int64, np.float32, np.float64])
def test_pointers_into_an_array(dtype):
    @njit
    def f(a):
        p = data_pointer(a)
        total = 0
        for i in range(a.size):
            total += load_at(p, i)
        return total, array_shape(a)

    a = (np.arange(12) % 7).astype(dtype).reshape(3, 4)
    before = live_blocks()
    total, shape = f(a)
    assert total == a.sum() and shape == (3, 4)
    assert live_blocks() == before


@intrinsic
def sum_below(typingctx, n):
    """0 + 1 + ... + n-1 with cgutils.for_range and a stack accumulator."""

    def codegen(context, builder, sig, args):
        accumulator = cgutils.alloca_once_value(builder, context.get_constant(n, 0))
        with cgutils.for_range(builder, args[0]) as loop:
            builder.store(builder.add(builder.load(accumulator), loop.index), accumulator)
        return builder.load(accumulator)

    return n(n), codegen


@intrinsic
def count_pairs(typingctx, rows, columns):
    """The number of (i, j) with i < j, by cgutils.loop_nest and if_likely."""

    def codegen(context, builder, sig, args):
        counter = cgutils.alloca_once_value(builder, context.get_constant(types.int64, 0))
        with (
            cgutils.loop_nest(builder, args, cgutils.intp_t) as (i, j),
            cgutils.if_likely(builder, builder.icmp_signed("<", i, j)),
        ):
            builder.store(cgutils.increment_index(builder, builder.load(counter)), counter)
        return builder.load(counter)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def clamp_sign(typingctx, x):
    """-1, 0 or 1, through if_unlikely, builder.if_else and a phi."""

    def codegen(context, builder, sig, args):
        zero = context.get_constant(x, 0)
        result = cgutils.alloca_once_value(builder, zero)
        with cgutils.if_unlikely(builder, builder.icmp_signed("==", args[0], zero)):
            builder.store(zero, result)
        with builder.if_else(builder.icmp_signed(">", args[0], zero)) as (positive, negative):
            with positive:
                builder.store(context.get_constant(x, 1), result)
            with negative, cgutils.ifnot(builder, cgutils.is_scalar_zero(builder, args[0])):
                builder.store(context.get_constant(x, -1), result)
        return builder.load(result)

    return x(x), codegen


@pytest.mark.parametrize("n", [0, 1, 5, 1000])
def test_loops_and_branches(n):
    @njit
    def f(n):
        return sum_below(n), count_pairs(n, n + 1), clamp_sign(n - 3)

    assert f(n) == (
        sum(range(n)),
        sum(1 for i in range(n) for j in range(n + 1) if i < j),
        (n - 3 > 0) - (n - 3 < 0),
    )


@intrinsic
def swap_pair(typingctx, pair):
    first, second = pair.types
    result = types.Tuple((second, first))

    def codegen(context, builder, sig, args):
        a, b = cgutils.unpack_tuple(builder, args[0])
        return cgutils.make_anonymous_struct(builder, [b, a])

    return result(pair), codegen


@intrinsic
def packed_sum(typingctx, a, b, c):
    def codegen(context, builder, sig, args):
        array = cgutils.pack_array(builder, list(args))
        total = context.get_constant(types.float64, 0)
        for element in cgutils.unpack_tuple(builder, array):
            total = builder.fadd(total, element)
        return impl_ret_untracked(context, builder, sig.return_type, total)

    return signature(types.float64, types.float64, types.float64, types.float64), codegen


def test_tuples_in_and_out():
    @njit
    def f(x, y):
        return swap_pair((x, y)), packed_sum(x, 2.5, -1.0)

    assert f(3, 1.5) == ((1.5, 3), 4.5)
    assert f(-1, 0.0) == ((0.0, -1), 0.5)


@intrinsic
def void_store(typingctx, pointer, value):
    def codegen(context, builder, sig, args):
        builder.store(args[1], args[0])

    return types.none(pointer, pointer.dtype), codegen


def test_void_intrinsic_writes_through_a_pointer():
    @njit
    def f(a, v):
        void_store(data_pointer(a), v)
        return a[0]

    a = np.zeros(3)
    assert f(a, 2.5) == 2.5 and a[0] == 2.5


# --- calling code taipan compiles ----------------------------------------------------------


def halve_and_add(x, y):
    return x / 2 + y


@intrinsic
def atan_of(typingctx, x):
    sig = types.float64(types.float64)

    def codegen(context, builder, signature, args):
        return context.get_function(math.atan, sig)(builder, args)

    return sig, codegen


@intrinsic
def internal_call(typingctx, x, y):
    sig = types.float64(types.float64, types.int64)

    def codegen(context, builder, signature, args):
        return context.compile_internal(builder, halve_and_add, sig, args)

    return sig, codegen


def test_get_function_and_compile_internal():
    @njit
    def f(x, y):
        return atan_of(x), internal_call(x, y)

    for x, y in [(0.5, 3), (-2.0, 0), (1e300, -5)]:
        assert f(x, y) == (math.atan(x), halve_and_add(x, y))


def test_code_calling_compiled_functions_is_not_cached(tmp_path):
    script = textwrap.dedent(
        """
        import math, sys
        from taipan import njit, types
        from taipan.extending import intrinsic

        @intrinsic
        def atan_of(typingctx, x):
            sig = types.float64(types.float64)
            def codegen(context, builder, signature, args):
                return context.get_function(math.atan, sig)(builder, args)
            return sig, codegen

        @njit(cache=True)
        def f(x):
            return atan_of(x)

        print(f(1.0) == math.atan(1.0), f.stats.cache_hits)
        """
    )
    path = tmp_path / "cached_intrinsic.py"
    path.write_text(script)
    environment = child_environment(tmp_path)
    runs = [run_python([path], env=environment, timeout=120) for _ in range(2)]
    # The code holds an address of this process: the second process compiles again.
    assert [run.stdout.split() for run in runs] == [["True", "0"], ["True", "0"]]
    assert "Cannot cache compiled function" in runs[1].stderr


# --- printf --------------------------------------------------------------------------------


def test_printf_writes_to_standard_output(tmp_path):
    script = textwrap.dedent(
        """
        from taipan import njit, types
        from taipan.core import cgutils
        from taipan.extending import intrinsic

        @intrinsic
        def show(typingctx, x, y):
            def codegen(context, builder, sig, args):
                cgutils.printf(builder, "x=%lld y=%.2f\\n", args[0], args[1])
            return types.none(types.int64, types.float64), codegen

        @njit
        def f(x, y):
            show(x, y)
            return x

        f(42, 2.5)
        f(-1, 0.125)
        """
    )
    path = tmp_path / "printf_intrinsic.py"
    path.write_text(script)
    run = run_python([path], env=child_environment(), timeout=120)
    assert run.stdout.splitlines() == ["x=42 y=2.50", "x=-1 y=0.12"]


# --- errors --------------------------------------------------------------------------------


def test_codegen_raising_is_a_typing_error_at_the_users_call():
    @intrinsic
    def broken(typingctx, x):
        def codegen(context, builder, sig, args):
            raise ValueError("no such instruction")

        return x(x), codegen

    @njit
    def f(x):
        return broken(x)

    with pytest.raises(TypingError) as error:
        f(1)
    text = str(error.value)
    assert "codegen of the intrinsic broken raised ValueError: no such instruction" in text
    assert "test_intrinsic_builder.py" in text
    assert "return broken(x)" in text or str(f.py_func.__code__.co_firstlineno + 1) in text


def test_codegen_returning_the_wrong_type_is_a_typing_error():
    @intrinsic
    def wrong(typingctx, x):
        def codegen(context, builder, sig, args):
            return context.get_constant(types.int32, 1)

        return types.float64(x), codegen

    @intrinsic
    def nothing(typingctx, x):
        def codegen(context, builder, sig, args):
            pass

        return types.int32(x), codegen

    @njit
    def f(x):
        return wrong(x)

    @njit
    def g(x):
        return nothing(x)

    with pytest.raises(TypingError, match=r"returned i32, but .* float64 is double"):
        f(1.0)
    with pytest.raises(TypingError, match=r"returned NoneType"):
        g(1)


def test_results_holding_references_are_new_references():
    # As in Numba, the codegen returns a new reference: handing on an argument increfs it.
    from taipan.core.imputils import impl_ret_borrowed

    @intrinsic
    def same_array(typingctx, a):
        def codegen(context, builder, sig, args):
            return impl_ret_borrowed(context, builder, sig.return_type, args[0])

        return a(a), codegen

    @njit
    def f(n):
        return same_array(np.arange(n)).sum()

    before = live_blocks()
    assert f(4) == 6
    assert live_blocks() == before


def test_arguments_must_have_the_signatures_types():
    @intrinsic
    def int_only(typingctx, x):
        def codegen(context, builder, sig, args):
            return args[0]

        return types.int64(types.int64), codegen

    @njit
    def f(a):
        return int_only(a)

    with pytest.raises(TypingError, match="argument 0 of the intrinsic int_only is array"):
        f(np.zeros(3))
    with pytest.raises(TypingError, match="argument 0 of the intrinsic int_only is complex128"):
        f(1j)


def test_a_missing_llvmlite_is_named(monkeypatch):
    @intrinsic
    def needs_llvmlite(typingctx, x):
        def codegen(context, builder, sig, args):
            return args[0]

        return x(x), codegen

    @njit
    def f(x):
        return needs_llvmlite(x)

    monkeypatch.setitem(sys.modules, "llvmlite", None)
    with pytest.raises(TypingError, match="llvmlite is not installed"):
        f(1)


def test_job_hash_covers_the_built_module():
    def make(op):
        @intrinsic
        def apply(typingctx, x):
            def codegen(context, builder, sig, args):
                return getattr(builder, op)(args[0], args[0])

            return x(x), codegen

        def f(x):
            return apply(x)

        compiled = njit(f)
        result = compiled(3)
        return result, compiled.overloads[(types.int64,)].hash

    assert make("add") == make("add")
    assert make("add")[1] != make("mul")[1]
    assert make("mul")[0] == 9


# --- Numba's documented examples -----------------------------------------------------------


@intrinsic
def cast_int_to_byte_ptr(typingctx, src):
    # Numba's documentation, "Implementing intrinsics" (numba -> taipan in the imports).
    if isinstance(src, types.Integer):
        result_type = types.CPointer(types.uint8)
        sig = result_type(types.uintp)

        def codegen(context, builder, signature, args):
            [src] = args
            rtype = signature.return_type
            llrtype = context.get_value_type(rtype)
            return builder.inttoptr(src, llrtype)

        return sig, codegen


def test_numba_documentation_cast_int_to_byte_ptr():
    @njit("uint8(int64, int64)")
    def byte_at(address, index):
        return cast_int_to_byte_ptr(address)[index]

    data = np.array([3, 1, 4, 1, 5], dtype=np.uint8)
    assert [byte_at(data.ctypes.data, i) for i in range(5)] == [3, 1, 4, 1, 5]


def test_numba_ll_pointer_cast_usecase():
    # Numba's TestIntrinsic.test_ll_pointer_cast: an overload returns an intrinsic-made
    # pointer of an array's data, which compiled code indexes.
    def unsafe_caster(result_type):
        @intrinsic
        def unsafe_cast(typingctx, src):
            if isinstance(src, types.Integer):
                sig = result_type(types.uintp)

                def codegen(context, builder, signature, args):
                    [src] = args
                    return builder.inttoptr(src, context.get_value_type(signature.return_type))

                return sig, codegen

        return unsafe_cast

    # Numba's test reads arr.ctypes.data inside compiled code; the address comes from Python
    # here (arr.ctypes in compiled code is another task's).
    def unsafe_get_pointer(src, address):
        raise NotImplementedError("not callable from python")

    @overload(unsafe_get_pointer, strict=False)  # as Numba's: the names differ (arrtype, arr)
    def impl(arrtype, address):
        if isinstance(arrtype, types.Array):
            unsafe_cast = unsafe_caster(types.CPointer(arrtype.dtype))

            def array_impl(arr, address):
                return unsafe_cast(address)

            return array_impl

    @njit
    def total(arr, address):
        ptr = unsafe_get_pointer(arr, address)
        s = 0.0
        for i in range(arr.size):
            s += ptr[i]
        return s

    arr = np.arange(10, dtype=np.float32)
    assert total(arr, arr.ctypes.data) == float(arr.sum())


# --- CUDA ----------------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_builder_intrinsics_compile_into_kernels(tmp_path):
    def kernel(out, n):
        i = cuda.grid(1)
        if i < out.size:
            scratch = stack_empty(4, np.float64)
            for k in range(4):
                scratch[k] = k + i
            out[i] = sum_below(n) + clamp_sign(i - 2) + load_at(scratch, 3) + plus_one(0.5)

    ptx, _ = cuda.compile_ptx(kernel, types.void(types.float64[::1], types.int64), cc=(9, 0))
    ptxas(ptx, tmp_path)


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_kernels_compile_the_functions_codegens_call(tmp_path):
    # get_function / compile_internal in a kernel: device functions linked into the kernel's
    # module (they were refused before: CPU code called at its address); see also
    # test_intrinsic_kernel_calls.py
    def kernel(out):
        out[0] = atan_of(out[0]) + internal_call(out[1], 3)

    ptx, _ = cuda.compile_ptx(kernel, types.void(types.float64[::1]), cc=(9, 0))
    ptxas(ptx, tmp_path)


# --- typing functions' checks --------------------------------------------------------------


@intrinsic
def zeroed(typingctx, pointer_or_class):
    """A zero of the pointee's or the class's number type: typing functions tell the argument
    kinds apart with isinstance, as Numba's do."""
    if not isinstance(pointer_or_class, (types.CPointer, types.NumberClass)):
        return None
    number = pointer_or_class.dtype

    def codegen(context, builder, sig, args):
        return context.get_constant_null(number)

    return number(pointer_or_class), codegen


def test_typing_functions_tell_pointers_and_number_classes_apart():
    @njit
    def f(a):
        return zeroed(data_pointer(a)), zeroed(np.int16), zeroed(np.complex64)

    assert f(np.ones(2, dtype=np.float32)) == (0.0, 0, 0j)
    assert not isinstance(types.voidptr, types.CPointer)

    @njit
    def g(x):
        return zeroed(x)

    with pytest.raises(TypingError, match=r"No implementation of the intrinsic zeroed .*\(int64\)"):
        g(1)


def test_intrinsic_keeps_the_typing_functions_names():
    # Numba's TestIntrinsic.test_docstring.
    import inspect

    @intrinsic
    def void_func(typingctx, a: int):
        """void_func docstring"""
        return types.none(types.int32), lambda context, builder, signature, args: None

    assert void_func.__module__ == __name__
    assert void_func.__name__ == "void_func"
    assert void_func.__qualname__.endswith(
        "test_intrinsic_keeps_the_typing_functions_names.<locals>.void_func"
    )
    assert inspect.get_annotations(void_func) == {"a": int}
    assert void_func.__doc__ == "void_func docstring"

    @njit
    def f(x):
        void_func(x)
        return x

    assert f(7) == 7


# --- the caller's frame in other kinds of functions ----------------------------------------


@njit(parallel=True)
def stack_arrays_in_prange(n):
    out = np.zeros(n)
    for i in prange(n):
        a = carray(stack_empty(4, np.float64), (4,), dtype=np.float64)
        for k in range(4):
            a[k] = i + k
        out[i] = a.sum()
    return out


@njit
def stack_array_across_yields(n):
    a = carray(stack_empty(2, np.int64), (2,), dtype=np.int64)
    a[0] = 100
    a[1] = 0
    for i in range(n):
        a[1] += i
        yield a[0] + a[1]


@cfunc("float64(int64)")
def stack_array_in_cfunc(n):
    a = carray(stack_empty(3, np.float64), (3,), dtype=np.float64)
    for k in range(3):
        a[k] = n * k
    return a.sum()


def test_stack_memory_in_prange_generators_and_cfuncs():
    before = live_blocks()
    assert stack_arrays_in_prange(7).tolist() == [4.0 * i + 6 for i in range(7)]
    assert list(stack_array_across_yields(5)) == [100 + sum(range(i + 1)) for i in range(5)]
    assert stack_array_in_cfunc.ctypes(2) == 6.0
    assert live_blocks() == before


# --- keyword arguments ---------------------------------------------------------------------


@intrinsic
def subtract(typingctx, minuend, subtrahend):
    def codegen(context, builder, sig, args):
        a = context.cast(builder, args[0], minuend, sig.return_type)
        b = context.cast(builder, args[1], subtrahend, sig.return_type)
        return builder.fsub(a, b)

    return types.float64(minuend, subtrahend), codegen


def test_keyword_arguments_bind_to_the_typing_functions_names():
    @njit
    def f(x, y):
        return (
            subtract(x, y),
            subtract(x, subtrahend=y),
            subtract(subtrahend=y, minuend=x),
            subtract(minuend=y, subtrahend=x),
        )

    assert f(10, 2.5) == (7.5, 7.5, 7.5, -7.5)
    assert f(-1.0, 3) == (-4.0, -4.0, -4.0, 4.0)


def test_wrong_keyword_arguments_are_typing_errors():
    @njit
    def unknown(x):
        return subtract(x, other=x)

    @njit
    def missing(x):
        return subtract(subtrahend=x)

    with pytest.raises(TypingError, match="unexpected keyword argument 'other'"):
        unknown(1.0)
    with pytest.raises(TypingError, match="needs its argument 'minuend'"):
        missing(1.0)


@intrinsic
def shape_and_flag(typingctx, n):
    """Numba's forms of tuples: a UniTuple built with pack_array, booleans as i1."""
    result = types.Tuple((types.UniTuple(types.int64, 3), types.boolean))

    def codegen(context, builder, sig, args):
        one = context.get_constant(types.int64, 1)
        shape = cgutils.pack_array(builder, [args[0], builder.add(args[0], one), one])
        positive = builder.icmp_signed(">", args[0], context.get_constant(types.int64, 0))
        return cgutils.make_anonymous_struct(builder, [shape, positive])

    return result(types.int64), codegen


def test_tuples_in_numbas_forms_convert_to_taipans():
    @njit
    def f(n):
        return shape_and_flag(n)

    assert f(4) == ((4, 5, 1), True)
    assert f(-2) == ((-2, -1, 1), False)
