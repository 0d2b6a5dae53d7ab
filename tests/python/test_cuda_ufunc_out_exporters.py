"""What a CUDA ufunc or gufunc returns for ``out=``: an array of its own (a device array, CuPy's,
PyTorch's: it has a shape and a dtype) comes back as given; an object that only exports the CUDA
Array Interface comes back as the device array viewing its memory, as numba-cuda returns, so
the caller can use the result (``copy_to_host``). GPU-only."""

import numpy as np
import pytest

from taipan import cuda
from taipan.cuda.api.ufuncs import is_array_object

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


class Exporter:
    """Only the interface: no shape, no dtype of its own."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = array.__cuda_array_interface__


class ArrayLike(Exporter):
    """An array of another library: the interface and an array's attributes."""

    @property
    def shape(self):
        return self.array.shape

    @property
    def dtype(self):
        return self.array.dtype


def test_what_counts_as_an_array_of_its_own():
    assert is_array_object(np.zeros(2))
    assert not is_array_object(object())


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_a_ufunc_returns_a_bare_exporter_as_a_device_array(dtype):
    @cuda.vectorize([f"{np.dtype(dtype).name}({np.dtype(dtype).name}, {np.dtype(dtype).name})"])
    def add(a, b):
        return a + b

    host = np.arange(10, dtype=dtype)
    out = Exporter(cuda.device_array(10, dtype))
    returned = add(host, host, out=out)
    assert isinstance(returned, cuda.devicearray.DeviceNDArray)
    assert returned.device_ctypes_pointer.value == out.array.device_ctypes_pointer.value
    np.testing.assert_array_equal(returned.copy_to_host(), host + host)
    np.testing.assert_array_equal(out.array.copy_to_host(), host + host)


@needs_gpu
def test_a_ufunc_returns_an_array_of_its_own_as_given():
    @cuda.vectorize(["float64(float64)"])
    def double(a):
        return 2 * a

    host = np.arange(5.0)
    device_out = cuda.device_array(5)
    assert double(host, out=device_out) is device_out
    like = ArrayLike(cuda.device_array(5))
    assert double(host, out=like) is like
    np.testing.assert_array_equal(like.array.copy_to_host(), 2 * host)


@needs_gpu
def test_a_gufunc_returns_a_bare_exporter_as_a_device_array():
    @cuda.guvectorize(["(f8, f8, f8[:])"], "(),()->()")
    def add(a, b, out):
        out[0] = a + b

    host = np.random.random(10)
    out = Exporter(cuda.device_array(10))
    returned = add(host, np.float64(7), out=out)
    assert isinstance(returned, cuda.devicearray.DeviceNDArray)
    assert returned.device_ctypes_pointer.value == out.array.device_ctypes_pointer.value
    np.testing.assert_array_equal(returned.copy_to_host(), host + 7)
    device_out = cuda.device_array(10)
    assert add(host, np.float64(1), out=device_out) is device_out
    np.testing.assert_array_equal(device_out.copy_to_host(), host + 1)


@needs_gpu
def test_a_ufunc_given_a_bare_exporter_as_input_returns_a_device_array():
    @cuda.vectorize(["float64(float64, float64)"])
    def add(a, b):
        return a + b

    host = np.random.random(10)
    returned = add(Exporter(cuda.to_device(host)), 6)
    assert isinstance(returned, cuda.devicearray.DeviceNDArray)
    np.testing.assert_array_equal(returned.copy_to_host(), host + 6)
