"""Device arrays captured by kernels (globals and closure variables exporting the CUDA Array
Interface, as numba-cuda captures them): referenced in place, not frozen. Here (no GPU): the
PTX addresses the array's memory with its layout, ptxas takes it, host code refuses it naming
the user's line, and such kernels are never cached; on a GPU kernels read and write the
captured arrays (numba-cuda's test_device_array_capture)."""

import pickle

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda, float32, int32, jit, void
from taipan.errors import UnsupportedError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


class Exported:
    """Another library's device array: only its __cuda_array_interface__."""

    def __init__(self, address, shape, typestr="<f4", strides=None, readonly=False):
        self.__cuda_array_interface__ = {
            "shape": shape,
            "strides": strides,
            "typestr": typestr,
            "data": (address, readonly),
            "version": 3,
            "stream": None,
        }


def kernel_ptx(function, signature):
    ptx, _ = cuda.compile_ptx(function, signature)
    return ptx


@needs_ptxas
def test_a_captured_array_is_addressed_in_place(tmp_path):
    base = 0x7F0000001000
    vector = Exported(base, (5,))
    matrix = Exported(base + 0x100, (8, 16), "<f8", strides=(16, 8))  # every other column

    def kernel(out):
        i = cuda.grid(1)
        out[i] = vector[i] + matrix[1, 1]
        vector[i] = 1.0

    ptx = kernel_ptx(kernel, (float32[::1],))
    assert str(base) in ptx  # vector[i]: the array's own address plus i * 4
    assert str(base + 0x100 + 16 + 8) in ptx  # matrix[1, 1] with the array's strides
    assert "ld.f64" in ptx and "st.u32" in ptx  # read and written where it is
    ptxas(ptx, tmp_path)


def test_each_array_is_its_own_code():
    first, second = Exported(0x7F0000010000, (4,), "<i4"), Exported(0x7F0000020000, (4,), "<i4")

    def reads_first(out):
        out[0] = first[3]

    def reads_second(out):
        out[0] = second[3]

    assert str(0x7F0000010000 + 12) in kernel_ptx(reads_first, (int32[::1],))
    assert str(0x7F0000020000 + 12) in kernel_ptx(reads_second, (int32[::1],))


def test_captured_from_a_closure_in_a_device_function():
    def make(array):
        @cuda.jit(device=True)
        def read(i):
            return array[i] * 2

        def kernel(out):
            out[0] = read(2)

        return kernel

    ptx = kernel_ptx(make(Exported(0x7F0000030000, (3,), "<i4")), (int32[::1],))
    assert str(0x7F0000030000 + 8) in ptx


def test_host_code_refuses_a_device_array():
    array = Exported(0x7F0000001000, (5,))

    @jit
    def host(i):
        return array[i]

    with pytest.raises(UnsupportedError, match="'array' is a device array") as info:
        host(1)
    assert "return array[i]" in str(info.value)


def test_kernels_capturing_device_arrays_are_not_cached(tmp_path, monkeypatch):
    # cache=True refuses such a kernel with numba-cuda's PicklingError (was a warning, and an
    # uncached kernel), and writes nothing.
    monkeypatch.setattr(taipan.config, "CACHE_DIR", str(tmp_path))
    array = Exported(0x7F0000001000, (5,))

    @cuda.jit(cache=True)
    def kernel(out):
        out[0] = array[0]

    with pytest.raises(pickle.PicklingError, match="Cannot cache .*global device arrays"):
        kernel.specialize_for([float32[::1]])
    assert not list(tmp_path.rglob("*.taipan"))
    uncached = cuda.jit(kernel.py_func).specialize_for([float32[::1]])
    assert "global device arrays" in uncached.process_specific


@needs_gpu
def test_kernels_read_and_write_captured_device_arrays():
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    captured = cuda.to_device(host)
    foreign = Exported(captured.__cuda_array_interface__["data"][0], (2, 3))  # the same memory

    @cuda.jit(void(float32[::1]))
    def kernel(out):
        i = cuda.grid(1)
        if i < 6:
            out[i] = captured[i // 3, i % 3] + foreign[i // 3, i % 3]
            captured[i // 3, i % 3] = -1.0

    out = cuda.device_array(6, np.float32)
    kernel[1, 6](out)
    np.testing.assert_array_equal(out.copy_to_host(), 2 * host.ravel())
    np.testing.assert_array_equal(captured.copy_to_host(), np.full((2, 3), -1.0, np.float32))


class _HostArrayWithInterface(np.ndarray):
    """A NumPy array that exports the interface too (as mapped arrays do): a host array first."""

    @property
    def __cuda_array_interface__(self):
        return Exported(0x7F0000001000, self.shape).__cuda_array_interface__


def test_numpy_arrays_exporting_the_interface_stay_frozen_host_arrays():
    frozen = np.arange(4.0).view(_HostArrayWithInterface)

    @jit
    def host(i):
        return frozen[i]

    assert host(2) == 2.0
