"""Numba's keyword spellings of CUDA builtins: cuda.shared.array(shape=..., dtype=...) as in
Numba's documentation, dynamic shared memory with shape=0, cuda.local.array,
cuda.const.array_like and cuda.grid(ndim=...). Builtins Numba takes positionally only refuse
keywords clearly. PTX is checked by ptxas; the launches run where a GPU is present."""

import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float32, float64, int32, void
from taipan.errors import TypingError, UnsupportedError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

TPB = 16
LOOKUP = np.arange(8, dtype=np.float64) * 0.5
F32_2D = void(float32[:, :], float32[:, :], float32[:, :])


def matmul_keywords(a, b, c):
    # The seeds' tiled matrix multiply, spelled as in Numba's documentation.
    sa = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sb = cuda.shared.array((TPB, TPB), dtype=float32)
    x, y = cuda.grid(ndim=2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    total = 0.0
    for i in range(cuda.gridDim.x):
        sa[tx, ty] = 0.0
        sb[tx, ty] = 0.0
        if x < a.shape[0] and ty + i * TPB < a.shape[1]:
            sa[tx, ty] = a[x, ty + i * TPB]
        if y < b.shape[1] and tx + i * TPB < b.shape[0]:
            sb[tx, ty] = b[tx + i * TPB, y]
        cuda.syncthreads()
        for j in range(TPB):
            total += sa[tx, j] * sb[j, ty]
        cuda.syncthreads()
    if x < c.shape[0] and y < c.shape[1]:
        c[x, y] = total


def matmul_positional(a, b, c):
    sa = cuda.shared.array((TPB, TPB), float32)
    sb = cuda.shared.array((TPB, TPB), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    total = 0.0
    for i in range(cuda.gridDim.x):
        sa[tx, ty] = 0.0
        sb[tx, ty] = 0.0
        if x < a.shape[0] and ty + i * TPB < a.shape[1]:
            sa[tx, ty] = a[x, ty + i * TPB]
        if y < b.shape[1] and tx + i * TPB < b.shape[0]:
            sb[tx, ty] = b[tx + i * TPB, y]
        cuda.syncthreads()
        for j in range(TPB):
            total += sa[tx, j] * sb[j, ty]
        cuda.syncthreads()
    if x < c.shape[0] and y < c.shape[1]:
        c[x, y] = total


def reverse_dynamic(values, out):
    buffer = cuda.shared.array(shape=0, dtype=float32)
    i = cuda.threadIdx.x
    buffer[i] = values[i]
    cuda.syncthreads()
    out[i] = buffer[cuda.blockDim.x - 1 - i]


def reverse_dynamic_positional_shape(values, out):
    buffer = cuda.shared.array(0, dtype=float32)
    i = cuda.threadIdx.x
    buffer[i] = values[i]
    cuda.syncthreads()
    out[i] = buffer[cuda.blockDim.x - 1 - i]


def local_and_constant(out):
    scratch = cuda.local.array(dtype=float64, shape=4)
    table = cuda.const.array_like(ndarray=LOOKUP)
    i = cuda.grid(ndim=1)
    if i < out.size:
        for k in range(4):
            scratch[k] = table[(i + k) % 8]
        out[i] = scratch[0] + scratch[1] + scratch[2] + scratch[3]


def without_names(ptx):
    return re.sub(r"taipan_\w+", "NAME", ptx)


@needs_ptxas
def test_keyword_matmul_compiles_like_the_positional_one(tmp_path):
    keywords, _ = cuda.compile_ptx(matmul_keywords, F32_2D)
    positional, _ = cuda.compile_ptx(matmul_positional, F32_2D)
    assert ".shared" in keywords
    ptxas(keywords, tmp_path)
    # The same instructions: only the names (which carry the function's digest) differ.
    body = [line for line in without_names(keywords).splitlines() if not line.startswith("//")]
    reference = [
        line for line in without_names(positional).splitlines() if not line.startswith("//")
    ]
    assert body == reference


@needs_ptxas
@pytest.mark.parametrize("kernel", [reverse_dynamic, reverse_dynamic_positional_shape])
def test_dynamic_shared_memory_by_keyword(kernel, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, void(float32[:], float32[:]))
    assert re.search(r"\.extern \.shared .*\[\]", ptx)
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_local_and_constant_arrays_by_keyword(tmp_path):
    ptx, _ = cuda.compile_ptx(local_and_constant, void(float64[:]))
    # The frozen table (0.5 is 0x3FE0000000000000: bytes ..., 224, 63) is in the module.
    assert re.search(
        r"taipan_constant_array\[64\] = \{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 224, 63", ptx
    )
    ptxas(ptx, tmp_path)


@pytest.mark.parametrize(
    "kernel, error, message",
    [
        ("syncwarp_mask", UnsupportedError, r"cuda\.syncwarp\(\) takes no keyword arguments"),
        ("atomic_keywords", UnsupportedError, r"cuda\.atomic\.add\(\) takes no keyword"),
        ("unknown_keyword", TypingError, r"unexpected keyword argument 'size'"),
        ("duplicate_shape", TypingError, r"multiple values for argument 'shape'"),
        ("missing_dtype", TypingError, r"missing required argument 'dtype'"),
    ],
)
def test_keyword_errors_name_the_line(kernel, error, message):
    function = globals()[kernel]
    with pytest.raises(error, match=message) as raised:
        cuda.compile_ptx(function, void(int32[:]))
    assert f"in {kernel}" in str(raised.value)


def syncwarp_mask(out):
    cuda.syncwarp(mask=0xFFFFFFFF)


def atomic_keywords(out):
    cuda.atomic.add(out, idx=0, val=1)


def unknown_keyword(out):
    buffer = cuda.shared.array(size=4, dtype=float32)
    out[0] = buffer[0]


def duplicate_shape(out):
    buffer = cuda.shared.array(4, shape=4, dtype=float32)
    out[0] = buffer[0]


def missing_dtype(out):
    buffer = cuda.local.array(shape=4)
    out[0] = buffer[0]


@pytest.mark.cuda
@needs_gpu
def test_keyword_matmul_runs():
    kernel = cuda.jit(matmul_keywords)
    a = np.random.default_rng(1).random((70, 50)).astype(np.float32)
    b = np.random.default_rng(2).random((50, 40)).astype(np.float32)
    c = np.zeros((70, 40), np.float32)
    blocks = max((70 + TPB - 1) // TPB, (40 + TPB - 1) // TPB)
    kernel[(blocks, blocks), (TPB, TPB)](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


@pytest.mark.cuda
@needs_gpu
def test_dynamic_shared_memory_by_keyword_runs():
    kernel = cuda.jit(reverse_dynamic)
    values = np.arange(64, dtype=np.float32)
    out = np.zeros_like(values)
    kernel[1, 64, 0, values.nbytes](values, out)
    np.testing.assert_array_equal(out, values[::-1])


@pytest.mark.cuda
@needs_gpu
def test_local_and_constant_arrays_by_keyword_run():
    kernel = cuda.jit(local_and_constant)
    out = np.zeros(100)
    kernel[1, 128](out)
    expected = np.array([sum(LOOKUP[(i + k) % 8] for k in range(4)) for i in range(100)])
    np.testing.assert_array_equal(out, expected)
