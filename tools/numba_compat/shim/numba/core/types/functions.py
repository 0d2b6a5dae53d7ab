"""``numba.core.types.functions``: the one name Numba's tests read from it."""

from numba._missing import fill_missing

_header_lead = "No implementation of function"

__getattr__ = fill_missing(globals(), __name__)
