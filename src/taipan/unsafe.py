"""Compiler primitives for library code written as ordinary Python functions (Numba's
``numba.cpython.unsafe.tuple`` and ``numba.np.unsafe.ndarray``): building a tuple whose length
the argument types fix, with an item chosen at run time, or items paired from two tuples; and
``strided_view``, a view of an array's data with any extents and strides (a library entry).

Each is a plain Python function (it runs in Python too) with an ``overload`` that recurses on
the tuple's type: the implementation for a tuple of n items calls the one for n - 1 items, so
no source text is generated and each length compiles once."""

from taipan import types
from taipan.extending import overload

__all__ = ["interleave", "multiply_items", "strided_view", "tuple_insert", "tuple_setitem"]


def strided_view(array, shape, strides):
    """A view of ``array``'s data with extents ``shape`` and byte strides ``strides`` (tuples of
    one length), nothing checked: the caller keeps every element it can reach inside the
    array's memory. Compiled code calls the library entry ``unsafe.strided_view``
    (library/NumpyShapes.cpp); in Python it is NumPy's as_strided."""
    from numpy.lib.stride_tricks import as_strided

    return as_strided(array, shape, strides)


strided_view._taipan_builtin = "unsafe.strided_view"


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


# Short tuples (shapes of up to 4 dimensions, nearly all of them) in one function each: every
# compiled function costs about half a millisecond of compile time, recursion one per item.
# (Functions are defs, not lambdas: the front end finds a lambda's text by parsing its file.)


def _set_in_empty(tup, index, value):
    return ()


def _set_in_1(tup, index, value):
    return (value if index == 0 else tup[0],)


def _set_in_2(tup, index, value):
    return (value if index == 0 else tup[0], value if index == 1 else tup[1])


def _set_in_3(tup, index, value):
    return (
        value if index == 0 else tup[0],
        value if index == 1 else tup[1],
        value if index == 2 else tup[2],
    )


def _set_in_4(tup, index, value):
    return (
        value if index == 0 else tup[0],
        value if index == 1 else tup[1],
        value if index == 2 else tup[2],
        value if index == 3 else tup[3],
    )


def _set_in_longer(tup, index, value):
    return tuple_setitem(tup[:4], index, value) + tuple_setitem(tup[4:], index - 4, value)


_SETITEM_BY_LENGTH = (_set_in_empty, _set_in_1, _set_in_2, _set_in_3, _set_in_4)


@overload(tuple_setitem)
def _tuple_setitem(tup, index, value):
    if not _is_uniform(tup):
        return None
    count = len(tup.types)
    return _SETITEM_BY_LENGTH[count] if count < len(_SETITEM_BY_LENGTH) else _set_in_longer


def _insert_in_empty(tup, index, value):
    return (value,)


def _insert_in_tuple(tup, index, value):
    if index <= 0:
        return (value,) + tup
    return (tup[0],) + tuple_insert(tup[1:], index - 1, value)


@overload(tuple_insert)
def _tuple_insert(tup, index, value):
    if not _is_uniform(tup):
        return None
    return _insert_in_tuple if tup.types else _insert_in_empty


def interleave(x, y):
    """``(x[0], y[0], x[1], y[1]...)`` of two tuples of one length (np.tile and np.kron see
    arrays with these shapes)."""
    return tuple(item for pair in zip(x, y) for item in pair)


def multiply_items(x, y):
    """``(x[0] * y[0], x[1] * y[1]...)`` of two tuples of one length."""
    return tuple(p * q for p, q in zip(x, y))


def _no_items(x, y):
    return ()


def _interleave_1(x, y):
    return (x[0], y[0])


def _interleave_2(x, y):
    return (x[0], y[0], x[1], y[1])


def _interleave_3(x, y):
    return (x[0], y[0], x[1], y[1], x[2], y[2])


def _interleave_longer(x, y):
    return (x[0], y[0], x[1], y[1], x[2], y[2]) + interleave(x[3:], y[3:])


def _multiply_1(x, y):
    return (x[0] * y[0],)


def _multiply_2(x, y):
    return (x[0] * y[0], x[1] * y[1])


def _multiply_3(x, y):
    return (x[0] * y[0], x[1] * y[1], x[2] * y[2])


def _multiply_longer(x, y):
    return (x[0] * y[0], x[1] * y[1], x[2] * y[2]) + multiply_items(x[3:], y[3:])


# By length: up to 3 items in one function (no recursion), longer ones 3 at a time.
_INTERLEAVE_BY_LENGTH = (_no_items, _interleave_1, _interleave_2, _interleave_3)
_MULTIPLY_BY_LENGTH = (_no_items, _multiply_1, _multiply_2, _multiply_3)


def _by_length(table, longer, x, y):
    if not (isinstance(x, types.BaseTuple) and isinstance(y, types.BaseTuple)):
        return None
    count = len(x.types)
    return table[count] if count < len(table) else longer


@overload(interleave)
def _interleave(x, y):
    return _by_length(_INTERLEAVE_BY_LENGTH, _interleave_longer, x, y)


@overload(multiply_items)
def _multiply_items(x, y):
    return _by_length(_MULTIPLY_BY_LENGTH, _multiply_longer, x, y)
