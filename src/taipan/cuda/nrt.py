"""The device memory runtime's statistics: numba-cuda's ``rtsys``
(``numba.cuda.memory_management.nrt``). Arrays created in kernels and device functions are
reference-counted blocks from the device's malloc heap (``cuda/DeviceMemoryRuntime.cpp``);
while counting is on, every block made or freed moves the current context's counters, which
``get_allocation_stats()`` reads: equal ``alloc`` and ``free`` differences around a launch mean
that it freed every block it made. Counting starts as ``config.CUDA_NRT_STATS`` says
(``NUMBA_CUDA_NRT_STATS``), off by default, when ``rtsys`` is first used."""

from collections import namedtuple

from taipan import config
from taipan.cuda import driver

# numba-cuda's record of the counters: raw allocations and frees, blocks made and released.
_nrt_mstats = namedtuple("nrt_mstats", ["alloc", "free", "mi_alloc", "mi_free"])


class _Runtime:
    """The process's device memory runtime, as numba-cuda's ``rtsys`` presents it. Streams are
    accepted for numba-cuda's signatures; the switch and the counters are read and written in
    order with the work of the default stream, and reads wait for the device."""

    def __init__(self):
        self._initialized = False

    def initialize(self, stream=None):
        """Switches counting on or off as ``config.CUDA_NRT_STATS`` says."""
        driver._driver().cuda_nrt_enable_statistics(bool(config.CUDA_NRT_STATS))
        self._initialized = True

    def ensure_initialized(self, stream=None):
        if not self._initialized:
            self.initialize(stream)

    ensure_allocated = ensure_initialized

    def close(self):
        """Forgets the initialisation (the next use applies the setting again)."""
        self._initialized = False

    def _core(self):
        self.ensure_initialized()
        return driver._driver()

    def memsys_enable_stats(self, stream=None):
        self._core().cuda_nrt_enable_statistics(True)

    def memsys_disable_stats(self, stream=None):
        self._core().cuda_nrt_enable_statistics(False)

    def memsys_stats_enabled(self, stream=None):
        return bool(self._core().cuda_nrt_statistics_enabled())

    def get_allocation_stats(self, stream=None):
        """The current context's counters, once the device's queued work is done; RuntimeError
        while counting is off (numba-cuda's)."""
        core = self._core()
        if not core.cuda_nrt_statistics_enabled():
            raise RuntimeError("NRT stats are disabled.")
        return _nrt_mstats(*core.cuda_nrt_statistics())

    def memsys_get_stats_alloc(self, stream=None):
        return self.get_allocation_stats(stream).alloc

    def memsys_get_stats_free(self, stream=None):
        return self.get_allocation_stats(stream).free

    def memsys_get_stats_mi_alloc(self, stream=None):
        return self.get_allocation_stats(stream).mi_alloc

    def memsys_get_stats_mi_free(self, stream=None):
        return self.get_allocation_stats(stream).mi_free


rtsys = _Runtime()
