"""np.min, np.max, np.argmin and np.argmax (functions and array methods) of complex arrays, and
np.ptp of every array but booleans.

Real arrays stay with the native reductions (these typing functions decline them). Complex
numbers follow NumPy's lexicographic order (real parts, then imaginary parts), and a NaN in
either part propagates: the first such element is the minimum and maximum, and its index the
argmin and argmax. Among equal elements the first is kept, as NumPy does."""

import numpy as np

from taipan import types
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library._axis import lane_geometry, normalize_axis_of
from taipan.numpy_library.support import is_array_like, is_integer, is_none, scalar_class
from taipan.unsafe import tuple_setitem


@register_jitable
def _is_nan_complex(z):
    return np.isnan(z.real) or np.isnan(z.imag)


@register_jitable
def _complex_before(x, y):
    """Whether ``x`` comes strictly before ``y`` in NumPy's order of complex numbers (neither
    has a NaN part)."""
    return x.real < y.real or (x.real == y.real and x.imag < y.imag)


@register_jitable
def _complex_extreme_index(flat, want_max, name):
    """The index into the 1-D ``flat`` of its minimum (``want_max`` False) or maximum, NumPy's
    first NaN-containing element if any."""
    if flat.size == 0:
        raise ValueError("attempt to get " + name + " of an empty sequence")
    best = 0
    if _is_nan_complex(flat[0]):
        return 0
    for i in range(1, flat.size):
        z = flat[i]
        if _is_nan_complex(z):
            return i
        if _complex_before(flat[best], z) if want_max else _complex_before(z, flat[best]):
            best = i
    return best


@register_jitable
def _reduced_shape(shape, along):
    """``shape`` without the axis ``along`` (summing a zero-size array of that shape drops it
    without allocating anything large)."""
    return np.empty(tuple_setitem(shape, along, 0), np.int8).sum(axis=along).shape


@register_jitable
def _lanes_for_extremes(a, along, name, message):
    """``a`` as C-contiguous lanes (outer, length, inner) along ``along``; raises ValueError
    (``message``) when the lanes are empty, as NumPy does whatever the other dimensions."""
    outer, length, inner = lane_geometry(a.shape, along)
    if length == 0:
        raise ValueError(message)
    return np.ascontiguousarray(a).reshape((outer, length, inner))


@register_jitable
def _extreme_indices_along(a, along, want_max, name):
    """The index of the extreme element of each lane of ``a`` along the axis ``along``, an
    array of ``a``'s shape without that axis."""
    lanes = _lanes_for_extremes(a, along, name, "attempt to get " + name + " of an empty sequence")
    outer, _, inner = lanes.shape
    out = np.empty(outer * inner, np.int64)
    for o in range(outer):
        for i in range(inner):
            out[o * inner + i] = _complex_extreme_index(lanes[o, :, i], want_max, name)
    return out.reshape(_reduced_shape(a.shape, along))


@register_jitable
def _extreme_values_along(a, along, want_max, reduction):
    """The extreme element of each lane of ``a`` along the axis ``along``."""
    lanes = _lanes_for_extremes(
        a,
        along,
        reduction,
        "zero-size array to reduction operation " + reduction + " which has no identity",
    )
    outer, _, inner = lanes.shape
    out = np.empty(outer * inner, a.dtype)
    for o in range(outer):
        for i in range(inner):
            lane = lanes[o, :, i]
            out[o * inner + i] = lane[_complex_extreme_index(lane, want_max, reduction)]
    return out.reshape(_reduced_shape(a.shape, along))


def _is_complex_array(a):
    return isinstance(a, types.Array) and isinstance(a.dtype, types.Complex)


def _plain_reduction(axis, out, keepdims=False, initial=None, where=True):
    """Whether only the arguments taipan implements for complex extremes are given: an integer
    axis or none, and NumPy's defaults for the rest."""
    return (
        (is_none(axis) or is_integer(axis))
        and is_none(out)
        and keepdims is False
        and is_none(initial)
        and where is True
    )


def _extreme_value(want_max, reduction, a, axis):
    if is_none(axis) or a.ndim == 1:

        def extreme(a, axis=None, out=None, keepdims=False, initial=None, where=True):
            if axis is not None:
                normalize_axis_of(axis, 1)
            flat = a.ravel()
            if flat.size == 0:
                raise ValueError(
                    "zero-size array to reduction operation " + reduction + " which has no identity"
                )
            return flat[_complex_extreme_index(flat, want_max, reduction)]

        return extreme

    def extreme_along(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        return _extreme_values_along(a, normalize_axis_of(axis, a.ndim), want_max, reduction)

    return extreme_along


def _extreme_index(want_max, name, a, axis):
    if is_none(axis) or a.ndim == 1:

        def extreme_index(a, axis=None, out=None, keepdims=False):
            if axis is not None:
                normalize_axis_of(axis, 1)
            return _complex_extreme_index(a.ravel(), want_max, name)

        return extreme_index

    def extreme_index_along(a, axis=None, out=None, keepdims=False):
        return _extreme_indices_along(a, normalize_axis_of(axis, a.ndim), want_max, name)

    return extreme_index_along


def _value_typer(want_max, reduction):
    def typer(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        if not _is_complex_array(a) or not _plain_reduction(axis, out, keepdims, initial, where):
            return None
        return _extreme_value(want_max, reduction, a, axis)

    return typer


def _index_typer(want_max, name):
    def typer(a, axis=None, out=None, keepdims=False):
        if not _is_complex_array(a) or not _plain_reduction(axis, out, keepdims):
            return None
        return _extreme_index(want_max, name, a, axis)

    return typer


overload(np.min)(_value_typer(False, "minimum"))
overload(np.amin)(_value_typer(False, "minimum"))
overload(np.max)(_value_typer(True, "maximum"))
overload(np.amax)(_value_typer(True, "maximum"))
overload(np.argmin)(_index_typer(False, "argmin"))
overload(np.argmax)(_index_typer(True, "argmax"))
overload_method(types.Array, "min")(_value_typer(False, "minimum"))
overload_method(types.Array, "max")(_value_typer(True, "maximum"))
overload_method(types.Array, "argmin")(_index_typer(False, "argmin"))
overload_method(types.Array, "argmax")(_index_typer(True, "argmax"))


# ---------------------------------------------------------------------------------------------
# ptp


@overload(np.ptp)
def _ptp(a, axis=None, out=None, keepdims=False):
    if not isinstance(a, types.Array) and is_array_like(a):  # lists, tuples, numbers: as arrays
        if not is_none(out) or keepdims is not False:
            return None

        def ptp_of_array_like(a, axis=None, out=None, keepdims=False):
            return np.ptp(np.asarray(a), axis)

        return ptp_of_array_like
    if not isinstance(a, types.Array) or not is_none(out) or keepdims is not False:
        return None
    if isinstance(a.dtype, types.Boolean):
        return None  # NumPy refuses: booleans do not subtract
    # A scalar result is the difference wrapped to the array's dtype, as NumPy subtracts.
    result = scalar_class(np.dtype(str(a.dtype)))
    if is_none(axis):

        def ptp_whole(a, axis=None, out=None, keepdims=False):
            return result(a.max() - a.min())

        return ptp_whole
    if not is_integer(axis):
        return None
    if a.ndim == 1:

        def ptp_vector(a, axis=None, out=None, keepdims=False):
            normalize_axis_of(axis, 1)
            return result(a.max() - a.min())

        return ptp_vector

    def ptp_axis(a, axis=None, out=None, keepdims=False):
        along = normalize_axis_of(axis, a.ndim)  # NumPy's AxisError
        return np.max(a, along) - np.min(a, along)

    return ptp_axis
