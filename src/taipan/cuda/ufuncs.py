"""CUDA ufuncs: ``@vectorize(signatures, target='cuda')`` and ``@guvectorize(signatures, layout,
target='cuda')``, as numba-cuda has them, with NumPy's broadcasting.

The scalar function compiles as a device function; a kernel written as Python text calls it
once per element of the output, in a grid-stride loop. Two kinds of kernel exist for each
signature: a flat one, when every array operand has the output's shape and one memory order
(the common case: a 1-D index into each), and an n-dimensional one, which turns the flat index
into one index per axis and reads broadcast inputs through zero strides. Scalars travel as
kernel arguments, not as arrays. Everything a call decides from its arguments' dtypes, shapes
and strides (signature, broadcast shape, kernel, launch size, argument types) is kept in a plan
per such key, so a repeated call does a dictionary lookup, allocates its output and launches.

Calls take NumPy arrays (copied to the GPU, the result copied back), taipan device arrays (the
result stays on the GPU), CuPy arrays, PyTorch tensors and other objects exporting the CUDA
Array Interface or DLPack (viewed in place), scalars, ``out=`` (host or device) and
``stream=``.

The generalized ufuncs (CUDAGUFunc, guvectorize) are in taipan.cuda.gufuncs, and the front both
share with the simulator (broadcasting, signature choice, operands, options, the classes less
how they run) in taipan.cuda.api.ufuncs; this module re-exports the names that taipan.ufuncs
and the tests take from here."""

import threading

import numpy as np

from taipan import _core
from taipan.cuda import api, devicearray, driver, kernelgen
from taipan.cuda.devicearray import DeviceNDArray
from taipan.cuda.gufuncs import (  # noqa: F401 - re-exported: the generalized ufuncs
    CUDAGUFunc,
    classify,
    gufunc_kernel_source,
    guvectorize,
)
from taipan.cuda.reduction import Reduce
from taipan.cuda.streams import stream_handle
from taipan.extending import register_jitable

# The front's helpers, here too as taipan.ufuncs and the tests take them.
broadcast_shapes = api.ufuncs.broadcast_shapes
broadcast_strides = api.ufuncs.broadcast_strides
select_signature = api.ufuncs.select_signature
gufunc_outputs = api.ufuncs.gufunc_outputs
gufunc_schedule = api.ufuncs.gufunc_schedule
parse_layout = api.ufuncs.parse_layout
_PYTHON_SCALARS = api.ufuncs._PYTHON_SCALARS
_dtype_of = api.ufuncs._dtype_of
_scalar_description = api.ufuncs._scalar_description
_shape_text = api.ufuncs._shape_text

_THREADS = 256
_BLOCKS_PER_MULTIPROCESSOR = 32
# Plans are kept per argument shape, so a program calling with ever new shapes would grow the
# table: past this many it starts again (the kernels stay).
_MAX_PLANS = 512
# Device copies of host operands, and results on their way back to the host, live only during
# a call: calls on the default stream reuse them (per thread; the stream orders the reuse)
# instead of paying an allocation and a free each, for buffers up to this size.
_POOLED_BYTES = 64 << 20
_pool = threading.local()


# --- pure helpers: memory order, kernel text ---------------------------------------------


def is_contiguous(shape, strides, itemsize, order):
    """Whether the elements lie densely in ``order`` ('C' or 'F'); as in NumPy, axes of one
    element may have any stride, and empty arrays are contiguous."""
    if 0 in shape:
        return True
    axes = zip(shape, strides)
    if order == "C":
        axes = reversed(list(axes))
    expected = itemsize
    for extent, stride in axes:
        if extent != 1:
            if stride != expected:
                return False
            expected *= extent
    return True


def flat_order(shape, arrays, out=None):
    """The memory order ('C' or 'F') in which every array operand, given as (shape, strides,
    itemsize), and the output ``out`` (the same, or None when it is to be allocated) hold the
    broadcast ``shape`` densely, so that one flat index reaches the same element of each: the
    flat kernel applies. None when some operand is broadcast or strided (the n-dimensional
    kernel)."""
    operands = list(arrays) + ([out] if out is not None else [])
    for order in ("C", "F"):
        if all(
            tuple(s) == tuple(shape) and is_contiguous(s, strides, itemsize, order)
            for s, strides, itemsize in operands
        ):
            return order
    return None


@register_jitable
def _datetime_result(value):
    """A datetime64 or timedelta64 result is stored as the scalar function returns it (its
    unit is the signature's); NumPy's scalar classes convert numbers only."""
    return value


def _result_conversion(dtype):
    """What rounds a scalar function's value to the result dtype in the kernel."""
    return _datetime_result if dtype.kind in "mM" else dtype.type


def vectorize_kernel_source(name, inputs, ndim):
    """The kernel of a CUDA ufunc as Python text. ``inputs`` gives each input as (is_scalar,
    cast): a scalar argument is passed as it is; an array's element goes through ``cast{j}``
    first when ``cast`` is true (its dtype is not the signature's). ``ndim`` 0 gives the flat
    kernel (1-D arrays of the output's size), else the kernel over ``ndim``-dimensional views
    of the broadcast shape. The globals are ``cuda``, ``core`` (the device function), the casts
    and ``result``, the signature's result type: the value is rounded to it before it is stored
    (into an output of another dtype too), as Numba's device function with the signature
    does."""
    parameters = [f"a{j}" for j in range(len(inputs))] + ["out"]
    index = "i" if ndim == 0 else ", ".join(f"i{d}" for d in range(ndim))
    arguments = []
    for j, (is_scalar, cast) in enumerate(inputs):
        value = f"a{j}" if is_scalar else f"a{j}[{index}]"
        arguments.append(f"cast{j}({value})" if cast and not is_scalar else value)
    lines = [
        f"def {name}({', '.join(parameters)}):",
        "    start = cuda.grid(1)",
        "    stride = cuda.gridsize(1)",
    ]
    call = f"result(core({', '.join(arguments)}))"
    if ndim == 0:
        lines += [
            "    for i in range(start, out.shape[0], stride):",
            f"        out[i] = {call}",
        ]
    else:
        lines += ["    n = out.size"]
        lines += [f"    e{d} = out.shape[{d}]" for d in range(1, ndim)]
        lines += ["    for t in range(start, n, stride):"]
        if ndim == 1:
            lines += ["        i0 = t"]
        else:
            lines += ["        r = t"]
            for d in range(ndim - 1, 0, -1):
                lines += [f"        i{d} = r % e{d}", f"        r = r // e{d}"]
            lines += ["        i0 = r"]
        lines += [f"        out[{index}] = {call}"]
    return "\n".join(lines) + "\n"


# --- operands ----------------------------------------------------------------------------


def _temporary(shape, dtype, role, order="C"):
    """A device array of the calling thread's buffer for ``role`` (an input position, or -1 for
    the result): for the operands of a call on the default stream that never leave it."""
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if nbytes > _POOLED_BYTES:
        return devicearray.device_array(shape, dtype, order=order)
    buffers = getattr(_pool, "buffers", None)
    if buffers is None:
        buffers = _pool.buffers = {}
    key = (_core.cuda_current_device(), driver.context_generation(), role)
    buffer = buffers.get(key)
    if buffer is None or buffer.size < nbytes:
        buffer = buffers[key] = _core.cuda_allocate(max(nbytes, 1 << 16), 0, None)
    strides = None
    if order == "F":
        strides = devicearray.c_strides(shape[::-1], dtype.itemsize)[::-1]
    return DeviceNDArray(shape, strides, dtype, buffer)


def _upload(host, stream, role):
    """The device copy of a host operand: into the thread's buffer for ``role`` on the default
    stream, else into new memory."""
    if stream_handle(stream) not in (None, 1):
        return devicearray.to_device(host, stream)
    host = np.ascontiguousarray(host)
    device = _temporary(host.shape, host.dtype, role)
    _core.cuda_copy_to_device(device.device_ctypes_pointer, host, None)
    return device


class _Plan:
    """What a call with given argument dtypes, shapes and strides does: the compiled kernel, its
    argument types, how each operand is described to it, the output's shape, dtype and order,
    and the launch size."""

    __slots__ = ("blocks", "debug", "describe", "dtype", "kernel", "order", "shape", "types")


class CUDAUFunc(api.UFuncFront):
    """A ufunc running on the GPU (``@vectorize(signatures, target='cuda')``): call it with
    host or device arrays and scalars; ``out=`` and ``stream=`` as in numba-cuda."""

    def _core_function(self, py_func):
        """What computes one element: the function as a CUDA device function."""
        return kernelgen.device_function(py_func, self._options)

    def _classify(self, value, stream):
        return classify(value, stream)

    def _output_dtype(self, index):
        """The signature's result dtype, inferred from the device function when not given."""
        inputs, output = self._signatures[index]
        if output is None:
            compiled = self._core.specialize_for([kernelgen.scalar_type(d) for d in inputs])
            output = _dtype_of(compiled.return_type, "results")
            self._signatures[index] = (inputs, output)
        return output

    # --- kernels --------------------------------------------------------------------------

    def _kernel(self, index, inputs, ndim, out_dtype):
        """The compiled kernel for a signature, the inputs as (is_scalar, dtype) and the kernel
        kind (``ndim`` 0: flat), writing ``out_dtype``."""
        formals = self._signatures[index][0]
        key = (index, tuple(inputs), ndim, out_dtype)
        kernel = self._kernels.get(key)
        if kernel is not None:
            return kernel
        spec, types = [], []
        namespace = {
            "cuda": kernelgen.cuda_package(),
            "core": self._core,
            "result": _result_conversion(self._output_dtype(index)),
        }
        layout, dims = ("C", 1) if ndim == 0 else ("A", ndim)
        for j, ((is_scalar, dtype), formal) in enumerate(zip(inputs, formals)):
            cast = not is_scalar and dtype != formal
            spec.append((is_scalar, cast))
            if cast:
                namespace[f"cast{j}"] = formal.type
            types.append(
                kernelgen.scalar_type(formal)
                if is_scalar
                else kernelgen.array_type(dtype, dims, layout)
            )
        types.append(kernelgen.array_type(out_dtype, dims, layout))
        name = f"cuda_ufunc_{kernelgen.identifier(self.__name__)}"
        source = vectorize_kernel_source(name, spec, ndim)
        function = kernelgen.generated_function(name, source, namespace, "ufunc")
        from taipan.cuda.decorators import jit

        dispatcher = jit(function, **self._options)
        kernel = self._kernels[key] = dispatcher.specialize_for(types)
        kernel.argument_types = types
        return kernel

    def inspect_asm(self, signature=None, ndim=0, scalars=()):
        """The PTX of the kernel for a signature (the first by default; one of its argument
        type tuples or an index), for arrays of its input types; ``ndim`` 0 gives the flat
        kernel (arrays of the output's shape and order), ``ndim`` > 0 the broadcasting kernel
        over that many dimensions; ``scalars`` names the inputs passed as scalars. Needs no
        GPU."""
        with self._lock:
            if signature is None:
                if not self._signatures:
                    raise TypeError(f"{self.__name__} has no signature compiled yet")
                index = 0
            elif isinstance(signature, int):
                index = signature
            else:
                from taipan.cuda.compiler import split_signature

                wanted = tuple(_dtype_of(t, "arguments") for t in split_signature(signature)[0])
                index = [inputs for inputs, _ in self._signatures].index(wanted)
            formals = self._signatures[index][0]
            inputs = [(j in scalars, formal) for j, formal in enumerate(formals)]
            return self._kernel(index, inputs, ndim, self._output_dtype(index)).ptx

    # --- calls ----------------------------------------------------------------------------

    def __call__(self, *args, out=None, stream=0, **keywords):
        api.ufuncs.check_keywords(self.__name__, keywords, "ufuncs")
        args, out = api.ufuncs.ufunc_arguments(self.__name__, self.nin, args, out)
        operands = list(args)
        key = []
        on_device = False
        for position, value in enumerate(args):
            kind = type(value)
            if kind is DeviceNDArray:
                on_device = True
            elif kind in _PYTHON_SCALARS:
                key.append(kind)
                continue
            else:
                value, where = classify(value, stream)
                if where == "scalar":
                    key.append(type(value))
                    continue
                if where == "host":
                    driver.ready()
                    value = _upload(value, stream, position)
                else:
                    on_device = True
                operands[position] = value
            key.append((value.dtype, value.shape, value.strides))
        device_out = host_out = None
        if out is not None:
            if isinstance(out, tuple) and len(out) == 1:
                out = out[0]
            if type(out) is DeviceNDArray:
                device_out = out
            elif isinstance(out, np.ndarray) and not hasattr(out, "__cuda_array_interface__"):
                host_out = out
            else:
                device_out = kernelgen.foreign_view(out, stream)
                if device_out is None:
                    raise TypeError(f"out= takes a host or device array, not {type(out).__name__}")
            if host_out is not None:
                key.append(("host", host_out.dtype, host_out.shape))
            else:
                key.append((device_out.dtype, device_out.shape, device_out.strides))
        else:
            key.append(None)
        key = tuple(key)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plan(key, operands, device_out, host_out)
        result = device_out
        if result is None:
            if (host_out is not None or not on_device) and stream_handle(stream) in (None, 1):
                # Copied to the host before the call returns.
                result = _temporary(plan.shape, plan.dtype, -1, plan.order)
            else:
                result = devicearray.device_array(
                    plan.shape, plan.dtype, order=plan.order, stream=stream
                )
        if plan.blocks:
            operands.append(result)
            values = [
                value if describe is None else (value.device_ctypes_pointer, *describe)
                for value, describe in zip(operands, plan.describe)
            ]
            kernelgen.launch(
                plan.kernel, plan.blocks, _THREADS, stream, values, plan.types, plan.debug
            )
        if host_out is not None:
            return result.copy_to_host(host_out, stream=stream)
        if out is not None:
            return out if api.ufuncs.is_array_object(out) else device_out
        if on_device:
            return result
        return result.copy_to_host(stream=stream)

    def _plan(self, key, operands, device_out, host_out):
        driver.ready()
        with self._lock:
            descriptions = []
            for value, item in zip(operands, key):
                if isinstance(item, tuple):
                    descriptions.append(("array", value.dtype))
                else:
                    descriptions.append(_scalar_description(value))
            index = self._select(descriptions)
            result_dtype = self._output_dtype(index)
            arrays = [j for j, item in enumerate(key[:-1]) if isinstance(item, tuple)]
            shapes = [operands[j].shape for j in arrays]
            given = device_out if device_out is not None else host_out
            if given is not None:
                shape = broadcast_shapes(*shapes, given.shape) if shapes else given.shape
                if shape != given.shape:
                    raise ValueError(
                        f"non-broadcastable output operand with shape {_shape_text(given.shape)} "
                        f"doesn't match the broadcast shape {_shape_text(shape)}"
                    )
                out_dtype = given.dtype
                if not np.can_cast(result_dtype, out_dtype, "same_kind"):
                    raise TypeError(
                        f"Cannot cast ufunc '{self.__name__}' output from {result_dtype!r} to "
                        f"{out_dtype!r} with casting rule 'same_kind'"
                    )
            else:
                shape = broadcast_shapes(*shapes) if shapes else (1,)  # numba: scalars give (1,)
                out_dtype = result_dtype
            layouts = [
                (operands[j].shape, operands[j].strides, operands[j].dtype.itemsize) for j in arrays
            ]
            out_layout = None
            if device_out is not None:
                out_layout = (device_out.shape, device_out.strides, out_dtype.itemsize)
            elif host_out is not None:
                # The result goes through a device array in the host array's order, so that
                # one copy moves it.
                fortran = host_out.flags.f_contiguous and not host_out.flags.c_contiguous
                strides = devicearray.c_strides(shape[::-1], out_dtype.itemsize)[::-1]
                if not fortran:
                    strides = devicearray.c_strides(shape, out_dtype.itemsize)
                out_layout = (shape, strides, out_dtype.itemsize)
            order = flat_order(shape, layouts, out_layout)
            plan = _Plan()
            plan.shape, plan.dtype, plan.debug = shape, out_dtype, self._debug
            if host_out is not None:
                plan.order = "F" if fortran else "C"
            else:
                plan.order = order if order is not None and device_out is None else "C"
            size = int(np.prod(shape, dtype=np.int64))
            ndim = 0 if order is not None else len(shape)
            inputs = [
                (
                    not isinstance(item, tuple),
                    operands[j].dtype if isinstance(item, tuple) else None,
                )
                for j, item in enumerate(key[:-1])
            ]
            formals = self._signatures[index][0]
            inputs = [
                (is_scalar, formal if is_scalar else dtype)
                for (is_scalar, dtype), formal in zip(inputs, formals)
            ]
            plan.kernel = self._kernel(index, inputs, ndim, out_dtype)
            plan.types = plan.kernel.argument_types
            describe = []
            for j, item in enumerate(key[:-1]):
                if not isinstance(item, tuple):
                    describe.append(None)
                elif ndim == 0:
                    describe.append(((size,), (operands[j].dtype.itemsize,)))
                else:
                    value = operands[j]
                    describe.append((shape, broadcast_strides(value.shape, value.strides, shape)))
            if ndim == 0:
                describe.append(((size,), (out_dtype.itemsize,)))
            elif out_layout is not None:
                describe.append((shape, tuple(out_layout[1])))
            else:
                describe.append((shape, devicearray.c_strides(shape, out_dtype.itemsize)))
            plan.describe = describe
            plan.blocks = (
                kernelgen.grid_blocks(size, _THREADS, _BLOCKS_PER_MULTIPROCESSOR) if size else 0
            )
            if len(self._plans) >= _MAX_PLANS:
                self._plans.clear()
            self._plans[key] = plan
            return plan

    # --- reduce ---------------------------------------------------------------------------

    def _flattened(self, value, where):
        """A host or C-contiguous device array as 1-D, for reduce(axis=None)."""
        if where == "host":
            return value.reshape(-1)
        if value.is_c_contiguous():
            return value.reshape(value.size)
        raise api.ufuncs.c_contiguous_only()

    def _make_reducer(self):
        return Reduce(self._core)

    def _reduce_rows(self, value, where, stream):
        driver.ready()
        if where == "host":
            value = devicearray.to_device(value, stream)
        value = api.ufuncs.fold_rows(value, lambda a, b: self(a, b, stream=stream))
        return value.copy_to_host(stream=stream) if where == "host" else value


def vectorize(signatures, options):
    """The decorator ``vectorize(signatures, target='cuda')`` returns."""

    def decorate(py_func):
        return CUDAUFunc(py_func, signatures, options)

    return decorate
