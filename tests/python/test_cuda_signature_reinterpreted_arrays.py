"""A kernel given one signature (not a list) launched with an integer array of the signature's
width and the other signedness runs on the array's bits read as the signature's dtype, as
numba-cuda launches such a kernel with its arrays as they are (test_atomic_sub3 passes uint32
data to an int32[:, :] kernel). Other dtypes stay refused, and so do lists of signatures."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float32, int64, uint32, uint64


def sub_one(a):
    i = cuda.threadIdx.x
    a[i] -= 1


@needs_ptxas
@pytest.mark.parametrize(
    "signature, actual", [("void(int32[::1])", uint32), ("void(uint64[::1])", int64)]
)
def test_the_other_signedness_launches_a_view(signature, actual, tmp_path):
    kernel = cuda.jit(signature)(sub_one).specialize_for((actual[::1],))
    assert ".view" not in kernel.ptx  # a view costs nothing: the same pointer
    ptxas(kernel.ptx, tmp_path)


@pytest.mark.parametrize("actual", [float32, uint64])
def test_other_dtypes_are_refused(actual):
    with pytest.raises(TypeError, match="No matching definition"):
        cuda.jit("void(int32[::1])")(sub_one).specialize_for((actual[::1],))


def test_a_list_of_signatures_takes_only_conversions():
    with pytest.raises(TypeError, match="No matching definition"):
        cuda.jit(["void(int32[::1])"])(sub_one).specialize_for((uint32[::1],))


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_the_view_on_the_gpu():
    values = np.array([0, 5, 2**31], dtype=np.uint32)
    cuda.jit("void(int32[::1])")(sub_one)[1, 3](values)
    np.testing.assert_array_equal(values, np.array([2**32 - 1, 4, 2**31 - 1], dtype=np.uint32))
