"""np.take (Numba's form: the array and the indices; items of the raveled array, negative
indices from the end) and np.roots (the eigenvalues of the companion matrix, as NumPy's; real
roots of real coefficients, as Numba's), with NumPy's results."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import array_like_dtype, is_array_like, scalar_class


@register_jitable
def _item(flat, index):
    n = flat.size
    if index < -n or index >= n:
        raise IndexError(f"index {index} is out of bounds for axis 0 with size {n}")
    return flat[index + n if index < 0 else index]


@overload(np.take)
def _take(a, indices):
    if not is_array_like(a):
        return None
    if isinstance(indices, types.Integer):
        return lambda a, indices: _item(np.asarray(a).ravel(), indices)
    dtype = array_like_dtype(indices)
    if dtype is None or dtype.kind not in "iu":
        raise TypingError("np.take's indices must be an integer or an array-like of integers")

    def take(a, indices):
        flat = np.asarray(a).ravel()
        chosen = np.asarray(indices)
        out = np.empty(chosen.shape, flat.dtype)
        for index, position in np.ndenumerate(chosen):
            out[index] = _item(flat, position)
        return out

    return take


@overload(np.roots)
def _roots(p):
    dtype = array_like_dtype(p)
    if dtype is None:
        raise TypingError("np.roots takes an array-like of numbers")
    # integer coefficients are float64, as in NumPy. As in Numba, real coefficients give real
    # roots (NumPy's type would depend on the values): complex roots of a real polynomial raise
    # eigvals' ValueError; complex coefficients give complex roots. Where the installed NumPy's
    # eigvals is complex for every matrix (2.5 and later), so are the roots, as NumPy's.
    from taipan.numpy_library.linalg_eig import _eig_always_complex

    work = scalar_class(np.result_type(dtype, np.float64))
    result = scalar_class(np.result_type(work, np.complex64)) if _eig_always_complex() else work

    def roots(p):
        coefficients = np.asarray(p).astype(work)
        if coefficients.ndim != 1:
            raise ValueError("Input must be a 1d array.")
        nonzero = np.nonzero(coefficients)[0]
        if len(nonzero) == 0:
            return np.zeros(0, dtype=result)
        trailing = len(coefficients) - nonzero[-1] - 1
        trimmed = coefficients[int(nonzero[0]) : int(nonzero[-1]) + 1]
        n = len(trimmed)
        found = np.zeros(0, dtype=result)
        if n > 1:
            companion = np.zeros((n - 1, n - 1), work)
            for i in range(1, n - 1):
                companion[i, i - 1] = 1
            for j in range(n - 1):
                companion[0, j] = -trimmed[j + 1] / trimmed[0]
            found = np.linalg.eigvals(companion).astype(result)
        out = np.zeros(len(found) + trailing, dtype=result)
        out[: len(found)] = found
        return out

    return roots
