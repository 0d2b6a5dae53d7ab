"""Array methods and attributes written in Python (``overload_method`` and
``overload_attribute`` on ``types.Array``: item, conj, conjugate, flags, ctypes, dot, nonzero,
take, ptp, itemset), and the functions that read the same attributes (``np.real``, ``np.imag``)."""

from collections import namedtuple

import numpy as np

from taipan import types
from taipan.extending import (
    intrinsic,
    overload,
    overload_attribute,
    overload_method,
    register_jitable,
)


@overload_method(types.Array, "item")
def _item(a):
    def impl(a):
        if a.size != 1:
            # Numba's message (NumPy's lacks the "item(): " prefix)
            raise ValueError("item(): can only convert an array of size 1 to a Python scalar")
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


# a.conj() and a.conjugate(): NumPy returns a real array itself, and a new array of the
# conjugates of a complex one.


def _conjugate_method(a):
    if not isinstance(a, types.Array):
        return None
    if isinstance(a.dtype, types.Complex):

        def conjugates(a):
            return np.conjugate(a)

        return conjugates

    def itself(a):
        return a

    return itself


@overload_method(types.Array, "conj")
def _conj(a):
    return _conjugate_method(a)


@overload_method(types.Array, "conjugate")
def _conjugate(a):
    return _conjugate_method(a)


# a.flags: the memory-order flags NumPy reports, decided at run time for views (NumPy's rule:
# axes of extent 1 do not count, and an empty array is both C- and F-contiguous). writeable
# follows the type (a read-only global or view is not); taipan's arrays are always aligned.
ArrayFlags = namedtuple(
    "ArrayFlags", ["c_contiguous", "f_contiguous", "contiguous", "writeable", "aligned"]
)


@register_jitable
def _is_contiguous(shape, strides, itemsize, fortran):
    ndim = len(shape)
    for axis in range(ndim):
        if shape[axis] == 0:
            return True
    expected = itemsize
    for position in range(ndim):
        axis = position if fortran else ndim - 1 - position
        extent = shape[axis]
        if extent != 1:
            if strides[axis] != expected:
                return False
            expected *= extent
    return True


@overload_attribute(types.Array, "flags")
def _flags(a):
    writeable = not a.readonly
    if a.ndim == 0:

        def scalar_flags(a):
            return ArrayFlags(True, True, True, writeable, True)

        return scalar_flags

    def flags(a):
        c_contiguous = _is_contiguous(a.shape, a.strides, a.itemsize, False)
        f_contiguous = _is_contiguous(a.shape, a.strides, a.itemsize, True)
        return ArrayFlags(c_contiguous, f_contiguous, c_contiguous, writeable, True)

    return flags


# a.ctypes: Numba's ArrayCTypes, of which compiled code reads the address of the first item
# (`a.ctypes.data`, an integer, as NumPy's; what ctypes functions take for a void pointer).
ArrayCTypes = namedtuple("ArrayCTypes", ["data"])


@intrinsic
def _first_item_address(typingctx, a):
    def codegen(context, builder, signature, arguments):
        array = context.make_array(signature.args[0])(context, builder, arguments[0])
        return builder.ptrtoint(array.data, context.get_value_type(signature.return_type))

    return types.uintp(a), codegen


@overload_attribute(types.Array, "ctypes")
def _ctypes(a):
    def ctypes(a):
        return ArrayCTypes(_first_item_address(a))

    return ctypes


# a.dot(b), a.nonzero() and a.take(indices): NumPy's methods are its functions of the array.


@overload_method(types.Array, "dot")
def _dot(a, b):
    def dot(a, b):
        return np.dot(a, b)

    return dot


@overload_method(types.Array, "nonzero")
def _nonzero(a):
    def nonzero(a):
        return np.nonzero(a)

    return nonzero


@overload_method(types.Array, "take")
def _take(a, indices, axis=None):
    def take(a, indices, axis=None):
        return np.take(a, indices, axis)

    return take


@overload_method(types.Array, "ptp")
def _ptp_method(a):
    # Numba's page lists a.ptp() (NumPy 2 dropped the method; np.ptp remains).
    return lambda a: np.ptp(a)


@overload_method(types.Array, "itemset")
def _itemset(a, value):
    # The one-argument form of NumPy 1's a.itemset (Numba's): a size-1 array's item.
    def impl(a, value):
        if a.size != 1:
            raise ValueError("itemset(): can only set an item of an array of size 1")
        a.flat[0] = value

    return impl
