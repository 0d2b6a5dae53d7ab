"""The front of ``cuda.gpus`` and ``cuda.current_context()``, the same on the GPU path
(taipan.cuda.devices) and in the simulator (taipan.cuda.simulator.host): a backend's device
list supplies ``__len__``, ``__getitem__`` and ``_current_device()``; its context
``_current_device()``, ``_memory_info()`` and ``synchronize()``."""

import collections

MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])


class DeviceListFront:
    """``cuda.gpus``: every GPU of the process, indexable, with ``.current``."""

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    @property
    def current(self):
        return self._current_device()

    def __repr__(self):
        return f"<GPUs {list(self)}>"


class ContextFront:
    """The current device's context, for the queries Numba puts there."""

    def __init__(self):
        self.device = self._current_device()

    def get_memory_info(self):
        """(free, total) bytes of the device's memory."""
        return MemoryInfo(*self._memory_info())

    def __repr__(self):
        return f"<CUDA context on {self.device}>"
