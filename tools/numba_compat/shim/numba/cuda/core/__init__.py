"""``numba.cuda.core``: numba-cuda's copy of Numba's core; ``errors``, ``config``, ``imputils``
and ``pythonapi`` are the shim's ``numba.core`` ones (taipan's), the rest placeholders."""

import sys as _sys

from numba.core import config, errors, imputils, pythonapi  # noqa: F401

for _name in ("config", "errors", "imputils", "pythonapi"):
    _sys.modules[f"{__name__}.{_name}"] = globals()[_name]
