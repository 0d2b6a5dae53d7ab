"""numpy.polynomial's functions as Numba supports them: polyutils.trimseq and as_series, and
polynomial.polyadd, polysub, polymul, polydiv, polyval (``tensor`` a boolean constant) and
polyint (``c`` and ``m``), with NumPy's results and Numba's messages.

Coefficients are computed in NumPy's result dtype of the inputs and float64 (complex stays
complex); series are lists of 1-D arrays, as as_series returns them."""

import numpy as np
from numpy.polynomial import polyutils as pu

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import (
    array_like_dtype,
    array_like_ndim,
    is_array_like,
    scalar_class,
)
from taipan.unrolling import literal_unroll


def _check_array_like(value, name):
    if not is_array_like(value):
        raise TypingError(f'The argument "{name}" must be array-like')


def _series_dtype(*values):
    """The dtype coefficients are computed in: NumPy's result type of the values' and float64."""
    dtypes = [array_like_dtype(v) for v in values]
    if any(d is None or d.kind not in "biufc" for d in dtypes):
        raise TypingError("Input dtype must be scalar.")
    return np.result_type(np.float64, *dtypes)


def _check_coefficients_1d(*values):
    for value in values:
        ndim = array_like_ndim(value)
        if ndim is None or ndim > 1:
            raise TypingError("Coefficient array is not 1-d")


@overload(np.polynomial.polyutils.trimseq)
def _trimseq(seq):
    _check_array_like(seq, "seq")
    if isinstance(seq, types.BaseTuple):
        spelled = f"UniTuple({seq.types[0]}, {len(seq.types)})" if len(set(seq.types)) == 1 else seq
        raise TypingError(f'Unsupported type {spelled} for argument "seq"')
    if array_like_ndim(seq) != 1:
        raise TypingError("Coefficient array is not 1-d")

    def trimseq(seq):
        if len(seq) == 0:
            return seq[:]
        last = len(seq) - 1
        while last > 0 and seq[last] == 0:
            last -= 1
        return seq[: last + 1]

    return trimseq


@overload(np.polynomial.polyutils.as_series)
def _as_series(alist, trim=True):
    _check_array_like(alist, "alist")
    if not isinstance(trim, (bool, types.Boolean)):
        raise TypingError('The argument "trim" must be boolean')
    if isinstance(alist, types.BaseTuple):
        _check_coefficients_1d(*alist.types)
        dtype = scalar_class(_series_dtype(*alist.types))

        def as_series_of_tuple(alist, trim=True):
            arrays = []
            for item in literal_unroll(alist):
                arrays.append(np.atleast_1d(np.asarray(item)).astype(dtype))
            return _finished_series(arrays, trim)

        return as_series_of_tuple
    ndim = array_like_ndim(alist)
    if ndim is None or ndim > 2:
        raise TypingError("Coefficient array is not 1-d")
    dtype = scalar_class(_series_dtype(alist))

    def as_series(alist, trim=True):
        arrays = [np.atleast_1d(np.asarray(item)).astype(dtype) for item in np.asarray(alist)]
        return _finished_series(arrays, trim)

    return as_series


def _finished_series(arrays, trim):
    pass


@overload(_finished_series)
def _finished_series_typer(arrays, trim):
    def finished_series(arrays, trim):
        for array in arrays:
            if array.size == 0:
                raise ValueError("Coefficient array is empty")
        if trim:
            return [pu.trimseq(array) for array in arrays]
        return arrays

    return finished_series


def _check_pair(c1, c2):
    _check_array_like(c1, "c1")
    _check_array_like(c2, "c2")
    _check_coefficients_1d(c1, c2)


def _padded_sum(subtract):
    def polyadd_or_sub(c1, c2):
        _check_pair(c1, c2)

        def combined(c1, c2):
            series = pu.as_series((c1, c2))
            a, b = series[0], series[1]
            length = max(len(a), len(b))
            out = np.zeros(length, a.dtype)
            first, second = len(a), len(b)
            out[:first] += a
            if subtract:
                out[:second] -= b
            else:
                out[:second] += b
            return pu.trimseq(out)

        return combined

    return polyadd_or_sub


overload(np.polynomial.polynomial.polyadd)(_padded_sum(False))
overload(np.polynomial.polynomial.polysub)(_padded_sum(True))


@overload(np.polynomial.polynomial.polymul)
def _polymul(c1, c2):
    _check_pair(c1, c2)

    def polymul(c1, c2):
        series = pu.as_series((c1, c2))
        return pu.trimseq(np.convolve(series[0], series[1]))

    return polymul


@overload(np.polynomial.polynomial.polydiv)
def _polydiv(c1, c2):
    _check_pair(c1, c2)

    def polydiv(c1, c2):
        series = pu.as_series((c1, c2))
        dividend, divisor = series[0], series[1]
        if divisor[-1] == 0:
            raise ZeroDivisionError()
        n1 = len(dividend)
        n2 = len(divisor)
        if n1 < n2:
            return dividend[:1] * 0, dividend
        if n2 == 1:
            return dividend / divisor[-1], dividend[:1] * 0
        scale = divisor[-1]
        normalised = divisor[:-1] / scale
        i = n1 - n2
        j = n1 - 1
        while i >= 0:
            dividend[i:j] -= normalised * dividend[j]
            i -= 1
            j -= 1
        return dividend[j + 1 :] / scale, pu.trimseq(dividend[: j + 1])

    return polydiv


@overload(np.polynomial.polynomial.polyval)
def _polyval(x, c, tensor=True):
    _check_array_like(x, "x")
    _check_array_like(c, "c")
    if not isinstance(tensor, (bool, types.Boolean)):
        raise TypingError('The argument "tensor" must be boolean')
    dtype = scalar_class(_series_dtype(c, x))
    # a number or a 0-d array gives a number, as NumPy's arithmetic does
    x_is_array = not isinstance(x, (types.Number, types.Boolean)) and array_like_ndim(x) != 0
    # x's dimensions, appended to c's shape when tensor is True (a list or tuple x is 1-D)
    extra = (1,) * (x.ndim if isinstance(x, types.Array) else 1)
    if x_is_array:
        as_points = register_jitable(lambda x: np.asarray(x).astype(dtype))
    else:
        as_points = register_jitable(lambda x: np.asarray(x).astype(dtype).item())

    if isinstance(tensor, bool):
        outer = tensor  # omitted: its default
    elif not x_is_array or array_like_ndim(c) == 1:
        outer = True  # tensor changes nothing here: either value gives this result
    else:
        # The result's dimensions depend on tensor: a call that passes a constant (True or
        # False) has the branch it does not take pruned (calls are typed again with their
        # constant arguments); a value known only at run time cannot type.
        def polyval_either(x, c, tensor=True):
            coefficients = np.asarray(c).astype(dtype)
            points = as_points(x)
            if tensor:
                return _horner(coefficients.reshape(coefficients.shape + extra), points)
            return _horner(coefficients, points)

        return polyval_either
    reshaped = x_is_array and outer

    def polyval(x, c, tensor=True):
        coefficients = np.asarray(c).astype(dtype)
        points = as_points(x)
        if reshaped:
            return _horner(coefficients.reshape(coefficients.shape + extra), points)
        return _horner(coefficients, points)

    return polyval


def _horner(coefficients, points):
    pass


@overload(_horner)
def _horner_typer(coefficients, points):
    def horner(coefficients, points):
        n = len(coefficients)
        y = coefficients[n - 1] + points * 0
        for i in range(n - 1, 0, -1):
            y = coefficients[i - 1] + y * points
        return y

    return horner


@overload(np.polynomial.polynomial.polyint)
def _polyint(c, m=1):
    _check_array_like(c, "c")
    if not isinstance(m, (int, types.Integer)):
        raise TypingError('The argument "m" must be an integer')
    dtype = _series_dtype(c)
    kind = scalar_class(dtype)
    one_dimensional = array_like_ndim(c) == 1

    def polyint(c, m=1):
        integral = np.asarray(c).astype(kind)
        for _ in range(m):
            n = len(integral)
            step = np.empty((n + 1,) + integral.shape[1:], dtype=kind)
            step[0] = integral[0] * 0
            step[1] = integral[0]
            for j in range(1, n):
                step[j + 1] = integral[j] / (j + 1)
            integral = step
        if one_dimensional:
            return pu.trimseq(integral)
        return integral

    return polyint
