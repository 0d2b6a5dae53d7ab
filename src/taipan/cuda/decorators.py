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


def jit(func_or_sig=None, device=False, **options):
    """Compiles a kernel, or with ``device=True`` a function kernels call."""
    from taipan.cuda.dispatcher import CUDADispatcher
    from taipan.types import Signature, Type

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
