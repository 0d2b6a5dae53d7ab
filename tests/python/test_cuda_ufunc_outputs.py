"""NumPy ufuncs with output arguments inside CUDA kernels (numba-cuda's test_ufuncs form:
`np.sin(a0, a1)` in a kernel launched [1, 1]): scalar and array inputs, 1-3-d C and F arrays,
the casting rules. A kernel cannot allocate, so an input that partly overlaps the output (which
NumPy reads from a copy) raises ValueError instead of a result NumPy would not give. PTX goes
through ptxas here; the values are compared with NumPy on a GPU."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda
from taipan.errors import TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def unary(a0, a1):
    np.sin(a0, a1)


def absolute(a0, a1):
    np.absolute(a0, a1)


def add(a0, a1, a2):
    np.add(a0, a1, a2)


def less(a0, a1, a2):
    np.less(a0, a1, a2)


def divmod_(a0, a1, a2, a3):
    np.divmod(a0, a1, a2, a3)


CASES = [
    (unary, "void(float64, float64[::1])"),
    (unary, "void(float32[::1], float32[::1])"),
    (unary, "void(float64[:, :], float64[:, :])"),
    (unary, "void(float64[:, :, ::1], float64[:, :, ::1])"),
    (unary, "void(float64[::1, :], float64[::1, :])"),
    (absolute, "void(int8[::1], int8[::1])"),
    (absolute, "void(int64, int64[::1])"),
    (add, "void(int64, uint64, float64[::1])"),
    (add, "void(uint16[::1], uint16[::1], uint16[::1])"),
    (add, "void(float32[:], float64[:], float64[:])"),
    (less, "void(int64, uint64, boolean[::1])"),
    (less, "void(int64[::1], uint64[::1], boolean[::1])"),
    (divmod_, "void(int32[::1], int32[::1], int32[::1], int32[::1])"),
]


@needs_ptxas
@pytest.mark.parametrize("function, signature", CASES, ids=[f"{f.__name__}-{s}" for f, s in CASES])
def test_ufunc_with_outputs_compiles_for_the_gpu(function, signature, tmp_path):
    ptx, _ = cuda.compile_ptx(function, signature)
    ptxas(ptx, tmp_path)


def test_an_output_numpy_cannot_cast_to_is_a_typing_error():
    with pytest.raises(TypingError, match="same_kind") as raised:
        cuda.compile_ptx(add, "void(int64, uint64, boolean[::1])")
    assert "np.add(a0, a1, a2)" in str(raised.value)


def test_the_overlap_check_costs_nothing_without_array_inputs():
    ptx, _ = cuda.compile_ptx(unary, "void(float64, float64[::1])")
    assert "taipan_cuda_exception" not in ptx.split(".entry")[1]


def run_kernel(function, *arguments):
    signature = tuple(taipan.typeof(argument) for argument in arguments)
    cuda.jit(signature)(function)[1, 1](*arguments)


@needs_gpu
@pytest.mark.parametrize(
    "dtype", [np.int8, np.int32, np.uint64, np.float32, np.float64], ids=lambda d: d.__name__
)
def test_values_match_numpy(dtype):
    data = np.array([0, 1, 2, 3, 5, 7], dtype=dtype)
    for function, arity in ((add, 2), (less, 2), (absolute, 1)):
        arguments = (data,) * arity
        expected = [np.zeros(data.shape, dtype=np.float64)]
        function(*arguments, *expected)
        result = [np.zeros(data.shape, dtype=np.float64)]
        run_kernel(function, *arguments, *result)
        np.testing.assert_array_equal(result[0], expected[0])


@needs_gpu
def test_scalars_broadcast_into_fortran_and_3d_outputs():
    for shape, order in (((5, 10), "F"), ((2, 5, 5), "C")):
        expected = np.zeros(shape, order=order)
        result = np.zeros(shape, order=order)
        unary(0.5, expected)
        run_kernel(unary, 0.5, result)
        np.testing.assert_allclose(result, expected, rtol=1e-15)


@needs_gpu
def test_partial_overlap_raises_in_a_debug_kernel():
    data = np.arange(8.0)
    kernel = cuda.jit("void(float64[:], float64[:])", debug=True, opt=False)(unary)
    on_device = cuda.to_device(data)
    kernel[1, 1](on_device, on_device)  # the same items in the same order: NumPy needs no copy
    np.testing.assert_allclose(on_device.copy_to_host(), np.sin(np.arange(8.0)))
    # (Host arrays are copied to the device one by one: only device views can overlap.)
    with pytest.raises(ValueError, match="overlaps"):
        kernel[1, 1](on_device[1:], on_device[:-1])
