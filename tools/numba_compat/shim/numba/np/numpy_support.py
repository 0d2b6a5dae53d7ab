"""``numba.np.numpy_support``: NumPy's version, and dtypes to and from taipan's types."""

import numpy as np

import taipan
from numba import PLAIN_PYTHON
from numba._missing import fill_missing

numpy_version = tuple(int(part) for part in np.__version__.split(".")[:2])


def from_dtype(dtype):
    """The taipan type of one element of ``dtype`` (in plain-Python mode, a stand-in where
    taipan has none)."""
    dtype = np.dtype(dtype)
    if PLAIN_PYTHON:
        from numba.core.types import _plain

        try:
            return _plain.wrap(taipan.typeof(np.zeros(1, dtype)).dtype)
        except Exception:  # noqa: BLE001
            return _plain.standin(f"from_dtype({dtype})")
    return taipan.typeof(np.zeros(1, dtype)).dtype


def as_dtype(numba_type):
    """The NumPy dtype of a taipan scalar type."""
    if getattr(numba_type, "kind_name", None) in ("Record", "NestedArray"):
        from taipan.types import _numpy_dtype

        return _numpy_dtype(numba_type)
    name = str(numba_type)  # a plain-Python mode proxy prints as its taipan type
    return np.dtype("bool" if name == "bool" or name == "boolean" else name)


# Numba defines carray and farray here (numba.carray is this module's).
carray = taipan.carray
farray = taipan.farray

__getattr__ = fill_missing(globals(), __name__)
