"""``numba.experimental.jitclass._box``: the boxes of jitclass instances."""

from numba._missing import fill_missing
from taipan import _core

Box = _core.JitClassInstance


def box_get_meminfoptr(box):
    """The address of the instance's memory block."""
    return box._meminfo_address


__getattr__ = fill_missing(globals(), __name__)
