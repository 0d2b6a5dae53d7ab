"""Device arrays of a record dtype and of the same dtype made with align=True are arrays of two
record types (NumPy's == calls the dtypes equal, which taipan's type memo must not rely on):
a kernel compiled for one is compiled again for the other, as numba-cuda's
test_from_dtype_caching_distiguish_custom_dtypes checks."""

import numpy as np
import pytest

from taipan import cuda
from taipan.cuda import devicearray

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

FIELDS = [("x", np.float16), ("y", np.float16)]


@pytest.mark.parametrize("layout", ["C", "A"])
def test_aligned_and_packed_records_give_two_array_types(layout):
    packed, aligned = np.dtype(FIELDS), np.dtype(FIELDS, align=True)
    assert packed == aligned  # NumPy's view
    packed_type = devicearray._array_type(packed, 1, layout, False)
    aligned_type = devicearray._array_type(aligned, 1, layout, False)
    assert packed_type != aligned_type
    assert str(packed_type.dtype).endswith(";4;False)")
    assert str(aligned_type.dtype).endswith(";4;True)")
    # Remembered each: asking again gives the same type.
    assert devicearray._array_type(np.dtype(FIELDS, align=True), 1, layout, False) == aligned_type


@needs_gpu
def test_a_kernel_is_compiled_for_each():
    @cuda.jit
    def first(records, out):
        out[0] = records[0].x + records[0].y

    @cuda.jit
    def second(records, out):
        out[0] = records[0].x + records[0].y

    packed = cuda.to_device(np.array([(1.5, 2.0)], dtype=np.dtype(FIELDS)))
    aligned = cuda.to_device(np.array([(1.5, 2.0)], dtype=np.dtype(FIELDS, align=True)))
    out = cuda.to_device(np.zeros(1, np.float32))
    first[1, 1](packed, out)
    second[1, 1](aligned, out)
    assert first.signatures[0] != second.signatures[0]
    first[1, 1](aligned, out)
    assert len(first.signatures) == 2
    assert out.copy_to_host()[0] == 3.5
