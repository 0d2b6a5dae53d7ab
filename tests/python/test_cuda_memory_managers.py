"""numba-cuda's External Memory Management interface and contexts' memory API: MemoryPointer's
views, reference counts and finalizers, the queue of pending deallocations, EMM plugins (their
version check, device arrays allocated and freed through them, reset/get_memory_info/
get_ipc_handle reaching them), ``cuda.defer_cleanup``, and ``Context.memalloc``/
``memhostalloc``/``mempin``/``memallocmanaged`` on a GPU. The plugin routing runs anywhere, the
driver's few answers it needs given by a stand-in; allocations run where there is a GPU."""

import ctypes
import weakref

import numpy as np
import pytest
from child_processes import run_in_simulator

from taipan.cuda.api import memory as api_memory
from taipan.cuda.api.memory import (
    AutoFreePointer,
    HostOnlyCUDAMemoryManager,
    MemoryPointer,
    PendingDeallocs,
)


class RecordingPlugin(HostOnlyCUDAMemoryManager):
    """numba-cuda's test plugin: records its calls, hands out fake addresses 1, 2, ..."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.allocations = {}
        self.count = 0
        self.initialized = self.reset_called = self.ipc_called = False

    def memalloc(self, size):
        assert self.initialized, "memalloc before initialize"
        self.count += 1
        key = self.count
        self.allocations[key] = size
        allocations = self.allocations

        def finalizer():
            del allocations[key]

        context = weakref.proxy(self.context)
        return AutoFreePointer(context, ctypes.c_void_p(key), size, finalizer=finalizer)

    def initialize(self):
        self.initialized = True

    def reset(self):
        super().reset()
        self.reset_called = True

    def get_memory_info(self):
        return api_memory.MemoryInfo(free=32, total=64)

    def get_ipc_handle(self, memory):
        self.ipc_called = True
        return f"handle of {memory.device_pointer_value}"

    @property
    def interface_version(self):
        return 1


class FutureVersionPlugin(RecordingPlugin):
    @property
    def interface_version(self):
        return 2


def test_memory_pointer_views_count_references_and_finalize():
    freed = []
    memory = AutoFreePointer(None, 0x1000, 64, finalizer=lambda: freed.append(1))
    owned = memory.own()
    assert memory.refct == 1 and owned.refct == 1
    view = owned.view(16)
    assert int(view.handle) == 0x1010 and int(view.owner.handle) == 0x1000
    assert memory.refct == 2 and view.size == 48
    assert isinstance(view.device_ctypes_pointer, ctypes.c_size_t)
    nested = view.view(8, 24)
    assert int(nested.handle) == 0x1018 and nested.size == 16 and memory.refct == 3
    del nested, view
    assert memory.refct == 1 and not freed
    del owned
    assert freed == [1]
    with pytest.raises(RuntimeError, match="negative"):
        MemoryPointer(None, 0x1000, 8).view(6, 2)


def test_user_memory_pointer_finalizer_runs_once_with_the_pointer():
    calls = []
    pointer = MemoryPointer(
        None, ctypes.c_void_p(0xDEADBEEF), 40, finalizer=lambda: calls.append(1)
    )
    assert pointer.device_pointer == 0xDEADBEEF
    owned = pointer.own()
    del owned
    assert calls == []  # an OwnedPointer's end does not free a plain MemoryPointer
    del pointer
    assert calls == [1]


def test_pending_deallocations_flush_at_the_count_and_not_while_disabled():
    done = []
    pending = PendingDeallocs()
    for i in range(api_memory.DEALLOCS_COUNT):
        pending.add_item(done.append, i)
    assert len(pending) == api_memory.DEALLOCS_COUNT and done == []
    pending.add_item(done.append, "last")
    assert len(pending) == 0 and len(done) == api_memory.DEALLOCS_COUNT + 1
    with pending.disable(), pending.disable():
        pending.add_item(done.append, "held")
        pending.clear()
        assert len(pending) == 1
    pending.clear()
    assert len(pending) == 0 and done[-1] == "held"
    sized = PendingDeallocs(capacity=1000)
    sized.add_item(done.append, "big", size=int(1000 * api_memory.DEALLOCS_RATIO) + 1)
    assert len(sized) == 0


def test_plugins_of_another_interface_version_are_refused():
    from taipan import cuda

    with pytest.raises(RuntimeError, match="version 1 required"):
        cuda.set_memory_manager(FutureVersionPlugin)
    with pytest.raises(RuntimeError, match="requires a context"):
        RecordingPlugin()


@pytest.fixture
def stand_in_driver(monkeypatch):
    """The driver answers current_context() needs (one device, 64 bytes), with no GPU; the
    contexts made are forgotten afterwards."""
    from taipan import _core
    from taipan.cuda import devices

    if not hasattr(_core, "cuda_available"):
        pytest.skip("this build has no CUDA driver support")
    if _core.cuda_available():
        pytest.skip("a real GPU is present: the GPU tests cover it")
    answers = {
        "cuda_available": lambda: True,
        "cuda_current_device": lambda: 0,
        "cuda_bound_context_is_primary": lambda: True,
        "cuda_device_name": lambda index: "stand-in",
        "cuda_compute_capability": lambda index: (9, 0),
        "cuda_memory_info": lambda: (32, 64),
        "cuda_synchronize": lambda: None,
    }
    for name, answer in answers.items():
        monkeypatch.setattr(_core, name, answer)
    devices._contexts.clear()
    devices._plugin_devices.clear()
    yield
    devices._contexts.clear()
    devices._plugin_devices.clear()


def test_device_arrays_allocate_and_free_through_a_plugin(stand_in_driver):
    from taipan import cuda

    context = cuda.current_context()
    assert cuda.current_context() is context  # one context per device, keeping its manager
    assert type(context.memory_manager).__name__ == "TaipanMemoryManager"
    plugin = RecordingPlugin(context=context)
    plugin.initialize()
    context.memory_manager = plugin
    first = cuda.device_array_like(np.arange(10))
    assert plugin.allocations == {1: 80} and first.device_ctypes_pointer == 1
    second = cuda.device_array(5, dtype=np.int32)
    assert plugin.allocations == {1: 80, 2: 20}
    view = first[2:]
    del first
    assert 1 in plugin.allocations  # the view keeps the memory
    del view
    assert 1 not in plugin.allocations and 2 in plugin.allocations
    del second
    assert plugin.allocations == {}

    assert context.get_memory_info() == (32, 64)
    array = cuda.device_array(2)
    handle = array.get_ipc_handle()
    assert plugin.ipc_called and handle._ipc_handle == "handle of 3"
    del array
    context.reset()
    assert plugin.reset_called
    with cuda.defer_cleanup():
        assert plugin.deallocations.is_disabled and context.deallocations.is_disabled
    assert not plugin.deallocations.is_disabled


_released = []


class _StandInBuffer:
    """What the extension's allocator returns, its release observed."""

    def __init__(self, size):
        self.pointer = 0x7000 + size

    def __del__(self):
        _released.append(self.pointer)


def test_memalloc_memory_lives_until_its_last_reference(stand_in_driver, monkeypatch):
    from taipan import _core, cuda

    monkeypatch.setattr(_core, "cuda_allocate", lambda size, stream, owner: _StandInBuffer(size))
    _released.clear()
    context = cuda.current_context()
    memory = context.memalloc(64)
    assert int(memory.handle) == 0x7040 and memory.refct == 1
    view = memory.view(8)
    del memory
    assert _released == []  # the view keeps the allocation
    assert int(view.handle) == 0x7048
    del view
    assert _released == [0x7040]
    assert context.memory_manager.allocations == {}


def test_set_memory_manager_applies_to_contexts_made_afterwards(stand_in_driver, monkeypatch):
    from taipan import cuda

    monkeypatch.setattr(api_memory, "_plugin", [None])
    cuda.set_memory_manager(RecordingPlugin)
    manager = cuda.current_context().memory_manager
    assert isinstance(manager, RecordingPlugin) and manager.initialized
    kept = cuda.device_array(3)
    assert manager.allocations == {1: 24}
    del kept
    assert manager.allocations == {}


def test_the_simulator_defers_nothing_and_refuses_plugins(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        from taipan import cuda
        from test_cuda_memory_managers import RecordingPlugin

        import numpy as np
        from taipan.cuda.simulator import host

        with cuda.defer_cleanup():
            with cuda.defer_cleanup():
                cuda.to_device([1, 2, 3])
        context = cuda.current_context()
        device = context.memalloc(400)
        numbers = np.arange(100, dtype=np.uint32)
        host.host_to_device(device, numbers, numbers.nbytes)
        other = context.memalloc(400)
        host.device_to_device(other, device.view(40), 360)
        back = np.zeros(90, np.uint32)
        host.device_to_host(back, other, 360)
        assert (back == numbers[10:]).all()
        host.memset(other, 0, 400)
        host.device_to_host(back, other, 360)
        assert not back.any()
        mapped = context.memhostalloc(16, mapped=True)
        assert mapped.device_pointer_value and mapped.size == 16
        view = np.frombuffer(mapped.__buffer__(0), np.uint8)  # np.ndarray(buffer=) on 3.12
        host.memset(mapped, 0xAB, 16)
        assert (view == 0xAB).all()
        view[:] = 7
        back = np.zeros(16, np.uint8)
        host.device_to_host(back, mapped, 16)
        assert (back == 7).all()
        managed = context.memallocmanaged(16)
        assert managed.refct == 1
        try:
            cuda.set_memory_manager(RecordingPlugin)
        except cuda.CudaSupportError as error:
            assert "simulator" in str(error)
        else:
            raise AssertionError("a plugin was accepted")
        print("ok")
        """,
    )


@pytest.mark.cuda
def test_context_memory_on_the_gpu():
    from taipan import cuda

    if not cuda.is_available():
        pytest.skip("no CUDA driver or GPU")
    context = cuda.current_context()
    assert cuda.current_context() is context
    info = context.get_memory_info()
    assert 0 < info.free <= info.total
    device = context.memalloc(1024)
    assert isinstance(device.device_ctypes_pointer, ctypes.c_size_t) and device.size == 1024
    view = device.view(16)
    assert int(view.handle) - int(device.handle) == 16 and device.refct == 2
    # Memory from memalloc is usable as an array's: fill it through a device array on it.
    numbers = np.arange(128, dtype=np.int64)
    from taipan.cuda.devicearray import DeviceNDArray

    array = DeviceNDArray((128,), None, np.int64, device)
    array.copy_to_device(numbers)
    np.testing.assert_array_equal(array.copy_to_host(), numbers)
    del view, array, device

    from taipan.cuda import memory

    mapped = context.memhostalloc(64, mapped=True)
    host = np.frombuffer(mapped.__buffer__(0), np.uint8)  # np.ndarray(buffer=mapped) on 3.12
    memory.memset(mapped, 0xAB, 64)  # through the device address
    assert (host == 0xAB).all()
    host[:] = 7
    back = np.zeros(64, np.uint8)
    memory.device_to_host(back, mapped, 64)
    assert (back == 7).all() and mapped.device_pointer_value
    pinned = context.memhostalloc(64)
    assert pinned.handle and pinned.size == 64
    managed = context.memallocmanaged(256)
    assert managed.device_pointer_value and managed.size == 256
    registered = np.zeros(100)
    pin = context.mempin(registered, registered.ctypes.data, registered.nbytes)
    assert pin.handle == registered.ctypes.data
    # Pinned and mapped into the device's address space (cuda.mapped's way): memset through
    # the device address reaches the host array.
    other = np.zeros(64, np.uint8)
    mapped_pin = context.mempin(other, other.ctypes.data, other.nbytes, mapped=True)
    assert mapped_pin.device_pointer_value and mapped_pin.host_pointer == other.ctypes.data
    memory.memset(mapped_pin, 0x5A, 64)
    context.synchronize()
    assert (other == 0x5A).all()
    mapped_pin.free()
    del mapped, pinned, managed, pin
    with cuda.defer_cleanup():
        cuda.to_device(np.arange(10))
    context.reset()
    stream = context.create_stream()
    event = context.create_event()
    event.record(stream)
    event.wait(stream)
    stream.synchronize()


def test_a_plugin_set_on_a_context_is_initialized_before_it_allocates(stand_in_driver):
    # numba-cuda readies a context at each use, so a plugin assigned to ctx.memory_manager
    # directly (not through set_memory_manager) is initialized before its first memalloc.
    from taipan import cuda

    context = cuda.current_context()
    plugin = RecordingPlugin(context=context)
    context.memory_manager = plugin
    assert not plugin.initialized
    array = cuda.device_array(4)
    assert plugin.initialized and plugin.allocations == {1: 32}
    del array
    assert plugin.allocations == {}
