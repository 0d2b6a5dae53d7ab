"""``numba.typed.listobject``: ``new_list(item_type)`` is ``taipan.typed.List.empty_list`` (in
Python and in compiled code)."""

from numba._missing import fill_missing
from taipan.typed import List


def new_list(item, allocated=0):
    """An empty typed List of the given item type."""
    return List.empty_list(item, allocated)


new_list._taipan_builtin = "taipan.typed.List.empty_list"

__getattr__ = fill_missing(globals(), __name__)
