"""``cuda.reduce``: reductions over whole 1-D arrays with a binary function.

Without a GPU: the reduction kernel's PTX passes ptxas for several element types, the pass
arithmetic, argument checks and the empty case. With a GPU (marker ``cuda``): sums, maxima and
minima against NumPy for sizes around the block and pass boundaries, host and device arrays,
``size=``, ``res=``, ``init=``, ``stream=``, strided views and CuPy arrays."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit
from taipan.cuda import reduction

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@cuda.reduce
def min_reduce(a, b):
    return min(a, b)


@cuda.jit(device=True)
def larger_magnitude(a, b):
    return a if abs(a) >= abs(b) else b


magnitude_reduce = cuda.Reduce(larger_magnitude)  # a device function works as well


@njit
def product(a, b):
    return a * b


product_reduce = cuda.reduce(product)  # and a CPU @njit function


DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint8, np.int16, np.complex128]


@needs_ptxas
@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_reduction_kernels_pass_ptxas(dtype, tmp_path):
    ptx = sum_reduce.inspect_asm(dtype)
    assert ".entry" in ptx and ".shared" in ptx and "bar.sync" in ptx
    ptxas(ptx, tmp_path)
    ptxas(sum_reduce.inspect_asm(dtype, layout="A"), tmp_path)  # strided views


@needs_ptxas
@pytest.mark.parametrize("reducer", [max_reduce, min_reduce, magnitude_reduce, product_reduce])
def test_other_reducers_pass_ptxas(reducer, tmp_path):
    for dtype in (np.float64, np.int32):
        ptxas(reducer.inspect_asm(dtype), tmp_path)


def test_pass_arithmetic():
    cap = 132 * 8
    assert reduction.passes(1, cap) == 1
    assert reduction.passes(2048, cap) == 1  # one block folds 8 items per thread
    assert reduction.passes(2049, cap) == 2
    assert reduction.passes(10**6 + 3, cap) == 489
    assert reduction.passes(2**24, cap) == cap
    assert reduction.passes(2**31, cap) == cap


def test_checks_before_the_gpu():
    assert sum_reduce(np.zeros(0)) == 0  # an empty array gives init, without a GPU
    assert max_reduce(np.zeros(0, np.float32), init=-5) == np.float32(-5)
    assert isinstance(sum_reduce(np.zeros(0, np.int32), init=3), np.int32)
    assert sum_reduce(np.arange(10.0), size=0, init=1.5) == 1.5
    with pytest.raises(TypeError, match="only support 1D array"):
        sum_reduce(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="host or device array"):
        sum_reduce([1, 2, 3])
    assert "sum_reduce" in repr(sum_reduce) and sum_reduce.__name__ == "sum_reduce"
    assert cuda.reduce is cuda.Reduce


@pytest.mark.skipif(cuda.is_available(), reason="a GPU is present")
def test_without_a_gpu_a_reduction_says_so():
    with pytest.raises(cuda.CudaSupportError):
        sum_reduce(np.arange(10.0))


# --- on the GPU -------------------------------------------------------------------------------

SIZES = [0, 1, 2, 255, 256, 257, 1023, 1025, 2048, 2049, 100_000, 10**6 + 3]


def data(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-1, 1, n).astype(dtype)
    return rng.integers(-100, 100, n).astype(dtype)


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64])
def test_sums_match_numpy(n, dtype):
    values = data(dtype, n)
    expected = values.sum(dtype=np.float64 if values.dtype.kind == "f" else values.dtype)
    got = sum_reduce(values)
    assert got.dtype == dtype
    if values.dtype.kind == "f":
        tolerance = 1e-4 * max(1, n) ** 0.5 if dtype == np.float32 else 1e-10 * max(1, n) ** 0.5
        assert abs(float(got) - float(expected)) <= tolerance
    else:
        assert got == expected
    device = cuda.to_device(values)
    assert sum_reduce(device) == got


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("n", [1, 257, 1025, 10**6 + 3])
def test_max_and_min(n):
    values = data(np.float64, n, 1)
    # numba's init enters once: op(result, init), 0 by default
    assert max_reduce(values, init=-np.inf) == values.max()
    assert min_reduce(values, init=np.inf) == values.min()
    assert max_reduce(values) == max(values.max(), 0.0)
    ints = data(np.int32, n, 2)
    assert max_reduce(ints, init=-(2**31)) == ints.max()
    assert min_reduce(cuda.to_device(ints), init=2**31 - 1) == ints.min()
    signed = data(np.float64, n, 3)
    assert magnitude_reduce(signed) == signed[np.argmax(np.abs(signed))]


@pytest.mark.cuda
@needs_gpu
def test_seed_example():
    a = np.arange(1234, dtype=np.float64) + 1
    assert sum_reduce(a) == a.sum()  # transfers the result to the host
    r = cuda.device_array(1, dtype=np.float64)
    assert sum_reduce(a, res=r) is None  # keeps the result on the device
    assert r.copy_to_host()[0] == a.sum()
    a_d = cuda.to_device(a)
    r2 = cuda.device_array(3, dtype=np.float64)
    sum_reduce(a_d, res=r2)
    assert r2.copy_to_host()[0] == a.sum()


@pytest.mark.cuda
@needs_gpu
def test_size_init_stream_and_views():
    values = np.arange(100_000, dtype=np.int64)
    assert sum_reduce(values, size=1000) == values[:1000].sum()
    assert sum_reduce(cuda.to_device(values), size=5000, init=7) == values[:5000].sum() + 7
    stream = cuda.stream()
    device = cuda.to_device(values, stream=stream)
    assert sum_reduce(device, stream=stream) == values.sum()
    result = cuda.device_array(1, np.int64, stream=stream)
    sum_reduce(device, res=result, stream=stream)
    stream.synchronize()
    assert result.copy_to_host()[0] == values.sum()
    assert sum_reduce(device[::3]) == values[::3].sum()
    assert sum_reduce(device[10:20_000:7]) == values[10:20_000:7].sum()
    as_float = cuda.device_array(1, np.float64)
    sum_reduce(device, res=as_float)  # the result cast to res's dtype
    assert as_float.copy_to_host()[0] == float(values.sum())
    assert product_reduce(np.full(20, 2, np.int64), init=1) == 2**20


@pytest.mark.cuda
@needs_gpu
def test_repeated_calls_reuse_compiled_kernels():
    def add(a, b):
        return a + b

    fresh = cuda.reduce(add)
    values = data(np.float64, 50_000)
    for _ in range(3):
        np.testing.assert_allclose(fresh(cuda.to_device(values)), values.sum(), rtol=1e-12)
        np.testing.assert_allclose(fresh(values[:1000]), values[:1000].sum(), rtol=1e-12)
    assert len(fresh._kernels) == 1  # one kernel for both passes and every size


@pytest.mark.cuda
@needs_gpu
def test_cupy_input():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(1, 100_001, dtype=cupy.float64)
    assert sum_reduce(x) == 100_000 * 100_001 / 2
    result = cupy.zeros(1, dtype=cupy.float64)
    sum_reduce(x, res=result)
    assert float(result[0]) == 100_000 * 100_001 / 2


@pytest.mark.cuda
@needs_gpu
def test_more_than_two_to_the_31_items():
    n = 2**31 + 5
    free, _ = cuda.current_context().get_memory_info()
    if free < 3 * n:
        pytest.skip("not enough GPU memory")
    values = cuda.device_array(n, np.int8)
    from taipan import _core

    _core.cuda_memset(values.device_ctypes_pointer, 0, n)
    values[n - 1] = 7
    values[2**31 + 1] = -3
    assert max_reduce(values) == 7
    assert min_reduce(values) == -3
