"""Compiler primitives for library code written as ordinary Python functions (Numba's
``numba.cpython.unsafe.tuple`` and ``numba.np.unsafe.ndarray``): building a tuple whose length
the argument types fix, with an item chosen at run time.

Each is a plain Python function (it runs in Python too) with an ``overload`` that recurses on
the tuple's type: the implementation for a tuple of n items calls the one for n - 1 items, so
no source text is generated and each length compiles once."""

from taipan import types
from taipan.extending import overload

__all__ = ["tuple_insert", "tuple_setitem"]


def tuple_setitem(tup, index, value):
    """``tup`` with ``value`` in place of item ``index`` (0 <= index < len(tup); another index
    leaves the tuple as it is). In compiled code ``tup`` is a tuple of one item type and
    ``index`` may be known only at run time: the result keeps ``tup``'s type."""
    if 0 <= index < len(tup):
        return tup[:index] + (value,) + tup[index + 1 :]
    return tup


def tuple_insert(tup, index, value):
    """``tup`` with ``value`` inserted before item ``index`` (0 <= index <= len(tup); another
    index leaves the tuple one item longer with ``value`` nowhere, as the compiled version
    needs a length fixed by the types: callers pass a normalised index)."""
    return tup[:index] + (value,) + tup[index:]


def _is_uniform(tup):
    return isinstance(tup, types.BaseTuple) and len(set(tup.types)) <= 1


@overload(tuple_setitem)
def _tuple_setitem(tup, index, value):
    if not _is_uniform(tup):
        return None
    if not tup.types:
        return lambda tup, index, value: ()

    def tuple_setitem_impl(tup, index, value):
        return (value if index == 0 else tup[0],) + tuple_setitem(tup[1:], index - 1, value)

    return tuple_setitem_impl


@overload(tuple_insert)
def _tuple_insert(tup, index, value):
    if not _is_uniform(tup):
        return None
    if not tup.types:
        return lambda tup, index, value: (value,)

    def tuple_insert_impl(tup, index, value):
        if index <= 0:
            return (value,) + tup
        return (tup[0],) + tuple_insert(tup[1:], index - 1, value)

    return tuple_insert_impl
