"""The front of ``cuda.gpus`` and ``cuda.current_context()``, the same on the GPU path
(taipan.cuda.devices) and in the simulator (taipan.cuda.simulator.host): a backend's device
list supplies ``__len__``, ``__getitem__`` and ``_current_device()``; its context
``_current_device()``, ``_memory_info()``, ``synchronize()`` and ``_backend()`` (the module
whose ``stream``/``event`` the context's ``create_stream``/``create_event`` call)."""

import collections

MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])


class DeviceListFront:
    """``cuda.gpus``: every GPU of the process, indexable, with ``.current``."""

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    @property
    def current(self):
        return self._current_device()

    @property
    def lst(self):
        """The devices as a list (numba-cuda's attribute)."""
        return list(self)

    def __repr__(self):
        return f"<GPUs {list(self)}>"


class ContextFront:
    """The current device's context, for the queries Numba puts there."""

    def __init__(self):
        self.device = self._current_device()

    def get_memory_info(self):
        """(free, total) bytes of the device's memory."""
        return MemoryInfo(*self._memory_info())

    def reset(self):
        """Waits for the device's work. numba-cuda's reset also frees every allocation of the
        context; taipan frees an allocation only when the last array using it is collected,
        so a reset never leaves an array pointing at freed memory."""
        self.synchronize()

    def create_stream(self):
        """A new stream (``cuda.stream()``)."""
        return self._backend().stream()

    def create_event(self, timing=True):
        """A new event (``cuda.event(timing)``)."""
        return self._backend().event(timing)

    def get_default_stream(self):
        """The default stream (``cuda.default_stream()``)."""
        return self._backend().default_stream()

    def get_legacy_default_stream(self):
        """The legacy default stream (``cuda.legacy_default_stream()``)."""
        return self._backend().legacy_default_stream()

    def get_per_thread_default_stream(self):
        """This thread's default stream (``cuda.per_thread_default_stream()``)."""
        return self._backend().per_thread_default_stream()

    def create_external_stream(self, ptr):
        """Another library's stream, given as an integer handle (``cuda.external_stream``)."""
        if not isinstance(ptr, int):
            raise TypeError("ptr for external stream must be an int")
        return self._backend().external_stream(ptr)

    def __eq__(self, other):
        return isinstance(other, ContextFront) and other.device == self.device

    def __hash__(self):
        return hash(self.device)

    def __repr__(self):
        return f"<CUDA context on {self.device}>"
