"""Device arrays (``cuda.to_device``, ``device_array``): views of device memory, copies between
host and device, and their export through the CUDA Array Interface and DLPack."""

import math

import numpy as np

from taipan import _core
from taipan.cuda.streams import owned_stream, stream_handle, wait_for_producer

# DLPack's device and type codes.
DLPACK_CUDA, DLPACK_CUDA_HOST, DLPACK_CUDA_MANAGED = 2, 3, 13
_DLPACK_KINDS = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


def c_strides(shape, itemsize):
    strides = []
    step = itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


_array_types = {}


def _array_type(dtype, ndim, layout, readonly):
    """The kernel argument type of an array, remembered: device arrays are made often."""
    key = (dtype, ndim, layout, readonly)
    found = _array_types.get(key)
    if found is None:
        if dtype.fields is not None:  # arrays of records: the same lowering as on the CPU
            element = _core.record_type(dtype)
            found = _core.array_type_of(element, ndim, layout, readonly)
        else:
            found = _core.array_type(str(dtype), ndim, layout, readonly)
        _array_types[key] = found
    return found


def array_interface(shape, strides, dtype, pointer, stream=0):
    """The __cuda_array_interface__ (version 3) of memory kernels can use at `pointer`."""
    contiguous = tuple(strides) == c_strides(shape, dtype.itemsize)
    return {
        "shape": tuple(shape),
        "strides": None if contiguous else tuple(strides),
        "typestr": dtype.str,
        "data": (pointer, False),
        "version": 3,
        "stream": stream_handle(stream) or None,  # 0 is not allowed: it is ambiguous
    }


class DeviceNDArray:
    """An array in GPU memory, freed when the object is collected."""

    def __init__(self, shape, strides, dtype, buffer, offset=0, stream=0):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.strides = (
            tuple(strides) if strides is not None else c_strides(self.shape, self.dtype.itemsize)
        )
        self._buffer = buffer  # DeviceBuffer, shared by views
        self._offset = offset
        self.stream = stream  # the stream it was made on; consumers of its interface wait on it
        self._kernel_type = None
        # What a kernel launch reads from C++: (type, pointer, shape, strides).
        kernel_type, description = self.kernel_argument()
        self._launch = (kernel_type, *description)

    @property
    def device_ctypes_pointer(self):
        return self._buffer.pointer + self._offset

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def __len__(self):
        return self.shape[0]

    def kernel_argument(self):
        """(type, (pointer, shape, strides)) as kernel launches pass it; computed once."""
        if self._kernel_type is None:
            layout = "C" if self.is_c_contiguous() else "A"
            self._kernel_type = _array_type(self.dtype, self.ndim, layout, False)
            self._description = (self.device_ctypes_pointer, self.shape, self.strides)
        return self._kernel_type, self._description

    def is_c_contiguous(self):
        return self.strides == c_strides(self.shape, self.dtype.itemsize)

    @property
    def __cuda_array_interface__(self):
        return array_interface(
            self.shape, self.strides, self.dtype, self.device_ctypes_pointer, self.stream
        )

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("taipan device arrays export without copying only")
        return dlpack_capsule(self, stream)

    @property
    def device_id(self):
        """The ordinal of the GPU whose memory holds the array."""
        device = getattr(self._buffer, "device", None)
        if device is None:  # another library's memory: ask the driver
            device = self._buffer.device = _core.cuda_pointer_device(self._buffer.pointer)
        return device

    def __dlpack_device__(self):
        return (2, self.device_id)  # kDLCUDA

    def is_f_contiguous(self):
        reversed_strides = c_strides(tuple(reversed(self.shape)), self.dtype.itemsize)
        return self.strides == tuple(reversed(reversed_strides))

    def copy_to_host(self, ary=None, stream=0):
        """The data as a NumPy array (into `ary` when given); asynchronous on a stream."""
        if ary is None:
            ary = np.empty(self.shape, self.dtype, order="F" if self._fortran_only() else "C")
        if ary.shape != self.shape or ary.dtype != self.dtype:
            raise ValueError(
                f"copy_to_host into an array of {ary.shape} {ary.dtype}, not {self.shape} "
                f"{self.dtype}"
            )
        if self._fortran_only() and ary.flags.f_contiguous:
            _core.cuda_copy_to_host(ary.T, self.device_ctypes_pointer, stream_handle(stream))
        elif self.is_c_contiguous() and ary.flags.c_contiguous:
            _core.cuda_copy_to_host(ary, self.device_ctypes_pointer, stream_handle(stream))
        else:
            staging = np.empty(self.shape, self.dtype)
            runs = [(0, 0, self.size)] if self.is_c_contiguous() else self._runs()
            for offset, start, count in runs:
                _core.cuda_copy_to_host(
                    staging.reshape(-1)[start : start + count],
                    self.device_ctypes_pointer + offset,
                    stream_handle(stream),
                )
            ary[...] = staging
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copies a host array of the same shape (or one that broadcasts) into this array."""
        host = np.asarray(ary, dtype=self.dtype)
        if host.shape != self.shape:
            try:
                host = np.broadcast_to(host, self.shape)
            except ValueError:
                raise ValueError(f"shape mismatch: {host.shape} into {self.shape}") from None
        if self._fortran_only():
            host = np.asfortranarray(host)
            _core.cuda_copy_to_device(self.device_ctypes_pointer, host.T, stream_handle(stream))
            return
        host = np.ascontiguousarray(host)
        if self.is_c_contiguous():
            _core.cuda_copy_to_device(self.device_ctypes_pointer, host, stream_handle(stream))
            return
        flat = host.reshape(-1)
        for offset, start, count in self._runs():
            _core.cuda_copy_to_device(
                self.device_ctypes_pointer + offset,
                flat[start : start + count],
                stream_handle(stream),
            )

    def _fortran_only(self):
        return self.ndim > 1 and not self.is_c_contiguous() and self.is_f_contiguous()

    def _runs(self):
        """(device byte offset, first element in C order, element count) of each contiguous run
        of a strided view: rows when the last axis is dense, single elements otherwise."""
        dense_rows = self.ndim > 0 and self.strides[-1] == self.dtype.itemsize
        outer = self.shape[:-1] if dense_rows else self.shape
        count = self.shape[-1] if dense_rows else 1
        if count == 0 or 0 in outer:
            return
        for start, index in enumerate(np.ndindex(*outer)):
            offset = sum(i * stride for i, stride in zip(index, self.strides))
            yield offset, start * count, count

    # --- views and elements -------------------------------------------------------------------

    def __getitem__(self, key):
        view = self._view(key)
        if view.ndim:
            return view
        element = np.empty((), self.dtype)
        _core.cuda_copy_to_host(element, view.device_ctypes_pointer, None)
        return element[()]

    def __setitem__(self, key, value):
        self._view(key).copy_to_device(value)

    def _view(self, key):
        """The device array `self[key]` for basic indexing (ints, slices, Ellipsis, None)."""
        key = key if isinstance(key, tuple) else (key,)
        if sum(k is Ellipsis for k in key) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        named = sum(k is not None and k is not Ellipsis for k in key)
        if named > self.ndim:
            raise IndexError(
                f"too many indices for device array: it is {self.ndim}-dimensional, "
                f"but {named} were indexed"
            )
        if Ellipsis in key:
            at = key.index(Ellipsis)
            key = key[:at] + (slice(None),) * (self.ndim - named) + key[at + 1 :]
        else:
            key = key + (slice(None),) * (self.ndim - named)
        shape, strides, offset, axis = [], [], self._offset, 0
        for item in key:
            if item is None:
                shape.append(1)
                strides.append(0)
                continue
            extent, stride = self.shape[axis], self.strides[axis]
            if isinstance(item, slice):
                start, stop, step = item.indices(extent)
                shape.append(len(range(start, stop, step)))
                strides.append(stride * step)
                offset += start * stride if shape[-1] else 0
            elif isinstance(item, (int, np.integer)):
                index = int(item)
                if not -extent <= index < extent:
                    raise IndexError(
                        f"index {index} is out of bounds for axis {axis} with size {extent}"
                    )
                offset += (index % extent) * stride
            else:
                raise IndexError(
                    f"device arrays take integers, slices, '...' and None as indices, "
                    f"not {type(item).__name__}"
                )
            axis += 1
        return DeviceNDArray(shape, strides, self.dtype, self._buffer, offset, self.stream)

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
        return DeviceNDArray(newshape, None, self.dtype, self._buffer, self._offset, self.stream)

    def ravel(self, order="C"):
        """A one-dimensional view of a C-contiguous array."""
        return self.reshape(self.size, order=order)

    def __repr__(self):
        return (
            f"<taipan DeviceNDArray shape={self.shape} dtype={self.dtype} "
            f"at {self.device_ctypes_pointer:#x}>"
        )

    __str__ = __repr__


_core.cuda_set_device_array_type(DeviceNDArray)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """Uninitialised device memory for an array of `shape`."""
    if isinstance(shape, int):
        shape = (shape,)
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    if strides is None and order == "F":
        strides = tuple(reversed(c_strides(tuple(reversed(shape)), dtype.itemsize)))
    # The buffer keeps a stream taipan made, so that its release waits for the stream's work.
    # Other streams may be gone by then: cuMemFree's own wait for the device covers them.
    owner = owned_stream(stream)
    buffer = _core.cuda_allocate(nbytes, owner.handle if owner else 0, owner)
    return DeviceNDArray(shape, strides, dtype, buffer, stream=stream)


def device_array_like(ary, stream=0):
    return device_array(ary.shape, ary.dtype, stream=stream)


def to_device(ary, stream=0, copy=True, to=None):
    """A device copy of a host array (C-contiguous)."""
    host = np.ascontiguousarray(ary)
    device = to if to is not None else device_array(host.shape, host.dtype, stream=stream)
    if copy:
        device.copy_to_device(host, stream=stream)
    return device


def device_array_type(value):
    """The array type of an object exporting __cuda_array_interface__, else None."""
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is None:
        return None
    dtype = np.dtype(interface["typestr"])
    shape = tuple(interface["shape"])
    strides = interface.get("strides")
    contiguous = strides is None or tuple(strides) == c_strides(shape, dtype.itemsize)
    return _array_type(dtype, len(shape), "C" if contiguous else "A", bool(interface["data"][1]))


def dlpack_capsule(array, stream=None):
    """The DLPack capsule of a taipan device array: it keeps the array alive until consumed."""
    # The consumer names its stream (None means the legacy default, -1 that it will not wait):
    # work queued on the array's own stream is ordered before it by the rule launches use.
    if stream != -1:
        wait_for_producer(array.__cuda_array_interface__, 1 if stream is None else stream)
    dtype = array.dtype
    if dtype.kind not in _DLPACK_KINDS:
        raise TypeError(f"DLPack cannot carry {dtype}")
    strides = [s // dtype.itemsize for s in array.strides]
    return _core.dlpack_export(
        array.device_ctypes_pointer,
        list(array.shape),
        strides,
        _DLPACK_KINDS[dtype.kind],
        dtype.itemsize * 8,
        DLPACK_CUDA,
        _core.cuda_current_device(),
        array,
    )
