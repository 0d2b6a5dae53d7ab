"""CUDA kernels: every kernel compiles to PTX that ptxas accepts for sm_90 (here, no GPU needed),
and, on a machine with a GPU (marker ``cuda``), runs and matches NumPy."""

import math
import os
import re
import subprocess
import sys

import cuda_kernels as k
import numpy as np
import pytest
from child_processes import child_python_path
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float16, float32, float64, int32, int64, uint32, void

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

F32_1D = float32[:]
F32_2D = float32[:, :]
F64_2D = float64[:, :]

SIGNATURES = [
    (k.add_grid_stride, void(F32_1D, F32_1D, F32_1D)),
    (k.normalize, void(F32_1D, F32_1D)),
    (k.weigh, void(F32_1D, F32_1D, F32_1D)),
    (k.activate, void(F32_1D, F32_1D)),
    (k.matmul_simple, void(F64_2D, F64_2D, F64_2D)),
    (k.matmul_shared, void(F32_2D, F32_2D, F32_2D)),
    (k.count_threads, void(int32[:])),
    (k.histogram, void(float64[:], int64, int32[:])),
    (k.transpose_tiled, void(F32_2D, F32_2D)),
    (k.clamp_all, void(float64[:], float64, float64)),
    (k.warp_and_intrinsics, void(float64[:], int64[:])),
    (k.shared_dynamic, void(F32_1D, F32_1D)),
    (k.atomics_all, void(float64[:], uint32[:])),
    (k.grid_sync_sum, void(float64[:], float64[:])),
    (k.prints, void(float64[:])),
    (k.constant_lookup, void(float64[:])),
    (k.half_axpy, void(float16, float16[:], float16[:])),
    (k.every_warp_intrinsic, void(int64[:, :])),
    (k.tuple_results, void(F32_1D, F32_2D)),
    (k.make_pulses, void(F32_1D, float64, float64, F32_1D)),
    (k.add_arrays, void(F32_1D, F32_1D, F32_1D)),
    (k.gpu_round, void(float64[:], float64[:], int64)),
    (k.gpu_round_grid_stride, void(float64[:], float64[:], int64)),
    (k.gpu_round_grid_stride, void(F32_1D, F32_1D, int32)),
]


@needs_ptxas
@pytest.mark.parametrize(
    ("kernel", "signature"), SIGNATURES, ids=[s[0].__name__ for s in SIGNATURES]
)
def test_kernel_ptx_passes_ptxas(kernel, signature, tmp_path):
    ptx, return_type = cuda.compile_ptx(kernel.py_func, signature, cc=(9, 0))
    assert ".entry" in ptx and ".target sm_90" in ptx
    assert str(return_type) == "none"
    ptxas(ptx, tmp_path)


CROSS_MODULE_SCRIPT = """
import cuda_kernels as k
from taipan import cuda, float32, float64, void

matrix = float32[:, :]

for _ in range(100):
    lookup = cuda.compile_ptx(k.constant_lookup.py_func, void(float64[:]), cc=(9, 0))[0]
    shared = cuda.compile_ptx(k.matmul_shared.py_func, void(matrix, matrix, matrix), cc=(9, 0))[0]
    assert "demoted" in shared and "demoted" not in lookup, lookup
print("ok")
"""


def test_kernel_ptx_never_holds_an_earlier_modules_variables(tmp_path):
    """LLVM's NVPTX printer keeps the shared arrays it demotes into functions in a map keyed by
    the function's address and never cleared. When one code-generation pipeline served every
    module, a kernel whose function took the address of an earlier kernel's printed that kernel's
    freed variables and crashed the interpreter; each module now gets its own pipeline. A child
    process, since the failure is a crash."""
    script = tmp_path / "cross_module.py"
    script.write_text(CROSS_MODULE_SCRIPT)
    env = dict(os.environ, PYTHONPATH=child_python_path(os.path.dirname(k.__file__)))
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]


@needs_ptxas
def test_device_function_compiles_alone(tmp_path):
    def haversine(lat1, lon1, lat2, lon2):
        dlat = math.radians(lat2 - lat1)
        dlon = math.radians(lon2 - lon1)
        a = (
            math.sin(dlat / 2) ** 2
            + math.cos(math.radians(lat1)) * math.cos(math.radians(lat2)) * math.sin(dlon / 2) ** 2
        )
        return 6371.0 * 2 * math.asin(math.sqrt(a))

    ptx, return_type = cuda.compile_ptx(
        haversine, float64(float64, float64, float64, float64), device=True
    )
    assert str(return_type) == "float64"
    assert ".func" in ptx
    ptxas(ptx, tmp_path)


def test_kernel_returning_a_value_is_a_typing_error():
    from taipan.errors import TypingError

    def returns(x):
        return x[0]

    with pytest.raises(TypingError, match="cannot return a value"):
        cuda.compile_ptx(returns, void(float32[:]))


@needs_ptxas
def test_arrays_can_be_created_in_kernels(tmp_path):
    # The device memory runtime (test_cuda_device_allocation.py has the cases).
    def creates(x):
        y = np.zeros(3)
        x[0] = y[0]

    ptx, _ = cuda.compile_ptx(creates, void(float64[:]))
    ptxas(ptx, tmp_path)
    assert "NRT_MemInfo_alloc_aligned" in ptx


def test_calling_a_kernel_without_a_configuration_explains_the_launch_syntax():
    with pytest.raises(TypeError, match=r"launch it as add_grid_stride\[griddim, blockdim\]"):
        k.add_grid_stride(np.zeros(1), np.zeros(1), np.zeros(1))


@pytest.mark.parametrize("config", [(0, 32), (1, 0), (1, (1, 2, 3, 4))])
def test_invalid_launch_configurations(config):
    with pytest.raises(ValueError):
        k.add_grid_stride[config]


@pytest.mark.skipif(cuda.is_available(), reason="a GPU is present")
def test_launch_without_a_gpu_says_so():
    x = np.zeros(4, np.float32)
    with pytest.raises(cuda.CudaSupportError, match="no CUDA driver"):
        k.add_grid_stride[1, 4](x, x, x)


# --- on the GPU ------------------------------------------------------------------------------


@pytest.mark.cuda
@needs_gpu
def test_vector_add():
    n = 100_000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    out = np.zeros_like(x)
    k.add_grid_stride[64, 256](x, y, out)
    np.testing.assert_array_equal(out, x + y)


@pytest.mark.cuda
@needs_gpu
def test_hidden_layer_three_kernels_on_device_arrays():
    n = 1_000_000
    rng = np.random.default_rng(0)
    grayscales = np.floor(rng.uniform(0, 255, n)).astype(np.float32)
    weights = rng.normal(0.5, 0.1, n).astype(np.float32)
    d_gray = cuda.to_device(grayscales)
    d_weights = cuda.to_device(weights)
    d_norm = cuda.device_array_like(grayscales)
    d_weighted = cuda.device_array_like(grayscales)
    d_out = cuda.device_array_like(grayscales)
    blocks = (n + 255) // 256
    k.normalize[blocks, 256](d_gray, d_norm)
    k.weigh[blocks, 256](d_norm, d_weights, d_weighted)
    k.activate[blocks, 256](d_weighted, d_out)
    expected = np.tanh(grayscales / 255 * weights)
    np.testing.assert_allclose(d_out.copy_to_host(), expected, atol=1e-6)


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("kernel", [k.matmul_simple, k.matmul_shared])
def test_matmul(kernel):
    dtype = np.float64 if kernel is k.matmul_simple else np.float32
    a = np.random.default_rng(1).random((70, 50)).astype(dtype)
    b = np.random.default_rng(2).random((50, 40)).astype(dtype)
    c = np.zeros((70, 40), dtype)
    blocks = ((70 + k.TPB - 1) // k.TPB, (40 + k.TPB - 1) // k.TPB)
    if kernel is k.matmul_shared:
        blocks = (max(blocks),) * 2
    kernel[blocks, (k.TPB, k.TPB)](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


@pytest.mark.cuda
@needs_gpu
def test_atomic_counter_64_by_64():
    counter = np.zeros(1, np.int32)
    k.count_threads[64, 64](counter)
    assert counter[0] == 4096


@pytest.mark.cuda
@needs_gpu
def test_histogram():
    values = np.random.default_rng(3).random(10_000)
    counts = np.zeros(10, np.int32)
    k.histogram[40, 256](values, 10, counts)
    expected, _ = np.histogram(values, bins=10, range=(0, 1))
    np.testing.assert_array_equal(counts, expected)


@pytest.mark.cuda
@needs_gpu
def test_transpose_through_padded_tile():
    source = np.arange(100 * 70, dtype=np.float32).reshape(100, 70)
    target = np.zeros((70, 100), np.float32)
    blocks = ((70 + k.TILE - 1) // k.TILE, (100 + k.TILE - 1) // k.TILE)
    k.transpose_tiled[blocks, (k.TILE, k.TILE)](source, target)
    np.testing.assert_array_equal(target, source.T)


@pytest.mark.cuda
@needs_gpu
def test_host_and_device_clamp():
    values = np.linspace(-2, 2, 33)
    expected = np.array([k.clamp(v, -1.0, 1.0) for v in values])  # the same function on the CPU
    k.clamp_all[1, 64](values, -1.0, 1.0)
    np.testing.assert_array_equal(values, expected)


@pytest.mark.cuda
@needs_gpu
def test_dynamic_shared_memory():
    values = np.arange(32, dtype=np.float32)
    out = np.zeros_like(values)
    k.shared_dynamic[1, 32, 0, 32 * 4](values, out)
    np.testing.assert_array_equal(out, values[::-1])


@pytest.mark.cuda
@needs_gpu
def test_every_atomic():
    values = np.array([10.0, 1.0, 1.0])
    ints = np.array([0, 0, 3, 3, 3, 100, 0], np.uint32)
    k.atomics_all[1, 1](values, ints)
    np.testing.assert_array_equal(values, [9.0, 5.0, -5.0])
    np.testing.assert_array_equal(ints, [7, 9, 3 & 6, 3 | 6, 3 ^ 6, 0, 100])


@pytest.mark.cuda
@needs_gpu
def test_warp_intrinsics():
    out = np.zeros(32)
    bits = np.zeros(32, np.int64)
    k.warp_and_intrinsics[1, 32](out, bits)
    lanes = np.arange(32)
    shifted = np.where(lanes < 31, (lanes + 1) ** 2, lanes**2)
    np.testing.assert_array_equal(out, shifted + 16 + 5.0)


@pytest.mark.cuda
@needs_gpu
def test_forall():
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    k.add_grid_stride.forall(1000)(x, x, out)
    np.testing.assert_array_equal(out, 2 * x)


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("kernel", [k.gpu_round, k.gpu_round_grid_stride])
def test_forall_gpu_round(kernel):
    # The cuDF UDF from the talk, on device arrays: round every element to 3 decimal places.
    values = np.random.default_rng(4).uniform(-1000, 1000, 100_003)
    in_data = cuda.to_device(values)
    out_data = cuda.device_array_like(in_data)
    nelems = len(in_data)
    kernel.forall(nelems)(in_data, out_data, 3)
    np.testing.assert_array_equal(out_data.copy_to_host(), np.rint(values * 1000) / 1000)
    # forall with a block size of its own, on host arrays (copied both ways)
    single = values.astype(np.float32)
    out = np.zeros_like(single)
    kernel.forall(single.size, tpb=128)(single, out, 1)
    # float32 * int64 is a float64 product in Numba's typing
    expected = (np.rint(single.astype(np.float64) * 10) / 10).astype(np.float32)
    np.testing.assert_allclose(out, expected, rtol=1e-6)


@needs_ptxas
@pytest.mark.parametrize(
    ("kernel", "signature"),
    [
        (k.divide_debug, void(int64[:], int64[:])),
        (k.out_of_bounds_debug, void(float64[:])),
        (k.raises_debug, void(float64[:])),
    ],
    ids=["divide", "bounds", "raise"],
)
def test_debug_kernels_pass_ptxas(kernel, signature, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel.py_func, signature, debug=True)
    assert "taipan_cuda_exception_thread" in ptx
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@needs_gpu
def test_debug_division_by_zero_names_the_thread():
    values = np.arange(8)
    divisor = np.ones(8, np.int64)
    divisor[6] = 0
    with pytest.raises(
        ZeroDivisionError,
        match=r"tid=\[6, 0, 0\] ctaid=\[0, 0, 0\]: "
        r"integer division or modulo by zero",
    ):
        k.divide_debug[1, 8](values, divisor)


@pytest.mark.cuda
@needs_gpu
def test_debug_index_error_and_raise():
    with pytest.raises(IndexError, match=r"tid=\[\d+, 0, 0\] ctaid=\[0, 0, 0\]"):
        k.out_of_bounds_debug[1, 8](np.zeros(8))
    with pytest.raises(ValueError, match=r"tid=\[5, 0, 0\] ctaid=\[0, 0, 0\]: thread five"):
        k.raises_debug[1, 8](np.zeros(8))


@pytest.mark.cuda
@needs_gpu
def test_grid_sync_with_a_cooperative_launch():
    values = np.ones(64 * 128)
    out = np.zeros(2)
    k.grid_sync_sum[64, 128](values, out)
    assert out[0] == out[1] == values.sum()


@pytest.mark.cuda
@needs_gpu
def test_print_in_a_kernel(capfd):
    k.prints[1, 4](np.array([2.5]))
    cuda.synchronize()
    assert "value 2.500000 index 0 100%" in capfd.readouterr().out


@pytest.mark.cuda
@needs_gpu
def test_invalid_configurations_carry_the_driver_reason():
    x = np.zeros(4, np.float32)
    with pytest.raises(cuda.CudaDriverError, match="CUDA_ERROR_INVALID_VALUE"):
        k.add_grid_stride[1, 2048](x, x, x)
    with pytest.raises(cuda.CudaDriverError, match="CUDA_ERROR"):
        k.shared_dynamic[1, 32, 0, 10 * 1024 * 1024](x, x)


@pytest.mark.cuda
@needs_gpu
def test_constant_array():
    out = np.zeros(8)
    k.constant_lookup[1, 8](out)
    np.testing.assert_array_equal(out, np.tile(k.LOOKUP, 2))


def test_half_precision_uses_f16_instructions():
    ptx, _ = cuda.compile_ptx(k.half_axpy.py_func, void(float16, float16[:], float16[:]))
    assert "mul.rn.f16" in ptx or "fma.rn.f16" in ptx


@pytest.mark.cuda
@needs_gpu
def test_half_precision_kernel():
    x = np.linspace(0, 1, 64).astype(np.float16)
    out = np.zeros_like(x)
    k.half_axpy[1, 64](np.float16(0.5), x, out)
    np.testing.assert_allclose(out, (np.float16(0.5) * x + x).astype(np.float16), rtol=1e-3)


@pytest.mark.cuda
@needs_gpu
def test_every_warp_intrinsic():
    out = np.zeros((32, 14), np.int64)
    k.every_warp_intrinsic[1, 32](out)
    lanes = np.arange(32)
    np.testing.assert_array_equal(out[:, 0], 30)
    np.testing.assert_array_equal(out[:, 1], np.maximum(lanes - 1, 0) + (lanes == 0) * 0)
    np.testing.assert_array_equal(out[:, 2], lanes ^ 1)
    np.testing.assert_array_equal(out[:, 3], 1)
    np.testing.assert_array_equal(out[:, 4], 1)
    np.testing.assert_array_equal(out[:, 5], 0)
    even, odd = 0x55555555, 0xAAAAAAAA
    np.testing.assert_array_equal(out[:, 6], np.where(lanes % 2 == 0, even, odd))
    np.testing.assert_array_equal(out[:, 7], 0xFFFFFFFF)
    np.testing.assert_array_equal(out[:, 8], (1 << lanes) - 1)
    np.testing.assert_array_equal(out[:, 9], 8)
    np.testing.assert_array_equal(out[:, 10], 1)
    np.testing.assert_array_equal(out[:, 11], 1)
    np.testing.assert_array_equal(out[:, 12], lanes + 32)
    np.testing.assert_array_equal(out[:, 13], 3)


@needs_ptxas
def test_lineinfo_maps_ptx_to_source_lines(tmp_path):
    ptx, _ = cuda.compile_ptx(
        k.add_grid_stride.py_func, void(F32_1D, F32_1D, F32_1D), lineinfo=True
    )
    assert ".loc" in ptx and "cuda_kernels.py" in ptx
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@needs_gpu
def test_device_functions_return_tuples():
    x = np.arange(-20, 100, dtype=np.float32)
    out = np.zeros((x.size, 4), dtype=np.float32)
    k.tuple_results[1, 128](x, out)
    as_int = x.astype(np.int64)
    np.testing.assert_array_equal(out[:, 0], as_int // 3)
    np.testing.assert_array_equal(out[:, 1], as_int % 3)
    np.testing.assert_array_equal(out[:, 2], x + np.float32(1.5))
    np.testing.assert_array_equal(out[:, 3], x - np.float32(1.5))


def test_compile_ptx_accepts_a_kernel_as_well_as_its_function():
    from_kernel, _ = cuda.compile_ptx(k.add_grid_stride, void(F32_1D, F32_1D, F32_1D))
    from_function, _ = cuda.compile_ptx(k.add_grid_stride.py_func, void(F32_1D, F32_1D, F32_1D))

    # Only the generated symbol's counter differs.
    def normalize(ptx):
        return re.sub(r"_\d+_kernel", "_N_kernel", ptx)

    assert normalize(from_kernel) == normalize(from_function)
