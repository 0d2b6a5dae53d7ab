"""Diagonals: np.diagflat (a 2-D array with the raveled input on its k-th diagonal) and
np.fill_diagonal (in place, the values repeated along the main diagonal, ``wrap`` for tall
matrices), as NumPy computes them, with Numba's checks: values that do not fit an integer or
float array's dtype raise ValueError (NumPy would wrap or overflow them silently)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import is_array_like
from taipan.unsafe import strided_view


@overload(np.diagflat)
def _diagflat(v, k=0):
    if not is_array_like(v):
        raise TypingError('The argument "v" must be array-like')
    if not isinstance(k, (int, types.Integer)):
        raise TypingError('The argument "k" must be an integer')

    def diagflat(v, k=0):
        values = np.asarray(v).ravel()
        count = len(values)
        n = count + abs(k)
        out = np.zeros((n, n), values.dtype)
        row = max(0, -k)
        column = max(0, k)
        for t in range(count):
            out[row + t, column + t] = values[t]
        return out

    return diagflat


@register_jitable
def _fill_matrix_diagonal(a, values, wrap):
    """NumPy's walk over a 2-D array's items in C order, every (columns + 1)-th from the first,
    up to the square's end (or the array's end with ``wrap``)."""
    rows, columns = a.shape[0], a.shape[1]
    end = columns * rows if wrap else columns * min(rows, columns)
    count = 0
    for i in range(0, end, columns + 1):
        a[i // columns, i % columns] = values[count]
        count = (count + 1) % values.size


@register_jitable
def _fill_cube_diagonal(a, values, wrap):
    """The items a[k, k, ..., k] of an array whose axes all have one length."""
    stride = 0
    for i in range(a.ndim):
        if a.shape[i] != a.shape[0]:
            raise ValueError("All dimensions of input must be of equal length")
        stride += a.strides[i]
    diagonal = strided_view(a, (a.shape[0],), (stride,))
    for k in range(a.shape[0]):
        diagonal[k] = values[k % values.size]


@register_jitable
def _check_integer_values(a, values):
    info = np.iinfo(a.dtype)
    for value in values:
        if not np.isfinite(value) or value < info.min or value > info.max:
            raise ValueError("Unable to safely conform val to a.dtype")


@register_jitable
def _check_float_values(a, values):
    info = np.finfo(a.dtype)
    for value in values:
        if np.isfinite(value) and (value < info.min or value > info.max):
            raise ValueError("Unable to safely conform val to a.dtype")


@register_jitable
def _no_check(a, values):
    pass


@overload(np.fill_diagonal)
def _fill_diagonal(a, val, wrap=False):
    if not isinstance(a, types.Array):
        return None
    if a.ndim < 2:
        raise TypingError(f"The first argument must be at least 2-D (found {a.ndim}-D)")
    if isinstance(a.dtype, types.Integer):
        check = _check_integer_values
    elif isinstance(a.dtype, types.Float):
        check = _check_float_values
    else:
        check = _no_check
    if isinstance(val, types.Complex) and not isinstance(a.dtype, types.Complex):
        return None
    if not (isinstance(val, (types.Number, types.Boolean)) or is_array_like(val)):
        return None

    fill = _fill_matrix_diagonal if a.ndim == 2 else _fill_cube_diagonal

    def fill_diagonal(a, val, wrap=False):
        values = np.asarray(val).ravel()
        check(a, values)
        if values.size != 0:
            fill(a, values, wrap)

    return fill_diagonal
