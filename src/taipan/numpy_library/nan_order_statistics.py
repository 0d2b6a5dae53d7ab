"""np.nanmedian, np.nanpercentile and np.nanquantile with Numba's arguments (the array; the
array and q): np.median, np.percentile and np.quantile of the array's values that are not NaN,
NaN when there are none (NumPy warns there; compiled code does not). Complex arrays are refused,
as in Numba."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable


def _check(name, a):
    if not isinstance(a, types.Array):
        return False
    if isinstance(a.dtype, types.Complex):
        raise TypingError(f"np.{name} of complex arrays is not supported")
    return True


@register_jitable
def _not_nan(a):
    """The values of ``a`` that are not NaN, as a new 1-D array."""
    flat = a.ravel()
    kept = np.empty(flat.size, flat.dtype)
    count = 0
    for value in flat:
        if not np.isnan(value):
            kept[count] = value
            count += 1
    return kept[:count]


@overload(np.nanmedian)
def _nanmedian(a):
    if not _check("nanmedian", a):
        return None

    def nanmedian(a):
        kept = _not_nan(a)
        if kept.size == 0:
            return np.nan
        return np.median(kept)

    return nanmedian


def _nan_quantile_typer(name, function):
    def typer(a, q):
        if not _check(name, a):
            return None
        if isinstance(q, (types.Number, types.Boolean)):

            def of_scalar_q(a, q):
                kept = _not_nan(a)
                if kept.size == 0:
                    return np.nan
                return function(kept, q)

            return of_scalar_q

        def of_many_q(a, q):
            kept = _not_nan(a)
            levels = np.asarray(q)
            if kept.size == 0:
                # function's checks of q (range, shape) still apply
                return function(np.full(1, np.nan), levels)
            return function(kept, levels)

        return of_many_q

    return typer


overload(np.nanpercentile)(_nan_quantile_typer("nanpercentile", np.percentile))
overload(np.nanquantile)(_nan_quantile_typer("nanquantile", np.quantile))
