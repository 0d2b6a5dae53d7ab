"""The GPU backend's memory managers (numba-cuda's EMM interface, taipan.cuda.api.memory):
taipan's default manager, whose device memory is taipan's own allocator (pools and frees
deferred until the streams using the memory are done, in the extension), the host allocations
every HostOnlyCUDAMemoryManager makes, and ``cuda.defer_cleanup``."""

import contextlib
import ctypes
import sys

import numpy as np

from taipan import _core, config
from taipan.cuda import api, driver
from taipan.cuda.streams import stream_handle


class PendingDeviceFrees:
    """numba-cuda's pending deallocations of the device memory taipan allocates (device
    arrays, ``memalloc``): the queue is the extension's (CudaMemory's deferred frees), which a
    collected array's buffer enters without Python code; this object reads and drives it.
    Freed when more than config.CUDA_DEALLOCS_COUNT are pending or their bytes pass
    config.CUDA_DEALLOCS_RATIO of the memory, on ``clear()`` and on synchronize, never inside
    ``disable()`` (``cuda.defer_cleanup()``) except when an allocation runs out of memory."""

    def __init__(self):
        self.memory_capacity = 0
        self._disable_count = 0

    @property
    def _max_pending_bytes(self):
        return int(self.memory_capacity * config.CUDA_DEALLOCS_RATIO)

    @property
    def _size(self):
        return _core.cuda_pending_free_bytes()

    def clear(self):
        """Frees every pending block (after the work using it), unless disabled."""
        _core.cuda_release_pending()

    @contextlib.contextmanager
    def disable(self):
        _core.cuda_defer_releases(True)
        self._disable_count += 1
        try:
            yield
        finally:
            self._disable_count -= 1
            _core.cuda_defer_releases(False)

    @property
    def is_disabled(self):
        return self._disable_count > 0

    def __len__(self):
        return _core.cuda_pending_frees()


class TaipanMemoryManager(api.memory.GetIpcHandleMixin, api.memory.HostOnlyCUDAMemoryManager):
    """The manager contexts use unless ``cuda.set_memory_manager`` chose a plugin. Device
    arrays do not go through it (they hold the allocator's buffers directly, which is faster);
    ``Context.memalloc`` does. Its ``deallocations`` are the extension's pending frees."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.deallocations = PendingDeviceFrees()

    def initialize(self):
        if not self.deallocations.memory_capacity:
            self.deallocations.memory_capacity = self.get_memory_info().total

    def memalloc(self, size):
        buffer = _core.cuda_allocate(size, 0, None)
        release = api.memory.held_until_freed(self.allocations, buffer.pointer, buffer)
        memory = api.memory.AutoFreePointer(self.context, buffer.pointer, size, finalizer=release)
        self.allocations[buffer.pointer] = memory
        return memory.own()

    def get_memory_info(self):
        return api.devices.MemoryInfo(*driver._driver().cuda_memory_info())

    @property
    def interface_version(self):
        return api.memory.EMM_INTERFACE_VERSION


# --- what the plugin base classes call (registered with api.memory.use_backend) ----------------


def memhostalloc(manager, size, mapped, portable, wc):
    """Page-locked host memory: MappedMemory (kernels reach it) when `mapped`, else
    PinnedMemory. Portable and write-combined memory are not distinguished."""
    allocation = driver._driver().cuda_allocate_host(size, "mapped" if mapped else "pinned")
    if mapped:
        release = api.memory.held_until_freed(manager.allocations, allocation.pointer, allocation)
        memory = api.memory.MappedMemory(
            manager.context,
            allocation.pointer,
            size,
            finalizer=release,
            device_pointer=allocation.device_pointer,
        )
        manager.allocations[allocation.pointer] = memory
        return memory.own()
    # PinnedMemory is the object the caller keeps (no OwnedPointer): it holds the allocation.
    held = [allocation]
    return api.memory.PinnedMemory(manager.context, allocation.pointer, size, finalizer=held.clear)


def mempin(manager, owner, pointer, size, mapped):
    """Page-locks existing host memory until the returned object is collected or freed (at
    once: the same memory may be pinned again right after, as cuda.pinned/mapped blocks do);
    `mapped` maps it into the device's address space too (MappedMemory)."""
    core = driver._driver()
    address = api.memory.address_of(pointer)
    device_address = core.cuda_register_host(address, size, bool(mapped))

    def unregister():
        with contextlib.suppress(Exception):
            core.cuda_unregister_host(address)

    if mapped:
        return api.memory.MappedMemory(
            manager.context,
            address,
            size,
            owner=owner,
            finalizer=unregister,
            device_pointer=device_address,
        )
    return api.memory.PinnedMemory(
        manager.context, address, size, owner=owner, finalizer=unregister
    )


def memallocmanaged(manager, size, attach_global):
    """Managed memory (attached globally: taipan does not attach it to the host only)."""
    allocation = driver._driver().cuda_allocate_host(size, "managed")
    release = api.memory.held_until_freed(manager.allocations, allocation.pointer, allocation)
    memory = api.memory.ManagedMemory(manager.context, allocation.pointer, size, finalizer=release)
    manager.allocations[allocation.pointer] = memory
    return memory.own()


def get_ipc_handle(manager, memory):
    """An IPC handle of `memory` for another process (taipan.cuda.ipc)."""
    return api.memory.ipc_backend().get_ipc_handle(manager, memory)


api.memory.use_backend(sys.modules[__name__])


# --- raw copies and memsets between memory objects (numba-cuda's driver helpers) ---------------


def _device_address(obj):
    """The device address of a memory object, device array, mapped/managed array or object
    exporting the CUDA Array Interface."""
    interface = getattr(obj, "__cuda_array_interface__", None)
    if interface is not None:
        return int(interface["data"][0])
    pointer = obj.device_ctypes_pointer
    return int(getattr(pointer, "value", pointer) or 0)


def _host_bytes(obj, size):
    """A writable uint8 NumPy view of the first `size` bytes of host memory `obj` (an array, a
    pinned or mapped memory object, or anything with a buffer)."""
    if isinstance(obj, np.ndarray):
        flat = (
            obj.reshape(-1, order="A")
            if (obj.flags.c_contiguous or obj.flags.f_contiguous)
            else None
        )
        if flat is None:
            raise ValueError("host memory for a copy must be contiguous")
        return flat.view(np.uint8)[:size]
    address = getattr(obj, "host_pointer", None)
    if address is not None:
        return np.ctypeslib.as_array((ctypes.c_ubyte * size).from_address(address))
    return np.frombuffer(memoryview(obj).cast("B"), np.uint8)[:size]


def memset(dst, value, size, stream=0):
    """Sets `size` bytes of device memory `dst` to byte `value` (after `stream`'s work)."""
    if stream:
        driver._driver().cuda_synchronize_stream(stream_handle(stream))
    driver._driver().cuda_memset(_device_address(dst), int(value), int(size))


def host_to_device(dst, src, size, stream=0):
    """Copies `size` bytes of host memory `src` to device memory `dst`."""
    if size:
        driver._driver().cuda_copy_to_device(
            _device_address(dst), _host_bytes(src, size), stream_handle(stream)
        )


def device_to_host(dst, src, size, stream=0):
    """Copies `size` bytes of device memory `src` to host memory `dst`."""
    if size:
        driver._driver().cuda_copy_to_host(
            _host_bytes(dst, size), _device_address(src), stream_handle(stream)
        )


def device_to_device(dst, src, size, stream=0):
    """Copies `size` bytes between device memories (after `stream`'s work)."""
    if stream:
        driver._driver().cuda_synchronize_stream(stream_handle(stream))
    if size:
        driver._driver().cuda_copy_device_to_device(
            _device_address(dst), _device_address(src), int(size)
        )
