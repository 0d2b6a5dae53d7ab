"""Importing another library's device array through the CUDA Array Interface
(cuda.from_cuda_array_interface, cuda.as_cuda_array): the array views the memory in place, its
stream is the producer's (an external stream), which is synchronized first unless the
consumer asked not to, and masks are refused in numba-cuda's words. Runs without a GPU: the
import itself makes no driver call but the producer stream's synchronize, stubbed here."""

import numpy as np
import pytest

from taipan import cuda
from taipan.cuda import streams


def interface(stream=None, mask=None, strides=None):
    return {
        "shape": (2, 5),
        "strides": strides,
        "typestr": "<i8",
        "data": (0x7F0000004000, False),
        "version": 3,
        "stream": stream,
        "mask": mask,
    }


@pytest.fixture
def synchronized(monkeypatch):
    handles = []
    monkeypatch.setattr(streams.Stream, "synchronize", lambda self: handles.append(self.handle))
    return handles


def test_the_array_views_the_memory_with_its_layout(synchronized):
    array = cuda.from_cuda_array_interface(interface(strides=(40, 8)))
    assert (array.shape, array.strides, array.dtype) == ((2, 5), (40, 8), np.dtype(np.int64))
    assert array.device_ctypes_pointer == 0x7F0000004000
    assert array.stream == 0 and synchronized == []
    assert array.__cuda_array_interface__["strides"] is None  # C-contiguous after all


def test_the_producers_stream_becomes_the_arrays_and_is_waited_for(synchronized):
    array = cuda.from_cuda_array_interface(interface(stream=0x1234))
    assert array.stream.external and int(array.stream) == 0x1234
    assert synchronized == [0x1234]
    cuda.from_cuda_array_interface(interface(stream=0x1234), sync=False)
    assert synchronized == [0x1234]
    # The legacy default stream: taipan's own work already follows it.
    cuda.from_cuda_array_interface(interface(stream=1))
    assert synchronized == [0x1234]


def test_as_cuda_array_keeps_the_exporter_alive(synchronized):
    class Exporter:
        __cuda_array_interface__ = interface(stream=0x99)

    exporter = Exporter()
    array = cuda.as_cuda_array(exporter)
    assert array.gpu_data.owner is exporter
    assert synchronized == [0x99] and array.stream.external
    assert not streams.Stream(5, False, "").external  # a stream taipan made (not destroyed here)


def test_masked_interfaces_are_refused():
    with pytest.raises(NotImplementedError, match="Masked arrays are not supported"):
        cuda.from_cuda_array_interface(interface(mask=object()))
    with pytest.raises(NotImplementedError, match="Masked arrays are not supported"):
        cuda.as_cuda_array(type("Masked", (), {"__cuda_array_interface__": interface(mask=1)})())


def test_the_sync_setting_turns_the_wait_off(synchronized, monkeypatch):
    from taipan import config

    monkeypatch.setattr(config, "CUDA_ARRAY_INTERFACE_SYNC", False)
    array = cuda.from_cuda_array_interface(interface(stream=0x1234))
    assert synchronized == [] and int(array.stream) == 0x1234


def test_mapped_and_managed_arrays_name_their_stream(monkeypatch):
    import types

    from taipan import _core

    memory = np.zeros(80, np.uint8)  # host memory standing in for the driver's allocation

    def allocate_host(size, kind):
        return types.SimpleNamespace(
            pointer=memory.ctypes.data, device_pointer=0x7F0000008000, size=size
        )

    monkeypatch.setattr(_core, "cuda_available", lambda: True)
    monkeypatch.setattr(_core, "cuda_allocate_host", allocate_host)
    monkeypatch.setattr(_core, "cuda_memory_info", lambda: (1 << 30, 1 << 30))
    stream = streams.Stream(0x4321, False, "")
    for make in (cuda.mapped_array, cuda.managed_array):
        array = make(10, stream=stream)
        assert array.__cuda_array_interface__["stream"] == 0x4321
        assert array[2:].__cuda_array_interface__["stream"] == 0x4321  # views keep it
        assert make(10).__cuda_array_interface__["stream"] is None
    del array


def test_device_pointers_have_the_value_of_a_ctypes_pointer():
    array = cuda.from_cuda_array_interface(interface())
    pointer = array.device_ctypes_pointer
    assert pointer == 0x7F0000004000 and pointer.value == 0x7F0000004000
    assert pointer + 8 == 0x7F0000004008 and type(pointer + 8) is int
    assert cuda.api.devicearray.DevicePointer(0).value is None  # as ctypes' null pointer
