"""``numba.experimental.jitclass.base``: the metaclass of jitclasses and ClassBuilder's names."""

from numba._missing import fill_missing
from taipan.jitclasses import ClassType, JitClassType  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
