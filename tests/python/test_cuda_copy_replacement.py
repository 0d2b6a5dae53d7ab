"""Replacing the synchronous copies between host and device (``_core.cuda_replace_copies``),
which numba-cuda's tests do by assigning their driver object's ``cuMemcpyHtoD`` and
``cuMemcpyDtoH`` (the shim forwards those): the replacement is called as the driver's function
would be, instead of it, for copies without a stream; a direction left None, and every copy
after the replacement is removed, goes to the driver. GPU-only."""

import numpy as np
import pytest

from taipan import _core, cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


class Refused(Exception):
    pass


@pytest.fixture
def replaced():
    def install(to_device=None, to_host=None):
        _core.cuda_replace_copies(to_device, to_host)

    yield install
    _core.cuda_replace_copies(None, None)


@needs_gpu
def test_the_replacement_is_called_as_the_drivers_functions(replaced):
    calls = []
    host = np.arange(6, dtype=np.float64)
    device = cuda.to_device(host)
    replaced(
        lambda *args: calls.append(("HtoD", *args)), lambda *args: calls.append(("DtoH", *args))
    )
    device.copy_to_device(np.zeros(6))
    out = np.full(6, -1.0)
    device.copy_to_host(out)
    pointer = device.device_ctypes_pointer.value
    assert [call[0] for call in calls] == ["HtoD", "DtoH"]
    assert calls[0][1] == pointer and calls[0][3] == 48
    assert calls[1][1] == out.ctypes.data and calls[1][2] == pointer and calls[1][3] == 48
    # The replacement copied nothing: the device still holds the first values, out is as was.
    assert (out == -1.0).all()
    _core.cuda_replace_copies(None, None)
    np.testing.assert_array_equal(device.copy_to_host(), host)


@needs_gpu
def test_a_raising_replacement_stops_the_copy_with_its_error(replaced):
    def refuse(*args):
        raise Refused

    device = cuda.to_device(np.arange(4.0))
    replaced(refuse, refuse)
    with pytest.raises(Refused):
        device.copy_to_host()
    with pytest.raises(Refused):
        cuda.to_device(np.arange(3))


@needs_gpu
def test_a_direction_left_to_the_driver_copies(replaced):
    host = np.arange(5, dtype=np.int32)
    device = cuda.to_device(host)
    replaced(to_device=lambda *args: None)
    np.testing.assert_array_equal(device.copy_to_host(), host)


@needs_gpu
def test_device_arrays_through_a_ufunc_copy_nothing(replaced):
    @cuda.vectorize(["float32(float32)"])
    def plus_one(x):
        return x + 1.0

    noise = cuda.to_device(np.random.randn(3, 64).astype(np.float32))

    def refuse(*args):
        raise Refused

    replaced(refuse, refuse)
    result = plus_one(noise)
    _core.cuda_replace_copies(None, None)
    np.testing.assert_allclose(result.copy_to_host(), noise.copy_to_host() + 1)


@needs_gpu
def test_copies_on_a_stream_are_not_replaced(replaced):
    host = np.arange(8, dtype=np.float32)
    stream = cuda.stream()

    def refuse(*args):
        raise Refused

    replaced(refuse, refuse)
    device = cuda.to_device(host, stream=stream)
    back = device.copy_to_host(stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(back, host)
