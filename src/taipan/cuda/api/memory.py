"""The memory objects and the External Memory Management (EMM) plugin interface of numba-cuda,
the same for both backends: ``MemoryPointer`` and its kinds (``AutoFreePointer``,
``MappedMemory``, ``PinnedMemory``, ``ManagedMemory``, ``OwnedPointer``), the queue of pending
deallocations, and the base classes a plugin derives from (``BaseCUDAMemoryManager``,
``HostOnlyCUDAMemoryManager``, ``GetIpcHandleMixin``). The GPU backend's default manager and
its host allocations are in taipan.cuda.memory; the simulator refuses plugins."""

import abc
import collections
import contextlib
import ctypes
import weakref

from taipan import config
from taipan.cuda.api.devices import MemoryInfo  # noqa: F401  (numba-cuda's cuda.MemoryInfo)

# The version of the plugin interface numba-cuda 0.30 defines, which plugins must report.
EMM_INTERFACE_VERSION = 1


def __getattr__(name):
    """numba-cuda's module-level names of the deallocation thresholds, as set now."""
    if name == "DEALLOCS_COUNT":
        return config.CUDA_DEALLOCS_COUNT
    if name == "DEALLOCS_RATIO":
        return config.CUDA_DEALLOCS_RATIO
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def address_of(pointer):
    """An address given as an int, a ctypes pointer or an object with ``value``."""
    if isinstance(pointer, int):
        return pointer
    value = getattr(pointer, "value", pointer)
    return int(value or 0)


def _host_buffer(address, size):
    """A writable memoryview of `size` bytes of host memory at `address`."""
    return memoryview((ctypes.c_ubyte * size).from_address(address)).cast("B")


class MemoryPointer:
    """Device memory of `size` bytes at `pointer`, with an optional finalizer that frees it
    when the pointer is collected (or ``free()`` is called). Counts its references
    (``refct``), which subclasses may tie the memory's life to."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        self.context = context
        self.device_pointer = address_of(pointer)
        self.size = size
        self._cuda_memsize_ = size
        self.is_managed = finalizer is not None
        self.refct = 1
        self.handle = self.device_pointer
        self._owner = owner
        if finalizer is not None:
            self._finalizer = weakref.finalize(self, finalizer)

    @property
    def owner(self):
        return self if self._owner is None else self._owner

    def own(self):
        return OwnedPointer(weakref.proxy(self))

    def free(self):
        """Frees the memory now (through the finalizer); freeing twice is an error."""
        if self.is_managed:
            if not self._finalizer.alive:
                raise RuntimeError("Freeing dead memory")
            self._finalizer()

    def view(self, start, stop=None):
        """The memory from byte `start` to `stop` (the end when None), kept alive by this."""
        size = self.size - start if stop is None else stop - start
        if not self.device_pointer_value:
            if size != 0:
                raise RuntimeError("non-empty slice into empty slice")
            view = self
        else:
            if size < 0:
                raise RuntimeError("size cannot be negative")
            view = MemoryPointer(
                self.context, self.device_pointer_value + start, size, owner=self.owner
            )
        if isinstance(self.owner, (MemoryPointer, OwnedPointer)):
            return OwnedPointer(weakref.proxy(self.owner), view)
        return view

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(self.device_pointer)

    @property
    def device_pointer_value(self):
        return self.device_pointer or None

    @property
    def pointer(self):
        """The address as an int (what taipan's device arrays read of their memory)."""
        return self.device_pointer


class AutoFreePointer(MemoryPointer):
    """A MemoryPointer freed when its reference count drops to zero."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.refct -= 1


class MappedMemory(AutoFreePointer):
    """Page-locked host memory mapped into the device's address space: `pointer` is the host
    address, `device_pointer` the address kernels use."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None, device_pointer=None):
        self.owned = owner
        self.host_pointer = address_of(pointer)
        super().__init__(
            context,
            self.host_pointer if device_pointer is None else device_pointer,
            size,
            finalizer=finalizer,
        )
        self.handle = self.host_pointer

    def own(self):
        return OwnedPointer(weakref.proxy(self))

    def __buffer__(self, flags):
        """The host bytes (Python 3.12's buffer protocol): NumPy arrays can view them."""
        return _host_buffer(self.host_pointer, self.size)


class PinnedMemory:
    """Page-locked host memory (not mapped): copies from and to it are asynchronous."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        self.context = context
        self.owned = owner
        self.size = size
        self.host_pointer = address_of(pointer)
        self.is_managed = finalizer is not None
        self.handle = self.host_pointer
        if finalizer is not None:
            weakref.finalize(self, finalizer)

    def own(self):
        return self

    def __buffer__(self, flags):
        """The host bytes (Python 3.12's buffer protocol): NumPy arrays can view them."""
        return _host_buffer(self.host_pointer, self.size)


class ManagedMemory(AutoFreePointer):
    """Managed memory, which the host and the device both address (one address)."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        self.owned = owner
        super().__init__(context, pointer, size, finalizer=finalizer)

    def own(self):
        return OwnedPointer(weakref.proxy(self))

    def __buffer__(self, flags):
        """The bytes, which the host addresses too (Python 3.12's buffer protocol)."""
        return _host_buffer(self.device_pointer, self.size)


class OwnedPointer:
    """A reference to a MemoryPointer (or a view of it) that counts in its ``refct``: the last
    one collected frees an AutoFreePointer."""

    def __init__(self, memptr, view=None):
        self._mem = memptr
        self._view = self._mem if view is None else view
        mem = self._mem

        def deref():
            try:
                mem.refct -= 1
                if mem.refct == 0:
                    mem.free()
            except ReferenceError:
                pass

        self._mem.refct += 1
        weakref.finalize(self, deref)
        self.device_ctypes_pointer = self._view.device_ctypes_pointer

    def __getattr__(self, name):
        return getattr(self._view, name)

    def __buffer__(self, flags):
        """The viewed memory's host bytes, where it has them (mapped and managed memory)."""
        return self._view.__buffer__(flags)


def held_until_freed(allocations, key, resource):
    """A finalizer for memory of a manager: until it runs, `allocations[key]` (set by the
    caller to the memory object, which an OwnedPointer only references weakly) keeps the
    memory object alive and `resource` (what frees the memory when collected) is held."""
    held = [resource]

    def release():
        held.clear()
        allocations.pop(key, None)

    return release


class PendingDeallocs:
    """Deallocations waiting to run: flushed when more than config.CUDA_DEALLOCS_COUNT are
    pending or their bytes pass config.CUDA_DEALLOCS_RATIO of the device memory, on
    ``clear()``, never while disabled (``disable()``, nestable; ``cuda.defer_cleanup()``).
    Those of plugins and contexts; taipan's own device memory waits in the extension's queue
    (taipan.cuda.memory.PendingDeviceFrees)."""

    def __init__(self, capacity=0):
        self._pending = collections.deque()
        self._disable_count = 0
        self._size = 0
        self.memory_capacity = capacity

    @property
    def _max_pending_bytes(self):
        return int(self.memory_capacity * config.CUDA_DEALLOCS_RATIO)

    def add_item(self, dtor, handle, size=0):
        self._pending.append((dtor, handle, size))
        self._size += int(size)
        if len(self._pending) > config.CUDA_DEALLOCS_COUNT or (
            self.memory_capacity and self._size > self._max_pending_bytes
        ):
            self.clear()

    def clear(self):
        """Runs the pending deallocations, unless disabled."""
        if self.is_disabled:
            return
        while self._pending:
            dtor, handle, _ = self._pending.popleft()
            dtor(handle)
        self._size = 0

    @contextlib.contextmanager
    def disable(self):
        self._disable_count += 1
        try:
            yield
        finally:
            self._disable_count -= 1

    @property
    def is_disabled(self):
        return self._disable_count > 0

    def __len__(self):
        return len(self._pending)


class BaseCUDAMemoryManager(abc.ABC):
    """The base class of EMM plugins (numba-cuda's interface, version 1): a context makes one
    instance, calls ``initialize()``, and allocates device memory through ``memalloc``."""

    def __init__(self, *args, **kwargs):
        if "context" not in kwargs:
            raise RuntimeError("Memory manager requires a context")
        self.context = kwargs.pop("context")

    @abc.abstractmethod
    def memalloc(self, size):
        """A MemoryPointer owning `size` bytes of device memory."""

    @abc.abstractmethod
    def memhostalloc(self, size, mapped, portable, wc):
        """Page-locked host memory (MappedMemory when `mapped`, else PinnedMemory)."""

    @abc.abstractmethod
    def mempin(self, owner, pointer, size, mapped):
        """Page-locks `size` bytes of existing host memory at `pointer`."""

    @abc.abstractmethod
    def initialize(self):
        """Readies the plugin for its context."""

    @abc.abstractmethod
    def get_ipc_handle(self, memory):
        """An IPC handle of an allocation."""

    @abc.abstractmethod
    def get_memory_info(self):
        """MemoryInfo(free, total) of the context's device."""

    @abc.abstractmethod
    def reset(self):
        """Frees everything the plugin allocated in the context."""

    @abc.abstractmethod
    def defer_cleanup(self):
        """A context manager that defers frees while it is active."""

    @property
    @abc.abstractmethod
    def interface_version(self):
        """The interface version the plugin implements (1)."""


class HostOnlyCUDAMemoryManager(BaseCUDAMemoryManager):
    """The base of plugins that allocate device memory only: host allocations (pinned, mapped,
    managed) are taipan's, through the backend's ``_host_allocator``. Subclasses overriding
    ``reset`` or ``defer_cleanup`` call ``super()``'s."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.allocations = {}
        self.deallocations = PendingDeallocs()

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        return _backend().memhostalloc(self, size, mapped, portable, wc)

    def mempin(self, owner, pointer, size, mapped=False):
        return _backend().mempin(self, owner, pointer, size, mapped)

    def memallocmanaged(self, size, attach_global=True):
        return _backend().memallocmanaged(self, size, attach_global)

    def reset(self):
        self.allocations.clear()
        self.deallocations.clear()

    @contextlib.contextmanager
    def defer_cleanup(self):
        with self.deallocations.disable():
            yield


class GetIpcHandleMixin:
    """The default ``get_ipc_handle`` (the backend's)."""

    def get_ipc_handle(self, memory):
        return _backend().get_ipc_handle(self, memory)


class IpcArrayHandle:
    """An IPC handle of a device array: the allocation's handle and the array's layout. In
    the other process, ``with handle as array:`` opens it (once at a time) and closes it
    after."""

    def __init__(self, ipc_handle, array_desc):
        self._ipc_handle = ipc_handle
        self._array_desc = array_desc

    def open(self):
        """The array, in this process, over the shared memory."""
        return ipc_backend().open_array_handle(self._ipc_handle, self._array_desc)

    def close(self):
        self._ipc_handle.close()

    def __enter__(self):
        return self.open()

    def __exit__(self, *exception):
        self.close()
        return False


_ipc = []  # the backend's IPC module (use_ipc)


def use_ipc(module):
    """Registers the backend module that exports and opens IPC handles (``get_ipc_handle``,
    ``open_array_handle``)."""
    _ipc[:] = [module]


def ipc_backend():
    if not _ipc:
        raise NotImplementedError("IPC handles need the GPU backend (not the simulator)")
    return _ipc[0]


_allocators = []  # the backend's module of host allocations and IPC (use_backend)


def use_backend(allocators):
    """Registers the backend module whose ``memhostalloc``, ``mempin``, ``memallocmanaged`` and
    ``get_ipc_handle`` (each taking the manager first) the base classes call."""
    _allocators[:] = [allocators]


def _backend():
    if not _allocators:
        raise NotImplementedError("host allocations through a memory manager need a GPU")
    return _allocators[0]


_plugin = [None]  # the plugin class set_memory_manager chose; None: the backend's default


def set_memory_manager(mm_plugin):
    """Makes contexts created from now on allocate through EMM plugin class `mm_plugin`,
    refused unless it implements interface version 1."""
    version = mm_plugin(context=None).interface_version
    if version != EMM_INTERFACE_VERSION:
        raise RuntimeError(
            f"EMM Plugin interface has version {version} - version {EMM_INTERFACE_VERSION} required"
        )
    _plugin[0] = mm_plugin


def plugin_class():
    """The class set_memory_manager chose, or None."""
    return _plugin[0]
