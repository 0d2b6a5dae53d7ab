"""numba-cuda's error model in kernels: without debug=True, NumPy's (float division by zero
gives inf or nan, integer division by zero 0, and the kernel goes on), as exceptions reach the
host only from debug kernels; with debug=True, Python's (ZeroDivisionError names the thread).
The PTX says which: only a Python-model kernel records an exception for the host."""

import numpy as np
import pytest

from taipan import cuda, float64, int64, void


def divide(r, x, y):
    r[0] = y[0] / x[0]
    r[1] = y[0]


def floor_divide(r, x, y):
    r[0] = y[0] // x[0]
    r[1] = y[0] % x[0]


def records_an_exception(ptx):
    """Whether the module's code uses the exception flag (beyond declaring it)."""
    return any(
        "taipan_cuda_exception" in line and not line.startswith(".visible")
        for line in ptx.splitlines()
    )


@pytest.mark.parametrize("kernel, scalar", [(divide, float64), (floor_divide, int64)])
def test_kernels_without_debug_do_not_raise_on_division_by_zero(kernel, scalar):
    signature = void(float64[::1], scalar[::1], scalar[::1])
    assert not records_an_exception(cuda.compile_ptx(kernel, signature)[0])
    assert records_an_exception(cuda.compile_ptx(kernel, signature, debug=True, opt=False)[0])


def test_the_dispatcher_compiles_with_the_same_model():
    quiet = cuda.jit(void(float64[::1], float64[::1], float64[::1]))(divide)
    loud = cuda.jit(void(float64[::1], float64[::1], float64[::1]), debug=True, opt=False)(divide)
    assert not records_an_exception(next(iter(quiet.inspect_asm().values())))
    assert records_an_exception(next(iter(loud.inspect_asm().values())))


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_division_by_zero_on_the_gpu_goes_on():
    r = np.zeros(2)
    cuda.jit(divide)[1, 1](r, np.zeros(1), np.ones(1))
    assert np.isinf(r[0]) and r[1] == 1.0
    q = np.full(2, -1.0)
    cuda.jit(floor_divide)[1, 1](q, np.zeros(1, np.int64), np.full(1, 7, np.int64))
    assert list(q) == [0.0, 0.0]
