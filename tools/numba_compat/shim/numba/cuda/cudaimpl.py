"""``numba.cuda.cudaimpl``: ``lower`` is the shim's ``lower_builtin``, deferred as in
``numba.cuda.extending``; the rest placeholders."""

from numba._missing import fill_missing
from numba.cuda.extending import __getattr__ as _extension

lower = _extension("lower_builtin")
__getattr__ = fill_missing(globals(), __name__)
