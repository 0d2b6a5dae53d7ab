"""np.broadcast_shapes, np.broadcast_arrays, and np.broadcast_to of numbers and tuples.

np.broadcast_to of an array is native (src/core/library/NumpyShapes.cpp: a read-only view whose
stretched axes have stride 0); a number or a tuple is made an array first. Shapes broadcast by
NumPy's rule: aligned on their last axes, an extent of 1 stretches, other extents must agree.
The result's number of dimensions is known when compiling, so the shape is a tuple of ones of
that length updated axis by axis (tuple_setitem)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import (
    array_like_dtype,
    array_like_ndim,
    as_arrays,
    integer_tuple,
    is_array_like,
    is_integer,
    string_value,
)
from taipan.unrolling import literal_unroll
from taipan.unsafe import tuple_setitem

MISMATCH = "shape mismatch: objects cannot be broadcast to a single shape"


@overload(np.broadcast_to)
def _broadcast_to_of_values(array, shape, subok=False):
    if subok is not False:
        return None
    scalar_shape = isinstance(shape, types.BaseTuple) and not shape.types
    if scalar_shape and (isinstance(array, types.BaseTuple) or (array_like_ndim(array) or 0) > 0):
        raise TypingError("Cannot broadcast a non-scalar to a scalar array")
    if isinstance(array, types.Array):
        return None  # arrays: the native view
    constant_text = string_value(array) is not None  # a `<U n` 0-d array (np.asarray)
    if not (constant_text or isinstance(array, (types.Number, types.Boolean, types.BaseTuple))):
        return None

    def broadcast_value(array, shape, subok=False):
        return np.broadcast_to(np.asarray(array), shape)

    return broadcast_value


def _as_shape(s):
    """``s`` (an integer or a tuple of integers) as a tuple."""


@overload(_as_shape)
def _as_shape_typer(s):
    if is_integer(s):
        return lambda s: (s,)
    return lambda s: s


def _shape_length(t):
    if is_integer(t):
        return 1
    if integer_tuple(t):
        return len(t.types)
    return None


@register_jitable
def _shape_of_array(a):
    return a.shape


def _broadcast_shapes_of(lengths, shape_of):
    """A function of a tuple of items giving their broadcast shape, for items whose shapes
    (``shape_of(item)``) have these lengths."""
    ones = (1,) * max(lengths, default=0)
    n = len(ones)
    if n == 0:
        return register_jitable(lambda items: ())

    def broadcast_shape(items):
        shape = ones
        for item in literal_unroll(items):
            s = shape_of(item)
            axis = n - len(s)
            for extent in s:
                if extent < 0:
                    raise ValueError("negative dimensions are not allowed")
                current = shape[axis]
                if current == 1:
                    shape = tuple_setitem(shape, axis, extent)
                elif extent != 1 and extent != current:
                    raise ValueError(MISMATCH)
                axis += 1
        return shape

    return register_jitable(broadcast_shape)


@overload(np.broadcast_shapes)
def _broadcast_shapes(*args):
    lengths = [_shape_length(t) for t in args]
    for i, (t, length) in enumerate(zip(args, lengths)):
        if length is None:
            raise TypingError(
                f"numpy.broadcast_shapes takes shapes: argument {i} must be either an int or "
                f"tuple[int], not {t}"
            )
    broadcast_shape = _broadcast_shapes_of(lengths, _as_shape)

    def broadcast_shapes(*args):
        return broadcast_shape(args)

    return broadcast_shapes


def _broadcast_each(arrays, shape):
    """A tuple of each array broadcast to ``shape``."""


@overload(_broadcast_each)
def _broadcast_each_typer(arrays, shape):
    if not arrays.types:
        return lambda arrays, shape: ()
    return lambda arrays, shape: (
        (np.broadcast_to(arrays[0], shape),) + _broadcast_each(arrays[1:], shape)
    )


@overload(np.broadcast_arrays)
def _broadcast_arrays(*args, subok=False):
    if subok is not False:
        return None
    for i, a in enumerate(args):
        if not is_array_like(a):
            raise TypingError(f'Argument "{i}" must be array-like')
    if not all(isinstance(a, types.Array) for a in args):
        # numbers, lists and tuples as arrays; as in Numba, of one dtype
        if len({array_like_dtype(a) for a in args}) > 1:
            raise TypingError(
                "Mismatch of argument types: np.broadcast_arrays takes array-likes of one "
                "dtype when some are not arrays"
            )

        def broadcast_array_likes(*args, subok=False):
            arrays = as_arrays(args)
            return np.broadcast_arrays(*arrays)

        return broadcast_array_likes
    broadcast_shape = _broadcast_shapes_of([a.ndim for a in args], _shape_of_array)

    def broadcast_arrays(*args, subok=False):
        return _broadcast_each(args, broadcast_shape(args))

    return broadcast_arrays
