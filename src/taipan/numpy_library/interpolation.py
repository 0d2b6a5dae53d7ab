"""``np.interp``: NumPy's piecewise-linear interpolation, with its arithmetic (the slope from the
left sample point, then from the right one when that gives NaN) and its errors."""

import math

import numpy as np

from taipan import njit, types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.branch_free import choose_unpredictable
from taipan.numpy_library.support import as_array_unless_scalar, is_sequence

_LIKELY_IN_CACHE_SIZE = 8


@register_jitable
def _segment(x, xp, n, guess):
    """The j with xp[j] <= x < xp[j+1]: -1 left of xp[0], n right of xp[-1], n - 1 at it, by
    NumPy's binary_search_with_guess exactly (the previous point's j is the guess), so that
    unsorted sample points give NumPy's results too."""
    if x > xp[n - 1]:
        return n
    if x < xp[0]:
        return -1
    if n <= 4:  # a linear search
        i = 1
        while i < n and x >= xp[i]:
            i += 1
        return i - 1
    low = 0
    high = n
    guess = min(max(guess, 1), n - 3)
    if x < xp[guess]:
        if x < xp[guess - 1]:
            high = guess - 1
            if guess > _LIKELY_IN_CACHE_SIZE and x >= xp[guess - _LIKELY_IN_CACHE_SIZE]:
                low = guess - _LIKELY_IN_CACHE_SIZE
        else:
            return guess - 1
    else:
        if x < xp[guess + 1]:
            return guess
        if x < xp[guess + 2]:
            return guess + 1
        low = guess + 2
        if guess < n - _LIKELY_IN_CACHE_SIZE - 1 and x < xp[guess + _LIKELY_IN_CACHE_SIZE]:
            high = guess + _LIKELY_IN_CACHE_SIZE
    while low < high:  # steps that go either way at random: selects (branch_free.py)
        middle = low + ((high - low) >> 1)
        goes_after = x >= xp[middle]
        low = choose_unpredictable(goes_after, middle + 1, low)
        high = choose_unpredictable(goes_after, high, middle)
    return low - 1


@register_jitable
def _interpolate_real(x, xp, fp, j, n, left, right):
    if math.isnan(x):
        return x
    if j == -1:
        return left
    if j == n:
        return right
    if j == n - 1 or xp[j] == x:
        return fp[j]
    slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
    value = slope * (x - xp[j]) + fp[j]
    if math.isnan(value):
        value = slope * (x - xp[j + 1]) + fp[j + 1]
        if math.isnan(value) and fp[j] == fp[j + 1]:
            value = fp[j]
    return value


@register_jitable
def _interpolate_part(x, xp, fp, j, n, left, right, precomputed):
    """One part of a complex value, as NumPy's complex loop computes it: through the reciprocal
    of the step, its slopes precomputed when there are no more sample points than points."""
    if j == -1:
        return left
    if j == n:
        return right
    if j == n - 1 or xp[j] == x:
        return fp[j]
    inverse_step = 1.0 / (xp[j + 1] - xp[j])
    slope = (fp[j + 1] - fp[j]) * inverse_step
    if precomputed:
        value = slope * (x - xp[j]) + fp[j]
    else:
        value = (fp[j + 1] - fp[j]) * (x - xp[j]) * inverse_step + fp[j]
    if math.isnan(value):
        value = slope * (x - xp[j + 1]) + fp[j + 1]
        if math.isnan(value) and fp[j] == fp[j + 1]:
            value = fp[j]
    return value


@register_jitable
def _check(xp, fp):
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")


def _is_real(t):
    return isinstance(t, (types.Integer, types.Float, types.Boolean))


def _is_real_array(t):
    return isinstance(t, types.Array) and t.ndim == 1 and _is_real(t.dtype)


@overload(np.interp)
def _interp(x, xp, fp, left=None, right=None, period=None):
    if isinstance(x, types.Array) and x.ndim == 0:  # a number's result, as NumPy's

        def interp_of_0d(x, xp, fp, left=None, right=None, period=None):
            return np.interp(x.item(), xp, fp, left, right)

        return interp_of_0d
    if is_sequence(x) or is_sequence(xp) or is_sequence(fp):  # lists and tuples: as arrays

        def interp_of_sequences(x, xp, fp, left=None, right=None, period=None):
            return np.interp(as_array_unless_scalar(x), np.asarray(xp), np.asarray(fp), left, right)

        return interp_of_sequences
    if not (_is_real_array(xp) and isinstance(fp, types.Array) and fp.ndim == 1):
        return None
    if not isinstance(period, types.NoneType) and period is not None:
        raise TypingError("np.interp(period=...) is not supported")
    complex_values = isinstance(fp.dtype, types.Complex)
    if not (complex_values or _is_real(fp.dtype)):
        return None
    scalar = _is_real(x)
    if not (scalar or (isinstance(x, types.Array) and _is_real(x.dtype))):
        return None
    result_dtype = np.complex128 if complex_values else np.float64

    def interpolate(point, samples, values, n, low, high, precomputed, j):
        if n == 1:  # NumPy's rule for one sample point, which a NaN point falls through
            if point < samples[0]:
                return low
            return high if point > samples[0] else values[0]
        if complex_values:
            if math.isnan(point):  # NumPy keeps a NaN point's NaN in the real part only
                return point + 0j
            real = _interpolate_part(
                point, samples, values.real, j, n, low.real, high.real, precomputed
            )
            imag = _interpolate_part(
                point, samples, values.imag, j, n, low.imag, high.imag, precomputed
            )
            return real + 1j * imag
        return _interpolate_real(point, samples, values, j, n, low, high)

    compiled_interpolate = njit(interpolate)

    def impl(x, xp, fp, left=None, right=None, period=None):
        _check(xp, fp)
        samples = xp.astype(np.float64)
        values = fp.astype(result_dtype)
        n = samples.shape[0]
        low = values[0] if left is None else result_dtype(left)
        high = values[n - 1] if right is None else result_dtype(right)
        if scalar:
            point = np.float64(x)
            j = 0 if math.isnan(point) or n == 1 else _segment(point, samples, n, 0)
            return compiled_interpolate(point, samples, values, n, low, high, n <= 1, j)
        points = x.astype(np.float64)
        flat = points.ravel()
        out = np.empty(flat.shape[0], result_dtype)
        precomputed = n <= flat.shape[0]
        j = 0  # each point's segment is the next one's guess; a NaN point keeps it
        for i in range(flat.shape[0]):
            if n > 1 and not math.isnan(flat[i]):
                j = _segment(flat[i], samples, n, j)
            out[i] = compiled_interpolate(flat[i], samples, values, n, low, high, precomputed, j)
        return out.reshape(points.shape)

    return impl
