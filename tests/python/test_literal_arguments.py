"""Calls with constant arguments, as Numba types them (literal types): a jitted callee that does
not type with its arguments' types is typed again with its constant bool and int arguments'
values, so that it prunes the branches they decide (numba-cuda's atomic tests pass
`neg_idx=False` into code that would not type); and a local assigned one constant is a
constant where one is needed (`N = 100; cuda.shared.array(N, int32)`)."""

import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float64, int32, njit, uint32, uint64, void
from taipan.errors import TypingError


@njit
def pair_or_number(x, as_pair):
    if as_pair:
        return (x, x)  # does not unify with the int below: typed only where as_pair is True
    return x


@njit
def numbers_and_pairs(x):
    return pair_or_number(x, False) + 1, pair_or_number(x, True)


FLAG = False


@njit
def through_global_flag(x):
    return pair_or_number(x, FLAG)


@njit
def scaled(x, factor):
    if factor == 0:
        return "none"  # a str where factor is 0, an int elsewhere
    return x * factor


@njit
def scaled_by_constants(x):
    return scaled(x, 3) + scaled(x, 2)


@njit
def scaled_by_variable(x, factor):
    return scaled(x, factor)


# The callees alone do not type for these argument types (from Python their arguments are not
# constants), so the expected values are written out.
@pytest.mark.parametrize("x", [0, 5, -7])
def test_a_constant_bool_argument_prunes_the_callees_branch(x):
    assert numbers_and_pairs(x) == (x + 1, (x, x))
    assert through_global_flag(x) == x


def test_constant_int_arguments_specialise_each_call():
    assert scaled_by_constants(4) == 20


def test_a_callee_that_does_not_type_either_way_reports_its_first_error():
    with pytest.raises(TypingError) as raised:
        scaled_by_variable(4, 2)
    message = str(raised.value)
    assert "return x * factor" in message or 'return "none"' in message, message


@cuda.jit(device=True)
def cast_to_uint64(value):
    return uint64(value)


@cuda.jit(device=True)
def add_at(ary, op2, cast, wrap):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    index = (tx, cast(ty))
    if wrap:  # uint64 % int64 is float64: no index; Numba prunes this for wrap=False
        index = (index[0] % ary.shape[0], index[1] % ary.shape[1])
    cuda.atomic.add(ary, index, op2)


def atomic_add_uint64_index(ary):
    add_at(ary, 1, cast_to_uint64, False)


def simple_shared(out):
    n = 100
    shape = (n, 2)
    flat = cuda.shared.array(n, int32)
    grid = cuda.shared.array(shape, float64)
    i = cuda.grid(1)
    if i < n:
        flat[i] = i
        grid[i, 1] = i
    cuda.syncthreads()
    out[i] = flat[i] + grid[i, 1]


@needs_ptxas
def test_numba_cudas_atomic_with_a_pruned_wrap_branch_compiles(tmp_path):
    ptx, _ = cuda.compile_ptx(atomic_add_uint64_index, void(uint32[:, ::1]))
    assert "atom.global.add.u32" in ptx or "red.global.add.u32" in ptx
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_a_local_assigned_once_sizes_shared_arrays(tmp_path):
    ptx, _ = cuda.compile_ptx(simple_shared, void(float64[::1]))
    sizes = re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx)
    assert sorted(sizes) == ["1600", "400"]  # 100 int32; 100 x 2 float64
    ptxas(ptx, tmp_path)


def reassigned_shape(out):
    n = 100
    n = n + 1
    scratch = cuda.shared.array(n, int32)
    scratch[0] = 1
    out[0] = scratch[0]


def test_a_local_assigned_twice_is_no_constant():
    with pytest.raises(TypingError, match="needs a constant shape"):
        cuda.compile_ptx(reassigned_shape, void(int32[::1]))


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_pruned_wrap_branch_on_the_gpu():
    ary = np.arange(32, dtype=np.uint32).reshape(4, 8)
    cuda.jit(void(uint32[:, ::1]))(atomic_add_uint64_index)[1, (4, 8)](ary)
    np.testing.assert_equal(ary, np.arange(32, dtype=np.uint32).reshape(4, 8) + 1)
