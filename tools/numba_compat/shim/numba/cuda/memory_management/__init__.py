"""``numba.cuda.memory_management``: numba-cuda's device memory runtime, whose ``rtsys`` is
taipan's (``taipan.cuda.nrt``)."""

from numba._missing import fill_missing
from taipan.cuda.nrt import rtsys  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
