"""np.take (the array, the indices and an axis: without one, items of the raveled array;
with one, the chosen lanes along it; negative indices from the end) and np.roots (the eigenvalues of the companion matrix, as NumPy's; real
roots of real coefficients, as Numba's), with NumPy's results."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library._axis import axis_normalizer, lanes_of
from taipan.numpy_library.support import (
    array_like_dtype,
    array_like_ndim,
    is_array_like,
    is_none,
    scalar_class,
)
from taipan.unsafe import tuple_setitem


@register_jitable
def _item(flat, index):
    n = flat.size
    if index < -n or index >= n:
        raise IndexError(f"index {index} is out of bounds for axis 0 with size {n}")
    return flat[index + n if index < 0 else index]


@register_jitable
def _position(index, n, axis):
    """``index`` of an axis of ``n`` items as a position in [0, n), with NumPy's IndexError."""
    if index < -n or index >= n:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")
    return index + n if index < 0 else index


@register_jitable
def _take_shape(shape, indices_shape, axis, zeros):
    """NumPy's shape of np.take(a, indices, axis): ``shape`` (a's) with its ``axis`` replaced
    by ``indices_shape``; ``zeros`` is a tuple of the result's length to fill."""
    k = len(indices_shape)
    result = zeros
    for i in range(len(zeros)):
        if i < axis:
            result = tuple_setitem(result, i, shape[i])
        elif i < axis + k:
            result = tuple_setitem(result, i, indices_shape[i - axis])
        else:
            result = tuple_setitem(result, i, shape[i - k + 1])
    return result


@register_jitable
def _shape_without(shape, indices_shape, axis, zeros):
    """``_take_shape`` for one index (``indices_shape`` is empty): ``axis`` dropped."""
    result = zeros
    for i in range(len(zeros)):
        result = tuple_setitem(result, i, shape[i] if i < axis else shape[i + 1])
    return result


def _take_along(a, indices, axis):
    """np.take(a, indices, axis=axis) for an integer axis: the lanes (outer, n, inner) of ``a``
    along the axis, the chosen ones gathered into (outer, m, inner), seen in NumPy's shape."""
    ndim = array_like_ndim(a)
    if ndim == 0:
        raise TypingError("np.take with an axis needs an array of at least one dimension")
    normalize = axis_normalizer(ndim)
    indices_ndim = 0 if isinstance(indices, types.Integer) else array_like_ndim(indices)
    zeros = (0,) * (ndim - 1 + indices_ndim)
    result_shape = _take_shape if indices_ndim else _shape_without

    @register_jitable
    def gather(a, indices, axis):
        array = np.asarray(a)
        along = normalize(axis)
        chosen = np.asarray(indices)
        picks = chosen.ravel()
        lanes = lanes_of(array, along)
        outer, n, inner = lanes.shape
        out = np.empty((outer, picks.size, inner), array.dtype)
        for j in range(picks.size):
            position = _position(picks[j], n, along)
            for o in range(outer):
                for i in range(inner):
                    out[o, j, i] = lanes[o, position, i]
        return out.reshape(result_shape(array.shape, chosen.shape, along, zeros))

    if zeros == ():  # a 1-D array and one index: NumPy gives the item itself

        def take_item(a, indices, axis=None):
            array = np.asarray(a)
            along = normalize(axis)
            return array[_position(indices, array.shape[0], along)]

        return take_item

    def take_along(a, indices, axis=None):
        return gather(a, indices, axis)

    return take_along


@overload(np.take)
def _take(a, indices, axis=None):
    if not is_array_like(a):
        return None
    if not isinstance(indices, types.Integer):
        dtype = array_like_dtype(indices)
        if dtype is None or dtype.kind not in "iu":
            raise TypingError("np.take's indices must be an integer or an array-like of integers")
    if not is_none(axis):
        if not isinstance(axis, types.Integer):
            raise TypingError(f"np.take's axis must be an integer or None, not {axis}")
        return _take_along(a, indices, axis)
    if isinstance(indices, types.Integer):
        return lambda a, indices, axis=None: _item(np.asarray(a).ravel(), indices)

    def take(a, indices, axis=None):
        flat = np.asarray(a).ravel()
        chosen = np.asarray(indices)
        out = np.empty(chosen.shape, flat.dtype)
        for index, position in np.ndenumerate(chosen):
            out[index] = _item(flat, position)
        return out

    return take


@overload(np.roots)
def _roots(p):
    dtype = array_like_dtype(p)
    if dtype is None:
        raise TypingError("np.roots takes an array-like of numbers")
    # integer coefficients are float64, as in NumPy. As in Numba, real coefficients give real
    # roots (NumPy's type would depend on the values): complex roots of a real polynomial raise
    # eigvals' ValueError; complex coefficients give complex roots. Where the installed NumPy's
    # eigvals is complex for every matrix (2.5 and later), so are the roots, as NumPy's.
    from taipan.numpy_library.linalg_eig import _eig_always_complex

    work = scalar_class(np.result_type(dtype, np.float64))
    result = scalar_class(np.result_type(work, np.complex64)) if _eig_always_complex() else work

    def roots(p):
        coefficients = np.asarray(p).astype(work)
        if coefficients.ndim != 1:
            raise ValueError("Input must be a 1d array.")
        nonzero = np.nonzero(coefficients)[0]
        if len(nonzero) == 0:
            return np.zeros(0, dtype=result)
        trailing = len(coefficients) - nonzero[-1] - 1
        trimmed = coefficients[int(nonzero[0]) : int(nonzero[-1]) + 1]
        n = len(trimmed)
        found = np.zeros(0, dtype=result)
        if n > 1:
            companion = np.zeros((n - 1, n - 1), work)
            for i in range(1, n - 1):
                companion[i, i - 1] = 1
            for j in range(n - 1):
                companion[0, j] = -trimmed[j + 1] / trimmed[0]
            found = np.linalg.eigvals(companion).astype(result)
        out = np.zeros(len(found) + trailing, dtype=result)
        out[: len(found)] = found
        return out

    return roots
