"""Helpers of the NumPy library: reading argument types in typing functions, and compiled
pieces several functions share (axis normalisation, lanes along an axis, NumPy's sort order,
binary search)."""

import numpy as np
from numpy.exceptions import AxisError

from taipan import types
from taipan.extending import register_jitable


def string_value(t):
    """The value of a string argument: the Python default or a string literal's type."""
    if isinstance(t, str):
        return t
    if isinstance(t, types.Type) and t.kind_name == "StringLiteral":
        prefix = "Literal[str]("
        if t.name.startswith(prefix) and t.name.endswith(")"):
            return t.name[len(prefix) : -1]
    return None


def is_omitted(t, default=None):
    """True when an optional argument was left out or passed as None."""
    return t is default or isinstance(t, types.NoneType)


def is_real_array(t):
    """An array of booleans, integers or floats (what taipan's sort handles)."""
    return isinstance(t, types.Array) and not isinstance(t.dtype, types.Complex)


def is_real_scalar(t):
    return isinstance(t, (types.Integer, types.Float, types.Boolean))


def is_integer_scalar(t):
    """An integer argument, or an omitted one whose Python default is an integer."""
    return isinstance(t, (int, types.Integer, types.Boolean))


def numpy_dtype(t):
    """The NumPy scalar type of a taipan number type (np.float32 for float32...)."""
    return np.dtype("bool" if isinstance(t, types.Boolean) else t.name).type


def key_dtype(array_dtype, key):
    """The type a searched scalar key is compared in: NumPy's promotion of the array's dtype and
    the key's (np.searchsorted makes a Python float a float64 array, so it is not weak)."""
    return np.promote_types(numpy_dtype(array_dtype), numpy_dtype(key)).type


@register_jitable
def normalize_axis(axis, ndim):
    """NumPy's axis normalisation: negative axes count from the end."""
    if axis < -ndim or axis >= ndim:
        raise AxisError("axis is out of bounds for the array's number of dimensions")
    if axis < 0:
        return axis + ndim
    return axis


@register_jitable
def check_axis(a, axis):
    """Raises NumPy's AxisError when ``axis`` is not an axis of ``a`` (0-d arrays have one)."""
    normalize_axis(axis, max(a.ndim, 1))


@register_jitable
def check_no_axis(a, axis):
    """``check_axis`` for calls whose axis is None."""


@register_jitable
def lane_geometry(shape, axis):
    """(outer, length, inner) of the lanes along ``axis`` of a C-ordered array of ``shape``:
    lane (o, i) holds the flat elements o * length * inner + i + j * inner for j < length."""
    outer = 1
    inner = 1
    for d in range(len(shape)):
        if d < axis:
            outer *= shape[d]
        elif d > axis:
            inner *= shape[d]
    return outer, shape[axis], inner


@register_jitable
def sorts_before(x, y):
    """NumPy's sort order for real numbers: NaN after everything else."""
    return x < y or (np.isnan(y) and not np.isnan(x))


@register_jitable
def bisect(a, key, right):
    """The index where ``key`` goes in the sorted 1-D array ``a``: before equal elements
    (``right`` False, NumPy's side='left') or after them."""
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) >> 1
        if right:
            goes_after = not sorts_before(key, a[middle])
        else:
            goes_after = sorts_before(a[middle], key)
        if goes_after:
            low = middle + 1
        else:
            high = middle
    return low
