"""NumPy's one-dimensional signal functions (convolve, correlate) and the trapezoidal rule
(trapezoid, and trapz where NumPy still has it) as overloads."""

import numpy as np

from taipan import types
from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import numpy_dtype, string_value

# ---------------------------------------------------------------------------------------------
# convolve, correlate

_MODES = ("valid", "same", "full")


def _mode(mode):
    """The mode name of a ``mode`` argument (a string literal, or omitted: its default); None
    for a string known only at run time."""
    name = string_value(mode)
    if name is None:
        if isinstance(mode, types.UnicodeType):
            return None
        raise TypingError(f"mode must be a string, not {mode}")
    if name not in _MODES:
        # NumPy raises ValueError when called; the mode is known here, so it fails to compile.
        raise TypingError(f"mode must be one of 'valid', 'same', or 'full' (got {name!r})")
    return name


def _result_scalar(a, v):
    return np.result_type(numpy_dtype(a.dtype), numpy_dtype(v.dtype)).type


@register_jitable
def _check_not_empty(a, v):
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")


@register_jitable
def _check_correlate_not_empty(a, v):
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")


def _lags(mode, n1, n2):
    """(first lag, output length) of NumPy's correlation of lengths n1 and n2 in ``mode``:
    out[i] = sum_n a[n + first + i] * v[n], after multiarray's _pyarray_correlate (which swaps
    the operands when n1 < n2 and reverses its output: the same lags, counted from the other
    end)."""
    if mode == 0:  # valid
        if n1 >= n2:
            return 0, n1 - n2 + 1
        return n1 - n2, n2 - n1 + 1
    if mode == 1:  # same
        if n1 >= n2:
            return -(n2 // 2), n1
        return -(n2 - 1 - n1 // 2), n2
    return -(n2 - 1), n1 + n2 - 1


_lags_jit = register_jitable(_lags)


def _correlation(mode, accumulate, conjugate_v):
    """The implementation of correlate (``conjugate_v`` for complex v) or, on v reversed, of
    convolve: out[i] = sum over n of a[n + lag] * v[n], lag = first + i."""
    mode_code = _MODES.index(mode)

    def correlation(a, v, result):
        n1 = a.shape[0]
        n2 = v.shape[0]
        first, length = _lags_jit(mode_code, n1, n2)
        out = np.empty(length, result)
        for i in range(length):
            lag = first + i
            total = accumulate(0)
            for n in range(max(0, -lag), min(n2, n1 - lag)):
                if conjugate_v:
                    total += accumulate(a[n + lag]) * accumulate(v[n]).conjugate()
                else:
                    total += accumulate(a[n + lag]) * accumulate(v[n])
            out[i] = total
        return out

    return correlation


def _correlation_typer(name, default_mode, is_convolve):
    def typer(a, v, mode=default_mode):
        if not (isinstance(a, types.Array) and isinstance(v, types.Array)):
            return None
        if a.ndim != 1 or v.ndim != 1:
            raise TypingError(f"np.{name}() is only supported on 1D arrays, not {a} and {v}")
        result = _result_scalar(a, v)
        # Booleans accumulate as integers (NumPy's boolean dot is a logical or of ands).
        accumulate = np.int64 if result is np.bool_ else result
        conjugate = not is_convolve and isinstance(v.dtype, types.Complex)

        mode_name = _mode(mode)
        if mode_name is None:  # a run-time string: each mode's loop, chosen when called
            valid, same, full = (njit(_correlation(m, accumulate, conjugate)) for m in _MODES)

            @register_jitable
            def core(a, v, result, mode):
                if mode == "valid":
                    return valid(a, v, result)
                if mode == "same":
                    return same(a, v, result)
                if mode == "full":
                    return full(a, v, result)
                raise ValueError("mode must be one of 'valid', 'same', or 'full'")

        else:
            fixed = njit(_correlation(mode_name, accumulate, conjugate))
            core = register_jitable(lambda a, v, result, mode: fixed(a, v, result))
        if is_convolve:

            def convolve(a, v, mode=default_mode):
                _check_not_empty(a, v)
                if v.shape[0] > a.shape[0]:
                    return core(v, a[::-1], result, mode)
                return core(a, v[::-1], result, mode)

            return convolve

        def correlate(a, v, mode=default_mode):
            _check_correlate_not_empty(a, v)
            return core(a, v, result, mode)

        return correlate

    return typer


overload(np.convolve)(_correlation_typer("convolve", "full", True))
overload(np.correlate)(_correlation_typer("correlate", "valid", False))


# ---------------------------------------------------------------------------------------------
# trapezoid


def _trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y (1-D) by the trapezoidal rule over sample points x or spacing dx:
    sum(d * (y[1:] + y[:-1]) / 2.0), as NumPy computes it."""
    if not isinstance(y, types.Array) or y.ndim != 1:
        return None
    if not (isinstance(axis, (int, types.Integer))):
        return None
    if isinstance(x, types.Array):
        if x.ndim != 1:
            return None

        def with_points(y, x=None, dx=1.0, axis=-1):
            if axis != -1 and axis != 0:
                raise ValueError("axis is out of bounds for a 1-D array")
            if x.shape[0] != y.shape[0]:
                raise ValueError("x and y must have the same length")
            d = x[1:] - x[:-1]
            return np.sum(d * (y[1:] + y[:-1]) / 2.0)

        return with_points
    if x is not None and not isinstance(x, types.NoneType):
        return None
    if not isinstance(dx, (int, float, types.Integer, types.Float)):
        return None

    def with_spacing(y, x=None, dx=1.0, axis=-1):
        if axis != -1 and axis != 0:
            raise ValueError("axis is out of bounds for a 1-D array")
        return np.sum(dx * (y[1:] + y[:-1]) / 2.0)

    return with_spacing


overload(np.trapezoid)(_trapezoid)
if hasattr(np, "trapz"):
    overload(np.trapz)(_trapezoid)
