"""x.bit_count() of integers (Python's int.bit_count, NumPy's integer scalars', numba-cuda's
method in kernels): the ones in the binary form of the absolute value, for every integer type,
on the CPU and in CUDA kernels."""

import numpy as np
import pytest
from conftest import assert_same
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, int32, njit, uint8, uint16, uint32, uint64, void
from taipan.errors import TypingError


@njit
def bit_count(x):
    return x.bit_count()


@njit
def bit_count_of_float(x):
    return x.bit_count()


EDGES = {
    np.int8: [0, 1, -1, 127, -128, -5],
    np.uint8: [0, 1, 255, 128],
    np.int16: [0, -1, 32767, -32768],
    np.uint16: [0, 65535, 0x8001],
    np.int32: [0, -1, 2**31 - 1, -(2**31), 123456],
    np.uint32: [0, 2**32 - 1, 2**31],
    np.int64: [0, -1, 2**63 - 1, -(2**63), -12345678901],
    np.uint64: [0, 2**64 - 1, 2**63],
}


@pytest.mark.parametrize("dtype", list(EDGES), ids=lambda d: d.__name__)
def test_bit_count_of_each_integer_type_matches_numpy(dtype):
    for value in EDGES[dtype]:
        assert_same(bit_count, dtype(value), strict_type=False)


@pytest.mark.parametrize("value", [0, 7, -7, 2**62, -(2**63)])
def test_bit_count_of_python_ints(value):
    assert_same(bit_count, value, strict_type=False)


def test_bit_count_of_a_float_is_a_typing_error():
    with pytest.raises(TypingError, match="bit_count"):
        bit_count_of_float(1.5)


def kernel_bit_count(out, value):
    out[0] = value.bit_count()


@needs_ptxas
@pytest.mark.parametrize("value", [uint8, uint16, uint32, uint64, int32])
def test_bit_count_in_kernels_is_popc(value, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel_bit_count, void(int32[::1], value))
    assert "popc.b" in ptx
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_bit_count_on_the_gpu():
    for value, dtype, ones in ((0xFF, np.uint8, 8), (2**64 - 1, np.uint64, 64), (-1, np.int32, 1)):
        out = np.zeros(1, np.int32)
        cuda.jit(kernel_bit_count)[1, 1](out, dtype(value))
        assert out[0] == ones
