"""``literal_unroll`` (Numba's ``numba.literal_unroll``): the loop ``for x in
literal_unroll(t)`` iterates the tuple ``t``. A tuple of one element type loops as any tuple
does; over a tuple whose items differ in type (``(1, 'a', np.zeros(3))``), or hold constant
strings, the compiler makes one copy of the loop body per item, each typed with its item's own
type and a constant string kept literal (so ``rec[f]`` names a field). In compiled code it is
the library entry ``taipan.literal_unroll``, hence its ``__module__``."""


def literal_unroll(container):
    """The container itself: the for loop around the call does the iterating."""
    return container


literal_unroll.__module__ = "taipan"
