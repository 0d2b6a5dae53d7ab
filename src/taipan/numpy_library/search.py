"""Searching and counting NumPy functions for compiled code: searchsorted, digitize, bincount,
histogram, nonzero, flatnonzero, argwhere and count_nonzero.

Searches compare in NumPy's order (NaN last), in the promoted type of the array and the keys.
"""

import numpy as np

from taipan import types
from taipan.extending import overload, register_jitable
from taipan.numpy_library._axis import normalize_axis
from taipan.numpy_library.branch_free import choose_unpredictable
from taipan.numpy_library.support import (
    as_array_unless_scalar,
    as_optional_array,
    bisect,
    is_integer_scalar,
    is_none,
    is_real_array,
    is_real_scalar,
    is_sequence,
    key_dtype,
    sorts_before,
    string_value,
)
from taipan.numpy_library.text_arrays import is_nonzero_item


@register_jitable
def bisect_sorted_by(a, sorter, key, right):
    """``bisect`` over ``a[sorter]`` without building it."""
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) >> 1
        position = sorter[middle]
        # Like NumPy, only the entries the search visits are checked.
        if position < 0 or position >= a.shape[0]:
            raise ValueError("Sorter index out of range.")
        element = a[position]
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
def bisect_unsorted(a, sorter, key, right):
    """``bisect`` with the signature of ``bisect_sorted_by``, for calls without a sorter."""
    return bisect(a, key, right)


@register_jitable
def bisect_in_order(a, sorter, key, right):
    """``bisect`` by ``_before`` alone (complex arrays, whose NaN order is not one line's), with
    the signature of ``bisect_sorted_by``, for calls without a sorter."""
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) >> 1
        if _before(a[middle], key, right):
            low = middle + 1
        else:
            high = middle
    return low


def _searchable_array(t):
    """An array np.searchsorted searches: of real or complex numbers."""
    return is_real_array(t) or (isinstance(t, types.Array) and isinstance(t.dtype, types.Complex))


@register_jitable
def _before(x, y, right):
    """NumPy's comparison of a searched element x with a key y: x < y for side='left', x <= y
    for side='right', in the sort order with NaN last."""
    if right:
        return not sorts_before(y, x)
    return sorts_before(x, y)


def _element_reader(sorted_by):
    """The compiled ``(a, sorter, middle) -> element`` of the search: a[middle], or
    a[sorter[middle]] (checked) with a sorter."""
    if not sorted_by:
        return register_jitable(lambda a, sorter, middle: a[middle])

    @register_jitable
    def element_by_sorter(a, sorter, middle):
        position = sorter[middle]
        if position < 0 or position >= a.shape[0]:
            raise ValueError("Sorter index out of range.")
        return a[position]

    return element_by_sorter


# NumPy 2.5 replaced its binary search (npysort/binsearch.cpp): every key now probes the whole
# range, ``base += (a[base + half] before key) * half`` while the interval halves, then one last
# comparison; NumPy 2.4 and earlier narrowed each key's range by the previous key's result.
# Sorted arrays get the same answers either way; on unsorted ones (where NumPy documents no
# answer) compiled code gives the installed NumPy's.
WHOLE_RANGE_PROBES = np.lib.NumpyVersion(np.__version__) >= "2.5.0.dev0"


def whole_range_searcher(sorted_by):
    """The compiled ``(a, sorter, key, right)``: the insertion index of ``key`` by NumPy 2.5's
    binsearch/argbinsearch exactly (probes and all), branch-free (branch_free.py)."""
    element_at = _element_reader(sorted_by)

    @register_jitable
    def search_whole_range(a, sorter, key, right):
        interval = a.shape[0]
        if interval == 0:
            return 0
        base = 0
        while interval > 1:
            half = interval >> 1
            interval -= half
            goes_after = _before(element_at(a, sorter, base + half), key, right)
            base = choose_unpredictable(goes_after, base + half, base)
        return base + (1 if _before(element_at(a, sorter, base), key, right) else 0)

    return search_whole_range


@register_jitable
def in_sort_order(a):
    """Whether the real array ``a`` is sorted in NumPy's order (NaN, NaT last)."""
    for i in range(a.shape[0] - 1):
        if sorts_before(a[i + 1], a[i]):
            return False
    return True


def keys_searcher(sorted_by, real_order):
    """The compiled ``(a, sorter, keys, out, right)``: out[k] = the insertion index of keys[k],
    by NumPy's binsearch/argbinsearch exactly: the bounds found for one key narrow the search
    for the next when keys ascend, so results on an unsorted ``a`` are NumPy's too.

    With many keys (``real_order``: a real ``a``, no sorter), a sorted ``a`` is searched from
    its whole range for every key instead: its first probes then hit the same few elements,
    which stay in the cache, where NumPy's narrowed ranges probe new ones (1.7x faster with
    10**6 keys in 10**5 elements). On a sorted array every search finds the same index, and
    checking the order costs one pass over ``a``, paid only when there are at least
    ``a.shape[0] / 16`` keys."""
    element_at = _element_reader(sorted_by)
    search_whole_range = whole_range_searcher(sorted_by)

    @register_jitable
    def search_keys(a, sorter, keys, out, right):
        length = a.shape[0]
        low = 0
        high = length
        if keys.shape[0] == 0:
            return
        if WHOLE_RANGE_PROBES:  # NumPy >= 2.5: no narrowing by the previous key
            for k in range(keys.shape[0]):
                out[k] = search_whole_range(a, sorter, keys[k], right)
            return
        if real_order and keys.shape[0] * 16 >= length and in_sort_order(a):
            for k in range(keys.shape[0]):
                out[k] = bisect(a, keys[k], right)
            return
        last = keys[0]
        for k in range(keys.shape[0]):
            key = keys[k]
            if _before(last, key, right):
                high = length
            else:
                low = 0
                high = high + 1 if high < length else length
            last = key
            while low < high:  # steps that go either way at random: selects (branch_free.py)
                middle = low + ((high - low) >> 1)
                goes_after = _before(element_at(a, sorter, middle), key, right)
                low = choose_unpredictable(goes_after, middle + 1, low)
                high = choose_unpredictable(goes_after, high, middle)
            out[k] = low

    return search_keys


@register_jitable
def check_sorter(a, sorter):
    if sorter.shape[0] != a.shape[0]:
        raise ValueError("sorter.size must equal a.size")


@register_jitable
def check_no_sorter(a, sorter):
    pass


# ---------------------------------------------------------------------------------------------
# searchsorted and digitize


@register_jitable
def _side_at_run_time(side):
    """True for side='right', False for 'left' (NumPy's ValueError for others)."""
    if side == "right":
        return True
    if side == "left":
        return False
    raise ValueError("search side must be 'left' or 'right' (got '" + side + "')")


@overload(np.searchsorted)
def searchsorted(a, v, side="left", sorter=None):
    if is_sequence(a) or is_sequence(v):  # lists and tuples: as arrays

        def searchsorted_of_sequences(a, v, side="left", sorter=None):
            return np.searchsorted(np.asarray(a), as_array_unless_scalar(v), side, sorter)

        return searchsorted_of_sequences
    if not _searchable_array(a) or a.ndim != 1:
        return None
    side_name = string_value(side)
    if side_name is None and isinstance(side, types.UnicodeType):
        side_of = _side_at_run_time  # a string known only when called
    elif side_name in ("left", "right"):
        right = side_name == "right"
        side_of = register_jitable(lambda side: right)
    else:
        return None
    complex_order = isinstance(a.dtype, types.Complex)
    if is_none(sorter):
        search = bisect_in_order if complex_order else bisect_unsorted
        check = check_no_sorter
    elif isinstance(sorter, types.Array) and sorter.ndim == 1 and is_integer_scalar(sorter.dtype):
        search, check = bisect_sorted_by, check_sorter
    else:
        return None
    if WHOLE_RANGE_PROBES:  # the installed NumPy's probes, for a single key too
        search = whole_range_searcher(not is_none(sorter))
    if isinstance(v, (types.NPDatetime, types.NPTimedelta)):
        if v != a.dtype:  # NumPy converts other units; taipan compares one unit only
            return None

        def searchsorted_datetime(a, v, side="left", sorter=None):
            check(a, sorter)
            return search(a, sorter, v, side_of(side))

        return searchsorted_datetime
    if is_real_scalar(v) or isinstance(v, types.Complex):
        key_type = key_dtype(a.dtype, v)

        def searchsorted_scalar(a, v, side="left", sorter=None):
            check(a, sorter)
            return search(a, sorter, key_type(v), side_of(side))

        return searchsorted_scalar
    if not _searchable_array(v):
        return None

    search_keys = keys_searcher(not is_none(sorter), is_none(sorter) and not complex_order)

    def searchsorted_array(a, v, side="left", sorter=None):
        check(a, sorter)
        keys = v.ravel()
        result = np.empty(v.shape, np.int64)
        result_flat = result.ravel()
        search_keys(a, sorter, keys, result_flat, side_of(side))
        return result

    return searchsorted_array


@register_jitable
def monotonicity(bins):
    """1 when ``bins`` never decreases, -1 when it never increases (and is not constant), 0
    otherwise: NumPy's check for digitize."""
    n = bins.shape[0]
    if n == 0:
        return 1
    first = bins[0]
    i = 1
    while i < n and bins[i] == first:
        i += 1
    if i == n:
        return 1
    increasing = first < bins[i]
    for k in range(i, n - 1):
        if increasing and bins[k] > bins[k + 1]:
            return 0
        if not increasing and bins[k] < bins[k + 1]:
            return 0
    return 1 if increasing else -1


@register_jitable
def digitize_one(x, bins, right, direction):
    # NumPy searches with the opposite side: right=True puts x == edge in the lower bin.
    if direction == -1:
        return bins.shape[0] - bisect(bins[::-1], x, not right)
    return bisect(bins, x, not right)


@overload(np.digitize)
def digitize(x, bins, right=False):
    if is_sequence(x) or is_sequence(bins):  # lists and tuples: as arrays
        return lambda x, bins, right=False: np.digitize(np.asarray(x), np.asarray(bins), right)
    if not is_real_array(bins) or bins.ndim != 1:
        return None
    if not (right is False or isinstance(right, types.Boolean)):
        return None
    if is_real_scalar(x):
        key_type = key_dtype(bins.dtype, x)

        def digitize_scalar(x, bins, right=False):
            direction = monotonicity(bins)
            if direction == 0:
                raise ValueError("bins must be monotonically increasing or decreasing")
            return digitize_one(key_type(x), bins, right, direction)

        return digitize_scalar
    if not is_real_array(x):
        return None

    def digitize_array(x, bins, right=False):
        direction = monotonicity(bins)
        if direction == 0:
            raise ValueError("bins must be monotonically increasing or decreasing")
        values = x.ravel()
        result = np.empty(x.shape, np.int64)
        result_flat = result.ravel()
        for k in range(values.shape[0]):
            result_flat[k] = digitize_one(values[k], bins, right, direction)
        return result

    return digitize_array


# ---------------------------------------------------------------------------------------------
# bincount and histogram


@register_jitable
def weight_at(weights, k, n):
    """The k-th of ``n`` weights, as the float64 that np.bincount sums."""
    if weights.shape[0] != n:
        raise ValueError("The weights and list don't have the same length.")
    return np.float64(weights[k])


@register_jitable
def unit_weight(weights, k, n):
    return 1


@overload(np.bincount)
def bincount(x, weights=None, minlength=0):
    if is_sequence(x) or is_sequence(weights):  # lists and tuples: as arrays

        def bincount_of_sequences(x, weights=None, minlength=0):
            return np.bincount(np.asarray(x), as_optional_array(weights), minlength)

        return bincount_of_sequences
    # NumPy casts x to intp safely: uint64 and floats are refused.
    if not isinstance(x, types.Array) or x.ndim != 1 or not is_integer_scalar(x.dtype):
        return None
    if isinstance(x.dtype, types.Integer) and not x.dtype.signed and x.dtype.bitwidth == 64:
        return None
    if not is_integer_scalar(minlength):
        return None
    weighted = not is_none(weights)
    if weighted and not (is_real_array(weights) and weights.ndim == 1):
        return None
    result_type = np.float64 if weighted else np.int64
    weight = weight_at if weighted else unit_weight

    def bincount_impl(x, weights=None, minlength=0):
        if minlength < 0:
            raise ValueError("'minlength' must not be negative")
        n = x.shape[0]
        smallest = 0
        largest = -1
        for k in range(n):  # no exit in the loop: it vectorizes (0.53 -> 0.27 ms for 10**6)
            value = np.int64(x[k])
            smallest = min(smallest, value)
            largest = max(largest, value)
        if smallest < 0:
            raise ValueError("'list' argument must have no negative elements")
        result = np.zeros(max(largest + 1, minlength), result_type)
        for k in range(n):
            result[np.int64(x[k])] += weight(weights, k, n)
        return result

    return bincount_impl


@register_jitable
def uniform_bin(value, first, scale, edges, count):
    """The bin of ``value`` (within the edges) among ``count`` equal bins with these ``edges``,
    ``scale`` being count / (last - first): an estimate, corrected against the edges as NumPy
    does. The estimate is within one bin of NumPy's (which divides by the width first), and the
    correction then finds the one bin whose edges hold the value, as NumPy's does."""
    index = max(min(int((value - first) * scale), count - 1), 0)
    # Both corrections are computed (no branches): ``edges`` increase strictly
    # (check_finite_bins) or hold NaN, so at most one of them applies, and after a step down
    # NumPy's second test (value >= edges[index]) fails anyway.
    down = value < edges[index] and index > 0
    up = value >= edges[index + 1] and index != count - 1
    return index - down + up


@register_jitable
def estimate_margin(first, last, bins):
    """How far (in bins) from an integer the estimate (value - first) * scale of
    ``uniform_bin`` must be for its floor to be the bin whose float64 edges
    (``linspace_float64``: i * step + first) hold the value, so that the edges need not be read;
    1.0 (never) where the bound below does not hold.

    The estimate is within 4u * bins of the exact position (u = 2**-53: the subtraction, the
    scale's subtraction and division, the product), and each edge within 3u * bins + u * M *
    bins / (last - first) bins of its exact place (M = max(|first|, |last|): the step, the
    product, the sum). The margin, 2**-46 * bins * (1 + M / (last - first)), is 16 times their
    sum; denormal widths (absolute rounding errors) and huge bin counts take the exact path."""
    width = last - first
    if not (width > 1e-290) or bins > 2**40:
        return 1.0
    margin = 2.0**-46 * bins * (1.0 + max(abs(first), abs(last)) / width)
    return margin if margin < 0.25 else 1.0


@register_jitable
def count_uniform(values, low, high, edges, counts, edge_type, margin, all_within):
    """Adds each of ``values`` within [low, high] to its bin among the equal bins of ``edges``
    (``all_within``: every value is, [low, high] being the data's extremes). (A loop of its own:
    np.histogram's parameter ``range`` hides the builtin there.) An estimate at least
    ``margin`` from both of its bin's ends is that bin (estimate_margin); others are corrected
    against the edges (uniform_bin)."""
    bins = counts.shape[0]
    scale = bins / (high - low)
    for k in range(values.shape[0]):
        value = edge_type(values[k])
        if all_within or (value >= low and value <= high):
            position = (value - low) * scale
            index = int(position)
            fraction = position - index  # exact: index is position's integer part
            if not (index < bins and fraction >= margin and fraction <= 1.0 - margin):
                index = uniform_bin(value, low, scale, edges, bins)
            # the bin is never negative: as unsigned, its index needs no wraparound
            counts[np.uint64(index)] += 1


@register_jitable
def check_finite_bins(edges):
    for i in range(edges.shape[0] - 1):
        if edges[i] >= edges[i + 1]:
            raise ValueError("Too many bins for data range. Cannot create finite-sized bins.")


@register_jitable
def count_by_edges(values, edges, counts):
    """Adds each of ``values`` within the edges to its bin: edges[i] <= x < edges[i + 1], the
    last bin also x == edges[-1]."""
    n = edges.shape[0]
    for i in range(n - 1):
        if edges[i] > edges[i + 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    if n < 2:
        return
    for k in range(values.shape[0]):
        value = values[k]
        if edges[0] <= value <= edges[n - 1]:
            counts[min(bisect(edges, value, True) - 1, n - 2)] += 1


@register_jitable
def linspace_float32(edges, first, last, intervals):
    """np.linspace(first, last, intervals + 1) computed in float32 into ``edges``: i * step +
    first, or (i / intervals) * delta + first when the step underflows, the last exactly last."""
    delta = np.float32(last - first)
    step = np.float32(delta / np.float32(intervals))
    for i in range(intervals + 1):
        if step == 0:
            fraction = np.float32(np.float32(i) / np.float32(intervals))
            edges[i] = np.float32(fraction * delta) + first
        else:
            edges[i] = np.float32(np.float32(i) * step) + first
    edges[intervals] = last


@register_jitable
def linspace_float64(edges, first, last, intervals):
    """``linspace_float32`` in float64 (the edges array may be float32: each edge is rounded)."""
    delta = last - first
    step = delta / intervals
    for i in range(intervals + 1):
        if step == 0:
            edges[i] = (i / intervals) * delta + first
        else:
            edges[i] = i * step + first
    edges[intervals] = last


@register_jitable
def outer_edges_of_range(values, range):
    first = float(range[0])
    last = float(range[1])
    if first > last:
        raise ValueError("max must be larger than min in range parameter.")
    if not (np.isfinite(first) and np.isfinite(last)):
        raise ValueError("supplied range is not finite")
    return first, last


@register_jitable
def outer_edges_of_data(values, range):
    if values.shape[0] == 0:
        return 0.0, 1.0
    first = float(values.min())
    last = float(values.max())
    if not (np.isfinite(first) and np.isfinite(last)):
        raise ValueError("autodetected range is not finite")
    return first, last


@overload(np.histogram)
def histogram(a, bins=10, range=None, density=None, weights=None):
    # bool data make NumPy compute edges of dtype bool; complex data have no order.
    if not isinstance(a, types.Array) or not isinstance(a.dtype, (types.Integer, types.Float)):
        return None
    if not is_none(density) or not is_none(weights):
        return None
    if is_real_array(bins) and bins.ndim == 1:
        return histogram_with_edges
    if not is_integer_scalar(bins) or isinstance(bins, types.Boolean):
        return None
    with_range = not is_none(range)
    if with_range and not (
        isinstance(range, types.BaseTuple)
        and range.count == 2
        and all(is_real_scalar(t) for t in range.types)
    ):
        return None
    # NumPy's edges have the data's float type (float64 for integers); linspace computes them
    # in float32 only from float32 data's own extremes.
    float32_data = isinstance(a.dtype, types.Float) and a.dtype.bitwidth == 32
    edge_type = np.float32 if float32_data else np.float64
    step_type = np.float32 if float32_data and not with_range else np.float64  # if not empty

    outer_edges = outer_edges_of_range if with_range else outer_edges_of_data
    # Edges from the data's own extremes (the same conversions as each value's) hold every value.
    extremes = not with_range

    def histogram_uniform(a, bins=10, range=None, density=None, weights=None):
        if bins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        values = a.ravel()
        low_edge, high_edge = outer_edges(values, range)
        first = step_type(low_edge)
        last = step_type(high_edge)
        if first == last:
            first = step_type(first - step_type(0.5))
            last = step_type(last + step_type(0.5))
        edges = np.empty(bins + 1, edge_type)
        if float32_data and values.shape[0] > 0 and not with_range:
            linspace_float32(edges, np.float32(first), np.float32(last), bins)
        else:
            linspace_float64(edges, np.float64(first), np.float64(last), bins)
        check_finite_bins(edges)
        counts = np.zeros(bins, np.int64)
        # float32 edges (float32 data): the margin's bound is float64's, so every bin is checked
        margin = 1.0 if float32_data else estimate_margin(np.float64(first), np.float64(last), bins)
        count_uniform(
            values, edge_type(first), edge_type(last), edges, counts, edge_type, margin, extremes
        )
        return counts, edges

    return histogram_uniform


def histogram_with_edges(a, bins=10, range=None, density=None, weights=None):
    """np.histogram with the bin edges given: bin i holds edges[i] <= x < edges[i + 1], the last
    bin also x == edges[-1]."""
    counts = np.zeros(max(bins.shape[0] - 1, 0), np.int64)
    count_by_edges(a.ravel(), bins, counts)
    return counts, bins


# ---------------------------------------------------------------------------------------------
# nonzero, flatnonzero, argwhere, count_nonzero


@register_jitable
def nonzero_positions(a):
    """The flat C-order positions of the nonzero elements of ``a`` (NaN counts as nonzero)."""
    values = a.ravel()
    count = 0
    for k in range(values.shape[0]):
        if is_nonzero_item(values[k]):
            count += 1
    positions = np.empty(count, np.int64)
    count = 0
    for k in range(values.shape[0]):
        if is_nonzero_item(values[k]):
            positions[count] = k
            count += 1
    return positions


@register_jitable
def nonzero_indices(a):
    """argwhere: row r holds the index of the r-th nonzero element in C order."""
    positions = nonzero_positions(a)
    ndim = a.ndim
    result = np.empty((positions.shape[0], ndim), np.int64)
    for r in range(positions.shape[0]):
        rest = positions[r]
        for d in range(ndim - 1, -1, -1):
            extent = a.shape[d]
            result[r, d] = rest % extent
            rest //= extent
    return result


def _truth_of_object(a):
    """For None or a string (np.asarray makes a 0-d array of objects or characters of it, whose
    one item is nonzero when the value is true): the compiled ``bool(a)``; else None."""
    if is_none(a):
        return register_jitable(lambda a: False)
    if isinstance(a, types.UnicodeType) or isinstance(string_value(a), str):
        return register_jitable(lambda a: len(a) > 0)
    return None


@overload(np.flatnonzero)
def flatnonzero(a):
    if is_sequence(a) or isinstance(a, (types.Number, types.Boolean)):
        return lambda a: np.flatnonzero(np.asarray(a))
    truth = _truth_of_object(a)
    if truth is not None:
        return lambda a: np.flatnonzero(np.asarray(truth(a)))
    if not isinstance(a, types.Array):
        return None

    def flatnonzero_impl(a):
        return nonzero_positions(a)

    return flatnonzero_impl


@register_jitable
def nonzero_indices_0d(a):
    """argwhere of a 0-d array: one row of no indices when its value is nonzero."""
    return np.empty((nonzero_positions(a).shape[0], 0), np.int64)


@overload(np.argwhere)
def argwhere(a):
    if is_sequence(a) or isinstance(a, (types.Number, types.Boolean)):
        return lambda a: np.argwhere(np.asarray(a))
    truth = _truth_of_object(a)
    if truth is not None:
        return lambda a: np.argwhere(np.asarray(truth(a)))
    if not isinstance(a, types.Array):
        return None
    if a.ndim == 0:
        return lambda a: nonzero_indices_0d(a)

    def argwhere_impl(a):
        # NumPy's argwhere is transpose(nonzero(a)): the indices of one axis lie together
        positions = nonzero_positions(a)
        by_axis = np.empty((a.ndim, positions.shape[0]), np.int64)
        for r in range(positions.shape[0]):
            rest = positions[r]
            for d in range(a.ndim - 1, -1, -1):
                extent = a.shape[d]
                by_axis[d, r] = rest % extent
                rest //= extent
        return by_axis.T

    return argwhere_impl


@register_jitable
def nonzero_1d(a):
    return (nonzero_positions(a),)


@register_jitable
def nonzero_2d(a):
    indices = nonzero_indices(a)
    return indices[:, 0].copy(), indices[:, 1].copy()


@register_jitable
def nonzero_3d(a):
    indices = nonzero_indices(a)
    return indices[:, 0].copy(), indices[:, 1].copy(), indices[:, 2].copy()


@register_jitable
def nonzero_4d(a):
    indices = nonzero_indices(a)
    return (
        indices[:, 0].copy(),
        indices[:, 1].copy(),
        indices[:, 2].copy(),
        indices[:, 3].copy(),
    )


# A tuple's length is fixed when compiling, so each ndim has its own implementation.
NONZERO_BY_NDIM = {1: nonzero_1d, 2: nonzero_2d, 3: nonzero_3d, 4: nonzero_4d}


@overload(np.nonzero)
def nonzero(a):
    if not isinstance(a, types.Array):
        return None
    if a.ndim == 0:

        def nonzero_scalar(a):
            raise ValueError(
                "Calling nonzero on 0d arrays is not allowed. Use "
                "np.atleast_1d(scalar).nonzero() instead."
            )

        return nonzero_scalar
    by_ndim = NONZERO_BY_NDIM.get(a.ndim)
    if by_ndim is None:
        return None

    def nonzero_impl(a):
        return by_ndim(a)

    return nonzero_impl


@overload(np.count_nonzero)
def count_nonzero(a, axis=None, keepdims=False):
    if not isinstance(a, types.Array) or keepdims is not False:
        return None
    if is_none(axis):

        def count_all(a, axis=None, keepdims=False):
            return nonzero_positions(a).shape[0]

        return count_all
    if not is_integer_scalar(axis) or a.ndim == 0:
        return None

    def count_along(a, axis=None, keepdims=False):
        normalize_axis(axis, a.ndim)
        return (a != 0).sum(axis=axis)

    return count_along
