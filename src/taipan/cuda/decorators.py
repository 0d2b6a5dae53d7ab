"""``cuda.jit``: kernels (launched as ``kernel[grid, block](args)``) and device functions."""

_KNOWN_OPTIONS = {
    "device",
    "inline",
    "fastmath",
    "debug",
    "lineinfo",
    "opt",
    "max_registers",
    "link",
    "cache",
    "lto",
    "boundscheck",
    "forceinline",
}


def _refuse_simulation():
    """TAIPAN_ENABLE_CUDASIM (or NUMBA_ENABLE_CUDASIM) asks for Numba's CUDA simulator, which
    runs kernels on the CPU: taipan has none yet, so kernels are refused rather than compiled for
    a GPU the user did not ask for."""
    from taipan import config
    from taipan.cuda.driver import CudaSupportError

    variable = config.SOURCES.get("ENABLE_CUDASIM", "TAIPAN_ENABLE_CUDASIM")
    raise CudaSupportError(
        f"{variable} is set, asking for the CUDA simulator, which taipan does not have yet: "
        "cuda.jit cannot run kernels on the CPU. Unset it (or set TAIPAN_ENABLE_CUDASIM=0) to "
        "compile kernels for a GPU; cuda.compile_ptx needs no GPU."
    )


def jit(func_or_sig=None, device=False, **options):
    """Compiles a kernel, or with ``device=True`` a function kernels call."""
    from taipan import config
    from taipan.cuda.dispatcher import CUDADispatcher
    from taipan.types import Signature, Type

    if config.ENABLE_CUDASIM:
        _refuse_simulation()
    unknown = set(options) - _KNOWN_OPTIONS
    if unknown:
        raise KeyError(f"Unrecognized options: {sorted(unknown)}")
    if options.get("link"):
        from taipan.cuda.linking import check_link_files

        options["link"] = tuple(check_link_files(options["link"]))
    options = dict(options, device=device)
    if callable(func_or_sig) and not isinstance(func_or_sig, (Type, Signature)):
        return CUDADispatcher(func_or_sig, options)
    if func_or_sig is None:
        signatures = None
    elif isinstance(func_or_sig, list):
        signatures = func_or_sig
    else:
        signatures = [func_or_sig]

    def decorate(function):
        return CUDADispatcher(function, options, signatures)

    return decorate
