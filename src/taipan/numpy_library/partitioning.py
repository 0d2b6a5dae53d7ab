"""np.partition and np.argpartition along the last axis (as Numba supports them: the array and
kth only), and np.array_split and np.split, which return a list of views.

Partitioning is a selection, not a sort: each lane of a C-ordered copy is narrowed around every
requested kth in turn by introselect (median-of-three Hoare partitioning, expected O(n); after
2*log2(n) rounds that do not converge, the remaining range is sorted, bounding the worst case by
O(n log n)). Elements compare in NumPy's sort order (``support.sorts_before``: NaN last, -0.0
equal to 0.0). Only the partition property is promised, as by NumPy: the kth elements are where
a full sort puts them, those before are <= and those after >=; the order inside each side is
taipan's own. np.argpartition selects over a copy of the lane's values carrying their indices.
"""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library._axis import normalize_axis_of
from taipan.numpy_library.support import (
    array_like_dtype,
    array_like_ndim,
    is_integer,
    is_real_array,
    sorts_before,
)
from taipan.unrolling import literal_unroll
from taipan.unsafe import tuple_setitem

# ---------------------------------------------------------------------------------------------
# kth


@register_jitable
def normalized_kth(k, length):
    """``k`` in [0, length), counting a negative k from the end, with NumPy's ValueError."""
    if k < 0:
        k += length
    if k < 0 or k >= length:
        raise ValueError(f"kth(={k}) out of bounds ({length})")
    return k


@register_jitable
def kth_of_integer(kth, length):
    return np.full(1, normalized_kth(kth, length), np.int64)


@register_jitable
def kth_of_sequence(kth, length):
    """Every kth normalised (all checked before any work), ascending, without repeats."""
    values = np.empty(len(kth), np.int64)
    for at, k in enumerate(kth):
        values[at] = normalized_kth(k, length)
    return np.unique(values)


@register_jitable
def kth_of_tuple(kth, length):
    values = np.empty(len(kth), np.int64)
    at = 0
    for k in literal_unroll(kth):
        values[at] = normalized_kth(k, length)
        at += 1  # noqa: SIM113 - a literal_unroll loop is not enumerated
    return np.unique(values)


@register_jitable
def kth_of_many_dimensions(kth, length):
    if length >= 0:  # always: a run-time test, so that the result keeps the readers' type
        raise ValueError("kth must be scalar or 1-D")
    return np.empty(0, np.int64)


def kth_reader(kth):
    """The compiled ``(kth, length) -> sorted int64 array`` for this kth type, else None
    (booleans are not partition indices, as in NumPy); an array of more than one dimension
    raises Numba's ValueError when called."""
    if isinstance(kth, types.Array) and kth.ndim > 1 and isinstance(kth.dtype, types.Integer):
        return kth_of_many_dimensions
    if is_integer(kth):
        return kth_of_integer
    if isinstance(kth, types.BaseTuple):
        if all(isinstance(t, types.Integer) for t in kth.types):
            return kth_of_tuple
        return None
    if isinstance(kth, types.List) and isinstance(kth.dtype, types.Integer):
        return kth_of_sequence
    if isinstance(kth, types.Array) and kth.ndim == 1 and isinstance(kth.dtype, types.Integer):
        return kth_of_sequence
    return None


# ---------------------------------------------------------------------------------------------
# Selection over one lane


SMALL_RANGE = 16  # ranges this short are finished by insertion sort


@register_jitable
def swap(keys, carried, carry, i, j):
    keys[i], keys[j] = keys[j], keys[i]
    if carry:
        carried[i], carried[j] = carried[j], carried[i]


@register_jitable
def insertion_sort(keys, carried, carry, low, high):
    for i in range(low + 1, high):
        j = i
        while j > low and sorts_before(keys[j], keys[j - 1]):
            swap(keys, carried, carry, j, j - 1)
            j -= 1


@register_jitable
def sort_range(keys, carried, carry, low, high):
    """Sorts keys[low:high] (and carried alongside): the introselect fallback."""
    if carry:
        order = np.argsort(keys[low:high])
        sorted_keys = keys[low:high][order]
        sorted_carried = carried[low:high][order]
        keys[low:high] = sorted_keys
        carried[low:high] = sorted_carried
    else:
        keys[low:high].sort()


@register_jitable
def select(keys, carried, carry, low, high, k):
    """Moves into keys[k] the element a sort of keys[low:high] puts there (low <= k < high),
    with keys[low:k] <= keys[k] <= keys[k+1:high]; carried[i] moves with keys[i] when carry."""
    rounds_left = 2
    span = high - low
    while span > 1:
        rounds_left += 2
        span >>= 1
    while high - low > SMALL_RANGE:
        if rounds_left == 0:
            sort_range(keys, carried, carry, low, high)
            return
        rounds_left -= 1
        middle = low + (high - low) // 2
        last = high - 1
        # Median of three: afterwards keys[low] <= keys[middle] <= keys[last], which bound both
        # scans below.
        if sorts_before(keys[middle], keys[low]):
            swap(keys, carried, carry, middle, low)
        if sorts_before(keys[last], keys[middle]):
            swap(keys, carried, carry, last, middle)
            if sorts_before(keys[middle], keys[low]):
                swap(keys, carried, carry, middle, low)
        swap(keys, carried, carry, middle, low + 1)
        pivot = keys[low + 1]
        i = low + 1
        j = last
        # Hoare's scheme: both scans stop on keys equal to the pivot, so ranges of equal keys
        # (booleans, repeated values, NaN) split in the middle instead of degrading.
        while True:
            i += 1
            while sorts_before(keys[i], pivot):
                i += 1
            j -= 1
            while sorts_before(pivot, keys[j]):
                j -= 1
            if i >= j:
                break
            swap(keys, carried, carry, i, j)
        swap(keys, carried, carry, low + 1, j)
        if j == k:
            return
        if k < j:
            high = j
        else:
            low = j + 1
    insertion_sort(keys, carried, carry, low, high)


@register_jitable
def partition_lane(keys, carried, carry, kths):
    """Places every kth of the ascending ``kths``: each selection leaves the ones before it in
    place, so the next one works only on the range after it."""
    low = 0
    for at in range(kths.shape[0]):
        k = kths[at]
        select(keys, carried, carry, low, keys.shape[0], k)
        low = k + 1


# ---------------------------------------------------------------------------------------------
# np.partition and np.argpartition


def _check_partition_arguments(a, kth):
    """Numba's TypingErrors for what np.partition and np.argpartition cannot take."""
    if not isinstance(a, (types.Array, types.List, types.BaseTuple)):
        raise TypingError("The first argument must be an array-like")
    if array_like_ndim(a) == 0:
        raise TypingError("The first argument must be at least 1-D (found 0-D)")
    kth_dtype = array_like_dtype(kth)
    if kth_dtype is None or kth_dtype.kind not in "biu":
        raise TypingError("Partition index must be integer")


def _keeping_fortran_order(a, implementation):
    """``implementation`` (which computes in C order), its result in Fortran order for a
    Fortran-ordered ``a``: np.partition keeps the array's layout (np.argpartition does not)."""
    if a.layout != "F" or a.ndim < 2:
        return implementation
    compiled = register_jitable(implementation)

    def in_fortran_order(a, kth, axis=-1, kind="introselect", order=None):
        return np.asfortranarray(compiled(a, kth))

    return in_fortran_order


def _partition_of_array_like(function):
    """np.partition or np.argpartition of np.asarray(a), for a list or tuple ``a``."""

    def partition_array_like(a, kth, axis=-1, kind="introselect", order=None):
        return function(np.asarray(a), kth)

    return partition_array_like


@overload(np.partition)
def partition(a, kth, axis=-1, kind="introselect", order=None):
    _check_partition_arguments(a, kth)
    if not isinstance(a, types.Array):
        return _partition_of_array_like(np.partition)
    if not is_real_array(a):
        return None
    read_kth = kth_reader(kth)
    if read_kth is None:
        return None

    def partition_impl(a, kth, axis=-1, kind="introselect", order=None):
        result = a.copy()
        if result.size == 0:
            return result  # NumPy checks no kth against an empty array
        length = a.shape[a.ndim - 1]
        kths = read_kth(kth, length)
        lanes = result.reshape((result.size // length, length))
        no_indices = np.empty(0, np.int64)
        for r in range(lanes.shape[0]):
            partition_lane(lanes[r], no_indices, False, kths)
        return result

    return _keeping_fortran_order(a, partition_impl)


@overload(np.argpartition)
def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    _check_partition_arguments(a, kth)
    if not isinstance(a, types.Array):
        return _partition_of_array_like(np.argpartition)
    if not is_real_array(a):
        return None
    read_kth = kth_reader(kth)
    if read_kth is None:
        return None

    def argpartition_impl(a, kth, axis=-1, kind="introselect", order=None):
        result = np.empty(a.shape, np.int64)
        if result.size == 0:
            return result  # NumPy checks no kth against an empty array
        length = a.shape[a.ndim - 1]
        kths = read_kth(kth, length)
        values = a.reshape((a.size // length, length)) if a.ndim > 1 else a
        indices = result.reshape((result.size // length, length))
        keys = np.empty(length, a.dtype)
        for r in range(indices.shape[0]):
            lane_indices = indices[r]
            if a.ndim > 1:
                keys[:] = values[r]
            else:
                keys[:] = values
            for j in range(length):
                lane_indices[j] = j
            partition_lane(keys, lane_indices, True, kths)
        return result

    return argpartition_impl


# ---------------------------------------------------------------------------------------------
# np.array_split and np.split


@register_jitable
def whole_index(ary):
    """An index tuple taking all of ``ary``, as slices whose bounds are run-time values (so
    that one set later along the split axis keeps the tuple's type)."""
    return (slice(None, None, 1),) * ary.ndim


@register_jitable
def pieces_between(ary, axis, starts, stops):
    """[ary[..., starts[i]:stops[i], ...] along ``axis``] as views, with Python's slicing
    (negative and out-of-range bounds) as NumPy's array_split uses."""
    along = normalize_axis_of(axis, ary.ndim)
    whole = whole_index(ary)
    pieces = []
    for i in range(starts.shape[0]):
        pieces.append(ary[tuple_setitem(whole, along, slice(starts[i], stops[i], 1))])
    return pieces


@register_jitable
def bounds_of_sections(ary, sections, axis, equal):
    """(starts, stops) of ``sections`` pieces along ``axis``: the first length % sections one
    longer than the others (np.array_split), or all equal (np.split, which refuses others)."""
    along = normalize_axis_of(axis, ary.ndim)
    if sections <= 0:
        raise ValueError("number sections must be larger than 0.")
    length = ary.shape[along]
    each, extras = divmod(length, sections)
    if equal and extras != 0:
        raise ValueError("array split does not result in an equal division")
    starts = np.empty(sections, np.int64)
    stops = np.empty(sections, np.int64)
    start = 0
    for i in range(sections):
        starts[i] = start
        start += each + 1 if i < extras else each
        stops[i] = start
    return starts, stops


@register_jitable
def bounds_of_indices(ary, indices, axis, equal):
    """(starts, stops) of the pieces cut at ``indices`` along ``axis``: before the first, between
    neighbours and after the last (``equal`` matters only to sections)."""
    along = normalize_axis_of(axis, ary.ndim)
    count = len(indices)
    starts = np.empty(count + 1, np.int64)
    stops = np.empty(count + 1, np.int64)
    starts[0] = 0
    for at, index in enumerate(indices):
        stops[at] = index
        starts[at + 1] = index
    stops[count] = ary.shape[along]
    return starts, stops


@register_jitable
def bounds_of_index_tuple(ary, indices, axis, equal):
    along = normalize_axis_of(axis, ary.ndim)
    count = len(indices)
    starts = np.empty(count + 1, np.int64)
    stops = np.empty(count + 1, np.int64)
    starts[0] = 0
    at = 0
    for index in literal_unroll(indices):
        stops[at] = index
        starts[at + 1] = index
        at += 1  # noqa: SIM113 - a literal_unroll loop is not enumerated
    stops[count] = ary.shape[along]
    return starts, stops


def split_bounds(ary, indices_or_sections):
    """The compiled ``(ary, indices_or_sections, axis, equal) -> (starts, stops)`` for these
    argument types, else None."""
    if not isinstance(ary, types.Array) or ary.ndim == 0:
        return None
    return _bounds_of(indices_or_sections)


def _bounds_of(indices_or_sections):
    if is_integer(indices_or_sections):
        return bounds_of_sections
    kind = indices_or_sections
    if isinstance(kind, types.BaseTuple):
        if all(isinstance(t, types.Integer) for t in kind.types):
            return bounds_of_index_tuple
        return None
    integer_list = isinstance(kind, types.List) and isinstance(kind.dtype, types.Integer)
    integer_vector = (
        isinstance(kind, types.Array) and kind.ndim == 1 and isinstance(kind.dtype, types.Integer)
    )
    if integer_list or integer_vector:
        return bounds_of_indices
    return None


def splitter(equal):
    def split_typer(ary, indices_or_sections, axis=0):
        if isinstance(ary, (types.List, types.BaseTuple)) and array_like_ndim(ary):
            if _bounds_of(indices_or_sections) is None or not is_integer(axis):
                return None
            split = np.split if equal else np.array_split

            def split_array_like(ary, indices_or_sections, axis=0):
                return split(np.asarray(ary), indices_or_sections, axis=axis)

            return split_array_like
        bounds = split_bounds(ary, indices_or_sections)
        if bounds is None or not is_integer(axis):
            return None

        def split_impl(ary, indices_or_sections, axis=0):
            starts, stops = bounds(ary, indices_or_sections, axis, equal)
            return pieces_between(ary, axis, starts, stops)

        return split_impl

    return split_typer


overload(np.array_split)(splitter(False))
overload(np.split)(splitter(True))


def _split_alias(name, axis_of, least):
    """np.vsplit, np.hsplit or np.dsplit: np.split along ``axis_of(ndim)``, for arrays of at
    least ``least`` dimensions (Numba's checks and messages)."""

    def split_alias(ary, indices_or_sections):
        if not isinstance(ary, types.Array):
            raise TypingError('The argument "ary" must be an array')
        if not isinstance(
            indices_or_sections, (types.Integer, types.Array, types.List, types.UniTuple)
        ):
            raise TypingError('The argument "indices_or_sections" must be int or 1d-array')
        if ary.ndim < least:  # a ValueError when called, as Numba's
            message = f"{name} only works on arrays of {least} or more dimensions"

            def split_refused(ary, indices_or_sections):
                raise ValueError(message)

            return split_refused
        axis = axis_of(ary.ndim)

        def split_along(ary, indices_or_sections):
            return np.split(ary, indices_or_sections, axis=axis)

        return split_along

    return split_alias


overload(np.vsplit)(_split_alias("vsplit", lambda ndim: 0, 2))
overload(np.hsplit)(_split_alias("hsplit", lambda ndim: 1 if ndim > 1 else 0, 1))
overload(np.dsplit)(_split_alias("dsplit", lambda ndim: 2, 3))
