"""``numba.types``: the same module as ``numba.core.types``, as in Numba (libraries write
``from numba.types import Array``)."""

import sys

from numba.core import types as _types

sys.modules[__name__] = _types
