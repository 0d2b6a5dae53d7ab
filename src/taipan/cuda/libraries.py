"""NVIDIA's CUDA libraries (cuFFT, cuBLAS) opened at run time with ctypes, and what their
Python wrappers share: the search for the shared library, the CUDA context they run in, and
turning NumPy arrays, taipan device arrays and other libraries' device arrays into operands.

Search order for a library (``libcublas.so.13``, ``.so.12``, ...; newest major first):

1. a copy the process has already loaded (by CuPy or PyTorch, say), so that one copy serves;
2. the folders of the CUDA toolkit: ``$CUDA_HOME``, ``$CUDA_PATH``, ``/usr/local/cuda``
   (``lib64``, ``lib`` and ``targets/<arch>-linux/lib`` of each);
3. NVIDIA's pip wheels (``site-packages/nvidia/*/lib``: nvidia-cublas-cu12, nvidia-cufft,
   the ``cu13`` folder of CUDA 13's wheels) and PyTorch's ``torch/lib``;
4. the folders of ``LD_LIBRARY_PATH``;
5. the dynamic loader by name (its cache, ``/etc/ld.so.conf``).

A library made for a newer CUDA than the driver supports is passed over. When none is found,
``CudaSupportError`` names every place looked at.

Context: taipan's driver layer runs everything in the device's primary context, made current
on the calling thread before each library call. The CUDA runtime inside cuFFT and cuBLAS
uses the context current on the thread, and a device's primary context is the one the runtime
itself would pick, so the libraries, taipan's kernels and CuPy or PyTorch all share one
context and one address space.
"""

import ctypes
import os
import platform
import site
import threading

import numpy as np

from taipan.cuda import driver
from taipan.cuda.driver import CudaSupportError

# What each library's sonames need from the driver: the CUDA major version they belong to.
# cuFFT's soname counts differently from CUDA's (cuFFT 12 ships with CUDA 13).
LIBRARIES = {
    "cublas": {
        "title": "cuBLAS",
        "sonames": [("libcublas.so.13", 13), ("libcublas.so.12", 12), ("libcublas.so.11", 11)],
        "fallback": "libcublas.so",
        "wheel": "nvidia-cublas-cu12 (CUDA 12) or nvidia-cublas (CUDA 13)",
    },
    "cufft": {
        "title": "cuFFT",
        "sonames": [("libcufft.so.12", 13), ("libcufft.so.11", 12), ("libcufft.so.10", 11)],
        "fallback": "libcufft.so",
        "wheel": "nvidia-cufft-cu12 (CUDA 12) or nvidia-cufft (CUDA 13)",
    },
}

_lock = threading.Lock()
_opened = {}  # library key -> (ctypes.CDLL, path)


def toolkit_library_folders():
    """The library folders of the CUDA toolkits named by CUDA_HOME and CUDA_PATH, and of
    /usr/local/cuda, that exist."""
    from taipan.cuda.toolkit import toolkit_roots

    arch = platform.machine()
    target = "sbsa-linux" if arch == "aarch64" else f"{arch}-linux"
    folders = []
    for root in toolkit_roots():
        for sub in ("lib64", "lib", os.path.join("targets", target, "lib")):
            folders.append(os.path.join(root, sub))
    return folders


def package_library_folders():
    """Library folders of NVIDIA's pip wheels (site-packages/nvidia/*/lib) and of PyTorch."""
    from taipan.cuda.toolkit import wheel_paths

    folders = list(wheel_paths("lib"))
    for packages in site.getsitepackages() + [site.getusersitepackages()]:
        folders.append(os.path.join(packages, "torch", "lib"))
    return folders


def search_folders():
    """Every folder searched, in order (those that do not exist are skipped when searched)."""
    folders = toolkit_library_folders() + package_library_folders()
    folders += [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
    seen, ordered = set(), []
    for folder in folders:
        key = os.path.normpath(folder)
        if key not in seen:
            seen.add(key)
            ordered.append(folder)
    return ordered


# Whether to ask the dynamic loader for an already loaded copy and, last, for the name alone.
# Tests turn this off to point the search at a folder of their own.
use_dynamic_loader = True


def _driver_cuda_major():
    """The CUDA major version the driver supports, or None without a driver."""
    if not driver.is_available():
        return None
    try:
        return int(driver._core.cuda_driver_version()) // 1000
    except (driver.CudaDriverError, driver.CudaSupportError):
        return None


def _try_open(path_or_name, mode=0):
    try:
        return ctypes.CDLL(path_or_name, mode=mode or ctypes.DEFAULT_MODE)
    except OSError as error:
        return error


def find_library(key):
    """(ctypes.CDLL, path) of library ``key`` ("cublas", "cufft"), opened once per process."""
    with _lock:
        found = _opened.get(key)
        if found is None:
            found = _opened[key] = _search(key)
        return found


def _search(key):
    spec = LIBRARIES[key]
    supported = _driver_cuda_major()
    sonames = [name for name, major in spec["sonames"] if supported is None or major <= supported]
    passed_over = [name for name, major in spec["sonames"] if name not in sonames]
    failures = []
    if use_dynamic_loader:
        noload = getattr(os, "RTLD_NOLOAD", 0)
        for name in sonames if noload else ():
            library = _try_open(name, noload | getattr(os, "RTLD_LAZY", 1))
            if not isinstance(library, OSError):
                return library, name + " (already loaded)"
    folders = search_folders()
    for name in sonames + [spec["fallback"]]:
        for folder in folders:
            path = os.path.join(folder, name)
            if not os.path.exists(path):
                continue
            library = _try_open(path)
            if isinstance(library, OSError):
                failures.append(f"{path}: {library}")
                continue
            return library, path
    if use_dynamic_loader:
        for name in sonames:
            library = _try_open(name)
            if not isinstance(library, OSError):
                return library, name
    message = [
        f"{spec['title']} was not found: looked for {', '.join(sonames + [spec['fallback']])}",
        "in " + (", ".join(folders) if folders else "no folders"),
    ]
    if use_dynamic_loader:
        message.append("and through the dynamic loader (LD_LIBRARY_PATH, ldconfig's cache)")
    if passed_over:
        message.append(
            f"(passed over {', '.join(passed_over)}: the driver supports CUDA {supported} only)"
        )
    if failures:
        message.append("; these failed to load: " + "; ".join(failures))
    message.append(f". Install the CUDA toolkit and set CUDA_HOME, or pip install {spec['wheel']}")
    raise CudaSupportError(" ".join(message[:-1]) + message[-1])


def forget_libraries():
    """Forgets the libraries found, so that the next use searches again (for tests)."""
    with _lock:
        _opened.clear()


def library_path(key):
    """Where library ``key`` was found (opening it if not yet done)."""
    return find_library(key)[1]


# --- the context and streams -----------------------------------------------------------------


def enter_context():
    """Makes taipan's context of the current device current on this thread; returns the
    (device, context generation) that library handles made now belong to."""
    core = driver.ready()
    device = core.cuda_current_device()  # binds taipan's primary context to this thread
    return device, driver.context_generation()


def stream_pointer(stream):
    """The CUstream (cudaStream_t) of a stream argument: 0 for the default stream."""
    from taipan.cuda.streams import stream_handle

    return stream_handle(stream) or 0


def synchronize_stream(stream):
    """Waits for the work queued on ``stream`` (the default stream when 0)."""
    core = driver.ready()
    handle = stream_pointer(stream)
    if handle:
        core.cuda_synchronize_stream(handle)
    else:
        core.cuda_synchronize()


# --- operands --------------------------------------------------------------------------------


def is_device(value):
    """Whether ``value`` lives in GPU memory (a taipan device array or another library's array
    exporting the CUDA Array Interface)."""
    from taipan.cuda.devicearray import DeviceNDArray

    # hasattr evaluates the interface property, which builds a dictionary: skip it for taipan's.
    return isinstance(value, DeviceNDArray) or hasattr(value, "__cuda_array_interface__")


def as_device(value, stream=0):
    """A taipan device array for ``value``: itself, a view of another library's device array
    (waiting for its producer's stream), or a copy of a host array made on ``stream``."""
    from taipan.cuda.devicearray import DeviceNDArray, to_device
    from taipan.cuda.interop import as_cuda_array

    if isinstance(value, DeviceNDArray):
        return value
    if is_device(value):
        return as_cuda_array(value)
    return to_device(np.ascontiguousarray(value), stream=stream)


def reinterpret(array, dtype, shape=None):
    """A view of a contiguous device array's memory as another dtype and shape (C order)."""
    from taipan.cuda.devicearray import DeviceNDArray

    dtype = np.dtype(dtype)
    if shape is None:
        shape = (array.nbytes // dtype.itemsize,)
    return DeviceNDArray(shape, None, dtype, array._buffer, array._offset, array.stream)


def device_pointer(array):
    return int(array.device_ctypes_pointer)
