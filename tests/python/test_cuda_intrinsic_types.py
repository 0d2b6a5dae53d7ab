"""CUDA intrinsics typed as numba-cuda types them: popc and clz give their argument's type, ffs
uint32, brev uint32 or uint64; fma takes float32 or float64 (integers convert to float64);
cuda.selp(test, a, b) on two values of one type; atomics' NaN rules for max and min (a NaN
value or element changes nothing) and nanmax/nanmin (a NaN value is ignored, a NaN element
replaced), compare_and_swap, on global and shared arrays; PTX through ptxas, values in the
simulator (where a kernel's signature types its scalar arguments)."""

import pytest
from child_processes import run_in_simulator
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, types
from taipan.errors import TypingError

INTEGERS = [types.int8, types.int16, types.int32, types.int64]
INTEGERS += [types.uint8, types.uint16, types.uint32, types.uint64]


def result_type(expression, *argument_types):
    arguments = ", ".join(f"a{i}" for i in range(len(argument_types)))
    namespace = {}
    exec(  # noqa: S102
        f"from taipan import cuda\ndef f({arguments}):\n    return {expression}\n", namespace
    )
    return cuda.compile_ptx(namespace["f"], argument_types, device=True)[1]


@pytest.mark.parametrize("integer", INTEGERS, ids=str)
def test_bit_intrinsics_result_types(integer):
    assert result_type("cuda.popc(a0)", integer) == integer
    assert result_type("cuda.clz(a0)", integer) == integer
    assert result_type("cuda.ffs(a0)", integer) == types.uint32
    assert result_type("cuda.brev(a0)", integer) == (
        types.uint64 if integer.bitwidth == 64 else types.uint32
    )


def test_fma_forms():
    f32, f64, i32 = types.float32, types.float64, types.int32
    assert result_type("cuda.fma(a0, a1, a2)", f32, f32, f32) == f32
    assert result_type("cuda.fma(a0, a1, a2)", f64, f32, f32) == f64
    assert result_type("cuda.fma(a0, a1, a2)", i32, i32, i32) == f64
    assert result_type("cuda.fma(a0, a1, a2)", f32, f32, types.int64) == f64
    with pytest.raises(TypingError):
        result_type("cuda.fma(a0, a1, a2)", types.complex64, f32, f32)


def test_selp_takes_two_values_of_one_type():
    for value in (types.float32, types.float64, types.int16, types.uint64):
        assert result_type("cuda.selp(a0, a1, a2)", types.boolean, value, value) == value
    assert result_type("cuda.selp(a0 > 2, a1, a2)", types.int64, types.int32, types.int32) == (
        types.int32
    )
    with pytest.raises(TypingError):
        result_type("cuda.selp(a0, a1, a2)", types.boolean, types.int64, types.int32)
    with pytest.raises(TypingError):
        result_type("cuda.selp(a0, a1, a2)", types.boolean, types.int8, types.int8)


ATOMICS = """
from taipan import cuda, types
import numpy as np

def kernel(out, values, flags):
    shared = cuda.shared.array(4, {dtype})
    i = cuda.grid(1)
    if i < 4:
        shared[i] = out[i]
    cuda.syncthreads()
    if i < values.size:
        cuda.atomic.{op}(out, i % 4, values[i])
        cuda.atomic.{op}(shared, i % 4, values[i])
    cuda.syncthreads()
    if i < 4:
        flags[i] = shared[i]
"""


@needs_ptxas
@pytest.mark.parametrize("op", ["max", "min", "nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint32", "int64", "uint64"])
def test_min_max_atomics_compile_for_global_and_shared_arrays(op, dtype, tmp_path):
    namespace = {}
    exec(ATOMICS.format(op=op, dtype=f"types.{dtype}"), namespace)  # noqa: S102
    array = getattr(types, dtype)[::1]
    ptx, _ = cuda.compile_ptx(namespace["kernel"], (array, array, array))
    if dtype.startswith("float"):
        # numba-cuda's compare-and-swap loop, on global and on shared memory
        assert "atom.global.cas" in ptx and "atom.shared.cas" in ptx
    else:
        assert f"atom.global.{op.replace('nan', '')}" in ptx
        assert f"atom.shared.{op.replace('nan', '')}" in ptx
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_compare_and_swap_and_cas(tmp_path):
    def kernel(out, old, new):
        out[1] = cuda.atomic.compare_and_swap(out, old, new)
        out[2] = cuda.atomic.cas(out, 3, old, new)

    ptx, _ = cuda.compile_ptx(kernel, (types.int64[::1], types.int64, types.int64))
    assert ptx.count("atom.global.cas.b64") == 2
    ptxas(ptx, tmp_path)
    with pytest.raises(TypingError, match="compare_and_swap"):
        cuda.compile_ptx(kernel, (types.float64[::1], types.float64, types.float64))


SIMULATED = """
import math
import numpy as np
from taipan import cuda

@cuda.jit
def update(a, value, which):
    if which == 0:
        cuda.atomic.max(a, 0, value)
    elif which == 1:
        cuda.atomic.min(a, 0, value)
    elif which == 2:
        cuda.atomic.nanmax(a, 0, value)
    else:
        cuda.atomic.nanmin(a, 0, value)

def after(start, value, which):
    a = np.array([start])
    update[1, 1](a, value, which)
    return a[0]

nan = math.nan
# max/min: a NaN value or a NaN element changes nothing
assert after(1.0, nan, 0) == 1.0 and math.isnan(after(nan, 1.0, 0))
assert after(1.0, nan, 1) == 1.0 and math.isnan(after(nan, 1.0, 1))
assert after(1.0, 2.0, 0) == 2.0 and after(1.0, 2.0, 1) == 1.0
# nanmax/nanmin: a NaN value is ignored, a NaN element replaced
assert after(1.0, nan, 2) == 1.0 and after(nan, 1.0, 2) == 1.0
assert after(1.0, nan, 3) == 1.0 and after(nan, 1.0, 3) == 1.0
assert after(1.0, 2.0, 2) == 2.0 and after(1.0, 2.0, 3) == 1.0

@cuda.jit
def choose(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cuda.selp(a[i] > b[i], a[i], b[i])

a, b = np.array([1.0, 5.0, 3.0]), np.array([2.0, 4.0, 3.0])
out = np.zeros(3)
choose[1, 3](out, a, b)
assert (out == np.maximum(a, b)).all()

@cuda.jit
def swap(a, old, new):
    cuda.atomic.compare_and_swap(a, old, new)

a = np.array([7, 1], dtype=np.int32)
swap[1, 1](a, 7, 9)
swap[1, 1](a, 7, 11)
assert list(a) == [9, 1]

# A signature types the scalar arguments, as compiled code sees them (numba-cuda's tests).
def count_leading(out, c):
    out[0] = cuda.clz(c)

def reverse(out, c):
    out[0] = cuda.brev(c)

clz32 = cuda.jit("void(int32[:], int32)")(count_leading)
out = np.zeros(1, np.int32)
for value, expected in ((0x00100000, 11), (0, 32), (0xFFFFFFFF, 0)):
    clz32[1, 1](out, value)
    assert out[0] == expected, (value, out[0])
brev32 = cuda.jit("void(uint32[:], uint32)")(reverse)
out = np.zeros(1, np.uint32)
brev32[1, 1](out, 0x000030F0)
assert out[0] == 0x0F0C0000
print("ok")
"""


def test_simulator_values(tmp_path):
    run_in_simulator(tmp_path, SIMULATED)
