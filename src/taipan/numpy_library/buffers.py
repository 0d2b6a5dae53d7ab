"""np.frombuffer: a 1-D view of another array's bytes, or of a bytes value made in compiled code
(``a.tobytes()``: a read-only view, as NumPy's of an immutable buffer; a Python bytes, bytearray
or memoryview argument is not typed), with NumPy's count and offset rules and messages. The
result is a view: it keeps the buffer alive and writes through to it."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.bytes_values import BytesType, bytes_data
from taipan.numpy_library.support import is_integer, is_none, scalar_class, string_value


def _frombuffer_dtype(dtype):
    """NumPy's scalar class for np.frombuffer's dtype argument (absent: float64), or raises
    Numba's TypingError."""
    if is_none(dtype):
        return np.float64
    text = string_value(dtype)
    if text is not None:
        try:
            return scalar_class(text)
        except TypeError:
            raise TypingError(f"Invalid NumPy dtype specified: '{text}'") from None
    if isinstance(dtype, types.UnicodeType):
        raise TypingError("If np.frombuffer dtype is a string it must be a string constant.")
    if isinstance(dtype, types.NumberClass):  # np.float32, np.dtype('f4'), a.dtype
        return scalar_class(dtype.dtype.name)
    raise TypingError(f"np.frombuffer: {dtype} is not a dtype")


@register_jitable
def _bytes_of(buffer):
    # NumPy's buffer protocol hands out C-contiguous memory only (an F array or a strided view
    # raises there too).
    if not buffer.flags.c_contiguous:
        raise ValueError("ndarray is not C-contiguous")
    return buffer.reshape(-1).view(np.uint8)


@register_jitable
def _items_in(size, itemsize, count, offset):
    """How many items of `itemsize` bytes np.frombuffer reads from `size` bytes."""
    if offset < 0 or offset > size:
        raise ValueError(
            "offset must be non-negative and no greater than buffer length (" + str(size) + ")"
        )
    available = size - offset
    if count < 0:
        if available % itemsize != 0:
            raise ValueError("buffer size must be a multiple of element size")
        return available // itemsize
    if available < count * itemsize:
        raise ValueError("buffer is smaller than requested size")
    return count


def _items_read(dtype, count, offset, like):
    """The scalar class np.frombuffer reads and its size in bytes, checking the keywords'
    types (None where ``like`` is given: not supported)."""
    scalar = _frombuffer_dtype(None if dtype is float else dtype)
    if not (is_integer(count) and is_integer(offset)):
        raise TypingError("np.frombuffer: count and offset must be integers")
    if not is_none(like):
        return None
    return scalar, np.dtype(scalar).itemsize


@overload(np.frombuffer)
def _frombuffer(buffer, dtype=float, count=-1, offset=0, like=None):
    if isinstance(buffer, BytesType):
        return _frombuffer_of_bytes(dtype, count, offset, like)
    if not isinstance(buffer, types.Array):
        raise TypingError(
            'Argument "buffer" must be buffer-like (compiled code takes an array as a buffer)'
        )
    if isinstance(buffer.dtype, types.Record):
        return None
    items = _items_read(dtype, count, offset, like)
    if items is None:
        return None
    scalar, itemsize = items

    def frombuffer(buffer, dtype=float, count=-1, offset=0, like=None):
        raw = _bytes_of(buffer)
        n = _items_in(raw.size, itemsize, count, offset)
        return raw[offset : offset + n * itemsize].view(scalar)

    return frombuffer


def _frombuffer_of_bytes(dtype, count, offset, like):
    """np.frombuffer of a bytes value (``a.tobytes()``): a read-only view of its bytes, as
    NumPy's view of an immutable buffer."""
    items = _items_read(dtype, count, offset, like)
    if items is None:
        return None
    scalar, itemsize = items

    def frombuffer(buffer, dtype=float, count=-1, offset=0, like=None):
        raw = bytes_data(buffer)
        n = _items_in(raw.size, itemsize, count, offset)
        items = raw[offset : offset + n * itemsize].view(scalar)
        return np.broadcast_to(items, items.shape)  # read-only, as NumPy's

    return frombuffer
