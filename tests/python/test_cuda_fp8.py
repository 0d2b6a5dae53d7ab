"""cuda.fp8: e5m2, e4m3 and e8m0 codes compared bit for bit with a reference written here with
exact fractions (round to nearest even, saturation, NaN and infinities), every code decoded,
run as compiled CPU code (the Python taipan compiles for kernels too), and a kernel using every
conversion assembled by ptxas for sm_90."""

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit, types
from taipan.cuda import bf16
from taipan.cuda.fp8 import (
    cvt_bfloat16raw_to_e8m0,
    cvt_bfloat16raw_to_fp8,
    cvt_double_to_e8m0,
    cvt_double_to_fp8,
    cvt_e8m0_to_bf16raw,
    cvt_float_to_e8m0,
    cvt_float_to_fp8,
    fp8_e4m3,
    fp8_e5m2,
    fp8_e8m0,
    fp8_interpretation_t,
    saturation_t,
)

FORMATS = {"e4m3": (4, 3, 0x7E), "e5m2": (5, 2, 0x7B)}


def ref_decode(code, kind):
    """The exact value of a code, as a float."""
    if kind == "e8m0":
        return math.nan if code == 0xFF else math.ldexp(1.0, code - 127)
    ebits, mbits, _ = FORMATS[kind]
    bias = (1 << (ebits - 1)) - 1
    sign = -1.0 if code & 0x80 else 1.0
    field, fraction = (code & 0x7F) >> mbits, code & ((1 << mbits) - 1)
    if kind == "e5m2" and field == 0x1F:
        return sign * math.inf if fraction == 0 else math.nan
    if kind == "e4m3" and (code & 0x7F) == 0x7F:
        return math.nan
    if field == 0:
        return sign * math.ldexp(fraction, 1 - bias - mbits)
    return sign * math.ldexp((1 << mbits) + fraction, field - bias - mbits)


def ref_encode(value, kind, saturate):
    """The code of a float rounded to nearest (ties to even) in e4m3 or e5m2."""
    ebits, mbits, largest = FORMATS[kind]
    if math.isnan(value):
        return 0x7F
    sign = 0x80 if math.copysign(1.0, value) < 0 else 0
    overflow = largest if saturate else (0x7C if kind == "e5m2" else 0x7F)
    if math.isinf(value):
        return sign | overflow
    magnitude = abs(Fraction(value))
    if magnitude == 0:
        return sign
    bias = (1 << (ebits - 1)) - 1
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    exponent = max(exponent, 1 - bias)
    q = magnitude / Fraction(2) ** (exponent - mbits)
    n = math.floor(q)
    if q - n > Fraction(1, 2) or (q - n == Fraction(1, 2) and n % 2):
        n += 1
    code = n if n < (1 << mbits) else ((exponent + bias) << mbits) + n - (1 << mbits)
    return sign | (overflow if code > largest else code)


def ref_e8m0(value, saturate, mode):
    """The e8m0 code of |value| in cudaRoundMode `mode` (0 nearest, 1 zero, 2 up)."""
    if math.isnan(value):
        return 0xFF
    if math.isinf(value):
        return 0xFE if saturate else 0xFF
    magnitude = abs(Fraction(value))
    if magnitude == 0:
        return 0
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    code = exponent + 127
    if magnitude != Fraction(2) ** exponent:
        middle = Fraction(3, 2) * Fraction(2) ** exponent
        if mode == 2 or (mode == 0 and (magnitude > middle or (magnitude == middle and code % 2))):
            code += 1
    if code < 0:
        return 0
    if code > 254:
        return 0xFE if saturate else 0xFF
    return code


def samples(seed=1, count=1500):
    rng = random.Random(seed)
    values = [struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))[0] for _ in range(count)]
    values += [rng.uniform(-600, 600) for _ in range(count)]
    values += [rng.uniform(-1, 1) * 2.0 ** rng.randint(-20, 20) for _ in range(count)]
    values += [448.0, 464.0, 463.9, 480.0, 57344.0, 61440.0, 61439.0, 2.0**-9, 2.0**-10, 2.0**-16]
    values += [2.0**-17, 3 * 2.0**-18, 0.0, -0.0, math.inf, -math.inf, math.nan, 1e20, -1e20]
    return np.array(values, np.float32)


@njit
def _convert(values, out):
    for i in range(values.size):
        out[0, i] = cvt_float_to_fp8(values[i], saturation_t.NOSAT, fp8_interpretation_t.E4M3)
        out[1, i] = cvt_float_to_fp8(values[i], saturation_t.SATFINITE, fp8_interpretation_t.E4M3)
        out[2, i] = cvt_float_to_fp8(values[i], saturation_t.NOSAT, fp8_interpretation_t.E5M2)
        out[3, i] = cvt_double_to_fp8(
            np.float64(values[i]), saturation_t.SATFINITE, fp8_interpretation_t.E5M2
        )
        out[4, i] = cvt_float_to_e8m0(values[i], saturation_t.NOSAT, 0)
        out[5, i] = cvt_float_to_e8m0(values[i], saturation_t.SATFINITE, 1)
        out[6, i] = cvt_double_to_e8m0(np.float64(values[i]), saturation_t.NOSAT, 2)


def test_storage_conversions_round_to_nearest_and_saturate():
    values = samples()
    out = np.zeros((7, values.size), np.uint8)
    _convert(values, out)
    cases = [
        ("e4m3", False),
        ("e4m3", True),
        ("e5m2", False),
        ("e5m2", True),
    ]
    for row, (kind, saturate) in enumerate(cases):
        expected = [ref_encode(float(v), kind, saturate) for v in values]
        bad = [(float(v), int(g), e) for v, g, e in zip(values, out[row], expected) if g != e]
        assert bad == [], (kind, saturate)
    for row, (saturate, mode) in zip((4, 5, 6), ((False, 0), (True, 1), (False, 2))):
        expected = [ref_e8m0(float(v), saturate, mode) for v in values]
        bad = [(float(v), int(g), e) for v, g, e in zip(values, out[row], expected) if g != e]
        assert bad == [], (saturate, mode)


@njit
def _construct(values, out):
    for i in range(values.size):
        out[0, i] = np.float32(fp8_e4m3(values[i]))
        out[1, i] = np.float32(fp8_e5m2(values[i]))
        out[2, i] = np.float32(fp8_e8m0(values[i]))
        out[3, i] = np.float32(fp8_e5m2(np.float64(values[i])))


def test_constructors_saturate_and_decode_exactly():
    values = samples(2, 500)
    out = np.zeros((4, values.size), np.float32)
    _construct(values, out)
    for row, kind in enumerate(["e4m3", "e5m2"]):
        expected = [ref_decode(ref_encode(float(v), kind, True), kind) for v in values]
        np.testing.assert_array_equal(out[row], np.array(expected, np.float32))
    expected = [ref_decode(ref_e8m0(float(v), True, 2), "e8m0") for v in values]
    np.testing.assert_array_equal(out[2], np.array(expected, np.float32))
    np.testing.assert_array_equal(out[3], out[1])


def test_every_code_decodes():
    # decoding is checked through round trips: a decoded value constructs its own code back
    codes = np.arange(256, dtype=np.uint8)
    values = {kind: [ref_decode(int(c), kind) for c in codes] for kind in ("e4m3", "e5m2")}
    out = np.zeros((2, 256), np.float64)

    @njit
    def decode_all(values4, values5, out):
        for i in range(values4.size):
            out[0, i] = np.float32(fp8_e4m3(values4[i]))
            out[1, i] = np.float64(fp8_e5m2(values5[i]))

    decode_all(np.array(values["e4m3"], np.float32), np.array(values["e5m2"], np.float32), out)
    for row, kind in enumerate(["e4m3", "e5m2"]):
        finite = [v if not math.isinf(v) else math.copysign(57344.0, v) for v in values[kind]]
        np.testing.assert_array_equal(out[row], np.array(finite))


@njit
def _casts(out, ints):
    x = fp8_e4m3(np.float32(-6.5))
    out[0] = np.float32(types.float16(x))
    out[1] = types.float64(x)
    out[2] = np.float32(bf16.bfloat16(x))
    out[3] = np.float32(fp8_e8m0(np.float32(np.nan)))
    ints[0] = types.int8(x)
    ints[1] = types.int64(fp8_e5m2(np.float32(-8.0)))
    ints[2] = types.uint8(fp8_e8m0(np.float32(16.0)))
    ints[3] = types.uint64(fp8_e4m3(np.float32(-3.0)))  # saturates at 0
    ints[4] = types.int64(fp8_e8m0(np.float32(0.0)))  # 2**-127 truncates to 0


def test_casts_to_numbers():
    out = np.zeros(4, np.float32)
    ints = np.zeros(5, np.int64)
    _casts(out, ints)
    assert list(out[:3]) == [-6.5, -6.5, -6.5] and math.isnan(out[3])
    assert list(ints) == [-6, -8, 16, 0, 0]


def test_bfloat16_raw_conversions():
    @njit
    def run(codes, out):
        for i in range(codes.size):
            raw = cvt_e8m0_to_bf16raw(codes[i])
            out[0, i] = raw.x
            out[1, i] = cvt_bfloat16raw_to_e8m0(raw, saturation_t.NOSAT, 1)
            out[2, i] = cvt_bfloat16raw_to_fp8(raw, saturation_t.NOSAT, fp8_interpretation_t.E5M2)

    codes = np.arange(256, dtype=np.uint8)
    out = np.zeros((3, 256), np.int64)
    run(codes, out)
    for code in range(255):
        value = math.ldexp(1.0, code - 127)
        assert out[0, code] == struct.unpack("<I", struct.pack("<f", value))[0] >> 16
        assert out[1, code] == code
        assert out[2, code] == ref_encode(value, "e5m2", False)
    assert out[0, 255] == 0x7FFF and out[1, 255] == 0xFF and out[2, 255] == 0x7F


@pytest.mark.parametrize("kind", [fp8_e5m2, fp8_e4m3, fp8_e8m0])
def test_values_exist_only_in_compiled_code(kind):
    with pytest.raises(TypeError, match="compiled code"):
        kind(1.0)


def _kernel(result, codes, x):
    result[0] = types.float32(fp8_e5m2(types.float16(1.0)))
    result[1] = types.float32(fp8_e4m3(bf16.bfloat16(2.0)))
    result[2] = types.float32(fp8_e8m0(types.uint64(4)))
    result[3] = types.float32(types.float64(fp8_e4m3(x[0])))
    codes[0] = cvt_float_to_fp8(x[0], saturation_t.NOSAT, fp8_interpretation_t.E5M2)
    codes[1] = cvt_double_to_e8m0(types.float64(x[0]), saturation_t.SATFINITE, 2)
    codes[2] = cvt_e8m0_to_bf16raw(codes[1]).x


@needs_ptxas
def test_kernel_assembles_for_sm_90(tmp_path):
    signature = (types.float32[:], types.uint16[:], types.float32[:])
    ptx, _ = cuda.compile_ptx(_kernel, signature, cc=(9, 0))
    ptxas(ptx, tmp_path)
    result = np.zeros(4, np.float32)
    codes = np.zeros(3, np.uint16)
    njit(_kernel)(result, codes, np.array([1e20], np.float32))
    assert list(result) == [1.0, 2.0, 4.0, 448.0]
    assert list(codes) == [0x7C, 194, 194 << 7]  # 1e20 is between 2**66 and 2**67
