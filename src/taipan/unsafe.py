"""Compiler primitives for library code written as ordinary Python functions (Numba's
``numba.cpython.unsafe.tuple`` and ``numba.np.unsafe.ndarray``): building a tuple whose length
the argument types fix, with an item chosen at run time, or items paired from two tuples.

Each is a plain Python function (it runs in Python too) with an ``overload`` that recurses on
the tuple's type: the implementation for a tuple of n items calls the one for n - 1 items, so
no source text is generated and each length compiles once."""

from taipan import types
from taipan.extending import overload

__all__ = ["interleave", "multiply_items", "tuple_insert", "tuple_setitem"]


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
_SHORT_SETITEMS = {
    1: lambda tup, index, value: (value if index == 0 else tup[0],),
    2: lambda tup, index, value: (
        value if index == 0 else tup[0],
        value if index == 1 else tup[1],
    ),
    3: lambda tup, index, value: (
        value if index == 0 else tup[0],
        value if index == 1 else tup[1],
        value if index == 2 else tup[2],
    ),
    4: lambda tup, index, value: (
        value if index == 0 else tup[0],
        value if index == 1 else tup[1],
        value if index == 2 else tup[2],
        value if index == 3 else tup[3],
    ),
}


@overload(tuple_setitem)
def _tuple_setitem(tup, index, value):
    if not _is_uniform(tup):
        return None
    if not tup.types:
        return lambda tup, index, value: ()
    short = _SHORT_SETITEMS.get(len(tup.types))
    if short is not None:
        return short

    def tuple_setitem_impl(tup, index, value):
        return tuple_setitem(tup[:4], index, value) + tuple_setitem(tup[4:], index - 4, value)

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


def interleave(x, y):
    """``(x[0], y[0], x[1], y[1]...)`` of two tuples of one length (np.tile and np.kron see
    arrays with these shapes)."""
    return tuple(item for pair in zip(x, y) for item in pair)


def multiply_items(x, y):
    """``(x[0] * y[0], x[1] * y[1]...)`` of two tuples of one length."""
    return tuple(p * q for p, q in zip(x, y))


@overload(interleave)
def _interleave(x, y):
    if not (isinstance(x, types.BaseTuple) and isinstance(y, types.BaseTuple)):
        return None
    if not x.types:
        return lambda x, y: ()
    return lambda x, y: (x[0], y[0]) + interleave(x[1:], y[1:])


@overload(multiply_items)
def _multiply_items(x, y):
    if not (isinstance(x, types.BaseTuple) and isinstance(y, types.BaseTuple)):
        return None
    if not x.types:
        return lambda x, y: ()
    return lambda x, y: (x[0] * y[0],) + multiply_items(x[1:], y[1:])
