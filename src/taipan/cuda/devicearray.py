"""Device arrays (``cuda.to_device``, ``device_array``): views of device memory, copies between
host and device, and their export through the CUDA Array Interface and DLPack."""

import math

import numpy as np

from taipan import _core, config
from taipan.cuda import api, driver
from taipan.cuda.devices import plugin_memory_manager
from taipan.cuda.streams import (
    Stream,
    default_stream,
    owned_stream,
    stream_handle,
    wait_for_producer,
)

# DLPack's device and type codes.
DLPACK_CUDA, DLPACK_CUDA_HOST, DLPACK_CUDA_MANAGED = 2, 3, 13
_DLPACK_KINDS = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


c_strides = api.devicearray.c_strides  # here too: the launch path and ufuncs use it

_array_types = {}


def _array_type(dtype, ndim, layout, readonly):
    """The kernel argument type of an array, remembered: device arrays are made often. Keyed
    by alignedness too: NumPy's == ignores it, and an aligned record is another type."""
    key = (dtype, dtype.isalignedstruct, ndim, layout, readonly)
    found = _array_types.get(key)
    if found is None:
        if dtype.fields is not None:  # arrays of records: the same lowering as on the CPU
            element = _core.record_type(dtype)
            found = _core.array_type_of(element, ndim, layout, readonly)
        elif dtype.kind in "mM" and np.datetime_data(dtype)[1] == 1:
            # datetime64/timedelta64[unit]: int64 counts of one unit (not of 10 ms)
            unit = np.datetime_data(dtype)[0]
            element = _core.datetime_type(dtype.kind == "M", "" if unit == "generic" else unit)
            found = _core.array_type_of(element, ndim, layout, readonly)
        else:
            found = _core.array_type(str(dtype), ndim, layout, readonly)
        _array_types[key] = found
    return found


class MemoryPart:
    """Part of a device array's buffer, `size` bytes from `offset` (DeviceNDArray.gpu_data);
    its owner is the buffer's (another library's array) or the buffer, kept alive by it."""

    def __init__(self, buffer, offset, size):
        self.owner = getattr(buffer, "owner", buffer)
        self.buffer = buffer
        self.pointer = self.device_pointer = self.handle = buffer.pointer + offset
        self.size = size

    @property
    def device_ctypes_pointer(self):
        return api.devicearray.DevicePointer(self.pointer)


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


class DeviceNDArray(api.DeviceArrayFront):
    """An array in GPU memory, freed when the object is collected."""

    def __init__(self, shape, strides, dtype, buffer=None, offset=0, stream=0, gpu_data=None):
        self.shape = (
            (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(map(int, shape))
        )
        self.dtype = np.dtype(dtype)
        self.strides = (
            tuple(strides) if strides is not None else c_strides(self.shape, self.dtype.itemsize)
        )
        if buffer is None:
            buffer = gpu_data  # numba-cuda's name
        if buffer is None:  # new memory for the layout (numba-cuda's DeviceNDArray(shape, ...))
            extent = api.devicearray.extent_bytes(self.shape, self.strides, self.dtype.itemsize)
            buffer = _core.cuda_allocate(extent, 0, None)
        self._buffer = buffer  # DeviceBuffer, shared by views
        self._offset = offset
        self.stream = stream  # the stream it was made on; consumers of its interface wait on it
        self._kernel_type = None
        # What a kernel launch reads from C++: (type, pointer, shape, strides). A view of a
        # dtype kernels do not take (a record's str field) has none: the launcher's Python
        # path reports it if it is passed to a kernel.
        try:
            kernel_type, description = self.kernel_argument()
        except ValueError:
            return
        self._launch = (kernel_type, *description)

    @property
    def device_ctypes_pointer(self):
        return api.devicearray.DevicePointer(self._buffer.pointer + self._offset)

    @property
    def gpu_data(self):
        """The memory the array views (numba-cuda's name): its buffer when the array spans it,
        else the part the array spans (numba-cuda's MemoryPointer view: its first byte and
        extent; it keeps the buffer alive), which IPC handles and raw copies take."""
        extent = api.devicearray.extent_bytes(self.shape, self.strides, self.dtype.itemsize)
        if not self._offset and extent == getattr(self._buffer, "size", None):
            return self._buffer
        return MemoryPart(self._buffer, self._offset, extent)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def kernel_argument(self):
        """(type, (pointer, shape, strides)) as kernel launches pass it; computed once."""
        if self._kernel_type is None:
            layout = "C" if self.is_c_contiguous() else "A"
            self._kernel_type = _array_type(self.dtype, self.ndim, layout, False)
            self._description = (self.device_ctypes_pointer, self.shape, self.strides)
        return self._kernel_type, self._description

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

    def get_ipc_handle(self):
        """An IPC handle of the array's memory (from the context's memory manager) with the
        array's layout, for another process to open."""
        from taipan.cuda.devices import current_context

        memory = self._buffer
        if getattr(memory, "size", None) is None:  # another library's: up to the array's end
            extent = api.devicearray.extent_bytes(self.shape, self.strides, self.dtype.itemsize)
            memory = MemoryPart(memory, 0, self._offset + extent)
        handle = current_context().get_ipc_handle(memory)
        layout = {"shape": self.shape, "strides": self.strides, "dtype": self.dtype}
        return api.memory.IpcArrayHandle(
            ipc_handle=handle, array_desc={**layout, "offset": self._offset}
        )

    def __dlpack_device__(self):
        return (2, self.device_id)  # kDLCUDA

    def copy_to_host(self, ary=None, stream=0):
        """The data as a NumPy array (into `ary` when given); asynchronous on a stream."""
        if ary is None:
            ary = np.empty(self.shape, self.dtype, order="F" if self._fortran_only() else "C")
        self._check_copy_target(ary)
        if not stream:
            self._wait_for_foreign_stream()
        if self.size and 0 in self.strides:  # broadcast: its core's elements, once each
            core = self._view(tuple(0 if s == 0 else slice(None) for s in self.strides))
            host_core = core.copy_to_host(stream=stream)
            if stream:  # the core is read below
                _core.cuda_synchronize_stream(stream_handle(stream))
            kept = iter(host_core.shape)
            ary[...] = host_core.reshape(tuple(1 if s == 0 else next(kept) for s in self.strides))
        elif self._fortran_only() and ary.flags.f_contiguous:
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

    def _write(self, host, stream=0):
        """Copies host elements of this array's shape into its memory, whatever its layout:
        at once when both are C (or both F) contiguous, else run by run."""
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

    def _copy_from_device(self, other, stream=0):
        """Copies a device array of the same layout (checked by copy_to_device) into this one:
        one run of memory, the broadcast axes' elements once."""
        if isinstance(other, DeviceNDArray):
            source = other.device_ctypes_pointer
        else:  # another library's array: its producer's work first
            interface = other.__cuda_array_interface__
            wait_for_producer(interface)
            source = int(interface["data"][0])
        nbytes = api.devicearray.array_core(self).size * self.dtype.itemsize
        if stream:  # the copy is ordered on the legacy default stream: let `stream` finish
            _core.cuda_synchronize_stream(stream_handle(stream))
        _core.cuda_copy_device_to_device(self.device_ctypes_pointer, source, nbytes)

    def _wait_for_foreign_stream(self):
        """Before a copy on the default stream: waits for the array's stream when another
        library made it (cuda.core's, CuPy's, an external one), which may be non-blocking, so
        that the legacy default stream does not wait for it, where numba-cuda copies on the
        array's stream. taipan's own streams are blocking: the copy waits for them anyway."""
        own = self.stream
        if own and not (isinstance(own, Stream) and not own.external):
            _core.cuda_synchronize_stream(stream_handle(own))

    def _synchronize_default_stream(self):
        # Through the Stream object, as numba-cuda waits (its tests observe Stream.synchronize).
        default_stream().synchronize()

    def _contiguous_copy(self):
        """A new C-contiguous device array of this array's elements: copied on the device by
        the layout-copy kernel the GPU backend registers (use_layout_copy), else through the
        host (the kernels sit above this module in the import graph)."""
        if _layout_copy and self.dtype.kind in "biufc" and self.ndim <= 4:
            result = device_array(self.shape, self.dtype, stream=self.stream)
            _layout_copy[0](result, self, self.stream)
            return result
        if self.stream:  # the array's queued work first; the copies below are synchronous
            _core.cuda_synchronize_stream(stream_handle(self.stream))
        return to_device(np.ascontiguousarray(self.copy_to_host()), stream=self.stream)

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
        if self.dtype.fields is not None:  # a record: a view of it (numba-cuda's DeviceRecord)
            return DeviceRecord(self.dtype, self.stream, self._buffer, view._offset)
        element = np.empty((), self.dtype)
        _core.cuda_copy_to_host(element, view.device_ctypes_pointer, None)
        return element[()]

    def _element_view(self, key):
        """The view `self[key]` names, 0-dimensional for an element."""
        return self._view(key)

    def _view(self, key):
        """The device array `self[key]` for basic indexing (ints, slices, Ellipsis, None)."""
        key, named = api.devicearray.basic_index(key, self.ndim)
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
                raise api.devicearray.bad_index_item(item)
            axis += 1
        return DeviceNDArray(shape, strides, self.dtype, self._buffer, offset, self.stream)

    def _derived(self, shape, strides, dtype=None, byte_offset=0, stream=None):
        """A view of this array's memory from `byte_offset` bytes after its first element."""
        return DeviceNDArray(
            shape,
            strides,
            self.dtype if dtype is None else dtype,
            self._buffer,
            self._offset + byte_offset,
            self.stream if stream is None else stream,
        )


_core.cuda_set_device_array_type(DeviceNDArray)

_layout_copy = []  # copy(dst, src, stream): a kernel copying between layouts (use_layout_copy)


def use_layout_copy(copy):
    """Registers the device kernel that copies between layouts (library_kernels.copy), which
    ``.T`` uses; taipan.cuda's GPU backend registers it when it is imported."""
    _layout_copy[:] = [copy]


class DeviceRecord:
    """A record (a NumPy structured scalar) in GPU memory: copied from and to host records
    (``np.void``, ``np.record``), its fields read and written by name, and passed to kernels
    as the record itself (numba-cuda's ``DeviceRecord``)."""

    shape = ()
    strides = ()
    ndim = 0
    size = 1

    def __init__(self, dtype, stream=0, gpu_data=None, offset=0):
        self.dtype = np.dtype(dtype)
        if self.dtype.fields is None:
            raise TypeError(f"a DeviceRecord needs a structured dtype, not {self.dtype}")
        self.stream = stream
        if gpu_data is None:
            gpu_data = _core.cuda_allocate(self.dtype.itemsize, 0, None)
        self.gpu_data = gpu_data
        # Where the record starts in gpu_data: an element of a device array, or a record field
        # of another record, is a view of that memory.
        self._offset = offset

    @property
    def alloc_size(self):
        return self.dtype.itemsize

    nbytes = alloc_size

    @property
    def device_ctypes_pointer(self):
        return api.devicearray.DevicePointer(self.gpu_data.pointer + self._offset)

    @property
    def _numba_type_(self):
        from taipan.typeof import from_dtype

        return from_dtype(self.dtype)

    def kernel_value(self):
        """The record as kernels take it: a host record standing for its type."""
        return np.zeros(1, self.dtype)[0]

    def copy_to_device(self, ary, stream=0):
        """Copies a host record (or a DeviceRecord) of the same dtype into this one."""
        if isinstance(ary, DeviceRecord):
            self._check_dtype(ary.dtype)
            _core.cuda_copy_device_to_device(
                self.device_ctypes_pointer, ary.device_ctypes_pointer, self.alloc_size
            )
            return
        host = np.asarray(ary)
        self._check_dtype(host.dtype)
        host = np.ascontiguousarray(host.reshape(1))
        stream = stream or self.stream
        _core.cuda_copy_to_device(self.device_ctypes_pointer, host, stream_handle(stream))

    def copy_to_host(self, ary=None, stream=0):
        """The record as a host record (written into `ary`, field by field, when given)."""
        staging = np.empty(1, self.dtype)
        stream = stream or self.stream
        _core.cuda_copy_to_host(staging, self.device_ctypes_pointer, stream_handle(stream))
        if stream:  # the fields are read below
            _core.cuda_synchronize_stream(stream_handle(stream))
        if ary is None:
            return staging[0]
        self._check_dtype(ary.dtype)
        for name in self.dtype.names:
            ary[name] = staging[0][name]
        return ary

    def _check_dtype(self, dtype):
        if np.dtype(dtype) != self.dtype:
            raise TypeError(f"incompatible dtype: {self.dtype} vs. {dtype}")

    def _field(self, name):
        """The field `name` as a device view: (view, whether it is a view to hand out: an array
        field's device array, a record field's DeviceRecord)."""
        if name not in (self.dtype.names or ()):
            raise KeyError(f"the record has no field {name!r}")
        field_dtype, offset = self.dtype.fields[name][:2]
        offset += self._offset
        if field_dtype.subdtype is not None:
            base, shape = field_dtype.subdtype
            return DeviceNDArray(shape, None, base, self.gpu_data, offset, self.stream), True
        if field_dtype.fields is not None:
            return DeviceRecord(field_dtype, self.stream, self.gpu_data, offset), True
        return DeviceNDArray((), (), field_dtype, self.gpu_data, offset, self.stream), False

    def __getitem__(self, name):
        """A field's value (a scalar), or a device view of an array or record field."""
        view, is_view = self._field(name)
        return view if is_view else view[()]

    def getitem(self, name, stream=0):
        found = self[name]
        if isinstance(found, DeviceNDArray):
            found.stream = stream or self.stream
        return found

    def __setitem__(self, name, value):
        self.setitem(name, value)

    def setitem(self, name, value, stream=0):
        view, _ = self._field(name)
        if isinstance(view, DeviceRecord):
            view.copy_to_device(value, stream=stream or self.stream)
        else:
            view.setitem((), value, stream=stream or self.stream)

    def __repr__(self):
        return f"<taipan DeviceRecord dtype={self.dtype} at {self.device_ctypes_pointer:#x}>"


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
    if config.DISABLE_CUDA:  # the extension's allocator would not know
        driver.ready()
    plugin = plugin_memory_manager()
    if plugin is not None:  # an EMM plugin allocates (cuda.set_memory_manager)
        return DeviceNDArray(shape, strides, dtype, plugin.memalloc(nbytes), stream=stream)
    owner = owned_stream(stream)
    buffer = _core.cuda_allocate(nbytes, owner.handle if owner else 0, owner)
    return DeviceNDArray(shape, strides, dtype, buffer, stream=stream)


def device_array_like(ary, stream=0):
    strides, order = api.layout_like(ary)
    return device_array(ary.shape, ary.dtype, strides=strides, order=order, stream=stream)


def to_device(ary, stream=0, copy=True, to=None):
    """A device copy of a host array: F-ordered when the array is F- and not C-contiguous,
    else C-ordered. With `to`, copies into that device array instead."""
    if to is not None:
        if copy:
            to.copy_to_device(ary, stream=stream)
        return to
    if isinstance(ary, np.void):  # a record: numba-cuda's DeviceRecord
        record = DeviceRecord(ary.dtype, stream=stream)
        if copy:
            record.copy_to_device(ary, stream=stream)
        return record
    host = np.asarray(ary)
    if host.ndim and (host.size == 0 or 0 in host.strides):
        return _to_device_keeping_layout(host, stream, copy)
    order = (
        "F" if host.ndim > 1 and host.flags.f_contiguous and not host.flags.c_contiguous else "C"
    )
    host = np.asarray(host, order=order)
    device = device_array(host.shape, host.dtype, order=order, stream=stream)
    if copy:
        device.copy_to_device(host, stream=stream)
    return device


def _to_device_keeping_layout(host, stream, copy):
    """The device copy of a broadcast (zero-stride) or empty host array with its layout, as
    numba-cuda keeps it: a broadcast array's memory is its core's elements once each (C order),
    its broadcast axes keep stride 0 (a layout "A" array); an empty array keeps its strides."""
    if host.size == 0:
        return device_array(host.shape, host.dtype, strides=host.strides, stream=stream)
    core = np.ascontiguousarray(api.devicearray.array_core(host))
    memory = device_array(core.shape, core.dtype, stream=stream)
    if copy:
        memory.copy_to_device(core, stream=stream)
    kept = iter(memory.strides)
    strides = tuple(0 if s == 0 else next(kept) for s in host.strides)
    return DeviceNDArray(host.shape, strides, host.dtype, memory._buffer, stream=stream)


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
