"""``numba.cuda.cudadrv.driver`` on taipan: the classes of the objects taipan.cuda makes
(streams, events, contexts, devices), the memory objects and EMM plugin classes
(taipan.cuda.api.memory), the errors, and numba-cuda's memory helpers over taipan's own copies
and memsets; numba-cuda's driver-call internals stay placeholders."""

import ctypes

import numpy as np

import taipan.cuda as _cuda
from numba._missing import fill_missing
from taipan import config as _config
from taipan.cuda.api.errors import CudaDriverError as _CudaDriverError
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


def _raise_as_cuda_core_errors():
    """numba-cuda's driver and NVRTC errors are cuda.core's: where cuda.core is installed,
    taipan raises subclasses of its own classes that are cuda.core's CUDAError and NVRTCError
    too (left as they are where cuda.core's classes cannot be combined with them)."""
    try:
        from cuda.core._utils.cuda_utils import CUDAError, NVRTCError
    except ImportError:
        return _CudaDriverError
    from taipan.cuda.api.errors import NvrtcCompilationError

    try:
        driver_error = type("CudaAPIError", (_CudaDriverError, CUDAError), {})
        nvrtc_error = type("NvrtcCompilationError", (NvrtcCompilationError, NVRTCError), {})
    except TypeError:  # an extension type whose layout another base cannot share
        return _CudaDriverError
    # Module attributes, so that errors pickled in a worker process unpickle by reference.
    globals()["NvrtcCompilationError"] = nvrtc_error
    if not _config.ENABLE_CUDASIM:
        from taipan import _core
        from taipan.cuda.api.errors import CudaSupportError

        _core.cuda_set_error_classes(CudaSupportError, driver_error)
        _core.nvrtc_set_error_class(nvrtc_error)
    return driver_error


CudaAPIError = _raise_as_cuda_core_errors()


if not _config.ENABLE_CUDASIM:
    from taipan.cuda.streams import Event, Stream  # noqa: F401  (tests patch Stream's methods)


def require_context(fn):
    """numba-cuda's decorator: the current device's context exists while `fn` runs."""

    def with_context(*args, **kwargs):
        _cuda.current_context()
        return fn(*args, **kwargs)

    return with_context


class _Linker:
    """numba-cuda's linker object over taipan's linking: code added by path or from memory,
    linked by the driver's linker for the current GPU (``complete()`` gives the cubin)."""

    def __init__(self, max_registers=0, lineinfo=False, cc=None, lto=None, additional_flags=None):
        self.max_registers = max_registers or 0
        self.cc = cc
        self.lto = lto
        self._links = []

    def add_cu(self, cu, name="<unnamed-cu>"):
        from taipan.cuda import linking

        self._links.append(linking.CUSource(cu, name=name))

    def add_ptx(self, ptx, name="<unnamed-ptx>"):
        from taipan.cuda import linking

        self._links.append(linking.PTXSource(ptx, name=name))

    def add_file_guess_ext(self, path_or_code, ignore_nonlto=False):
        from taipan.cuda import linking

        self._links += linking.check_link_files([path_or_code])

    def complete(self):
        """The cubin of everything added, linked for the current GPU."""
        from taipan import _core
        from taipan.cuda import driver as taipan_driver
        from taipan.cuda import linking

        major, minor = taipan_driver.current_compute_capability()
        if self.cc is not None and tuple(self.cc) != (major, minor):
            raise LinkerError(
                f"taipan links for the current GPU (compute capability {major}.{minor}), "
                f"not {self.cc}"
            )
        inputs = linking.link_inputs(None, "", self._links, major * 10 + minor)[1:]
        cubin, _ = _core.cuda_link(inputs, self.max_registers)
        return cubin

    def get_linked_ptx(self):
        raise NotImplementedError("linking to PTX needs nvJitLink's LTO, which taipan does not use")


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


# The driver functions numba-cuda copies through, which taipan's copies honour replacements of.
_COPIES = ("cuMemcpyHtoD", "cuMemcpyDtoH")


class _Driver:
    """numba-cuda's driver object, for the queries its tests make: the device count and the
    device memory's (free, total) as the driver tells them (not a memory manager's)."""

    def get_device_count(self):
        return len(_cuda.gpus)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name == "cuInit" and not _config.ENABLE_CUDASIM:
            _initialise_through(value)
        if name in _COPIES:
            self._replace_copies()

    def __delattr__(self, name):
        object.__delattr__(self, name)
        if name in _COPIES:
            self._replace_copies()

    def _replace_copies(self):
        """numba-cuda copies between host and device through ``driver.cuMemcpyHtoD`` and
        ``cuMemcpyDtoH``, which its tests replace (to see that a call copies nothing): taipan's
        synchronous copies call such a replacement instead, until the binding's own function
        (what getattr gave) is assigned back or the attribute deleted."""
        if _config.ENABLE_CUDASIM:
            return
        replacements = []
        for name in _COPIES:
            value = self.__dict__.get(name)
            own = value is None or getattr(value, "_binding_function", False)
            replacements.append(None if own else value)
        from taipan import _core

        _core.cuda_replace_copies(*replacements)

    def cuMemGetInfo(self):  # the driver function's name
        if _config.ENABLE_CUDASIM:
            return tuple(_cuda.current_context().get_memory_info())
        from taipan.cuda import driver as taipan_driver

        return tuple(taipan_driver._driver().cuda_memory_info())

    def __getattr__(self, name):
        """numba-cuda's driver functions: cuda.bindings' function of that name, its result
        checked (CudaAPIError), giving back the values it returns (one value as itself)."""
        if not name.startswith("cu"):
            raise AttributeError(name)
        function = getattr(_bindings(), name)

        def call(*args):
            result, *values = function(*args)
            if result != _bindings().CUresult.CUDA_SUCCESS:
                raise CudaAPIError(int(result), f"Call to {name} results in {result.name}")
            if len(values) == 1:
                return values[0]
            return tuple(values) if values else None

        call._binding_function = True
        return call

    def pop_active_context(self):
        """Pops the context current on this thread (None when there is none)."""
        current = self.cuCtxGetCurrent()
        if not int(current):
            return None
        return self.cuCtxPopCurrent()

    def get_active_context(self):
        return _ActiveContext()


def _initialise_through(cu_init):
    """numba-cuda initialises CUDA by calling ``driver.cuInit``, which its tests replace before
    the first CUDA call to make initialisation fail. taipan initialises in C++, so a
    replacement installed before taipan initialised is called here, once: a CudaAPIError from
    it makes CUDA unavailable in this process, in numba-cuda's words ("Error at driver init:
    NAME (CODE)"), raised as CudaSupportError by CUDA operations and given by
    cuda.cuda_error()."""
    from taipan import config as taipan_config
    from taipan.cuda import driver as taipan_driver

    if taipan_driver._ready:
        return
    try:
        cu_init(0)
    except CudaAPIError as error:
        code = getattr(error, "code", error.args[0] if error.args else "")
        name = error.args[1] if len(error.args) > 1 else str(error)
        reason = f"Error at driver init: {name} ({code})"
        taipan_driver.unavailable_reason = lambda: reason
        taipan_config.DISABLE_CUDA = True  # every allocation path asks unavailable_reason


class _ActiveContext:
    """The context current on this thread, as numba-cuda's context manager gives it
    (``context_handle`` None when there is none, ``devnum`` its device)."""

    def __enter__(self):
        handle = driver.cuCtxGetCurrent()
        self.context_handle = handle if int(handle) else None
        self.devnum = int(driver.cuCtxGetDevice()) if self.context_handle is not None else None
        return self

    def __exit__(self, *exception):
        return False


class Context:
    """numba-cuda's Context made from a device and a context handle another library created:
    ``push``/``pop`` make it current on this thread and take it off again."""

    def __init__(self, device, handle):
        self.device = device
        self.handle = handle

    def push(self):
        driver.cuCtxPushCurrent(self.handle)

    def pop(self):
        popped = driver.cuCtxPopCurrent()
        assert int(popped) == int(self.handle)


def _bindings():
    from cuda.bindings import driver as bindings

    return bindings


class CudaPythonModule:
    """numba-cuda's module of code loaded from memory (``ctx.create_module_ptx``): cuda.core's
    ObjectCode, whose kernels cuda.core's ``launch`` takes
    (``module.get_function(name).kernel``)."""

    def __init__(self, context, object_code):
        self.context = context
        self.object_code = object_code
        self.handle = object_code.handle

    def get_function(self, name):
        return Function(self, self.object_code.get_kernel(name), name)

    def unload(self):
        """Lets the module go (cuda.core unloads its library when the object is collected)."""
        self.object_code = None


class Function:
    """numba-cuda's loaded kernel: cuda.core's Kernel (``.kernel``), its driver handle
    (``.handle``: a CUkernel, which the driver's CUfunction calls take too) and the calls
    numba-cuda makes on it (cache preference, shared memory carveout)."""

    def __init__(self, module, kernel, name, handle=None):
        self.module = module
        self.kernel = kernel
        self.name = name
        self.handle = handle if handle is not None else _kernel_handle(kernel)

    def __repr__(self):
        return f"<CUDA function {self.name}>"

    def cache_config(self, prefer_equal=False, prefer_cache=False, prefer_shared=False):
        """The kernel's preference between L1 cache and shared memory, as numba-cuda sets it."""
        prefer_equal = prefer_equal or (prefer_cache and prefer_shared)
        cache = _bindings().CUfunc_cache
        if prefer_equal:
            flag = cache.CU_FUNC_CACHE_PREFER_EQUAL
        elif prefer_cache:
            flag = cache.CU_FUNC_CACHE_PREFER_L1
        elif prefer_shared:
            flag = cache.CU_FUNC_CACHE_PREFER_SHARED
        else:
            flag = cache.CU_FUNC_CACHE_PREFER_NONE
        driver.cuFuncSetCacheConfig(_bindings().CUfunction(int(self.handle)), flag)

    def set_shared_memory_carveout(self, carveout):
        """The share of the unified L1/shared memory given to shared memory, in percent (-1:
        the driver's default)."""
        carveout = int(carveout)
        if not -1 <= carveout <= 100:
            raise ValueError("Carveout must be between -1 and 100")
        attribute = _bindings().CUfunction_attribute
        driver.cuFuncSetAttribute(
            _bindings().CUfunction(int(self.handle)),
            attribute.CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
            carveout,
        )


def _kernel_handle(kernel):
    handle = getattr(kernel, "handle", None)
    return handle if handle is not None else kernel._handle


class _CodeLibrary:
    """numba-cuda's ``kernel._codelibrary`` of a compiled kernel: ``get_cufunc()`` gives the
    kernel as loaded on the current device (taipan's own module and function handles), and
    ``_linking_files`` what it links."""

    def __init__(self, kernel):
        self._kernel = kernel

    @property
    def _linking_files(self):
        """The files linked with the kernel (its link= entries; taipan's grid barrier is its
        own code, so no cudadevrt)."""
        return set(self._kernel.links)

    def get_cufunc(self):
        _, function = self._kernel.function()
        return Function(None, None, self._kernel.name, handle=function)


def _create_module_ptx(context, ptx):
    """numba-cuda's ``Context.create_module_ptx``: PTX loaded through cuda.core."""
    from cuda.core import ObjectCode

    if isinstance(ptx, str):
        ptx = ptx.encode("utf8")
    return CudaPythonModule(context, ObjectCode.from_ptx(ptx))


def _active_blocks_per_multiprocessor(context, func, blocksize, memsize, flags=None):
    """numba-cuda's ``Context.get_active_blocks_per_multiprocessor``: the driver's occupancy."""
    function = _bindings().CUfunction(int(func.handle))
    if not flags:
        return driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(function, blocksize, memsize)
    return driver.cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        function, blocksize, memsize, flags
    )


def _to_core_stream(stream):
    """numba-cuda's stream argument as a cuda.core Stream: 0/None (the default stream), a
    taipan Stream, a cuda.core Stream, or a cuda.core GraphBuilder (its stream)."""
    from cuda.core import Stream as CoreStream

    if not stream:
        return CoreStream.from_handle(0)
    if isinstance(stream, CoreStream):
        return stream
    graph_stream = getattr(stream, "stream", None)
    if isinstance(graph_stream, CoreStream):
        return graph_stream
    if hasattr(stream, "__cuda_stream__"):
        return CoreStream.from_handle(int(stream))
    raise TypeError(
        "Expected a Stream object, ExperimentalStream, GraphBuilder, or 0, got "
        f"{type(stream).__name__}"
    )


if not _config.ENABLE_CUDASIM:
    # numba-cuda's driver-level calls on contexts and compiled kernels, which its tests make;
    # they load and query code through cuda.core and cuda.bindings, as numba-cuda does.
    from taipan.cuda.devices import Context as _TaipanContext
    from taipan.cuda.dispatcher import Kernel as _TaipanKernel

    _TaipanContext.create_module_ptx = _create_module_ptx
    _TaipanContext.get_active_blocks_per_multiprocessor = _active_blocks_per_multiprocessor
    _TaipanKernel._codelibrary = property(_CodeLibrary)


driver = _Driver()


def _have_nvjitlink():
    """numba-cuda asks whether nvJitLink can link LTO-IR (float16 math and lto=True need it
    there). taipan needs no LTO: its kernels are whole LLVM modules, float16 included, and
    lto= is accepted and ignored; so LTO is never missing."""
    return True


def __getattr__(name):
    if name == "binding":  # cuda.bindings' driver module, imported when a test asks for it
        return _bindings()
    return _missing(name)


def _cuda_memory():
    if _config.ENABLE_CUDASIM:
        from taipan.cuda.simulator import host

        return host
    from taipan.cuda import memory

    return memory


_missing = fill_missing(globals(), __name__)
