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


def _real_part(value):
    return value.real


def _imaginary_part(value):
    return value.imag


def _part(value, implementation):
    if isinstance(value, (types.Number, types.Boolean, types.Array)):
        return implementation
    return None


@overload(np.real)
def _real(value):
    return _part(value, _real_part)


@overload(np.imag)
def _imag(value):
    return _part(value, _imaginary_part)
