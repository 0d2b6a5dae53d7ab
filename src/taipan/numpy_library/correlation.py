"""np.cov and np.corrcoef, with Numba's arguments (m, y, rowvar, bias, ddof; x, y, rowvar).

The variables are the rows of a 2-D array (the columns with rowvar False; a 1-D array is one
variable). As in Numba, the result is a 0-d array when ``m`` is 1-D and ``y`` is omitted, else
a 2-D array (NumPy squeezes a 2-D input of one row to 0-d at run time; a compiled type cannot
depend on a run-time shape). With fewer observations than ``ddof`` the factor is 0 and the
result inf or NaN, as NumPy's (without its RuntimeWarning)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import (
    is_boolean,
    is_none,
    is_sequence,
    numpy_dtype,
    scalar_class,
)


def _variables_type(t):
    """Whether ``t`` is an array of one or two dimensions of numbers."""
    return isinstance(t, types.Array) and t.ndim in (1, 2) and numpy_dtype(t) is not None


@register_jitable
def _as_rows(m, rowvar, dtype, keeps_one_row):
    """``m`` as a new C array of variables in rows and observations in columns. With
    ``keeps_one_row`` (NumPy's rule for ``y``, not for ``m``) a 2-D array of one row is one
    variable whatever rowvar says."""
    if m.ndim == 1:
        return m.astype(dtype).reshape((1, m.shape[0]))
    if rowvar or (keeps_one_row and m.shape[0] == 1):
        return m.astype(dtype).reshape(m.shape)
    return m.T.astype(dtype).reshape((m.shape[1], m.shape[0]))


def _conjugated(is_complex):
    if is_complex:
        return register_jitable(lambda z: z.conjugate())
    return register_jitable(lambda x: x)


def _covariance_of_rows(dtype):
    conjugate = _conjugated(np.dtype(dtype).kind == "c")

    def covariance(X, bias, ddof):
        variables, n = X.shape
        if ddof is None:
            delta = 0 if bias else 1
        else:
            delta = _integral_ddof(ddof)
        fact = n - delta
        scale = np.inf if fact <= 0 else 1.0 / fact
        means = np.empty(variables, dtype)
        for i in range(variables):
            total = dtype(0)
            for k in range(n):
                total += X[i, k]
            means[i] = total / n if n > 0 else np.nan
        for i in range(variables):
            for k in range(n):
                X[i, k] -= means[i]
        c = np.empty((variables, variables), dtype)
        for i in range(variables):
            for j in range(variables):
                total = dtype(0)
                for k in range(n):
                    total += X[i, k] * conjugate(X[j, k])
                c[i, j] = total * scale if n > 0 else np.nan
        return c

    return register_jitable(covariance)


@register_jitable
def _integral_ddof(ddof):
    """ddof as an integer, with Numba's ValueErrors for a float that is not one."""
    if not np.isfinite(ddof):
        raise ValueError("Cannot convert non-finite ddof to integer")
    if ddof != int(ddof):
        raise ValueError("ddof must be integral value")
    return int(ddof)


def _check_ddof(ddof):
    if not (is_none(ddof) or isinstance(ddof, (int, types.Integer, types.Boolean, types.Float))):
        raise TypingError("ddof must be a real numerical scalar type")


def _at_least_1d(value):
    pass


@overload(_at_least_1d)
def _at_least_1d_typer(value):
    if is_none(value):
        return lambda value: None
    return lambda value: np.atleast_1d(np.asarray(value))


@register_jitable
def _observations(m, rowvar, keeps_one_row):
    if m.ndim == 1:
        return m.shape[0]
    return m.shape[1] if rowvar or (keeps_one_row and m.shape[0] == 1) else m.shape[0]


def _is_0d(t):
    return isinstance(t, types.Array) and t.ndim == 0


def _one_row_tuple(t, rowvar):
    """Whether ``t`` is a tuple holding one sequence (a 2-D array-like of one row whose length
    is known when compiling; a list's or an array's is not) whose row may be one variable:
    ``rowvar`` omitted, True, or a bool known only at run time (not the constant False). NumPy
    squeezes the result for one variable to 0-d."""
    if rowvar is False or getattr(rowvar, "literal_value", None) is False:
        return False
    return isinstance(t, types.BaseTuple) and len(t.types) == 1 and is_sequence(t.types[0])


@register_jitable
def _check_rows(rowvar):
    """A tuple of one row with rowvar False is observations of one each, whose result has two
    dimensions: the function was compiled for rowvar True (0-d; typing cannot see a bool's
    value), so that call is refused rather than answered in the wrong shape."""
    if not rowvar:
        raise ValueError(
            "a tuple of one row with rowvar=False needs a 2-D result, but this call was compiled "
            "for rowvar=True (its 0-d result): pass the rows as an array"
        )


@overload(np.cov)
def _cov(m, y=None, rowvar=True, bias=False, ddof=None):
    if (
        is_sequence(m)
        or is_sequence(y)
        or isinstance(m, (types.Number, types.Boolean))
        or (_is_0d(m) or _is_0d(y))
    ):  # as arrays of at least one dimension (a 0-d one is one observation)
        if _one_row_tuple(m, rowvar) and is_none(y):
            # NumPy squeezes the covariance of a single variable to 0-d

            def cov_of_one_row(m, y=None, rowvar=True, bias=False, ddof=None):
                _check_rows(rowvar)
                return np.cov(np.asarray(m[0]), None, True, bias, ddof)

            return cov_of_one_row

        def cov_of_sequences(m, y=None, rowvar=True, bias=False, ddof=None):
            return np.cov(np.atleast_1d(np.asarray(m)), _at_least_1d(y), rowvar, bias, ddof)

        return cov_of_sequences
    if isinstance(m, types.Array) and m.ndim > 2:
        raise TypingError("m has more than 2 dimensions")
    if isinstance(y, types.Array) and y.ndim > 2:
        raise TypingError("y has more than 2 dimensions")
    if not _variables_type(m) or not (is_none(y) or _variables_type(y)):
        return None
    if not (is_boolean(rowvar) and is_boolean(bias)):
        return None
    _check_ddof(ddof)
    dtypes = [numpy_dtype(m), np.dtype(np.float64)] + ([] if is_none(y) else [numpy_dtype(y)])
    dtype = scalar_class(np.result_type(*dtypes))
    covariance = _covariance_of_rows(dtype)
    if is_none(y) and m.ndim == 1:

        def cov_single(m, y=None, rowvar=True, bias=False, ddof=None):
            return np.asarray(covariance(_as_rows(m, rowvar, dtype, False), bias, ddof)[0, 0])

        return cov_single
    if is_none(y):

        def cov(m, y=None, rowvar=True, bias=False, ddof=None):
            return covariance(_as_rows(m, rowvar, dtype, False), bias, ddof)

        return cov

    def cov_joined(m, y=None, rowvar=True, bias=False, ddof=None):
        if _observations(m, rowvar, False) != _observations(y, rowvar, True):
            raise ValueError("m and y have incompatible dimensions")
        X = np.concatenate(
            (_as_rows(m, rowvar, dtype, False), _as_rows(y, rowvar, dtype, True)), axis=0
        )
        return covariance(X, bias, ddof)

    return cov_joined


@register_jitable
def _clipped(x):
    """``x`` clipped to [-1, 1] (NaN stays NaN), as np.clip."""
    if x > 1.0:
        return 1.0
    if x < -1.0:
        return -1.0
    return x


@overload(np.corrcoef)
def _corrcoef(x, y=None, rowvar=True):
    if (
        is_sequence(x)
        or is_sequence(y)
        or isinstance(x, (types.Number, types.Boolean))
        or (_is_0d(x) or _is_0d(y))
    ):
        if _one_row_tuple(x, rowvar) and is_none(y):

            def corrcoef_of_one_row(x, y=None, rowvar=True):
                _check_rows(rowvar)
                return np.corrcoef(np.asarray(x[0]), None, True)

            return corrcoef_of_one_row

        def corrcoef_of_sequences(x, y=None, rowvar=True):
            return np.corrcoef(np.atleast_1d(np.asarray(x)), _at_least_1d(y), rowvar)

        return corrcoef_of_sequences
    if not _variables_type(x) or not (is_none(y) or _variables_type(y)) or not is_boolean(rowvar):
        return None
    is_complex = any(
        numpy_dtype(t) is not None and numpy_dtype(t).kind == "c" for t in (x, y) if t is not None
    )
    if is_none(y) and x.ndim == 1:

        def corrcoef_single(x, y=None, rowvar=True):
            # NumPy divides the 0-d covariance by itself, which gives a scalar (NaN for a
            # zero or NaN variance, through the ufunc, never ZeroDivisionError)
            c = np.cov(x, y, rowvar)
            return np.divide(c.item(), c.item())

        return corrcoef_single

    if is_complex:

        @register_jitable
        def clip(z):
            return complex(_clipped(z.real), _clipped(z.imag))

    else:
        clip = _clipped

    def corrcoef(x, y=None, rowvar=True):
        c = np.cov(x, y, rowvar)
        stddev = np.sqrt(np.diag(c).real)
        c = c / stddev.reshape((-1, 1))
        c = c / stddev.reshape((1, -1))
        for i in range(c.shape[0]):
            for j in range(c.shape[1]):
                c[i, j] = clip(c[i, j])
        return c

    return corrcoef
