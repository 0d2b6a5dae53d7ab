"""np.append: ``arr`` and ``values`` (arrays, numbers or tuples of numbers) joined by
np.concatenate, flattened when ``axis`` is None, else along ``axis`` (then both must have the
same number of dimensions, as NumPy requires)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.support import is_integer, is_none


def _array_like(t):
    return isinstance(
        t, (types.Array, types.Integer, types.Float, types.Complex, types.Boolean, types.BaseTuple)
    )


@overload(np.append)
def _append(arr, values, axis=None):
    if not _array_like(arr):
        raise TypingError('The first argument "arr" must be array-like')
    if not _array_like(values):
        raise TypingError('The second argument "values" must be array-like')
    if is_none(axis):

        def append_flat(arr, values, axis=None):
            return np.concatenate((np.asarray(arr).ravel(), np.asarray(values).ravel()))

        return append_flat
    if not is_integer(axis):
        raise TypingError('The third argument "axis" must be an integer')

    def append_along(arr, values, axis=None):
        return np.concatenate((np.asarray(arr), np.asarray(values)), axis=axis)

    return append_along
