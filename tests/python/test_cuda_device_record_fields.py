"""Fields of records in device arrays, read and written through views (numba-cuda's
test_cuda_devicerecord): every field kind, a str field included (a dtype kernels do not take,
which a view may still hold). Runs without a GPU: device memory is stood in for by host
memory, the extension's allocator and copies by memmove."""

import ctypes

import numpy as np
import pytest

from taipan import _core
from taipan.cuda import devicearray


class _HostBuffer:
    """What the extension's allocator returns, its memory in host RAM."""

    def __init__(self, size):
        self.memory = np.zeros(max(size, 1), np.uint8)
        self.pointer = self.memory.ctypes.data
        self.device = 0


@pytest.fixture
def host_memory(monkeypatch):
    def to_device(destination, source, stream=None):
        data = np.ascontiguousarray(source).tobytes()
        ctypes.memmove(destination, data, len(data))

    def to_host(destination, source, stream=None):
        ctypes.memmove(destination.ctypes.data, source, destination.nbytes)

    monkeypatch.setattr(_core, "cuda_allocate", lambda size, stream, owner: _HostBuffer(size))
    monkeypatch.setattr(_core, "cuda_copy_to_device", to_device)
    monkeypatch.setattr(_core, "cuda_copy_to_host", to_host)
    monkeypatch.setattr(_core, "cuda_synchronize_stream", lambda stream: None)
    monkeypatch.setattr(_core, "cuda_available", lambda: True)


RECORD = np.dtype(
    [("a", np.float64), ("b", np.int32), ("c", np.complex64), ("d", (np.str_, 5))], align=True
)
NESTED = np.dtype([("x", np.int32), ("y", [("i", np.int32), ("j", np.float32, (3, 3))])])


def test_every_field_kind_is_written_and_read_in_place(host_memory):
    array = devicearray.DeviceNDArray((3,), None, RECORD)
    for i in range(3):
        x = i + 1
        array[i]["a"] = x / 2
        array[i]["b"] = x
        array[i]["c"] = x * 1j
        array[i]["d"] = str(x) * 5
    for i in range(3):
        x = i + 1
        assert (array[i]["a"], array[i]["b"], array[i]["c"]) == (x / 2, x, x * 1j)
        assert array[i]["d"] == str(x) * 5
    expected = np.array([(x / 2, x, x * 1j, str(x) * 5) for x in (1, 2, 3)], RECORD)
    assert array.copy_to_host().tobytes() == expected.tobytes()


def test_nested_records_and_array_fields_are_views(host_memory):
    array = devicearray.DeviceNDArray((1,), None, NESTED)
    array[0]["y"]["i"] = 1
    array[0]["y"]["j"][0, 0] = 2.0
    assert array[0]["y"]["i"] == 1 and array[0]["y"]["j"][0, 0] == 2.0
    assert array.copy_to_host()[0]["y"]["j"][0, 0] == 2.0


def test_a_str_field_view_has_no_kernel_argument(host_memory):
    record = devicearray.DeviceNDArray((1,), None, RECORD)[0]
    view = record._field("d")[0]
    assert not hasattr(view, "_launch")  # the launcher's Python path reports it


def test_an_assignment_without_a_stream_waits_through_the_default_stream(host_memory, monkeypatch):
    from taipan.cuda import streams

    waited = []
    monkeypatch.setattr(streams.Stream, "synchronize", lambda self: waited.append(self.handle))
    array = devicearray.DeviceNDArray((5,), None, np.int64)
    array[0] = 10
    assert waited == [0] and array[0] == 10
    array.setitem(1, 11, stream=streams.Stream(0x77, False, "external"))
    assert waited == [0]  # a given stream is not waited for
