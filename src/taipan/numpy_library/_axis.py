"""Axis arguments of the NumPy functions written in Python: normalising an axis with NumPy's
AxisError, lanes along an axis, and the shape of a reduction's result with the axis kept.

Where the array's number of dimensions is known when compiling, the normaliser is generated as
Python source per ndim (numpy_library/_generate.py): that is what lets each error message be a
string literal naming the axis, as NumPy's does, and lets a shape tuple with a run-time axis
have a type (a tuple of ndim integers)."""

import itertools

from numpy.exceptions import AxisError

from taipan.extending import register_jitable
from taipan.numpy_library._generate import jitted
from taipan.numpy_library.support import is_none

# Axes within this distance of the valid range get NumPy's exact message ("axis 3 is out of
# bounds for array of dimension 2"); further ones a message without the value, since compiled
# code cannot format an integer into a string.
_NAMED_OUT_OF_RANGE = 8


def axis_normalizer(ndim):
    """A compiled ``(axis) -> axis in [0, ndim)`` for arrays of ``ndim`` dimensions, raising
    AxisError with NumPy's message for an axis out of range."""
    lines = [f"def normalize_axis(axis):\n    if axis < -{ndim} or axis >= {ndim}:\n"]
    for axis in itertools.chain(
        range(-ndim - _NAMED_OUT_OF_RANGE, -ndim), range(ndim, ndim + _NAMED_OUT_OF_RANGE)
    ):
        lines.append(
            f"        if axis == {axis}:\n            raise AxisError("
            f"'axis {axis} is out of bounds for array of dimension {ndim}')\n"
        )
    lines.append(
        f"        raise AxisError('axis is out of bounds for array of dimension {ndim}')\n"
        f"    if axis < 0:\n        return axis + {ndim}\n    return axis\n"
    )
    return jitted("normalize_axis", "".join(lines))


def axis_checker(ndim, axis):
    """For a function's ``axis`` argument of type ``axis``: a compiled function that validates
    it (AxisError) and returns it normalised, or for an omitted axis returns 0."""
    if is_none(axis):
        return jitted("ignore_axis", "def ignore_axis(axis):\n    return 0\n")
    return axis_normalizer(ndim)


def keepdims_shape(ndim):
    """A compiled function ``(shape, axis) -> shape`` with 1 at the (normalised) ``axis``: the
    shape of a reduction over that axis with keepdims=True, to broadcast it back."""
    items = "".join(f"1 if axis == {d} else shape[{d}], " for d in range(ndim))
    return jitted("keepdims_shape", f"def keepdims_shape(shape, axis):\n    return ({items})\n")


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
