"""carray and farray in CUDA kernels and device functions (numba-cuda's test_array cfarray
cases): an array view of device memory a pointer argument points at, borrowed (nothing is
allocated), as on the CPU."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import carray, cuda, farray, float32, int64, types, void


def add_to_first(a_ptr):
    a = carray(a_ptr, (1,), dtype=float32)
    a[0] += 1.2


def fortran_corner(a_ptr, out):
    a = farray(a_ptr, (2, 3))
    out[0] = a[1, 0]  # Fortran order: the second element in memory


@needs_ptxas
@pytest.mark.parametrize(
    "kernel, signature",
    [
        (add_to_first, void(types.CPointer(float32))),
        (fortran_corner, void(types.CPointer(int64), int64[::1])),
    ],
)
def test_carray_and_farray_compile_for_the_gpu(kernel, signature, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, signature)
    assert "malloc" not in ptx and "taipan_nrt_allocate" not in ptx  # a view: nothing allocated
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_carray_on_the_gpu():
    a = cuda.to_device(np.zeros(1, np.float32))
    kernel = cuda.jit(void(types.CPointer(float32)))(add_to_first)
    kernel[1, 1](a.device_ctypes_pointer.value)
    assert a.copy_to_host()[0] == np.float32(1.2)
    kernel[1, 1](int(a.gpu_data.device_pointer))  # numba-cuda's test_array spells it so
    assert a.copy_to_host()[0] == np.float32(1.2) + np.float32(1.2)


def test_device_memory_has_numba_cudas_device_pointer():
    from taipan import _core

    # numba-cuda's tests read a device array's address as int(ary.gpu_data.device_pointer)
    assert hasattr(_core.DeviceBuffer, "device_pointer") and hasattr(_core.DeviceBuffer, "pointer")
