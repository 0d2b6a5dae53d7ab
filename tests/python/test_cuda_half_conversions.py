"""float16 in kernels as numba-cuda compiles it: a float16 converted to an integer rounds to the
nearest (PTX's ``cvt.rni``; NumPy and the CPU truncate), and a float16 compared with a byte
compares in float16 with the operands as written (``a > b`` is ``setp.gt.f16 a, b``). Checked
by the PTX (ptxas assembles it for sm_90) and, on a GPU, by running it."""

import operator
import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float16, int8, njit, types, uint8, void

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

INTEGERS = [
    (np.int8, "s8"),
    (np.int16, "s16"),
    (np.int32, "s32"),
    (np.int64, "s64"),
    (np.uint8, "u8"),
    (np.uint16, "u16"),
    (np.uint32, "u32"),
    (np.uint64, "u64"),
]


def converter(integer):
    def convert(x):
        return integer(x)

    return convert


@needs_ptxas
@pytest.mark.parametrize("integer, suffix", INTEGERS, ids=[s for _, s in INTEGERS])
def test_a_float16_converts_to_an_integer_rounding_to_nearest(integer, suffix, tmp_path):
    ptx, _ = cuda.compile_ptx(converter(integer), (float16,), device=True)
    ptxas(ptx, tmp_path)
    assert f"cvt.rni.{suffix}.f16" in ptx


@needs_ptxas
def test_python_s_int_of_a_float16_rounds_in_a_kernel_too(tmp_path):
    def kernel(out, x):
        out[0] = int(x)

    ptx, _ = cuda.compile_ptx(kernel, void(types.int64[:], float16))
    ptxas(ptx, tmp_path)
    assert "cvt.rni.s64.f16" in ptx


@needs_ptxas
@pytest.mark.parametrize("source", [types.float32, types.float64])
def test_wider_floats_still_truncate(source, tmp_path):
    ptx, _ = cuda.compile_ptx(converter(np.int32), (source,), device=True)
    ptxas(ptx, tmp_path)
    assert "cvt.rzi.s32" in ptx and "cvt.rni" not in ptx


def test_the_cpu_keeps_numpy_s_truncation():
    convert = njit(converter(np.int8))
    for value in (12.7, -12.7, 0.5, 1.5, -2.5):
        half = np.float16(value)
        assert convert(half) == np.int8(half) == int(half)


@needs_gpu
def test_the_gpu_rounds_to_nearest_even():
    @cuda.jit
    def kernel(out, values):
        for i in range(values.size):
            out[i] = np.int32(values[i])

    values = np.array([12.3, 12.7, -12.7, 0.5, 1.5, 2.5, -2.5, 100.0], np.float16)
    out = np.zeros(values.size, np.int32)
    kernel[1, 1](out, values)
    np.testing.assert_array_equal(out, np.rint(values.astype(np.float64)).astype(np.int32))


OPERATORS = {
    "gt": operator.gt,
    "ge": operator.ge,
    "lt": operator.lt,
    "le": operator.le,
    "eq": operator.eq,
    "ne": operator.ne,
}
INSTRUCTIONS = {"gt": "gt", "ge": "ge", "lt": "lt", "le": "le", "eq": "eq", "ne": "neu"}


def comparer(name):
    compare = OPERATORS[name]

    def kernel(out, a, b):
        out[0] = compare(a, b)

    return kernel


@needs_ptxas
@pytest.mark.parametrize("name", OPERATORS)
@pytest.mark.parametrize("other", [int8, uint8])
def test_a_float16_compares_with_a_byte_as_written(name, other, tmp_path):
    ptx, _ = cuda.compile_ptx(comparer(name), void(types.boolean[:], float16, other))
    ptxas(ptx, tmp_path)
    instructions = re.findall(r"setp\.(\w+)\.f16\s+%p\d+, (%rs\d+), (%rs\d+);", ptx)
    assert [i[0] for i in instructions] == [INSTRUCTIONS[name]], ptx
    # The byte (converted by cvt.rn.f16.s8/u8) is the second operand.
    converted = re.findall(r"cvt\.rn\.f16\.[su]8\s+(%rs\d+),", ptx)
    assert converted == [instructions[0][2]], ptx


@needs_ptxas
def test_a_byte_first_compares_with_the_byte_first(tmp_path):
    def kernel(out, a, b):
        out[0] = b > a

    ptx, _ = cuda.compile_ptx(kernel, void(types.boolean[:], float16, int8))
    ptxas(ptx, tmp_path)
    # `b > a` with the byte first: the byte stays first only if LLVM keeps it there; either
    # way the answer is `b > a` (setp.gt with b first, or setp.lt with it second).
    converted = re.findall(r"cvt\.rn\.f16\.s8\s+(%rs\d+),", ptx)[0]
    (op, first, second) = re.findall(r"setp\.(\w+)\.f16\s+%p\d+, (%rs\d+), (%rs\d+);", ptx)[0]
    assert (op, converted) in (("lt", second), ("gt", first)), ptx


@needs_gpu
@pytest.mark.parametrize("name", OPERATORS)
def test_the_comparisons_keep_numpy_s_answers_on_the_gpu(name):
    compare = OPERATORS[name]
    kernel = cuda.jit(comparer(name))
    halves = np.array([-np.inf, -300.0, -128.5, -1.0, 0.5, 1.0, 127.0, np.nan], np.float16)
    out = np.zeros(1, np.bool_)
    for a in halves:
        for b in np.array([-128, -1, 0, 1, 127], np.int8):
            kernel[1, 1](out, a, b)
            assert out[0] == bool(compare(a, b)), (name, a, b)
