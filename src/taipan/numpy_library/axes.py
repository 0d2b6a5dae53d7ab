"""Views that rearrange or add axes: np.transpose with axes (and a.transpose's), np.swapaxes,
np.moveaxis, np.expand_dims, np.fliplr, np.flipud and np.rot90 (views, as NumPy's), and
np.take_along_axis (a new array), with Numba's arguments and messages.

Axes are normalised at run time with Numba's ValueError ("np.swapaxes: Argument axis1 out of
bounds for dimensions of the array"); the permutation is a tuple of the array's ndim items
built with tuple_setitem, so one compiled body serves every axis."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library.support import array_like_ndim, integer_tuple, is_array_like, is_none
from taipan.unsafe import strided_view, tuple_insert, tuple_setitem


def _normalizer(function, argument):
    message = f"{function}: Argument {argument} out of bounds for dimensions of the array"

    @register_jitable
    def normalize(axis, ndim):
        if axis < 0:
            axis += ndim
        if axis < 0 or axis >= ndim:
            raise ValueError(message)
        return axis

    return normalize


def _is_integer(t):
    return isinstance(t, (int, types.Integer)) and not isinstance(t, bool)


@register_jitable
def _permuted(a, order):
    """The view of ``a`` whose axis i is a's axis order[i] (order a permutation)."""
    shape = a.shape
    strides = a.strides
    for i in range(len(order)):
        shape = tuple_setitem(shape, i, a.shape[order[i]])
        strides = tuple_setitem(strides, i, a.strides[order[i]])
    return strided_view(a, shape, strides)


@overload(np.transpose)
def _transpose_axes(a, axes=None):
    if is_none(axes) or not isinstance(a, types.Array):
        return None  # the library's np.transpose
    if not (integer_tuple(axes) or isinstance(axes, types.List)):
        return None
    ndim = a.ndim
    identity = tuple(range(ndim))

    def transpose(a, axes=None):
        if len(axes) != ndim:
            raise ValueError("axes don't match array")
        seen = np.zeros(ndim, np.bool_)
        order = identity
        for i in range(ndim):
            axis = axes[i]
            if axis < -ndim or axis >= ndim:
                raise ValueError("axis is out of bounds for array of given dimension")
            axis = axis + ndim if axis < 0 else axis
            if seen[axis]:
                raise ValueError("repeated axis in transpose")
            seen[axis] = True
            order = tuple_setitem(order, i, axis)
        return _permuted(a, order)

    return transpose


@overload_method(types.Array, "transpose")
def _transpose_method(a, *axes):
    """a.transpose(axes) and a.transpose(i, j, ...), as NumPy's (a.transpose() and
    a.transpose(None) are the library's)."""
    if len(axes) == 1 and (integer_tuple(axes[0]) or isinstance(axes[0], types.List)):
        return lambda a, *axes: np.transpose(a, axes[0])
    if axes and all(_is_integer(axis) for axis in axes):
        return lambda a, *axes: np.transpose(a, axes)
    return None


@overload(np.swapaxes)
def _swapaxes(a, axis1, axis2):
    if not _is_integer(axis1):
        raise TypingError('The second argument "axis1" must be an integer')
    if not _is_integer(axis2):
        raise TypingError('The third argument "axis2" must be an integer')
    if not isinstance(a, types.Array):
        raise TypingError('The first argument "a" must be an array')
    ndim = a.ndim
    identity = tuple(range(ndim))
    first = _normalizer("np.swapaxes", "axis1")
    second = _normalizer("np.swapaxes", "axis2")

    def swapaxes(a, axis1, axis2):
        i = first(axis1, ndim)
        j = second(axis2, ndim)
        order = tuple_setitem(identity, i, j)
        return _permuted(a, tuple_setitem(order, j, i))

    return swapaxes


def _axes_argument(t):
    """An integer, or a tuple or list of integers (moveaxis's source and destination)."""
    if _is_integer(t):
        return True
    if isinstance(t, types.List):
        return isinstance(t.dtype, types.Integer)
    return isinstance(t, types.BaseTuple) and all(isinstance(e, types.Integer) for e in t.types)


def _axes_normalizer(argument):
    normalize = _normalizer("np.moveaxis", argument)
    repeated = f"np.moveaxis: repeated axis in {argument} argument"

    @register_jitable
    def normalize_all(axes, ndim):
        given = np.asarray(axes).ravel()
        out = np.empty(given.size, np.intp)
        seen = np.zeros(ndim, np.bool_)
        for i in range(given.size):
            axis = normalize(np.int64(given[i]), ndim)
            if seen[axis]:
                raise ValueError(repeated)
            seen[axis] = True
            out[i] = axis
        return out

    return normalize_all


@overload(np.moveaxis)
def _moveaxis(a, source, destination):
    if not isinstance(a, types.Array):
        raise TypingError('The first argument "a" must be an array')
    if not _axes_argument(source):
        raise TypingError('The second argument "source" must be an integer or sequence of integers')
    if not _axes_argument(destination):
        raise TypingError(
            'The third argument "destination" must be an integer or sequence of integers'
        )
    ndim = a.ndim
    identity = tuple(range(ndim))
    sources = _axes_normalizer("source")
    destinations = _axes_normalizer("destination")

    def moveaxis(a, source, destination):
        moved = sources(source, ndim)
        placed = destinations(destination, ndim)
        if moved.size != placed.size:
            raise ValueError(
                "`source` and `destination` arguments must have the same number of parameters"
            )
        order = np.full(ndim, -1, np.intp)
        is_moved = np.zeros(ndim, np.bool_)
        for i in range(moved.size):
            order[placed[i]] = moved[i]
            is_moved[moved[i]] = True
        rest = 0
        for i in range(ndim):
            if order[i] < 0:
                while is_moved[rest]:
                    rest += 1
                order[i] = rest
                rest += 1
        permutation = identity
        for i in range(ndim):
            permutation = tuple_setitem(permutation, i, order[i])
        return _permuted(a, permutation)

    return moveaxis


@overload(np.expand_dims)
def _expand_dims(a, axis):
    if not isinstance(a, types.Array):
        raise TypingError(f'First argument "a" must be an array. Got {a}')
    if not isinstance(axis, types.Integer):
        raise TypingError(f'Argument "axis" must be an integer. Got {axis}')
    normalize = _normalizer("np.expand_dims", "axis")
    ndim = a.ndim

    def expand_dims(a, axis):
        at = normalize(axis, ndim + 1)
        return strided_view(a, tuple_insert(a.shape, at, 1), tuple_insert(a.strides, at, 0))

    return expand_dims


@overload(np.fliplr)
def _fliplr(m):
    if not is_array_like(m):
        raise TypingError(f"Cannot np.fliplr on {m} type")
    ndim = array_like_ndim(m)
    if ndim is not None and ndim < 2:
        raise TypingError(f"cannot index {m} with 2 indices: Input must be >= 2-d.")

    def fliplr(m):
        return np.asarray(m)[:, ::-1, ...]

    return fliplr


@overload(np.flipud)
def _flipud(m):
    if not is_array_like(m):
        raise TypingError(f"Cannot np.flipud on {m} type")
    if array_like_ndim(m) == 0:
        raise TypingError(f"cannot index array of {m} with 1 indices: Input must be >= 1-d.")

    def flipud(m):
        return np.asarray(m)[::-1, ...]

    return flipud


@overload(np.rot90)
def _rot90(m, k=1):
    if not _is_integer(k):
        raise TypingError('The second argument "k" must be an integer')
    if not isinstance(m, types.Array):
        raise TypingError('The first argument "m" must be an array')
    if m.ndim < 2:
        raise TypingError("Input must be >= 2-d.")

    def rot90(m, k=1):
        turns = k % 4
        if turns == 0:
            return m[:]
        if turns == 1:
            return np.swapaxes(np.fliplr(m), 0, 1)
        if turns == 2:
            return np.flipud(np.fliplr(m))
        return np.fliplr(np.swapaxes(m, 0, 1))

    return rot90


@register_jitable
def _take_lanes(arr, indices, out):
    """out[..., j] = arr[..., indices[..., j]] for 1-D lanes: the last axis of each."""
    length = arr.shape[0]
    for j in range(indices.shape[0]):
        index = np.int64(indices[j])
        if index < 0:
            index += length
        if index < 0 or index >= length:
            raise IndexError("index is out of bounds for the axis")
        out[j] = arr[index]


@overload(np.take_along_axis)
def _take_along_axis(arr, indices, axis):
    if not isinstance(arr, types.Array):
        raise TypingError('The first argument "arr" must be an array')
    if not isinstance(indices, types.Array):
        raise TypingError('The second argument "indices" must be an array')
    if not isinstance(indices.dtype, types.Integer):
        raise TypingError("The indices array must contain integers")
    ndim = 1 if is_none(axis) else arr.ndim
    if ndim != indices.ndim:
        raise TypingError("`indices` and `arr` must have the same number of dimensions")
    if is_none(axis):

        def take_along_flat(arr, indices, axis):
            out = np.empty(indices.shape, arr.dtype)
            _take_lanes(arr.ravel(), indices, out)
            return out

        return take_along_flat
    if not _is_integer(axis):
        raise TypingError("axis must be an integer")
    known = axis if isinstance(axis, int) else getattr(axis, "literal_value", None)
    if isinstance(known, int) and not -ndim <= known < ndim:  # a constant axis, as in Numba
        raise TypingError("axis is out of bounds")
    normalize = _normalizer("np.take_along_axis", "axis")
    last = ndim - 1

    def take_along_axis(arr, indices, axis):
        at = normalize(axis, ndim)
        shape = indices.shape
        arr_strides = arr.strides
        indices_strides = indices.strides
        for d in range(ndim):  # the other axes broadcast against each other
            if d == at:
                continue
            a, b = arr.shape[d], indices.shape[d]
            if a != b and a != 1 and b != 1:
                raise ValueError("`arr` and `indices` dimensions don't match")
            extent = max(a, b) if a != 0 and b != 0 else 0
            shape = tuple_setitem(shape, d, extent)
            if a != extent:
                arr_strides = tuple_setitem(arr_strides, d, 0)
            if b != extent:
                indices_strides = tuple_setitem(indices_strides, d, 0)
        out = np.empty(shape, arr.dtype)
        arr_shape = tuple_setitem(shape, at, arr.shape[at])
        source = np.swapaxes(strided_view(arr, arr_shape, arr_strides), at, last)
        chosen = np.swapaxes(strided_view(indices, shape, indices_strides), at, last)
        target = np.swapaxes(out, at, last)
        for lane in np.ndindex(target.shape[:-1]):
            _take_lanes(source[lane], chosen[lane], target[lane])
        return out

    return take_along_axis
