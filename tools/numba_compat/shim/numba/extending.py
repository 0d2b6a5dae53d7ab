"""``numba.extending``: the same module as ``numba.core.extending``."""

import sys

from numba.core import extending as _extending

sys.modules[__name__] = _extending
