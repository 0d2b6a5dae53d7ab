"""CUDA gufuncs: ``@guvectorize(signatures, layout, target='cuda')``, as numba-cuda has them.

The core function compiles as a device function; a kernel written as Python text calls it once
per element of the loop dimensions (which broadcast as in NumPy), in a grid-stride loop, with
each operand's part of that element: a scalar, one element, or a view of its core dimensions.
Host inputs give host results, device inputs device results; outputs are allocated or given
(positionally or as ``out=``). taipan.cuda.ufuncs re-exports the public names."""

import numpy as np

from taipan import _core
from taipan.cuda import devicearray, driver, kernelgen
from taipan.cuda.devicearray import DeviceNDArray
from taipan.cuda.ufunc_common import (
    _check_function,
    _classify,
    _cuda_module,
    _dtype_of,
    _options,
    _scalar_description,
    broadcast_shapes,
    broadcast_strides,
    select_signature,
)
from taipan.errors import TypingError, UnsupportedError

_GUFUNC_THREADS = 128


# --- pure helpers: kernel text, layouts, loop shapes -----------------------------------------


def gufunc_kernel_source(name, modes, loop_ndim, first_output):
    """The kernel of a CUDA gufunc as Python text: one loop element per iteration, the core
    function called with each operand's part of it. ``modes`` gives each operand as 'value' (a
    scalar argument), 'element' (one element of an array), 'slice' (a one-element 1-D view: an
    operand without core dimensions that the signature types as an array) or ('view', k) (the
    element's k core dimensions). Operands carry ``loop_ndim`` loop dimensions first; the loop
    runs over those of operand ``first_output``."""
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


def parse_layout(layout):
    """``'(m,n),(n)->(m)'`` as (number of inputs, each operand's core-dimension names)."""
    text = layout.replace(" ", "")
    sides = text.split("->")
    if len(sides) != 2 or not all(s.startswith("(") and s.endswith(")") for s in sides):
        raise ValueError(f"a gufunc layout looks like '(n),(n)->()', not {layout!r}")
    operands = []
    counts = []
    for side in sides:
        groups = side[1:-1].split("),(")
        counts.append(len(groups))
        for group in groups:
            names = [name for name in group.split(",") if name]
            if not all(name.isidentifier() for name in names):
                raise ValueError(f"a gufunc layout looks like '(n),(n)->()', not {layout!r}")
            operands.append(tuple(names))
    return counts[0], operands


def gufunc_schedule(layout, core_names, nin, shapes):
    """Loop shape and full output shapes of a gufunc call: ``shapes`` holds the inputs' shapes
    then the outputs' (None for those to allocate). Inputs' loop dimensions broadcast as in
    NumPy; given outputs must have the loop shape."""
    sizes = {}
    outers = []
    for position, (shape, names) in enumerate(zip(shapes, core_names)):
        if shape is None:
            continue
        what = f"input {position}" if position < nin else f"output {position - nin}"
        if len(shape) < len(names):
            raise ValueError(
                f"{what} has {len(shape)} dimension{'s' * (len(shape) != 1)}, but the layout "
                f"{layout!r} gives it {len(names)} core dimension{'s' * (len(names) != 1)}"
            )
        split = len(shape) - len(names)
        for name, extent in zip(names, shape[split:]):
            known = sizes.setdefault(name, extent)
            if known != extent:
                raise ValueError(
                    f"core dimension {name!r} of the layout {layout!r} is {known} in one "
                    f"operand and {extent} in {what}"
                )
        if position < nin:
            outers.append(tuple(shape[:split]))
    loop = broadcast_shapes(*outers)
    full = []
    for position in range(nin, len(core_names)):
        names = core_names[position]
        missing = [name for name in names if name not in sizes]
        if missing:
            raise ValueError(
                f"core dimension {missing[0]!r} of output {position - nin} is not given by any "
                "input: pass the output array"
            )
        expected = loop + tuple(sizes[name] for name in names)
        given = shapes[position]
        if given is not None and tuple(given) != expected:
            raise ValueError(
                f"output {position - nin} has shape {tuple(given)}, the call needs {expected}"
            )
        full.append(expected)
    return loop, full


# --- generalized ufuncs --------------------------------------------------------------------


class CUDAGUFunc:
    """A generalized ufunc on the GPU (``@guvectorize(signatures, layout, target='cuda')``):
    call it with the inputs (outputs are allocated) or with inputs and outputs; loop
    dimensions broadcast as in NumPy. Host inputs give host results, device inputs device
    results."""

    def __init__(self, py_func, signatures, layout, options):
        from taipan.cuda.compiler import split_signature
        from taipan.dispatcher import wrap_python_function

        py_func = getattr(py_func, "py_func", py_func)
        parameters = _check_function(py_func, "guvectorize(target='cuda')")
        wrap_python_function(self, py_func)
        self.layout = layout
        self.nin, self._core_names = parse_layout(layout)
        self.nout = len(self._core_names) - self.nin
        if parameters != len(self._core_names):
            raise TypingError(
                f"{py_func.__name__} takes {parameters} parameters but the layout {layout!r} "
                f"has {len(self._core_names)} operands (its inputs, then its outputs)"
            )
        if not signatures:
            raise UnsupportedError(
                "guvectorize(target='cuda') needs signatures: give the operand types, as "
                "guvectorize(['void(float32[:], float32[:])'], '(n)->()', target='cuda')"
            )
        self._options, self.identity = _options(options, gufunc=True)
        self._debug = bool(self._options.get("debug"))
        self._core = self._core_function(py_func)
        self._lock = _core.compiler_lock  # what it guards ends in a compilation
        self._kernels = {}
        self._signatures = []  # (operand dtypes, operand modes)
        for signature in signatures:
            arguments, result = split_signature(signature)
            if result is not None and result.kind_name != "NoneType":
                raise TypeError(
                    f"guvectorized functions cannot return values: signature {signature} "
                    f"specifies {result} return type"
                )
            self._signatures.append(self._operand_modes(signature, arguments))

    signature = property(lambda self: self.layout)
    nargs = property(lambda self: len(self._core_names))

    def _signature_index(self, inputs, kinds):
        """The index of the signature that takes these inputs (their kinds as _classify gives
        them); TypeError when none does. Called with the lock held."""
        descriptions = [
            ("array", v.dtype) if k != "scalar" else _scalar_description(v)
            for v, k in zip(inputs, kinds)
        ]
        index = select_signature([d[: self.nin] for d, _ in self._signatures], descriptions)
        if index is None:
            given = ", ".join(str(d) for _, d in descriptions)
            raise TypeError(f"{self.__name__}: no signature takes inputs of types ({given})")
        return index

    def _core_function(self, py_func):
        """What computes one loop index: the function as a CUDA device function (the
        simulator runs it in the interpreter instead)."""
        return kernelgen.device_function(py_func, self._options)

    def __repr__(self):
        return f"<CUDA gufunc '{self.__name__}' {self.layout}>"

    def _operand_modes(self, signature, arguments):
        if len(arguments) != len(self._core_names):
            raise TypeError(
                f"the layout {self.layout!r} has {len(self._core_names)} operands, the "
                f"signature {signature!r} gives {len(arguments)} types"
            )
        dtypes, modes = [], []
        for position, (argument, names) in enumerate(zip(arguments, self._core_names)):
            is_array = argument.kind_name == "Array"
            dtypes.append(_dtype_of(argument.dtype if is_array else argument, "operands"))
            if not is_array:
                if names or position >= self.nin:
                    raise TypingError(
                        f"operand {position} of {signature!r} is {argument}, but the layout "
                        f"{self.layout!r} needs an array there"
                    )
                modes.append("value")
            elif argument.ndim == len(names) and names:
                modes.append(("view", len(names)))
            elif not names and argument.ndim == 1:
                modes.append("slice")
            else:
                raise TypingError(
                    f"operand {position} of {signature!r} is {argument}, but the layout "
                    f"{self.layout!r} gives it {len(names)} core dimensions"
                )
        return tuple(dtypes), tuple(modes)

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
        source = gufunc_kernel_source(name, modes, loop_ndim, self.nin)
        namespace = {"cuda": _cuda_module(), "core": self._core}
        function = kernelgen.generated_function(name, source, namespace, "gufunc")
        from taipan.cuda.decorators import jit

        kernel = jit(function, **self._options).specialize_for(types)
        kernel.argument_types = types
        self._kernels[key] = kernel
        return kernel

    def inspect_asm(self, signature=0, loop_ndim=1):
        """The PTX of the kernel for a signature (an index into the signatures) with
        ``loop_ndim`` loop dimensions, the operands as the signature types them. Needs no
        GPU."""
        with self._lock:
            return self._kernel(signature, self._signatures[signature][1], loop_ndim).ptx

    def __call__(self, *args, out=None, stream=0, **keywords):
        if keywords:
            raise TypeError(
                f"{self.__name__}() got unexpected keyword argument(s) {sorted(keywords)}: CUDA "
                "gufuncs take out= and stream="
            )
        nin, nout = self.nin, self.nout
        outputs = gufunc_outputs(self.__name__, nin, nout, args, out)
        inputs, kinds = [], []
        for value in args[:nin]:
            value, where = _classify(value, stream)
            inputs.append(value)
            kinds.append(where)
        user_outputs, output_kinds = [], []
        for value in outputs:
            if value is None:
                user_outputs.append(None)
                output_kinds.append(None)
                continue
            if type(value) is DeviceNDArray:
                user_outputs.append(value)
                output_kinds.append("device")
            elif isinstance(value, np.ndarray) and not hasattr(value, "__cuda_array_interface__"):
                user_outputs.append(value)
                output_kinds.append("host")
            else:
                view = kernelgen.foreign_view(value, stream)
                if view is None:
                    raise TypeError(f"a gufunc output is an array, not {type(value).__name__}")
                user_outputs.append(view)
                output_kinds.append("device")
        to_host = "device" not in kinds and "device" not in output_kinds
        driver.ready()
        with self._lock:
            index = self._signature_index(inputs, kinds)
            dtypes, modes = self._signatures[index]
            modes = list(modes)
            for position, (value, kind) in enumerate(zip(inputs, kinds)):
                formal = dtypes[position]
                if kind == "scalar":
                    if modes[position] == "value":
                        continue
                    value, kind = np.asarray(value, formal), "host"
                if kind == "host":
                    value = devicearray.to_device(value.astype(formal, copy=False), stream)
                elif value.dtype != formal:
                    raise TypeError(
                        f"{self.__name__}: input {position} is a device array of {value.dtype}; "
                        f"the signature needs {formal} (device arrays are not cast)"
                    )
                if modes[position] == "value":
                    modes[position] = "element"  # an array where the signature has a scalar
                inputs[position] = value
                kinds[position] = "device"
            shapes = [v.shape if k == "device" else None for v, k in zip(inputs, kinds)]
            shapes = [s if s is not None else () for s in shapes]
            loop, full = gufunc_schedule(
                self.layout,
                self._core_names,
                nin,
                shapes + [None if v is None else v.shape for v in user_outputs],
            )
            device_outputs = []
            for position, (value, kind, shape) in enumerate(zip(user_outputs, output_kinds, full)):
                formal = dtypes[nin + position]
                if kind == "device":
                    if value.dtype != formal:
                        raise TypeError(
                            f"{self.__name__}: output {position} is a device array of "
                            f"{value.dtype}; the signature needs {formal}"
                        )
                    device_outputs.append(value)
                else:
                    device_outputs.append(devicearray.device_array(shape, formal, stream=stream))
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
                outer = broadcast_strides(value.shape[:split], value.strides[:split], loop_shape)
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
        results = []
        for value, kind, device in zip(outputs, output_kinds, device_outputs):
            if kind == "host":
                results.append(_copy_back(device, value, stream))
            elif kind == "device":
                results.append(value)
            elif to_host:
                results.append(device.copy_to_host(stream=stream))
            else:
                results.append(device)
        return results[0] if len(results) == 1 else tuple(results)


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


def gufunc_outputs(name, nin, nout, args, out):
    """A CUDA gufunc call's outputs, given positionally after the ``nin`` inputs or as ``out=``
    (None for each one to allocate); the GPU path and the simulator check calls alike."""
    if len(args) == nin + nout:
        if out is not None:
            raise ValueError("cannot specify argument 'out' as both positional and keyword")
        return list(args[nin:])
    if len(args) != nin:
        raise TypeError(
            f"{name}() takes {nin} positional argument{'s' * (nin != 1)} (when providing input "
            f"only) or {nin + nout} (when providing input and output), got {len(args)}"
        )
    if out is None:
        return [None] * nout
    outputs = list(out) if isinstance(out, tuple) else [out]
    if len(outputs) != nout:
        raise ValueError(f"{name} has {nout} outputs, out= gives {len(outputs)}")
    return outputs
