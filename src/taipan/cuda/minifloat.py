"""Rounding into and out of the small floating-point formats of ``cuda.bf16`` and ``cuda.fp8``
(bfloat16, fp8 e5m2/e4m3/e8m0), written once as ordinary Python over integers, which taipan
compiles for kernels and the CPU alike (no hardware conversion is used, so every target gives
the same bits).

A finite value is ``(-1)**negative * m * 2**e`` with an integer significand ``m``; ``encode``
rounds it to a format of ``ebits`` exponent and ``mbits`` fraction bits in one of four modes
(``RN`` to nearest, ties to even; ``RZ`` toward zero; ``RD`` down; ``RU`` up), returning the
magnitude's code, which may lie past the format's largest finite code: each format then decides
between infinity, NaN and saturation. Rounding straight from the exact significand is what
makes conversions from float64 and 64-bit integers exact (no double rounding through float32).
"""

import numpy as np

from taipan import types
from taipan.extending import _registry, intrinsic, register_jitable
from taipan.types import float32, float64, uint32, uint64
from taipan.user_type_registry import user_view

RN = 0
RZ = 1
RD = 2
RU = 3


def _bitcast(source, target, llvm_source, llvm_target):
    @intrinsic
    def cast(typingctx, value):
        if value == source:
            return (
                target(source),
                f"%r = bitcast {llvm_source} %arg0 to {llvm_target}\nret {llvm_target} %r",
            )
        return None

    return cast


float32_bits = _bitcast(float32, uint32, "float", "i32")
bits_float32 = _bitcast(uint32, float32, "i32", "float")
float64_bits = _bitcast(float64, uint64, "double", "i64")
bits_float64 = _bitcast(uint64, float64, "i64", "double")


@register_jitable
def highest_bit(m):
    """The index of the highest set bit of ``m`` > 0 (an int64)."""
    n = 0
    if m >= np.int64(1) << np.int64(32):
        m >>= np.int64(32)
        n += 32
    if m >= np.int64(1) << np.int64(16):
        m >>= np.int64(16)
        n += 16
    if m >= np.int64(256):
        m >>= np.int64(8)
        n += 8
    if m >= np.int64(16):
        m >>= np.int64(4)
        n += 4
    if m >= np.int64(4):
        m >>= np.int64(2)
        n += 2
    if m >= np.int64(2):
        n += 1
    return n


@register_jitable
def _rounds_up(negative, kept, dropped, half, mode):
    """Whether the magnitude rounds away from its truncation ``kept``, given the dropped bits'
    value ``dropped`` and half a unit of the last kept place ``half`` (0: the dropped part is
    below any half, only sticky)."""
    if dropped == 0:
        return False
    if mode == RN:
        if half == 0:
            return False
        return dropped > half or (dropped == half and (kept & np.int64(1)) == 1)
    if mode == RU:
        return not negative
    if mode == RD:
        return negative
    return False


@register_jitable
def encode(negative, m, e, mode, ebits, mbits):
    """The code (exponent and fraction fields, no sign) of ``m * 2**e`` (``m`` an int64 >= 0)
    rounded in ``mode`` to the format with ``ebits`` exponent and ``mbits`` fraction bits
    (IEEE layout, bias ``2**(ebits-1) - 1``, subnormals); past the largest finite code when it
    overflows."""
    m = np.int64(m)
    e = np.int64(e)
    if m == 0:
        return np.int64(0)
    bias = (np.int64(1) << np.int64(ebits - 1)) - 1
    top = np.int64(highest_bit(m)) + e  # the exponent of the leading bit
    quantum = top - mbits
    if top < 1 - bias:
        quantum = np.int64(1 - bias - mbits)  # subnormal: a fixed last place
    shift = quantum - e
    if shift <= 0:
        kept = m << -shift
    elif shift >= 63:
        kept = np.int64(0)
        if _rounds_up(negative, kept, m, np.int64(0), mode):
            kept = np.int64(1)
    else:
        kept = m >> shift
        dropped = m & ((np.int64(1) << shift) - 1)
        half = np.int64(1) << (shift - 1)
        if _rounds_up(negative, kept, dropped, half, mode):
            kept += 1
    # Normal: (biased exponent - 1) << mbits plus the significand with its leading bit, which
    # carries into the exponent when rounding overflows it; subnormal: the significand alone.
    return ((quantum + mbits + bias - 1) << np.int64(mbits)) + kept


@register_jitable
def away_from_zero(negative, mode):
    """Whether ``mode`` rounds a magnitude of this sign up (so an overflow becomes infinite)."""
    return mode == RN or (mode == RU and not negative) or (mode == RD and negative)


@register_jitable
def float32_parts(x):
    """(negative, m, e, kind) of a float32: kind 0 finite (x = m * 2**e), 1 infinite, 2 NaN."""
    bits = np.int64(float32_bits(np.float32(x)))
    negative = (bits >> np.int64(31)) != 0
    field = (bits >> np.int64(23)) & np.int64(0xFF)
    fraction = bits & np.int64(0x7FFFFF)
    if field == 0xFF:
        return negative, fraction, np.int64(0), 2 if fraction != 0 else 1
    if field == 0:
        return negative, fraction, np.int64(-149), 0
    return negative, fraction | np.int64(0x800000), field - np.int64(150), 0


@register_jitable
def float64_parts(x):
    """(negative, m, e, kind) of a float64, as float32_parts."""
    bits = float64_bits(np.float64(x))
    negative = (bits >> np.uint64(63)) != 0
    field = np.int64((bits >> np.uint64(52)) & np.uint64(0x7FF))
    fraction = np.int64(bits & np.uint64(0xFFFFFFFFFFFFF))
    if field == 0x7FF:
        return negative, fraction, np.int64(0), 2 if fraction != 0 else 1
    if field == 0:
        return negative, fraction, np.int64(-1074), 0
    return negative, fraction | (np.int64(1) << np.int64(52)), field - np.int64(1075), 0


@register_jitable
def unsigned_parts(magnitude):
    """(m, e) of a uint64 magnitude with m an int64: the low bit of a magnitude of 2**63 and
    more is folded into a sticky bit, which rounding to 8 or fewer bits cannot tell apart."""
    magnitude = np.uint64(magnitude)
    if magnitude >= np.uint64(1) << np.uint64(63):
        folded = (magnitude >> np.uint64(1)) | (magnitude & np.uint64(1))
        return np.int64(folded), np.int64(1)
    return np.int64(magnitude), np.int64(0)


@register_jitable
def integer_parts(value):
    """(negative, m, e) of any integer value (signed or unsigned, up to 64 bits)."""
    if value < 0:
        # -(value + 1) + 1 never overflows, even for the most negative int64
        magnitude = np.uint64(-(np.int64(value) + np.int64(1))) + np.uint64(1)
        m, e = unsigned_parts(magnitude)
        return True, m, e
    m, e = unsigned_parts(np.uint64(value))
    return False, m, e


@register_jitable
def round_float32(x, mode):
    """The float32 ``x`` rounded to an integral float32 in ``mode``."""
    if mode == RN:
        return np.float32(np.rint(x))
    if mode == RZ:
        return np.float32(np.trunc(x))
    if mode == RD:
        return np.float32(np.floor(x))
    return np.float32(np.ceil(x))


@register_jitable
def float32_to_int(x, mode, cast, low, high):
    """The float32 ``x`` rounded in ``mode`` to an integer of the type ``cast`` (np.int16...),
    clamped to its range [low, high], NaN giving 0: what PTX's cvt.{rni,rzi,rmi,rpi} to
    integers give."""
    if np.isnan(x):
        return cast(0)
    rounded = round_float32(x, mode)
    if rounded <= low:
        return cast(low)
    if rounded >= high:
        return cast(high)
    return cast(rounded)


# --- casts of the small formats to numbers: float32(b), np.int16(b), int(b)... ---------------


def _float_to_number(builder, value, target):
    """The float32 LLVM ``value`` converted to the number type ``target`` as PTX's cvt does:
    exactly or rounded to nearest to floats, toward zero to integers saturating (NaN to 0),
    non-zero to booleans."""
    from llvmlite import ir

    kind = target.kind_name
    if kind == "Boolean":
        return builder.fcmp_unordered("!=", value, ir.Constant(ir.FloatType(), 0.0))
    if kind == "Float":
        wanted = {16: ir.HalfType(), 32: ir.FloatType(), 64: ir.DoubleType()}[target.bitwidth]
        if target.bitwidth == 32:
            return value
        if target.bitwidth == 64:
            return builder.fpext(value, wanted)
        return builder.fptrunc(value, wanted)
    integer = ir.IntType(target.bitwidth)
    name = f"llvm.fpto{'s' if target.signed else 'u'}i.sat.i{target.bitwidth}.f32"
    function = builder.module.globals.get(name)
    if function is None:
        function = ir.Function(builder.module, ir.FunctionType(integer, [ir.FloatType()]), name)
    return builder.call(function, [value])


def add_number_casts(type_class, to_float32_ir):
    """Makes values of the user types ``type_class`` convert where a number type is called on
    them (``float32(b)``, ``np.int16(b)``): the compiler asks the type for its member
    ``$cast.<number>`` (taipan.user_types), answered here by an intrinsic decoding the value
    to float32 with ``to_float32_ir(builder, value, value_type)`` (exact for these formats)
    and converting that. Only named casts: a value is never converted where any number would
    do, so ``a + b`` stays the type's own operator."""
    casts = {}

    def finder(self_type, name):
        if not isinstance(self_type, type_class) or not name.startswith("$cast."):
            return None
        target_name = name.partition(".")[2]
        target = types.boolean if target_name == "bool" else getattr(types, target_name, None)
        if target is None or target.kind_name not in ("Boolean", "Integer", "Float"):
            return None
        key = (self_type, target_name)
        if key not in casts:

            def typer(typingctx, value):
                def codegen(context, builder, signature, args):
                    decoded = to_float32_ir(builder, args[0], user_view(signature.args[0]))
                    return _float_to_number(builder, decoded, target)

                return target(value), codegen

            typer.__name__ = f"{self_type}.__cast_to_{target_name}__"
            casts[key] = (intrinsic(typer).registry_id, False)
        return casts[key]

    _registry.add_member_finder({"UserType"}, finder)


__all__ = [
    "RD",
    "RN",
    "RU",
    "RZ",
    "add_number_casts",
    "away_from_zero",
    "bits_float32",
    "bits_float64",
    "encode",
    "float32_bits",
    "float32_parts",
    "float32_to_int",
    "float64_bits",
    "float64_parts",
    "highest_bit",
    "integer_parts",
    "round_float32",
    "unsigned_parts",
]
