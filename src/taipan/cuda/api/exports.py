"""The names ``taipan.cuda`` exports (Numba's ``numba.cuda``), one list for both backends:
taipan.cuda takes each from the GPU path's modules or, with the simulator on, from
taipan.cuda.simulator."""

NAMES = (
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
    "guvectorize",
    "gridDim",
    "gridsize",
    "is_available",
    "is_cuda_array",
    "jit",
    "laneid",
    "lanemask_lt",
    "legacy_default_stream",
    "list_devices",
    "local",
    "managed_array",
    "mapped_array",
    "mapped_array_like",
    "match_any_sync",
    "nanosleep",
    "per_thread_default_stream",
    "pinned",
    "pinned_array",
    "pinned_array_like",
    "popc",
    "reduce",
    "select_device",
    "selp",
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
    "vectorize",
    "warpsize",
)


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
