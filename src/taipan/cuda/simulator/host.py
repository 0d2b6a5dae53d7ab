"""The host API of the simulator: one simulated device, streams and events (work runs at once,
so they order nothing), and what needs a real GPU or toolkit, which says so."""

import contextlib
import ctypes
import itertools
import time

from taipan.cuda import api
from taipan.cuda.api import CudaDriverError, CudaSupportError
from taipan.cuda.api.memory import (  # noqa: F401  (taipan.cuda exports them from here)
    BaseCUDAMemoryManager,
    GetIpcHandleMixin,
    HostOnlyCUDAMemoryManager,
    MemoryPointer,
)
from taipan.cuda.simulator.devicearray import free_memory, total_memory

NAME = "taipan CUDA simulator"
COMPUTE_CAPABILITY = (9, 0)

# The attributes Numba's Device exposes by name, as the simulated device answers them.
_ATTRIBUTES = {
    "MAX_THREADS_PER_BLOCK": 1024,
    "MAX_BLOCK_DIM_X": 1024,
    "MAX_BLOCK_DIM_Y": 1024,
    "MAX_BLOCK_DIM_Z": 64,
    "MAX_GRID_DIM_X": 2**31 - 1,
    "MAX_GRID_DIM_Y": 65535,
    "MAX_GRID_DIM_Z": 65535,
    "MAX_SHARED_MEMORY_PER_BLOCK": 48 * 1024,
    "TOTAL_CONSTANT_MEMORY": 64 * 1024,
    "WARP_SIZE": 32,
    "MAX_PITCH": 2**31 - 1,
    "MAX_REGISTERS_PER_BLOCK": 65536,
    "CLOCK_RATE": 1,
    "TEXTURE_ALIGNMENT": 512,
    "MULTIPROCESSOR_COUNT": 1,
    "KERNEL_EXEC_TIMEOUT": 0,
    "INTEGRATED": 1,
    "CAN_MAP_HOST_MEMORY": 1,
    "CONCURRENT_KERNELS": 0,
    "ECC_ENABLED": 0,
    "PCI_BUS_ID": 0,
    "PCI_DEVICE_ID": 0,
    "MEMORY_CLOCK_RATE": 1,
    "GLOBAL_MEMORY_BUS_WIDTH": 64,
    "L2_CACHE_SIZE": 0,
    "MAX_THREADS_PER_MULTIPROCESSOR": 1024,
    "ASYNC_ENGINE_COUNT": 0,
    "UNIFIED_ADDRESSING": 1,
    "PCI_DOMAIN_ID": 0,
    "COMPUTE_CAPABILITY_MAJOR": COMPUTE_CAPABILITY[0],
    "COMPUTE_CAPABILITY_MINOR": COMPUTE_CAPABILITY[1],
    "MANAGED_MEMORY": 1,
    "COOPERATIVE_LAUNCH": 1,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 48 * 1024,
}


def _invalid_device(device_id):
    return CudaDriverError(
        f"CUDA_ERROR_INVALID_DEVICE: invalid device ordinal (the CUDA simulator has device 0 "
        f"only, not {device_id})"
    )


class Device:
    """The simulated device: its name, compute capability and attributes."""

    def __init__(self, device_id=0):
        if device_id != 0:
            raise _invalid_device(device_id)
        self.id = 0
        self.name = b"SIMULATOR"
        self.compute_capability = COMPUTE_CAPABILITY

    uuid = "GPU-00000000-0000-0000-0000-000000000000"  # numba-cuda's simulator's
    supports_float16 = True  # NumPy's float16 and the bfloat16 of taipan's types
    supports_bfloat16 = True

    def __getattr__(self, name):
        if name not in _ATTRIBUTES:
            raise AttributeError(f"CUDA device has no attribute {name!r}")
        return _ATTRIBUTES[name]

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        pass

    def __eq__(self, other):
        return isinstance(other, Device)

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return "<CUDA device 0 'SIMULATOR'>"


def get_current_device():
    return Device(0)


def select_device(device_id):
    return Device(int(device_id))


class _DeviceList(api.devices.DeviceListFront):
    """``cuda.gpus``: the simulated device."""

    def __len__(self):
        return 1

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [Device(i) for i in range(1)[index]]
        if index not in (0, -1):
            raise IndexError(f"GPU {index} does not exist; this process has 1")
        return Device(0)

    def _current_device(self):
        return Device(0)


gpus = _DeviceList()

MemoryInfo = api.devices.MemoryInfo


class Context(api.devices.ContextFront):
    """The simulated device's context."""

    def _current_device(self):
        return Device(0)

    def _memory_info(self):
        """(free, total) bytes of the simulated device: the host's physical memory, less what
        simulated arrays hold."""
        return free_memory(), total_memory()

    def synchronize(self):
        pass

    def _backend(self):
        import sys

        return sys.modules[__name__]

    def memalloc(self, bytesize):
        """`bytesize` bytes of simulated device memory."""
        return _owned(api.memory.AutoFreePointer, self, bytesize, counted=True)

    def memhostalloc(self, bytesize, mapped=False, portable=False, wc=False):
        """Host memory (the simulated device reaches all of it): MappedMemory when `mapped`."""
        if mapped:
            return _owned(api.memory.MappedMemory, self, bytesize, counted=False)
        memory = _simulated_bytes(bytesize, counted=False)
        held = [memory]
        return api.memory.PinnedMemory(self, memory.ctypes.data, bytesize, finalizer=held.clear)

    def memallocmanaged(self, bytesize, attach_global=True):
        return _owned(api.memory.ManagedMemory, self, bytesize, counted=True)

    def mempin(self, owner, pointer, size, mapped=False):
        """Pins nothing (host memory is the simulated device's); the result names the memory."""
        if mapped:
            return api.memory.MappedMemory(self, pointer, size, owner=owner).own()
        return api.memory.PinnedMemory(self, pointer, size, owner=owner)

    @contextlib.contextmanager
    def defer_cleanup(self):
        yield


def _simulated_bytes(nbytes, counted):
    import numpy as np

    from taipan.cuda.simulator.devicearray import _register

    return _register(np.zeros(max(nbytes, 1), np.uint8), counted=counted)


# The memory objects memalloc & co. made, until freed (their OwnedPointers hold them weakly).
_held = {}


def _owned(kind, context, nbytes, counted):
    memory = _simulated_bytes(nbytes, counted=counted)
    address = memory.ctypes.data
    release = api.memory.held_until_freed(_held, address, memory)
    pointer = kind(context, address, nbytes, finalizer=release)
    _held[address] = pointer
    return pointer.own()


def current_context():
    return Context()


def list_devices():
    """The simulated device, in a list."""
    return list(gpus)


@contextlib.contextmanager
def defer_cleanup():
    """Nothing to defer: the simulator's memory is host memory, freed when collected, and no
    work is ever queued on it."""
    yield


# --- raw copies and memsets by address (numba-cuda's driver helpers): the simulated device's
# addresses are host addresses ---------------------------------------------------------------------


def _device_address(obj):
    interface = getattr(obj, "__cuda_array_interface__", None)
    if interface is not None:
        return int(interface["data"][0])
    pointer = obj.device_ctypes_pointer
    return int(getattr(pointer, "value", pointer) or 0)


def _host_address(obj):
    import numpy as np

    if isinstance(obj, np.ndarray):
        return obj.ctypes.data
    address = getattr(obj, "host_pointer", None)
    if address is not None:
        return address
    return np.frombuffer(memoryview(obj).cast("B"), np.uint8).ctypes.data


def memset(dst, value, size, stream=0):
    ctypes.memset(_device_address(dst), int(value), int(size))


def host_to_device(dst, src, size, stream=0):
    ctypes.memmove(_device_address(dst), _host_address(src), int(size))


def device_to_host(dst, src, size, stream=0):
    ctypes.memmove(_host_address(dst), _device_address(src), int(size))


def device_to_device(dst, src, size, stream=0):
    ctypes.memmove(_device_address(dst), _device_address(src), int(size))


def set_memory_manager(mm_plugin):
    """Refused: an EMM plugin allocates GPU memory, which the simulator does not have."""
    raise CudaSupportError(
        "EMM plugins (cuda.set_memory_manager) allocate GPU memory: the CUDA simulator has none"
    )


def is_available():
    """The simulator is always there."""
    return True


def cuda_error():
    """None: the simulator needs no driver."""
    return


def is_float16_supported():
    """Whether kernels can use float16: yes (NumPy's float16 in the simulator)."""
    return True


def is_bfloat16_supported():
    """Whether kernels can use bfloat16: not in the simulator (cuda.bf16 is compiled code)."""
    return False


def is_fp8_supported():
    """Whether kernels can use fp8: not in the simulator (cuda.fp8 is compiled code)."""
    return False


def is_supported_version():
    """The simulator needs no driver: yes."""
    return True


def profile_start():
    """Nothing to profile in the simulator."""


def profile_stop():
    """Nothing to profile in the simulator."""


@contextlib.contextmanager
def profiling():
    """Nothing to profile in the simulator."""
    yield


def synchronize():
    """Nothing to wait for: simulated launches and copies finish before they return."""


def close():
    """Nothing to release."""


def detect():
    """Prints the simulated device and returns True."""
    from taipan import config

    variable = config.SOURCES.get("ENABLE_CUDASIM", "TAIPAN_ENABLE_CUDASIM")
    major, minor = COMPUTE_CAPABILITY
    print("Found 1 CUDA devices")
    print(
        f"id 0    'SIMULATOR'    [SUPPORTED] ({NAME}, set by {variable}: kernels run on the "
        f"CPU, one Python thread per GPU thread; compute capability {major}.{minor})"
    )
    return True


# --- streams and events ---------------------------------------------------------------------------

_handles = itertools.count(0x1000)


class Stream:
    """A stream of the simulator: work given to it has finished when the call returns."""

    def __init__(self, handle, kind):
        self.handle = handle
        self._kind = kind

    def synchronize(self):
        pass

    def query(self):
        return True

    @contextlib.contextmanager
    def auto_synchronize(self):
        yield self

    def __int__(self):
        return self.handle

    def __repr__(self):
        return f"<CUDA stream {self._kind} {self.handle:#x} (CUDA simulator)>"


def stream():
    return Stream(next(_handles), "")


def default_stream():
    return Stream(0, "default")


def legacy_default_stream():
    return Stream(1, "legacy default")


def per_thread_default_stream():
    return Stream(2, "per-thread default")


def external_stream(pointer):
    return Stream(int(pointer), "external")


class Event:
    """An event of the simulator: recording it notes the time, since the work queued before it
    has already run, so elapsed times are the host's wall-clock times."""

    def __init__(self, timing=True):
        self.timing = bool(timing)
        self._time = None

    def record(self, stream=0):
        self._time = time.perf_counter()

    def synchronize(self):
        pass

    def query(self):
        return True

    def wait(self, stream=0):
        pass

    def elapsed_time(self, other):
        return event_elapsed_time(self, other)


def event(timing=True):
    return Event(timing)


def event_elapsed_time(start, end):
    """Milliseconds between two recorded timing events."""
    if not (start.timing and end.timing):
        raise ValueError("elapsed time needs two events created with timing=True")
    if start._time is None or end._time is None:
        raise CudaDriverError(
            "CUDA_ERROR_INVALID_HANDLE: invalid resource handle (in cuEventElapsedTime: an "
            "event was never recorded)"
        )
    return (end._time - start._time) * 1000.0


# --- what needs a GPU toolchain -------------------------------------------------------------------


class ExternalFunction:
    """A foreign device function (``cuda.declare_device``): the simulator cannot run it."""

    def __init__(self, name, sig, link=(), abi="numba"):
        if abi not in ("numba", "c"):
            raise ValueError(f"abi must be one of ('numba', 'c'), not {abi!r}")
        self.name = name
        self.sig = sig
        self.abi = abi
        self.link = tuple(link or ())

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(
            f"{self.name} is a foreign CUDA device function (cuda.declare_device): the CUDA "
            "simulator runs Python only"
        )

    def __repr__(self):
        return f"<foreign CUDA device function {self.name} (CUDA simulator)>"


def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """Refused: the simulated device's memory is this process's; no other process can open it."""
    raise CudaSupportError(
        "the CUDA simulator is on (TAIPAN_ENABLE_CUDASIM): it shares no device memory with other "
        "processes, so cuda.open_ipc_array needs a GPU."
    )


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """A foreign device function, which kernels in the simulator cannot call."""
    return ExternalFunction(name, sig, link, abi)


def _no_ptx(*args, **kwargs):
    raise CudaSupportError(
        "the CUDA simulator is on (TAIPAN_ENABLE_CUDASIM): it compiles no PTX. Unset the "
        "variable to use cuda.compile_ptx, which needs no GPU."
    )


def compile_ptx(pyfunc, sig, **options):
    """Refused: see _no_ptx."""
    _no_ptx()


def compile_ptx_for_current_device(pyfunc, sig, **options):
    """Refused: see _no_ptx."""
    _no_ptx()
