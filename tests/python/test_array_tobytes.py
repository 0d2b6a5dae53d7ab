"""a.tobytes() in compiled code (Numba's Bytes): the array's items raveled in C order as a new
run of bytes, whatever the array's layout; it has len() and indexing, and returns to Python as
bytes."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

BASE = np.arange(24)

ARRAYS = [
    BASE,
    BASE.reshape(3, 8),
    BASE.reshape(3, 8).T,
    BASE.reshape(3, 8)[::2],
    BASE.reshape(2, 3, 4).T,
    BASE.reshape(2, 3, 4)[::2, :, 1:3],
    np.array([0]).reshape(()),
    np.arange(0, dtype=np.float64),
    np.linspace(-1, 1, 7, dtype=np.float32),
    np.array([True, False, True]),
    np.arange(4, dtype=np.int8) - 2,
    np.arange(3) + 1j,
    np.asfortranarray(np.arange(6, dtype=np.uint16).reshape(2, 3)),
]


@taipan.njit
def to_bytes(a):
    return a.tobytes()


@taipan.njit
def length_and_ends(a):
    b = a.tobytes()
    if len(b) == 0:
        return 0, -1, -1
    return len(b), b[0], b[-1]


@pytest.mark.parametrize("array", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
def test_tobytes_is_numpys_bytes(array):
    before = live_blocks()
    got = to_bytes(array)
    assert type(got) is bytes
    assert got == array.tobytes()
    del got
    assert live_blocks() == before


@pytest.mark.parametrize("array", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
def test_len_and_items_of_bytes(array):
    expected = array.tobytes()
    want = (len(expected), expected[0], expected[-1]) if expected else (0, -1, -1)
    before = live_blocks()
    assert length_and_ends(array) == want
    assert live_blocks() == before


def test_bytes_index_out_of_range_raises():
    @taipan.njit
    def item(a, i):
        return a.tobytes()[i]

    a = np.arange(2, dtype=np.int8)
    assert item(a, 1) == 1 and item(a, -2) == 0
    before = live_blocks()
    with pytest.raises(IndexError, match="index out of range"):
        item(a, 2)
    with pytest.raises(IndexError, match="index out of range"):
        item(a, -3)
    assert live_blocks() == before


def test_bytes_index_must_be_an_integer():
    @taipan.njit
    def item(a):
        return a.tobytes()[0.5]

    with pytest.raises(TypingError, match="bytes indices must be integers"):
        item(np.arange(2))


def test_tobytes_of_datetimes_is_refused_at_typing():
    with pytest.raises(TypingError, match="tobytes"):
        to_bytes(np.zeros(2, "M8[s]"))
