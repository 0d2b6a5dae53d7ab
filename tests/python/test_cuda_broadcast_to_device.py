"""cuda.to_device of broadcast (zero-stride) and empty host arrays keeps their layout, as
numba-cuda does (its test_cuda_ndarray's broadcast typing and issue 8477): a broadcast
array's memory on the device is its core's elements once each, its broadcast axes keep
stride 0 (a layout "A" array); an empty array keeps its strides. Copies back give the
broadcast values. Runs without a GPU: device memory is stood in for by host memory, the
extension's allocator and copies by memmove."""

import ctypes

import numpy as np
import pytest

from taipan import _core
from taipan.cuda import devicearray


class _HostBuffer:
    """What the extension's allocator returns, its memory in host RAM."""

    def __init__(self, size):
        self.size = size
        self.memory = np.zeros(max(size, 1), np.uint8)
        self.pointer = self.memory.ctypes.data
        self.device = 0


@pytest.fixture
def host_memory(monkeypatch):
    allocations = []

    def allocate(size, stream, owner):
        allocations.append(size)
        return _HostBuffer(size)

    def to_device(destination, source, stream=None):
        data = np.ascontiguousarray(source).tobytes()
        ctypes.memmove(destination, data, len(data))

    def to_host(destination, source, stream=None):
        ctypes.memmove(destination.ctypes.data, source, destination.nbytes)

    monkeypatch.setattr(_core, "cuda_allocate", allocate)
    monkeypatch.setattr(_core, "cuda_copy_to_device", to_device)
    monkeypatch.setattr(_core, "cuda_copy_to_host", to_host)
    monkeypatch.setattr(_core, "cuda_synchronize_stream", lambda stream: None)
    monkeypatch.setattr(_core, "cuda_available", lambda: True)
    return allocations


@pytest.mark.parametrize(
    "host",
    [
        np.broadcast_to(np.array([7], np.int64), (10,)),
        np.broadcast_to(np.arange(3.0), (4, 3)),
        np.broadcast_to(np.arange(4, dtype=np.int32).reshape(4, 1), (4, 5)),
        np.broadcast_to(np.arange(6.0).reshape(2, 1, 3), (2, 4, 3)),
        np.broadcast_to(np.arange(6.0).reshape(2, 3).T[:, None, :], (3, 5, 2)),  # F core
        np.broadcast_to(np.float32(2.5), (3, 2)),  # every axis broadcast
    ],
)
def test_broadcast_arrays_keep_zero_strides_and_copy_back(host_memory, host):
    device = devicearray.to_device(host)
    assert device.shape == host.shape
    assert [s == 0 for s in device.strides] == [s == 0 for s in host.strides]
    core = devicearray.api.devicearray.array_core(host)
    assert host_memory == [core.size * host.dtype.itemsize]  # the core's memory only
    assert device._numba_type_.layout == "A"
    np.testing.assert_array_equal(device.copy_to_host(), host)
    into = np.zeros(host.shape, host.dtype)
    device.copy_to_host(into)
    np.testing.assert_array_equal(into, host)


def test_empty_arrays_keep_their_strides(host_memory):
    host = np.ndarray(shape=(0,), strides=(0,), dtype=np.int8)
    device = devicearray.to_device(host)
    assert (device.shape, device.strides) == ((0,), (0,))
    assert device.copy_to_host().shape == (0,)
    empty_2d = np.zeros((0, 3), np.float64)
    assert devicearray.to_device(empty_2d).strides == empty_2d.strides


def test_dense_and_strided_arrays_are_still_copied_dense(host_memory):
    dense = np.arange(12.0).reshape(3, 4)
    assert devicearray.to_device(dense).strides == dense.strides
    strided = np.arange(12.0)[::2]
    device = devicearray.to_device(strided)
    assert device.strides == (8,)
    np.testing.assert_array_equal(device.copy_to_host(), strided)


def test_a_copy_without_a_stream_waits_for_another_librarys_stream(host_memory, monkeypatch):
    from taipan import cuda

    waited = []
    monkeypatch.setattr(_core, "cuda_synchronize_stream", waited.append)

    class CoreStream:  # cuda.core's: possibly non-blocking, so the legacy stream does not wait
        def __cuda_stream__(self):
            return (0, 0x7000)

    foreign = devicearray.to_device(np.arange(4.0), stream=CoreStream())
    mine = devicearray.to_device(np.arange(4.0), stream=cuda.external_stream(0x8000))
    waited.clear()
    np.testing.assert_array_equal(foreign.copy_to_host(), np.arange(4.0))
    np.testing.assert_array_equal(mine.copy_to_host(), np.arange(4.0))
    assert waited == [0x7000, 0x8000]
    devicearray.to_device(np.arange(4.0)).copy_to_host()  # the default stream: no wait
    assert waited == [0x7000, 0x8000]
