"""``numba.experimental``: ``jitclass`` is taipan's (``taipan.jitclasses``); in plain-Python mode
it gives the class itself."""

from numba._missing import fill_missing
from numba.experimental.jitclass import jitclass  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
