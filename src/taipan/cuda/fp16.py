"""``cuda.fp16``: numba-cuda's half-precision intrinsics for kernels and device functions, by
cuda_fp16.h's names (``hadd``, ``hfma``, ``hsin``, ``hlt``...). Each is ordinary Python that
taipan compiles: the operations PTX has for float16 (add, sub, mul, neg, abs, comparisons)
stay in float16; the others compute in float32, as cuda_fp16.h's do, and round once to
float16 (divisions by zero give inf or NaN, as NumPy's and the GPU's). ``hfma`` is the GPU's
fused fma.rn.f16 in kernels; elsewhere it computes in float64, where the product of two halves
is exact, so that it rounds as a fused operation would. The same functions run in Python (the
simulator) on NumPy's float16 scalars."""

import numpy as np

from taipan import types
from taipan.extending import intrinsic, overload, register_jitable

__all__ = [
    "habs",
    "hadd",
    "hceil",
    "hcos",
    "hdiv",
    "heq",
    "hexp",
    "hexp2",
    "hexp10",
    "hfloor",
    "hfma",
    "hge",
    "hgt",
    "hle",
    "hlog",
    "hlog2",
    "hlog10",
    "hlt",
    "hmax",
    "hmin",
    "hmul",
    "hne",
    "hneg",
    "hrcp",
    "hrint",
    "hrsqrt",
    "hsin",
    "hsqrt",
    "hsub",
    "htrunc",
]


@register_jitable
def hadd(a, b):
    """a + b, rounded to float16."""
    return np.float16(np.float16(a) + np.float16(b))


@register_jitable
def hsub(a, b):
    """a - b, rounded to float16."""
    return np.float16(np.float16(a) - np.float16(b))


@register_jitable
def hmul(a, b):
    """a * b, rounded to float16."""
    return np.float16(np.float16(a) * np.float16(b))


@register_jitable
def hdiv(a, b):
    """a / b, rounded once to float16 (from float32, as cuda_fp16.h's __hdiv)."""
    return np.float16(np.divide(np.float32(np.float16(a)), np.float32(np.float16(b))))


def hfma(a, b, c):
    """a * b + c rounded once to float16."""
    return _fma_in_float64(a, b, c)


@register_jitable
def _fma_in_float64(a, b, c):
    product = np.float64(np.float16(a)) * np.float64(np.float16(b))
    return np.float16(product + np.float64(np.float16(c)))


@intrinsic
def _fused_half(typingctx, a, b, c):
    """a * b + c of three float16s, rounded once by the GPU: llvm.fma.f16, PTX's fma.rn.f16
    (sm_53 and later, as cuda_fp16.h's __hfma)."""
    if a == b == c == types.float16:

        def codegen(context, builder, signature, args):
            from llvmlite import ir

            half = args[0].type
            fma = builder.module.declare_intrinsic(
                "llvm.fma", [half], ir.FunctionType(half, [half, half, half])
            )
            return builder.call(fma, args)

        return types.float16(types.float16, types.float16, types.float16), codegen
    return None


@overload(hfma)
def _hfma_anywhere(a, b, c):
    return lambda a, b, c: _fma_in_float64(a, b, c)


@overload(hfma, target="cuda")
def _hfma_on_gpu(a, b, c):
    return lambda a, b, c: _fused_half(np.float16(a), np.float16(b), np.float16(c))


@register_jitable
def hneg(a):
    """-a."""
    return np.float16(-np.float16(a))


@register_jitable
def habs(a):
    """|a|."""
    return np.float16(abs(np.float16(a)))


@register_jitable
def _in_float32(value):
    return np.float32(np.float16(value))


@register_jitable
def hsin(a):
    return np.float16(np.sin(_in_float32(a)))


@register_jitable
def hcos(a):
    return np.float16(np.cos(_in_float32(a)))


@register_jitable
def hexp(a):
    return np.float16(np.exp(_in_float32(a)))


@register_jitable
def hexp2(a):
    return np.float16(np.exp2(_in_float32(a)))


@register_jitable
def hexp10(a):
    return np.float16(np.power(np.float32(10.0), _in_float32(a)))


@register_jitable
def hlog(a):
    return np.float16(np.log(_in_float32(a)))


@register_jitable
def hlog2(a):
    return np.float16(np.log2(_in_float32(a)))


@register_jitable
def hlog10(a):
    return np.float16(np.log10(_in_float32(a)))


@register_jitable
def hsqrt(a):
    return np.float16(np.sqrt(_in_float32(a)))


@register_jitable
def hrsqrt(a):
    return np.float16(np.divide(np.float32(1.0), np.sqrt(_in_float32(a))))


@register_jitable
def hrcp(a):
    return np.float16(np.divide(np.float32(1.0), _in_float32(a)))


@register_jitable
def hceil(a):
    return np.float16(np.ceil(_in_float32(a)))


@register_jitable
def hfloor(a):
    return np.float16(np.floor(_in_float32(a)))


@register_jitable
def htrunc(a):
    return np.float16(np.trunc(_in_float32(a)))


@register_jitable
def hrint(a):
    """To the nearest integer, ties to even."""
    return np.float16(np.rint(_in_float32(a)))


@register_jitable
def hmax(a, b):
    """The larger; the other operand where one is NaN; +0.0 above -0.0 (__hmax's rules)."""
    x, y = np.float16(a), np.float16(b)
    if np.isnan(x):
        return y
    if np.isnan(y) or x > y:
        return x
    if x == y and np.signbit(y):
        return x
    return y


@register_jitable
def hmin(a, b):
    """The smaller; the other operand where one is NaN; -0.0 below +0.0 (__hmin's rules)."""
    x, y = np.float16(a), np.float16(b)
    if np.isnan(x):
        return y
    if np.isnan(y) or x < y:
        return x
    if x == y and np.signbit(x):
        return x
    return y


@register_jitable
def heq(a, b):
    return np.float16(a) == np.float16(b)


@register_jitable
def hne(a, b):
    return np.float16(a) != np.float16(b)


@register_jitable
def hge(a, b):
    return np.float16(a) >= np.float16(b)


@register_jitable
def hgt(a, b):
    return np.float16(a) > np.float16(b)


@register_jitable
def hle(a, b):
    return np.float16(a) <= np.float16(b)


@register_jitable
def hlt(a, b):
    return np.float16(a) < np.float16(b)
