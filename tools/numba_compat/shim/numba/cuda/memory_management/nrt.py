"""``numba.cuda.memory_management.nrt``: ``rtsys`` is taipan's device memory runtime
(``taipan.cuda.nrt``); numba-cuda's NRT headers and its memsys module have no counterpart
(their names are placeholders)."""

from numba._missing import fill_missing
from taipan.cuda.nrt import _nrt_mstats, rtsys  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
