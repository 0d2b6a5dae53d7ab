"""taipan.cuda: CUDA kernels written in Python (Numba's ``numba.cuda`` API).

Kernels compile to PTX through LLVM's NVPTX back end without a GPU; running them needs the CUDA
driver, which is loaded only when a kernel is launched or device memory is used.

With TAIPAN_ENABLE_CUDASIM=1 (or NUMBA_ENABLE_CUDASIM=1) set before taipan is imported, the same
names come from the CUDA simulator (taipan.cuda.simulator), which runs kernels on the CPU.
"""

from taipan import config as _config

if _config.ENABLE_CUDASIM:
    import sys as _sys

    from taipan.cuda.simulator import *
    from taipan.cuda.simulator import install as _install

    _install(_sys.modules[__name__])
else:
    from taipan.cuda.compiler import compile_ptx, compile_ptx_for_current_device
    from taipan.cuda.decorators import jit
    from taipan.cuda.devicearray import (
        DeviceNDArray,
        device_array,
        device_array_like,
        to_device,
    )
    from taipan.cuda.devices import current_context, get_current_device, gpus, select_device
    from taipan.cuda.driver import (
        CudaDriverError,
        CudaSupportError,
        LinkerError,
        NvrtcCompilationError,
        NvrtcError,
        close,
        detect,
        is_available,
        synchronize,
    )
    from taipan.cuda.hostmemory import (
        MappedNDArray,
        managed_array,
        mapped_array,
        pinned,
        pinned_array,
    )
    from taipan.cuda.interop import as_cuda_array, from_dlpack, is_cuda_array
    from taipan.cuda.intrinsics import (
        activemask,
        all_sync,
        any_sync,
        atomic,
        ballot_sync,
        blockDim,
        blockIdx,
        brev,
        cbrt,
        cg,
        clz,
        const,
        eq_sync,
        ffs,
        fma,
        grid,
        gridDim,
        gridsize,
        laneid,
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
    from taipan.cuda.linking import declare_device
    from taipan.cuda.reduction import Reduce, reduce
    from taipan.cuda.streams import (
        default_stream,
        event,
        event_elapsed_time,
        external_stream,
        legacy_default_stream,
        per_thread_default_stream,
        stream,
    )

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
