"""NumPy's functions that build or read matrices from diagonals and triangles, and index grids:
np.diag, np.tri and np.indices.

np.diag of a 1-D array builds a 2-D one with it on the k-th diagonal; of a 2-D array it reads
the k-th diagonal into a new 1-D array (NumPy gives a read-only view; Numba, and taipan, a
copy)."""

import re

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.support import integer_tuple, is_integer, is_none, scalar_class


@overload(np.diag)
def _diag(v, k=0):
    if not isinstance(v, types.Array) or not is_integer(k):
        return None
    if v.ndim == 1:

        def diag_build(v, k=0):
            n = v.shape[0] + abs(k)
            out = np.zeros((n, n), v.dtype)
            for i in range(v.shape[0]):
                if k >= 0:
                    out[i, i + k] = v[i]
                else:
                    out[i - k, i] = v[i]
            return out

        return diag_build
    if v.ndim == 2:

        def diag_read(v, k=0):
            rows, columns = v.shape
            if k >= 0:
                count = max(0, min(rows, columns - k))
            else:
                count = max(0, min(rows + k, columns))
            out = np.empty(count, v.dtype)
            for i in range(count):
                out[i] = v[i, i + k] if k >= 0 else v[i - k, i]
            return out

        return diag_read
    raise TypingError("numpy.diag takes a 1-D or 2-D array")


@overload(np.tri)
def _tri(N, M=None, k=0, dtype=float, like=None):
    if not is_integer(k):
        raise TypingError("k must be an integer")
    if not is_integer(N) or not (is_none(M) or is_integer(M)) or not is_integer(k):
        return None
    if not is_none(like):
        return None
    result = _dtype_of(dtype)
    if result is None:
        return None

    def tri(N, M=None, k=0, dtype=float, like=None):
        columns = N if M is None else M
        out = np.zeros((max(N, 0), max(columns, 0)), result)
        for i in range(N):
            for j in range(min(columns, max(i + k + 1, 0))):
                out[i, j] = 1
        return out

    return tri


def _dtype_of(t):
    """NumPy's scalar class of a dtype argument: Python's float/int/bool/complex (a parameter's
    default), a scalar class (its type reads ``Function(numpy.int32)``) or a dtype object;
    None for anything else."""
    if t in (float, int, bool, complex):
        return np.dtype(t).type
    inner = getattr(t, "dtype", None)
    if isinstance(inner, (types.Integer, types.Float, types.Complex, types.Boolean)):
        return scalar_class(np.dtype(inner.name))
    match = re.fullmatch(r"Function\((?:numpy|builtins)\.(\w+)\)", getattr(t, "name", ""))
    if match is None:
        return None
    try:
        return np.dtype(match.group(1)).type
    except TypeError:
        return None


@overload(np.indices)
def _indices(dimensions, dtype=int, sparse=False):
    if not integer_tuple(dimensions):
        raise TypingError('The argument "dimensions" must be a tuple of integers')
    if not (sparse is False):
        return None
    result = _dtype_of(dtype)
    if result is None:
        return None
    ndim = len(dimensions.types)

    def indices(dimensions, dtype=int, sparse=False):
        out = np.empty((ndim,) + dimensions, result)
        flat = out.reshape((ndim, -1))
        count = flat.shape[1]
        for position in range(count):
            rest = position
            for axis in range(ndim - 1, -1, -1):
                extent = dimensions[axis]
                flat[axis, position] = rest % extent
                rest //= extent
        return out

    return indices
