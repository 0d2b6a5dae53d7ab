"""A ``numba`` module that maps Numba's API onto taipan, for running Numba's own test suite.

Not a distribution of Numba: it is put first on ``sys.path`` by ``tools/numba_compat/run.py``,
together with Numba's test modules copied from its wheel (``numba.tests``). Two modes, chosen by
the environment variable ``NUMBA_SHIM_MODE``:

* ``taipan`` (the default): ``jit``, ``njit``, ``vectorize``, ``guvectorize`` and ``cfunc``
  compile with taipan; ``numba.core.types``, ``numba.core.errors``, ``numba.extending``... are
  taipan's.
* ``python``: the compiling decorators return the function itself (``vectorize`` gives
  ``numpy.vectorize``), so the tests run as plain Python. The tests that pass this way are the
  ones that are meaningful for comparing with taipan.

What Numba's tests import from Numba's internals and taipan has no counterpart for is a
placeholder (see ``numba._missing``): importing works, using it raises ``ShimUnsupported``.
"""

import os as _os
import sys as _sys

from numba import _missing

_missing.install()
# numba-cuda's .pth file installs an import finder that sends every ``numba.cuda`` import to
# numba_cuda's package; the shim's numba.cuda (taipan.cuda) must win over it.
_sys.meta_path[:] = [f for f in _sys.meta_path if type(f).__name__ != "NumbaCudaFinder"]

MODE = _os.environ.get("NUMBA_SHIM_MODE", "taipan")
if MODE not in ("taipan", "python"):
    raise ImportError(f"NUMBA_SHIM_MODE must be 'taipan' or 'python', not {MODE!r}")
PLAIN_PYTHON = MODE == "python"

import taipan as _taipan
from numba import _decorators
from numba.core import config, errors, types  # noqa: F401
from numba.core.types import *
from numba.core.types import (  # noqa: F401
    b1,
    bool_,
    boolean,
    byte,
    complex64,
    complex128,
    double,
    f4,
    f8,
    float32,
    float64,
    i1,
    i2,
    i4,
    i8,
    int8,
    int16,
    int32,
    int64,
    intc,
    intp,
    none,
    u1,
    u2,
    u4,
    u8,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    void,
)

__version__ = _os.environ.get("NUMBA_SHIM_VERSION", "0.68.1")


def _version_info(text):
    """Numba's ``numba.version_info`` of a version string (tests compare its ``[:2]``)."""
    import collections

    fields = "major minor patch short full string tuple git_revision"
    parts = tuple(text.split("+")[0].split("."))
    numbers = tuple(int(part) for part in parts[:3] if part.isdigit())
    numbers += (0,) * (3 - len(numbers))
    info = collections.namedtuple("version_info", fields)
    return info(*numbers, numbers[:2], numbers, text, parts, None)


version_info = _version_info(__version__)

jit = _decorators.jit
njit = _decorators.njit
vectorize = _decorators.vectorize
guvectorize = _decorators.guvectorize
cfunc = _decorators.cfunc
jit_module = _decorators.jit_module
stencil = _decorators.stencil
objmode = _taipan.objmode
literal_unroll = _decorators.literal_unroll
literally = _decorators.literally
prange = range if PLAIN_PYTHON else _taipan.prange
pndindex = _decorators.pndindex
deferred_type = _taipan.types.deferred_type
optional = _taipan.types.optional
carray = _taipan.carray
farray = _taipan.farray
if PLAIN_PYTHON:
    from numba.core.types._plain import typeof
else:
    typeof = _taipan.typeof
get_num_threads = _taipan.get_num_threads
set_num_threads = _taipan.set_num_threads
get_thread_id = _taipan.get_thread_id
NumbaError = errors.NumbaError
TypingError = errors.TypingError


def from_dtype(dtype):
    from numba.np.numpy_support import from_dtype as _from_dtype

    return _from_dtype(dtype)


threading_layer = _taipan.threading_layer


_SUBPACKAGES = {
    "core",
    "cpython",
    "cuda",
    "experimental",
    "extending",
    "misc",
    "np",
    "parfors",
    "stencils",
    "testing",
    "tests",
    "typed",
}


def __getattr__(name):
    # Numba's subpackages that are not imported eagerly (numba.typed, numba.np...)
    if name not in _SUBPACKAGES:
        raise AttributeError(f"module 'numba' has no attribute {name!r}")
    import importlib

    return importlib.import_module(f"numba.{name}")
