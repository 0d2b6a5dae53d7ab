"""``numba.cuda.cudadrv.driver`` on taipan: the classes of the objects taipan.cuda makes
(streams, events, contexts, devices), the memory objects and EMM plugin classes
(taipan.cuda.api.memory), the errors, and numba-cuda's memory helpers over taipan's own copies
and memsets; numba-cuda's driver-call internals stay placeholders."""

import ctypes

import numpy as np

import taipan.cuda as _cuda
from numba._missing import fill_missing
from taipan import config as _config
from taipan.cuda.api.errors import CudaDriverError as CudaAPIError  # noqa: F401
from taipan.cuda.api.errors import CudaSupportError, LinkerError  # noqa: F401
from taipan.cuda.api.memory import (  # noqa: F401
    AutoFreePointer,
    BaseCUDAMemoryManager,
    GetIpcHandleMixin,
    HostOnlyCUDAMemoryManager,
    IpcArrayHandle,
    ManagedMemory,
    MappedMemory,
    MemoryInfo,
    MemoryPointer,
    OwnedPointer,
    PinnedMemory,
    set_memory_manager,
)

if _config.ENABLE_CUDASIM:
    pass
else:
    pass


def is_device_memory(obj):
    """Whether `obj` is device memory taipan can address: a memory pointer, a device array, or
    an object exporting the CUDA Array Interface."""
    return getattr(obj, "__cuda_memory__", False) or _cuda.is_cuda_array(obj)


def require_device_memory(obj):
    if not is_device_memory(obj):
        raise TypeError("Not a CUDA memory object.")


def device_pointer(obj):
    """The device address of a memory object or device array, as an int."""
    return device_ctypes_pointer(obj).value


def device_ctypes_pointer(obj):
    require_device_memory(obj)
    pointer = obj.device_ctypes_pointer
    return pointer if isinstance(pointer, ctypes.c_size_t) else ctypes.c_size_t(int(pointer))


def device_memory_size(obj):
    """The bytes of a memory object (its size) or a device array (its extent)."""
    size = getattr(obj, "size", None) if getattr(obj, "__cuda_memory__", False) else None
    if size is None:
        array = np.asarray(obj) if isinstance(obj, np.ndarray) else obj
        size = array.size * array.dtype.itemsize
    return size


def host_pointer(obj):
    if isinstance(obj, int):
        return obj
    return np.asarray(obj).ctypes.data if not hasattr(obj, "handle") else int(obj.handle)


def host_memory_size(obj):
    """The bytes of a host buffer (a NumPy array, a ctypes object, anything with a buffer)."""
    if isinstance(obj, np.ndarray):
        start, end = host_memory_extents(obj)
        return end - start
    return memoryview(obj).nbytes


def host_memory_extents(obj):
    """(first address, one past the last) of a host array's memory."""
    array = np.asarray(obj)
    return (
        np.byte_bounds(array)
        if hasattr(np, "byte_bounds")
        else np.lib.array_utils.byte_bounds(array)
    )


def _address_of_device(obj):
    return device_pointer(obj)


def device_memset(dst, val, size, stream=0):
    """Sets `size` bytes of device (or mapped) memory to byte `val`."""
    _cuda_memory().memset(dst, val, size, stream)


def host_to_device(dst, src, size, stream=0):
    _cuda_memory().host_to_device(dst, src, size, stream)


def device_to_host(dst, src, size, stream=0):
    _cuda_memory().device_to_host(dst, src, size, stream)


def device_to_device(dst, src, size, stream=0):
    _cuda_memory().device_to_device(dst, src, size, stream)


class _Driver:
    """numba-cuda's driver object, for the queries its tests make: the device count and the
    device memory's (free, total) as the driver tells them (not a memory manager's)."""

    def get_device_count(self):
        return len(_cuda.gpus)

    def cuMemGetInfo(self):  # the driver function's name
        if _config.ENABLE_CUDASIM:
            return tuple(_cuda.current_context().get_memory_info())
        from taipan.cuda import driver as taipan_driver

        return tuple(taipan_driver._driver().cuda_memory_info())


driver = _Driver()


def _have_nvjitlink():
    """numba-cuda asks whether nvJitLink can link LTO-IR (float16 math and lto=True need it
    there). taipan needs no LTO: its kernels are whole LLVM modules, float16 included, and
    lto= is accepted and ignored; so LTO is never missing."""
    return True



def _cuda_memory():
    if _config.ENABLE_CUDASIM:
        from taipan.cuda.simulator import host

        return host
    from taipan.cuda import memory

    return memory


__getattr__ = fill_missing(globals(), __name__)
