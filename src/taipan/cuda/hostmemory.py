"""Host memory the GPU reaches quickly or directly: pinned arrays (asynchronous copies),
mapped and managed arrays (kernels use them in place), and cuda.pinned() for existing arrays."""

import contextlib
import ctypes

import numpy as np

from taipan.cuda import api, driver
from taipan.cuda.devicearray import array_interface


def _extent_bytes(shape, strides, itemsize):
    if any(extent == 0 for extent in shape):
        return 0
    if strides is None:
        return int(np.prod(shape, dtype=np.int64)) * itemsize
    return sum((extent - 1) * abs(stride) for extent, stride in zip(shape, strides)) + itemsize


def _host_array(kind, shape, dtype, strides, order, array_type=np.ndarray, stream=0):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    dtype = np.dtype(dtype)
    nbytes = _extent_bytes(shape, strides, dtype.itemsize)
    core = driver._driver()
    if kind == "managed":
        free, _ = core.cuda_memory_info()
        if nbytes > free:
            raise MemoryError(
                f"managed_array of {nbytes} bytes is more than the GPU's {free} free bytes"
            )
    allocation = core.cuda_allocate_host(nbytes, kind)
    if nbytes == 0:
        array = np.ndarray(shape, dtype, order=order).view(array_type)
    else:
        memory = (ctypes.c_ubyte * nbytes).from_address(allocation.pointer)
        memory.allocation = allocation  # freed with the last array that uses it
        array = array_type(shape, dtype, buffer=memory, strides=strides, order=order)
    if array_type is MappedNDArray:
        array._allocation = allocation
        array._stream = stream
    return array


class MappedNDArray(np.ndarray):
    """A NumPy array in mapped or managed memory: the host and kernels use the same bytes."""

    def __array_finalize__(self, source):
        self._allocation = getattr(source, "_allocation", None)
        # The stream it was made on, which its interface names to consumers.
        self._stream = getattr(source, "_stream", 0)

    @property
    def __cuda_array_interface__(self):
        # Results of NumPy operations inherit the class but not the memory: only arrays whose
        # bytes lie in the allocation are device memory.
        allocation = self._allocation
        offset = self.ctypes.data - allocation.pointer if allocation is not None else -1
        if not 0 <= offset <= allocation.size:
            raise AttributeError("this array is not in mapped memory")
        return array_interface(
            self.shape, self.strides, self.dtype, allocation.device_pointer + offset, self._stream
        )


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """An uninitialised NumPy array in page-locked memory: copies from and to it are
    asynchronous on a stream."""
    return _host_array("pinned", shape, dtype, strides, order)


def mapped_array(
    shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False
):
    """An uninitialised array in page-locked memory that kernels read and write in place."""
    return _host_array("mapped", shape, dtype, strides, order, MappedNDArray, stream)


def pinned_array_like(ary):
    """pinned_array() with the shape, dtype and layout of `ary`."""
    strides, order = api.layout_like(ary)
    return pinned_array(ary.shape, ary.dtype, strides=strides, order=order)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """mapped_array() with the shape, dtype and layout of `ary`."""
    strides, order = api.layout_like(ary)
    return mapped_array(ary.shape, ary.dtype, strides, order, stream, portable, wc)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """An uninitialised array in managed memory, migrated between host and GPU on use. It may
    not exceed the GPU's free memory."""
    return _host_array("managed", shape, dtype, strides, order, MappedNDArray, stream)


@contextlib.contextmanager
def mapped(*arrays, stream=0):
    """Page-locks existing arrays and maps them into the device's address space for the block,
    giving device arrays (one, or a list) that kernels use in place; the memory is unregistered
    when the block ends, however it ends, so the arrays can be mapped again at once."""
    from taipan.cuda.devicearray import DeviceNDArray
    from taipan.cuda.devices import current_context

    context = current_context()
    memories, views = [], []
    try:
        for array in arrays:
            if not array.flags.c_contiguous and not array.flags.f_contiguous:
                raise ValueError("cuda.mapped needs contiguous arrays")
            memory = context.mempin(array, array.ctypes.data, array.nbytes, mapped=True)
            memories.append(memory)
            views.append(DeviceNDArray(array.shape, array.strides, array.dtype, memory, 0, stream))
        yield views[0] if len(views) == 1 else views
    finally:
        for memory in memories:
            memory.free()


@contextlib.contextmanager
def pinned(*arrays):
    """Page-locks existing arrays for the block, so copies from and to them are asynchronous."""
    core = driver._driver()
    registered = []
    try:
        for array in arrays:
            if not array.flags.c_contiguous and not array.flags.f_contiguous:
                raise ValueError("cuda.pinned needs contiguous arrays")
            if array.nbytes:
                core.cuda_register_host(array.ctypes.data, array.nbytes)
                registered.append(array.ctypes.data)
        yield
    finally:
        for pointer in registered:
            core.cuda_unregister_host(pointer)
