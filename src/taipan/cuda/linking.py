"""Foreign device code: ``cuda.declare_device`` and what ``@cuda.jit(link=[...])`` names: files
or code in memory (numba-cuda's ``LinkableCode`` objects: ``CUSource``, ``PTXSource``...).
``.cu`` sources compile with NVRTC (found at run time, like the driver); ``.ptx``, ``.cubin``,
``.fatbin``, ``.o`` and ``.a`` go to the driver's linker as they are."""

import atexit
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
import warnings

from taipan import _core, config
from taipan.cuda import api, driver
from taipan.cuda.toolkit import toolkit_roots, wheel_paths
from taipan.types import parse_signature

# numba-cuda's classes of code to link held in memory, here too (cuda/api/linkable_code.py).
linkable_code = api.linkable_code
LinkableCode, CUSource, PTXSource = (
    linkable_code.LinkableCode,
    linkable_code.CUSource,
    linkable_code.PTXSource,
)
Cubin, Fatbin, Object, Archive, LTOIR = (
    linkable_code.Cubin,
    linkable_code.Fatbin,
    linkable_code.Object,
    linkable_code.Archive,
    linkable_code.LTOIR,
)
_CUBIN, _PTX, _FATBIN = linkable_code.CUBIN, linkable_code.PTX, linkable_code.FATBIN
_OBJECT, _LIBRARY = linkable_code.OBJECT, linkable_code.LIBRARY
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

    def __init__(self, name, sig, link=(), abi="numba", use_cooperative=False):
        if abi not in _ABIS:
            raise ValueError(f"abi must be one of {_ABIS}, not {abi!r}")
        signature = parse_signature(sig)
        if signature.return_type is None:
            raise TypeError(
                "Return type must be provided for device declarations: "
                f"declare_device({name!r}) needs a return type: write 'int32(int32, int32)', "
                "or 'void(...)' for none"
            )
        self.name = name
        self.sig = signature
        self.abi = abi
        self.link = tuple(check_link_files(link))
        # numba-cuda's use_cooperative: the code synchronises the grid, so a kernel calling it
        # is launched as a cooperative grid (Kernel.cooperative).
        self.use_cooperative = bool(use_cooperative)
        if self.use_cooperative:
            _cooperative_symbols.add(name)
        # numba-cuda declares any parameter types (arrays pass as their members in its ABI);
        # foreign code receives numbers and pointers from taipan, so a declaration of others
        # stands (its name and sig read as numba-cuda's) and a call of it is refused, saying
        # why (GlobalResolution reads _taipan_external_function).
        self._refusal = None
        try:
            self._function_type = _core.external_function_type(
                name, list(signature.args), signature.return_type, abi == "c"
            )
        except TypeError as refusal:
            self._refusal = str(refusal)

    @property
    def _taipan_external_function(self):
        """The function's type in compiled code (a TypeError when it cannot be called)."""
        if self._refusal is not None:
            raise TypeError(self._refusal)
        return self._function_type

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
    return ExternalFunction(name, sig, link or (), abi, use_cooperative)


# The foreign functions declared with use_cooperative=True, by symbol.
_cooperative_symbols = set()


def calls_cooperative_code(ptx):
    """Whether a kernel's PTX synchronises its grid, directly (cg.this_grid().sync()) or in a
    foreign function declared with use_cooperative=True: it must be launched cooperatively."""
    return "taipan_grid_barrier" in ptx or any(
        symbol in _cooperative_symbols for symbol in external_symbols(ptx)
    )


def check_link_files(paths, compile_sources=False):
    """The link= entries (paths and LinkableCode objects) checked early rather than at the first
    launch: missing files and files of an unknown kind are refused in numba-cuda's words. With
    `compile_sources`, CUDA C++ is compiled now for the current GPU (or the default target
    without one), so its errors and NVRTC's warnings come now."""
    if isinstance(paths, (str, os.PathLike, LinkableCode)):
        paths = [paths]
    checked = []
    for path in paths:
        if isinstance(path, LinkableCode):
            if path.kind == "ltoir":
                raise api.errors.LinkFileKindError(
                    f"cannot link {path.name}: LTO-IR needs nvJitLink, and taipan links with "
                    "the driver's linker"
                )
            if path.kind == "cu" and compile_sources:
                _precompile(path)
            checked.append(path)
            continue
        path = os.fspath(path)
        suffix = os.path.splitext(path)[1].lower()
        if suffix != ".cu" and suffix not in _KIND_BY_SUFFIX:
            what = f"extension {suffix}" if suffix else "no extension"
            raise api.errors.LinkFileKindError(
                f"Don't know how to link file with {what}: expected a .cu, .ptx, .cubin, "
                f".fatbin, .o or .a file ({path})"
            )
        if not os.path.isfile(path):
            raise api.errors.LinkFileNotFoundError(f"{path} not found")
        if suffix == ".cu" and compile_sources:
            _precompile(path)
        checked.append(path)
    return checked


def _precompile(source):
    """Compiles CUDA C++ for the kernels' target, when NVRTC is there (else at the launch,
    which then says NVRTC is missing)."""
    _find_nvrtc()
    if _core.nvrtc_available():
        compile_cuda_source(source, driver.target_compute_capability())


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
    (os.pathsep-separated), the toolkit's include folder, NVIDIA's wheels' include folders,
    each followed by its cccl folder where there is one, then config.CUDA_NVRTC_EXTRA_SEARCH_PATHS
    (':'-separated, numba-cuda's setting, last as there)."""
    directories = []
    for variable in ("TAIPAN_CUDA_INCLUDE_PATH", "NUMBA_CUDA_INCLUDE_PATH"):
        directories += [d for d in os.environ.get(variable, "").split(os.pathsep) if d]
    directories += [os.path.join(root, "include") for root in toolkit_roots()]
    directories += wheel_paths("include")
    directories += [d for d in config.CUDA_NVRTC_EXTRA_SEARCH_PATHS.split(":") if d]
    # CUDA 13 moved CCCL's headers (<cuda/std/...>, which curand_kernel.h includes) into
    # include/cccl, where nvcc looks and NVRTC does not.
    directories += [os.path.join(directory, "cccl") for directory in directories]
    unique = []
    for directory in directories:
        if os.path.isdir(directory) and directory not in unique:
            unique.append(directory)
    return unique


# Compiled CUDA C++, by (path, modification time, size, compute capability) for a file and
# (name, digest of the source, compute capability) for a CUSource.
_compiled_sources = {}


def compile_cuda_source(source, compute_capability):
    """CUDA C++ (a .cu file's path or a CUSource) as a relocatable cubin for
    sm_<compute_capability>, compiled once. NVRTC's warnings are given as a UserWarning, once
    per compilation. Code that uses features of the arch-specific variant of the device's
    architecture (sm_90a's tensormap instructions...) compiles for that variant: see
    _compiled."""
    return _compiled(source, compute_capability)[0]


# CU_COMPUTE_ACCELERATED_TARGET_BASE: CUjit_target of sm_<cc>a is this plus <cc>.
_ACCELERATED_TARGET_BASE = 0x10000


def _compiled(source, compute_capability):
    """(the cubin of CUDA C++ `source`, whether it is for the arch-specific variant sm_<cc>a).
    numba-cuda compiles for sm_<cc>a on devices of compute capability 9.0 and up; taipan
    compiles for the portable sm_<cc> and, when NVRTC refuses the code there (an instruction
    only the variant has), for sm_<cc>a, reporting the first error if that fails too. A kernel
    linking such a cubin is linked for the variant (link_target)."""
    if isinstance(source, LinkableCode):
        text = source.data
        text = text.decode() if isinstance(text, bytes) else text
        name = source.name
        key = (name, hashlib.sha256(text.encode()).hexdigest(), compute_capability)
    else:
        status = os.stat(source)
        name = os.path.basename(source)  # NVRTC's messages name the file as numba-cuda's do
        key = (os.path.abspath(source), status.st_mtime_ns, status.st_size, compute_capability)
        text = None
    # Other search paths may find other headers.
    key += (config.CUDA_NVRTC_EXTRA_SEARCH_PATHS,)
    # A file's own folder first, for its quoted includes (its name is given without it).
    folders = [] if isinstance(source, LinkableCode) else [os.path.dirname(os.path.abspath(source))]
    compiled = _compiled_sources.get(key)
    if compiled is None:
        _find_nvrtc()
        if text is None:
            with open(source, encoding="utf-8") as file:
                text = file.read()
        includes = folders + include_directories()
        arch_specific = False
        try:
            cubin, log = _core.nvrtc_compile(text, name, compute_capability, includes)
        except driver.NvrtcCompilationError:
            if compute_capability < 90:
                raise
            try:
                cubin, log = _core.nvrtc_compile(
                    text, name, compute_capability, includes, arch_specific=True
                )
            except driver.NvrtcCompilationError:
                pass
            else:
                arch_specific = True
            if not arch_specific:
                raise
        if log.strip():
            warnings.warn(f"NVRTC log messages whilst compiling {name}:\n\n{log}", stacklevel=3)
        compiled = _compiled_sources[key] = (cubin, arch_specific)
    return compiled


def _is_cuda_source(link):
    if isinstance(link, LinkableCode):
        return link.kind == "cu"
    return os.path.splitext(link)[1].lower() == ".cu"


def link_target(links, compute_capability):
    """The CUjit_target a kernel with these link= entries is linked for: 0 (the device's own)
    unless CUDA C++ among them compiled for the arch-specific variant, which the rest must
    join (sm_<cc>a)."""
    for link in links:
        if _is_cuda_source(link) and _compiled(link, compute_capability)[1]:
            return _ACCELERATED_TARGET_BASE + compute_capability
    return 0


def link_inputs(ptx, entry, links, compute_capability):
    """The linker's inputs for a kernel's PTX (entry point ``entry``) and its link= entries
    (paths and LinkableCode objects), CUDA C++ compiled for ``compute_capability``."""
    inputs = [(_PTX, entry + ".ptx", ptx)]
    for link in links:
        if isinstance(link, LinkableCode):
            if link.kind == "cu":
                inputs.append((_CUBIN, link.name, compile_cuda_source(link, compute_capability)))
            else:
                inputs.append((link.kind, link.name, link.data))
            continue
        suffix = os.path.splitext(link)[1].lower()
        if suffix == ".cu":
            inputs.append((_CUBIN, link, compile_cuda_source(link, compute_capability)))
        else:
            inputs.append((_KIND_BY_SUFFIX[suffix], link, None))
    return inputs


def link_kernel(ptx, entry, paths, name, max_registers=0):
    """The cubin of a kernel's PTX (entry point ``entry``, Python name ``name``) linked with the
    link= entries ``paths`` (each once) for the current device, its registers limited to
    ``max_registers`` when positive."""
    major, minor = driver.current_compute_capability()
    inputs = link_inputs(ptx, entry, paths, major * 10 + minor)
    target = link_target(paths, major * 10 + minor)
    # The device's own target unless arch-specific code needs its variant.
    variant = {"target": target} if target else {}
    try:
        cubin, _ = _core.cuda_link(inputs, max_registers, **variant)
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


def has_module_callbacks(links):
    """Whether a kernel's link= entries have module setup or teardown callbacks."""
    return any(isinstance(link, LinkableCode) and link.has_callbacks for link in links)


# Modules loaded with callbacks, by (device, context generation): [(object code, teardowns)].
_callback_modules = {}
_callback_lock = threading.Lock()


def load_with_callbacks(cubin, entry, links):
    """(module, function) handles of kernel ``entry`` in a linked cubin, loaded into the current
    context through cuda.core's ``ObjectCode`` (the object module callbacks receive, as
    numba-cuda gives it), after which the setup callbacks of ``links`` run. Their teardown
    callbacks run when the context is reset (``run_teardowns``) or the process ends."""
    try:
        from cuda.bindings import driver as bindings
        from cuda.core import ObjectCode
    except ImportError:
        try:
            from cuda.bindings import driver as bindings
            from cuda.core.experimental import ObjectCode
        except ImportError:
            raise ImportError(
                "module setup/teardown callbacks receive cuda.core's ObjectCode: install the "
                "cuda-core package to use them"
            ) from None
    device = driver.current_device()  # the primary context, current on this thread
    code = ObjectCode.from_cubin(cubin, name=entry)
    result, module = bindings.cuLibraryGetModule(code.handle)
    _check_binding(bindings, result, "cuLibraryGetModule")
    result, function = bindings.cuModuleGetFunction(module, entry.encode())
    _check_binding(bindings, result, "cuModuleGetFunction")
    teardowns = []
    for link in links:
        if not isinstance(link, LinkableCode):
            continue
        if link.setup_callback:
            link.setup_callback(code)
        if link.teardown_callback:
            teardowns.append(link.teardown_callback)
    with _callback_lock:
        key = (device, driver.context_generation())
        _callback_modules.setdefault(key, []).append((code, teardowns))
    return int(module), int(function)


def _check_binding(bindings, result, name):
    if result != bindings.CUresult.CUDA_SUCCESS:
        raise driver.CudaDriverError(f"{name} failed: {result.name}")


def run_teardowns(device=None):
    """Runs the teardown callbacks of the modules loaded with callbacks into `device`'s context
    (every context when None), each once."""
    with _callback_lock:
        keys = [key for key in _callback_modules if device is None or key[0] == device]
        loaded = [entry for key in keys for entry in _callback_modules.pop(key)]
    for code, teardowns in loaded:
        for teardown in teardowns:
            teardown(code)


atexit.register(run_teardowns)


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
