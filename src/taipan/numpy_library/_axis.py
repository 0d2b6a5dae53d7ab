"""Axis arguments of the NumPy functions written in Python: normalising an axis with NumPy's
AxisError, lanes along an axis, and the shape of a reduction's result with the axis kept.

All are ordinary compiled functions. Where the array's number of dimensions is known when
compiling, ``axis_normalizer(ndim)`` binds it, so the message names the axis and the number of
dimensions exactly as NumPy's does (compiled code formats integers into f-strings)."""

from numpy.exceptions import AxisError

from taipan.decorators import njit
from taipan.extending import register_jitable
from taipan.numpy_library.support import is_none
from taipan.unsafe import tuple_setitem


@register_jitable
def normalize_axis_of(axis, ndim):
    """``axis`` in [0, ndim) for an array of ``ndim`` dimensions, with NumPy's AxisError (and
    message) for an axis out of range."""
    if axis < -ndim or axis >= ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    if axis < 0:
        return axis + ndim
    return axis


_normalizers = {}


def axis_normalizer(ndim):
    """A compiled ``(axis) -> axis in [0, ndim)`` for arrays of ``ndim`` dimensions, raising
    AxisError with NumPy's message for an axis out of range (one per ndim)."""
    normalizer = _normalizers.get(ndim)
    if normalizer is None:

        def normalize_axis(axis):
            return normalize_axis_of(axis, ndim)

        normalizer = _normalizers[ndim] = njit(normalize_axis)
    return normalizer


@njit
def _ignore_axis(axis):
    return 0


def axis_checker(ndim, axis):
    """For a function's ``axis`` argument of type ``axis``: a compiled function that validates
    it (AxisError) and returns it normalised, or for an omitted axis returns 0."""
    if is_none(axis):
        return _ignore_axis
    return axis_normalizer(ndim)


@njit
def _keepdims_shape(shape, axis):
    return tuple_setitem(shape, axis, 1)


def keepdims_shape(ndim):
    """A compiled function ``(shape, axis) -> shape`` with 1 at the (normalised) ``axis``: the
    shape of a reduction over that axis with keepdims=True, to broadcast it back."""
    return _keepdims_shape


# Compiled helpers for implementations written for any number of dimensions (ndim is then a
# run-time value, so the message cannot name the axis).


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
def lanes_of(a, axis):
    """``a`` seen as lanes (outer, length, inner) along ``axis``: a view of a C-ordered array,
    a C-ordered copy of another."""
    return a.reshape(lane_geometry(a.shape, axis))


def _lane_copier(long_runs):
    """``copy_lanes(target, target_start, source, source_start, count)``: copies lanes
    ``source_start`` to ``source_start + count`` of ``source`` to lanes ``target_start``... of
    ``target``, both seen as (outer, length, inner) and C-ordered (``target`` the lanes of a new
    array, so its ravel() is a view), converting each element to ``target``'s dtype.

    Those lanes are one contiguous run of each outer index in both. With ``long_runs`` a run of
    16 elements or more is copied as a 1-D slice, at memory speed (element loops copy about
    three times slower); without, element by element, for callers that copy one lane at a time
    (np.repeat), where a slice assignment would add about 5 ms of compile time for little
    speed. A slice assignment of the lanes' three dimensions would compile twice as long."""

    def copy_lanes(target, target_start, source, source_start, count):
        written = target.ravel()
        read = source.ravel()
        outer, target_length, inner = target.shape
        source_length = source.shape[1]
        run = count * inner
        for o in range(outer):
            to = (o * target_length + target_start) * inner
            at = (o * source_length + source_start) * inner
            # long_runs is a constant tested alone, so the branch not taken is not compiled.
            if long_runs:  # noqa: SIM102
                if run >= 16:
                    written[to : to + run] = read[at : at + run]
                    continue
            for i in range(run):
                written[to + i] = read[at + i]

    return njit(copy_lanes)


copy_lanes = _lane_copier(True)
copy_lane_elements = _lane_copier(False)


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
