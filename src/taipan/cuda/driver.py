"""The CUDA driver as the rest of taipan.cuda sees it: availability, the current device, loading
PTX and launching kernels. The driver library is opened by the extension on first use."""

from taipan import _core


class CudaSupportError(RuntimeError):
    """No CUDA driver or device: raised when a kernel is launched or device memory is used."""


def _driver():
    if not hasattr(_core, "cuda_available"):
        raise CudaSupportError("this taipan build has no CUDA driver support")
    if not _core.cuda_available():
        raise CudaSupportError(_core.cuda_unavailable_reason())
    return _core


def is_available():
    """Whether a CUDA driver and at least one GPU were found."""
    return hasattr(_core, "cuda_available") and _core.cuda_available()


def target_compute_capability():
    """The compute capability kernels are compiled for: the current device's, else 9.0."""
    if is_available():
        major, minor = _core.cuda_compute_capability(_core.cuda_current_device())
        return major * 10 + minor
    return 90


def current_compute_capability():
    core = _driver()
    return core.cuda_compute_capability(core.cuda_current_device())


def load_function(ptx, name):
    return _driver().cuda_load_function(ptx, name)


def suggested_block_size(kernel, sharedmem):
    return _driver().cuda_suggested_block_size(kernel.function(), sharedmem)


def launch(kernel, griddim, blockdim, stream, sharedmem, args, debug=False):
    from taipan.cuda import devicearray

    core = _driver()
    devicearray.launch(core, kernel, griddim, blockdim, stream, sharedmem, args, debug)
