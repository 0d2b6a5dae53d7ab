"""What the GPU path and the CUDA simulator share: everything of ``taipan.cuda`` except how a
kernel runs. The GPU modules (taipan.cuda.*) and the simulator (taipan.cuda.simulator.*) each
import from here and supply their execution backend; this package imports neither.

- errors: the exception classes both raise.
- args: the argument hints (``cuda.In``/``Out``/``InOut``) and ``extensions=`` handlers.
- exports: the names ``taipan.cuda`` exports, whichever backend provides them.
- decorators: ``cuda.jit``'s front (option checks, signatures), given a backend's factory.
- libdevice_prototypes: the types of ``cuda.libdevice``'s functions.
- linkable_code: numba-cuda's classes of code to link held in memory (``cuda.CUSource``...).
- launching: launch configurations (``kernel[griddim, blockdim, stream, sharedmem]``), the
  launcher cache and ``forall``, and the device limits a launch is checked against.
- devices: the front of ``cuda.gpus`` and ``cuda.current_context()``.
- devicearray: the device-array front (shapes, strides, views, reshapes).
- memory: memory pointers, pending deallocations and the EMM plugin interface.
- ufuncs: CUDA ufuncs' and gufuncs' front (signatures, layouts, operand checks, broadcasting).
- random: the xoroshiro128+ generator of ``cuda.random``, made each backend's.
- reduction: ``cuda.reduce``'s front.
- signatures are split by decorators.split_signature.
"""

from taipan.cuda.api import (
    args,
    decorators,
    devicearray,
    devices,
    errors,
    exports,
    launching,
    libdevice_prototypes,
    linkable_code,
    memory,
    random,
    reduction,
    ufuncs,
)
from taipan.cuda.api.decorators import KNOWN_OPTIONS, jit_front, split_signature
from taipan.cuda.api.devicearray import DeviceArrayFront, layout_like
from taipan.cuda.api.errors import (
    CudaDriverError,
    CudaSupportError,
    LinkerError,
    NvrtcCompilationError,
    NvrtcError,
)
from taipan.cuda.api.exports import NAMES, resolve
from taipan.cuda.api.launching import (
    ForAll,
    KernelNotConfigured,
    LaunchableKernel,
    Launcher,
    called_from_python,
    launch_configuration,
    launch_dimensions,
    not_configured,
)
from taipan.cuda.api.reduction import ReduceFront
from taipan.cuda.api.ufuncs import GUFuncFront, UFuncFront

__all__ = [
    "KNOWN_OPTIONS",
    "NAMES",
    "CudaDriverError",
    "CudaSupportError",
    "DeviceArrayFront",
    "ForAll",
    "GUFuncFront",
    "KernelNotConfigured",
    "LaunchableKernel",
    "Launcher",
    "LinkerError",
    "NvrtcCompilationError",
    "NvrtcError",
    "ReduceFront",
    "UFuncFront",
    "args",
    "called_from_python",
    "decorators",
    "devicearray",
    "devices",
    "errors",
    "exports",
    "jit_front",
    "launch_configuration",
    "launch_dimensions",
    "launching",
    "layout_like",
    "libdevice_prototypes",
    "linkable_code",
    "memory",
    "not_configured",
    "random",
    "reduction",
    "resolve",
    "split_signature",
    "ufuncs",
]
