"""Double-precision exp (math.exp and np.exp on float64) gives exactly the bits of the system
libm's ``exp``, called through ctypes. Where the host's exp is glibc's FMA variant, taipan gives
the loop vectoriser that algorithm on vectors as the call's vector variant
(src/core/cpu/GlibcExp.cpp, cpu/ExactVectorVariants.cpp) so loops vectorise, while scalar calls
stay libm's; these tests hold on every host, and check the vectorisation where the CPU has FMA
and AVX2. fastmath=True keeps libmvec's approximate SIMD exp.

A larger random comparison (10^8 inputs) runs with TAIPAN_SLOW_TESTS=1."""

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
c_exp = libm.exp
c_exp.argtypes = [ctypes.c_double]
c_exp.restype = ctypes.c_double


def bits(x: float) -> int:
    return int(np.float64(x).view(np.uint64))


def from_bits(pattern: int) -> np.float64:
    return np.uint64(pattern).view(np.float64)


HOST_FEATURES = _core.system_info()["cpu_features"].split(",")
# Where taipan inlines exp: a CPU with FMA and AVX2 whose libm exp is glibc's FMA variant
# (0x4061aab60f47a2ec is an input where it differs from glibc's builds without FMA, which
# GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA selects).
INLINES_EXP = (
    "+fma" in HOST_FEATURES
    and "+avx2" in HOST_FEATURES
    and bits(c_exp(from_bits(0x4061AAB60F47A2EC))) == 0x4CADEAD0BA5ECD41
)

# Every special case and boundary of glibc's exp: zeros, infinities, NaNs (quiet, signalling,
# negative), |x| around 2^-54 (below: 1 + x), 512 and 1024 (glibc's special cases start), the
# overflow bound 709.78 (1024 ln 2), the smallest normal result (-708.40), the underflow to 0
# (-745.13) and half the smallest subnormal (-744.44), the largest and subnormal inputs, and
# inputs where glibc's FMA variant differs from its builds without FMA.
CENTRES = [
    0.0, 2.0**-54, -(2.0**-54), 512.0, -512.0, 1024.0, -1024.0, 709.782712893384,
    -708.3964185322641, -745.1332191019411, -744.4400719213812, 1.0, -1.0,
]  # fmt: skip
SPECIAL_BITS = [
    0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
    0x7FF0000000000001, 0x7FF4000000000000, 0xFFF4000000000000, 0x7FEFFFFFFFFFFFFF,
    0xFFEFFFFFFFFFFFFF, 0x0000000000000001, 0x8000000000000001, 0x000FFFFFFFFFFFFF,
    0x0010000000000000, 0x4061AAB60F47A2EC, 0xC06B7E7A01DF67E0, 0xC071BD891E11280B,
]  # fmt: skip


def libm_exp(values: np.ndarray) -> np.ndarray:
    return np.array([c_exp(float(v)) for v in values], dtype=np.float64)


@njit
def libm_exp_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = c_exp(x[i])


def dense_sample() -> np.ndarray:
    """The special values, 2000 consecutive doubles around each boundary, and random doubles:
    any bit pattern, uniform in [-746, 710] and in [-746, -708] (subnormal results)."""
    around = [
        np.arange(bits(c) - 1000, bits(c) + 1000, dtype=np.uint64) for c in CENTRES if c != 0.0
    ]
    rng = np.random.default_rng(11)
    return np.concatenate(
        [
            np.array(SPECIAL_BITS, dtype=np.uint64).view(np.float64),
            np.concatenate(around).view(np.float64),
            -np.concatenate(around).view(np.float64),
            np.arange(0, 2000, dtype=np.uint64).view(np.float64),
            rng.integers(0, 2**64, 200_000, dtype=np.uint64).view(np.float64),
            rng.uniform(-746.0, 710.0, 300_000),
            rng.uniform(-746.0, -708.0, 100_000),
        ]
    )


def assert_bits_equal(actual: np.ndarray, expected: np.ndarray, inputs: np.ndarray) -> None:
    """Equal bit patterns, except that any NaN matches any NaN (payloads may differ)."""
    a, e = actual.view(np.uint64), expected.view(np.uint64)
    differ = (a != e) & ~(np.isnan(actual) & np.isnan(expected))
    where = np.flatnonzero(differ)
    assert where.size == 0, [
        (hex(int(inputs.view(np.uint64)[i])), float(actual[i]), float(expected[i]))
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


@vectorize(["float64(float64)"])
def exp_ufunc(x):
    return math.exp(x)


@vectorize(["float64(float64)"])
def libm_exp_ufunc(x):
    return c_exp(x)


@pytest.fixture(scope="module")
def sample():
    x = dense_sample()
    expected = np.empty_like(x)
    libm_exp_loop(x, expected)
    # The compiled reference goes through ctypes' function pointer: checked against Python's.
    assert_bits_equal(expected[:5000], libm_exp(x[:5000]), x[:5000])
    return x, expected


def test_math_exp_loop_gives_libm_exp_bits(sample):
    x, expected = sample
    out = np.empty_like(x)
    with no_allocation_leak():
        math_exp_loop(x, out)
    assert_bits_equal(out, expected, x)


def test_np_exp_of_float64_array_gives_libm_exp_bits(sample):
    x, expected = sample
    with no_allocation_leak():
        out = np_exp_array(x)
        assert out.dtype == np.float64
        assert_bits_equal(out, expected, x)
        del out


def test_vectorize_float64_exp_gives_libm_exp_bits(sample):
    x, expected = sample
    with np.errstate(all="ignore"):  # libm raises overflow, underflow and invalid too
        assert_bits_equal(exp_ufunc(x), expected, x)


def test_scalar_call_agrees_with_vectorised_loop():
    x = np.concatenate([np.array(SPECIAL_BITS, np.uint64).view(np.float64), CENTRES])
    looped = np.empty_like(x)
    math_exp_loop(x, looped)
    scalar = np.array([math_exp_scalar(v) for v in x])
    assert_bits_equal(looped, scalar, x)
    assert_bits_equal(scalar, libm_exp(x), x)


def test_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 709.78, 709.79, -745.13, -745.14, 1e-300])
    out = np.empty_like(x)
    math_exp_loop(x, out)
    assert out[0] == 1.0 and out[1] == 1.0
    assert out[2] == np.inf and out[3] == 0.0 and not np.signbit(out[3])
    assert np.isnan(out[4])
    assert np.isfinite(out[5]) and out[6] == np.inf
    assert out[7] == 5e-324 and out[8] == 0.0 and not np.signbit(out[8])
    assert out[9] == 1.0


VECTOR_FMA = re.compile(r"vfmadd\d+pd\s[^\n]*%ymm")


def assert_vectorised_exactly(asm: str) -> None:
    """The loop runs glibc's algorithm on vectors, inlined (no call of a variant is left)."""
    assert VECTOR_FMA.search(asm), "no vector FMA: the loop did not vectorise"
    assert "taipan_exact" not in asm, "a vector variant of exp was called, not inlined"


def assert_calls_libm(asm: str) -> None:
    """A loop that does not vectorise calls libm's exp (glibc's scalar code, with its predicted
    branches, is faster there than the branch-free variant)."""
    assert re.search(r"\bexp\b", asm), "exp is not a libm call"
    assert "glibc_exp.table" not in asm and not VECTOR_FMA.search(asm)


def test_float64_exp_loop_vectorises():
    if not INLINES_EXP:
        pytest.skip("the host's exp is not glibc's FMA variant: it stays a libm call")
    x = np.ones(64)
    math_exp_loop(x, np.empty_like(x))
    assert_vectorised_exactly(math_exp_loop.inspect_asm(math_exp_loop.signatures[0]))


@njit
def exp_chain(n, start):
    acc = start
    for _ in range(n):
        acc = math.exp(-acc) + 1e-3
    return acc


@njit
def exp_sum_until(x, limit):
    total = 0.0
    for i in range(x.shape[0]):
        total += math.exp(x[i])
        if total > limit:
            break
    return total


def test_loops_that_do_not_vectorise_call_libm():
    x = np.random.default_rng(5).uniform(-700.0, 20.0, 100_001)
    with no_allocation_leak():
        assert bits(exp_chain(100_000, 0.5)) == bits(exp_chain.py_func(100_000, 0.5))
        assert bits(exp_sum_until(x, 1e300)) == bits(exp_sum_until.py_func(x, 1e300))
        assert bits(exp_sum_until(x, 1e6)) == bits(exp_sum_until.py_func(x, 1e6))
    for function in (exp_chain, exp_sum_until):
        assert_calls_libm(function.inspect_asm(function.signatures[0]))


@njit
def capped_exp_loop(x, out):
    for i in range(x.shape[0]):
        if x[i] < 700.0:
            out[i] = math.exp(x[i])


@njit
def capped_libm_exp_loop(x, out):
    for i in range(x.shape[0]):
        if x[i] < 700.0:
            out[i] = c_exp(x[i])


@vectorize(["float64(float64)"])
def capped_exp_ufunc(x):
    if x < 700.0:
        return math.exp(x)
    return 0.0


@vectorize(["float64(float64)"])
def capped_libm_exp_ufunc(x):
    if x < 700.0:
        return c_exp(x)
    return 0.0


def test_conditional_exp_vectorises_with_libm_bits_and_flags(sample):
    """A conditional call runs the masked variant: lanes where the condition is false compute
    exp(0), so a skipped exp(800) raises no overflow."""
    x, _ = sample
    out, expected = np.zeros_like(x), np.zeros_like(x)
    with no_allocation_leak():
        capped_exp_loop(x, out)
    capped_libm_exp_loop(x, expected)
    assert_bits_equal(out, expected, x)
    # No NaN: x86's vector compare (vcmpltpd) raises invalid for a quiet NaN where the scalar
    # one (ucomisd) does not, in any vectorised loop that compares.
    kinds = [1.0, 800.0, -720.0, 600.0, 2000.0, -2000.0, np.inf, -np.inf, -600.0, 1e-300]
    rng = np.random.default_rng(4)
    for size in (4, 8, 64):
        for _ in range(30):
            lanes = rng.choice(kinds, size)
            assert raised_flags(capped_exp_ufunc, lanes) == raised_flags(
                capped_libm_exp_ufunc, lanes
            ), lanes
    if INLINES_EXP:
        assert_vectorised_exactly(capped_exp_loop.inspect_asm(capped_exp_loop.signatures[0]))


@njit
def exp_of_float32_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = math.exp(np.float64(x[i]))


@njit
def libm_exp_of_float32_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = c_exp(np.float64(x[i]))


def test_exp_of_float32_inputs_gives_libm_bits():
    """Loads of float32 make the vectoriser pick the 8-lane variant (two vectors of doubles)."""
    rng = np.random.default_rng(32)
    x = np.concatenate(
        [
            rng.integers(0, 2**32, 1_000_000, dtype=np.uint64).astype(np.uint32).view(np.float32),
            rng.uniform(-746.0, 710.0, 1_000_000).astype(np.float32),
            np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45], np.float32),
        ]
    )
    out, expected = np.empty(x.shape), np.empty(x.shape)
    exp_of_float32_loop(x, out)
    libm_exp_of_float32_loop(x, expected)
    with np.errstate(invalid="ignore"):  # signalling NaNs among the random patterns
        assert_bits_equal(out, expected, x.astype(np.float64))
    if INLINES_EXP:
        ir = exp_of_float32_loop.inspect_llvm(exp_of_float32_loop.signatures[0])
        assert "load <8 x float>" in ir, "the 8-lane variant was not used"
        assert_vectorised_exactly(
            exp_of_float32_loop.inspect_asm(exp_of_float32_loop.signatures[0])
        )


SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@njit
def gaussian_pdf_loop(x, mean, sigma, out):
    # benchmarks/bench_ufuncs.py's gaussian pdf (issue 11): float64 arithmetic and exp.
    for i in range(x.shape[0]):
        out[i] = math.exp(-0.5 * ((x[i] - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@njit
def gaussian_pdf_libm_loop(x, mean, sigma, out):
    for i in range(x.shape[0]):
        out[i] = c_exp(-0.5 * ((x[i] - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@vectorize(["float32(float32, float32, float32)"])
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


def test_gaussian_pdf_vectorises_and_gives_libm_bits():
    x = np.random.default_rng(0).uniform(-40, 40, size=100_003).astype(np.float32)
    mean, sigma = np.float32(0.5), np.float32(1.5)
    out, expected = np.empty_like(x), np.empty_like(x)
    gaussian_pdf_loop(x, mean, sigma, out)
    gaussian_pdf_libm_loop(x, mean, sigma, expected)
    assert_bits_equal(out.astype(np.float64), expected.astype(np.float64), x)
    assert_bits_equal(gaussian_pdf(x, mean, sigma).astype(np.float64), out.astype(np.float64), x)
    if not INLINES_EXP:
        pytest.skip("the host's exp is not glibc's FMA variant: it stays a libm call")
    assert_vectorised_exactly(gaussian_pdf_loop.inspect_asm(gaussian_pdf_loop.signatures[0]))


def test_fastmath_float64_exp_stays_close():
    @njit(fastmath=True)
    def fast_exp_loop(x, out):
        for i in range(x.shape[0]):
            out[i] = math.exp(x[i])

    x = np.linspace(-700.0, 700.0, 100_003)
    out = np.empty_like(x)
    fast_exp_loop(x, out)
    np.testing.assert_allclose(out, libm_exp(x), rtol=1e-15, atol=0)
    asm = fast_exp_loop.inspect_asm(fast_exp_loop.signatures[0])
    assert "glibc_exp" not in asm and "taipan_exact" not in asm


def raised_flags(ufunc, x):
    """The floating-point exceptions NumPy's ufunc loop reports for `x`."""
    raised = []
    for kind in ("over", "under", "invalid", "divide"):
        with np.errstate(all="ignore", **{kind: "raise"}):
            try:
                ufunc(x)
            except FloatingPointError:
                raised.append(kind)
    return raised


@pytest.mark.parametrize(
    "value",
    [
        np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 1e-300, -1e-300, 5e-324, 1.0, -1.0, 500.0,
        -500.0, 600.0, -600.0, 709.78, 709.79, 1000.0, 1e300, -708.3, -708.5, -720.0, -745.0,
        -745.2, -1000.0, -1e300, 2000.0, -2000.0,
    ],
)  # fmt: skip
def test_floating_point_exceptions_match_libm(value):
    """NumPy's ufunc loops report the flags the loop raised: the same warnings as libm's."""
    x = np.full(17, value)  # a vector body and a remainder
    assert raised_flags(exp_ufunc, x) == raised_flags(libm_exp_ufunc, x)


def test_floating_point_exceptions_of_mixed_lanes_match_libm():
    """Lanes of every kind side by side: no lane raises for its neighbours."""
    kinds = [1.0, -720.0, 600.0, np.nan, 0.0, -600.0, 1e-300, -2000.0, 2000.0, np.inf, -500.0]
    rng = np.random.default_rng(3)
    for size in (4, 8, 64):
        for _ in range(50):
            x = rng.choice(kinds, size)
            assert raised_flags(exp_ufunc, x) == raised_flags(libm_exp_ufunc, x), x


def test_signalling_nan_raises_invalid_as_libm_does():
    x = np.full(9, from_bits(0x7FF4000000000000))
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        libm_exp_ufunc(x)
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        exp_ufunc(x)


@pytest.mark.skipif(
    not os.environ.get("TAIPAN_SLOW_TESTS"), reason="10^8 random inputs: set TAIPAN_SLOW_TESTS=1"
)
def test_many_random_doubles_give_libm_exp_bits():
    rng = np.random.default_rng(64)
    chunk = 1 << 22
    out, expected = np.empty(chunk), np.empty(chunk)
    for i in range(24):
        if i % 2:
            x = rng.integers(0, 2**64, chunk, dtype=np.uint64).view(np.float64)
        else:
            x = rng.uniform(-746.0, 710.0, chunk)
        math_exp_loop(x, out)
        libm_exp_loop(x, expected)
        assert_bits_equal(out, expected, x)
