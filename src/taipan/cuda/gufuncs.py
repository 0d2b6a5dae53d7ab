"""CUDA gufuncs: ``@guvectorize(signatures, layout, target='cuda')``, as numba-cuda has them.

The core function compiles as a device function; a kernel written as Python text calls it once
per element of the loop dimensions (which broadcast as in NumPy), in a grid-stride loop, with
each operand's part of that element: a scalar, one element, or a view of its core dimensions.
Host inputs give host results, device inputs device results; outputs are allocated or given
(positionally or as ``out=``). taipan.cuda.ufuncs re-exports the public names."""

import numpy as np

from taipan.cuda import api, devicearray, driver, kernelgen
from taipan.cuda.devicearray import DeviceNDArray

_GUFUNC_THREADS = 128


# --- pure helpers: kernel text, layouts, loop shapes -----------------------------------------


def gufunc_kernel_source(name, modes, loop_ndim, first_output):
    """The kernel of a CUDA gufunc as Python text: one loop element per iteration, the core
    function called with each operand's part of it. ``modes`` gives each operand as 'value' (a
    scalar argument), 'element' (one element of an array), 'slice' (a one-element 1-D view: an
    operand without core dimensions that the signature types as an array) or ('view', k) (the
    element's k core dimensions). Operands carry ``loop_ndim`` loop dimensions first; the loop
    runs over those of operand ``first_output`` (for a gufunc without outputs, its first array
    operand, which the call passes with the whole loop shape; None: one element)."""
    parameters = [f"a{j}" for j in range(len(modes))]
    loop = [f"i{d}" for d in range(loop_ndim)]
    arguments = []
    for j, mode in enumerate(modes):
        if mode == "value":
            arguments.append(f"a{j}")
        elif mode == "element":
            arguments.append(f"a{j}[{', '.join(loop)}]")
        elif mode == "slice":
            last = loop[-1]
            arguments.append(f"a{j}[{', '.join(loop[:-1] + [f'{last}:{last} + 1'])}]")
        else:
            arguments.append(f"a{j}[{', '.join(loop + [':'] * mode[1])}]")
    output = f"a{first_output}"
    size = " * ".join(f"{output}.shape[{d}]" for d in range(loop_ndim))
    if first_output is None:
        loop_ndim, size = 1, "1"
    lines = [
        f"def {name}({', '.join(parameters)}):",
        "    start = cuda.grid(1)",
        "    stride = cuda.gridsize(1)",
        f"    n = {size}",
    ]
    lines += [f"    e{d} = {output}.shape[{d}]" for d in range(1, loop_ndim)]
    lines += ["    for t in range(start, n, stride):", "        r = t"]
    for d in range(loop_ndim - 1, 0, -1):
        lines += [f"        i{d} = r % e{d}", f"        r = r // e{d}"]
    lines += ["        i0 = r", f"        core({', '.join(arguments)})"]
    return "\n".join(lines) + "\n"


# --- generalized ufuncs --------------------------------------------------------------------


class CUDAGUFunc(api.GUFuncFront):
    """A generalized ufunc on the GPU (``@guvectorize(signatures, layout, target='cuda')``):
    call it with the inputs (outputs are allocated) or with inputs and outputs; loop
    dimensions broadcast as in NumPy. Host inputs give host results, device inputs device
    results."""

    def _core_function(self, py_func):
        """What computes one loop index: the function as a CUDA device function."""
        return kernelgen.device_function(py_func, self._options)

    def _classify(self, value, stream):
        return classify(value, stream)

    def _output_operand(self, value, stream):
        return output_operand(value, stream)

    def _kernel(self, index, modes, loop_ndim):
        key = (index, modes, loop_ndim)
        kernel = self._kernels.get(key)
        if kernel is not None:
            return kernel
        dtypes = self._signatures[index][0]
        types = []
        for dtype, mode, names in zip(dtypes, modes, self._core_names):
            if mode == "value":
                types.append(kernelgen.scalar_type(dtype))
            else:
                types.append(kernelgen.array_type(dtype, loop_ndim + len(names), "A"))
        name = f"cuda_gufunc_{kernelgen.identifier(self.__name__)}"
        looped = self.nin if self.nout else _first_array(modes)
        source = gufunc_kernel_source(name, modes, loop_ndim, looped)
        namespace = {"cuda": kernelgen.cuda_package(), "core": self._core}
        function = kernelgen.generated_function(name, source, namespace, "gufunc")
        from taipan.cuda.decorators import jit

        kernel = jit(function, **self._options).specialize_for(types)
        kernel.argument_types = types
        self._kernels[key] = kernel
        return kernel

    def _written_operands(self):
        """The operands of a gufunc without outputs that its function may write (the others
        are not copied back to host arrays)."""
        if not hasattr(self, "_written"):
            from taipan.gufunc_writes import untyped_written_parameters

            self._written = untyped_written_parameters(self.py_func)
        return self._written

    def inspect_asm(self, signature=0, loop_ndim=1):
        """The PTX of the kernel for a signature (an index into the signatures) with
        ``loop_ndim`` loop dimensions, the operands as the signature types them. Needs no
        GPU."""
        with self._lock:
            return self._kernel(signature, self._signatures[signature][1], loop_ndim).ptx

    def __call__(self, *args, out=None, stream=0, **keywords):
        outputs, inputs, kinds, user_outputs, output_kinds = self._call_operands(
            args, out, keywords, stream
        )
        to_host = "device" not in kinds and "device" not in output_kinds
        host_inputs = [value if kind == "host" else None for value, kind in zip(inputs, kinds)]
        driver.ready()
        with self._lock:
            index = self._signature_index(inputs, kinds)
            dtypes, modes = self._signatures[index]
            modes = list(modes)
            upload = lambda host: devicearray.to_device(host, stream)
            self._cast_inputs(inputs, kinds, dtypes, modes, _as_given, upload, "device")
            allocate = lambda shape, dtype: devicearray.device_array(shape, dtype, stream=stream)
            loop, device_outputs = self._schedule(
                inputs, kinds, "device", user_outputs, output_kinds, dtypes, allocate
            )
            loop_shape = loop or (1,)
            loop_ndim = len(loop_shape)
            kernel = self._kernel(index, tuple(modes), loop_ndim)
            values = []
            operands = inputs + device_outputs
            for position, (value, names) in enumerate(zip(operands, self._core_names)):
                if modes[position] == "value":
                    values.append(value)
                    continue
                split = value.ndim - len(names)
                outer = api.ufuncs.broadcast_strides(
                    value.shape[:split], value.strides[:split], loop_shape
                )
                shape = loop_shape + tuple(value.shape[split:])
                values.append(
                    (value.device_ctypes_pointer, shape, outer + tuple(value.strides[split:]))
                )
            size = int(np.prod(loop_shape, dtype=np.int64))
            blocks = kernelgen.grid_blocks(size, _GUFUNC_THREADS, 16) if size else 0
        if blocks:
            kernelgen.launch(
                kernel, blocks, _GUFUNC_THREADS, stream, values, kernel.argument_types, self._debug
            )
        if not self.nout:
            # Written in place: the host arrays copied to the GPU unchanged that the function
            # may write get the writes back, as NumPy's in-place gufuncs write into the caller's
            # arrays (and into a cast copy, which is lost, for one of another dtype).
            for position in self._written_operands():
                host, device = host_inputs[position], inputs[position]
                if host is not None and host.dtype == device.dtype and host.flags.writeable:
                    _copy_back(device, host, stream)
        results = []
        for value, kind, device in zip(outputs, output_kinds, device_outputs):
            if kind == "host":
                results.append(_copy_back(device, value, stream))
            elif kind == "device":
                results.append(value if api.ufuncs.is_array_object(value) else device)
            elif to_host:
                results.append(device.copy_to_host(stream=stream))
            else:
                results.append(device)
        return results[0] if len(results) == 1 else tuple(results)


def _first_array(modes):
    """The first operand a kernel gets as an array (None when all are values)."""
    return next((j for j, mode in enumerate(modes) if mode != "value"), None)


def _copy_back(device, host, stream):
    """Copies a device result into the host array the caller gave, casting when needed."""
    if host.dtype == device.dtype:
        return device.copy_to_host(host, stream=stream)
    host[...] = device.copy_to_host(stream=stream)
    return host


def guvectorize(signatures, layout, options):
    """The decorator ``guvectorize(signatures, layout, target='cuda')`` returns."""

    def decorate(py_func):
        return CUDAGUFunc(py_func, signatures, layout, options)

    return decorate


def _same(value):
    return value


def _as_given(value, formal):
    return value


def classify(value, stream):
    """(operand, 'device' | 'host' | 'scalar') of a CUDA ufunc's or gufunc's argument: device
    arrays as taipan device arrays (other libraries' viewed as one), host arrays as NumPy
    arrays (not yet copied), scalars as they are."""
    return api.ufuncs.classify_operand(
        value, DeviceNDArray, _same, lambda value: kernelgen.foreign_view(value, stream)
    )


def output_operand(value, stream):
    """(array, 'device' | 'host') of an output a gufunc call was given."""
    return api.ufuncs.output_operand(
        value,
        DeviceNDArray,
        _same,
        lambda value: kernelgen.foreign_view(value, stream),
        "a gufunc output is an array",
    )
