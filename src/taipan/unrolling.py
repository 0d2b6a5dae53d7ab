"""``literal_unroll`` (Numba's ``numba.literal_unroll``): the loop ``for x in
literal_unroll(t)`` iterates the tuple ``t``. A tuple of one element type loops as any tuple
does; a heterogeneous tuple, whose loop body Numba compiles once per element type, is not
unrolled yet and stays the loop's TypingError ("only tuples of one element type")."""

from taipan.decorators import njit


@njit
def literal_unroll(container):
    """The container itself: the for loop around the call does the iterating."""
    return container
