"""np.sort and np.argsort along any axis, and np.unique, over taipan's native sorts (stable,
NaN last)."""

import numpy as np

from taipan import types
from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library._axis import check_axis, check_no_axis, lane_geometry, normalize_axis
from taipan.numpy_library.support import is_integer_scalar, is_none, is_real_array, string_value
from taipan.numpy_library.text_arrays import argsort_text, both_nan, is_text_array, sort_text_rows

# ---------------------------------------------------------------------------------------------
# sort and argsort


SORT_KINDS = ("quicksort", "mergesort", "heapsort", "stable")


def is_sortable_array(t):
    """An array of booleans or numbers (complex ones in NumPy's lexicographic order), or of
    fixed-width strings (text_arrays: code-point order)."""
    return is_text_array(t) or (
        isinstance(t, types.Array)
        and isinstance(t.dtype, (types.Boolean, types.Integer, types.Float, types.Complex))
    )


def check_sort_kind(kind):
    """Whether ``kind`` is omitted, None, or one of NumPy's sort kinds (taipan's sort is always
    stable, which every kind allows)."""
    return kind is None or isinstance(kind, types.NoneType) or string_value(kind) in SORT_KINDS


@overload(np.sort)
def sort(a, axis=-1, kind=None, order=None, stable=None):
    if not is_sortable_array(a) or a.ndim == 0 or not check_sort_kind(kind):
        return None
    if not is_none(order) or not (is_none(stable) or isinstance(stable, types.Boolean)):
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
    if not is_sortable_array(a) or not check_sort_kind(kind):
        return None
    if not is_none(order) or not (is_none(stable) or isinstance(stable, types.Boolean)):
        return None
    if a.ndim == 0:
        if not (is_none(axis) or is_integer_scalar(axis)):
            return None
        check = check_no_axis if is_none(axis) else check_axis

        def argsort_scalar(a, axis=-1, kind=None, order=None, stable=None):
            check(a, axis)
            return np.zeros(1, np.int64)

        return argsort_scalar
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


@overload_method(types.Array, "sort")
def _sort_method(a, axis=-1, kind=None, order=None, stable=None):
    """a.sort(axis, kind=...): in place along an axis. A call with no arguments is declined, so
    that it stays the native sort along the last axis."""
    omitted = isinstance(axis, int) and kind is None and order is None and stable is None
    if omitted and is_text_array(a) and a.ndim > 0 and not a.readonly:

        def sort_text(a, axis=-1, kind=None, order=None, stable=None):
            sort_text_rows(a)

        return sort_text
    if omitted:
        return None
    if not check_sort_kind(kind):
        raise TypingError(
            f'sort(): "kind" must be a string literal, None or one of quicksort, mergesort, '
            f"heapsort, stable; not {kind}"
        )
    if not is_sortable_array(a) or not is_none(order):
        return None

    def sort_method(a, axis=-1, kind=None, order=None, stable=None):
        along = normalize_axis(axis, a.ndim)
        if along == a.ndim - 1:
            a.sort()
            return
        a[...] = np.sort(a, along)

    return sort_method


@overload_method(types.Array, "argsort")
def _argsort_method(a, axis=-1, kind=None, order=None, stable=None):
    """a.argsort(axis, kind=...): np.argsort. A call with no arguments is declined, so that it
    stays the native argsort (which np.argsort of a 1-D array calls)."""
    omitted = isinstance(axis, int) and kind is None and order is None and stable is None
    if omitted and is_text_array(a) and a.ndim == 1:

        def argsort_text_vector(a, axis=-1, kind=None, order=None, stable=None):
            return argsort_text(a)

        return argsort_text_vector
    if omitted:  # (a typing function sees an omitted argument as its Python default)
        return None
    if not check_sort_kind(kind):
        raise TypingError(
            f'argsort(): "kind" must be a string literal, None or one of quicksort, mergesort, '
            f"heapsort, stable; not {kind}"
        )
    if not is_sortable_array(a):
        return None

    def argsort_method(a, axis=-1, kind=None, order=None, stable=None):
        return np.argsort(a, axis, kind, order, stable)

    return argsort_method


# ---------------------------------------------------------------------------------------------
# unique


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
            new_run = previous != current and not (equal_nan and both_nan(previous, current))
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
    if not isinstance(ar, types.Array) or not is_none(axis):
        return None
    flags = (return_index, return_inverse, return_counts)
    if not all(flag is False or isinstance(flag, types.Boolean) for flag in flags):
        return None
    if not is_real_array(ar) and not all(flag is False for flag in flags):
        return None  # complex values: the unique values only (they sort; argsort does not)
    complex_values = isinstance(ar.dtype, types.Complex)
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
            if complex_values and equal_nan and result.shape[0] and np.isnan(result[-1]):
                # NumPy's (hashing) unique keeps the first complex NaN of the input
                flat = ar.ravel()
                for k in range(flat.shape[0]):
                    if np.isnan(flat[k]):
                        result[-1] = flat[k]
                        break
            return result

        return unique_values

    # Booleans reach the typing function without their values, while the number of outputs
    # depends on them: the outputs whose flags are passed are returned, so those must be True.
    want_index, want_inverse, want_counts = (flag is not False for flag in flags)
    outputs = _unique_outputs(want_index, want_inverse, want_counts)

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
            # (the message must be a literal: taipan's messages are constants)
            raise ValueError(
                "taipan returns the outputs of np.unique whose flags are passed: pass "
                "return_index, return_inverse and return_counts as True or leave them out"
            )
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


def _unique_outputs(want_index, want_inverse, want_counts):
    """A compiled ``(values, index, inverse, counts)`` returning the outputs wanted, in NumPy's
    order (values first)."""
    return _UNIQUE_OUTPUTS[(want_index, want_inverse, want_counts)]


def _values_index(values, index, inverse, counts):
    return values, index


def _values_inverse(values, index, inverse, counts):
    return values, inverse


def _values_counts(values, index, inverse, counts):
    return values, counts


def _values_index_inverse(values, index, inverse, counts):
    return values, index, inverse


def _values_index_counts(values, index, inverse, counts):
    return values, index, counts


def _values_inverse_counts(values, index, inverse, counts):
    return values, inverse, counts


def _all_outputs(values, index, inverse, counts):
    return values, index, inverse, counts


# (index, inverse, counts wanted) -> the outputs returned; values alone has its own function.
# (def, not lambda: the front end finds a lambda's text by parsing its whole file.)
_UNIQUE_OUTPUTS = {
    (True, False, False): njit(_values_index),
    (False, True, False): njit(_values_inverse),
    (False, False, True): njit(_values_counts),
    (True, True, False): njit(_values_index_inverse),
    (True, False, True): njit(_values_index_counts),
    (False, True, True): njit(_values_inverse_counts),
    (True, True, True): njit(_all_outputs),
}
