"""A @cuda.jit kernel called from another kernel is a device function there, as numba-cuda
compiles it (and the GPU path does); from Python it must still be launched. In the simulator
(the variable is read when taipan is imported, so it runs in a child interpreter) and to PTX."""

from child_processes import run_in_simulator

from taipan import cuda, types

SIMULATED = """
import numpy as np
from taipan import cuda

@cuda.jit
def inner(x):
    return x + 1

@cuda.jit
def outer(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = inner(out[i])

a = np.arange(4.0)
outer[1, 4](a)
assert list(a) == [1.0, 2.0, 3.0, 4.0], a
try:
    inner(1)
except TypeError as error:
    assert "launch it as inner[griddim, blockdim]" in str(error)
else:
    raise AssertionError("a kernel called from Python ran")
print("ok")
"""


def test_in_the_simulator(tmp_path):
    run_in_simulator(tmp_path, SIMULATED)


@cuda.jit
def plus_one(x):
    return x + 1


def calls_a_kernel(out):
    out[0] = plus_one(out[0])


def test_compiled():
    ptx, _ = cuda.compile_ptx(calls_a_kernel, (types.float64[::1],))
    assert "add.rn.f64" in ptx or "add.f64" in ptx
