"""Foreign device code: ``cuda.declare_device`` and the files ``@cuda.jit(link=[...])`` names.
``.cu`` sources compile with NVRTC (found at run time, like the driver); ``.ptx``, ``.cubin``,
``.fatbin``, ``.o`` and ``.a`` go to the driver's linker as they are."""

import os
import re
import shutil
import subprocess
import tempfile

from taipan import _core
from taipan.cuda import driver
from taipan.cuda.toolkit import toolkit_roots, wheel_paths
from taipan.types import parse_signature

# CUjitInputType, as cuda.h numbers it (LinkInput::Kind in C++).
_CUBIN, _PTX, _FATBIN, _OBJECT, _LIBRARY = range(5)
_KIND_BY_SUFFIX = {
    ".cubin": _CUBIN,
    ".ptx": _PTX,
    ".fatbin": _FATBIN,
    ".o": _OBJECT,
    ".obj": _OBJECT,
    ".a": _LIBRARY,
    ".lib": _LIBRARY,
}
_ABIS = ("numba", "c")


class ExternalFunction:
    """A device function written in another language, declared by ``cuda.declare_device``;
    kernels and device functions call it like a Python function."""

    def __init__(self, name, sig, link=(), abi="numba"):
        if abi not in _ABIS:
            raise ValueError(f"abi must be one of {_ABIS}, not {abi!r}")
        signature = parse_signature(sig)
        if signature.return_type is None:
            raise TypeError(
                f"declare_device({name!r}) needs a return type: write 'int32(int32, int32)', "
                "or 'void(...)' for none"
            )
        self.name = name
        self.sig = signature
        self.abi = abi
        self.link = tuple(check_link_files(link))
        self._taipan_external_function = _core.external_function_type(
            name, list(signature.args), signature.return_type, abi == "c"
        )

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"{self.name} is a foreign CUDA device function: call it from a kernel or device "
            "function, not from Python"
        )

    def __repr__(self):
        return f"<foreign CUDA device function {self.name}: {self.sig}, abi={self.abi!r}>"


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Declares the foreign device function ``name`` with signature ``sig``.

    ``abi="numba"`` (the default) calls it as ``int name(T *result, args...)``, returning 0, as
    Numba does; ``abi="c"`` calls it as a plain ``T name(args...)``. ``link`` names files that
    define it, which every kernel calling it links with. Pointer parameters
    (``CPointer(float32)``, ``voidptr``) receive an array's data."""
    return ExternalFunction(name, sig, link or (), abi)


def check_link_files(paths):
    """The link= entries as paths, failing early for files that are missing or of an unknown
    kind rather than at the first launch."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    checked = []
    for path in paths:
        path = os.fspath(path)
        suffix = os.path.splitext(path)[1].lower()
        if suffix != ".cu" and suffix not in _KIND_BY_SUFFIX:
            raise ValueError(
                f"cannot link {path!r}: expected a .cu, .ptx, .cubin, .fatbin, .o or .a file"
            )
        if not os.path.isfile(path):
            raise FileNotFoundError(f"link file {path!r} does not exist")
        checked.append(path)
    return checked


# Functions the CUDA driver itself provides to every module.
_DRIVER_FUNCTIONS = {"vprintf", "malloc", "free", "__assertfail"}


def external_symbols(ptx):
    """The foreign functions a PTX module calls (its ``.extern .func`` declarations), less those
    the driver provides."""
    found = re.findall(r"\.extern\s+\.func\s+(?:\([^)]*\)\s*)?([\w$]+)", ptx)
    return [symbol for symbol in found if symbol not in _DRIVER_FUNCTIONS]


_nvrtc_searched = False


def _find_nvrtc():
    """Points NVRTC's loader at NVIDIA's wheel when one is installed (CUDA_HOME and
    /usr/local/cuda are searched in C++), unless TAIPAN_NVRTC names a library."""
    global _nvrtc_searched
    if _nvrtc_searched:
        return
    _nvrtc_searched = True
    if os.environ.get("TAIPAN_NVRTC"):
        return
    found = wheel_paths("lib", "libnvrtc.so.*", first_folder=True)
    if found:  # the newest version
        _core.nvrtc_set_library(found[-1])


def include_directories():
    """Where NVRTC looks for headers: TAIPAN_CUDA_INCLUDE_PATH or NUMBA_CUDA_INCLUDE_PATH
    (os.pathsep-separated), the toolkit's include folder, and NVIDIA's wheels' include folders."""
    directories = []
    for variable in ("TAIPAN_CUDA_INCLUDE_PATH", "NUMBA_CUDA_INCLUDE_PATH"):
        directories += [d for d in os.environ.get(variable, "").split(os.pathsep) if d]
    directories += [os.path.join(root, "include") for root in toolkit_roots()]
    directories += wheel_paths("include")
    unique = []
    for directory in directories:
        if os.path.isdir(directory) and directory not in unique:
            unique.append(directory)
    return unique


# Compiled .cu files, by (path, modification time, size, compute capability).
_compiled_sources = {}


def compile_cuda_source(path, compute_capability):
    """A .cu file as a relocatable cubin for sm_<compute_capability>, compiled once."""
    status = os.stat(path)
    key = (os.path.abspath(path), status.st_mtime_ns, status.st_size, compute_capability)
    cubin = _compiled_sources.get(key)
    if cubin is None:
        _find_nvrtc()
        with open(path, encoding="utf-8") as file:
            source = file.read()
        cubin, _ = _core.nvrtc_compile(source, path, compute_capability, include_directories())
        _compiled_sources[key] = cubin
    return cubin


def link_kernel(ptx, entry, paths, name, max_registers=0):
    """The cubin of a kernel's PTX (entry point ``entry``, Python name ``name``) linked with the
    files in ``paths`` (each once) for the current device, its registers limited to
    ``max_registers`` when positive."""
    major, minor = driver.current_compute_capability()
    inputs = [(_PTX, entry + ".ptx", ptx)]
    for path in paths:
        suffix = os.path.splitext(path)[1].lower()
        if suffix == ".cu":
            inputs.append((_CUBIN, path, compile_cuda_source(path, major * 10 + minor)))
        else:
            inputs.append((_KIND_BY_SUFFIX[suffix], path, None))
    try:
        cubin, _ = _core.cuda_link(inputs, max_registers)
    except driver.CudaDriverError as error:
        symbols = external_symbols(ptx)
        hint = (
            f"; it calls the foreign functions {', '.join(symbols)}, which the files in link= "
            "must define"
            if symbols
            else ""
        )
        raise driver.LinkerError(f"linking kernel {name} failed{hint}:\n{error}") from None
    return cubin


def find_nvdisasm():
    """nvdisasm's path: on PATH, in CUDA_HOME or CUDA_PATH, or in /usr/local/cuda."""
    found = shutil.which("nvdisasm")
    if found:
        return found
    for root in toolkit_roots():
        if os.access(os.path.join(root, "bin", "nvdisasm"), os.X_OK):
            return os.path.join(root, "bin", "nvdisasm")
    raise RuntimeError(
        "inspect_sass needs nvdisasm from the CUDA toolkit: nvdisasm was not found on PATH, in "
        "CUDA_HOME/bin or in /usr/local/cuda/bin"
    )


def disassemble(nvdisasm, cubin):
    """The SASS of a cubin, as ``nvdisasm -c`` (code sections only) prints it."""
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "kernel.cubin")
        with open(path, "wb") as file:
            file.write(cubin)
        result = subprocess.run([nvdisasm, "-c", path], check=False, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"nvdisasm failed: {result.stderr.strip()}")
    return result.stdout
