"""``numba.cuda.datamodel``: numba-cuda's copy of Numba's data models, which are the shim's
``numba.core.datamodel`` (taipan's models of user-defined types); ``models`` is that module."""

import sys as _sys

from numba._missing import fill_missing
from numba.core.datamodel import models, register_default  # noqa: F401

_sys.modules[f"{__name__}.models"] = models
__getattr__ = fill_missing(globals(), __name__)
