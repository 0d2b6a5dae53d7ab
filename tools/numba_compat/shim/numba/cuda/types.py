"""``numba.cuda.types``: taipan's types, as ``numba.core.types`` in the shim."""

from numba.core.types import *
from numba.core.types import __getattr__  # noqa: F401  (placeholders for the rest)
