"""The memory runtime's counters: arrays created in compiled code are reference-counted blocks,
and these count how many were allocated and freed (Numba's ``rtsys.get_allocation_stats``)."""

from collections import namedtuple

from taipan import _core

AllocationStats = namedtuple("AllocationStats", ["alloc", "free"])


def get_allocation_stats():
    """Blocks allocated and freed so far by compiled code, in this process."""
    return AllocationStats(*_core.memory_statistics())


def live_blocks():
    """Blocks allocated by compiled code and not freed yet."""
    stats = get_allocation_stats()
    return stats.alloc - stats.free
