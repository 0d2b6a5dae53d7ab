"""Math in kernels as numba-cuda emits it, with Python's results kept:

* ``min``/``max`` of floats take PTX's ``min``/``max`` instruction under Python's strict
  comparison (the first of equal values, a NaN first argument kept);
* ``math.remainder`` (libm's ``remainder`` on the CPU, libdevice's on the GPU);
* libdevice's float32 ``hypotf`` (and the other users of ``__CUDA_PREC_SQRT``) rounds its
  square root (``sqrt.rn.f32``) unless fastmath asks for the approximation;
* ``math.tanh`` of a float32 with fastmath is ``tanh.approx.f32`` (an instruction LLVM 19 does
  not know as an intrinsic);
* read-only global arrays and ``cuda.const.array_like`` live in constant memory (``ld.const``)
  up to the 64 KiB a module has there, and address spaces are inferred before alignment, so a
  complex64 loads as one pair (``ld.const.v2.f32``).

Without a GPU: the PTX and ptxas; launches are marked by ``needs_gpu``."""

import math

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

FLOATS = {"f4": "float32", "f8": "float64"}


def builtin_max(a, b, c):
    i = cuda.grid(1)
    if i < len(c):
        c[i] = max(a[i], b[i])


def builtin_min(a, b, c):
    i = cuda.grid(1)
    if i < len(c):
        c[i] = min(a[i], b[i])


def min_of_three(a, b, c):
    i = cuda.grid(1)
    if i < len(c):
        c[i] = min(a[i], b[i], a[i] * 2.0)


@needs_ptxas
@pytest.mark.parametrize("kernel, name", [(builtin_max, "max"), (builtin_min, "min")])
@pytest.mark.parametrize("left, right", [("f4", "f4"), ("f4", "f8"), ("f8", "f4"), ("f8", "f8")])
def test_min_and_max_of_floats_use_the_instruction(kernel, name, left, right, tmp_path):
    result = "float32" if left == right == "f4" else "float64"
    signature = f"void({FLOATS[left]}[::1], {FLOATS[right]}[::1], {result}[::1])"
    ptx, _ = cuda.compile_ptx(kernel, signature)
    assert f"{name}.f{result[-2:]}" in ptx
    # the strict comparison that keeps Python's choice among NaNs and equal values
    assert "setp." in ptx and "selp." in ptx
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_min_of_integers_and_of_three_floats(tmp_path):
    ptx, _ = cuda.compile_ptx(builtin_min, "void(int64[::1], int64[::1], int64[::1])")
    assert "min.s64" in ptx
    ptxas(ptx, tmp_path)
    ptx, _ = cuda.compile_ptx(min_of_three, "void(float64[::1], float64[::1], float64[::1])")
    assert ptx.count("min.f64") == 2
    ptxas(ptx, tmp_path)


def test_min_and_max_on_the_cpu_keep_python_order():
    @taipan.njit
    def extremes(a, b):
        return max(a, b), min(a, b)

    for a, b in [(math.nan, 1.0), (1.0, math.nan), (0.0, -0.0), (-0.0, 0.0), (2.0, 3.0)]:
        got = extremes(a, b)
        want = (max(a, b), min(a, b))
        for g, w in zip(got, want):
            assert (math.isnan(g) and math.isnan(w)) or (
                g == w and math.copysign(1, g) == math.copysign(1, w)
            )


REMAINDER_ARGUMENTS = [(5.0, 3.0), (-5.5, 2.0), (2.5, 1.0), (3.5, 1.0), (-0.0, 1.0), (0.0, -2.0)]
REMAINDER_ARGUMENTS += [(1e300, 3.0), (3.0, math.inf), (1e-310, 3e-310), (7.25, -0.5)]


def test_remainder_matches_cpython():
    remainder = taipan.njit(lambda x, y: math.remainder(x, y))
    for x, y in REMAINDER_ARGUMENTS:
        got, want = remainder(x, y), math.remainder(x, y)
        assert got == want and math.copysign(1, got) == math.copysign(1, want), (x, y)
    assert remainder(7, 2) == math.remainder(7, 2)
    # CPython's domain errors are NaN, as math.fmod's are in compiled code
    assert math.isnan(remainder(1.0, 0.0)) and math.isnan(remainder(math.inf, 1.0))
    single = remainder(np.float32(5.5), np.float32(2.0))
    assert single == np.float32(-0.5)


def remainder_kernel(a, b, c):
    i = cuda.grid(1)
    if i < len(c):
        c[i] = math.remainder(a[i], b[i])


@needs_ptxas
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_remainder_kernels_assemble(dtype, tmp_path):
    ptx, _ = cuda.compile_ptx(remainder_kernel, f"void({dtype}[::1], {dtype}[::1], {dtype}[::1])")
    ptxas(ptx, tmp_path)


def hypot_kernel(a, b, c):
    i = cuda.grid(1)
    if i < len(c):
        c[i] = math.hypot(a[i], b[i])


def tanh_kernel(r, x):
    r[0] = math.tanh(x)


@needs_ptxas
def test_float32_hypot_rounds_its_square_root(tmp_path):
    signature = "void(float32[::1], float32[::1], float32[::1])"
    precise, _ = cuda.compile_ptx(hypot_kernel, signature)
    assert "sqrt.rn.f32" in precise and "sqrt.approx" not in precise
    ptxas(precise, tmp_path)
    fast, _ = cuda.compile_ptx(hypot_kernel, signature, fastmath=True)
    assert "sqrt.approx" in fast
    ptxas(fast, tmp_path)


@needs_ptxas
def test_tanh_with_fastmath_is_the_approximation(tmp_path):
    fast, _ = cuda.compile_ptx(tanh_kernel, "void(float32[::1], float32)", fastmath=True)
    precise, _ = cuda.compile_ptx(tanh_kernel, "void(float32[::1], float32)")
    assert "tanh.approx.f32 " in fast and "tanh.approx.f32 " not in precise
    assert "llvm.nvvm" not in fast
    ptxas(fast, tmp_path)
    ptxas(precise, tmp_path)


SMALL = np.arange(10, dtype=np.float64) / 2.0
TABLE = np.asfortranarray(np.arange(100, dtype=np.int32).reshape(10, 10))
LARGE = np.arange(20000, dtype=np.float64)  # 160 KB: more than constant memory holds


def const_kernel(out):
    c = cuda.const.array_like(SMALL)
    i = cuda.grid(1)
    if i < len(out):
        out[i] = c[i] + 1.0


def global_table_kernel(out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = TABLE[i, j]


def large_kernel(out):
    i = cuda.grid(1)
    if i < len(out):
        out[i] = LARGE[i] + SMALL[i % 10]


@needs_ptxas
def test_constant_arrays_live_in_constant_memory(tmp_path):
    ptx, _ = cuda.compile_ptx(const_kernel, "void(float64[::1])")
    assert "ld.const.f64" in ptx and ".const .align 64 .b8 taipan_constant_array" in ptx
    ptxas(ptx, tmp_path)
    ptx, _ = cuda.compile_ptx(global_table_kernel, "void(int32[:, :])")
    assert "ld.const.u32" in ptx
    ptxas(ptx, tmp_path)


CUBE = (np.arange(5 * 5 * 5, dtype=np.complex64).reshape(5, 5, 5) + 1j) / 2j


def cube_kernel(out):
    c = cuda.const.array_like(CUBE)
    i, j, k = cuda.threadIdx.x, cuda.threadIdx.y, cuda.threadIdx.z
    out[i, j, k] = c[i, j, k]


@needs_ptxas
def test_a_complex64_constant_loads_as_one_pair(tmp_path):
    """Address spaces are inferred before alignment is: both floats of a complex64 at a
    multiple of 8 bytes from the constant's 64-aligned start load at once."""
    ptx, _ = cuda.compile_ptx(cube_kernel, "void(complex64[:, :, :])")
    assert "ld.const.v2.f32" in ptx
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_an_array_beyond_constant_memory_stays_global(tmp_path):
    ptx, _ = cuda.compile_ptx(large_kernel, "void(float64[::1])")
    assert "ld.const.f64" in ptx  # SMALL fits
    assert "ld.global.nc.f64" in ptx  # LARGE does not
    ptxas(ptx, tmp_path)


@needs_gpu
def test_min_max_kernels_follow_python():
    a = np.array([math.nan, 1.0, 0.0, -0.0, 2.0, 3.0])
    b = np.array([1.0, math.nan, -0.0, 0.0, 3.0, 2.0])
    for kernel, function in [(builtin_max, max), (builtin_min, min)]:
        out = np.zeros_like(a)
        cuda.jit(kernel)[1, len(a)](a, b, out)
        for x, y, got in zip(a, b, out):
            want = function(x, y)
            assert (math.isnan(got) and math.isnan(want)) or (
                got == want and math.copysign(1, got) == math.copysign(1, want)
            )


@needs_gpu
def test_constant_array_kernels():
    out = np.zeros(10)
    cuda.jit(const_kernel)[1, 10](out)
    np.testing.assert_array_equal(out, SMALL + 1.0)
    table = np.zeros((10, 10), dtype=np.int32)
    cuda.jit(global_table_kernel)[(1, 1), (10, 10)](table)
    np.testing.assert_array_equal(table, TABLE)
    cube = np.zeros(CUBE.shape, dtype=np.complex64)
    cuda.jit(cube_kernel)[1, CUBE.shape](cube)
    np.testing.assert_array_equal(cube, CUBE)
    large = np.zeros(len(LARGE))
    cuda.jit(large_kernel)[len(LARGE) // 100, 100](large)
    np.testing.assert_array_equal(large, LARGE + SMALL[np.arange(len(LARGE)) % 10])


@needs_gpu
def test_remainder_and_hypot_kernels():
    x = np.array([p[0] for p in REMAINDER_ARGUMENTS])
    y = np.array([p[1] for p in REMAINDER_ARGUMENTS])
    out = np.zeros_like(x)
    cuda.jit(remainder_kernel)[1, len(x)](x, y, out)
    np.testing.assert_array_equal(out, [math.remainder(a, b) for a, b in REMAINDER_ARGUMENTS])
    a = np.linspace(0, 1, 50).astype(np.float32)
    c = np.zeros_like(a)
    cuda.jit(hypot_kernel)[1, len(a)](a, a, c)
    np.testing.assert_allclose(c, np.hypot(a, a), rtol=1e-7)


def divide_kernel(r, x, y):
    r[0] = x / y


def test_fastmath_division_by_zero_does_not_raise_in_debug_kernels():
    """numba-cuda's fastmath kernels give inf for a division by zero even with debug=True;
    without fastmath a debug kernel raises ZeroDivisionError (recorded with atom.cas)."""
    signature = "void(float32[::1], float32, float32)"
    fast, _ = cuda.compile_ptx(divide_kernel, signature, debug=True, opt=False, fastmath=True)
    precise, _ = cuda.compile_ptx(divide_kernel, signature, debug=True, opt=False)
    assert "atom.global.cas" in precise
    assert "atom.global.cas" not in fast
    fast_kernel = cuda.jit(signature, fastmath=True, debug=True, opt=False)(divide_kernel)
    assert fast_kernel.targetoptions["error_model"] == "numpy"


@needs_gpu
def test_fastmath_division_by_zero_gives_inf():
    signature = "void(float32[::1], float32, float32)"
    out = np.zeros(1, dtype=np.float32)
    cuda.jit(signature, fastmath=True, debug=True, opt=False)(divide_kernel)[1, 1](out, 10.0, 0.0)
    assert out[0] == np.inf
    with pytest.raises(ZeroDivisionError):
        cuda.jit(signature, debug=True, opt=False)(divide_kernel)[1, 1](out, 10.0, 0.0)
