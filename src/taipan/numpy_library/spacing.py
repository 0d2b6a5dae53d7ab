"""Number sequences: np.linspace between complex bounds (taipan's library function covers real
ones; this overload declines them), np.logspace and np.geomspace, with Numba's arguments
(start, stop, num) and messages.

linspace is NumPy's formula: ``start + i * step`` with ``step = (stop - start) / (num - 1)``, the
last item set to ``stop`` exactly. geomspace is NumPy 2's: the sequence is computed between
``start / sign`` and ``stop / sign`` (``sign = np.sign(start)``, a unit complex number for
complex bounds) and multiplied back, with the end points set exactly."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import numpy_dtype, scalar_class


@overload(np.linspace)
def _linspace_complex(start, stop, num=50):
    if not (isinstance(start, types.Complex) or isinstance(stop, types.Complex)):
        return None  # real bounds: the library's linspace
    if not (isinstance(start, types.Number) and isinstance(stop, types.Number)):
        return None
    if not isinstance(num, (int, types.Integer)):
        return None
    dtype = scalar_class(np.result_type(numpy_dtype(start), numpy_dtype(stop), np.float64))

    def linspace_complex(start, stop, num=50):
        if num < 0:
            raise ValueError("Number of samples, -1, must be non-negative.")
        out = np.empty(num, dtype)
        first = dtype(start)
        last = dtype(stop)
        if num == 1:
            out[0] = first
            return out
        if num > 1:
            step = (last - first) / (num - 1)
            for i in range(num):
                out[i] = first + i * step
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

    def logspace(start, stop, num=50):
        return np.power(10.0, np.linspace(start, stop, num))

    return logspace


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
    else:
        sign_of = register_jitable(lambda x: np.sign(x))

    def geomspace(start, stop, num=50):
        if start == 0 or stop == 0:
            raise ValueError("Geometric sequence cannot include zero")
        first = dtype(start)
        last = dtype(stop)
        sign = sign_of(first)
        first = first / sign
        last = last / sign
        result = np.logspace(np.log10(first), np.log10(last), num)
        if num > 0:
            result[0] = first
            if num > 1:
                result[-1] = last
        return sign * result

    return geomspace
