"""cuda.bf16: bfloat16 values compared bit for bit with a reference written here with exact
fractions (round to nearest even, toward zero, down, up; NaN, infinities, subnormals, overflow),
run as compiled CPU code (the same Python taipan compiles for kernels), and kernels using every
kind of operation assembled by ptxas for sm_90."""

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit, types
from taipan.cuda import bf16
from taipan.errors import TypingError, UnsupportedError
from taipan.runtime import live_blocks

MODES = {"rn": 0, "rz": 1, "rd": 2, "ru": 3}


# --- the reference ---------------------------------------------------------------------------


def _round_integer(q, mode, negative):
    """The integer nearest the non-negative Fraction q in the rounding mode of a value whose
    sign is `negative` (rd and ru round the signed value)."""
    n = math.floor(q)
    rest = q - n
    if rest == 0:
        return n
    if mode == "rn":
        return n + 1 if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2) else n
    if mode == "rz":
        return n
    if mode == "ru":
        return n if negative else n + 1
    return n + 1 if negative else n  # rd


def ref_bits(value, mode="rn"):
    """bfloat16 bits of a float or int, rounded once from its exact value."""
    if isinstance(value, float):
        if math.isnan(value):
            return 0x7FFF
        negative = math.copysign(1.0, value) < 0
        if math.isinf(value):
            return 0xFF80 if negative else 0x7F80
        exact = Fraction(value)
    else:
        negative = value < 0
        exact = Fraction(value)
    sign = 0x8000 if negative else 0
    magnitude = abs(exact)
    if magnitude == 0:
        return sign
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    exponent = max(exponent, -126)
    significand = _round_integer(magnitude / Fraction(2) ** (exponent - 7), mode, negative)
    code = significand if significand < 128 else ((exponent + 127) << 7) + significand - 128
    if code > 0x7F7F:
        away = mode == "rn" or (mode == "ru" and not negative) or (mode == "rd" and negative)
        code = 0x7F80 if away else 0x7F7F
    return sign | code


def ref_value(bits):
    """The exact value of bfloat16 bits, as a float (NaN and infinities included)."""
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def ref_to_integer(bits, mode, low, high):
    value = ref_value(bits)
    if math.isnan(value):
        return 0
    if math.isinf(value):
        return high if value > 0 else low
    rounded = _round_integer(abs(Fraction(value)), mode, value < 0) * (-1 if value < 0 else 1)
    return min(max(rounded, low), high)


def float32_samples(count=3000, seed=5):
    rng = random.Random(seed)
    bits = [rng.getrandbits(32) for _ in range(count)]
    # halfway cases, ties, subnormals, the largest values, overflow boundaries, specials
    bits += [0x3F808000, 0x3F818000, 0x3F80C000, 0x3F807FFF, 0x00008000, 0x00018000, 0x00000001]
    bits += [0x7F7F7FFF, 0x7F7F8000, 0x7F7FFFFF, 0xFF7F8000, 0x80000000, 0x00000000, 0x807FFFFF]
    bits += [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x00800000, 0x007FFFFF]
    return np.array(bits, dtype=np.uint32).view(np.float32)


def bf16_samples(count=1500, seed=6):
    rng = random.Random(seed)
    bits = [rng.getrandbits(16) for _ in range(count)]
    bits += [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFFF, 0x0001, 0x8001, 0x7F7F, 0xFF7F]
    bits += [0x3F80, 0x3FC0, 0x4020, 0xBFC0, 0x3F00, 0x4700, 0x5F00, 0xDF00, 0x4F00, 0xCF00]
    return np.array(bits, dtype=np.uint16)


# --- conversions into bfloat16 ---------------------------------------------------------------


def _from_float32_kernel(mode_name):
    convert = getattr(bf16, f"float32_to_bfloat16_{mode_name}")

    @njit
    def run(values, out):
        for i in range(values.size):
            out[i] = bf16.bfloat16_as_uint16(convert(values[i]))

    return run


@pytest.mark.parametrize("mode", list(MODES))
def test_from_float32_every_mode(mode):
    values = float32_samples()
    out = np.zeros(values.size, np.uint16)
    before = live_blocks()
    _from_float32_kernel(mode)(values, out)
    assert live_blocks() == before
    expected = [ref_bits(float(v), mode) for v in values]
    mismatches = [
        (hex(int(values.view(np.uint32)[i])), hex(int(out[i])), hex(expected[i]))
        for i in range(values.size)
        if int(out[i]) != expected[i]
    ]
    assert mismatches == []


@njit
def _construct_from(values, out):
    for i in range(values.size):
        out[i] = bf16.bfloat16_as_uint16(bf16.nv_bfloat16(values[i]))


def test_constructor_from_float32_and_float64_rounds_once():
    values32 = float32_samples(1000)
    out = np.zeros(values32.size, np.uint16)
    _construct_from(values32, out)
    assert [int(b) for b in out] == [ref_bits(float(v)) for v in values32]
    # float64 values whose rounding through float32 first would round twice (a tie in float32)
    tricky = [1.0 + 2.0**-8 + 2.0**-40, -(1.0 + 2.0**-8 + 2.0**-40), 3.14, 1e300, -1e300, 1e-300]
    tricky += [2.0**-133, 2.0**-134, 3 * 2.0**-135, 5e-324, -0.0, math.inf, -math.inf, math.nan]
    rng = random.Random(7)
    tricky += [rng.uniform(-1e6, 1e6) for _ in range(500)]
    tricky += [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(500)]
    values64 = np.array(tricky, dtype=np.float64)
    out = np.zeros(values64.size, np.uint16)
    _construct_from(values64, out)
    assert [int(b) for b in out] == [ref_bits(float(v)) for v in values64]


@pytest.mark.parametrize("mode", list(MODES))
def test_float64_every_mode_through_to_bfloat16(mode):
    @njit
    def run(values, out, mode):
        for i in range(values.size):
            out[i] = bf16.bfloat16_as_uint16(bf16.to_bfloat16(values[i], mode))

    rng = random.Random(8)
    values = np.array(
        [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(800)]
        + [1.0 + 2.0**-8 + 2.0**-40, 3.3961e38, 3.3895e38, -3.4e38, 1e-45, -1e-45, 0.0],
        dtype=np.float64,
    )
    out = np.zeros(values.size, np.uint16)
    run(values, out, MODES[mode])
    assert [int(b) for b in out] == [ref_bits(float(v), mode) for v in values]


INTEGER_TYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def _integer_samples(name):
    info = np.iinfo(name)
    rng = random.Random(name)
    values = {info.min, info.max, 0, 1, 789, 255, 256, 257, 383, 384, 385, 65535 & info.max}
    values |= {info.min + 1, info.max - 1, (info.max >> 1) + 1}
    values |= {rng.randint(int(info.min), int(info.max)) for _ in range(300)}
    return np.array(sorted(v for v in values if info.min <= v <= info.max), dtype=name)


@pytest.mark.parametrize("name", INTEGER_TYPES[2:])
@pytest.mark.parametrize("mode", list(MODES))
def test_integers_to_bfloat16_every_mode(name, mode):
    convert = getattr(bf16, f"{name}_to_bfloat16_{mode}")

    @njit
    def run(values, out):
        for i in range(values.size):
            out[i] = bf16.bfloat16_as_uint16(convert(values[i]))

    values = _integer_samples(name)
    out = np.zeros(values.size, np.uint16)
    run(values, out)
    assert [int(b) for b in out] == [ref_bits(int(v), mode) for v in values]


@pytest.mark.parametrize("name", INTEGER_TYPES)
@pytest.mark.parametrize("mode", list(MODES))
def test_bfloat16_to_integers_every_mode_saturates(name, mode):
    if name in ("int8", "uint8") and mode != "rz":
        convert = bf16._TO_INTEGER[name, mode]
    else:
        convert = getattr(bf16, f"bfloat16_to_{name}_{mode}")

    @njit
    def run(bits, out):
        for i in range(bits.size):
            out[i] = convert(bf16.uint16_as_bfloat16(bits[i]))

    bits = bf16_samples()
    out = np.zeros(bits.size, name)
    run(bits, out)
    info = np.iinfo(name)
    expected = [ref_to_integer(int(b), mode, int(info.min), int(info.max)) for b in bits]
    assert [int(v) for v in out] == expected


@njit
def _casts(bits, f32, f64, i16, u64, i8):
    for i in range(bits.size):
        value = bf16.uint16_as_bfloat16(bits[i])
        f32[i] = np.float32(value)
        f64[i] = types.float64(value)
        i16[i] = types.int16(value)
        u64[i] = np.uint64(value)
        i8[i] = types.int8(value)


def test_casts_of_a_bfloat16_are_exact_to_floats_and_truncate_to_integers():
    bits = bf16_samples()
    f32 = np.zeros(bits.size, np.float32)
    f64 = np.zeros(bits.size, np.float64)
    i16 = np.zeros(bits.size, np.int16)
    u64 = np.zeros(bits.size, np.uint64)
    i8 = np.zeros(bits.size, np.int8)
    _casts(bits, f32, f64, i16, u64, i8)
    values = [ref_value(int(b)) for b in bits]
    np.testing.assert_array_equal(f32, np.array(values, np.float32))
    np.testing.assert_array_equal(f64, np.array(values, np.float64))
    assert list(i16) == [ref_to_integer(int(b), "rz", -(2**15), 2**15 - 1) for b in bits]
    assert [int(v) for v in u64] == [ref_to_integer(int(b), "rz", 0, 2**64 - 1) for b in bits]
    assert list(i8) == [ref_to_integer(int(b), "rz", -128, 127) for b in bits]


def test_bit_reinterpretation_round_trips():
    @njit
    def run(bits, signed, unsigned):
        for i in range(bits.size):
            value = bf16.int16_as_bfloat16(bits[i])
            signed[i] = bf16.bfloat16_as_int16(value)
            unsigned[i] = bf16.bfloat16_as_uint16(value)

    bits = bf16_samples().view(np.int16)
    signed = np.zeros(bits.size, np.int16)
    unsigned = np.zeros(bits.size, np.uint16)
    run(bits, signed, unsigned)
    np.testing.assert_array_equal(signed, bits)
    np.testing.assert_array_equal(unsigned, bits.view(np.uint16))


# --- arithmetic -----------------------------------------------------------------------------


def _exact(bits):
    return Fraction(ref_value(bits))


def _ref_arith(op, a, b, c=None):
    x, y = ref_value(a), ref_value(b)
    z = ref_value(c) if op == "fma" else None
    values = [x, y] + ([] if z is None else [z])
    if any(math.isnan(v) for v in values):
        return 0x7FFF
    if any(math.isinf(v) for v in values) or (op == "div" and y == 0):
        with np.errstate(all="ignore"):
            result = {
                "add": np.float64(x) + y,
                "sub": np.float64(x) - y,
                "mul": np.float64(x) * y,
                "div": np.float64(x) / np.float64(y),
                "fma": np.float64(x) * y + (z if z is not None else 0.0),
            }[op]
        return ref_bits(float(result))
    exact = {
        "add": lambda: _exact(a) + _exact(b),
        "sub": lambda: _exact(a) - _exact(b),
        "mul": lambda: _exact(a) * _exact(b),
        "div": lambda: _exact(a) / _exact(b),
        "fma": lambda: _exact(a) * _exact(b) + _exact(c),
    }[op]()
    if exact == 0:
        # the sign of an exact zero: IEEE's rules for sums, the sign product for * and /
        if op in ("mul", "div"):
            negative = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
        elif op == "fma":
            product_negative = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
            negative = product_negative and math.copysign(1, z) < 0
        else:
            yy = -y if op == "sub" else y
            negative = math.copysign(1, x) < 0 and math.copysign(1, yy) < 0
        return 0x8000 if negative else 0
    # an exact value as a Fraction: rounded once by the reference
    numerator, denominator = exact.numerator, exact.denominator
    return _ref_bits_of_fraction(Fraction(numerator, denominator))


def _ref_bits_of_fraction(exact):
    negative = exact < 0
    magnitude = abs(exact)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    exponent = max(exponent, -126)
    significand = _round_integer(magnitude / Fraction(2) ** (exponent - 7), "rn", negative)
    code = significand if significand < 128 else ((exponent + 127) << 7) + significand - 128
    code = min(code, 0x7F80)
    return (0x8000 if negative else 0) | code


@njit
def _arith(a, b, c, out):
    for i in range(a.size):
        x = bf16.uint16_as_bfloat16(a[i])
        y = bf16.uint16_as_bfloat16(b[i])
        z = bf16.uint16_as_bfloat16(c[i])
        out[0, i] = bf16.bfloat16_as_uint16(x + y)
        out[1, i] = bf16.bfloat16_as_uint16(x - y)
        out[2, i] = bf16.bfloat16_as_uint16(x * y)
        out[3, i] = bf16.bfloat16_as_uint16(x / y)
        out[4, i] = bf16.bfloat16_as_uint16(bf16.hfma(x, y, z))


def test_arithmetic_rounds_once_to_nearest():
    rng = np.random.default_rng(9)
    a = bf16_samples(1200, 10)
    b = bf16_samples(1200, 11)
    # operands of close magnitude too, where cancellation and ties happen
    b[:400] = (a[:400].astype(np.int32) + rng.integers(-300, 300, 400)).clip(0, 0xFFFF)
    c = bf16_samples(1200, 12)
    out = np.zeros((5, a.size), np.uint16)
    _arith(a, b, c, out)
    for row, op in enumerate(["add", "sub", "mul", "div", "fma"]):
        expected = [_ref_arith(op, int(x), int(y), int(z)) for x, y, z in zip(a, b, c)]
        got = [int(v) for v in out[row]]
        bad = [
            (hex(int(a[i])), hex(int(b[i])), hex(int(c[i])), hex(got[i]), hex(expected[i]))
            for i in range(a.size)
            if got[i] != expected[i]
        ]
        assert bad == [], op


@njit
def _compare(a, b, out):
    for i in range(a.size):
        x = bf16.uint16_as_bfloat16(a[i])
        y = bf16.uint16_as_bfloat16(b[i])
        out[0, i] = x == y
        out[1, i] = x != y
        out[2, i] = x < y
        out[3, i] = x <= y
        out[4, i] = x > y
        out[5, i] = x >= y
        out[6, i] = bf16.hne(x, y)
        out[7, i] = bf16.hltu(x, y)
        out[8, i] = bf16.hisnan(x)


def test_comparisons_follow_ieee_with_nan():
    a = bf16_samples(600, 13)
    b = a.copy()
    b[::2] = bf16_samples(600, 14)[::2]
    out = np.zeros((9, a.size), np.bool_)
    _compare(a, b, out)
    x = np.array([ref_value(int(v)) for v in a])
    y = np.array([ref_value(int(v)) for v in b])
    np.testing.assert_array_equal(out[0], x == y)
    np.testing.assert_array_equal(out[1], x != y)
    np.testing.assert_array_equal(out[2], x < y)
    np.testing.assert_array_equal(out[3], x <= y)
    np.testing.assert_array_equal(out[4], x > y)
    np.testing.assert_array_equal(out[5], x >= y)
    np.testing.assert_array_equal(out[6], (x != y) & ~np.isnan(x) & ~np.isnan(y))
    np.testing.assert_array_equal(out[7], ~(x >= y))
    np.testing.assert_array_equal(out[8], np.isnan(x))


@njit
def _extremes(a, b, out):
    for i in range(a.size):
        x = bf16.uint16_as_bfloat16(a[i])
        y = bf16.uint16_as_bfloat16(b[i])
        out[0, i] = bf16.bfloat16_as_uint16(bf16.hmax(x, y))
        out[1, i] = bf16.bfloat16_as_uint16(bf16.hmin(x, y))
        out[2, i] = bf16.bfloat16_as_uint16(bf16.hmax_nan(x, y))
        out[3, i] = bf16.bfloat16_as_uint16(bf16.hmin_nan(x, y))
        out[4, i] = bf16.bfloat16_as_uint16(bf16.habs(x))
        out[5, i] = bf16.bfloat16_as_uint16(-x)
        out[6, i] = bf16.bfloat16_as_uint16(bf16.hadd_sat(x, y))
        out[7, i] = bf16.bfloat16_as_uint16(bf16.hfma_relu(x, y, y))


def test_max_min_saturation_and_signs():
    nan, one, negzero, zero = 0x7FC0, 0x3F80, 0x8000, 0x0000
    a = np.array([nan, one, nan, negzero, zero, 0x4000, 0xC000, 0x3F00, 0xBF80], np.uint16)
    b = np.array([one, nan, nan, zero, negzero, 0x3F80, 0x3F80, 0x3E80, 0x3F00], np.uint16)
    out = np.zeros((8, a.size), np.uint16)
    _extremes(a, b, out)
    assert list(out[0]) == [one, one, 0x7FFF, zero, zero, 0x4000, 0x3F80, 0x3F00, 0x3F00]
    assert list(out[1]) == [one, one, 0x7FFF, negzero, negzero, 0x3F80, 0xC000, 0x3E80, 0xBF80]
    assert list(out[2][:3]) == [0x7FFF] * 3 and list(out[3][:3]) == [0x7FFF] * 3
    assert list(out[4]) == [int(v) & 0x7FFF for v in a]
    assert list(out[5]) == [int(v) ^ 0x8000 for v in a]
    # hadd_sat: clamped to [0, 1], NaN giving 0
    assert list(out[6]) == [0, 0, 0, 0, 0, one, 0, 0x3F40, 0]
    # hfma_relu(x, y, y): negative results give +0, NaN the canonical NaN
    assert out[7][0] == 0x7FFF and out[7][6] == 0 and out[7][5] == ref_bits(2.0 * 1.0 + 1.0)


def test_math_functions_compute_in_float32_and_round_once():
    @njit
    def run(bits, out):
        for i in range(bits.size):
            x = bf16.uint16_as_bfloat16(bits[i])
            out[0, i] = bf16.bfloat16_as_uint16(math.trunc(x))
            out[1, i] = bf16.bfloat16_as_uint16(math.floor(x))
            out[2, i] = bf16.bfloat16_as_uint16(math.ceil(x))
            out[3, i] = bf16.bfloat16_as_uint16(math.sqrt(x))
            out[4, i] = bf16.bfloat16_as_uint16(math.exp(x))
            out[5, i] = bf16.bfloat16_as_uint16(bf16.hrint(x))
            out[6, i] = bf16.bfloat16_as_uint16(bf16.hrcp(x))

    bits = np.array([0x4049, 0xC049, 0x3FC0, 0x4020, 0x0000, 0x7F80, 0x3E80], np.uint16)
    out = np.zeros((7, bits.size), np.uint16)
    with np.errstate(all="ignore"):
        run(bits, out)
        x = np.array([ref_value(int(b)) for b in bits], np.float32)
        for row, reference in enumerate(
            [np.trunc, np.floor, np.ceil, np.sqrt, np.exp, np.rint, lambda v: np.float32(1) / v]
        ):
            expected = [ref_bits(float(np.float32(reference(v)))) for v in x]
            assert [int(v) for v in out[row]] == expected, row


def test_refuses_other_operand_types():
    @njit
    def mixed(x):
        return np.float32(bf16.nv_bfloat16(1.0) + "a")

    with pytest.raises(Exception, match="bfloat16"):
        mixed(1)


# --- kernels --------------------------------------------------------------------------------


def _every_operation(out, ints, flags, test_value):
    a = bf16.bfloat16(3.14)
    b = bf16.nv_bfloat16(types.int32(5))
    c = bf16.int16_as_bfloat16(test_value)
    out[0] = types.float32(a + b)
    out[1] = types.float32(a - b * c / a)
    out[2] = types.float32(-a)
    out[3] = types.float32(math.sqrt(a))
    out[4] = types.float32(bf16.hfma(a, b, c))
    out[5] = types.float32(bf16.hexp10(a))
    out[6] = types.float32(bf16.float64_to_bfloat16(types.float64(out[0])))
    ints[0] = types.int64(a)
    ints[1] = bf16.bfloat16_to_int32_rd(c)
    ints[2] = bf16.bfloat16_as_int16(bf16.uint64_to_bfloat16_ru(types.uint64(789)))
    ints[3] = bf16.hisinf(bf16.bfloat16(math.inf))
    flags[0] = a < b
    flags[1] = bf16.hisnan(bf16.bfloat16(math.nan))


@cuda.jit(device=True)
def _add(a, b):
    return a + b


def _through_device_function(out):
    out[0] = types.float32(bf16.hfloor(_add(bf16.bfloat16(3.14), bf16.bfloat16(5))))


@needs_ptxas
def test_kernels_assemble_for_sm_90(tmp_path):
    signature = (types.float32[:], types.int64[:], types.boolean[:], types.int16)
    ptx, _ = cuda.compile_ptx(_every_operation, signature, cc=(9, 0))
    ptxas(ptx, tmp_path)
    ptx, _ = cuda.compile_ptx(_through_device_function, (types.float32[:],), cc=(9, 0))
    ptxas(ptx, tmp_path)


def test_kernel_code_gives_the_cpu_results():
    """The kernel's body compiled for the CPU: the values the GPU must give."""
    run = njit(_every_operation)
    out = np.zeros(7, np.float32)
    ints = np.zeros(4, np.int64)
    flags = np.zeros(2, np.bool_)
    run(out, ints, flags, np.int16(0x3FC0))
    a, b, c = ref_value(ref_bits(3.14)), 5.0, 1.5
    assert out[0] == ref_value(_ref_bits_of_fraction(Fraction(a) + Fraction(b)))
    assert out[2] == -a
    assert ints[0] == 3 and ints[1] == 1 and ints[3] == 1
    assert ints[2] == np.int16(ref_bits(789, "ru")) and flags[0] and flags[1]
    assert out[4] == ref_value(_ref_bits_of_fraction(Fraction(a) * Fraction(b) + Fraction(c)))


def test_is_bfloat16_supported_in_the_simulator_namespace():
    from taipan.cuda.simulator import host

    assert host.is_bfloat16_supported() is False
    assert host.is_fp8_supported() is False


def test_number_classes_are_untouched_by_the_casts():
    """The casts of bfloat16 are the type's own conversions, asked for by name: np.float32
    stays a value and a dtype, and numbers convert as before."""

    @njit
    def apply(function, x):
        return function(x)

    @njit
    def run(x):
        values = np.zeros(2, dtype=np.float32)
        values[0] = apply(np.float32, x)
        return values[0], apply(np.int16, x), types.float32(x), np.uint8(x)

    assert run(3.7) == (np.float32(3.7), 3, np.float32(3.7), 3)


def test_augmented_assignment_uses_the_operators():
    @njit
    def run(bits, out):
        a = bf16.uint16_as_bfloat16(bits[0])
        b = bf16.uint16_as_bfloat16(bits[1])
        a += b
        out[0] = bf16.bfloat16_as_uint16(a)
        a -= b
        out[1] = bf16.bfloat16_as_uint16(a)
        a *= b
        out[2] = bf16.bfloat16_as_uint16(a)
        a /= b
        out[3] = bf16.bfloat16_as_uint16(a)

    bits = np.array([ref_bits(1.25), ref_bits(3.0)], np.uint16)
    out = np.zeros(4, np.uint16)
    run(bits, out)
    x, y = Fraction(1.25), Fraction(3)
    assert list(out) == [
        _ref_bits_of_fraction(x + y),
        _ref_bits_of_fraction(x + y - y),
        _ref_bits_of_fraction((x + y - y) * y),
        _ref_bits_of_fraction((x + y - y) * y / y),
    ]


def test_augmented_assignment_without_an_operator_is_a_typing_error():
    @njit
    def run():
        a = bf16.nv_bfloat16(1.0)
        a //= a
        return np.float32(a)

    with pytest.raises(TypingError, match="//="):
        run()


def test_stores_into_number_arrays_convert():
    """A bfloat16 stored into an array of numbers converts as the casts do (numba-cuda's
    can_convert_to): exactly into floats, toward zero (saturating) into integers."""

    @njit
    def run(bits, i16, f32, u8):
        for i in range(bits.size):
            value = bf16.uint16_as_bfloat16(bits[i])
            i16[i] = value
            f32[i] = value
            u8[i] = value

    bits = bf16_samples(300, 21)
    i16 = np.zeros(bits.size, np.int16)
    f32 = np.zeros(bits.size, np.float32)
    u8 = np.zeros(bits.size, np.uint8)
    run(bits, i16, f32, u8)
    np.testing.assert_array_equal(f32, np.array([ref_value(int(b)) for b in bits], np.float32))
    assert list(i16) == [ref_to_integer(int(b), "rz", -(2**15), 2**15 - 1) for b in bits]
    assert list(u8) == [ref_to_integer(int(b), "rz", 0, 255) for b in bits]


def test_isinstance_decides_on_the_class_of_the_values():
    from taipan.cuda import fp8

    @njit
    def run(out):
        x = bf16.nv_bfloat16(3.14)
        if isinstance(x, bf16.nv_bfloat16):  # decided while compiling: the other branch pruned
            out[0] = np.float32(x)
        else:
            out[0] = "never typed"
        out[1] = isinstance(x, (fp8.fp8_e4m3, fp8.fp8_e5m2))
        out[2] = isinstance(fp8.fp8_e4m3(1.0), fp8.fp8_e4m3)

    out = np.zeros(3, np.float32)
    run(out)
    assert list(out) == [np.float32(ref_value(ref_bits(3.14))), 0.0, 1.0]


def test_isinstance_with_other_classes_is_refused():
    @njit
    def run():
        return isinstance(bf16.nv_bfloat16(1.0), int)

    with pytest.raises(UnsupportedError, match="with the class int"):
        run()
