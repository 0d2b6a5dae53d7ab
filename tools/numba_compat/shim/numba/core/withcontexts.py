"""``numba.core.withcontexts``: ``objmode_context`` is taipan's ``objmode`` (Numba's
``numba.objmode`` is the same object); the other contexts are Numba internals."""

import taipan
from numba._missing import fill_missing

objmode_context = taipan.objmode

__getattr__ = fill_missing(globals(), __name__)
