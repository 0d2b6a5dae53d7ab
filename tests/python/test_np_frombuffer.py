"""np.frombuffer of an array's bytes (numpy_library/buffers.py): dtypes given as classes,
np.dtype objects (also as arguments) and string constants, count and offset with NumPy's rules
and messages, views that write through and keep the buffer alive; a.repeat(); Numba's
TypingErrors at the user's line. Compared with NumPy; counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def frombuffer(b):
    return np.frombuffer(b)


@taipan.njit
def frombuffer_of(b, dtype, count, offset):
    return np.frombuffer(b, dtype=dtype, count=count, offset=offset)


@taipan.njit
def frombuffer_complex64(b):
    return np.frombuffer(b, dtype="complex64")


@taipan.njit
def frombuffer_of_new(shape):
    return np.frombuffer(np.ones(shape), dtype=np.complex64)


def same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


BUFFERS = [
    np.arange(24, dtype=np.uint8),
    np.arange(12),
    np.arange(12.0).reshape(3, 4),
    np.arange(24, dtype=np.int32).reshape(2, 3, 4),
    np.array(7.0),
    np.zeros(0),
]


def test_frombuffer_reads_the_bytes():
    before = live_blocks()
    for b in BUFFERS:
        for f in (frombuffer, frombuffer_complex64):
            try:
                expected = f.py_func(b)
            except ValueError as error:
                with pytest.raises(ValueError, match=str(error)):
                    f(b)
                continue
            same(f(b), expected)
    for shape in [(16,), (4, 4), (1, 0, 1)]:
        same(frombuffer_of_new(shape), frombuffer_of_new.py_func(shape))
    assert live_blocks() == before


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.dtype("f4"), np.float64, np.bool_])
def test_frombuffer_count_and_offset(dtype):
    b = np.arange(24, dtype=np.uint8)
    before = live_blocks()
    for count, offset in [(-1, 0), (-3, 0), (0, 0), (3, 2), (-1, 8), (2, 24), (-1, 24), (1, 23)]:
        try:
            expected = np.frombuffer(b, dtype=dtype, count=count, offset=offset)
        except ValueError as error:
            with pytest.raises(ValueError) as info:
                frombuffer_of(b, dtype, count, offset)
            assert str(info.value) == str(error)
            continue
        same(frombuffer_of(b, dtype, count, offset), expected)
    for count, offset in [(25, 0), (-1, 25), (-1, -1), (1, 24)]:
        with pytest.raises(ValueError) as info:
            np.frombuffer(b, dtype=dtype, count=count, offset=offset)
        with pytest.raises(ValueError) as got:
            frombuffer_of(b, dtype, count, offset)
        assert str(got.value) == str(info.value)
    assert live_blocks() == before


def test_frombuffer_is_a_view_that_keeps_the_buffer():
    before = live_blocks()

    @taipan.njit
    def view_of_new():
        b = np.zeros(4)
        v = np.frombuffer(b, dtype=np.uint8)
        b[0] = 1.0
        return v

    got = view_of_new()
    np.testing.assert_array_equal(got, view_of_new.py_func())
    del got
    b = np.zeros(3)
    v = frombuffer(b)
    v[1] = 5.0
    assert b[1] == 5.0
    del v
    assert live_blocks() == before


def test_frombuffer_of_non_contiguous_arrays_raises():
    for b in (np.arange(8.0)[::2], np.asfortranarray(np.ones((2, 3)))):
        with pytest.raises(ValueError, match="ndarray is not C-contiguous"):
            np.frombuffer(b)
        with pytest.raises(ValueError, match="ndarray is not C-contiguous"):
            frombuffer(b)


def test_frombuffer_refusals_name_the_users_line():
    with pytest.raises(TypingError, match='Argument "buffer" must be buffer-like') as info:
        frombuffer(None)
    assert "test_np_frombuffer.py" in str(info.value)

    @taipan.njit
    def dtype_not_constant(b, d):
        return np.frombuffer(b, dtype=d)

    with pytest.raises(TypingError, match="must be a string constant") as info:
        dtype_not_constant(np.zeros(2), "int32")
    assert "test_np_frombuffer.py" in str(info.value)


@taipan.njit
def empty_of(n, dtype):
    return np.empty(n, dtype)


def test_dtype_objects_as_arguments():
    for dtype in (np.dtype("int32"), np.dtype("f4"), np.dtype(np.complex128), np.dtype("?")):
        got = empty_of(3, dtype)
        assert got.dtype == dtype and got.shape == (3,)


@taipan.njit
def repeat_method(a, repeats):
    return a.repeat(repeats)


@taipan.njit
def repeat_method_axis(a, repeats, axis):
    return a.repeat(repeats, axis)


def test_repeat_method():
    before = live_blocks()
    for a in (np.arange(6.0), np.arange(6).reshape(2, 3), np.array(2.5), np.zeros(0)):
        for repeats in (0, 2, np.int8(3)):
            same(repeat_method(a, repeats), a.repeat(repeats))
    a = np.arange(6).reshape(2, 3)
    counts = np.array([1, 0, 2, 1, 3, 0])
    same(repeat_method(a, counts[::-1]), a.repeat(counts[::-1]))
    with pytest.raises(ValueError):
        repeat_method(a, counts[:2])
    same(repeat_method_axis(a, np.array([1, 0, 2]), 1), a.repeat(np.array([1, 0, 2]), 1))
    same(repeat_method_axis(np.asfortranarray(a), 2, 0), a.repeat(2, 0))
    assert live_blocks() == before
