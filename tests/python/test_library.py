"""The C++ library registry seen from Python: its functions' targets named in errors at the
user's line, functions it lacks reported as unsupported, Python's argument rules (NumPy's
keywords after a skipped parameter too), array attributes as entries."""

import math
import random

import numpy as np
import pytest

from taipan import cuda, njit, types
from taipan.errors import TypingError, UnsupportedError


def test_a_cpu_only_function_in_a_kernel_names_function_target_and_line():
    def kernel(out):
        out[0] = random.random()

    with pytest.raises(UnsupportedError) as error:
        cuda.compile_ptx(kernel, types.void(types.float64[:]))
    message = str(error.value)
    assert "random.random() is not supported on the GPU (it runs on the CPU)" in message
    assert "out[0] = random.random()" in message


def test_math_functions_taipan_lacks_are_unsupported_at_the_users_line():
    @njit
    def f(x):
        return math.isqrt(x)

    with pytest.raises(UnsupportedError, match="math.isqrt is not supported") as error:
        f(4)
    assert "return math.isqrt(x)" in str(error.value)


def test_library_functions_bind_arguments_as_python_does():
    @njit
    def too_many(x):
        return math.log(x, 2.0, 3.0)

    @njit
    def keyword(x):
        return math.sqrt(x=x)

    with pytest.raises(TypingError, match=r"math.log\(\) takes at most 2 arguments"):
        too_many(1.0)
    with pytest.raises(TypingError, match="unexpected keyword argument 'x'"):
        keyword(1.0)


def test_library_math_in_kernels_compiles():
    def kernel(out, x):
        out[0] = math.sqrt(x[0]) + math.log(x[0], 3.0)

    ptx, _ = cuda.compile_ptx(kernel, types.void(types.float64[:], types.float64[:]))
    assert "sqrt.rn.f64" in ptx


def test_a_gpu_only_intrinsic_on_the_cpu_names_function_target_and_line():
    @njit
    def barrier():
        cuda.syncthreads()

    @njit
    def thread_index():
        return cuda.threadIdx.x

    with pytest.raises(UnsupportedError) as error:
        barrier()
    message = str(error.value)
    assert "cuda.syncthreads() is not supported on the CPU (it runs on the GPU" in message
    assert "cuda.syncthreads()\n" in message
    with pytest.raises(UnsupportedError) as error:
        thread_index()
    assert "cuda.threadIdx.x is not supported on the CPU" in str(error.value)
    assert "return cuda.threadIdx.x" in str(error.value)


def test_builtins_bind_keywords_as_python_does():
    @njit
    def keywords(x):
        return round(number=x, ndigits=2), pow(base=2, exp=10, mod=7), complex(real=x, imag=1.0)

    @njit
    def positional_only(x):
        return abs(x=x)

    assert keywords(2.567) == (2.57, 2, complex(2.567, 1.0))
    with pytest.raises(UnsupportedError, match=r"abs\(\) takes no keyword arguments"):
        positional_only(-1.0)


def test_numpy_keywords_may_skip_optional_parameters():
    @njit
    def f(n):
        np.random.seed(1)
        return np.eye(n, k=1), np.arange(n, dtype=np.float32), np.random.normal(size=n)

    eye, arange, normal = f(3)
    np.random.seed(1)
    np.testing.assert_array_equal(eye, np.eye(3, k=1))
    assert arange.dtype == np.float32
    np.testing.assert_array_equal(normal, np.random.normal(size=3))


def test_array_attributes_and_methods_are_library_entries():
    @njit
    def f(a):
        return a.shape, a.T.strides, a.size, a.reshape(shape=(3, 2)).sum(axis=0)

    a = np.arange(6.0).reshape(2, 3)
    shape, strides, size, sums = f(a)
    assert (shape, strides, size) == (a.shape, a.T.strides, a.size)
    np.testing.assert_array_equal(sums, a.reshape(3, 2).sum(axis=0))


def test_numpy_random_in_a_kernel_names_function_target_and_line():
    def kernel(out):
        out[0] = np.random.random()

    with pytest.raises(UnsupportedError) as error:
        cuda.compile_ptx(kernel, types.void(types.float64[:]))
    message = str(error.value)
    assert "numpy.random.random() is not supported on the GPU (it runs on the CPU)" in message
    assert "out[0] = np.random.random()" in message
