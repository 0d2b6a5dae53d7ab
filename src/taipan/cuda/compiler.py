"""Compiling Python functions to PTX: ``compile_ptx`` (Numba's signature) and the cache the
kernel dispatchers share."""

from taipan import _core, intrinsic_calls
from taipan.cuda import api
from taipan.errors import TypingError, UnsupportedError

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


_device_library_registered = False
_device_library_ir = {}


def _register_device_library():
    """Gives the compiler the runtime functions written in Python for the device
    (taipan.cuda.device_runtime), which it compiles and links when a kernel calls them."""
    global _device_library_registered
    if _device_library_registered:
        return
    _device_library_registered = True
    _core.cuda_set_device_library(device_library_ir)


_device_library_digest = []


def device_library_digest():
    """A digest of the device library's source text (taipan/cuda/device_runtime.py, read, not
    imported), which the disk cache's key of a kernel includes: a kernel's PTX holds the code
    of the library functions it calls, so a changed library must not load a kernel cached
    before the change."""
    if not _device_library_digest:
        import hashlib
        import importlib.util

        origin = importlib.util.find_spec("taipan.cuda.device_runtime").origin
        with open(origin, "rb") as source:
            _device_library_digest.append(hashlib.sha256(source.read()).hexdigest())
    return _device_library_digest[0]


def device_library_ir(symbol, cc):
    """The optimised LLVM IR of the device library's function ``symbol``
    (taipan.cuda.device_runtime.LIBRARY) compiled for compute capability ``cc`` (90 for sm_90)
    with the C ABI, or None for a symbol not in the library; compiled once per process and
    architecture."""
    key = (symbol, cc)
    if key in _device_library_ir:
        return _device_library_ir[key]
    from taipan import types
    from taipan.cuda import device_runtime
    from taipan.frontend import read_function

    if symbol not in device_runtime.LIBRARY:
        return None
    function, names = device_runtime.LIBRARY[symbol]
    # NumPy's error model: a division by zero gives inf or nan, as in C, instead of raising
    options = {"debug": False, "lineinfo": False, "fastmath": False, "opt": True}
    options["error_model"] = "numpy"
    source = read_function(function, options)
    argument_types = [getattr(types, name) for name in names]
    ir = compile_source(source, argument_types, cc, device=True, keep_llvm=True, c_symbol=symbol)
    _device_library_ir[key] = ir[5]
    return ir[5]


def compile_source(
    source, argument_types, cc, device=False, keep_llvm=False, return_type=None, c_symbol=None
):
    """(ptx, entry name, return type, type annotations, job hash, optimised LLVM IR or None,
    [(stage, seconds)], why the code is process-specific, {variable: type}, [(dispatcher,
    argument types) of the jitted functions compiled into it]) for one
    specialisation for compute capability ``cc`` (an int, 90 for sm_90). The options come
    from ``source``, which parsed them once. A declared
    ``return_type`` converts the result; ``c_symbol`` makes a device function with the C ABI
    (``T c_symbol(args...)``) instead of Numba's."""
    _find_libdevice()
    _register_device_library()
    extra = {} if return_type is None else {"return_type": return_type}
    if c_symbol is not None:
        extra["c_symbol"] = c_symbol
    from taipan.compile_platform import compiling_for

    with compiling_for("cuda"):  # overloads for target="cuda" are chosen over generic ones
        try:
            return _core.compile_kernel(
                source, list(argument_types), cc, device, keep_llvm, **extra
            )
        except TypingError as error:
            # CudaTarget::checkEntry's refusal of a kernel returning a value, in numba-cuda's
            # class too.
            if not device and _KERNEL_RETURNS_A_VALUE in str(error):
                raise KernelReturnsValue(str(error)) from None
            raise


_KERNEL_RETURNS_A_VALUE = "CUDA kernel must have void return type"


class KernelReturnsValue(TypingError, TypeError):
    """A kernel whose body returns a value: taipan's TypingError, and the TypeError numba-cuda
    raises ("CUDA kernel must have void return type")."""


intrinsic_calls.use_device_compiler(compile_source)


def error_model(debug, fastmath=False):
    """numba-cuda's error model of a kernel or device function: without ``debug``, NumPy's
    (float division by zero gives inf or nan, integer division by zero 0), as its exceptions
    reach the host only from debug kernels; with it, Python's (ZeroDivisionError), unless
    ``fastmath`` lets a division by zero give inf, as numba-cuda's fastmath kernels do."""
    return "python" if debug and not fastmath else "numpy"


# The PTX ISA version that introduced each architecture- or family-specific target numba-cuda
# names with a third item in ``cc`` ((9, 0, 'a') is sm_90a, (10, 0, 'f') sm_100f).
_SPECIFIC_TARGET_PTX_VERSION = {
    "sm_90a": "8.0",
    "sm_100a": "8.6",
    "sm_101a": "8.6",
    "sm_120a": "8.7",
    "sm_100f": "8.8",
    "sm_101f": "8.8",
    "sm_103a": "8.8",
    "sm_103f": "8.8",
    "sm_120f": "8.8",
    "sm_121a": "8.8",
    "sm_121f": "8.8",
}


def compute_capability_number(cc):
    """``(major, minor)`` or ``(major, minor, 'a' | 'f')``, or None for the default, as the
    int the compiler takes (90); the suffix is applied to the PTX by ``specific_target``."""
    cc = tuple(cc) if cc is not None else _DEFAULT_CC
    if len(cc) == 3:
        specific_target_name(cc)  # refuses an unknown target before compiling
    elif len(cc) != 2:
        raise ValueError(f"cc={cc!r}: give (major, minor) or (major, minor, 'a' | 'f')")
    major, minor = cc[:2]
    return major * 10 + minor


def specific_target_name(cc):
    """'sm_90a' for numba-cuda's (9, 0, 'a'), or None for a plain (major, minor)."""
    if cc is None or len(cc) == 2:
        return None
    major, minor, suffix = cc
    name = f"sm_{major}{minor}{suffix}"
    if name not in _SPECIFIC_TARGET_PTX_VERSION:
        known = ", ".join(sorted(_SPECIFIC_TARGET_PTX_VERSION))
        raise UnsupportedError(f"cc={tuple(cc)!r}: {name} is not a known target ({known})")
    return name


def specific_target(ptx, cc):
    """The PTX compiled for ``cc``'s (major, minor) retargeted at its architecture- or
    family-specific variant (``.target sm_90a``), as numba-cuda's NVVM writes it for a
    three-item ``cc``. Sound because such a target accepts every instruction of the plain
    architecture it extends (and taipan's code uses none of the specific ones); the ``.version``
    is raised to the PTX ISA that introduced the target where it is older."""
    name = specific_target_name(cc)
    if name is None:
        return ptx
    needed = _SPECIFIC_TARGET_PTX_VERSION[name]
    lines = ptx.split("\n")
    for index, line in enumerate(lines):
        if line.startswith(".version "):
            have = line.split()[1]
            if tuple(map(int, have.split("."))) < tuple(map(int, needed.split("."))):
                lines[index] = f".version {needed}"
        elif line.startswith(".target "):
            lines[index] = f".target {name}" + line[len(line.split(",")[0]) :]
            break
    return "\n".join(lines)


def _check_abi(abi, device):
    if abi not in ("numba", "c"):
        raise NotImplementedError(f"Unsupported ABI: {abi}")
    if abi == "c" and not device:
        raise _CAbiRefusal("compile_ptx(abi='c'): The C ABI is not supported for kernels")


def _c_symbol(pyfunc, abi_info):
    """The name of a C-ABI device function: ``abi_info['abi_name']``, else the Python
    function's name made a PTX identifier (a lambda's ``<lambda>`` becomes ``_lambda_``)."""
    name = (abi_info or {}).get("abi_name") or pyfunc.__name__
    clean = "".join(c if c.isascii() and (c.isalnum() or c in "_$") else "_" for c in name)
    return "_" + clean if not clean or clean[0].isdigit() else clean


def _compile(
    pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, launch_bounds, abi_info=None
):
    """(PTX, return type) of numba-cuda's compile functions: ``debug``/``opt`` None take
    taipan.config's defaults; a kernel must return nothing; a device function's declared
    return type converts its result."""
    from taipan import config
    from taipan.frontend import read_function

    _check_abi(abi, device)
    api.decorators.warn_debug_with_opt(debug, opt, stacklevel=4)
    debug = bool(config.CUDA_DEBUGINFO_DEFAULT) if debug is None else debug
    opt = config.OPT != 0 if opt is None else opt
    if launch_bounds is not None and device:
        raise ValueError("launch bounds apply to kernels, not device functions")
    argument_types, declared = split_signature(sig)
    pyfunc = getattr(pyfunc, "py_func", pyfunc)  # a kernel or device function compiles too
    options = {"debug": debug, "lineinfo": lineinfo, "fastmath": fastmath, "opt": opt}
    options["error_model"] = error_model(debug, fastmath)
    options["launch_bounds"] = launch_bounds
    source = read_function(pyfunc, options)
    ptx, _, return_type, *_ = compile_source(
        source,
        argument_types,
        compute_capability_number(cc),
        device=device,
        return_type=declared if device else None,
        c_symbol=_c_symbol(pyfunc, abi_info) if abi == "c" else None,
    )
    return specific_target(ptx, cc), return_type


class _CAbiRefusal(UnsupportedError, NotImplementedError):
    """The refusal of the C ABI for kernels: unsupported, and numba-cuda's NotImplementedError."""


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
    forceinline=False,
    launch_bounds=None,
):
    """Compiles a Python function to PTX (a kernel, or with ``device=True`` a device function
    with Numba's calling convention); returns ``(ptx, return_type)``. ``launch_bounds``: the
    kernel's most threads per block, fewest blocks per SM and most blocks per cluster."""
    return _compile(
        pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, launch_bounds, abi_info
    )


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
    forceinline=False,
    launch_bounds=None,
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
        abi=abi,
        abi_info=abi_info,
        launch_bounds=launch_bounds,
    )


def _check_output(output, forceinline):
    if output not in ("ptx", "ltoir"):
        raise NotImplementedError(f"Unsupported output type: {output}")
    if output == "ltoir":
        raise UnsupportedError(
            "compile(output='ltoir'): taipan compiles through LLVM's NVPTX back end, which "
            "writes PTX; NVVM's LTO-IR is not produced (use output='ptx')"
        )
    if forceinline:
        raise ValueError("Can only designate forced inlining in LTO-IR")


def compile(
    pyfunc,
    sig,
    debug=None,
    lineinfo=False,
    device=True,
    fastmath=False,
    cc=None,
    opt=None,
    abi="c",
    abi_info=None,
    output="ptx",
    forceinline=False,
    launch_bounds=None,
):
    """numba-cuda's ``cuda.compile``: ``(code, return type)`` of a device function (by default,
    with the C ABI) or a kernel; ``output`` is 'ptx' (LTO-IR is not produced)."""
    _check_output(output, forceinline)
    return _compile(
        pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, launch_bounds, abi_info
    )


def compile_all(
    pyfunc,
    sig,
    debug=None,
    lineinfo=False,
    device=True,
    fastmath=False,
    cc=None,
    opt=None,
    abi="c",
    abi_info=None,
    output="ltoir",
    forceinline=False,
    launch_bounds=None,
):
    """numba-cuda's ``cuda.compile_all``: ``([code, ...], return type)``, the function's code
    then that of the files its ``link=`` names (as the linker takes them)."""
    _check_output(output, forceinline)
    ptx, return_type = _compile(
        pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, abi, launch_bounds, abi_info
    )
    codes = [ptx]
    links = getattr(pyfunc, "link_files", None)
    if callable(links):
        codes += list(dict.fromkeys(links()))
    return codes, return_type


def compile_for_current_device(
    pyfunc,
    sig,
    debug=None,
    lineinfo=False,
    device=True,
    fastmath=False,
    opt=None,
    abi="c",
    abi_info=None,
    output="ptx",
    forceinline=False,
    launch_bounds=None,
):
    """``compile`` for the compute capability of the current GPU."""
    from taipan.cuda.driver import current_compute_capability

    return compile(
        pyfunc,
        sig,
        debug=debug,
        lineinfo=lineinfo,
        device=device,
        fastmath=fastmath,
        cc=current_compute_capability(),
        opt=opt,
        abi=abi,
        abi_info=abi_info,
        output=output,
        forceinline=forceinline,
        launch_bounds=launch_bounds,
    )
