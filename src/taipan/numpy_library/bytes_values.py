"""``a.tobytes()`` in compiled code, as Numba has it: a value of ``Bytes(uint8, 1, C)`` (a C
copy of the array's items, raveled in C order, viewed as bytes) that has ``len``, indexing (an
item is an int of 0..255) and returns to Python as ``bytes``. Written with the extension API (a
user type holding one uint8 array, an intrinsic that builds it, a box function), as
polynomial_class.py is."""

import operator

import numpy as np

from taipan import types
from taipan.core import cgutils
from taipan.core.imputils import impl_ret_borrowed
from taipan.errors import TypingError
from taipan.extending import (
    box,
    intrinsic,
    models,
    overload,
    overload_method,
    register_model,
)

_DATA = types.Array(types.uint8, 1, "C")


class BytesType(types.Type):
    """Numba's Bytes(uint8, 1, C): an immutable run of bytes, here a C uint8 array of its own."""

    def __init__(self):
        super().__init__(name="Bytes(uint8, 1, C)")


bytes_type = BytesType()


@register_model(BytesType)
class BytesModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        models.StructModel.__init__(self, dmm, fe_type, [("data", _DATA)])


@intrinsic
def _new_bytes(typingctx, data):
    def codegen(context, builder, signature, arguments):
        value = cgutils.create_struct_proxy(signature.return_type)(context, builder)
        value.data = arguments[0]
        # the array is the caller's: the struct holds a reference of its own
        return impl_ret_borrowed(context, builder, signature.return_type, value._getvalue())

    return bytes_type(_DATA), codegen


@intrinsic
def _data_of(typingctx, value):
    if not isinstance(value, BytesType):
        return None

    def codegen(context, builder, signature, arguments):
        proxy = cgutils.create_struct_proxy(signature.args[0])(context, builder, arguments[0])
        return impl_ret_borrowed(context, builder, _DATA, proxy.data)

    return _DATA(value), codegen


@overload_method(types.Array, "tobytes")
def _array_tobytes(a):
    if isinstance(a.dtype, (types.Record, types.NPDatetime, types.NPTimedelta)):
        raise TypingError(f"a.tobytes() of an array of {a.dtype} is not supported")

    def tobytes(a):
        # flatten() is a new C copy in C order, whatever a's layout: NumPy's tobytes('C')
        return _new_bytes(a.flatten().view(np.uint8))

    return tobytes


@overload(len)
def _bytes_len(value):
    if isinstance(value, BytesType):
        return lambda value: len(_data_of(value))
    return None


@overload(operator.getitem)
def _bytes_getitem(value, index):
    if not isinstance(value, BytesType):
        return None
    if not isinstance(index, types.Integer):
        raise TypingError(f"bytes indices must be integers, not {index}")

    def getitem(value, index):
        data = _data_of(value)
        n = len(data)
        if index < -n or index >= n:
            raise IndexError("index out of range")
        return int(data[index])

    return getitem


@box(BytesType)
def _box_bytes(typ, val, c):
    """Python's bytes of the uint8 array boxed (its buffer is C-contiguous)."""
    proxy = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    data = c.box(_DATA, proxy.data)
    cls = c.pyapi.unserialize(c.pyapi.serialize_object(bytes))
    result = c.pyapi.call_function_objargs(cls, (data,))
    c.pyapi.decref(data)
    return result


def bytes_data(value):
    """The uint8 array holding a bytes value's bytes (for np.frombuffer)."""


@overload(bytes_data)
def _bytes_data(value):
    if isinstance(value, BytesType):
        return lambda value: _data_of(value)
    return None
