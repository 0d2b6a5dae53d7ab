"""a.ctypes.data in compiled code: the address of the array's first item, as NumPy's (C, F,
strided views, empty and 0-d arrays, every dtype), usable as the void* argument of a ctypes
function (an integer address is what ctypes' c_void_p takes); a.ctypes keeps nothing alive
beyond the array. Counters checked."""

import ctypes

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def address(a):
    return a.ctypes.data


def arrays():
    base = np.arange(24, dtype=np.float64).reshape(4, 6)
    yield base
    yield np.asfortranarray(base)
    yield base[1:, ::2]
    yield base.T[3]
    yield np.zeros(0, np.int8)
    yield np.array(3 + 4j)
    yield np.array([True, False])


def test_address_is_numpys():
    before = live_blocks()
    for a in arrays():
        assert address(a) == a.ctypes.data
    assert live_blocks() == before


@ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_void_p, ctypes.c_int32)
def total(pointer, size):
    items = (ctypes.c_double * size).from_address(pointer)
    return float(sum(items))


@ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)
def copy_first(source, target):
    (ctypes.c_double * 1).from_address(target)[0] = (ctypes.c_double * 1).from_address(source)[0]
    return True


@taipan.njit
def sum_through_ctypes(n):
    a = np.arange(n) * 1.5
    return total(a.ctypes.data, n)


@taipan.njit
def copy_through_ctypes(a):
    out = np.full(1, np.nan)
    status = copy_first(a.ctypes.data, out.ctypes.data)
    return status, out[0]


def test_address_as_a_void_pointer_argument():
    before = live_blocks()
    assert sum_through_ctypes(5) == sum(np.arange(5) * 1.5)
    status, first = copy_through_ctypes(np.array([-0.0, 2.0]))
    assert status and first == 0.0 and np.signbit(first)
    assert live_blocks() == before


@ctypes.CFUNCTYPE(ctypes.c_double, ctypes.POINTER(ctypes.c_double))
def typed_pointer(pointer):
    return pointer[0]


@taipan.njit
def integer_for_typed_pointer(a):
    return typed_pointer(a.ctypes.data)


def test_integer_is_refused_for_a_typed_pointer():
    with pytest.raises(TypingError, match="must be"):
        integer_for_typed_pointer(np.ones(2))
