"""``numba.cuda`` mapped onto ``taipan.cuda``, for running numba-cuda's own test suite
(``tools/numba_compat/cuda_suite.py``): every name taipan.cuda exports, its submodules
(``libdevice``, ``random``), ``types`` and ``config``, the test support numba-cuda's tests
import (``testing``), and placeholders (``numba._missing``) for numba-cuda's internals. The
runner copies numba-cuda's ``tests`` package (and its ``libdevicefuncs`` table, which the
libdevice tests read) into this folder, so they import as ``numba.cuda.tests`` and
``numba.cuda.libdevicefuncs``. Never plain Python: kernels compile and run with taipan."""

import sys as _sys

import taipan.cuda as _cuda
from numba._missing import fill_missing
from numba.core import cgutils, config  # noqa: F401  (numba.cuda.cgutils, numba.cuda.config)
from numba.core.types import *  # numba-cuda exports the scalar types (uint32...)
from numba.cuda import cudadrv, launchconfig, types  # noqa: F401  (cuda.cudadrv.driver.Stream...)
from numba.cuda.cudadrv import devicearray, devices  # noqa: F401
from numba.cuda.cudadrv.driver import require_context  # noqa: F401
from taipan.cuda import *
from taipan.cuda import fp16, libdevice, random  # noqa: F401

# numba-cuda's tests ask whether Numba itself is installed beside it (then they take
# numba.core's errors and types, which the shim maps onto taipan's as well).
HAS_NUMBA = True

for _name in ("libdevice", "random"):
    _sys.modules[f"{__name__}.{_name}"] = getattr(_cuda, _name)

# taipan.cuda's laneid is read per access (in the simulator, the running thread's lane): not a
# copy taken at import.
del laneid  # noqa: F821  (from taipan.cuda's names)
_missing = fill_missing(globals(), __name__)


def __getattr__(name):
    if name == "laneid":
        return _cuda.laneid
    if name in ("descriptor", "errors"):  # modules of the shim (cuda_target.typing_context...)
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name == "driver":  # numba-cuda's cuda.driver is its cudadrv.driver (device_to_host...)
        import importlib

        return importlib.import_module(f"{__name__}.cudadrv.driver")
    return _missing(name)
