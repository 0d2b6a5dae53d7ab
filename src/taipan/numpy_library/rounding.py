"""np.round and its alias np.around: NumPy's rounding to ``decimals`` places (halves to even),
of numbers and arrays of any dtype, with the optional ``out`` array.

As NumPy's PyArray_Round: floats are scaled by 10**decimals in their own precision, rounded with
rint and scaled back (divided, or for negative ``decimals`` multiplied); complex numbers round
each part; integers are unchanged for decimals >= 0, else rounded to a multiple of
10**-decimals, halves to even; booleans (float16 in NumPy) are refused."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import is_none, numpy_dtype, scalar_class


def _float_rounder(kind):
    @register_jitable
    def round_float(x, decimals):
        if decimals >= 0:
            factor = kind(10.0**decimals)
            return np.rint(kind(x) * factor) / factor
        factor = kind(10.0 ** (-decimals))
        return np.rint(kind(x) / factor) * factor

    return round_float


def _rounder(dtype):
    """The compiled ``(value, decimals) -> rounded value`` for numbers of NumPy dtype ``dtype``."""
    kind = scalar_class(dtype)
    if dtype.kind == "f":
        return _float_rounder(kind)
    if dtype.kind == "c":
        part = _float_rounder(scalar_class(dtype.type(0).real.dtype))

        @register_jitable
        def round_complex(z, decimals):
            return kind(complex(part(z.real, decimals), part(z.imag, decimals)))

        return round_complex

    @register_jitable
    def round_integer(x, decimals):
        if decimals >= 0:
            return x
        step = 1
        for _ in range(-decimals):
            step *= 10
        quotient, remainder = divmod(np.int64(x), step)
        twice = 2 * remainder
        if twice > step or (twice == step and quotient % 2 == 1):
            quotient += 1
        return kind(quotient * step)

    return round_integer


def _round_typer(a, decimals=0, out=None):
    if not isinstance(decimals, (int, types.Integer)):
        raise TypingError("The argument decimals must be an integer")
    dtype = numpy_dtype(a)
    if dtype is None:
        return None
    if dtype.kind == "b":  # NumPy rounds booleans to float16, a type taipan lacks
        raise TypingError("np.round of booleans (float16 in NumPy) is not supported")
    rounded = _rounder(dtype)
    if isinstance(a, (types.Number, types.Boolean)):
        if not is_none(out):
            return None
        return lambda a, decimals=0, out=None: rounded(a, decimals)
    if is_none(out):

        def round_array(a, decimals=0, out=None):
            result = np.empty(a.shape, a.dtype)
            for index, value in np.ndenumerate(a):
                result[index] = rounded(value, decimals)
            return result

        return round_array
    if not isinstance(out, types.Array) or out.ndim != a.ndim:
        raise TypingError("The argument out must be an array of the input's dimensions")

    def round_into(a, decimals=0, out=None):
        if out.shape != a.shape:
            raise ValueError("invalid output shape")
        for index, value in np.ndenumerate(a):
            out[index] = rounded(value, decimals)
        return out

    return round_into


overload(np.round)(_round_typer)
overload(np.around)(_round_typer)
