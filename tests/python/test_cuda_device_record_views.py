"""Records of device arrays are views (numba-cuda's DeviceRecord): an element of a structured
device array, and a record field of a device record, address the device memory they are part
of, so writing their fields writes the array. Checked by address arithmetic without a GPU
(views only add offsets), and by writing and reading back on a GPU where there is one."""

import numpy as np
import pytest

from taipan import cuda
from taipan.cuda.devicearray import DeviceNDArray, DeviceRecord

INNER = np.dtype([("i", np.int32), ("j", np.float32, (3, 3))])
OUTER = np.dtype([("x", np.int32), ("y", INNER)])
FLAT = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex128)], align=True)


class _FakeBuffer:
    """Stands in for device memory: views only do address arithmetic on it."""

    pointer = 0x20000
    size = 1 << 20


def test_an_element_of_a_record_array_is_a_view_at_its_offset():
    array = DeviceNDArray((3,), None, FLAT, _FakeBuffer())
    for index in range(3):
        record = array[index]
        assert isinstance(record, DeviceRecord) and record.dtype == FLAT
        assert record.device_ctypes_pointer == _FakeBuffer.pointer + index * FLAT.itemsize
        field, _ = record._field("c")
        assert field.device_ctypes_pointer == record.device_ctypes_pointer + FLAT.fields["c"][1]
    assert array[-1].device_ctypes_pointer == array[2].device_ctypes_pointer


def test_a_record_field_of_a_record_is_a_view_too():
    array = DeviceNDArray((2,), None, OUTER, _FakeBuffer())
    inner = array[1]["y"]
    assert isinstance(inner, DeviceRecord) and inner.dtype == INNER
    start = _FakeBuffer.pointer + OUTER.itemsize + OUTER.fields["y"][1]
    assert inner.device_ctypes_pointer == start
    matrix = inner["j"]
    assert matrix.shape == (3, 3) and matrix.dtype == np.float32
    assert matrix.device_ctypes_pointer == start + INNER.fields["j"][1]


def test_numbers_are_still_read_as_numbers():
    array = DeviceNDArray((4,), None, np.int64, _FakeBuffer())
    assert array[1:].device_ctypes_pointer == _FakeBuffer.pointer + 8


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_writing_fields_of_device_records_on_the_gpu():
    flat = cuda.device_array(3, dtype=FLAT)
    for i in range(3):
        flat[i]["a"] = (i + 1) / 2
        flat[i]["b"] = i + 1
        flat[i]["c"] = (i + 1) * 1j
    host = flat.copy_to_host()
    assert list(host["a"]) == [0.5, 1.0, 1.5] and list(host["b"]) == [1, 2, 3]
    assert flat[2]["c"] == 3j
    nested = cuda.to_device(np.zeros(2, OUTER))
    nested[1]["y"]["i"] = 7
    nested[1]["y"]["j"][0, 0] = 2.0
    assert nested[1]["y"]["i"] == 7 and nested[1]["y"]["j"][0, 0] == 2.0
    assert nested.copy_to_host()[0]["y"]["i"] == 0
