"""Compiling Python functions to PTX: ``compile_ptx`` (Numba's signature) and the cache the
kernel dispatchers share."""

from taipan import _core
from taipan.cuda import api

_DEFAULT_CC = (9, 0)
split_signature = api.split_signature  # here too: the dispatcher and compile_ptx use it
_libdevice_searched = False


def _find_libdevice():
    """Points the compiler at libdevice: CUDA_HOME/CUDA_PATH and /usr/local/cuda are searched in
    C++; the nvidia-cuda-nvcc wheel's copy is found here."""
    global _libdevice_searched
    if _libdevice_searched:
        return
    _libdevice_searched = True
    import os

    from taipan.cuda.toolkit import toolkit_roots, wheel_paths

    for root in toolkit_roots():
        if os.path.exists(os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc")):
            return
    for path in wheel_paths("nvvm", "libdevice", "libdevice.10.bc"):
        _core.set_libdevice(path)
        return


def compile_source(source, argument_types, cc, device=False, keep_llvm=False):
    """(ptx, entry name, return type, type annotations, job hash, optimised LLVM IR or None,
    [(stage, seconds)]) for one specialisation for compute capability ``cc`` (an int, 90 for sm_90). The options come from
    ``source``, which parsed them once."""
    _find_libdevice()
    return _core.compile_kernel(source, list(argument_types), cc, device, keep_llvm)


def compute_capability_number(cc):
    """``(major, minor)``, or None for the default, as the int the compiler takes (90)."""
    major, minor = cc if cc is not None else _DEFAULT_CC
    return major * 10 + minor


def compile_ptx(
    pyfunc,
    sig,
    debug=False,
    lineinfo=False,
    device=False,
    fastmath=False,
    cc=None,
    opt=True,
    abi="numba",
    abi_info=None,
):
    """Compiles a Python function to PTX; returns ``(ptx, return_type)``."""
    from taipan.errors import UnsupportedError
    from taipan.frontend import read_function

    if abi != "numba":
        raise UnsupportedError(
            f"compile_ptx(abi={abi!r}): only Numba's calling convention is supported; "
            "cuda.declare_device(..., abi='c') calls plain C functions from kernels"
        )
    argument_types, _ = split_signature(sig)
    pyfunc = getattr(pyfunc, "py_func", pyfunc)  # a kernel or device function compiles too
    options = {"debug": debug, "lineinfo": lineinfo, "fastmath": fastmath, "opt": opt}
    source = read_function(pyfunc, options)
    ptx, _, return_type, *_ = compile_source(
        source, argument_types, compute_capability_number(cc), device=device
    )
    return ptx, return_type


def compile_ptx_for_current_device(
    pyfunc,
    sig,
    debug=False,
    lineinfo=False,
    device=False,
    fastmath=False,
    opt=True,
    abi="numba",
    abi_info=None,
):
    """compile_ptx for the compute capability of the current GPU."""
    from taipan.cuda.driver import current_compute_capability

    return compile_ptx(
        pyfunc,
        sig,
        debug=debug,
        lineinfo=lineinfo,
        device=device,
        fastmath=fastmath,
        cc=current_compute_capability(),
        opt=opt,
    )
