"""Functions that pick or edit items of a flattened array into a new one: np.delete, np.insert
(Numba's forms: on the raveled array, no ``axis``), np.extract, np.select, np.trim_zeros and
np.resize, with NumPy's results and Numba's checks and messages."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import (
    array_like_dtype,
    integer_tuple,
    is_array_like,
    is_none,
    item_type,
    scalar_class,
    string_value,
)
from taipan.numpy_library.text_arrays import is_trimmed_zero


def _is_sequence(t):
    return isinstance(t, (types.Array, types.List, types.BaseTuple))


def _integer_items(t):
    dtype = array_like_dtype(t)
    return dtype is not None and dtype.kind in "iu"


@overload(np.delete)
def _delete(arr, obj):
    if not _is_sequence(arr):
        raise TypingError("arr must be either an Array or a Sequence")
    if isinstance(obj, types.SliceType):

        def delete_slice(arr, obj):
            flat = np.ravel(np.asarray(arr))
            keep = np.ones(flat.size, dtype=np.bool_)
            keep[obj] = False
            return flat[keep]

        return delete_slice
    if _is_sequence(obj):
        if not _integer_items(obj):
            raise TypingError("obj should be of Integer dtype")

        def delete_items(arr, obj):
            flat = np.ravel(np.asarray(arr))
            keep = np.ones(flat.size, dtype=np.bool_)
            positions = np.asarray(obj).ravel()
            for i in range(positions.size):
                position = positions[i]
                if position < -flat.size or position >= flat.size:
                    raise IndexError("obj must be less than the len(arr)")
                keep[position] = False
            return flat[keep]

        return delete_items
    if not isinstance(obj, types.Integer):
        raise TypingError("obj should be of Integer dtype")

    def delete_one(arr, obj):
        flat = np.ravel(np.asarray(arr))
        n = flat.size
        if obj < -n or obj >= n:
            raise IndexError("obj must be less than the len(arr)")
        position = obj + n if obj < 0 else obj
        return np.concatenate((flat[:position], flat[position + 1 :]))

    return delete_one


@overload(np.insert)
def _insert(arr, obj, values, axis=None):
    if not _is_sequence(arr):
        raise TypingError("arr must be either an Array or a Sequence")
    if not (isinstance(values, (types.Number, types.Boolean)) or _is_sequence(values)):
        raise TypingError("values must be a scalar, an Array or a Sequence")
    if not is_none(axis):
        raise TypingError("The 'axis' argument is not supported")
    dtype = scalar_class(array_like_dtype(arr))
    if isinstance(obj, types.Integer):

        def insert_at(arr, obj, values, axis=None):
            flat = np.ravel(np.asarray(arr))
            n = flat.size
            if obj < -n or obj > n:
                raise IndexError("index is out of bounds for the given array size")
            position = obj + n if obj < 0 else obj
            inserted = np.ravel(np.asarray(values))
            count = inserted.size
            out = np.empty(n + count, dtype=dtype)
            out[:position] = flat[:position]
            for i in range(count):
                out[position + i] = inserted[i]
            out[position + count :] = flat[position:]
            return out

        return insert_at
    if not _is_sequence(obj):
        raise TypingError("obj should be an Integer, an Array or a Sequence")
    if not _integer_items(obj):
        raise TypingError("obj should be of Integer dtype")

    def insert_many(arr, obj, values, axis=None):
        flat = np.ravel(np.asarray(arr))
        n = flat.size
        positions = np.ravel(np.asarray(obj)).astype(np.int64)
        count = positions.size
        inserted = np.ravel(np.asarray(values))
        if count == 1:  # one index: every value goes there, as an integer obj
            return np.insert(flat, positions[0], inserted)
        if inserted.size != 1 and inserted.size != count:
            raise ValueError(
                "shape mismatch: the number of values does not match the number of insertion "
                "indices"
            )
        for i in range(count):
            if positions[i] < -n or positions[i] > n:
                raise IndexError("index is out of bounds for the given array size")
            if positions[i] < 0:
                positions[i] += n
        # each index moves by the number of values inserted before it (NumPy's stable order)
        order = np.argsort(positions, kind="mergesort")
        for i in range(count):
            positions[order[i]] += i
        out = np.empty(n + count, dtype=dtype)
        kept = np.ones(n + count, dtype=np.bool_)
        for i in range(count):
            kept[positions[i]] = False
        out[kept] = flat
        for i in range(count):
            out[positions[i]] = inserted[0] if inserted.size == 1 else inserted[i]
        return out

    return insert_many


@overload(np.extract)
def _extract(condition, arr):
    if not (is_array_like(condition) and is_array_like(arr)):
        return None

    def extract(condition, arr):
        chosen = np.asarray(condition).ravel()
        flat = np.asarray(arr).ravel()
        if flat.size == 0:
            raise ValueError("Cannot extract from an empty array")
        # NumPy reads the condition past the array's end only to fail (numpy#12859)
        if chosen.size > flat.size and np.any(chosen[flat.size :]):
            raise ValueError("condition shape inconsistent with arr shape")
        count = min(flat.size, chosen.size)
        kept = 0
        for i in range(count):
            if chosen[i]:
                kept += 1
        out = np.empty(kept, flat.dtype)
        k = 0
        for i in range(count):
            if chosen[i]:
                out[k] = flat[i]
                k += 1
        return out

    return extract


@overload(np.select)
def _select(condlist, choicelist, default=0):
    if not isinstance(condlist, (types.List, types.UniTuple)):
        raise TypingError("condlist must be a List or a Tuple")
    if not isinstance(choicelist, (types.List, types.UniTuple)):
        raise TypingError("choicelist must be a List or a Tuple")
    if not isinstance(default, (int, types.Number, types.Boolean)):
        raise TypingError("default must be a scalar (number or boolean)")
    condition, choice = item_type(condlist), item_type(choicelist)
    if not isinstance(condition, types.Array):
        raise TypingError("items of condlist must be arrays")
    if not isinstance(choice, types.Array):
        raise TypingError("items of choicelist must be arrays")
    if not isinstance(condition.dtype, types.Boolean):
        raise TypingError("condlist arrays must contain booleans")
    if condition.ndim != choice.ndim:
        raise TypingError(
            "condlist and choicelist elements must have the same number of dimensions"
        )
    if condition.ndim < 1:
        raise TypingError("condlist arrays must be of at least dimension 1")
    # NumPy's result type of the choices and the default, a Python number (weak, NEP 50)
    weak = (
        0j if isinstance(default, types.Complex) else 0.0 if isinstance(default, types.Float) else 0
    )
    if isinstance(default, (types.Boolean, bool)):
        weak = False
    dtype = scalar_class(np.result_type(array_like_dtype(choice), weak))

    def select(condlist, choicelist, default=0):
        if len(condlist) != len(choicelist):
            raise ValueError("list of cases must be same length as list of conditions")
        out = np.full(choicelist[0].shape, default, dtype)
        for i in range(len(condlist) - 1, -1, -1):  # the first true condition wins
            out = np.where(condlist[i], choicelist[i], out)
        return out

    return select


@overload(np.trim_zeros)
def _trim_zeros(filt, trim="fb"):
    if not isinstance(filt, types.Array):
        raise TypingError("The first argument must be an array")
    if filt.ndim > 1:
        raise TypingError("array must be 1D")
    if not isinstance(trim, (str, types.UnicodeType)) and string_value(trim) is None:
        raise TypingError("The second argument must be a string")

    def trim_zeros(filt, trim="fb"):
        mode = trim.lower()
        for character in mode:
            if character != "f" and character != "b":
                raise ValueError("unexpected character(s) in `trim`: '" + trim + "'")
        first = 0
        if "f" in mode:
            while first < len(filt) and is_trimmed_zero(filt[first]):
                first += 1
        last = len(filt)
        if "b" in mode:
            while last > first and is_trimmed_zero(filt[last - 1]):
                last -= 1
        return filt[first:last]

    return trim_zeros


@register_jitable
def _checked_size(shape):
    size = 1
    for extent in shape:
        if extent < 0:
            raise ValueError("All elements of `new_shape` must be non-negative")
        size *= extent
    return size


@overload(np.resize)
def _resize(a, new_shape):
    if not is_array_like(a):
        raise TypingError('The argument "a" must be array-like')
    integer_shape = isinstance(new_shape, types.Integer)
    if not (integer_shape or integer_tuple(new_shape)):
        raise TypingError('The argument "new_shape" must be an integer or a tuple of integers')
    if isinstance(new_shape, types.BaseTuple) and not new_shape.types:  # a 0-d result

        def resize_0d(a, new_shape):
            flat = np.ravel(np.asarray(a))
            return np.asarray(flat[0] if flat.size else flat.dtype.type(0))

        return resize_0d
    if integer_shape:
        as_shape = register_jitable(lambda new_shape: (new_shape,))
    else:
        as_shape = register_jitable(lambda new_shape: new_shape)

    def resize(a, new_shape):
        flat = np.ravel(np.asarray(a))
        shape = as_shape(new_shape)
        size = _checked_size(shape)
        out = np.empty(size, flat.dtype)
        if flat.size == 0:
            out[:] = 0
        else:
            for i in range(size):
                out[i] = flat[i % flat.size]
        return out.reshape(shape)

    return resize
