"""NumPy's functions that give an array a memory order or check its values: ascontiguousarray,
asfortranarray and asarray_chkfinite, and np.isscalar.

As in Numba, an array whose type already has the wanted layout is returned itself (no copy);
any other array is copied. Layout 'A' arrays are copied even when they happen to be contiguous
at run time, since the result's type must be C (or F). A Fortran copy is the transpose of a C
copy of the transpose. Scalars and 0-d arrays become 1-d arrays of one element (NumPy's
``ndmin=1``)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.support import is_none


def _is_number(t):
    return isinstance(t, (types.Integer, types.Float, types.Complex, types.Boolean))


def _as_layout(a, fortran):
    """The implementation of ascontiguousarray (``fortran`` False) or asfortranarray of ``a``
    (an array or a number), or None for other types."""
    if _is_number(a):

        def of_scalar(a):
            return np.full(1, a)

        return of_scalar
    if not isinstance(a, types.Array):
        return None
    if a.ndim == 0:

        def of_zero_d(a):
            return a.reshape((1,))

        return of_zero_d
    wanted = ("F",) if fortran else ("C",)
    if a.layout in wanted or (a.ndim == 1 and a.layout in ("C", "F")):

        def same(a):
            return a

        return same
    if fortran:

        def fortran_copy(a):
            return np.ascontiguousarray(a.T).T

        return fortran_copy

    def contiguous_copy(a):
        return a.copy()

    return contiguous_copy


@overload(np.ascontiguousarray)
def _ascontiguousarray(a, dtype=None, like=None):
    if not (is_none(dtype) and is_none(like)):
        return None
    return _as_layout(a, False)


@overload(np.asfortranarray)
def _asfortranarray(a, dtype=None, like=None):
    if not (is_none(dtype) and is_none(like)):
        return None
    return _as_layout(a, True)


@overload(np.asarray_chkfinite)
def _asarray_chkfinite(a, dtype=None, order=None):
    if not is_none(order):
        return None
    if not (isinstance(a, (types.Array, types.BaseTuple, types.List)) or _is_number(a)):
        raise TypingError("The argument to np.asarray_chkfinite must be array-like")

    def asarray_chkfinite(a, dtype=None, order=None):
        result = np.asarray(a, dtype)
        for value in result.flat:
            if not np.isfinite(value):
                raise ValueError("array must not contain infs or NaNs")
        return result

    return asarray_chkfinite


def _is_scalar_type(t):
    return _is_number(t) or isinstance(t, (types.UnicodeType, types.NPDatetime, types.NPTimedelta))


@overload(np.isscalar)
def _isscalar(element):
    answer = _is_scalar_type(element)

    def isscalar(element):
        return answer

    return isscalar
