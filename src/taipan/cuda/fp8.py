"""``cuda.fp8``: the 8-bit floating-point types of cuda_fp8.h in kernels and device functions
(numba-cuda's ``numba.cuda._internal.cuda_fp8``): ``fp8_e5m2`` (IEEE-like, with infinities),
``fp8_e4m3`` (no infinities; 0x7F is NaN, 448 the largest), ``fp8_e8m0`` (an unsigned power of
two, 2**(code - 127); 0xFF is NaN), their construction from every number type and bfloat16,
their casts to numbers, and the storage conversions (``cvt_float_to_fp8``...) on uint8 codes
with ``saturation_t`` and ``fp8_interpretation_t``.

As ``cuda.bf16``, user types over their bits with every conversion written in Python
(taipan.cuda.minifloat rounds), so kernels and CPU code give the same bits. The constructors
round to nearest and saturate to the largest finite value (cuda_fp8.h's constructors use
``__NV_SATFINITE``; e8m0's round up, as its constructor asks ``cudaRoundPosInf``); NaN becomes
the format's NaN. Decoding is exact into float32 (every fp8 value is a float32).
"""

import enum

import numpy as np

from taipan import types
from taipan.cuda import bf16
from taipan.cuda import minifloat as mf
from taipan.extending import (
    intrinsic,
    models,
    overload,
    overload_attribute,
    register_jitable,
    register_model,
)


class saturation_t(enum.IntEnum):  # cuda_fp8.h's __nv_saturation_t
    """Whether a conversion that overflows gives the largest finite value (SATFINITE) or the
    format's infinity or NaN (NOSAT)."""

    NOSAT = 0
    SATFINITE = 1


class fp8_interpretation_t(enum.IntEnum):  # cuda_fp8.h's __nv_fp8_interpretation_t
    """Which 8-bit format a storage code is in."""

    E4M3 = 0
    E5M2 = 1


# cudaRoundMode's values (cuda_runtime's enum; cuda.bindings.runtime.cudaRoundMode).
ROUND_NEAREST = 0
ROUND_ZERO = 1
ROUND_POS_INF = 2
ROUND_MIN_INF = 3


def _type_cuda_bindings_enums():
    """cuda.bindings 13 makes its enums (cudaRoundMode, which the e8m0 conversions take) with
    its own FastEnum metaclass, not enum.Enum: typed as taipan.enums types IntEnum classes and
    members, so ``cudaRoundMode.cudaRoundPosInf`` is an IntEnum member in compiled code."""
    try:
        from cuda.bindings.runtime import cudaRoundMode
    except (ImportError, OSError):  # cuda.bindings not installed, or not loadable
        return
    if isinstance(cudaRoundMode, enum.EnumMeta):
        return  # cuda.bindings 12: enum.IntEnum, which taipan.enums types already
    from taipan import enums
    from taipan.extending import typeof_impl

    member_base = cudaRoundMode.__mro__[1]  # FastEnum
    typeof_impl.register(type(cudaRoundMode))(enums._typeof_class)
    typeof_impl.register(member_base)(enums._typeof_member)


_type_cuda_bindings_enums()


class Fp8(types.Type):
    """The type of one 8-bit format's values: ``kind`` is "e5m2", "e4m3" or "e8m0"."""

    def __init__(self, kind):
        self.kind_code = kind
        super().__init__(name=f"fp8_{kind}")

    @property
    def key(self):
        return self.kind_code


class Bfloat16Raw(types.Type):
    """cuda_bf16.h's ``__nv_bfloat16_raw``: a bfloat16's bits, read as ``.x``."""

    def __init__(self):
        super().__init__(name="bfloat16_raw")


@register_model(Fp8)
class _Fp8Model(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, "i8")


@register_model(Bfloat16Raw)
class _Bfloat16RawModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, "i16")


e5m2_type = Fp8("e5m2")
e4m3_type = Fp8("e4m3")
e8m0_type = Fp8("e8m0")
bfloat16_raw_type = Bfloat16Raw()
_KIND_CODES = {"e4m3": 0, "e5m2": 1, "e8m0": 2}


def _same_bits(context, builder, signature, args):
    return args[0]  # the value is its bits


def _bit_casts(value_type, storage_type):
    @intrinsic
    def from_bits(typingctx, bits):
        if bits == storage_type:
            return value_type(storage_type), _same_bits
        return None

    @intrinsic
    def to_bits(typingctx, value):
        if value == value_type:
            return storage_type(value_type), _same_bits
        return None

    return from_bits, to_bits


_e5m2_from_bits, _e5m2_bits = _bit_casts(e5m2_type, types.uint8)
_e4m3_from_bits, _e4m3_bits = _bit_casts(e4m3_type, types.uint8)
_e8m0_from_bits, _e8m0_bits = _bit_casts(e8m0_type, types.uint8)
_raw_from_bits, _raw_bits = _bit_casts(bfloat16_raw_type, types.uint16)


# --- encoding: (-1)**negative * m * 2**e into a storage code ---------------------------------


@register_jitable
def _encode_fp8(negative, m, e, kind, mode, saturate):
    """The e4m3 (kind 0) or e5m2 (kind 1) code of a finite value."""
    sign = np.int64(0x80) if negative else np.int64(0)
    if kind == 1:
        code = mf.encode(negative, m, e, mode, 5, 2)
        if code > 0x7B:
            if saturate or not mf.away_from_zero(negative, mode):
                code = np.int64(0x7B)
            else:
                code = np.int64(0x7C)  # infinity
    else:
        code = mf.encode(negative, m, e, mode, 4, 3)
        if code > 0x7E:
            if saturate or not mf.away_from_zero(negative, mode):
                code = np.int64(0x7E)
            else:
                code = np.int64(0x7F)  # NaN: e4m3 has no infinity
    return np.uint8(code | sign)


@register_jitable
def _special_fp8(negative, kind, saturate, is_nan):
    """The code of NaN or an infinity."""
    if is_nan:
        return np.uint8(0x7F)
    sign = np.int64(0x80) if negative else np.int64(0)
    if kind == 1:
        return np.uint8((np.int64(0x7B) if saturate else np.int64(0x7C)) | sign)
    return np.uint8((np.int64(0x7E) if saturate else np.int64(0x7F)) | sign)


@register_jitable
def _fp8_from_parts(negative, m, e, special, kind, mode, saturate):
    if special != 0:
        return _special_fp8(negative, kind, saturate, special == 2)
    return _encode_fp8(negative, m, e, kind, mode, saturate)


@register_jitable
def _e8m0_from_parts(m, e, special, mode, saturate):
    """The e8m0 code of a magnitude m * 2**e (the sign is dropped: e8m0 has none)."""
    if special == 2:
        return np.uint8(0xFF)
    if special == 1:
        return np.uint8(0xFE) if saturate else np.uint8(0xFF)
    if m == 0:
        return np.uint8(0)
    top = np.int64(mf.highest_bit(m))
    code = top + e + 127
    if m != (np.int64(1) << top):  # not a power of two: between 2**code and 2**(code + 1)
        if mode == mf.RU:
            code += 1
        elif mode == mf.RN:
            twice = m << np.int64(1)
            middle = np.int64(3) << top
            if twice > middle or (twice == middle and (code & np.int64(1)) == 1):
                code += 1
    if code < 0:
        return np.uint8(0)
    if code > 254:
        return np.uint8(0xFE) if saturate else np.uint8(0xFF)
    return np.uint8(code)


def _parts_of(t):
    """The jitable (negative, m, e, special) of a number of type t (special: 0 finite, 1
    infinite, 2 NaN), or None."""
    if isinstance(t, types.Float) and t.bitwidth == 64:
        return float64_parts
    if isinstance(t, types.Float) or bf16.is_bfloat16(t):
        return float32_parts
    if isinstance(t, types.Boolean):
        return boolean_parts
    if isinstance(t, types.Integer):
        return integer_parts
    return None


@register_jitable
def float64_parts(value):
    return mf.float64_parts(value)


@register_jitable
def float32_parts(value):
    return mf.float32_parts(np.float32(value))


@register_jitable
def integer_parts(value):
    negative, m, e = mf.integer_parts(value)
    return negative, m, e, 0


@register_jitable
def boolean_parts(value):
    return integer_parts(np.int64(value))


# --- decoding: a code to float32 (exact) -----------------------------------------------------


@register_jitable
def decode(code, kind):
    """The float32 value of the storage code of kind 0 (e4m3), 1 (e5m2) or 2 (e8m0)."""
    code = np.int64(code)
    if kind == 2:
        if code == 0xFF:
            return np.float32(np.nan)
        if code == 0:
            return mf.bits_float32(np.uint32(0x400000))  # 2**-127, a float32 subnormal
        return mf.bits_float32(np.uint32(code << np.int64(23)))
    negative = (code & np.int64(0x80)) != 0
    magnitude = code & np.int64(0x7F)
    mbits = np.int64(2) if kind == 1 else np.int64(3)
    bias = np.int64(15) if kind == 1 else np.int64(7)
    field = magnitude >> mbits
    fraction = magnitude & ((np.int64(1) << mbits) - 1)
    if kind == 1 and field == 0x1F:
        value = np.float32(np.inf) if fraction == 0 else np.float32(np.nan)
    elif kind == 0 and magnitude == 0x7F:
        value = np.float32(np.nan)
    elif field == 0:  # subnormal: fraction * 2**(1 - bias - mbits), a power of two scaling
        scale = mf.bits_float32(np.uint32((1 - bias - mbits + 127) << np.int64(23)))
        value = np.float32(fraction) * scale
    else:
        value = mf.bits_float32(
            np.uint32(((field - bias + 127) << np.int64(23)) | (fraction << (23 - mbits)))
        )
    return -value if negative else value


# --- the types' constructors and casts -------------------------------------------------------


def _fp8_class(name, value_type, from_bits, to_bits):
    kind = _KIND_CODES[value_type.kind_code]

    class Fp8Class:
        """Constructed from a number or bfloat16 in compiled code: rounded to nearest (e8m0:
        up), saturating to the largest finite value; NaN gives NaN."""

        _taipan_user_type = value_type

        def __new__(cls, *args):
            raise TypeError(f"{name} values exist only in compiled code (cuda.jit, jit)")

    Fp8Class.__name__ = Fp8Class.__qualname__ = name
    Fp8Class.__module__ = __name__

    @overload(Fp8Class)
    def construct(value):
        if value == value_type:
            return lambda value: value
        if isinstance(value, Fp8):
            return lambda value: convert_from(to_float32(value))
        parts = _parts_of(value)
        if parts is None:
            return None
        return lambda value: convert_from(value)

    if kind == 2:

        @register_jitable
        def convert_from(value):
            _, m, e, special = _parts_of_any(value)
            return from_bits(_e8m0_from_parts(m, e, special, mf.RU, True))

    else:

        @register_jitable
        def convert_from(value):
            negative, m, e, special = _parts_of_any(value)
            return from_bits(_fp8_from_parts(negative, m, e, special, kind, mf.RN, True))

    @register_jitable
    def to_float32(value):
        return decode(to_bits(value), kind)

    return Fp8Class, to_float32


def _parts_of_any(value):
    """(negative, m, e, special) of any number or bfloat16; compiled code only."""
    raise TypeError("runs in compiled code only")


@overload(_parts_of_any)
def _parts_of_any_typer(value):
    if bf16.is_bfloat16(value):
        return lambda value: float32_parts(bf16.to_float32(value))
    parts = _parts_of(value)
    if parts is None:
        return None
    return lambda value: parts(value)


fp8_e5m2, _e5m2_to_float32 = _fp8_class("fp8_e5m2", e5m2_type, _e5m2_from_bits, _e5m2_bits)
fp8_e4m3, _e4m3_to_float32 = _fp8_class("fp8_e4m3", e4m3_type, _e4m3_from_bits, _e4m3_bits)
fp8_e8m0, _e8m0_to_float32 = _fp8_class("fp8_e8m0", e8m0_type, _e8m0_from_bits, _e8m0_bits)
_TO_FLOAT32 = {"e5m2": _e5m2_to_float32, "e4m3": _e4m3_to_float32, "e8m0": _e8m0_to_float32}


def to_float32(value):
    """The fp8 ``value`` as a float32 (exact); compiled code only."""
    raise TypeError("runs in compiled code only")


@overload(to_float32)
def _to_float32_typer(value):
    if isinstance(value, Fp8):
        convert = _TO_FLOAT32[value.kind_code]
        return lambda value: convert(value)
    return None


def _fp8_to_float32_ir(builder, value, value_type):
    """The float32 an fp8 code is (exact), decoded in LLVM IR for the number casts."""
    from llvmlite import ir

    i32 = ir.IntType(32)
    f32 = ir.FloatType()
    code = builder.zext(value, i32)

    def constant(number):
        return ir.Constant(i32, number)

    def as_float(bits):
        return builder.bitcast(bits, f32)

    nan = as_float(constant(0x7FC00000))
    if value_type.kind_code == "e5m2":  # the top byte of an IEEE half
        half = builder.bitcast(
            builder.trunc(builder.shl(code, constant(8)), ir.IntType(16)), ir.HalfType()
        )
        return builder.fpext(half, f32)
    if value_type.kind_code == "e8m0":  # 2**(code - 127); 0 is 2**-127, a subnormal; 0xFF NaN
        power = as_float(builder.shl(code, constant(23)))
        power = builder.select(
            builder.icmp_unsigned("==", code, constant(0)), as_float(constant(0x400000)), power
        )
        return builder.select(builder.icmp_unsigned("==", code, constant(0xFF)), nan, power)
    # e4m3: sign, 4 exponent bits (bias 7), 3 fraction bits; no infinity, S.1111.111 is NaN
    sign = builder.shl(builder.lshr(code, constant(7)), constant(31))
    field = builder.and_(builder.lshr(code, constant(3)), constant(0xF))
    fraction = builder.and_(code, constant(7))
    normal = builder.or_(
        builder.or_(sign, builder.shl(builder.add(field, constant(120)), constant(23))),
        builder.shl(fraction, constant(20)),
    )
    # subnormal: fraction * 2**-9 (exact), the sign put back
    scaled = builder.fmul(builder.uitofp(fraction, f32), as_float(constant((127 - 9) << 23)))
    subnormal = as_float(builder.or_(builder.bitcast(scaled, i32), sign))
    decoded = builder.select(
        builder.icmp_unsigned("==", field, constant(0)), subnormal, as_float(normal)
    )
    is_nan = builder.icmp_unsigned("==", builder.and_(code, constant(0x7F)), constant(0x7F))
    return builder.select(is_nan, nan, decoded)


mf.add_number_casts(Fp8, _fp8_to_float32_ir)

# bfloat16(fp8): exact through float32 (bfloat16 has float32's exponent range and at least the
# fp8 formats' fraction bits).


@register_jitable
def _to_bfloat16(value, mode):
    return bf16.from_float32(to_float32(value), mode)


bf16.add_converter(lambda t: isinstance(t, Fp8), _to_bfloat16)


# --- the storage conversions (__nv_cvt_*) ----------------------------------------------------


def _enum_value(value):
    """An IntEnum member or integer as an int64; compiled code only."""
    raise TypeError("runs in compiled code only")


@overload(_enum_value)
def _enum_value_typer(value):
    if isinstance(value, (types.Integer, types.Boolean)):
        return lambda value: np.int64(value)
    if hasattr(value, "instance_class"):  # an IntEnum member (taipan.enums)
        return lambda value: np.int64(value.value)
    return None


@register_jitable
def _rounding(round_mode):
    mode = _enum_value(round_mode)
    if mode == ROUND_ZERO:
        return mf.RZ
    if mode == ROUND_POS_INF:
        return mf.RU
    if mode == ROUND_MIN_INF:
        return mf.RD
    return mf.RN


@register_jitable
def cvt_float_to_fp8(x, saturate, interpretation):
    """The e4m3 or e5m2 code of the float32 ``x``, rounded to nearest."""
    negative, m, e, special = mf.float32_parts(np.float32(x))
    kind = _enum_value(interpretation)
    return _fp8_from_parts(negative, m, e, special, kind, mf.RN, _enum_value(saturate) != 0)


@register_jitable
def cvt_double_to_fp8(x, saturate, interpretation):
    """The e4m3 or e5m2 code of the float64 ``x``, rounded to nearest once."""
    negative, m, e, special = mf.float64_parts(np.float64(x))
    kind = _enum_value(interpretation)
    return _fp8_from_parts(negative, m, e, special, kind, mf.RN, _enum_value(saturate) != 0)


@register_jitable
def _raw_float32(raw):
    return mf.bits_float32(np.uint32(np.uint32(_raw_bits(raw)) << np.uint32(16)))


@register_jitable
def cvt_bfloat16raw_to_fp8(raw, saturate, interpretation):
    """The e4m3 or e5m2 code of a bfloat16's bits, rounded to nearest."""
    return cvt_float_to_fp8(_raw_float32(raw), saturate, interpretation)


@register_jitable
def cvt_float_to_e8m0(x, saturate, round_mode):
    """The e8m0 code of |x| (float32), rounded in cudaRoundMode ``round_mode``."""
    _, m, e, special = mf.float32_parts(np.float32(x))
    return _e8m0_from_parts(m, e, special, _rounding(round_mode), _enum_value(saturate) != 0)


@register_jitable
def cvt_double_to_e8m0(x, saturate, round_mode):
    """The e8m0 code of |x| (float64), rounded once in ``round_mode``."""
    _, m, e, special = mf.float64_parts(np.float64(x))
    return _e8m0_from_parts(m, e, special, _rounding(round_mode), _enum_value(saturate) != 0)


@register_jitable
def cvt_bfloat16raw_to_e8m0(raw, saturate, round_mode):
    """The e8m0 code of a bfloat16's bits."""
    return cvt_float_to_e8m0(_raw_float32(raw), saturate, round_mode)


@register_jitable
def cvt_e8m0_to_bf16raw(code):
    """The bfloat16 bits of the e8m0 code (exact: 2**-127 is a bfloat16 subnormal)."""
    code = np.int64(code)
    if code == 0xFF:
        return _raw_from_bits(np.uint16(bf16.CANONICAL_NAN))
    if code == 0:
        return _raw_from_bits(np.uint16(0x0040))
    return _raw_from_bits(np.uint16(code << np.int64(7)))


@overload_attribute(Bfloat16Raw, "x")
def _raw_x(raw):
    return lambda raw: _raw_bits(raw)


__all__ = [
    "Bfloat16Raw",
    "Fp8",
    "cvt_bfloat16raw_to_e8m0",
    "cvt_bfloat16raw_to_fp8",
    "cvt_double_to_e8m0",
    "cvt_double_to_fp8",
    "cvt_e8m0_to_bf16raw",
    "cvt_float_to_e8m0",
    "cvt_float_to_fp8",
    "fp8_e4m3",
    "fp8_e5m2",
    "fp8_e8m0",
    "fp8_interpretation_t",
    "saturation_t",
]
