"""NumPy's NaN-ignoring reductions (nansum, nanprod, nanmean, nanvar, nanstd, nanmin, nanmax,
nanargmin, nanargmax, nancumsum, nancumprod) and cumsum/cumprod with an axis, as overloads.

They follow NumPy's own definitions (numpy/lib/_nanfunctions_impl.py): NaN is replaced by the
operation's identity with np.where and the ordinary reduction (native, vectorised) does the rest,
so results, dtypes and the order of summation match the ordinary reductions'. Integer and
boolean arrays hold no NaN and go straight to the ordinary reduction, as in NumPy. ``axis`` may
be omitted, None or an integer (AxisError when out of range)."""

import numpy as np

from taipan import types
from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library._axis import axis_checker, keepdims_shape
from taipan.numpy_library.support import (
    is_array_like,
    is_none,
    numpy_dtype,
    scalar_class,
    string_value,
)

# ---------------------------------------------------------------------------------------------
# dtypes and arguments


def _can_hold_nan(dtype):
    return isinstance(dtype, (types.Float, types.Complex))


def _is_along(a, axis):
    """True for an integer axis of an array of 2+ dimensions (the result is an array); False
    for an omitted or None axis, or any axis of a 1-D array (the result is a scalar)."""
    return not is_none(axis) and a.ndim >= 2


def _accepts(a, axis, *unsupported):
    """Whether a reduction applies: ``a`` is an array, ``axis`` omitted, None or an integer (of
    an array with dimensions); the NumPy parameters taipan does not implement must be omitted."""
    for name, value in unsupported:
        if not is_none(value):
            raise TypingError(f"the '{name}' argument is not supported")
    if not isinstance(a, types.Array):
        return False
    return is_none(axis) or (isinstance(axis, types.Integer) and a.ndim >= 1)


def _ordinary_reduction(reduce, check, along):
    """``reduce`` itself (np.sum, np.prod, np.mean) for arrays that hold no NaN, with the axis
    checked: along it when ``along``, else over the whole array."""
    if along:

        def reduce_along(a, axis=None, dtype=None, out=None):
            return reduce(a, check(axis))

        return reduce_along

    def reduce_whole(a, axis=None, dtype=None, out=None):
        return reduce(a) + 0 * check(axis)

    return reduce_whole


# ---------------------------------------------------------------------------------------------
# nansum, nanprod


def _nan_replacing_reduction(reduce, identity):
    """The typing function of nansum (reduce=np.sum, identity 0) or nanprod (np.prod, 1)."""

    def typer(a, axis=None, dtype=None, out=None):
        if not _accepts(a, axis, ("dtype", dtype), ("out", out)):
            return None
        check = axis_checker(a.ndim, axis)
        if not _can_hold_nan(a.dtype):
            return _ordinary_reduction(reduce, check, _is_along(a, axis))
        scalar = numpy_dtype(a.dtype).type
        if _is_along(a, axis):

            def along(a, axis=None, dtype=None, out=None):
                return reduce(np.where(np.isnan(a), scalar(identity), a), check(axis))

            return along

        if a.layout == "F" and a.ndim >= 2:
            # NumPy reduces an F array in memory order, the C order of its transpose (a float
            # product's rounding depends on the order).
            def whole_in_memory_order(a, axis=None, dtype=None, out=None):
                check(axis)
                return reduce(np.where(np.isnan(a.T), scalar(identity), a.T))

            return whole_in_memory_order

        def whole(a, axis=None, dtype=None, out=None):
            check(axis)
            return reduce(np.where(np.isnan(a), scalar(identity), a))

        return whole

    return typer


overload(np.nansum)(_nan_replacing_reduction(np.sum, 0))
overload(np.nanprod)(_nan_replacing_reduction(np.prod, 1))


# ---------------------------------------------------------------------------------------------
# nanmean, nanvar, nanstd


@overload(np.nanmean)
def _nanmean(a, axis=None, dtype=None, out=None):
    if not _accepts(a, axis, ("dtype", dtype), ("out", out)):
        return None
    check = axis_checker(a.ndim, axis)
    if not _can_hold_nan(a.dtype):
        return _ordinary_reduction(np.mean, check, _is_along(a, axis))
    scalar = numpy_dtype(a.dtype).type
    if _is_along(a, axis):

        def along(a, axis=None, dtype=None, out=None):
            axis = check(axis)
            mask = np.isnan(a)
            total = np.sum(np.where(mask, scalar(0), a), axis)
            # NumPy divides in double precision and casts back (true_divide with out=total).
            return (total / np.sum(~mask, axis)).astype(scalar)

        return along

    def whole(a, axis=None, dtype=None, out=None):
        check(axis)
        mask = np.isnan(a)
        count = np.sum(~mask)
        if count == 0:
            return scalar(np.nan)
        return scalar(np.sum(np.where(mask, scalar(0), a)) / count)

    return whole


def _nanvar_implementation(a, axis):
    """nanvar of an array, after NumPy's _nanfunctions_impl.nanvar: the mean of the non-NaN
    values, then the sum of squared deviations (|d|² for complex) divided by count - ddof, NaN
    where that is not positive. Integers and booleans hold no NaN and go to NumPy's np.var,
    which computes the same in float64 but divides by max(count - ddof, 0) (inf, not NaN)."""

    ordinary = not _can_hold_nan(a.dtype)
    scalar = np.float64 if ordinary else numpy_dtype(a.dtype).type
    real = np.dtype(scalar(0).real.dtype).type
    check = axis_checker(a.ndim, axis)
    keepdims = keepdims_shape(a.ndim)
    if isinstance(a.dtype, types.Complex):

        def squares(d):
            return d.real * d.real + d.imag * d.imag

        squares = njit(squares)
    else:

        def squares(d):
            return d * d

        squares = njit(squares)
    if ordinary:

        def inexact(v):
            return v.astype(np.float64)

        inexact = njit(inexact)
    else:

        def inexact(v):
            return v[...]

        inexact = njit(inexact)

    if _is_along(a, axis):

        def along(a, axis=None, dtype=None, out=None, ddof=0):
            axis = check(axis)
            x = inexact(a)
            mask = np.isnan(x)
            values = np.where(mask, scalar(0), x)
            count = np.sum(~mask, axis)
            mean = (np.sum(values, axis) / count).astype(scalar).reshape(keepdims(a.shape, axis))
            deviations = np.where(mask, scalar(0), values - mean)
            freedom = count - ddof
            if ordinary:
                freedom = freedom * (freedom > 0)
            variance = (np.sum(squares(deviations), axis) / freedom).astype(real)
            if ordinary:
                return variance
            return np.where(freedom <= 0, real(np.nan), variance)

        return along

    def whole(a, axis=None, dtype=None, out=None, ddof=0):
        check(axis)
        x = inexact(a)
        mask = np.isnan(x)
        values = np.where(mask, scalar(0), x)
        count = np.sum(~mask)
        freedom = count - ddof
        if count == 0 or (freedom <= 0 and not ordinary):
            return real(np.nan)
        mean = scalar(np.sum(values) / count)
        deviations = np.where(mask, scalar(0), values - mean)
        squared = np.sum(squares(deviations))
        if freedom <= 0:  # np.var of integers: divided by zero
            return real(np.inf) if squared > 0 else real(np.nan)
        return real(squared / freedom)

    return whole


@overload(np.nanvar)
def _nanvar(a, axis=None, dtype=None, out=None, ddof=0):
    if not _accepts(a, axis, ("dtype", dtype), ("out", out)):
        return None
    if not isinstance(ddof, (int, types.Integer)):
        return None
    return _nanvar_implementation(a, axis)


@overload(np.nanstd)
def _nanstd(a, axis=None, dtype=None, out=None, ddof=0):
    if not _accepts(a, axis, ("dtype", dtype), ("out", out)):
        return None
    if not isinstance(ddof, (int, types.Integer)):
        return None

    def nanstd(a, axis=None, dtype=None, out=None, ddof=0):
        return np.sqrt(np.nanvar(a, axis, ddof=ddof))

    return nanstd


# ---------------------------------------------------------------------------------------------
# nanmin, nanmax, nanargmin, nanargmax


@register_jitable
def _raise_empty_reduction(is_min):
    # Messages are literals: compiled code raises exceptions with constant messages.
    if is_min:
        raise ValueError("zero-size array to reduction operation fmin which has no identity")
    raise ValueError("zero-size array to reduction operation fmax which has no identity")


@register_jitable
def _raise_empty_arg_reduction(is_min):
    if is_min:
        raise ValueError("attempt to get argmin of an empty sequence")
    raise ValueError("attempt to get argmax of an empty sequence")


def _nan_extreme(is_min):
    """The typing function of nanmin or nanmax: NaN is replaced by +inf (-inf) for the ordinary
    min (max), and an all-NaN slice gives NaN (NumPy also warns). Booleans reduce with all/any
    (keeping the bool dtype), complex arrays (whole-array only, as in Numba) are scanned in
    NumPy's lexicographic order."""
    reduce = np.min if is_min else np.max
    function = np.nanmin if is_min else np.nanmax
    fill = np.inf if is_min else -np.inf

    def typer(a, axis=None, out=None):
        if not isinstance(a, types.Array) and is_array_like(a):  # lists, tuples, numbers

            def of_array_like(a, axis=None, out=None):
                return function(np.asarray(a), axis, out)

            return of_array_like
        if not _accepts(a, axis, ("out", out)):
            return None
        check = axis_checker(a.ndim, axis)
        along = _is_along(a, axis)
        scalar = numpy_dtype(a.dtype).type
        if isinstance(a.dtype, types.Complex):
            return None if along else _complex_nan_extreme(check, is_min)
        if not _can_hold_nan(a.dtype):
            if along:

                def implementation(a, axis=None, out=None):
                    return reduce(a, check(axis))

                return implementation

            def ordinary(a, axis=None, out=None):
                check(axis)
                if a.size == 0:
                    _raise_empty_reduction(is_min)
                return reduce(a)

            return ordinary
        if along:

            def along_axis(a, axis=None, out=None):
                axis = check(axis)
                mask = np.isnan(a)
                extreme = reduce(np.where(mask, scalar(fill), a), axis)
                return np.where(np.all(mask, axis), scalar(np.nan), extreme)

            return along_axis

        def whole(a, axis=None, out=None):
            check(axis)
            if a.size == 0:
                _raise_empty_reduction(is_min)
            mask = np.isnan(a)
            if np.all(mask):
                return scalar(np.nan)
            return reduce(np.where(mask, scalar(fill), a))

        return whole

    return typer


def _complex_nan_extreme(check, is_min):
    def complex_whole(a, axis=None, out=None):
        check(axis)
        if a.size == 0:
            _raise_empty_reduction(is_min)
        found = False
        best = a.ravel()[0]  # NumPy's fmin/fmax reduction keeps the first value if all are NaN
        for value in a.flat:
            if np.isnan(value):
                continue
            if is_min:
                better = value.real < best.real or (
                    value.real == best.real and value.imag < best.imag
                )
            else:
                better = value.real > best.real or (
                    value.real == best.real and value.imag > best.imag
                )
            if not found or better:
                best = value
                found = True
        return best

    return complex_whole


overload(np.nanmin)(_nan_extreme(True))
overload(np.nanmax)(_nan_extreme(False))


def _nan_arg_extreme(is_min):
    """The typing function of nanargmin or nanargmax: NaN is replaced by +inf (-inf) for the
    ordinary argmin (argmax), after NumPy; an all-NaN slice is a ValueError."""
    reduce = np.argmin if is_min else np.argmax
    fill = np.inf if is_min else -np.inf

    def typer(a, axis=None, out=None):
        if not _accepts(a, axis, ("out", out)):
            return None
        if isinstance(a.dtype, types.Complex):
            return None  # taipan's argmin/argmax do not order complex numbers
        check = axis_checker(a.ndim, axis)
        scalar = numpy_dtype(a.dtype).type
        can_hold_nan = _can_hold_nan(a.dtype)
        if _is_along(a, axis):
            if not can_hold_nan:

                def implementation(a, axis=None, out=None):
                    return reduce(a, check(axis))

                return implementation

            def along_axis(a, axis=None, out=None):
                axis = check(axis)
                mask = np.isnan(a)
                if np.any(np.all(mask, axis)):
                    raise ValueError("All-NaN slice encountered")
                return reduce(np.where(mask, scalar(fill), a), axis)

            return along_axis

        def whole(a, axis=None, out=None):
            check(axis)
            if a.size == 0:
                _raise_empty_arg_reduction(is_min)
            if can_hold_nan:
                mask = np.isnan(a)
                if np.all(mask):
                    raise ValueError("All-NaN slice encountered")
                return reduce(np.where(mask, scalar(fill), a))
            return reduce(a)

        return whole

    return typer


overload(np.nanargmin)(_nan_arg_extreme(True))
overload(np.nanargmax)(_nan_arg_extreme(False))


# ---------------------------------------------------------------------------------------------
# cumsum, cumprod (with an axis), nancumsum, nancumprod


def _cumulative_dtype(dtype):
    """The scalar class of cumsum's or cumprod's ``dtype`` argument (a class such as np.int32,
    ``np.dtype('i4')`` or ``a.dtype``, or a constant string), None when it is omitted."""
    if is_none(dtype):
        return None
    text = string_value(dtype)
    if text is not None:
        try:
            return scalar_class(text)
        except TypeError:
            raise TypingError(f"data type '{text}' not understood") from None
    if isinstance(dtype, types.NumberClass):
        return scalar_class(dtype.dtype.name)
    raise TypingError(f"the 'dtype' argument must be a NumPy number type, not {dtype}")


def _cumulative(is_sum):
    """The typing function of cumsum or cumprod. It replaces taipan's native function, so it
    covers everything that did (any array, flattened, through the native method) and adds
    ``axis`` and ``dtype``: the array is copied into the result dtype and viewed as (outer, n,
    inner), which lets one loop nest accumulate along any axis of any ndim (a flattened array
    is one such line)."""

    def typer(a, axis=None, dtype=None, out=None):
        if not _accepts(a, axis, ("out", out)):
            return None
        given = _cumulative_dtype(dtype)
        # NumPy has running sums of timedeltas only (no products of them, nothing of dates).
        if isinstance(a.dtype, types.NPDatetime) or (
            isinstance(a.dtype, types.NPTimedelta) and not is_sum
        ):
            name = "cumsum" if is_sum else "cumprod"
            raise TypingError(
                f"np.{name} of an array of {a.dtype} is not supported (NumPy has none)"
            )
        check = axis_checker(a.ndim, axis)
        if not _is_along(a, axis) and given is None:
            # Two functions rather than one conditional expression: `x if c else y` with array
            # operands produces invalid IR in taipan today.
            if is_sum:

                def flattened_sum(a, axis=None, dtype=None, out=None):
                    check(axis)
                    return a.cumsum()

                return flattened_sum

            def flattened_product(a, axis=None, dtype=None, out=None):
                check(axis)
                return a.cumprod()

            return flattened_product
        if given is not None:
            # NumPy casts the items to the given dtype and accumulates in it (a boolean running
            # sum stays True once any item was), overflow wrapping as it does.
            result = given
        else:
            result = np.cumsum(np.zeros(1, numpy_dtype(a.dtype))).dtype.type
        if not _is_along(a, axis):

            def flattened_in_dtype(a, axis=None, dtype=None, out=None):
                check(axis)
                line = np.empty(a.size, result)
                line[:] = a.ravel()
                for k in range(1, line.size):
                    if is_sum:
                        line[k] += line[k - 1]
                    else:
                        line[k] *= line[k - 1]
                return line

            return flattened_in_dtype
        ndim = a.ndim

        def along_axis(a, axis=None, dtype=None, out=None):
            axis = check(axis)
            result_array = np.empty(a.shape, result)
            result_array[...] = a
            outer = 1
            inner = 1
            for d in range(ndim):
                if d < axis:
                    outer *= a.shape[d]
                elif d > axis:
                    inner *= a.shape[d]
            n = a.shape[axis]
            lines = result_array.reshape((outer, n, inner))
            for i in range(outer):
                for k in range(1, n):
                    for j in range(inner):
                        if is_sum:
                            lines[i, k, j] += lines[i, k - 1, j]
                        else:
                            lines[i, k, j] *= lines[i, k - 1, j]
            return result_array

        return along_axis

    return typer


overload(np.cumsum)(_cumulative(True))
overload(np.cumprod)(_cumulative(False))


def _cumulative_method(is_sum):
    """a.cumsum(axis, dtype) and a.cumprod(axis, dtype): np.cumsum's and np.cumprod's. Without
    arguments the method declines, so that taipan's native method (the flattened running
    total, which the functions call themselves) is used."""
    cumulate = np.cumsum if is_sum else np.cumprod

    def typer(a, axis=None, dtype=None, out=None):
        if axis is None and dtype is None and out is None:  # all omitted (not given as None)
            return None

        def method(a, axis=None, dtype=None, out=None):
            return cumulate(a, axis, dtype, out)

        return method

    return typer


overload_method(types.Array, "cumsum")(_cumulative_method(True))
overload_method(types.Array, "cumprod")(_cumulative_method(False))


def _nan_cumulative(is_sum):
    """The typing function of nancumsum or nancumprod: NaN counts as 0 (1), after NumPy."""
    cumulate = np.cumsum if is_sum else np.cumprod
    identity = 0 if is_sum else 1

    def typer(a, axis=None, dtype=None, out=None):
        if not _accepts(a, axis, ("dtype", dtype), ("out", out)):
            return None
        if not _can_hold_nan(a.dtype):

            def implementation(a, axis=None, dtype=None, out=None):
                return cumulate(a, axis)

            return implementation
        scalar = numpy_dtype(a.dtype).type

        def replacing_nan(a, axis=None, dtype=None, out=None):
            return cumulate(np.where(np.isnan(a), scalar(identity), a), axis)

        return replacing_nan

    return typer


overload(np.nancumsum)(_nan_cumulative(True))
overload(np.nancumprod)(_nan_cumulative(False))
