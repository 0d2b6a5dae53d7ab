"""memoryview and bytearray arguments (Numba's MemoryView and ByteArray buffer types): typed as
the array NumPy makes of the buffer (format, shape, strides; read-only when the buffer is),
read and written in place, and views of them returned as arrays whose base keeps the buffer."""

import random

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


def test_shuffle_in_place_as_numpy_and_python_do():
    @taipan.njit
    def numpy_shuffle(buffer):
        np.random.seed(5)
        np.random.shuffle(buffer)

    @taipan.njit
    def python_shuffle(buffer):
        random.seed(5)
        random.shuffle(buffer)

    for function in (numpy_shuffle, python_shuffle):
        values = np.arange(20)
        shuffled = values.copy()
        function(memoryview(shuffled))
        expected = values.copy()
        function.py_func(expected)
        np.testing.assert_array_equal(shuffled, expected)


def test_read_only_buffers_are_typed_read_only():
    @taipan.njit
    def shuffle(buffer):
        np.random.shuffle(buffer)

    with pytest.raises(taipan.TypingError):
        shuffle(memoryview(b"xyz"))
    with pytest.raises(taipan.TypingError):
        shuffle(memoryview(np.arange(3)).toreadonly())
    assert taipan.typeof(memoryview(b"xyz")).readonly
    assert not taipan.typeof(bytearray(b"xyz")).readonly


@pytest.mark.parametrize(
    "make",
    [
        lambda: memoryview(np.arange(6.0)),
        lambda: memoryview(np.arange(12, dtype=np.int32).reshape(3, 4)),
        lambda: memoryview(np.arange(10.0)[::3]),
        lambda: bytearray(b"taipan"),
        lambda: memoryview(b"read only"),
    ],
    ids=["float", "int32-2d", "strided", "bytearray", "bytes"],
)
def test_reads_match_numpy_of_the_buffer(make):
    @taipan.njit
    def summary(buffer):
        a = np.asarray(buffer)
        return a.sum(), a.shape, a.strides, len(buffer)

    before = live_blocks()
    got = summary(make())
    as_array = np.asarray(make())
    assert got == (as_array.sum(), as_array.shape, as_array.strides, len(as_array))
    assert live_blocks() == before


def test_writes_reach_the_buffer():
    @taipan.njit
    def double(buffer):
        for i in range(len(buffer)):
            buffer[i] *= 2

    data = bytearray(b"\x01\x02\x03")
    double(data)
    assert data == bytearray(b"\x02\x04\x06")
    values = np.arange(4.0)
    double(memoryview(values)[1:])
    np.testing.assert_array_equal(values, [0.0, 2.0, 4.0, 6.0])


def test_a_returned_view_keeps_the_buffer_alive():
    @taipan.njit
    def middle(buffer):
        return buffer[1:3]

    data = bytearray(b"abcd")
    view = middle(data)
    del data
    assert isinstance(view, np.ndarray) and bytes(view) == b"bc"
    view[0] = ord("x")
    assert isinstance(view.base, (bytearray, memoryview))


def test_arrays_and_buffers_share_a_specialisation():
    function = taipan.njit(lambda a: a[0] + a[-1])
    values = np.arange(5.0)
    assert function(values) == function(memoryview(values)) == 4.0
    assert len(function.signatures) == 1


def test_buffers_numpy_cannot_read_are_refused():
    @taipan.njit
    def first(buffer):
        return buffer[0]

    with pytest.raises(taipan.TypingError, match="cannot determine the type"):
        first(memoryview(np.array(["ab"], dtype=object)))
