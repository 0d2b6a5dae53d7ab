"""The GPUs of this process (``cuda.gpus``, ``get_current_device``, ``select_device``) and the
current context's queries (``cuda.current_context().get_memory_info()``)."""

import contextlib

from taipan.cuda import api, driver

# The EMM interface taipan.cuda exports (taipan.cuda.api.memory).
BaseCUDAMemoryManager = api.memory.BaseCUDAMemoryManager
GetIpcHandleMixin = api.memory.GetIpcHandleMixin
HostOnlyCUDAMemoryManager = api.memory.HostOnlyCUDAMemoryManager
MemoryPointer = api.memory.MemoryPointer
set_memory_manager = api.memory.set_memory_manager

# CUdevice_attribute numbers of the attributes Numba's Device exposes by name.
_ATTRIBUTES = {
    "MAX_THREADS_PER_BLOCK": 1,
    "MAX_BLOCK_DIM_X": 2,
    "MAX_BLOCK_DIM_Y": 3,
    "MAX_BLOCK_DIM_Z": 4,
    "MAX_GRID_DIM_X": 5,
    "MAX_GRID_DIM_Y": 6,
    "MAX_GRID_DIM_Z": 7,
    "MAX_SHARED_MEMORY_PER_BLOCK": 8,
    "TOTAL_CONSTANT_MEMORY": 9,
    "WARP_SIZE": 10,
    "MAX_PITCH": 11,
    "MAX_REGISTERS_PER_BLOCK": 12,
    "CLOCK_RATE": 13,
    "TEXTURE_ALIGNMENT": 14,
    "MULTIPROCESSOR_COUNT": 16,
    "KERNEL_EXEC_TIMEOUT": 17,
    "INTEGRATED": 18,
    "CAN_MAP_HOST_MEMORY": 19,
    "CONCURRENT_KERNELS": 31,
    "ECC_ENABLED": 32,
    "PCI_BUS_ID": 33,
    "PCI_DEVICE_ID": 34,
    "MEMORY_CLOCK_RATE": 36,
    "GLOBAL_MEMORY_BUS_WIDTH": 37,
    "L2_CACHE_SIZE": 38,
    "MAX_THREADS_PER_MULTIPROCESSOR": 39,
    "ASYNC_ENGINE_COUNT": 40,
    "UNIFIED_ADDRESSING": 41,
    "PCI_DOMAIN_ID": 50,
    "COMPUTE_CAPABILITY_MAJOR": 75,
    "COMPUTE_CAPABILITY_MINOR": 76,
    "MANAGED_MEMORY": 83,
    "COOPERATIVE_LAUNCH": 95,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97,
}


class Device:
    """A GPU: its name, compute capability and attributes (``dev.MULTIPROCESSOR_COUNT``).
    As a context manager it is the current device inside the block."""

    def __init__(self, device_id):
        core = driver._driver()
        self.id = device_id
        self.name = core.cuda_device_name(device_id).encode()
        self.compute_capability = tuple(core.cuda_compute_capability(device_id))
        self._previous = []

    def __getattr__(self, name):
        if name not in _ATTRIBUTES:
            raise AttributeError(f"CUDA device has no attribute {name!r}")
        return driver._core.cuda_device_attribute(self.id, _ATTRIBUTES[name])

    @property
    def uuid(self):
        """The device's UUID as nvidia-smi prints it: "GPU-" and 8-4-4-4-12 hex digits."""
        return driver._core.cuda_device_uuid(self.id)

    @property
    def supports_float16(self):
        """Whether the device has half-precision arithmetic (compute capability 5.3 on)."""
        return self.compute_capability >= (5, 3)

    @property
    def supports_bfloat16(self):
        """Whether the device has bfloat16 arithmetic (compute capability 8.0 on)."""
        return self.compute_capability >= (8, 0)

    @property
    def supports_fp8(self):
        """Whether the device has fp8 conversions (compute capability 8.9 on), as numba-cuda
        answers; taipan's cuda.fp8 computes in software on every device."""
        return self.compute_capability >= (8, 9)

    def __enter__(self):
        # The context bound on this thread (none, or another library's) is bound again after.
        bound = driver._driver().cuda_bound_context()
        self._previous.append((driver._core.cuda_current_device(), bound))
        driver._core.cuda_select_device(self.id)
        return self

    def __exit__(self, *exception):
        device, bound = self._previous.pop()
        driver._core.cuda_select_device(device)
        if bound != driver._core.cuda_context_handle():
            driver._core.cuda_bind_context(bound)

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name.decode()}'>"


def get_current_device():
    """The device this thread's CUDA work goes to."""
    return Device(driver._driver().cuda_current_device())


def select_device(device_id):
    """Makes device `device_id` current for this process."""
    driver._driver().cuda_select_device(int(device_id))
    return get_current_device()


class _DeviceList(api.devices.DeviceListFront):
    """``cuda.gpus``: every GPU of the process, indexable, with ``.current``."""

    def __len__(self):
        return driver._driver().cuda_device_count() if driver.is_available() else 0

    def __getitem__(self, index):
        count = len(self)
        if isinstance(index, slice):
            return [Device(i) for i in range(count)[index]]
        if not -count <= index < count:
            raise IndexError(f"GPU {index} does not exist; this process has {count}")
        return Device(index % count)

    def _current_device(self):
        return get_current_device()


gpus = _DeviceList()

MemoryInfo = api.devices.MemoryInfo


class Context(api.devices.ContextFront):
    """A device's primary context, one object per device (``cuda.current_context()``): its
    memory manager (taipan's, or the EMM plugin ``cuda.set_memory_manager`` chose when it was
    made), allocations through it, and the queries Numba puts there."""

    def __init__(self):
        super().__init__()
        self.deallocations = api.memory.PendingDeallocs()
        plugin = api.memory.plugin_class()
        if plugin is None:
            from taipan.cuda.memory import TaipanMemoryManager

            plugin = TaipanMemoryManager
        self.memory_manager = plugin(context=self)
        self.memory_manager.initialize()

    @property
    def memory_manager(self):
        return self._memory_manager

    @memory_manager.setter
    def memory_manager(self, manager):
        from taipan.cuda.memory import TaipanMemoryManager

        self._memory_manager = manager
        # Device arrays allocate through the manager only where it is a plugin: taipan's own
        # allocation path is the extension's, without a Python object per allocation.
        if type(manager) is TaipanMemoryManager:
            _plugin_devices.discard(self.device.id)
        else:
            _plugin_devices.add(self.device.id)

    def _current_device(self):
        return get_current_device()

    @property
    def handle(self):
        """The primary context's CUcontext, as an integer."""
        return driver._driver().cuda_primary_context(self.device.id)

    def _memory_info(self):
        return self.memory_manager.get_memory_info()

    def synchronize(self):
        driver.synchronize()

    def _backend(self):
        from taipan.cuda import streams

        return streams

    def reset(self):
        """Waits for the device's work, runs the pending deallocations, resets the memory
        manager (a plugin frees what it allocated; taipan's own allocator frees an allocation
        when the last array using it is collected, never under a live array) and runs the
        teardown callbacks of modules linked with LinkableCode callbacks."""
        self.synchronize()
        self.memory_manager.reset()
        self.deallocations.clear()
        from taipan.cuda import linking

        linking.run_teardowns(self.device.id)

    def memalloc(self, bytesize):
        """`bytesize` bytes of device memory, from the memory manager."""
        return self.memory_manager.memalloc(bytesize)

    def memhostalloc(self, bytesize, mapped=False, portable=False, wc=False):
        """Page-locked host memory (mapped into the device's address space when `mapped`)."""
        return self.memory_manager.memhostalloc(bytesize, mapped, portable, wc)

    def mempin(self, owner, pointer, size, mapped=False):
        """Page-locks existing host memory while the result lives."""
        return self.memory_manager.mempin(owner, pointer, size, mapped)

    def memallocmanaged(self, bytesize, attach_global=True):
        """Managed memory, addressed by the host and the device alike."""
        return self.memory_manager.memallocmanaged(bytesize, attach_global)

    def get_ipc_handle(self, memory):
        return self.memory_manager.get_ipc_handle(memory)

    @contextlib.contextmanager
    def defer_cleanup(self):
        """Defers this context's pending deallocations and the memory manager's while active."""
        with self.memory_manager.defer_cleanup(), self.deallocations.disable():
            yield


# Devices whose context allocates through an EMM plugin (see Context.memory_manager).
_plugin_devices = set()
_contexts = {}  # device ordinal: Context, for the driver generation in _contexts_generation
_contexts_generation = [None]


def current_context():
    """The context of the current device (created if needed), the same object each time until
    cuda.close()."""
    core = driver._driver()
    _refuse_foreign_context(core)
    device = core.cuda_current_device()
    if _contexts_generation[0] != driver.context_generation():
        _contexts.clear()
        _plugin_devices.clear()
        _contexts_generation[0] = driver.context_generation()
    context = _contexts.get(device)
    if context is None:
        context = _contexts[device] = Context()
    elif device in _plugin_devices:
        # numba-cuda readies the context at each use: a plugin set on it after it was made
        # (ctx.memory_manager = plugin) is initialized before it allocates.
        context.memory_manager.initialize()
    return context


def _refuse_foreign_context(core):
    """Refuses a context another library made current on this thread that is no device's
    primary context: taipan's memory and modules live in the primary contexts (as numba-cuda
    refuses)."""
    if core.cuda_bound_context_is_primary():
        return
    bound = core.cuda_bound_context()
    raise RuntimeError(
        f"Numba cannot operate on non-primary CUDA context {bound:#x}: taipan uses the devices' "
        "primary contexts"
    )


def plugin_memory_manager():
    """The current device's EMM plugin, or None when taipan allocates (the common case, told
    without asking the driver)."""
    if not _plugin_devices:
        return None
    from taipan.cuda.memory import TaipanMemoryManager

    manager = current_context().memory_manager
    return None if type(manager) is TaipanMemoryManager else manager


def defer_cleanup():
    """A context manager during which the current context's memory manager defers frees.
    taipan's own allocator never frees memory that queued work may still use (frees wait for
    the streams using the memory), so it needs nothing more; a plugin's defer_cleanup is
    entered."""
    return current_context().defer_cleanup()


def list_devices():
    """Every GPU of the process."""
    return list(gpus)


def is_float16_supported():
    """Whether kernels can use float16: always (taipan compiles half-precision arithmetic for
    every device it supports), as numba-cuda answers."""
    return True


def is_bfloat16_supported():
    """Whether the current device has bfloat16 arithmetic (compute capability 8.0 on), as
    numba-cuda answers; taipan's cuda.bf16 computes through float32 on every device."""
    return current_context().device.supports_bfloat16


def is_fp8_supported():
    """Whether the current device has fp8 conversions (compute capability 8.9 on), as numba-cuda
    answers (numba.cuda.api.is_fp8_supported)."""
    return current_context().device.supports_fp8
