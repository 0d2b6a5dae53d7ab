"""NumPy's set operations on 1-D arrays: np.isin (np.in1d where the installed NumPy still has
it), np.intersect1d, np.union1d, np.setdiff1d and np.setxor1d, with Numba's arguments (no
``kind=``, no ``return_indices=``). Each takes array-likes (arrays, numbers, lists, tuples),
raveled; the results are sorted and unique as NumPy's (``assume_unique=True`` skips the
np.unique of the inputs, as in NumPy). The algorithms are NumPy's arraysetops ones, as Numba
ports them: a sort of the concatenation and a comparison of neighbours; np.isin of real
numbers of one kind looks each item up by binary search instead (the same answers, faster)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import array_like_dtype, array_like_ndim, is_array_like


def _check_flags(name, **flags):
    for flag, value in flags.items():
        if not isinstance(value, (bool, types.Boolean)):
            raise TypingError(f'{name}: Argument "{flag}" must be boolean')


def _check_array_likes(name, first, second):
    if not (is_array_like(first) and is_array_like(second)):
        raise TypingError(f"{name}: first two args must be array-like")


@register_jitable
def _in1d(element, test_elements, assume_unique, invert):
    """For each item of ``element`` raveled, whether it is in ``test_elements`` (not in it with
    ``invert``): NumPy's in1d, a loop over the test elements when they are few, else a stable
    sort of both."""
    ar1 = np.asarray(element).ravel()
    ar2 = np.asarray(test_elements).ravel()
    if len(ar2) < 10 * len(ar1) ** 0.145:
        if invert:
            mask = np.ones(len(ar1), dtype=np.bool_)
            for a in ar2:
                mask &= ar1 != a
        else:
            mask = np.zeros(len(ar1), dtype=np.bool_)
            for a in ar2:
                mask |= ar1 == a
        return mask
    if assume_unique:
        return _sorted_in1d(ar1, ar2, invert)[: len(ar1)]
    # distinct, inverse = np.unique(ar1, return_inverse=True)
    order1 = np.argsort(ar1, kind="mergesort")
    sorted1 = ar1[order1]
    first = np.empty(sorted1.shape, dtype=np.bool_)
    first[:1] = True
    first[1:] = sorted1[1:] != sorted1[:-1]
    inverse = np.empty(first.shape, dtype=np.intp)
    inverse[order1] = np.cumsum(first) - 1
    return _sorted_in1d(sorted1[first], np.unique(ar2), invert)[inverse]


@register_jitable
def _sorted_in1d(ar1, ar2, invert):
    """in1d of two arrays of distinct items, for each item of their concatenation."""
    joined = np.concatenate((ar1, ar2))
    # stable, so that an item of ar1 comes before an equal one of ar2
    order = joined.argsort(kind="mergesort")
    in_order = joined[order]
    flag = np.empty(in_order.size, np.bool_)
    if invert:
        flag[:-1] = in_order[1:] != in_order[:-1]
    else:
        flag[:-1] = in_order[1:] == in_order[:-1]
    flag[-1:] = invert
    found = np.empty(joined.shape, dtype=np.bool_)
    found[order] = flag
    return found


@register_jitable
def _in1d_by_lookup(element, test_elements, invert):
    """_in1d for real numbers of one kind (both integers of one signedness, or both floats):
    each item is looked up by binary search among the test elements' sorted distinct items,
    n log m where NumPy sorts both, (n + m) log(n + m). The answers are NumPy's: an item is
    found when an equal one exists (-0.0 equals 0.0; NaN equals nothing)."""
    ar1 = np.asarray(element).ravel()
    ar2 = np.asarray(test_elements).ravel()
    if len(ar2) < 10 * len(ar1) ** 0.145:
        return _in1d(ar1, ar2, False, invert)
    table = np.unique(ar2)
    positions = np.searchsorted(table, ar1)
    last = len(table) - 1
    mask = np.empty(len(ar1), dtype=np.bool_)
    for i in range(len(ar1)):
        mask[i] = (table[min(positions[i], last)] == ar1[i]) != invert
    return mask


def _looked_up(element, test_elements):
    """Whether np.isin may look items up by binary search (_in1d_by_lookup): real numbers of
    one kind, where the order searchsorted uses agrees with ==."""
    kinds = {array_like_dtype(element).kind, array_like_dtype(test_elements).kind}
    return len(kinds) == 1 and kinds <= {"i", "u", "f"}


@register_jitable
def _distinct_pair(ar1, ar2, assume_unique):
    a = np.asarray(ar1)
    b = np.asarray(ar2)
    if assume_unique:
        return a.ravel(), b.ravel()
    return np.unique(a), np.unique(b)


@overload(np.isin)
def _isin(element, test_elements, assume_unique=False, invert=False):
    _check_array_likes("isin", element, test_elements)
    _check_flags("isin", assume_unique=assume_unique, invert=invert)

    if array_like_ndim(element) == 0:  # a 0-d result

        def isin_0d(element, test_elements, assume_unique=False, invert=False):
            return np.asarray(_in1d(element, test_elements, assume_unique, invert)[0])

        return isin_0d

    def isin(element, test_elements, assume_unique=False, invert=False):
        shape = np.asarray(element).shape
        return _in1d(element, test_elements, assume_unique, invert).reshape(shape)

    def isin_by_lookup(element, test_elements, assume_unique=False, invert=False):
        shape = np.asarray(element).shape
        if assume_unique:  # NumPy's answer for inputs that are not unique is its algorithm's
            return _in1d(element, test_elements, True, invert).reshape(shape)
        return _in1d_by_lookup(element, test_elements, invert).reshape(shape)

    return isin_by_lookup if _looked_up(element, test_elements) else isin


def _in1d_typer(ar1, ar2, assume_unique=False, invert=False):
    _check_array_likes("in1d", ar1, ar2)
    _check_flags("in1d", assume_unique=assume_unique, invert=invert)

    def in1d(ar1, ar2, assume_unique=False, invert=False):
        return _in1d(ar1, ar2, assume_unique, invert)

    return in1d


if hasattr(np, "in1d"):  # removed in NumPy 2.4
    overload(np.in1d)(_in1d_typer)


@overload(np.intersect1d)
def _intersect1d(ar1, ar2, assume_unique=False):
    _check_array_likes("intersect1d", ar1, ar2)
    _check_flags("intersect1d", assume_unique=assume_unique)

    def intersect1d(ar1, ar2, assume_unique=False):
        a, b = _distinct_pair(ar1, ar2, assume_unique)
        joined = np.concatenate((a, b))
        joined.sort()
        equal_next = joined[1:] == joined[:-1]
        return joined[:-1][equal_next]

    return intersect1d


@overload(np.union1d)
def _union1d(ar1, ar2):
    if not (is_array_like(ar1) and is_array_like(ar2)):
        raise TypingError("The arguments to np.union1d must be array-like")

    def union1d(ar1, ar2):
        a = np.ravel(np.asarray(ar1))
        b = np.ravel(np.asarray(ar2))
        return np.unique(np.concatenate((a, b)))

    return union1d


@overload(np.setdiff1d)
def _setdiff1d(ar1, ar2, assume_unique=False):
    _check_array_likes("setdiff1d", ar1, ar2)
    _check_flags("setdiff1d", assume_unique=assume_unique)

    def setdiff1d(ar1, ar2, assume_unique=False):
        a, b = _distinct_pair(ar1, ar2, assume_unique)
        return a[_in1d(a, b, True, True)]

    return setdiff1d


@overload(np.setxor1d)
def _setxor1d(ar1, ar2, assume_unique=False):
    _check_array_likes("setxor1d", ar1, ar2)
    _check_flags("setxor1d", assume_unique=assume_unique)

    def setxor1d(ar1, ar2, assume_unique=False):
        a, b = _distinct_pair(ar1, ar2, assume_unique)
        joined = np.concatenate((a, b))
        joined.sort()
        # the union less the intersection: items equal to neither neighbour
        flag = np.empty(joined.shape[0] + 1, dtype=np.bool_)
        flag[0] = True
        flag[-1] = True
        flag[1:-1] = joined[1:] != joined[:-1]
        return joined[flag[1:] & flag[:-1]]

    return setxor1d
