"""The GPUs of this process (``cuda.gpus``, ``get_current_device``, ``select_device``) and the
current context's queries (``cuda.current_context().get_memory_info()``)."""

from taipan.cuda import api, driver

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

    def __enter__(self):
        self._previous.append(driver._core.cuda_current_device())
        driver._core.cuda_select_device(self.id)
        return self

    def __exit__(self, *exception):
        driver._core.cuda_select_device(self._previous.pop())

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
    """The current device's primary context, for the queries Numba puts there."""

    def _current_device(self):
        return get_current_device()

    def _memory_info(self):
        return driver._driver().cuda_memory_info()

    def synchronize(self):
        driver.synchronize()

    def _backend(self):
        from taipan.cuda import streams

        return streams


def current_context():
    """The context of the current device (created if needed)."""
    return Context()


def list_devices():
    """Every GPU of the process."""
    return list(gpus)
