"""Fixed-width string arrays (NumPy's ``<U n``, Numba's UnicodeCharSeq) in the NumPy library:
sorted in code-point order as NumPy sorts them, through lists of their items read as str (the
native sorts order numbers by a dtype code, which such arrays have none of). A helper module:
the topics that take such arrays (sorting) call it."""

import numpy as np

from taipan import types
from taipan.extending import overload, register_jitable


def is_text_array(t):
    """An array of fixed-width unicode strings."""
    return isinstance(t, types.Array) and isinstance(t.dtype, types.UnicodeCharSeq)


@register_jitable
def sort_text_lane(lane):
    """Sorts a 1-D array of strings in place (Python's str order is NumPy's code-point order;
    the sort is stable, as NumPy's kinds allow)."""
    items = [lane[k] for k in range(lane.shape[0])]
    items.sort()
    for k in range(lane.shape[0]):
        lane[k] = items[k]


@register_jitable
def sort_text_rows(a):
    """Sorts every row of an array of strings along its last axis, in place."""
    if a.ndim == 1:
        sort_text_lane(a)
        return
    for row in np.ndindex(a.shape[:-1]):
        sort_text_lane(a[row])


@register_jitable
def argsort_text(a):
    """The stable order of the items of a 1-D array of strings."""
    pairs = [(a[k], k) for k in range(a.shape[0])]
    pairs.sort()  # equal strings keep their positions' order
    order = np.empty(a.shape[0], np.int64)
    for k in range(a.shape[0]):
        order[k] = pairs[k][1]
    return order


def both_nan(x, y):
    """Whether two items are both NaN (np.unique's ``equal_nan``): NaT for datetimes, never
    for strings."""
    return np.isnan(x) and np.isnan(y)


@overload(both_nan)
def _both_nan(x, y):
    if isinstance(x, types.UnicodeType) or isinstance(y, types.UnicodeType):
        return lambda x, y: False
    if isinstance(x, (types.NPDatetime, types.NPTimedelta)):
        return lambda x, y: np.isnat(x) and np.isnat(y)
    return lambda x, y: np.isnan(x) and np.isnan(y)


# NumPy 2.2 and later trim empty strings too (np.trim_zeros compares items with 0 and, from 2.2,
# with ''), as Numba follows the installed NumPy.
_TRIMS_EMPTY_STRINGS = tuple(int(part) for part in np.__version__.split(".")[:2]) >= (2, 2)


def is_trimmed_zero(x):
    """Whether np.trim_zeros trims the item ``x``."""
    return x == 0


@overload(is_trimmed_zero)
def _is_trimmed_zero(x):
    if isinstance(x, types.UnicodeType):
        if _TRIMS_EMPTY_STRINGS:
            return lambda x: len(x) == 0
        return lambda x: False
    return lambda x: x == 0


def is_nonzero_item(x):
    """Whether an item counts as nonzero (np.nonzero): a non-empty string, a number not 0."""
    return x != 0


@overload(is_nonzero_item)
def _is_nonzero_item(x):
    if isinstance(x, types.UnicodeType):
        return lambda x: len(x) > 0
    return lambda x: x != 0
