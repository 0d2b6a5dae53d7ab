"""NumPy's tolerance and equality comparisons (isclose, allclose, array_equal) as overloads,
for arrays (broadcast) and scalars, after numpy/_core/numeric.py."""

import numpy as np

from taipan import types
from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.support import is_array_like, is_sequence, numpy_dtype

_SCALARS = (types.Integer, types.Float, types.Complex, types.Boolean)


def _is_array_like(t):
    return isinstance(t, (types.Array, *_SCALARS))


def _check_tolerances(rtol, atol, equal_nan):
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not isinstance(value, (int, float, types.Integer, types.Float)):
            raise TypingError(f"isclose: '{name}' must be a real number, not {value}")
    if not isinstance(equal_nan, (bool, types.Boolean)):
        raise TypingError(f"isclose: 'equal_nan' must be a boolean, not {equal_nan}")


def _element_type(t):
    return t.dtype if isinstance(t, types.Array) else t


def _inexact_type(a, b):
    """NumPy converts ``b`` to result_type(b, 1.0): the scalar type both operands are compared
    in, so that float32 arrays are compared in float32 (NumPy 2's weak Python floats)."""
    b_dtype = np.result_type(numpy_dtype(_element_type(b)), 1.0)
    return np.result_type(numpy_dtype(_element_type(a)), b_dtype).type


def _converter(t, inexact):
    """A compiled function converting a value of type ``t`` (array or scalar) to ``inexact``:
    NumPy compares integers as floats, so that x - y cannot overflow."""

    if isinstance(t, types.Array):

        def implementation(v):
            return v.astype(inexact)

        return njit(implementation)

    def implementation(v):
        return inexact(v)

    return njit(implementation)


@overload(np.isclose)
def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if not (_is_array_like(a) and _is_array_like(b)):
        return None
    _check_tolerances(rtol, atol, equal_nan)
    inexact = _inexact_type(a, b)
    real = np.dtype(inexact(0).real.dtype).type

    if isinstance(a, types.Array) or isinstance(b, types.Array):
        convert_a = _converter(a, inexact)
        convert_b = _converter(b, inexact)

        def arrays(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
            x = convert_a(a)
            y = convert_b(b)
            close = (np.abs(x - y) <= real(atol) + real(rtol) * np.abs(y)) & np.isfinite(y)
            result = close | (x == y)
            if equal_nan:
                return result | (np.isnan(x) & np.isnan(y))
            return result

        return arrays

    def scalars(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        x = inexact(a)
        y = inexact(b)
        if x == y:
            return True
        if equal_nan and np.isnan(x) and np.isnan(y):
            return True
        return np.isfinite(y) and abs(x - y) <= real(atol) + real(rtol) * abs(y)

    return scalars


@overload(np.allclose)
def _allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if not (_is_array_like(a) and _is_array_like(b)):
        return None
    _check_tolerances(rtol, atol, equal_nan)

    if isinstance(a, types.Array) or isinstance(b, types.Array):

        def arrays(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
            return bool(np.all(np.isclose(a, b, rtol, atol, equal_nan)))

        return arrays

    def scalars(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        return np.isclose(a, b, rtol, atol, equal_nan)

    return scalars


@overload(np.array_equal)
def _array_equal(a1, a2, equal_nan=False):
    if not (is_array_like(a1) and is_array_like(a2)):
        raise TypingError('Both arguments to "array_equals" must be array-like')
    if is_sequence(a1) or is_sequence(a2):  # lists and tuples: as arrays

        def array_equal_of_sequences(a1, a2, equal_nan=False):
            return np.array_equal(np.asarray(a1), np.asarray(a2), equal_nan)

        return array_equal_of_sequences
    if not isinstance(equal_nan, (bool, types.Boolean)):
        raise TypingError(f"array_equal: 'equal_nan' must be a boolean, not {equal_nan}")
    ndim1 = a1.ndim if isinstance(a1, types.Array) else 0
    ndim2 = a2.ndim if isinstance(a2, types.Array) else 0
    if ndim1 != ndim2:

        def implementation(a1, a2, equal_nan=False):
            return False

        return implementation
    nan_possible = all(isinstance(_element_type(t), (types.Float, types.Complex)) for t in (a1, a2))

    if ndim1 == 0 and not isinstance(a1, types.Array) and not isinstance(a2, types.Array):

        def scalars(a1, a2, equal_nan=False):
            if nan_possible and equal_nan and np.isnan(a1) and np.isnan(a2):
                return True
            return a1 == a2

        return scalars

    def arrays(a1, a2, equal_nan=False):
        if a1.shape != a2.shape:
            return False
        if nan_possible and equal_nan:
            return bool(np.all((a1 == a2) | (np.isnan(a1) & np.isnan(a2))))
        return bool(np.all(a1 == a2))

    return arrays
