"""Shapes and dtypes of cuda.shared.array / cuda.local.array given as arguments of device
functions (numba-cuda's atomics tests pass them down: ``atomic_binary_1dim_shared(ary, idx, 1,
uint32, 32, cuda.atomic.add, ...)``): a device function whose parameter is used where a
constant is required is typed again for its caller's constant values, through any depth of
calls, as Numba retries with literal arguments; builtins such as cuda.atomic.add are passed as
values. Closure variables, constant tuples, globals and factory arguments keep working. A
shape that is not constant where it is called stays a TypingError at the user's line."""

import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, types
from taipan.errors import TypingError

GLOBAL_SHAPE = (4, 8)
GLOBAL_SIZE = 5


def stored_sizes(ptx):
    """The float64 constants the kernel stores (the sizes below), in order."""
    bits = [int(value) for value in re.findall(r"mov\.u64 \t%rd\d+, (\d+);", ptx)]
    return [float(np.array(value, dtype=np.int64).view(np.float64)) for value in bits]


@cuda.jit(device=True)
def record_size(a, i, shape, dtype):
    s = cuda.shared.array(shape, dtype)
    a[i] = s.size


@cuda.jit(device=True)
def record_local_size(a, i, shape, dtype):
    s = cuda.local.array(shape=shape, dtype=dtype)
    a[i] = s.size


@cuda.jit(device=True)
def passes_on(a, i, n):
    record_size(a, i, n, types.float64)  # n is constant only where passes_on is called


def sizes_kernel(a):
    record_size(a, 0, 10, types.int32)
    record_size(a, 1, (2, 3), np.float32)
    record_local_size(a, 2, 4, types.int64)
    record_local_size(a, 3, GLOBAL_SHAPE, types.uint8)
    passes_on(a, 4, 7)
    passes_on(a, 5, GLOBAL_SIZE * 3)


def test_shapes_from_arguments_through_device_functions():
    ptx, _ = cuda.compile_ptx(sizes_kernel, (types.float64[::1],))
    assert sorted(stored_sizes(ptx)) == [4.0, 6.0, 7.0, 10.0, 15.0, 32.0]


@cuda.jit(device=True)
def atomic_on_shared(ary, idx, op2, ary_dtype, ary_nelements, binop_func):
    tid = cuda.threadIdx.x
    sm = cuda.shared.array(ary_nelements, ary_dtype)
    sm[tid] = 0
    cuda.syncthreads()
    binop_func(sm, idx[tid] % ary_nelements, op2)
    cuda.syncthreads()
    ary[tid] = sm[tid]


def atomic_kernel(ary):
    atomic_on_shared(ary, ary, 1, types.uint32, 32, cuda.atomic.add)


def atomic_max_kernel(idx, ary):
    atomic_on_shared(ary, idx, 1.5, types.float64, 16, cuda.atomic.max)


@needs_ptxas
def test_numba_cudas_atomic_helpers(tmp_path):
    ptx, _ = cuda.compile_ptx(atomic_kernel, (types.uint32[::1],))
    assert re.search(r"\.shared \.align \d+ \.b8 \S+\[128\]", ptx)  # 32 uint32
    assert "atom.shared.add.u32" in ptx or "red.shared.add.u32" in ptx
    ptxas(ptx, tmp_path)
    ptx, _ = cuda.compile_ptx(atomic_max_kernel, (types.int64[::1], types.float64[::1]))
    assert re.search(r"\.shared \.align \d+ \.b8 \S+\[128\]", ptx)  # 16 float64
    assert "atom.shared.cas.b64" in ptx
    ptxas(ptx, tmp_path)


def closure_and_factory_kernels():
    n = 3
    shape = (2, 2)

    def from_closure(a):
        s = cuda.shared.array(n, types.float64)
        t = cuda.local.array(shape, types.float64)
        a[0] = s.size + t.size

    def factory(size, dtype):
        def kernel(a):
            s = cuda.local.array(size, dtype=dtype)
            a[0] = s.size

        return kernel

    return from_closure, factory(9, np.int16)


def test_closures_tuples_globals_and_factories():
    from_closure, made = closure_and_factory_kernels()
    assert stored_sizes(cuda.compile_ptx(from_closure, (types.float64[::1],))[0]) == [7.0]
    assert stored_sizes(cuda.compile_ptx(made, (types.float64[::1],))[0]) == [9.0]


@cuda.jit(device=True)
def reassigns(a, n):
    n = n + 1
    s = cuda.shared.array(n, types.float64)
    a[0] = s.size


def kernel_shape_argument(a, n):
    s = cuda.shared.array(n, types.float64)
    a[0] = s.size


def calls_reassigning(a):
    reassigns(a, 4)


def test_a_shape_computed_once_from_a_constant_argument_is_constant():
    # `n = n + 1` given the constant 4: the callee, typed again with its constant arguments
    # (as Numba types literals), assigns `n` once from a constant expression.
    assert stored_sizes(cuda.compile_ptx(calls_reassigning, (types.float64[::1],))[0]) == [5.0]


def calls_with_a_variable(a):
    record_size(a, 0, a.size, types.float64)


@pytest.mark.parametrize(
    ("kernel", "signature"),
    [
        (kernel_shape_argument, (types.float64[::1], types.int64)),
        (calls_with_a_variable, (types.float64[::1],)),
    ],
    ids=["kernel parameter", "not constant at the call"],
)
def test_shapes_that_are_not_constant_are_typing_errors(kernel, signature):
    with pytest.raises(TypingError, match="needs a constant shape") as raised:
        cuda.compile_ptx(kernel, signature)
    assert "test_cuda_constant_arguments.py" in str(raised.value)
