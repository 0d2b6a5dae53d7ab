"""numpy.lib.stride_tricks: as_strided (Numba's form: ``strides`` is required, no ``subok`` or
``writeable``) and sliding_window_view (``window_shape`` an integer or a tuple of integers,
``axis`` None, an integer or a tuple of integers), views of the array's data built by
taipan.unsafe.strided_view. As in Numba, the windows are writeable views (NumPy's are
read-only); as_strided checks nothing, as NumPy's does not."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import integer_tuple, is_none
from taipan.unsafe import strided_view, tuple_setitem


@overload(np.lib.stride_tricks.as_strided)
def _as_strided(x, shape=None, strides=None):
    if not isinstance(x, types.Array):
        return None
    if is_none(strides):
        # NumPy's as_strided without strides reshapes without checking the size; Numba
        # refuses it, as every use found passes strides
        raise TypingError("as_strided() strides argument cannot be None")
    if not (integer_tuple(strides) or isinstance(strides, types.Integer)):
        raise TypingError("as_strided() strides must be a tuple of integers")
    if is_none(shape):
        return lambda x, shape=None, strides=None: strided_view(x, x.shape, strides)
    if not (integer_tuple(shape) or isinstance(shape, types.Integer)):
        raise TypingError("as_strided() shape must be a tuple of integers")
    return lambda x, shape=None, strides=None: strided_view(x, shape, strides)


@register_jitable
def _window_axis(axis, ndim):
    if axis < 0:
        axis += ndim
    if axis < 0 or axis >= ndim:
        raise ValueError(
            "sliding_window_view: Argument axis out of bounds for dimensions of the array"
        )
    return axis


@overload(np.lib.stride_tricks.sliding_window_view)
def _sliding_window_view(x, window_shape, axis=None):
    if not isinstance(x, types.Array):
        return None
    if isinstance(window_shape, types.Integer):
        windows = 1
        as_windows = register_jitable(lambda window_shape: (window_shape,))
    elif isinstance(window_shape, types.UniTuple) and integer_tuple(window_shape):
        windows = len(window_shape)
        as_windows = register_jitable(lambda window_shape: window_shape)
    else:
        raise TypingError("window_shape must be an integer or tuple of integers")
    ndim = x.ndim
    if is_none(axis):
        all_axes = tuple(range(ndim))
        as_axes = register_jitable(lambda axis: all_axes)
    elif isinstance(axis, types.Integer):
        as_axes = register_jitable(lambda axis: (_window_axis(axis, ndim),))
    elif isinstance(axis, types.UniTuple) and integer_tuple(axis):
        as_axes = register_jitable(lambda axis: axis)
    else:
        raise TypingError("axis must be None, an integer or tuple of integers")
    blank = (0,) * (ndim + windows)

    def sliding_window_view(x, window_shape, axis=None):
        shape_of_windows = as_windows(window_shape)
        axes = as_axes(axis)
        if len(shape_of_windows) != len(axes):
            raise ValueError("Must provide matching length window_shape and axis")
        shape = blank
        strides = blank
        for i in range(ndim):
            shape = tuple_setitem(shape, i, x.shape[i])
            strides = tuple_setitem(strides, i, x.strides[i])
        i = ndim
        for k in range(len(axes)):  # an axis may be windowed more than once
            ax = _window_axis(axes[k], ndim)
            size = shape_of_windows[k]
            if size < 0:
                raise ValueError("`window_shape` cannot contain negative values")
            if shape[ax] < size:
                raise ValueError("window_shape cannot be larger than input array shape")
            shape = tuple_setitem(shape, ax, shape[ax] - size + 1)
            shape = tuple_setitem(shape, i, size)
            strides = tuple_setitem(strides, i, x.strides[ax])
            i += 1
        return strided_view(x, shape, strides)

    return sliding_window_view
