"""taipan.cuda: CUDA kernels written in Python (Numba's ``numba.cuda`` API).

Kernels compile to PTX through LLVM's NVPTX back end without a GPU; running them needs the CUDA
driver, which is loaded only when a kernel is launched or device memory is used.

With TAIPAN_ENABLE_CUDASIM=1 (or NUMBA_ENABLE_CUDASIM=1) set before taipan is imported, the same
names come from the CUDA simulator (taipan.cuda.simulator), which runs kernels on the CPU. The
names are one list (taipan.cuda.api.exports); each backend says where its objects are.
"""

import sys as _sys

from taipan import config as _config
from taipan.cuda import api as _api

if _config.ENABLE_CUDASIM:
    from taipan.cuda import simulator as _backend
else:
    from taipan.cuda import gpu as _backend

globals().update(_backend.exports())
if _config.ENABLE_CUDASIM:
    _backend.install(_sys.modules[__name__])

__all__ = list(_api.NAMES)  # the one list, in taipan.cuda.api.exports
