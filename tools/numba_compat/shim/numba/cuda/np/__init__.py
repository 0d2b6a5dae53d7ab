"""``numba.cuda.np``: ``numpy_support`` is the shim's ``numba.np.numpy_support``."""

import sys as _sys

from numba.np import numpy_support

_sys.modules[f"{__name__}.numpy_support"] = numpy_support
