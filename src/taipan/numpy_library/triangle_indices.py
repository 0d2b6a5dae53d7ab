"""The indices of a matrix's triangles: np.tril_indices, np.triu_indices and their ``_from``
forms, as NumPy computes them (np.nonzero of np.tri's mask), with Numba's restriction that every
argument is an integer and its messages."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.support import is_none


def _check_integer(value, name):
    if not isinstance(value, (int, types.Integer)) or isinstance(value, bool):
        raise TypingError(f"{name} must be an integer")


def _check_indices_arguments(n, k, m):
    _check_integer(n, "n")
    _check_integer(k, "k")
    if not is_none(m):
        _check_integer(m, "m")


def _check_from_arguments(arr, k):
    _check_integer(k, "k")
    if not isinstance(arr, types.Array) or arr.ndim != 2:
        raise TypingError("input array must be 2-d")


@overload(np.tril_indices)
def _tril_indices(n, k=0, m=None):
    _check_indices_arguments(n, k, m)
    return lambda n, k=0, m=None: np.nonzero(np.tri(n, m, k=k))


@overload(np.triu_indices)
def _triu_indices(n, k=0, m=None):
    _check_indices_arguments(n, k, m)
    return lambda n, k=0, m=None: np.nonzero(1 - np.tri(n, m, k=k - 1))


@overload(np.tril_indices_from)
def _tril_indices_from(arr, k=0):
    _check_from_arguments(arr, k)
    return lambda arr, k=0: np.tril_indices(arr.shape[0], k=k, m=arr.shape[1])


@overload(np.triu_indices_from)
def _triu_indices_from(arr, k=0):
    _check_from_arguments(arr, k)
    return lambda arr, k=0: np.triu_indices(arr.shape[0], k=k, m=arr.shape[1])
