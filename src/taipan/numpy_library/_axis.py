"""Axis arguments of the NumPy functions written in Python: normalising an axis with NumPy's
AxisError and its message, and the shape of a reduction's result with the axis kept (keepdims).

Both depend on the array's number of dimensions, which is known when compiling: the helpers are
generated as Python source per ndim and compiled by taipan. Generating them (rather than writing
one function) is what lets each error message be a string literal that names the axis, and lets
a shape tuple with a run-time axis have a type (a tuple of ndim integers)."""

import itertools
import linecache

import numpy as np

from taipan import types

# Axes within this distance of the valid range get NumPy's exact message ("axis 3 is out of
# bounds for array of dimension 2"); further ones a message without the value, since compiled
# code cannot format an integer into a string.
_NAMED_OUT_OF_RANGE = 8

_generated = {}
_counter = itertools.count()


def is_none(t):
    """True for an omitted argument (its Python default None) or an explicit None."""
    return t is None or isinstance(t, types.NoneType)


def _compile(name, source):
    """Compiles generated Python source with taipan; the source is registered with linecache so
    that taipan's front end (inspect.getsourcelines) and error messages can show it."""
    from taipan import njit

    filename = f"<taipan.numpy_library generated {name} #{next(_counter)}>"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    namespace = {"AxisError": np.exceptions.AxisError}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - source built right here
    return njit(namespace[name])


def normalize_axis(ndim):
    """A compiled function ``(axis) -> axis in [0, ndim)`` for arrays of ``ndim`` dimensions,
    raising AxisError with NumPy's message for an axis out of range."""
    key = ("normalize_axis", ndim)
    if key not in _generated:
        body = [f"def normalize_axis(axis):\n    if axis < -{ndim} or axis >= {ndim}:\n"]
        for axis in itertools.chain(
            range(-ndim - _NAMED_OUT_OF_RANGE, -ndim), range(ndim, ndim + _NAMED_OUT_OF_RANGE)
        ):
            body.append(
                f"        if axis == {axis}:\n            raise AxisError("
                f"'axis {axis} is out of bounds for array of dimension {ndim}')\n"
            )
        body.append(
            f"        raise AxisError('axis is out of bounds for array of dimension {ndim}')\n"
            f"    if axis < 0:\n        return axis + {ndim}\n    return axis\n"
        )
        _generated[key] = _compile("normalize_axis", "".join(body))
    return _generated[key]


def _ignore_axis(axis):
    return 0


def axis_checker(ndim, axis):
    """For a function's ``axis`` argument of type ``axis``: a compiled function that validates
    it (AxisError) and returns it normalised, or for an omitted axis returns 0."""
    if is_none(axis):
        key = ("ignore_axis",)
        if key not in _generated:
            from taipan import njit

            _generated[key] = njit(_ignore_axis)
        return _generated[key]
    return normalize_axis(ndim)


def keepdims_shape(ndim):
    """A compiled function ``(shape, axis) -> shape`` with 1 at the (normalised) ``axis``: the
    shape of a reduction over that axis with keepdims=True, to broadcast it back."""
    key = ("keepdims_shape", ndim)
    if key not in _generated:
        items = "".join(f"1 if axis == {d} else shape[{d}], " for d in range(ndim))
        source = f"def keepdims_shape(shape, axis):\n    return ({items})\n"
        _generated[key] = _compile("keepdims_shape", source)
    return _generated[key]
