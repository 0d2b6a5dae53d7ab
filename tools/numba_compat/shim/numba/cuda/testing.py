"""``numba.cuda.testing``: the test support numba-cuda's tests import, on taipan: the test case
class, the skip decorators (each decided as numba-cuda decides it, from taipan's simulator
setting and the device's compute capability) and ``ForeignArray``. FileCheck assertions need
numba-cuda's compilation artifacts (LLVM IR of its own form) and raise ``ShimUnsupported``."""

import os
import platform
import shutil
import unittest
from pathlib import Path

import pytest

from numba import config
from numba._missing import ShimUnsupported, fill_missing
from numba.cuda.tests.support import TestCase
from taipan import cuda

HAS_NUMBA = True
test_data_dir = Path(__file__).parent / "tests" / "data"  # the copied tests' data


@pytest.mark.usefixtures("initialize_from_pytest_config")
class CUDATestCase(TestCase):
    """For tests that use a CUDA device."""

    FLOAT16_RTOL = 0.0009765625  # np.finfo(np.float16).eps

    def setUp(self):
        # As numba-cuda's: no warnings of small grids or of copies of host arrays in the
        # tests (those of the warnings set them again). No super() call, as in numba-cuda:
        # test_caching calls CUDATestCase.setUp(self) on test cases of other classes.
        self._low_occupancy_warnings = config.CUDA_LOW_OCCUPANCY_WARNINGS
        self._warn_on_implicit_copy = config.CUDA_WARN_ON_IMPLICIT_COPY
        config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
        config.CUDA_WARN_ON_IMPLICIT_COPY = 0

    def tearDown(self):
        config.CUDA_LOW_OCCUPANCY_WARNINGS = self._low_occupancy_warnings
        config.CUDA_WARN_ON_IMPLICIT_COPY = self._warn_on_implicit_copy

    def assertFileCheckAsm(self, *args, **kwargs):
        raise ShimUnsupported("FileCheck of numba-cuda's PTX is not mapped onto taipan")

    def assertFileCheckLLVM(self, *args, **kwargs):
        raise ShimUnsupported("FileCheck of numba-cuda's LLVM IR is not mapped onto taipan")

    def assertFileCheckMatches(self, *args, **kwargs):
        raise ShimUnsupported("FileCheck is not mapped onto taipan")


def skip_on_cudasim(reason):
    """Skip this test if running on the CUDA simulator."""
    return unittest.skipIf(config.ENABLE_CUDASIM, reason)


skip_on_standalone_numba_cuda = unittest.skipUnless(HAS_NUMBA, "requires base numba install")


def skip_unless_cudasim(reason):
    return unittest.skipUnless(config.ENABLE_CUDASIM, reason)


def skip_unless_conda_cudatoolkit(reason):
    return unittest.skipUnless("CONDA_PREFIX" in os.environ, reason)


def skip_if_external_memmgr(reason):
    return unittest.skipIf(False, reason)


def skip_under_cuda_memcheck(reason):
    return unittest.skipIf(os.environ.get("CUDA_MEMCHECK") is not None, reason)


def _nvdisasm():
    return shutil.which("nvdisasm") or (
        "/usr/local/cuda/bin/nvdisasm" if os.path.exists("/usr/local/cuda/bin/nvdisasm") else None
    )


def skip_without_nvdisasm(reason):
    return unittest.skipIf(_nvdisasm() is None, reason)


def skip_with_nvdisasm(reason):
    return unittest.skipIf(_nvdisasm() is not None, reason)


def skip_on_arm(reason):
    cpu = platform.processor()
    return unittest.skipIf(cpu.startswith(("arm", "aarch")), reason)


def skip_on_wsl2(reason):
    return unittest.skipIf("wsl2" in platform.release().lower(), reason)


def _cuda_include_file(name):
    root = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    return os.path.isfile(os.path.join(root, "include", name))


def skip_if_cuda_includes_missing(fn):
    reason = "CUDA include dir not available on this system"
    return unittest.skipUnless(_cuda_include_file("cuda.h"), reason)(fn)


def skip_if_curand_kernel_missing(fn):
    reason = "curand_kernel.h not available on this system"
    return unittest.skipUnless(_cuda_include_file("curand_kernel.h"), reason)(fn)


def cc_X_or_above(major, minor):
    if config.ENABLE_CUDASIM:
        return True
    try:
        return cuda.get_current_device().compute_capability >= (major, minor)
    except (cuda.CudaSupportError, cuda.CudaDriverError, RuntimeError, OSError):  # no device
        return False


def skip_unless_cc_50(fn):
    return unittest.skipUnless(cc_X_or_above(5, 0), "requires cc >= 5.0")(fn)


def skip_unless_cc_53(fn):
    return unittest.skipUnless(cc_X_or_above(5, 3), "requires cc >= 5.3")(fn)


def skip_unless_cc_60(fn):
    return unittest.skipUnless(cc_X_or_above(6, 0), "requires cc >= 6.0")(fn)


def skip_unless_cc_75(fn):
    return unittest.skipUnless(cc_X_or_above(7, 5), "requires cc >= 7.5")(fn)


def skip_unless_cc_90(fn):
    return unittest.skipUnless(cc_X_or_above(9, 0), "requires cc >= 9.0")(fn)


def xfail_unless_cudasim(fn):
    return fn if config.ENABLE_CUDASIM else unittest.expectedFailure(fn)


def cudadevrt_missing():
    return False


def skip_if_cudadevrt_missing(fn):
    return unittest.skipIf(cudadevrt_missing(), "cudadevrt missing")(fn)


def skip_if_nvjitlink_missing(reason):
    return unittest.skipIf(False, reason)


def skip_on_nvjitlink_13_1_sm_120(reason):
    return unittest.skipIf(False, reason)


class ForeignArray:
    """An array from another library through the CUDA Array Interface: a device array that
    does not look like one."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__


__getattr__ = fill_missing(globals(), __name__)
