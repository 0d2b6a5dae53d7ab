"""``numba.cuda.cudadrv.error`` on taipan: numba-cuda's driver error classes are taipan.cuda's
(``CudaSupportError`` for a missing or disabled driver, ``CudaDriverError`` for a refused call,
the NVRTC errors)."""

from numba._missing import fill_missing
from taipan.cuda.api.errors import (  # noqa: F401
    CudaDriverError,
    CudaSupportError,
    LinkerError,
    NvrtcCompilationError,
    NvrtcError,
)

NvrtcSupportError = CudaSupportError

__getattr__ = fill_missing(globals(), __name__)
