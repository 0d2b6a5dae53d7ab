"""Array methods written in Python (``overload_method`` on ``types.Array``), and the functions
that read the same attributes (``np.real``, ``np.imag``)."""

import numpy as np

from taipan import types
from taipan.extending import overload, overload_method


@overload_method(types.Array, "item")
def _item(a):
    def impl(a):
        if a.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return a.ravel()[0]

    return impl


@overload(np.real)
def _real(value):
    if isinstance(value, (types.Number, types.Boolean, types.Array)):

        def implementation(value):
            return value.real

        return implementation
    return None


@overload(np.imag)
def _imag(value):
    if isinstance(value, (types.Number, types.Boolean, types.Array)):

        def implementation(value):
            return value.imag

        return implementation
    return None
