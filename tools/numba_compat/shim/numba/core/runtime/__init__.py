"""``numba.core.runtime``: ``rtsys.get_allocation_stats`` reads taipan's memory counters, so
Numba's leak checks (``MemoryLeakMixin``) check taipan's compiled code."""

from collections import namedtuple
from types import SimpleNamespace

from numba._missing import fill_missing
from taipan import runtime as _runtime

_Stats = namedtuple("_Stats", ["alloc", "free", "mi_alloc", "mi_free"])


def get_allocation_stats():
    stats = _runtime.get_allocation_stats()
    return _Stats(stats.alloc, stats.free, stats.alloc, stats.free)


rtsys = SimpleNamespace(get_allocation_stats=get_allocation_stats)

__getattr__ = fill_missing(globals(), __name__)
