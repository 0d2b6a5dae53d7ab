"""``numba.core.typing``: only ``npydecl.supported_ufuncs`` is mapped."""

from numba._missing import fill_missing

__getattr__ = fill_missing(globals(), __name__)
