"""The device-array front both backends' ``DeviceNDArray`` share: layout questions, reshapes,
views (``view``, ``split``, ``bind``), transposes, the checks of indices, copies and
assignments, and the text of its repr. A backend's class keeps the memory (GPU memory through
the driver, or a NumPy array in the simulator) and supplies ``shape``, ``strides``, ``dtype``,
``size``, ``ndim``, ``stream``, ``device_ctypes_pointer``, ``_derived(shape, strides, dtype,
byte_offset, stream)`` (a view of the same memory), ``_contiguous_copy()`` (a new C-contiguous
array of the same elements), ``_write(host, stream)`` (host elements into this layout, whatever
it is) and ``_copy_from_device(other, stream)`` (a device-to-device copy of the same layout)."""

import copy
import math

import numpy as np


def c_strides(shape, itemsize):
    """The byte strides of a C-contiguous array of `shape`."""
    strides = []
    step = itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def basic_index(key, ndim):
    """`key` as a tuple of index items, with the checks of basic indexing (one ellipsis at
    most, no more indices than dimensions) both backends make; the items' kinds are checked
    as each backend reads them (see bad_index_item). Returns (items, how many name an axis)."""
    items = key if isinstance(key, tuple) else (key,)
    if sum(k is Ellipsis for k in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    named = sum(k is not None and k is not Ellipsis for k in items)
    if named > ndim:
        raise IndexError(
            f"too many indices for device array: it is {ndim}-dimensional, but {named} were indexed"
        )
    return items, named


def bad_index_item(item):
    """The error for an index item that is not an int, slice, '...' or None."""
    return IndexError(
        f"device arrays take integers, slices, '...' and None as indices, not {type(item).__name__}"
    )


def host_operand(ary, dtype, shape):
    """A host array for ``copy_to_device``: `ary` as `dtype`, broadcast to `shape`."""
    host = np.asarray(ary, dtype=dtype)
    if host.shape != shape:
        try:
            host = np.broadcast_to(host, shape)
        except ValueError:
            raise ValueError(f"shape mismatch: {host.shape} into {shape}") from None
    return host


def contiguity(shape, strides, itemsize):
    """NumPy's contiguity flags of a layout: extents of 1 do not count; an empty array is
    contiguous both ways; a broadcast one (a stride 0) neither."""
    if not shape or math.prod(shape) == 0:
        return {"C_CONTIGUOUS": True, "F_CONTIGUOUS": True}
    if any(stride == 0 for stride in strides):
        return {"C_CONTIGUOUS": False, "F_CONTIGUOUS": False}

    def packed(order):
        expected = itemsize
        for extent, stride in order:
            if extent != 1 and stride != expected:
                return False
            expected *= extent
        return True

    dims = list(zip(shape, strides))
    return {"C_CONTIGUOUS": packed(reversed(dims)), "F_CONTIGUOUS": packed(dims)}


# numba-cuda's text, which its tests compare with.
errmsg_contiguous_buffer = (
    "Array contains non-contiguous buffer and cannot "
    "be transferred as a single memory region. Please "
    "ensure contiguous buffer with numpy "
    ".ascontiguousarray()"
)


def is_contiguous(ary):
    """Whether `ary` (a NumPy or device array) is C-contiguous once its broadcast axes (stride
    0) and axes of length 1 are left out: its memory is then one run of bytes."""
    size = ary.dtype.itemsize
    for extent, stride in zip(reversed(ary.shape), reversed(ary.strides)):
        if extent > 1 and stride != 0:
            if stride != size:
                return False
            size *= extent
    return True


def array_core(ary):
    """The view of `ary` without its broadcast axes (each taken at index 0): the memory a
    broadcast array really has, whose contiguity decides whether it can be copied at once."""
    if not ary.strides or not ary.size:
        return ary
    return ary[tuple(0 if stride == 0 else slice(None) for stride in ary.strides)]


def sentry_contiguous(ary):
    """Refuses an array whose memory (without broadcast axes) is not one C or F run."""
    core = array_core(ary)
    if not core.flags["C_CONTIGUOUS"] and not core.flags["F_CONTIGUOUS"]:
        raise ValueError(errmsg_contiguous_buffer)


def _squeezed(shape, strides):
    kept = [(extent, stride) for extent, stride in zip(shape, strides) if extent != 1]
    return tuple(e for e, _ in kept), tuple(s for _, s in kept)


def check_array_compatibility(ary1, ary2):
    """Refuses a memory copy between arrays of other dtypes, shapes or layouts (axes of length
    1 left out), with numba-cuda's messages."""
    if ary1.dtype != ary2.dtype:
        raise TypeError(f"incompatible dtype: {ary1.dtype} vs. {ary2.dtype}")
    shape1, strides1 = _squeezed(ary1.shape, ary1.strides)
    shape2, strides2 = _squeezed(ary2.shape, ary2.strides)
    if shape1 != shape2:
        raise ValueError(f"incompatible shape: {ary1.shape} vs. {ary2.shape}")
    if math.prod(ary1.shape) and strides1 != strides2:
        raise ValueError(f"incompatible strides: {ary1.strides} vs. {ary2.strides}")


def assignment_operand(value, dtype, shape):
    """The host array `device[key] = value` writes into a view of `shape`: `value` as `dtype`,
    broadcast by numba-cuda's rules (no more dimensions than the view; each axis of the value 1
    or the view's), refused with numba-cuda's messages."""
    host = np.asarray(value, dtype=dtype)
    if host.ndim > len(shape):
        raise ValueError(f"Can't assign {host.ndim}-D array to {len(shape)}-D self")
    padded = (1,) * (len(shape) - host.ndim) + host.shape
    for axis, (extent, given) in enumerate(zip(shape, padded)):
        if given != 1 and given != extent:
            raise ValueError(
                f"Can't copy sequence with size {given} to array axis {axis} with dimension "
                f"{extent}"
            )
    return np.broadcast_to(host.reshape(padded), shape)


def extent_bytes(shape, strides, itemsize):
    """The bytes from the lowest to one past the highest element of a layout (0 when empty)."""
    if any(extent == 0 for extent in shape):
        return 0
    return sum((extent - 1) * abs(stride) for extent, stride in zip(shape, strides)) + itemsize


class DevicePointer(int):
    """A device address as ``device_ctypes_pointer`` gives it: an int (taipan's code does
    arithmetic on it) with the ``.value`` of numba-cuda's ctypes pointer (None for null)."""

    __slots__ = ()

    @property
    def value(self):
        return int(self) or None


def refuse_masked(interface):
    """Refuses a CUDA Array Interface with a mask, which taipan does not read (as numba-cuda)."""
    if interface.get("mask") is not None:
        raise NotImplementedError(
            "Masked arrays are not supported: taipan does not read masked CUDA arrays"
        )


def is_device_array(obj):
    """Whether `obj` is a device array of either backend (it has the front's methods)."""
    return isinstance(obj, DeviceArrayFront)


def layout_like(ary):
    """(strides, order) for a new contiguous array laid out like `ary` (numba-cuda's
    *_array_like): a C or F array's own order (strides None); for a non-contiguous one,
    strides packed in the order of its strides' sizes, as NumPy's empty_like does."""
    flags = contiguity(ary.shape, ary.strides, ary.dtype.itemsize)
    order = "F" if flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"] else "C"
    if flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"] or len(ary.shape) <= 1:
        return None, order
    strides = [0] * len(ary.shape)
    stride = ary.dtype.itemsize
    for axis, _ in sorted(enumerate(ary.strides), key=lambda item: item[1]):
        strides[axis] = stride
        stride *= ary.shape[axis]
    return tuple(strides), order


class DeviceArrayFront:
    """Methods of ``DeviceNDArray`` that read only its shape, strides and dtype."""

    __slots__ = ()
    # Said after the address in the repr: which backend holds the memory.
    _REPR_SUFFIX = ""

    def __len__(self):
        return self.shape[0]

    def __array__(self, dtype=None, copy=None):
        """The array copied to the host (NumPy's protocol); never a view of device memory."""
        if copy is False:
            raise ValueError("`copy=False` is not supported. A copy is always created.")
        host = self.copy_to_host()
        return host if dtype is None else host.astype(dtype, copy=False)

    @property
    def alloc_size(self):
        """The bytes the array's elements span (numba-cuda's name)."""
        return extent_bytes(self.shape, self.strides, self.dtype.itemsize)

    @property
    def flags(self):
        """``{"C_CONTIGUOUS": ..., "F_CONTIGUOUS": ...}``, by NumPy's rules as numba-cuda's
        device arrays give them (a new dict each time)."""
        return contiguity(self.shape, self.strides, self.dtype.itemsize)

    def is_c_contiguous(self):
        return self.flags["C_CONTIGUOUS"]

    def is_f_contiguous(self):
        return self.flags["F_CONTIGUOUS"]

    def _fortran_only(self):
        return self.ndim > 1 and not self.is_c_contiguous() and self.is_f_contiguous()

    def _check_copy_target(self, ary):
        """Refuses a host array of another shape or dtype as copy_to_host's target."""
        if ary.shape != self.shape or ary.dtype != self.dtype:
            raise ValueError(
                f"copy_to_host into an array of {ary.shape} {ary.dtype}, not {self.shape} "
                f"{self.dtype}"
            )

    def reshape(self, *newshape, order="C"):
        """A view with another shape, reading the memory in `order` ('C', 'F', or 'A': F when
        the array is F-contiguous); the array must be contiguous in that order, since device
        arrays are never copied behind the user's back."""
        if len(newshape) == 1 and not isinstance(newshape[0], (int, np.integer)):
            newshape = tuple(newshape[0])
        newshape = [int(n) for n in newshape]
        if tuple(newshape) == self.shape:
            return self._derived(self.shape, self.strides)
        if newshape.count(-1) > 1 or any(n < -1 for n in newshape):
            raise ValueError("can only specify one unknown dimension")
        if -1 in newshape:
            known = math.prod(n for n in newshape if n != -1)
            if known == 0 or self.size % known:
                raise ValueError("cannot infer valid shape for unknown dimension")
            newshape[newshape.index(-1)] = self.size // known
        if math.prod(newshape) != self.size:
            raise ValueError(
                f"cannot reshape array of size {self.size} into shape {tuple(newshape)}"
            )
        order = self._contiguous_order(order)
        strides = c_strides(newshape, self.dtype.itemsize)
        if order == "F":
            strides = tuple(reversed(c_strides(tuple(reversed(newshape)), self.dtype.itemsize)))
        return self._derived(newshape, strides)

    def ravel(self, order="C", stream=0):
        """A one-dimensional view of an array contiguous in `order` (see reshape)."""
        order = self._contiguous_order(order)
        view = self._derived((self.size,), (self.dtype.itemsize,))
        view.stream = self._default_stream(stream)
        return view

    def _contiguous_order(self, order):
        """'C' or 'F' for `order` ('A': F when F-contiguous), refused when the array is not
        contiguous in that order: reading it so would need a copy."""
        if order not in ("C", "F", "A"):
            raise ValueError("order not C|F|A")
        if order == "A":
            order = "F" if self.is_f_contiguous() else "C"
        if not (self.is_c_contiguous() if order == "C" else self.is_f_contiguous()):
            raise NotImplementedError(
                f"operation requires copying: reading a device array in order {order!r} needs "
                f"it {order}-contiguous"
            )
        return order

    def _default_stream(self, stream):
        return stream if stream else self.stream

    def bind(self, stream=0):
        """A view of the whole array whose operations default to `stream`."""
        clone = copy.copy(self)
        clone.stream = stream
        return clone

    @property
    def T(self):
        return self.transpose()

    def transpose(self, axes=None):
        """The transpose of a 2-D array, as a new C-contiguous array (numba-cuda copies it; an
        identity permutation returns the array itself, of any dimension)."""
        if axes and tuple(axes) == tuple(range(self.ndim)):
            return self
        if self.ndim != 2:
            raise NotImplementedError("transposing a non-2D DeviceNDArray isn't supported")
        if axes is not None and (len(axes) != 2 or set(axes) != {0, 1}):
            raise ValueError(f"invalid axes list {axes!r}")
        flipped = self._derived(self.shape[::-1], self.strides[::-1])
        return flipped._contiguous_copy()

    def view(self, dtype):
        """The same memory read as another dtype; a dtype of another size needs a C-contiguous
        array and rescales the last axis."""
        dtype = np.dtype(dtype)
        shape, strides = list(self.shape), list(self.strides)
        if dtype.itemsize != self.dtype.itemsize:
            if not self.is_c_contiguous():
                raise ValueError(
                    "To change to a dtype of a different size, the array must be C-contiguous"
                )
            if not shape:
                raise ValueError(
                    "Changing the dtype of a 0d array is only supported if the "
                    "itemsize is unchanged"
                )
            shape[-1], remainder = divmod(shape[-1] * self.dtype.itemsize, dtype.itemsize)
            if remainder:
                raise ValueError(
                    "When changing to a larger dtype, its size must be a divisor of the total "
                    "size in bytes of the last axis of the array."
                )
            strides[-1] = dtype.itemsize
        return self._derived(shape, strides, dtype)

    def split(self, section, stream=0):
        """Views of consecutive pieces of `section` elements of a 1-D array of unit stride (the
        last may be shorter), a generator as in numba-cuda."""
        stream = self._default_stream(stream)
        if self.ndim != 1:
            raise ValueError("only support 1d array")
        if self.strides[0] != self.dtype.itemsize:
            raise ValueError("only support unit stride")
        itemsize = self.dtype.itemsize
        for begin in range(0, self.size, section):
            end = min(begin + section, self.size)
            yield self._derived((end - begin,), self.strides, None, begin * itemsize, stream)

    @property
    def _numba_type_(self):
        """The array type kernels see this array as: 'C' or 'F' when contiguous (C preferred
        when both), 'A' when neither or broadcast."""
        from taipan import types
        from taipan.typeof import from_dtype

        broadcast = 0 in self.strides and self.size != 0
        flags = self.flags
        if flags["C_CONTIGUOUS"] and not broadcast:
            layout = "C"
        elif flags["F_CONTIGUOUS"] and not broadcast:
            layout = "F"
        else:
            layout = "A"
        return types.Array(from_dtype(self.dtype), self.ndim, layout)

    def copy_to_device(self, ary, stream=0):
        """Copies `ary` into this array, which must be one run of memory: a host array of the
        same shape (or one that broadcasts to it), or a device array of the same layout."""
        stream = self._default_stream(stream)
        if is_device_array(ary) or (
            not isinstance(ary, np.ndarray) and hasattr(ary, "__cuda_array_interface__")
        ):
            if ary.size == 0:
                return
            sentry_contiguous(self)
            sentry_contiguous(ary)
            check_array_compatibility(array_core(self), array_core(ary))
            self._copy_from_device(ary, stream)
            return
        host = host_operand(ary, self.dtype, self.shape)
        if host.size == 0:
            return
        sentry_contiguous(self)
        self._write(host, stream)

    def getitem(self, key, stream=0):
        """``self[key]``, the view defaulting to `stream`."""
        found = self[key]
        if is_device_array(found):
            found.stream = self._default_stream(stream)
        return found

    def __setitem__(self, key, value):
        self.setitem(key, value)

    def setitem(self, key, value, stream=0):
        """``self[key] = value`` on `stream`; without one (given or bound), the default stream,
        synchronized before returning."""
        stream = self._default_stream(stream)
        view = self._element_view(key)
        if is_device_array(value):
            value = value.copy_to_host(stream=stream)
        host = assignment_operand(value, self.dtype, view.shape)
        view._write(host, stream)
        if not stream:
            self._synchronize_default_stream()

    def __repr__(self):
        return (
            f"<taipan DeviceNDArray shape={self.shape} dtype={self.dtype} "
            f"at {self.device_ctypes_pointer:#x}{self._REPR_SUFFIX}>"
        )

    __str__ = __repr__
