"""The CUDA simulator: with TAIPAN_ENABLE_CUDASIM=1 (or NUMBA_ENABLE_CUDASIM=1) set before
taipan is imported, ``taipan.cuda`` exports these objects instead of the GPU path's, and
``cuda.jit`` kernels run on the CPU in the Python interpreter, one Python thread per GPU thread
of a block (launch.py). The names are those of the GPU path (``__all__`` is the same list)."""

import types

from taipan.cuda.driver import (
    CudaDriverError,
    CudaSupportError,
    LinkerError,
    NvrtcCompilationError,
    NvrtcError,
)
from taipan.cuda.simulator.api import (
    close,
    compile_ptx,
    compile_ptx_for_current_device,
    current_context,
    declare_device,
    default_stream,
    detect,
    event,
    event_elapsed_time,
    external_stream,
    get_current_device,
    gpus,
    is_available,
    legacy_default_stream,
    per_thread_default_stream,
    select_device,
    stream,
    synchronize,
)
from taipan.cuda.simulator.atomics import atomic
from taipan.cuda.simulator.devicearray import (
    DeviceNDArray,
    MappedNDArray,
    as_cuda_array,
    device_array,
    device_array_like,
    from_dlpack,
    is_cuda_array,
    managed_array,
    mapped_array,
    pinned,
    pinned_array,
    to_device,
)
from taipan.cuda.simulator.intrinsics import (
    activemask,
    all_sync,
    any_sync,
    ballot_sync,
    blockDim,
    blockIdx,
    brev,
    cbrt,
    cg,
    clz,
    const,
    current_laneid,
    eq_sync,
    ffs,
    fma,
    grid,
    gridDim,
    gridsize,
    lanemask_lt,
    local,
    match_any_sync,
    nanosleep,
    popc,
    shared,
    shfl_down_sync,
    shfl_sync,
    shfl_up_sync,
    shfl_xor_sync,
    syncthreads,
    syncthreads_and,
    syncthreads_count,
    syncthreads_or,
    syncwarp,
    threadfence,
    threadfence_block,
    threadfence_system,
    threadIdx,
    warpsize,
)
from taipan.cuda.simulator.launch import jit
from taipan.cuda.simulator.reduction import Reduce, reduce


class _Placeholder:
    """What ``cuda.laneid`` reads outside a simulated kernel."""

    def __repr__(self):
        return "<cuda.laneid: only defined inside a kernel running in the CUDA simulator>"


_LANEID_OUTSIDE = _Placeholder()


class SimulatedCudaModule(types.ModuleType):
    """The class ``taipan.cuda`` takes while the simulator is on: ``cuda.laneid`` is the lane of
    the simulated thread that reads it."""

    @property
    def laneid(self):
        try:
            return current_laneid()
        except RuntimeError:
            return _LANEID_OUTSIDE


laneid = _LANEID_OUTSIDE  # read through the module's property (see install)


def install(module):
    """Makes `module` (taipan.cuda, which has imported these names) read ``laneid`` per
    simulated thread, and ``import taipan.cuda.random`` give the simulator's random module."""
    import sys

    from taipan.cuda.simulator import random

    module.__class__ = SimulatedCudaModule
    sys.modules["taipan.cuda.random"] = random
    module.random = random


__all__ = [
    "CudaDriverError",
    "CudaSupportError",
    "DeviceNDArray",
    "LinkerError",
    "MappedNDArray",
    "NvrtcCompilationError",
    "NvrtcError",
    "Reduce",
    "activemask",
    "all_sync",
    "any_sync",
    "as_cuda_array",
    "atomic",
    "ballot_sync",
    "blockDim",
    "blockIdx",
    "brev",
    "cbrt",
    "cg",
    "close",
    "clz",
    "compile_ptx",
    "compile_ptx_for_current_device",
    "const",
    "current_context",
    "declare_device",
    "default_stream",
    "detect",
    "device_array",
    "device_array_like",
    "eq_sync",
    "event",
    "event_elapsed_time",
    "external_stream",
    "ffs",
    "fma",
    "from_dlpack",
    "get_current_device",
    "gpus",
    "grid",
    "gridDim",
    "gridsize",
    "is_available",
    "is_cuda_array",
    "jit",
    "laneid",
    "lanemask_lt",
    "legacy_default_stream",
    "local",
    "managed_array",
    "mapped_array",
    "match_any_sync",
    "nanosleep",
    "per_thread_default_stream",
    "pinned",
    "pinned_array",
    "popc",
    "reduce",
    "select_device",
    "shared",
    "shfl_down_sync",
    "shfl_sync",
    "shfl_up_sync",
    "shfl_xor_sync",
    "stream",
    "synchronize",
    "syncthreads",
    "syncthreads_and",
    "syncthreads_count",
    "syncthreads_or",
    "syncwarp",
    "threadIdx",
    "threadfence",
    "threadfence_block",
    "threadfence_system",
    "to_device",
    "warpsize",
]
