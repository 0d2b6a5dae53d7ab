"""Single-precision exp (math.exp and np.exp on float32) gives exactly the bits of the system
libm's ``expf``, called through ctypes. Where the host's expf is glibc's FMA variant, taipan
gives the loop vectoriser that algorithm on vectors as the call's vector variant
(src/core/cpu/GlibcExpf.cpp, cpu/ExactVectorVariants.cpp) so loops vectorise, while scalar calls
stay libm's; these tests hold on every host, and check the vectorisation where the CPU has FMA
and AVX2. fastmath=True keeps libmvec's approximate SIMD expf; float64 exp is test_exp64.py's.

The comparison over all 2^32 float32 bit patterns runs with TAIPAN_SLOW_TESTS=1 (a minute or
two)."""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import os
import re

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import _core, njit, vectorize

libm = ctypes.CDLL(ctypes.util.find_library("m"))
c_expf = libm.expf
c_expf.argtypes = [ctypes.c_float]
c_expf.restype = ctypes.c_float


def bits(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def from_bits(pattern: int) -> np.float32:
    return np.uint32(pattern).view(np.float32)


HOST_FEATURES = _core.system_info()["cpu_features"].split(",")
# Where taipan inlines expf: a CPU with FMA and AVX2 whose libm expf is glibc's FMA variant
# (0x4202422f is one of the two inputs where it differs from glibc's build without FMA, which
# GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA selects).
INLINES_EXPF = (
    "+fma" in HOST_FEATURES
    and "+avx2" in HOST_FEATURES
    and bits(c_expf(from_bits(0x4202422F))) == 0x56FC9F1C
)


# Every special case and boundary of glibc's expf, as bit patterns: zeros, infinities, NaNs
# (quiet, signalling, negative), 88.0 (where the special path starts), the overflow bound
# 0x1.62e42ep6 and its neighbours, the underflow bound -0x1.9fe368p6 and its neighbours,
# results that are subnormal (x in -103.97..-87.34), the largest and smallest floats, subnormal
# inputs, and the inputs where glibc's FMA variant differs from its build without FMA.
SPECIAL_BITS = [
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
    0x7FA00000, 0x42B00000, 0xC2B00000, 0x42B0FFFF, 0x42B17217, 0x42B17218, 0x42B17219,
    0xC2CFF1B4, 0xC2CFF1B5, 0xC2CFF1B6, 0xC2CE8ED0, 0xC2CE8ECF, 0xC2AEAC50, 0xC2AEAC4F,
    0xC2C00000, 0xC2CA0000, 0x7F7FFFFF, 0xFF7FFFFF, 0x00000001, 0x80000001, 0x007FFFFF,
    0x00800000, 0x33800000, 0xB3800000, 0x3F800000, 0xBF800000, 0x4202422F, 0xC27C65D9,
]  # fmt: skip


def libm_expf(values: np.ndarray) -> np.ndarray:
    return np.array([c_expf(float(v)) for v in values], dtype=np.float32)


@njit
def libm_expf_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = c_expf(x[i])


def dense_sample() -> np.ndarray:
    """The special values, every float32 in [-104, 89] at a stride, and random bit patterns."""
    lo, hi = bits(-104.0), bits(89.0)
    positive = np.arange(0, hi, 997, dtype=np.uint32)
    negative = np.arange(0x80000000, lo, 1009, dtype=np.uint32)
    rng = np.random.default_rng(11)
    patterns = np.concatenate(
        [
            np.array(SPECIAL_BITS, dtype=np.uint32),
            positive,
            negative,
            rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32),
        ]
    )
    return patterns.view(np.float32)


def assert_bits_equal(actual: np.ndarray, expected: np.ndarray, inputs: np.ndarray) -> None:
    """Equal bit patterns, except that any NaN matches any NaN (payloads may differ)."""
    a, e = actual.view(np.uint32), expected.view(np.uint32)
    differ = (a != e) & ~(np.isnan(actual) & np.isnan(expected))
    where = np.flatnonzero(differ)
    assert where.size == 0, [
        (hex(int(inputs.view(np.uint32)[i])), float(actual[i]), float(expected[i]))
        for i in where[:5]
    ]


@njit
def math_exp_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = math.exp(x[i])


@njit
def np_exp_array(x):
    return np.exp(x)


@njit
def math_exp_scalar(x):
    return math.exp(x)


@vectorize(["float32(float32)"])
def exp_ufunc(x):
    return math.exp(x)


@pytest.fixture(scope="module")
def sample():
    x = dense_sample()
    expected = np.empty_like(x)
    libm_expf_loop(x, expected)
    # The compiled reference goes through ctypes' function pointer: checked against Python's.
    assert_bits_equal(expected[:5000], libm_expf(x[:5000]), x[:5000])
    return x, expected


def test_math_exp_loop_gives_libm_expf_bits(sample):
    x, expected = sample
    out = np.empty_like(x)
    with no_allocation_leak():
        math_exp_loop(x, out)
    assert_bits_equal(out, expected, x)


def test_np_exp_of_float32_array_gives_libm_expf_bits(sample):
    x, expected = sample
    with no_allocation_leak():
        out = np_exp_array(x)
        assert out.dtype == np.float32
        assert_bits_equal(out, expected, x)
        del out


def test_vectorize_float32_exp_gives_libm_expf_bits(sample):
    x, expected = sample
    with np.errstate(all="ignore"):  # libm raises overflow and invalid (signalling NaNs) too
        assert_bits_equal(exp_ufunc(x), expected, x)


def test_scalar_call_agrees_with_vectorised_loop():
    x = np.array(SPECIAL_BITS, dtype=np.uint32).view(np.float32)
    looped = np.empty_like(x)
    math_exp_loop(x, looped)
    scalar = np.array([math_exp_scalar(v) for v in x], dtype=np.float32)
    assert_bits_equal(looped, scalar, x)
    assert_bits_equal(scalar, libm_expf(x), x)


def test_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 88.72283, 88.72284, -103.97208, -104.0])
    out = np.empty(x.shape, np.float32)
    math_exp_loop(x.astype(np.float32), out)
    assert out[0] == 1.0 and out[1] == 1.0
    assert out[2] == np.inf and out[3] == 0.0 and not np.signbit(out[3])
    assert np.isnan(out[4])
    assert np.isfinite(out[5]) and out[6] == np.inf
    assert out[7] == np.float32(2.0**-149) and out[8] == 0.0


VECTOR_FMA = re.compile(r"vfmadd\d+pd\s+%ymm")


def assert_vectorised_exactly(asm: str) -> None:
    """The loop runs glibc's algorithm on vectors, inlined (no call of a variant is left)."""
    assert VECTOR_FMA.search(asm), "no vector FMA: the loop did not vectorise"
    assert "taipan_exact" not in asm, "a vector variant of expf was called, not inlined"


def test_float32_exp_loop_vectorises():
    if not INLINES_EXPF:
        pytest.skip("the host's expf is not glibc's FMA variant: it stays a libm call")
    x = np.ones(64, np.float32)
    math_exp_loop(x, np.empty_like(x))
    assert_vectorised_exactly(math_exp_loop.inspect_asm(math_exp_loop.signatures[0]))


STEP = np.float32(1e-3)


@njit
def expf_chain(n, start):
    acc = start
    for _ in range(n):
        acc = math.exp(-acc) + STEP
    return acc


@njit
def libm_expf_chain(n, start):
    acc = start
    for _ in range(n):
        acc = c_expf(-acc) + STEP
    return acc


def test_loop_that_does_not_vectorise_calls_libm():
    """glibc's scalar code, with its predicted branches, is faster there than the variant."""
    start = np.float32(0.5)
    assert bits(expf_chain(100_000, start)) == bits(libm_expf_chain(100_000, start))
    asm = expf_chain.inspect_asm(expf_chain.signatures[0])
    assert re.search(r"\bexpf\b", asm), "expf is not a libm call"
    assert "glibc_expf.table" not in asm and not VECTOR_FMA.search(asm)


@njit
def capped_exp_loop(x, out):
    for i in range(x.shape[0]):
        if x[i] < np.float32(80.0):
            out[i] = math.exp(x[i])


@njit
def capped_libm_expf_loop(x, out):
    for i in range(x.shape[0]):
        if x[i] < np.float32(80.0):
            out[i] = c_expf(x[i])


def test_conditional_exp_vectorises_with_libm_bits(sample):
    """A conditional call runs the masked variant (lanes where the condition is false compute
    expf(0), raising nothing: test_exp64.py checks the flags)."""
    x, _ = sample
    out, expected = np.zeros_like(x), np.zeros_like(x)
    capped_exp_loop(x, out)
    capped_libm_expf_loop(x, expected)
    assert_bits_equal(out, expected, x)
    if INLINES_EXPF:
        assert_vectorised_exactly(capped_exp_loop.inspect_asm(capped_exp_loop.signatures[0]))


def test_float64_exp_is_not_expf():
    """float64 exp keeps its own precision (test_exp64.py checks its bits)."""
    x = np.linspace(-700.0, 700.0, 20001)
    out = np.empty_like(x)
    math_exp_loop(x, out)
    assert [bits64 for bits64 in out.view(np.uint64)] == [
        np.float64(math.exp(v)).view(np.uint64) for v in x
    ]
    asm = math_exp_loop.inspect_asm(math_exp_loop.signatures[-1])
    assert "glibc_expf" not in asm and not re.search(r"\bexpf\b", asm)


def test_fastmath_float32_exp_stays_close():
    @njit(fastmath=True)
    def fast_exp_loop(x, out):
        for i in range(x.shape[0]):
            out[i] = math.exp(x[i])

    x = np.linspace(-100.0, 88.0, 100_003).astype(np.float32)
    out = np.empty_like(x)
    fast_exp_loop(x, out)
    np.testing.assert_allclose(out, libm_expf(x), rtol=4e-7, atol=0)


@vectorize(["float32(float32)"])
def libm_expf_ufunc(x):
    return c_expf(x)


@pytest.mark.parametrize(
    "value", [np.inf, -np.inf, np.nan, -np.nan, 100.0, 88.8, -104.0, -1e30, -3e38, 3e38, -95.0, 1.0]
)
def test_floating_point_exceptions_match_libm(value):
    """NumPy's ufunc loops report the flags the loop raised: the same warnings as libm's."""
    x = np.full(17, value, np.float32)  # a vector body and a remainder

    def flags(ufunc):
        raised = []
        for kind in ("over", "under", "invalid", "divide"):
            with np.errstate(all="ignore", **{kind: "raise"}):
                try:
                    ufunc(x)
                except FloatingPointError:
                    raised.append(kind)
        return raised

    assert flags(exp_ufunc) == flags(libm_expf_ufunc)


def test_signalling_nan_raises_invalid_as_libm_does():
    x = np.full(9, from_bits(0x7FA00000))
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        libm_expf_ufunc(x)
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        exp_ufunc(x)


@pytest.mark.skipif(
    not os.environ.get("TAIPAN_SLOW_TESTS"), reason="all 2^32 inputs: set TAIPAN_SLOW_TESTS=1"
)
def test_every_float32_gives_libm_expf_bits():
    chunk = 1 << 24
    out, expected = np.empty(chunk, np.float32), np.empty(chunk, np.float32)
    for start in range(0, 1 << 32, chunk):
        x = np.arange(start, start + chunk, dtype=np.uint64).astype(np.uint32).view(np.float32)
        math_exp_loop(x, out)
        libm_expf_loop(x, expected)
        assert_bits_equal(out, expected, x)
