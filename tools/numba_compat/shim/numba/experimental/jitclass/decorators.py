"""``numba.experimental.jitclass.decorators``."""

from numba._missing import fill_missing
from numba.experimental.jitclass import jitclass  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
