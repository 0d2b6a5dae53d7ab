"""``numba.cpython.unicode``: the largest code point."""

import sys

from numba._missing import fill_missing

_MAX_UNICODE = sys.maxunicode

__getattr__ = fill_missing(globals(), __name__)
