"""Array methods written in Python (``overload_method`` on ``types.Array``)."""

from taipan import types
from taipan.extending import overload_method


@overload_method(types.Array, "item")
def _item(a):
    def impl(a):
        if a.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return a.ravel()[0]

    return impl
