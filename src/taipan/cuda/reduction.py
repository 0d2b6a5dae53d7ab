"""``cuda.reduce``: a reduction over a whole 1-D array with a binary function (Numba's
``cuda.Reduce``).

One kernel, written as Python text per element type and compiled once per (array layout, result
type), does both passes: each block folds a grid-stride slice of the array, then folds its
threads' values through a shared-memory tree, and thread 0 writes the block's value. Arrays of
more than one block's share take a second launch of the same kernel, one block over the partial
values. The initial value enters once, at the end, as in Numba: ``op(result, init)``.

Eight blocks of 256 threads fill a multiprocessor; each thread keeps two loads in flight. On
the H100 host the first pass over 2**24 float64 takes 52 us (2.6 TB/s) this way, 55 us with one
load at a time and no less with four (which compile and load slower), and the whole call,
result on the host, about 75 us."""

import threading

import numpy as np

from taipan import _core
from taipan.cuda import api, devicearray, driver, kernelgen
from taipan.cuda.devicearray import DeviceNDArray
from taipan.cuda.streams import stream_handle

THREADS = 256
# Items each thread folds before a second pass pays: one block takes up to 2048 items.
_ITEMS_PER_THREAD = 8
# Eight blocks of 256 threads fill a multiprocessor (2048 threads).
_BLOCKS_PER_MULTIPROCESSOR = 8

KERNEL_SOURCE = """\
def {name}(values, out, n, init, use_init):
    partial = cuda.shared.array(THREADS, DTYPE)
    tid = cuda.threadIdx.x
    block = cuda.blockIdx.x
    stride = cuda.gridDim.x * THREADS
    i = block * THREADS + tid
    if i < n:
        acc = values[i]
        i += stride
        while i + stride < n:
            acc = cast(op(acc, cast(op(values[i], values[i + stride]))))
            i += 2 * stride
        while i < n:
            acc = cast(op(acc, values[i]))
            i += stride
        partial[tid] = acc
    cuda.syncthreads()
    valid = n - block * THREADS
    if valid > THREADS:
        valid = THREADS
    width = THREADS // 2
    while width > 0:
        if tid < width and tid + width < valid:
            partial[tid] = cast(op(partial[tid], partial[tid + width]))
        cuda.syncthreads()
        if valid > width:
            valid = width
        width //= 2
    if tid == 0:
        result = partial[0]
        if use_init:
            result = cast(op(result, init))
        out[block] = result
"""


def passes(size, blocks_cap):
    """Blocks of the first pass for ``size`` items (at most ``blocks_cap``); one block means a
    single pass."""
    return max(1, min(-(-size // (THREADS * _ITEMS_PER_THREAD)), blocks_cap))


class Reduce(api.ReduceFront):
    """A reduction with a binary function, compiled as a device function (``@cuda.reduce``).
    Calling it reduces a host or device array: ``r(arr, size=None, res=None, init=0,
    stream=0)``."""

    def __init__(self, functor):
        super().__init__(functor)
        self._lock = threading.Lock()
        self._scratch = threading.local()

    def _scalar_function(self, functor):
        return kernelgen.device_function(functor, {})

    def _kernel(self, dtype, layout, out_dtype):
        key = (dtype, layout, out_dtype)
        kernel = self._kernels.get(key)
        if kernel is None:
            with self._lock:
                kernel = self._kernels.get(key)
                if kernel is None:
                    kernel = self._kernels[key] = self._compile(dtype, layout, out_dtype)
        return kernel

    def _compile(self, dtype, layout, out_dtype):
        from taipan.cuda.decorators import jit

        name = f"cuda_reduce_{kernelgen.identifier(self.__name__)}"
        namespace = {
            "cuda": kernelgen.cuda_package(),
            "op": self._op,
            "THREADS": THREADS,
            "DTYPE": dtype.type,
            "cast": dtype.type,
        }
        source = KERNEL_SOURCE.format(name=name)
        function = kernelgen.generated_function(name, source, namespace, "reduce")
        types = [
            kernelgen.array_type(dtype, 1, layout),
            kernelgen.array_type(out_dtype, 1, "A"),
            kernelgen.scalar_type(np.int64),
            kernelgen.scalar_type(dtype),
            kernelgen.scalar_type(np.bool_),
        ]
        kernel = jit(function).specialize_for(types)
        kernel.argument_types = types
        return kernel

    def inspect_asm(self, dtype, layout="C"):
        """The PTX of the reduction kernel for arrays of ``dtype``; needs no GPU."""
        dtype = np.dtype(dtype)
        return self._kernel(dtype, layout, dtype).ptx

    def _operand(self, arr, stream):
        return arr if type(arr) is DeviceNDArray else _operand(arr, stream)

    def _reduce_values(self, arr, res, init, stream):
        dtype = arr.dtype
        count = arr.shape[0]
        if isinstance(arr, np.ndarray):
            driver.ready()
            arr = devicearray.to_device(arr, stream)
        if res is not None and type(res) is not DeviceNDArray:
            view = kernelgen.foreign_view(res, stream)
            if view is None:
                raise TypeError(f"res= takes a device array, not {type(res).__name__}")
            res = view
        stride = arr.strides[0]
        layout = "C" if stride == dtype.itemsize else "A"
        out_dtype = dtype if res is None else res.dtype
        kernel = self._kernel(dtype, layout, out_dtype)
        blocks = passes(count, kernelgen.multiprocessors() * _BLOCKS_PER_MULTIPROCESSOR)
        handle = stream_handle(stream)
        scratch = self._scratch_buffer(dtype, blocks, stream, res is None)
        item = dtype.itemsize
        if res is None:
            final = (scratch.pointer, (1,), (item,))
        else:
            final = (res.device_ctypes_pointer, (res.shape[0],), (res.strides[0],))
        values = (arr.device_ctypes_pointer, (count,), (stride,))
        use_init = init is not None
        init_value = init if use_init else dtype.type(0)
        if blocks == 1:
            kernelgen.launch(
                kernel,
                1,
                THREADS,
                stream,
                [values, final, count, init_value, use_init],
                kernel.argument_types,
            )
        else:
            partials = (scratch.pointer, (blocks,), (item,))
            partial_kernel = kernel if out_dtype == dtype else self._kernel(dtype, layout, dtype)
            kernelgen.launch(
                partial_kernel,
                blocks,
                THREADS,
                stream,
                [values, partials, count, init_value, False],
                partial_kernel.argument_types,
            )
            second = kernel if layout == "C" else self._kernel(dtype, "C", out_dtype)
            kernelgen.launch(
                second,
                1,
                THREADS,
                stream,
                [partials, final, blocks, init_value, use_init],
                second.argument_types,
            )
        if res is not None:
            return None
        host = self._result_buffer(dtype)
        _core.cuda_copy_to_host(host, scratch.pointer, handle)
        if handle:
            _core.cuda_synchronize_stream(handle)
        return host[0]

    def _result_buffer(self, dtype):
        """A page-locked one-element array per thread and dtype, which the result is copied
        into: a copy to pageable memory waits for the driver's staging as well."""
        buffers = getattr(self._scratch, "results", None)
        if buffers is None:
            buffers = self._scratch.results = {}
        key = (dtype, driver.context_generation())
        host = buffers.get(key)
        if host is None:
            from taipan.cuda.hostmemory import pinned_array

            host = buffers[key] = pinned_array(1, dtype)
        return host

    def _scratch_buffer(self, dtype, blocks, stream, synchronous):
        """Device memory for the partial values. A call that waits for its result reuses a
        buffer per thread, device and stream (the stream orders the reuse); an asynchronous one
        on a stream of its own gets a fresh buffer, freed once the stream is done with it."""
        nbytes = max(blocks, 1) * dtype.itemsize
        handle = stream_handle(stream)
        if not synchronous and handle not in (None, 1):
            return devicearray.device_array(max(blocks, 1), dtype, stream=stream)._buffer
        buffers = getattr(self._scratch, "buffers", None)
        if buffers is None:
            buffers = self._scratch.buffers = {}
        key = (_core.cuda_current_device(), driver.context_generation(), handle)
        buffer = buffers.get(key)
        if buffer is None or buffer.size < nbytes:
            # Allocated for the default stream: its free waits for the whole device.
            buffer = buffers[key] = _core.cuda_allocate(max(nbytes, 16 * 1024), 0, None)
        return buffer


def _operand(value, stream):
    """A device array as it is, another library's GPU array as a view, a host array as NumPy."""
    view = kernelgen.foreign_view(value, stream)
    if view is not None:
        return view
    if isinstance(value, np.ndarray):
        return value
    raise TypeError(f"cuda.reduce takes a host or device array, not {type(value).__name__}")


# ``@cuda.reduce`` decorates a binary function, as in Numba, where it is the class itself.
reduce = Reduce
