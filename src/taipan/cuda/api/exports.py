"""The names ``taipan.cuda`` exports (Numba's ``numba.cuda``), one list for both backends:
taipan.cuda takes each from the GPU path's modules or, with the simulator on, from
taipan.cuda.simulator."""

from taipan.cuda.api import vector_types as _vector_types

NAMES = (
    "In",
    "InOut",
    "Out",
    "BaseCUDAMemoryManager",
    "CudaDriverError",
    "CudaSupportError",
    "DeviceNDArray",
    "GetIpcHandleMixin",
    "HostOnlyCUDAMemoryManager",
    "LinkerError",
    "MappedNDArray",
    "MemoryInfo",
    "MemoryPointer",
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
    "compile",
    "compile_all",
    "compile_for_current_device",
    "compile_ptx",
    "compile_ptx_for_current_device",
    "const",
    "cuda_error",
    "current_context",
    "declare_device",
    "default_stream",
    "defer_cleanup",
    "detect",
    "device_array",
    "device_array_like",
    "eq_sync",
    "event",
    "event_elapsed_time",
    "external_stream",
    "ffs",
    "fma",
    "from_cuda_array_interface",
    "from_dlpack",
    "get_current_device",
    "gpus",
    "grid",
    "guvectorize",
    "gridDim",
    "gridsize",
    "is_available",
    "is_cuda_array",
    "is_bfloat16_supported",
    "is_float16_supported",
    "is_fp8_supported",
    "is_supported_version",
    "jit",
    "laneid",
    "lanemask_lt",
    "ldca",
    "ldcg",
    "ldcs",
    "ldcv",
    "ldlu",
    "legacy_default_stream",
    "list_devices",
    "local",
    "managed_array",
    "mapped",
    "mapped_array",
    "mapped_array_like",
    "match_all_sync",
    "match_any_sync",
    "nanosleep",
    "open_ipc_array",
    "per_thread_default_stream",
    "profile_start",
    "profile_stop",
    "profiling",
    "pinned",
    "pinned_array",
    "pinned_array_like",
    "popc",
    "reduce",
    "select_device",
    "selp",
    "set_memory_manager",
    "shared",
    "shfl_down_sync",
    "shfl_sync",
    "shfl_up_sync",
    "shfl_xor_sync",
    "stcg",
    "stcs",
    "stream",
    "stwb",
    "stwt",
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
    "vectorize",
    "warpsize",
)


# numba-cuda's classes of code to link held in memory (cuda.CUSource...), from api.linkable_code
NAMES += ("Archive", "CUSource", "Cubin", "Fatbin", "LTOIR", "LinkableCode", "Object", "PTXSource")

# CUDA's vector types and their C aliases (cuda.float32x4, cuda.float4...), from api.vector_types
NAMES += tuple(_vector_types.NAMES)


def resolve(backend, modules):
    """{name: object} for every exported name, each taken from the first of `modules` (a
    backend's modules) that defines it; a name none defines is the backend's mistake."""
    found = {}
    for name in NAMES:
        for module in modules:
            if hasattr(module, name):
                found[name] = getattr(module, name)
                break
        else:
            raise ImportError(f"the {backend} backend of taipan.cuda does not define {name}")
    return found
