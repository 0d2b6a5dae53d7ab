"""``numba.core.utils``: the few helpers Numba's tests read."""

import inspect
import sys

from numba._missing import fill_missing

PYVERSION = sys.version_info[:2]
pysignature = inspect.signature

__getattr__ = fill_missing(globals(), __name__)
