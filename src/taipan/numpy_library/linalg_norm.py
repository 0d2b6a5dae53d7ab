"""np.linalg.norm (vector and matrix norms, the 2-norms and nuclear norm by singular values)
and the array method ``trace`` for compiled code."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library._linalg import check_dtype
from taipan.numpy_library.linalg_svd import svd_parts
from taipan.numpy_library.support import is_none, string_value


@register_jitable
def _sum_of_squares(x):
    total = 0.0
    for value in x.ravel():
        total += value.real * value.real + value.imag * value.imag
    return total


@register_jitable
def _vector_norm(x, order):
    if order == np.inf:
        return np.abs(x).max()
    if order == -np.inf:
        return np.abs(x).min()
    if order == 0:
        count = 0.0
        for value in x:
            if value != 0:
                count += 1.0
        return count
    if order == 1:
        return np.abs(x).sum()
    if order == 2:
        return np.sqrt(_sum_of_squares(x))
    return (np.abs(x) ** order).sum() ** (1.0 / order)


@register_jitable
def _matrix_norm(x, order):
    if order == 1:
        return np.abs(x).sum(axis=0).max()
    if order == -1:
        return np.abs(x).sum(axis=0).min()
    if order == np.inf:
        return np.abs(x).sum(axis=1).max()
    if order == -np.inf:
        return np.abs(x).sum(axis=1).min()
    if order == 2:
        return svd_parts(x, False, False)[1].max()
    if order == -2:
        return svd_parts(x, False, False)[1].min()
    raise ValueError("Invalid norm order for matrices.")


def _inexact(x):
    """Python stub: x, or x as float64 when it holds integers or bools (as NumPy's norm)."""


@overload(_inexact)
def _inexact_typer(x):
    if x.dtype.kind_name in ("Integer", "Boolean"):

        def implementation(x):
            return x.astype(np.float64)

        return implementation

    def implementation(x):
        return x

    return implementation


@overload(np.linalg.norm)
def norm(x, ord=None, axis=None, keepdims=False):
    if not isinstance(x, types.Array):
        raise TypingError(f"np.linalg.norm() takes an array, not {x}")
    check_dtype("norm", x)
    if not is_none(axis) or keepdims is not False:
        raise TypingError("np.linalg.norm(): axis and keepdims are not supported in compiled code")
    # NumPy's result: float32 for single precision, float64 otherwise (integers included).
    result = np.float32 if str(x.dtype) in ("float32", "complex64") else np.float64
    text = string_value(ord)
    if is_none(ord) or (text == "fro" and x.ndim == 2):

        def frobenius(x, ord=None, axis=None, keepdims=False):
            return result(np.sqrt(_sum_of_squares(_inexact(x))))

        return frobenius
    if x.ndim == 1 and text is not None:
        raise TypingError(f"Invalid norm order '{text}' for vectors")
    if x.ndim == 2 and text == "nuc":

        def nuclear(x, ord=None, axis=None, keepdims=False):
            return result(svd_parts(x, False, False)[1].sum())

        return nuclear
    if x.ndim > 2 or text is not None:
        raise TypingError(
            "Improper number of dimensions to norm."
            if x.ndim > 2
            else f"Invalid norm order '{text}' for matrices."
        )
    if not isinstance(ord, (types.Integer, types.Float)):
        raise TypingError(f"np.linalg.norm(): ord must be a number, None or a string, not {ord}")
    if x.ndim == 1:

        def vector(x, ord=None, axis=None, keepdims=False):
            return result(_vector_norm(_inexact(x), ord))

        return vector

    def matrix(x, ord=None, axis=None, keepdims=False):
        return result(_matrix_norm(_inexact(x), ord))

    return matrix


def _trace_dtype(dtype):
    """NumPy's sum type: small integers and bools widen to 64 bits."""
    name = str(dtype)
    if name == "bool" or (name.startswith("int") and name != "int64"):
        return np.int64
    if name.startswith("uint") and name != "uint64":
        return np.uint64
    return getattr(np, name)


def _trace_typer(a, offset):
    if not isinstance(a, types.Array) or a.ndim != 2:
        raise TypingError(f"trace() supports 2-D arrays only in compiled code, not {a}")
    if not isinstance(offset, (int, types.Integer)):
        raise TypingError(f"trace(): offset must be an integer, not {offset}")
    result = _trace_dtype(a.dtype)

    def impl(a, offset=0):
        rows, columns = a.shape
        total = result(0)
        i = max(0, -offset)
        j = max(0, offset)
        while i < rows and j < columns:
            total += a[i, j]
            i += 1
            j += 1
        return total

    return impl


# np.trace itself is in shapes_products.py (one place per function); the method is here.
@overload_method(types.Array, "trace")
def array_trace(a, offset=0):
    return _trace_typer(a, offset)
