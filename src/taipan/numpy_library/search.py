"""Sorting, searching and counting NumPy functions for compiled code: sort, argsort, unique,
searchsorted, digitize, bincount, histogram, interp, nonzero, flatnonzero, argwhere and
count_nonzero (order statistics are in ``order_statistics``).

The implementations follow NumPy's algorithms closely enough to give the same results: NaN sorts
last, searches compare in NumPy's order, and a Python float beside a float32 array is compared
as float32 (NumPy 2's weak scalars).
"""

import numpy as np
from numpy.exceptions import AxisError

from taipan import types
from taipan.extending import overload, register_jitable

# ---------------------------------------------------------------------------------------------
# Helpers shared by the typing functions (plain Python) and implementations (compiled).


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
    """The type a searched key is compared in: NumPy's promotion, with a Python float beside a
    float array taking the array's dtype as NumPy 2 does for weak scalars."""
    if isinstance(key, types.Float) and isinstance(array_dtype, types.Float):
        return numpy_dtype(array_dtype)
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
    return x < y or (y != y and x == x)


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


@register_jitable
def bisect_sorted_by(a, sorter, key, right):
    """``bisect`` over ``a[sorter]`` without building it."""
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) >> 1
        element = a[sorter[middle]]
        if right:
            goes_after = not sorts_before(key, element)
        else:
            goes_after = sorts_before(element, key)
        if goes_after:
            low = middle + 1
        else:
            high = middle
    return low


@register_jitable
def check_sorter(a, sorter):
    if sorter.shape[0] != a.shape[0]:
        raise ValueError("sorter.size must equal a.size")
    for i in range(sorter.shape[0]):
        if sorter[i] < 0 or sorter[i] >= a.shape[0]:
            raise ValueError("Sorter index out of range.")


# ---------------------------------------------------------------------------------------------
# sort and argsort


SORT_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def check_sort_kind(kind):
    """Whether ``kind`` is omitted, None, or one of NumPy's sort kinds (taipan's sort is always
    stable, which every kind allows)."""
    return isinstance(kind, types.NoneType) or string_value(kind) in SORT_KINDS


@overload(np.sort)
def sort(a, axis=-1, kind=None, order=None, stable=None):
    if not is_real_array(a) or a.ndim == 0 or not check_sort_kind(kind):
        return None
    if not is_omitted(order) or not (is_omitted(stable) or isinstance(stable, types.Boolean)):
        return None
    if isinstance(axis, types.NoneType):

        def sort_flat(a, axis=-1, kind=None, order=None, stable=None):
            flat = a.ravel().copy()
            flat.sort()
            return flat

        return sort_flat
    if not is_integer_scalar(axis):
        return None

    def sort_axis(a, axis=-1, kind=None, order=None, stable=None):
        along = normalize_axis(axis, a.ndim)
        result = a.copy()
        if along == a.ndim - 1:
            result.sort()  # the native sort works along the last axis
            return result
        outer, length, inner = lane_geometry(a.shape, along)
        flat = result.ravel()
        for o in range(outer):
            for i in range(inner):
                start = o * length * inner + i
                lane = flat[start : start + length * inner : inner]
                lane.sort()
        return result

    return sort_axis


@overload(np.argsort)
def argsort(a, axis=-1, kind=None, order=None, stable=None):
    if not is_real_array(a) or not check_sort_kind(kind):
        return None
    if not is_omitted(order) or not (is_omitted(stable) or isinstance(stable, types.Boolean)):
        return None
    if a.ndim == 0:

        def argsort_scalar(a, axis=-1, kind=None, order=None, stable=None):
            if axis is not None:
                normalize_axis(axis, 1)
            return np.zeros(1, np.int64)

        return argsort_scalar if (is_omitted(axis) or is_integer_scalar(axis)) else None
    if isinstance(axis, types.NoneType):

        def argsort_flat(a, axis=-1, kind=None, order=None, stable=None):
            return a.ravel().argsort()

        return argsort_flat
    if not is_integer_scalar(axis):
        return None
    if a.ndim == 1:

        def argsort_vector(a, axis=-1, kind=None, order=None, stable=None):
            normalize_axis(axis, 1)
            return a.argsort()

        return argsort_vector

    def argsort_axis(a, axis=-1, kind=None, order=None, stable=None):
        along = normalize_axis(axis, a.ndim)
        outer, length, inner = lane_geometry(a.shape, along)
        flat = a.ravel()
        result = np.empty(a.shape, np.int64)
        result_flat = result.ravel()
        for o in range(outer):
            for i in range(inner):
                start = o * length * inner + i
                stop = start + length * inner
                result_flat[start:stop:inner] = flat[start:stop:inner].argsort()
        return result

    return argsort_axis


# ---------------------------------------------------------------------------------------------
# unique


UNIQUE_FLAG_MESSAGE = (
    "taipan returns the outputs of np.unique whose flags are passed: pass return_index, "
    "return_inverse and return_counts as True or leave them out"
)


@register_jitable
def unique_starts(ordered, equal_nan, starts):
    """The number of runs of equal values in the sorted array ``ordered`` (all NaNs one run
    when ``equal_nan``); records where each run starts while ``starts`` has room."""
    count = 0
    for k in range(ordered.shape[0]):
        new_run = True
        if k > 0:
            previous = ordered[k - 1]
            current = ordered[k]
            both_nan = previous != previous and current != current
            new_run = previous != current and not (equal_nan and both_nan)
        if new_run:
            if count < starts.shape[0]:
                starts[count] = k
            count += 1
    return count


@register_jitable
def unique_runs(ordered, equal_nan):
    """Where each run of equal values of ``ordered`` starts, and its end as the last entry."""
    count = unique_starts(ordered, equal_nan, np.empty(0, np.int64))
    starts = np.empty(count + 1, np.int64)
    unique_starts(ordered, equal_nan, starts)
    starts[count] = ordered.shape[0]
    return starts


@overload(np.unique)
def unique(
    ar,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    equal_nan=True,
):
    if not is_real_array(ar) or not is_omitted(axis):
        return None
    flags = (return_index, return_inverse, return_counts)
    if not all(flag is False or isinstance(flag, types.Boolean) for flag in flags):
        return None
    if not (equal_nan is True or isinstance(equal_nan, types.Boolean)):
        return None
    if all(flag is False for flag in flags):

        def unique_values(
            ar,
            return_index=False,
            return_inverse=False,
            return_counts=False,
            axis=None,
            equal_nan=True,
        ):
            ordered = ar.ravel().copy()
            ordered.sort()
            starts = unique_runs(ordered, equal_nan)
            result = np.empty(starts.shape[0] - 1, ordered.dtype)
            for k in range(result.shape[0]):
                result[k] = ordered[starts[k]]
            return result

        return unique_values

    # Booleans reach the typing function without their values, while the number of outputs
    # depends on them: the outputs whose flags are passed are returned, so those must be True.
    want_index, want_inverse, want_counts = (flag is not False for flag in flags)
    outputs = UNIQUE_OUTPUTS[(want_index, want_inverse, want_counts)]

    def unique_with_outputs(
        ar,
        return_index=False,
        return_inverse=False,
        return_counts=False,
        axis=None,
        equal_nan=True,
    ):
        if (
            (want_index and not return_index)
            or (want_inverse and not return_inverse)
            or (want_counts and not return_counts)
        ):
            raise ValueError(UNIQUE_FLAG_MESSAGE)
        flat = ar.ravel()
        order = flat.argsort()  # stable, so each value's first occurrence comes first
        ordered = np.empty(flat.shape[0], flat.dtype)
        for k in range(flat.shape[0]):
            ordered[k] = flat[order[k]]
        starts = unique_runs(ordered, equal_nan)
        count = starts.shape[0] - 1
        values = np.empty(count, flat.dtype)
        index = np.empty(count, np.int64)
        counts = np.empty(count, np.int64)
        inverse = np.empty(flat.shape[0], np.int64)
        for k in range(count):
            values[k] = ordered[starts[k]]
            index[k] = order[starts[k]]
            counts[k] = starts[k + 1] - starts[k]
            for m in range(starts[k], starts[k + 1]):
                inverse[order[m]] = k
        return outputs(values, index, inverse.reshape(ar.shape), counts)

    return unique_with_outputs


@register_jitable
def _unique_index_inverse_counts(values, index, inverse, counts):
    return values, index, inverse, counts


@register_jitable
def _unique_index_inverse(values, index, inverse, counts):
    return values, index, inverse


@register_jitable
def _unique_index_counts(values, index, inverse, counts):
    return values, index, counts


@register_jitable
def _unique_inverse_counts(values, index, inverse, counts):
    return values, inverse, counts


@register_jitable
def _unique_index(values, index, inverse, counts):
    return values, index


@register_jitable
def _unique_inverse(values, index, inverse, counts):
    return values, inverse


@register_jitable
def _unique_counts(values, index, inverse, counts):
    return values, counts


# (return_index, return_inverse, return_counts) passed -> the outputs returned, in NumPy's order.
UNIQUE_OUTPUTS = {
    (True, True, True): _unique_index_inverse_counts,
    (True, True, False): _unique_index_inverse,
    (True, False, True): _unique_index_counts,
    (False, True, True): _unique_inverse_counts,
    (True, False, False): _unique_index,
    (False, True, False): _unique_inverse,
    (False, False, True): _unique_counts,
}
