"""Numba's ``numba.core.types``: taipan's type objects (``taipan.types``), so that extension
code written against ``numba.core.types`` ports by changing ``numba`` to ``taipan``."""

from taipan.types import *
from taipan.types import CPointer, Signature, voidptr  # noqa: F401
