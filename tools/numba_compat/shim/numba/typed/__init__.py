"""``numba.typed``: taipan's typed containers (``taipan.typed.List`` and ``taipan.typed.Dict``),
which compiled code receives without a copy, as Numba's."""

from numba._missing import fill_missing
from numba.typed import dictobject, listobject
from taipan.typed import Dict, List

__all__ = ["Dict", "List", "dictobject", "listobject"]

__getattr__ = fill_missing(globals(), __name__)
