"""``numba.core.pythonapi`` (and numba-cuda's ``numba.cuda.core.pythonapi``): the registrations
of boxing and unboxing for user-defined types (``box``, ``unbox``, ``NativeValue``), as the
shim's ``numba.core.extending`` gives them (taipan's, or nothing registered in plain-Python
mode); the rest placeholders."""

from numba._missing import fill_missing
from numba.core.extending import NativeValue, box, unbox  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
