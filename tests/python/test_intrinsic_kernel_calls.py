"""``context.get_function(fn, sig)`` and ``context.compile_internal(builder, impl, sig, args)``
in intrinsics and lowering functions used by CUDA kernels: each function is compiled as a
device function with the C ABI whose LLVM IR is linked into the kernel's module (on the CPU it
is a cfunc called at its address). Checked here by assembling the PTX with ptxas (there is no
GPU on this machine) and by the same intrinsics' CPU results against the plain functions."""

import math

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit, types
from taipan.core import cgutils
from taipan.core.typing import signature
from taipan.errors import TypingError, UnsupportedError
from taipan.extending import (
    intrinsic,
    lower_builtin,
    make_attribute_wrapper,
    models,
    register_model,
    type_callable,
)
from taipan.runtime import live_blocks

pytest.importorskip("llvmlite")

F64 = signature(types.float64, types.float64)


@pytest.fixture(autouse=True)
def no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


def doubled_root(v):
    return math.sqrt(2 * v)


def clamp_count(x, n):
    return min(max(x, 0.0), float(n))


@intrinsic
def atan_plus_root(typingctx, x):
    def codegen(context, builder, sig, args):
        atan = context.get_function(math.atan, F64)
        root = context.compile_internal(builder, doubled_root, F64, args)
        return builder.fadd(atan(builder, args), root)

    return types.float64(types.float64), codegen


@intrinsic
def clamped(typingctx, x, n):
    sig = types.float64(types.float64, types.int64)

    def codegen(context, builder, signature_, args):
        return context.compile_internal(builder, clamp_count, sig, args)

    return sig, codegen


def kernel_source(out, data):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = atan_plus_root(data[i]) + clamped(data[i], 3)


@needs_ptxas
def test_kernel_calls_device_functions(tmp_path):
    ptx, _ = cuda.compile_ptx(kernel_source, (types.float64[::1], types.float64[::1]), cc=(9, 0))
    ptxas(ptx, tmp_path)
    body = ptx.split(".entry")[1]
    assert "sqrt.rn.f64" in body  # the device functions were inlined into the kernel
    assert "taipan_internal" not in ptx  # ...and are gone as functions of their own


@needs_ptxas
def test_device_functions_and_the_same_intrinsic_on_the_cpu(tmp_path):
    @cuda.jit(device=True)
    def helper(x):
        return atan_plus_root(x) * 2.0

    def kernel(out, data):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = helper(data[i]) - clamped(data[i], 1)

    ptx, _ = cuda.compile_ptx(kernel, (types.float64[::1], types.float64[::1]), cc=(9, 0))
    ptxas(ptx, tmp_path)

    @njit
    def on_cpu(x):
        return atan_plus_root(x), clamped(x, 3)

    for x in (0.0, 0.5, 2.0, 7.25):
        expected = (math.atan(x) + doubled_root(x), clamp_count(x, 3))
        assert on_cpu(x) == expected


# The example: a user type whose attribute lowering calls get_function(math.atan2).


class Polar:
    def __init__(self, x, y):
        self.x, self.y = x, y


class PolarType(types.Type):
    def __init__(self):
        super().__init__(name="Polar")


polar_type = PolarType()


@register_model(PolarType)
class _PolarModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("x", types.float64), ("y", types.float64)])


make_attribute_wrapper(PolarType, "x", "x")


@type_callable(Polar)
def _type_polar(context):
    def typer(x, y):
        return polar_type

    return typer


@lower_builtin(Polar, types.Float, types.Float)
def _make_polar(context, builder, sig, args):
    polar = cgutils.create_struct_proxy(polar_type)(context, builder)
    polar.x, polar.y = args
    return polar._getvalue()


@intrinsic
def angle_of(typingctx, polar):
    def codegen(context, builder, sig, args):
        value = cgutils.create_struct_proxy(polar_type)(context, builder, value=args[0])
        atan2 = context.get_function(math.atan2, types.float64(types.float64, types.float64))
        return atan2(builder, [value.y, value.x])

    return types.float64(polar), codegen


@needs_ptxas
def test_user_type_lowering_calls_math_in_a_kernel(tmp_path):
    def kernel(out, xs, ys):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = angle_of(Polar(xs[i], ys[i]))

    ptx, _ = cuda.compile_ptx(kernel, (types.float64[::1],) * 3, cc=(9, 0))
    ptxas(ptx, tmp_path)

    @njit
    def angles(xs, ys):
        out = np.empty_like(xs)
        for i in range(xs.size):
            out[i] = angle_of(Polar(xs[i], ys[i]))
        return out

    xs, ys = np.array([1.0, -1.0, 0.0, -2.0]), np.array([0.0, 1.0, -3.0, -2.0])
    np.testing.assert_array_equal(angles(xs, ys), np.arctan2(ys, xs))


@intrinsic
def array_internal(typingctx, a):
    def codegen(context, builder, sig, args):
        return context.compile_internal(builder, lambda a: a.sum(), sig, args)

    return types.float64(a), codegen


def test_kernel_device_functions_take_numbers_only():
    def kernel(out):
        out[0] = array_internal(out)

    with pytest.raises(TypingError, match="numbers, booleans and pointers"):
        cuda.compile_ptx(kernel, (types.float64[::1],), cc=(9, 0))


def checked_double(x):
    if x < 0:
        raise ValueError("negative")
    return x * 2


@intrinsic
def raising_internal(typingctx, x):
    def codegen(context, builder, sig, args):
        return context.compile_internal(builder, checked_double, sig, args)

    return types.float64(types.float64), codegen


def test_kernel_device_functions_that_raise_are_refused():
    # called by the C ABI, the device function could not stop the kernel: refused, not lost
    def kernel(out):
        out[0] = raising_internal(out[0])

    with pytest.raises(UnsupportedError, match="may raise an exception"):
        cuda.compile_ptx(kernel, (types.float64[::1],), cc=(9, 0))

    @njit
    def on_cpu(x):
        return raising_internal(x)

    assert on_cpu(2.5) == 5.0
