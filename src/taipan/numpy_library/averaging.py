"""np.average (Numba's form: no ``axis``, optional ``weights``) and np.unwrap (``axis`` must be
-1, as in Numba), with NumPy's results and Numba's messages."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.support import array_like_dtype, is_array_like, is_none, scalar_class


@overload(np.average)
def _average(a, axis=None, weights=None):
    if not is_none(axis):

        def average_with_axis(a, axis=None, weights=None):
            raise TypeError("Numba does not support average with axis.")

        return average_with_axis
    if not is_array_like(a):
        return None
    if is_none(weights):
        return lambda a, axis=None, weights=None: np.mean(np.asarray(a))
    if not is_array_like(weights):
        return None

    def average(a, axis=None, weights=None):
        values = np.asarray(a)
        given = np.asarray(weights)
        if values.shape != given.shape and given.ndim != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        total = np.sum(given)
        if total == 0.0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized.")
        return np.sum(np.multiply(values, given)) / total

    return average


@overload(np.unwrap)
def _unwrap(p, discont=None, axis=-1, period=6.283185307179586):
    if not isinstance(axis, (int, types.Integer)):
        raise TypingError('The argument "axis" must be an integer')
    if not is_array_like(p):
        raise TypingError('The argument "p" must be array-like')
    if not (is_none(discont) or isinstance(discont, (types.Integer, types.Float))):
        raise TypingError('The argument "discont" must be a scalar')
    if not isinstance(period, (float, types.Number)):
        raise TypingError('The argument "period" must be a scalar')
    # the period is weak, as a Python number is in NumPy 2 (float32 phases stay float32)
    weak = (
        0 if isinstance(period, types.Integer) else 0j if isinstance(period, types.Complex) else 0.0
    )
    dtype = np.result_type(array_like_dtype(p), weak)
    integer_input = dtype.kind in "iu"
    kind = scalar_class(dtype)

    def unwrap(p, discont=None, axis=-1, period=6.283185307179586):
        if axis != -1:
            raise ValueError('Value for argument "axis" is not supported')
        values = np.asarray(p).astype(kind)
        shape = values.shape
        length = shape[-1]
        rows = values.reshape((values.size // length, length))
        # every scalar in the phases' dtype, as NumPy computes with the Python numbers
        cycle = kind(period)
        threshold = kind(period / 2) if discont is None else kind(discont)
        if integer_input:
            high, remainder = divmod(cycle, 2)
            boundary_ambiguous = remainder == 0
        else:
            high = kind(cycle / 2)
            boundary_ambiguous = True
        low = -high
        for i in range(rows.shape[0]):
            row = rows[i]
            steps = np.diff(row)
            wrapped = np.mod(steps - low, cycle) + low
            if boundary_ambiguous:
                wrapped = np.where((wrapped == low) & (steps > 0), high, wrapped)
            correction = wrapped - steps
            correction = np.where(np.abs(steps) < threshold, 0, correction)
            row[1:] = row[1:] + correction.cumsum()
        return rows.reshape(shape)

    return unwrap
