"""C's type names as Numba spells them (``types.ulonglong``, ``intc``, ``size_t``...): each is the
integer type of the platform's C type, exported by taipan and taipan.types as Numba exports them
from numba and numba.core.types, and usable wherever a type is (signatures, arrays, kernels)."""

import ctypes

import numpy as np
import pytest

import taipan
from taipan import cuda, njit, types

C_TYPES = {
    "char": (ctypes.c_char, True),
    "uchar": (ctypes.c_ubyte, False),
    "byte": (ctypes.c_ubyte, False),
    "short": (ctypes.c_short, True),
    "ushort": (ctypes.c_ushort, False),
    "intc": (ctypes.c_int, True),
    "uintc": (ctypes.c_uint, False),
    "long_": (ctypes.c_long, True),
    "ulong": (ctypes.c_ulong, False),
    "longlong": (ctypes.c_longlong, True),
    "ulonglong": (ctypes.c_ulonglong, False),
    "ssize_t": (ctypes.c_ssize_t, True),
    "size_t": (ctypes.c_size_t, False),
    "intp": (ctypes.c_ssize_t, True),
    "uintp": (ctypes.c_size_t, False),
    "int_": (ctypes.c_ssize_t, True),
    "uint": (ctypes.c_size_t, False),
}


@pytest.mark.parametrize("name", sorted(C_TYPES))
def test_c_names_are_the_platforms_integer_types(name):
    c_type, signed = C_TYPES[name]
    expected = getattr(types, f"{'' if signed else 'u'}int{ctypes.sizeof(c_type) * 8}")
    assert getattr(types, name) == expected
    assert getattr(taipan, name) == expected
    assert name in taipan.__all__


def test_numpy_c_scalars_have_those_types():
    assert taipan.typeof(np.ulonglong(1)) == types.ulonglong
    assert taipan.typeof(np.longlong(-1)) == types.longlong
    assert taipan.typeof(np.intc(1)) == types.intc
    assert taipan.typeof(np.ushort(1)) == types.ushort
    assert taipan.typeof(np.array([0, 1], dtype=np.ulonglong)) == types.Array(
        types.ulonglong, 1, "C"
    )


def test_in_signatures_by_object_and_by_text():
    by_object = njit(types.ulonglong(types.ulonglong, types.intc))(lambda a, b: a + b)
    by_text = njit("longlong(ushort, size_t)")(lambda a, b: a * b)
    assert by_object(np.uint64(2**63), 1) == 2**63 + 1
    assert by_text(3, 4) == 12
    assert by_object.signatures == [(types.uint64, types.int32)]


def test_in_kernels():
    def kernel(out, x):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = types.ulonglong(x[i]) + types.ulonglong(1)

    ptx, _ = cuda.compile_ptx(
        kernel, (types.Array(types.ulonglong, 1, "C"), types.Array(types.longlong, 1, "C"))
    )
    assert ".entry" in ptx
