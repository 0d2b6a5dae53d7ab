"""Number sequences: np.linspace between complex bounds (taipan's library function covers real
ones; this overload declines them), np.logspace and np.geomspace, with Numba's arguments
(start, stop, num) and messages.

linspace is NumPy's formula: ``start + i * step`` with ``step = (stop - start) / (num - 1)``, the
last item set to ``stop`` exactly. geomspace is NumPy 2's: the sequence is computed between
``start / sign`` and ``stop / sign`` (``sign = np.sign(start)``, a unit complex number for
complex bounds) and multiplied back, with the end points set exactly."""

import cmath

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import numpy_dtype, scalar_class


@overload(np.linspace)
def _linspace_complex(start, stop, num=50, endpoint=True):
    if not (isinstance(start, types.Complex) or isinstance(stop, types.Complex)):
        return None  # real bounds: the library's linspace
    if not (isinstance(start, types.Number) and isinstance(stop, types.Number)):
        return None
    if not isinstance(num, (int, types.Integer)):
        return None
    if not isinstance(endpoint, (bool, types.Boolean)):
        return None
    dtype = scalar_class(np.result_type(numpy_dtype(start), numpy_dtype(stop), np.float64))

    def linspace_complex(start, stop, num=50, endpoint=True):
        if num < 0:
            raise ValueError("Number of samples, -1, must be non-negative.")
        out = np.empty(num, dtype)
        first = dtype(start)
        last = dtype(stop)
        if num == 1:
            out[0] = first
            return out
        if num > 1:
            divisions = num - 1 if endpoint else num
            step = (last - first) / divisions
            for i in range(num):
                out[i] = first + i * step
            if endpoint:
                out[num - 1] = last
        return out

    return linspace_complex


@overload(np.logspace)
def _logspace(start, stop, num=50):
    if not isinstance(start, types.Number):
        raise TypingError('The first argument "start" must be a number')
    if not isinstance(stop, types.Number):
        raise TypingError('The second argument "stop" must be a number')
    if not isinstance(num, (int, types.Integer)):
        raise TypingError('The third argument "num" must be an integer')

    if isinstance(start, types.Complex) or isinstance(stop, types.Complex):

        def logspace_complex(start, stop, num=50):
            exponents = np.linspace(start, stop, num)
            out = np.empty(exponents.size, np.complex128)
            for i in range(exponents.size):
                out[i] = _complex_power_of_ten(exponents[i])
            return out

        return logspace_complex

    def logspace(start, stop, num=50):
        return np.power(10.0, np.linspace(start, stop, num))

    return logspace


_LOG10_E = float(np.log10(np.e))
_LOG_10 = complex(np.log(10.0))


@register_jitable
def _complex_power_of_ten(y):
    """10 ** y as NumPy's npy_cpow computes it: binary powering for an integer exponent below
    100 in magnitude, else cexp(y * clog(10))."""
    if y.imag == 0 and y.real == int(y.real) and -100 < y.real < 100:
        n = int(y.real)
        if n == 0:
            return complex(1.0)
        power = 1.0
        base = 10.0
        k = abs(n)
        while True:
            if k & 1:
                power *= base
            k >>= 1
            if k == 0:
                break
            base *= base
        return complex(power) if n > 0 else complex(1.0 / power)
    return cmath.exp(y * _LOG_10)


@register_jitable
def _complex_log10(z):
    """NumPy's complex log10 (nc_log10): the natural logarithm's parts times log10(e), so that
    geomspace's ends are exact as NumPy's (log10(1000) is 3.0)."""
    return complex(np.log(abs(z)) * _LOG10_E, np.arctan2(z.imag, z.real) * _LOG10_E)


@overload(np.geomspace)
def _geomspace(start, stop, num=50):
    if not isinstance(start, types.Number):
        raise TypingError('The argument "start" must be a number')
    if not isinstance(stop, types.Number):
        raise TypingError('The argument "stop" must be a number')
    if not isinstance(num, (int, types.Integer)):
        raise TypingError('The argument "num" must be an integer')
    dtype = scalar_class(np.result_type(numpy_dtype(start), numpy_dtype(stop), np.float64))
    if np.dtype(dtype).kind == "c":
        sign_of = register_jitable(lambda z: z / abs(z))  # NumPy 2's sign of a complex number
        log10 = _complex_log10
    else:
        sign_of = register_jitable(lambda x: np.sign(x))
        log10 = register_jitable(lambda x: np.log10(x))

    def geomspace(start, stop, num=50):
        if start == 0 or stop == 0:
            raise ValueError("Geometric sequence cannot include zero")
        first = dtype(start)
        last = dtype(stop)
        sign = sign_of(first)
        first = first / sign
        last = last / sign
        result = np.logspace(log10(first), log10(last), num)
        if num > 0:
            result[0] = first
            if num > 1:
                result[-1] = last
        return sign * result

    return geomspace
