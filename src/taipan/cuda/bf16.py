"""``cuda.bf16``: bfloat16 in kernels and device functions (numba-cuda's ``numba.cuda.bf16``,
cuda_bf16.h's names): the type, ``bfloat16(x)`` (``nv_bfloat16``), casts to and from every
number type, ``+ - * /``, comparisons, ``math`` functions and the intrinsics (``hadd``,
``hfma``, ``hmax_nan``, ``__float2bfloat16_rz``... by numba-cuda's NumPy-style names
``float32_to_bfloat16_rz``).

bfloat16 is a user type written with taipan's extension API, not a core type: a value is its
16 bits (an i16), every operation is ordinary Python over those bits (taipan.cuda.minifloat
rounds), so the same code runs in kernels and on the CPU, where tests compare it bit for bit
with a reference. Arithmetic computes in float32 and rounds once to bfloat16: float32 holds
24 >= 2*8+2 bits, so for + - * / and sqrt that is the correctly rounded result (what sm_90's
add.bf16 gives); ``hfma`` rounds the float64 sum to odd first, so it rounds once too. Every NaN
an operation produces is the canonical 0x7FFF, as the GPU's. The other functions (sin, exp...)
compute in float32 and round, as cuda_bf16.h's do.
"""

import math
import operator

import numpy as np

from taipan import types
from taipan.cuda import minifloat as mf
from taipan.extending import intrinsic, models, overload, register_jitable, register_model


class Bfloat16(types.Type):
    """The type of bfloat16 values (8 exponent bits, 7 fraction bits): numba-cuda's
    ``types.bfloat16``."""

    def __init__(self):
        super().__init__(name="bfloat16")


bfloat16_type = Bfloat16()


@register_model(Bfloat16)
class _Bfloat16Model(models.PrimitiveModel):
    """A bfloat16 is its 16 bits."""

    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, "i16")


class nv_bfloat16:  # cuda_bf16.h's name
    """``nv_bfloat16(x)`` (also ``bfloat16``) makes a bfloat16 from a number in compiled code,
    rounding to nearest (ties to even); ``isinstance(v, nv_bfloat16)`` tests for one."""

    _taipan_user_type = bfloat16_type

    def __new__(cls, *args):
        raise TypeError("bfloat16 values exist only in compiled code (cuda.jit, jit)")


bfloat16 = nv_bfloat16

CANONICAL_NAN = 0x7FFF
_MODE_NAMES = {mf.RN: "rn", mf.RZ: "rz", mf.RD: "rd", mf.RU: "ru"}


def _same_bits(context, builder, signature, args):
    return args[0]  # a bfloat16 is an i16, as its bits are


@intrinsic
def _from_bits(typingctx, bits):
    if bits == types.uint16:
        return bfloat16_type(types.uint16), _same_bits
    return None


@intrinsic
def _to_bits(typingctx, value):
    if value == bfloat16_type:
        return types.uint16(bfloat16_type), _same_bits
    return None


def is_bfloat16(t):
    """Whether the taipan type ``t`` is bfloat16."""
    return t == bfloat16_type


# --- into bfloat16 ---------------------------------------------------------------------------


@register_jitable
def _code(negative, m, e, mode):
    """bfloat16 of (-1)**negative * m * 2**e rounded in mode."""
    code = mf.encode(negative, m, e, mode, 8, 7)
    if code > 0x7F7F:
        code = np.int64(0x7F80) if mf.away_from_zero(negative, mode) else np.int64(0x7F7F)
    if negative:
        code |= np.int64(0x8000)
    return _from_bits(np.uint16(code))


@register_jitable
def from_float32(x, mode):
    """The float32 ``x`` rounded to bfloat16 in mode (minifloat.RN...)."""
    if mode == mf.RN:
        bits = mf.float32_bits(np.float32(x))
        if (bits & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000):
            return _from_bits(np.uint16(CANONICAL_NAN))
        rounding = np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
        return _from_bits(np.uint16((bits + rounding) >> np.uint32(16)))
    negative, m, e, kind = mf.float32_parts(x)
    if kind == 2:
        return _from_bits(np.uint16(CANONICAL_NAN))
    if kind == 1:
        return _from_bits(np.uint16(0xFF80 if negative else 0x7F80))
    return _code(negative, m, e, mode)


@register_jitable
def from_float64(x, mode):
    """The float64 ``x`` rounded to bfloat16 in mode, once (not through float32)."""
    negative, m, e, kind = mf.float64_parts(x)
    if kind == 2:
        return _from_bits(np.uint16(CANONICAL_NAN))
    if kind == 1:
        return _from_bits(np.uint16(0xFF80 if negative else 0x7F80))
    return _code(negative, m, e, mode)


@register_jitable
def from_integer(value, mode):
    """The integer ``value`` (any width, signed or unsigned) rounded to bfloat16 in mode."""
    negative, m, e = mf.integer_parts(value)
    return _code(negative, m, e, mode)


@register_jitable
def to_float32(value):
    """The bfloat16 ``value`` as a float32 (exact)."""
    return mf.bits_float32(np.uint32(np.uint32(_to_bits(value)) << np.uint32(16)))


_extra_converters = []  # (predicate, implementation): other modules' types (cuda.fp8)


def add_converter(predicate, implementation):
    """Lets ``bfloat16(x)`` take values of the types ``predicate`` accepts, converted by the
    jitable ``implementation(value, mode)`` (cuda.fp8's types)."""
    _extra_converters.append((predicate, implementation))


def convertible(t):
    """Whether values of type ``t`` convert to bfloat16 (numbers, bfloat16, cuda.fp8's)."""
    return (
        is_bfloat16(t)
        or isinstance(t, (types.Float, types.Integer, types.Boolean))
        or any(predicate(t) for predicate, _ in _extra_converters)
    )


def to_bfloat16(value, mode):
    """Any number ``value`` (or bfloat16) as a bfloat16 rounded in ``mode`` (minifloat.RN...);
    compiled code only."""
    raise TypeError("to_bfloat16 runs in compiled code only")


@overload(to_bfloat16)
def _to_bfloat16(value, mode):
    if is_bfloat16(value):
        return lambda value, mode: value
    if isinstance(value, types.Float):
        if value.bitwidth == 64:
            return lambda value, mode: from_float64(value, mode)
        return lambda value, mode: from_float32(np.float32(value), mode)
    if isinstance(value, types.Boolean):
        return lambda value, mode: from_integer(np.int64(value), mode)
    if isinstance(value, types.Integer):
        return lambda value, mode: from_integer(value, mode)
    for predicate, implementation in _extra_converters:
        if predicate(value):
            return lambda value, mode: implementation(value, mode)
    return None


@overload(nv_bfloat16)
def _construct(value):
    if convertible(value):
        return lambda value: to_bfloat16(value, mf.RN)
    return None


# --- out of bfloat16: the casts float32(b), np.int16(b)... (cuda_bf16.h's conversion
# operators: exact to floats; toward zero to integers, saturating, NaN giving 0) -------------


def _bfloat16_to_float32_ir(builder, value, value_type):
    """A bfloat16's bits as the float32 they are the top half of."""
    from llvmlite import ir

    widened = builder.zext(value, ir.IntType(32))
    return builder.bitcast(builder.shl(widened, ir.Constant(ir.IntType(32), 16)), ir.FloatType())


mf.add_number_casts(Bfloat16, _bfloat16_to_float32_ir)


def _integer_conversion(numpy_class, mode):
    """The jitable function converting a bfloat16 to ``numpy_class`` in ``mode``."""
    info = np.iinfo(numpy_class)
    low = numpy_class(info.min)
    high = numpy_class(info.max)

    def convert(value):
        return mf.float32_to_int(
            to_float32(to_bfloat16(value, mf.RN)), mode, numpy_class, low, high
        )

    convert.__name__ = convert.__qualname__ = (
        f"bfloat16_to_{numpy_class.__name__}_{_MODE_NAMES[mode]}"
    )
    return register_jitable(convert)


# --- arithmetic and comparisons --------------------------------------------------------------


@register_jitable
def hadd(a, b):
    """a + b rounded to nearest."""
    return from_float32(
        to_float32(to_bfloat16(a, mf.RN)) + to_float32(to_bfloat16(b, mf.RN)), mf.RN
    )


@register_jitable
def hsub(a, b):
    """a - b rounded to nearest."""
    return from_float32(
        to_float32(to_bfloat16(a, mf.RN)) - to_float32(to_bfloat16(b, mf.RN)), mf.RN
    )


@register_jitable
def hmul(a, b):
    """a * b rounded to nearest."""
    return from_float32(
        to_float32(to_bfloat16(a, mf.RN)) * to_float32(to_bfloat16(b, mf.RN)), mf.RN
    )


@register_jitable
def hdiv(a, b):
    """a / b rounded to nearest (division by zero gives inf or NaN, as the GPU's)."""
    x = to_float32(to_bfloat16(a, mf.RN))
    y = to_float32(to_bfloat16(b, mf.RN))
    return from_float32(np.divide(x, y), mf.RN)


hadd_rn = hadd
hsub_rn = hsub
hmul_rn = hmul


@register_jitable
def _saturate(value):
    """value clamped to [0, 1], NaN giving +0 (the _sat intrinsics)."""
    x = to_float32(value)
    if not (x > np.float32(0.0)):  # NaN, zeros and negatives
        return _from_bits(np.uint16(0))
    if x > np.float32(1.0):
        return _from_bits(np.uint16(0x3F80))
    return value


@register_jitable
def hadd_sat(a, b):
    """a + b clamped to [0, 1]."""
    return _saturate(hadd(a, b))


@register_jitable
def hsub_sat(a, b):
    """a - b clamped to [0, 1]."""
    return _saturate(hsub(a, b))


@register_jitable
def hmul_sat(a, b):
    """a * b clamped to [0, 1]."""
    return _saturate(hmul(a, b))


@register_jitable
def _odd_sum(x, y):
    """x + y (float64) rounded to odd: truncated, with the last bit set when inexact, so that a
    later rounding to 8 bits rounds the exact sum once."""
    s = x + y
    if not np.isfinite(s):  # inf or NaN: nothing to keep
        return s
    # TwoSum: the exact error of the rounded sum
    yv = s - x
    error = (x - (s - yv)) + (y - yv)
    if error == 0.0:
        return s
    bits = mf.float64_bits(s)
    if (bits & np.uint64(1)) == np.uint64(0):
        # one step toward the exact sum (inexact results of a zero s cannot occur)
        toward_larger_magnitude = (error > 0.0) == (s > 0.0)
        bits = bits + np.uint64(1) if toward_larger_magnitude else bits - np.uint64(1)
    return mf.bits_float64(bits)


@register_jitable
def hfma(a, b, c):
    """a * b + c rounded once to nearest (the product of two bfloat16 is exact in float64)."""
    product = np.float64(to_float32(to_bfloat16(a, mf.RN))) * np.float64(
        to_float32(to_bfloat16(b, mf.RN))
    )
    return from_float64(_odd_sum(product, np.float64(to_float32(to_bfloat16(c, mf.RN)))), mf.RN)


@register_jitable
def hfma_sat(a, b, c):
    """hfma clamped to [0, 1]."""
    return _saturate(hfma(a, b, c))


@register_jitable
def hfma_relu(a, b, c):
    """hfma, with negative results giving +0 (NaN stays NaN)."""
    result = hfma(a, b, c)
    x = to_float32(result)
    if np.isnan(x):
        return _from_bits(np.uint16(CANONICAL_NAN))
    if x < np.float32(0.0):
        return _from_bits(np.uint16(0))
    return result


@register_jitable
def hneg(a):
    """-a (the sign bit flipped)."""
    return _from_bits(np.uint16(_to_bits(to_bfloat16(a, mf.RN)) ^ np.uint16(0x8000)))


@register_jitable
def habs(a):
    """|a| (the sign bit cleared)."""
    return _from_bits(np.uint16(_to_bits(to_bfloat16(a, mf.RN)) & np.uint16(0x7FFF)))


def _comparison(name, compare, unordered):
    """A jitable comparison of two bfloat16 values: ordered (False when either is NaN) or
    unordered (True when either is NaN)."""

    def comparison(a, b):
        x = to_float32(to_bfloat16(a, mf.RN))
        y = to_float32(to_bfloat16(b, mf.RN))
        if np.isnan(x) or np.isnan(y):
            return unordered
        return compare(x, y)

    comparison.__name__ = comparison.__qualname__ = name
    return register_jitable(comparison)


heq = _comparison("heq", operator.eq, False)
hne = _comparison("hne", operator.ne, False)
hge = _comparison("hge", operator.ge, False)
hgt = _comparison("hgt", operator.gt, False)
hle = _comparison("hle", operator.le, False)
hlt = _comparison("hlt", operator.lt, False)
hequ = _comparison("hequ", operator.eq, True)
hneu = _comparison("hneu", operator.ne, True)
hgeu = _comparison("hgeu", operator.ge, True)
hgtu = _comparison("hgtu", operator.gt, True)
hleu = _comparison("hleu", operator.le, True)
hltu = _comparison("hltu", operator.lt, True)


@register_jitable
def _max_min(a, b, want_max, nan_propagates):
    a = to_bfloat16(a, mf.RN)
    b = to_bfloat16(b, mf.RN)
    x = to_float32(a)
    y = to_float32(b)
    if np.isnan(x) or np.isnan(y):
        if nan_propagates or (np.isnan(x) and np.isnan(y)):
            return _from_bits(np.uint16(CANONICAL_NAN))
        return b if np.isnan(x) else a
    if x == y:  # -0 < +0 here, as cuda_bf16.h's
        negative_a = (_to_bits(a) & np.uint16(0x8000)) != np.uint16(0)
        return b if negative_a == want_max else a
    if (x > y) == want_max:
        return a
    return b


@register_jitable
def hmax(a, b):
    """The larger of a and b; the other when one is NaN."""
    return _max_min(a, b, True, False)


@register_jitable
def hmin(a, b):
    """The smaller of a and b; the other when one is NaN."""
    return _max_min(a, b, False, False)


@register_jitable
def hmax_nan(a, b):
    """The larger of a and b; NaN when either is."""
    return _max_min(a, b, True, True)


@register_jitable
def hmin_nan(a, b):
    """The smaller of a and b; NaN when either is."""
    return _max_min(a, b, False, True)


@register_jitable
def hisnan(a):
    """Whether a is NaN."""
    return (_to_bits(to_bfloat16(a, mf.RN)) & np.uint16(0x7FFF)) > np.uint16(0x7F80)


@register_jitable
def hisinf(a):
    """-1 for -inf, 1 for +inf, else 0 (an int32)."""
    bits = _to_bits(to_bfloat16(a, mf.RN))
    if bits == np.uint16(0x7F80):
        return np.int32(1)
    if bits == np.uint16(0xFF80):
        return np.int32(-1)
    return np.int32(0)


def _operator(function, implementation):
    @overload(function)
    def typer(a, b):
        if (is_bfloat16(a) and convertible(b)) or (is_bfloat16(b) and convertible(a)):
            return lambda a, b: implementation(a, b)
        return None


for _function, _implementation in (
    (operator.add, hadd),
    (operator.iadd, hadd),
    (operator.sub, hsub),
    (operator.isub, hsub),
    (operator.mul, hmul),
    (operator.imul, hmul),
    (operator.truediv, hdiv),
    (operator.itruediv, hdiv),
    (operator.eq, heq),
    (operator.ne, hneu),
    (operator.lt, hlt),
    (operator.le, hle),
    (operator.gt, hgt),
    (operator.ge, hge),
):
    _operator(_function, _implementation)


@overload(operator.neg)
def _negate(a):
    if is_bfloat16(a):
        return lambda a: hneg(a)
    return None


@overload(operator.pos)
def _plus(a):
    if is_bfloat16(a):
        return lambda a: a
    return None


@overload(abs)
def _absolute(a):
    if is_bfloat16(a):
        return lambda a: habs(a)
    return None


# --- math functions: computed in float32, rounded once to bfloat16 ---------------------------


def _unary(name, compute):
    def function(a):
        return from_float32(compute(to_float32(to_bfloat16(a, mf.RN))), mf.RN)

    function.__name__ = function.__qualname__ = name
    return register_jitable(function)


@register_jitable
def _rsqrt(x):
    return np.divide(np.float32(1.0), np.sqrt(x))  # 1/0 is inf, not ZeroDivisionError


@register_jitable
def _reciprocal(x):
    return np.divide(np.float32(1.0), x)


@register_jitable
def _exp10(x):
    return np.power(np.float32(10.0), x)


htrunc = _unary("htrunc", np.trunc)
hceil = _unary("hceil", np.ceil)
hfloor = _unary("hfloor", np.floor)
hrint = _unary("hrint", np.rint)
hsqrt = _unary("hsqrt", np.sqrt)
hrsqrt = _unary("hrsqrt", _rsqrt)
hrcp = _unary("hrcp", _reciprocal)
hlog = _unary("hlog", np.log)
hlog2 = _unary("hlog2", np.log2)
hlog10 = _unary("hlog10", np.log10)
hcos = _unary("hcos", np.cos)
hsin = _unary("hsin", np.sin)
hexp = _unary("hexp", np.exp)
hexp2 = _unary("hexp2", np.exp2)
hexp10 = _unary("hexp10", _exp10)
htanh = _unary("htanh", np.tanh)
htanh_approx = htanh


def _math(function, implementation):
    @overload(function)
    def typer(a):
        if is_bfloat16(a):
            return lambda a: implementation(a)
        return None


for _function, _implementation in (
    (math.trunc, htrunc),
    (math.ceil, hceil),
    (math.floor, hfloor),
    (math.sqrt, hsqrt),
    (math.log, hlog),
    (math.log2, hlog2),
    (math.log10, hlog10),
    (math.cos, hcos),
    (math.sin, hsin),
    (math.tanh, htanh),
    (math.exp, hexp),
) + (((math.exp2, hexp2),) if hasattr(math, "exp2") else ()):
    _math(_function, _implementation)


# --- conversions by name: cuda_bf16.h's intrinsics, numba-cuda's NumPy-style names -----------


def _named_conversion(name, mode, source=None):
    def convert(value):
        return to_bfloat16(source(value) if source is not None else value, mode)

    convert.__name__ = convert.__qualname__ = name
    return register_jitable(convert)


@register_jitable
def bfloat16_to_float32(value):
    """The bfloat16 ``value`` as a float32 (exact)."""
    return to_float32(to_bfloat16(value, mf.RN))


@register_jitable
def float32_to_bfloat16(value):
    """The float32 ``value`` rounded to nearest."""
    return from_float32(np.float32(value), mf.RN)


@register_jitable
def float64_to_bfloat16(value):
    """The float64 ``value`` rounded to nearest, once."""
    return from_float64(np.float64(value), mf.RN)


@register_jitable
def _bits_of(value):
    return _to_bits(to_bfloat16(value, mf.RN))


@register_jitable
def bfloat16_as_int16(value):
    """The bits of a bfloat16 as an int16."""
    return np.int16(_bits_of(value))


@register_jitable
def bfloat16_as_uint16(value):
    """The bits of a bfloat16 as a uint16."""
    return _bits_of(value)


@register_jitable
def int16_as_bfloat16(bits):
    """The bfloat16 whose bits are the int16 ``bits``."""
    return _from_bits(np.uint16(np.int16(bits)))


@register_jitable
def uint16_as_bfloat16(bits):
    """The bfloat16 whose bits are the uint16 ``bits``."""
    return _from_bits(np.uint16(bits))


_INTEGER_NAMES = {
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
}
_MODES = {"rn": mf.RN, "rz": mf.RZ, "rd": mf.RD, "ru": mf.RU}
_FROM_FLOAT32 = {}
_TO_INTEGER = {}
_FROM_INTEGER = {}
for _mode_name, _mode in _MODES.items():
    _FROM_FLOAT32[_mode_name] = _named_conversion(
        f"float32_to_bfloat16_{_mode_name}", _mode, np.float32
    )
    for _type_name, _class in _INTEGER_NAMES.items():
        _TO_INTEGER[_type_name, _mode_name] = _integer_conversion(_class, _mode)
        _FROM_INTEGER[_type_name, _mode_name] = _named_conversion(
            f"{_type_name}_to_bfloat16_{_mode_name}", _mode, _class
        )

# float32_to_bfloat16_rz, bfloat16_to_int16_rn, uint64_to_bfloat16_ru...: one function each.
globals().update({function.__name__: function for function in _FROM_FLOAT32.values()})
globals().update({function.__name__: function for function in _TO_INTEGER.values()})
globals().update({function.__name__: function for function in _FROM_INTEGER.values()})


def is_bfloat16_supported():
    """Whether the current device computes in bfloat16 natively (compute capability 8.0 and
    newer), as numba-cuda answers; taipan's bfloat16 itself runs on every device."""
    from taipan.cuda import get_current_device

    return get_current_device().compute_capability >= (8, 0)


__all__ = [
    "bfloat16",
    "bfloat16_as_int16",
    "bfloat16_as_uint16",
    "bfloat16_to_float32",
    "bfloat16_type",
    "float32_to_bfloat16",
    "float64_to_bfloat16",
    "habs",
    "hadd",
    "hadd_rn",
    "hadd_sat",
    "hceil",
    "hcos",
    "hdiv",
    "heq",
    "hequ",
    "hexp",
    "hexp2",
    "hexp10",
    "hfloor",
    "hfma",
    "hfma_relu",
    "hfma_sat",
    "hge",
    "hgeu",
    "hgt",
    "hgtu",
    "hisinf",
    "hisnan",
    "hle",
    "hleu",
    "hlog",
    "hlog2",
    "hlog10",
    "hlt",
    "hltu",
    "hmax",
    "hmax_nan",
    "hmin",
    "hmin_nan",
    "hmul",
    "hmul_rn",
    "hmul_sat",
    "hne",
    "hneg",
    "hneu",
    "hrcp",
    "hrint",
    "hrsqrt",
    "hsin",
    "hsqrt",
    "hsub",
    "hsub_rn",
    "hsub_sat",
    "htanh",
    "htanh_approx",
    "htrunc",
    "int16_as_bfloat16",
    "is_bfloat16_supported",
    "nv_bfloat16",
    "uint16_as_bfloat16",
]
__all__ += [
    function.__name__
    for table in (_FROM_FLOAT32, _TO_INTEGER, _FROM_INTEGER)
    for function in table.values()
]
