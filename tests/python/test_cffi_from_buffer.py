"""cffi's ``ffi.from_buffer(array)`` in compiled code (Numba's cffi support, which numba-cuda's
test_device_func uses to pass an array to a foreign device function): a pointer to the array's
data, of its dtype; contiguous arrays only (more than one dimension in C order only), as
Numba's rules say; the FFI object may be a global, a closure variable or an argument."""

import re

import numpy as np
import pytest

from taipan import cuda, int32, njit, types, void
from taipan.errors import TypingError
from taipan.runtime import live_blocks

cffi = pytest.importorskip("cffi")
FFI = cffi.FFI()


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float64, np.complex128])
def test_the_pointer_reads_and_writes_the_array(dtype):
    @njit
    def through_pointer(x, start):
        p = FFI.from_buffer(x[start:])
        first = p[0]
        p[1] = p[0] + p[1]
        return first

    x = np.arange(6).astype(dtype)
    before = live_blocks()
    assert through_pointer(x, 2) == x.dtype.type(2)
    assert live_blocks() == before
    expected = np.arange(6).astype(dtype)
    expected[3] = expected[2] + expected[3]
    np.testing.assert_array_equal(x, expected)


def test_an_ffi_from_a_closure_and_as_an_argument():
    local = cffi.FFI()

    @njit
    def closure(x):
        return local.from_buffer(x)[1]

    @njit
    def argument(ffi, x):
        return ffi.from_buffer(x)[2]

    x = np.arange(4.0)
    assert closure(x) == 1.0 and argument(local, x) == 2.0


def test_two_dimensional_arrays_in_c_order():
    @njit
    def last(x):
        return FFI.from_buffer(x)[x.size - 1]

    x = np.arange(12.0).reshape(3, 4)
    assert last(x) == 11.0
    with pytest.raises(TypingError, match="only supports multidimensional arrays with C layout"):
        last(np.asfortranarray(x))
    with pytest.raises(TypingError, match="unsupported on non-contiguous buffers"):
        last(x[:, ::2])


def test_not_a_buffer():
    @njit
    def scalar(v):
        return FFI.from_buffer(v)

    with pytest.raises(TypingError, match="from_buffer\\(\\) expected a buffer object"):
        scalar(1.5)


def test_a_kernel_passes_a_pointer_to_a_foreign_function():
    consume = cuda.declare_device("consume_w34", types.void(types.CPointer(types.int32)), abi="c")

    def kernel(x):
        i = cuda.grid(1)
        if i < len(x):
            consume(FFI.from_buffer(x[i:]))

    ptx, _ = cuda.compile_ptx(kernel, void(int32[::1]))
    # the address of x[i]: the data pointer plus 4 * i, passed as the function's one b64
    assert re.search(r"\.extern \.func consume_w34\s*\(\s*\.param \.b64", ptx)
    assert re.search(r"call(\.uni)?\s*(\(\w*\),\s*)?\s*consume_w34", ptx)


def test_a_record_array_s_pointer_is_not_indexed():
    dtype = np.dtype([("a", np.int32), ("b", np.float64)], align=True)

    @njit
    def second_b(x):
        return FFI.from_buffer(x)[1].b

    with pytest.raises(TypingError, match="cannot index a value of type Record"):
        second_b(np.zeros(2, dtype))
