"""The CUDA driver as the rest of taipan.cuda sees it: availability, the current device and
loading PTX (launches are in launcher.py). The driver library is opened by the extension on
first use. The exception classes are taipan.cuda.api's, which the extension raises."""

import contextlib

from taipan import _core, config
from taipan.cuda import api

# The exception classes, here too as before (taipan.cuda.api.errors defines them).
CudaSupportError = api.CudaSupportError
CudaDriverError = api.CudaDriverError
LinkerError = api.LinkerError
NvrtcError = api.NvrtcError
NvrtcCompilationError = api.NvrtcCompilationError

_core.cuda_set_error_classes(CudaSupportError, CudaDriverError)
_core.nvrtc_set_error_class(NvrtcCompilationError)


def unavailable_reason():
    """Why CUDA cannot be used (None when it can): disabled by a setting, no driver support in
    this build, or the driver's own reason (no library, no GPU)."""
    if config.DISABLE_CUDA:
        variable = config.SOURCES.get("DISABLE_CUDA", "TAIPAN_DISABLE_CUDA")
        return f"CUDA is disabled due to setting {variable}=1"
    if not hasattr(_core, "cuda_available"):
        return "this taipan build has no CUDA driver support"
    if not _core.cuda_available():
        return _core.cuda_unavailable_reason()
    return None


def _driver():
    reason = unavailable_reason()
    if reason is not None:
        raise CudaSupportError(reason)
    return _core


def is_available():
    """Whether a CUDA driver and at least one GPU were found (and CUDA is not disabled)."""
    return unavailable_reason() is None


def cuda_error():
    """None when CUDA can be used, else why not (numba-cuda's cuda.cuda_error())."""
    return unavailable_reason()


def target_compute_capability():
    """The compute capability kernels are compiled for: the current device's, else 9.0."""
    if is_available():
        major, minor = _core.cuda_compute_capability(_core.cuda_current_device())
        return major * 10 + minor
    return 90


def current_compute_capability():
    core = _driver()
    return core.cuda_compute_capability(core.cuda_current_device())


def current_device():
    return _driver().cuda_current_device()


def load_function(image, name, max_registers=0):
    """(module, function) handles of kernel ``name`` in PTX or a cubin, loaded into the current
    context; ``max_registers`` (0: no limit) goes to the driver's JIT."""
    return _driver().cuda_load_function(image, name, max_registers)


def function_attribute(handle, attribute):
    """A CUfunction_attribute (cuda.h's number) of a loaded kernel's (module, function)."""
    return _driver().cuda_function_attribute(handle, attribute)


def set_function_attribute(handle, attribute, value):
    """Sets a CUfunction_attribute (cuda.h's number) of a loaded kernel's (module, function)."""
    _driver().cuda_set_function_attribute(handle, attribute, value)


_MULTIPROCESSOR_COUNT = 16  # CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
_multiprocessors = {}  # by device ordinal


def multiprocessor_count():
    """The current GPU's number of multiprocessors (read once per device)."""
    core = _driver()
    device = core.cuda_current_device()
    count = _multiprocessors.get(device)
    if count is None:
        count = _multiprocessors[device] = core.cuda_device_attribute(device, _MULTIPROCESSOR_COUNT)
    return count


def suggested_block_size(kernel, sharedmem):
    return _driver().cuda_suggested_block_size(kernel.function(), sharedmem)


def max_active_blocks(kernel, block_size, sharedmem):
    """How many blocks of `block_size` threads (and `sharedmem` bytes of dynamic shared memory)
    of `kernel` one multiprocessor of the current GPU runs at once."""
    return _driver().cuda_max_active_blocks(kernel.function(), block_size, sharedmem)


_ready = False


def ready():
    """The extension's driver functions, once a driver and a GPU are known to be there (checked
    on the first launch, which reports a missing driver or GPU)."""
    global _ready
    if not _ready:
        _driver()
        _ready = True
    return _core


def synchronize():
    """Waits for all work on the current device."""
    _driver().cuda_synchronize()


_generation = 0


def context_generation():
    """How many times cuda.close() has run: handles made before the last close are gone."""
    return _generation


def close():
    """Releases the primary contexts; the next CUDA call starts again."""
    global _generation
    if is_available():
        _core.cuda_close()
        _generation += 1


# The oldest driver (1000 * major + 10 * minor) that loads the PTX taipan writes for a compute
# capability: CudaTarget's PTX ISA versions are 8.0 from sm_90 (CUDA 12.0), 7.0 from sm_80
# (CUDA 11.0) and 6.4 before (CUDA 10.1).
def _oldest_driver(compute_capability):
    if compute_capability >= 90:
        return 12000
    return 11000 if compute_capability >= 80 else 10010


def is_supported_version():
    """Whether there is a CUDA driver new enough to load the PTX taipan writes for the current
    GPU (numba-cuda's cuda.is_supported_version, which asks the same of its toolkit)."""
    if not is_available():
        return False
    return _core.cuda_driver_version() >= _oldest_driver(target_compute_capability())


def profile_start():
    """Starts the CUDA profiler's collection (Nsight Systems' cudaProfilerApi capture range)."""
    _driver().cuda_set_profiling(True)


def profile_stop():
    """Stops the CUDA profiler's collection."""
    _driver().cuda_set_profiling(False)


@contextlib.contextmanager
def profiling():
    """Profiles the block: profile_start() before it, profile_stop() after it."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()


def detect():
    """Prints the GPUs found and returns whether there is a supported one."""
    if not is_available():
        print(f"CUDA is not available: {_core.cuda_unavailable_reason()}")
        return False
    count = _core.cuda_device_count()
    print(f"Found {count} CUDA devices")
    for index in range(count):
        major, minor = _core.cuda_compute_capability(index)
        print(
            f"id {index}    {_core.cuda_device_name(index)!r}    "
            f"[SUPPORTED] (compute capability {major}.{minor})"
        )
    return count > 0
