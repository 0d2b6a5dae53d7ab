"""Device arrays in the simulator: NumPy arrays standing for GPU memory, with the API of
taipan's DeviceNDArray (copies to and from the host, views, reshapes). A launch hands kernels
the NumPy array itself, so element accesses in a kernel cost what NumPy's do."""

import contextlib
import math
import os
import weakref

import numpy as np

from taipan.cuda import api

# The simulated device's memory is the host's: its size is the host's physical memory, and
# what simulator arrays hold is what is not free. Each allocation is registered by address, so
# that an object exporting __cuda_array_interface__ that points into one (a view another
# library made of a simulated array) can be read; other pointers are GPU memory the simulator
# cannot reach.
_allocations = {}  # address: (bytes, weak reference to the NumPy array owning them)
_used = [0]


def total_memory():
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def free_memory():
    return max(0, total_memory() - _used[0])


def _forget(address, nbytes, counted):
    _allocations.pop(address, None)
    if counted:
        _used[0] -= nbytes


def _register(array, counted=True):
    """Records `array`'s memory as simulated device memory (counted against free memory
    unless it is mapped host memory) until the array is collected."""
    nbytes = array.nbytes
    if nbytes:
        address = array.ctypes.data
        _allocations[address] = (nbytes, weakref.ref(array))
        if counted:
            _used[0] += nbytes
        weakref.finalize(array, _forget, address, nbytes, counted)
    return array


def _allocate(shape, dtype, order="C"):
    return _register(np.empty(shape, dtype, order=order))


def view_of_interface(obj):
    """The NumPy array that `obj`'s __cuda_array_interface__ describes, when its memory lies in
    a simulated allocation; None otherwise."""
    interface = obj.__cuda_array_interface__
    dtype = np.dtype(interface["typestr"])
    shape = tuple(interface["shape"])
    strides = interface.get("strides")
    pointer = int(interface["data"][0])
    extent = _extent_bytes(shape, strides, dtype.itemsize)
    low = pointer + sum(
        (extent_ - 1) * stride for extent_, stride in zip(shape, strides or ()) if stride < 0
    )
    for address, (nbytes, owner) in list(_allocations.items()):
        if address <= low and low + extent <= address + nbytes:
            base = owner()
            if base is None:
                break
            flat = (base if base.flags.c_contiguous else base.T).reshape(-1).view(np.uint8)
            return np.ndarray(shape, dtype, flat, pointer - address, strides)
    return None


class DeviceNDArray(api.DeviceArrayFront):
    """An array in (simulated) GPU memory: a NumPy array the host reaches only through copies,
    as it would a GPU's."""

    __slots__ = ("__weakref__", "_array", "stream")
    _REPR_SUFFIX = " (CUDA simulator)"

    def __init__(self, shape, strides, dtype, buffer=None, offset=0, stream=0):
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
        dtype = np.dtype(dtype)
        if buffer is None:
            extent = _extent_bytes(shape, strides, dtype.itemsize)
            buffer = _allocate(extent + offset, np.uint8)
        self._array = np.ndarray(shape, dtype, buffer, offset, strides)
        self.stream = stream

    @classmethod
    def _wrap(cls, array, stream=0):
        self = cls.__new__(cls)
        self._array = array
        self.stream = stream
        return self

    shape = property(lambda self: self._array.shape)
    strides = property(lambda self: self._array.strides)
    dtype = property(lambda self: self._array.dtype)
    size = property(lambda self: self._array.size)
    ndim = property(lambda self: self._array.ndim)
    nbytes = property(lambda self: self._array.nbytes)

    @property
    def device_ctypes_pointer(self):
        """The address of the first element (host memory, in the simulator)."""
        return api.devicearray.DevicePointer(self._array.ctypes.data)

    @property
    def device_id(self):
        return 0

    def copy_to_host(self, ary=None, stream=0):
        """The data as a NumPy array (into `ary` when given)."""
        if ary is None:
            return np.array(self._array, order="F" if self._fortran_only() else "C")
        self._check_copy_target(ary)
        ary[...] = self._array
        return ary

    def _write(self, host, stream=0):
        self._array[...] = host

    def _copy_from_device(self, other, stream=0):
        self._array[...] = (
            other._array if isinstance(other, DeviceNDArray) else foreign_array(other)
        )

    def _synchronize_default_stream(self):
        pass  # the simulator's work is done when it returns

    def _contiguous_copy(self):
        return DeviceNDArray._wrap(_register(np.array(self._array, order="C")), self.stream)

    def __getitem__(self, key):
        view = self._array[_basic_index(key, self.ndim)]
        if isinstance(view, np.ndarray) and view.ndim:
            return DeviceNDArray._wrap(view, self.stream)
        return view[()] if isinstance(view, np.ndarray) else view

    def _element_view(self, key):
        """The view `self[key]` names, 0-dimensional for an element."""
        items = key if isinstance(key, tuple) else (key,)
        _basic_index(items, self.ndim)
        if Ellipsis not in items:
            items = (*items, Ellipsis)
        return DeviceNDArray._wrap(self._array[items], self.stream)

    def _derived(self, shape, strides, dtype=None, byte_offset=0, stream=None):
        """A view of this array's memory from `byte_offset` bytes after its first element."""
        memory, start = _memory_of(self._array)
        view = np.ndarray(
            tuple(shape),
            self.dtype if dtype is None else dtype,
            memory,
            start + byte_offset,
            tuple(strides),
        )
        return DeviceNDArray._wrap(view, self.stream if stream is None else stream)


def _memory_of(array):
    """(the bytes of the allocation `array` views, the offset of its first element in them)."""
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not (root.flags.c_contiguous or root.flags.f_contiguous):
        raise NotImplementedError("a view of memory that is not one allocation of the simulator")
    memory = root.reshape(-1, order="A").view(np.uint8)
    return memory, array.ctypes.data - root.ctypes.data


def _basic_index(key, ndim):
    """`key` when it is basic indexing (ints, slices, '...' and None), as device arrays take."""
    items, _ = api.devicearray.basic_index(key, ndim)
    for item in items:
        if not (
            item is None or item is Ellipsis or isinstance(item, (slice, int, np.integer))
        ) or isinstance(item, bool):
            raise api.devicearray.bad_index_item(item)
    return key


def _extent_bytes(shape, strides, itemsize):
    if any(extent == 0 for extent in shape):
        return 0
    if strides is None:
        return math.prod(shape) * itemsize
    return sum((extent - 1) * abs(stride) for extent, stride in zip(shape, strides)) + itemsize


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """Uninitialised (simulated) device memory for an array of `shape`."""
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    dtype = np.dtype(dtype)
    if strides is None:
        return DeviceNDArray._wrap(_allocate(shape, dtype, "F" if order == "F" else "C"), stream)
    return DeviceNDArray(shape, strides, dtype, stream=stream)


def device_array_like(ary, stream=0):
    strides, order = api.layout_like(ary)
    return device_array(ary.shape, ary.dtype, strides=strides, order=order, stream=stream)


def to_device(ary, stream=0, copy=True, to=None):
    """A (simulated) device copy of a host array (C-contiguous)."""
    if to is not None:
        if copy:
            to.copy_to_device(ary, stream=stream)
        return to
    host = np.asarray(ary)
    order = (
        "F" if host.ndim > 1 and host.flags.f_contiguous and not host.flags.c_contiguous else "C"
    )
    if not copy:
        return DeviceNDArray._wrap(_allocate(host.shape, host.dtype, order), stream)
    return DeviceNDArray._wrap(_register(np.array(host, order=order, copy=True)), stream)


# --- host memory: plain NumPy arrays, which kernels use in place ---------------------------------


class MappedNDArray(np.ndarray):
    """A NumPy array that kernels read and write in place (mapped or managed memory). Its
    __cuda_array_interface__ names its host address, as mapped memory's device address is
    under unified addressing; results of NumPy operations are ordinary host memory."""

    def __array_finalize__(self, source):
        self._allocation = getattr(source, "_allocation", None)

    @property
    def __cuda_array_interface__(self):
        allocation = self._allocation
        offset = self.ctypes.data - allocation.ctypes.data if allocation is not None else -1
        if not 0 <= offset <= allocation.nbytes:
            raise AttributeError("this array is not in mapped memory")
        return {
            "shape": self.shape,
            "strides": None if self.flags.c_contiguous else self.strides,
            "typestr": self.dtype.str,
            "data": (self.ctypes.data, False),
            "version": 3,
            "stream": None,
        }


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """An uninitialised NumPy array (page-locked memory has no meaning in the simulator)."""
    return _host_array(shape, dtype, strides, order, np.ndarray)


def mapped_array(
    shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False
):
    """An uninitialised array that kernels use in place."""
    return _host_array(shape, dtype, strides, order, MappedNDArray)


def pinned_array_like(ary):
    """pinned_array() with the shape, dtype and layout of `ary`."""
    strides, order = api.layout_like(ary)
    return pinned_array(ary.shape, ary.dtype, strides=strides, order=order)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """mapped_array() with the shape, dtype and layout of `ary`."""
    strides, order = api.layout_like(ary)
    return mapped_array(ary.shape, ary.dtype, strides, order, stream, portable, wc)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """An uninitialised array that kernels use in place. It may not exceed the simulated
    device's free memory."""
    return _host_array(shape, dtype, strides, order, MappedNDArray, managed=True)


def _host_array(shape, dtype, strides, order, array_type, managed=False):
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    dtype = np.dtype(dtype)
    nbytes = _extent_bytes(shape, strides, dtype.itemsize)
    if managed and nbytes > free_memory():
        raise MemoryError(
            f"managed_array of {nbytes} bytes is more than the GPU's {free_memory()} free bytes"
        )
    buffer = np.empty(nbytes, np.uint8)
    array = np.ndarray(shape, dtype, buffer, 0, strides, order).view(array_type)
    if array_type is MappedNDArray:
        _register(buffer, counted=managed)
        array._allocation = buffer
    return array


@contextlib.contextmanager
def mapped(*arrays, stream=0):
    """Device arrays using the given host arrays' memory in place for the block (one array, or
    a list of them)."""
    views = [DeviceNDArray._wrap(array, stream) for array in arrays]
    yield views[0] if len(views) == 1 else views


@contextlib.contextmanager
def pinned(*arrays):
    """Page-locks nothing: copies in the simulator are plain memory copies."""
    for array in arrays:
        if not array.flags.c_contiguous and not array.flags.f_contiguous:
            raise ValueError("cuda.pinned needs contiguous arrays")
    yield


# --- interoperability ---------------------------------------------------------------------------


def is_cuda_array(obj):
    """Whether `obj` is a (simulated) device array or exports the CUDA Array Interface."""
    return isinstance(obj, DeviceNDArray) or hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj, sync=True):
    """A device array viewing an object that exports the CUDA Array Interface, when that names
    simulated memory (a simulated array is returned as it is)."""
    if isinstance(obj, DeviceNDArray):
        return obj
    if not hasattr(obj, "__cuda_array_interface__"):
        raise TypeError(f"{type(obj).__name__} does not export __cuda_array_interface__")
    api.devicearray.refuse_masked(obj.__cuda_array_interface__)
    return DeviceNDArray._wrap(foreign_array(obj))


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A device array viewing the (simulated) memory a CUDA Array Interface dict describes."""
    api.devicearray.refuse_masked(desc)
    exported = type("Exported", (), {"__cuda_array_interface__": desc})()
    return DeviceNDArray._wrap(foreign_array(exported))


def foreign_array(obj):
    """The NumPy array behind an object exporting __cuda_array_interface__, which must name
    memory of the simulator: GPU memory of other libraries cannot be read."""
    array = view_of_interface(obj)
    if array is None:
        raise TypeError(
            f"the CUDA simulator cannot read GPU memory of other libraries "
            f"({type(obj).__name__}): copy it to the host and use cuda.to_device"
        )
    return array


def from_dlpack(obj):
    """A device array viewing a DLPack tensor in host memory (the simulator's device memory)."""
    return DeviceNDArray._wrap(np.from_dlpack(obj))
