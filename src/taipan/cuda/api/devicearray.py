"""The device-array front both backends' ``DeviceNDArray`` share: layout questions, reshapes,
the checks of indices and copies, and the text of its repr. A backend's class keeps the
memory (GPU memory through the driver, or a NumPy array in the simulator) and supplies
``shape``, ``strides``, ``dtype``, ``size``, ``ndim``, ``device_ctypes_pointer`` and
``_reshaped(newshape)`` (a C-contiguous view of another shape)."""

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
        """A view with another shape; the array must be C-contiguous (as in Numba)."""
        if len(newshape) == 1 and not isinstance(newshape[0], int):
            newshape = tuple(newshape[0])
        if order != "C" or not self.is_c_contiguous():
            raise NotImplementedError("reshape needs a C-contiguous device array and order='C'")
        newshape = [int(n) for n in newshape]
        if newshape.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        if -1 in newshape:
            known = math.prod(n for n in newshape if n != -1)
            newshape[newshape.index(-1)] = self.size // known if known else 0
        if math.prod(newshape) != self.size:
            raise ValueError(
                f"cannot reshape array of size {self.size} into shape {tuple(newshape)}"
            )
        return self._reshaped(newshape)

    def ravel(self, order="C"):
        """A one-dimensional view of a C-contiguous array."""
        return self.reshape(self.size, order=order)

    def __repr__(self):
        return (
            f"<taipan DeviceNDArray shape={self.shape} dtype={self.dtype} "
            f"at {self.device_ctypes_pointer:#x}{self._REPR_SUFFIX}>"
        )

    __str__ = __repr__
