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
``stream=``."""

import threading

import numpy as np

from taipan import _core
from taipan.cuda import devicearray, driver, kernelgen
from taipan.cuda.devicearray import DeviceNDArray
from taipan.cuda.streams import stream_handle
from taipan.errors import TypingError, UnsupportedError

_THREADS = 256
_BLOCKS_PER_MULTIPROCESSOR = 32
_GUFUNC_THREADS = 128
_PYTHON_SCALARS = frozenset((bool, int, float, complex))
# Plans are kept per argument shape, so a program calling with ever new shapes would grow the
# table: past this many it starts again (the kernels stay).
_MAX_PLANS = 512
# Device copies of host operands, and results on their way back to the host, live only during
# a call: calls on the default stream reuse them (per thread; the stream orders the reuse)
# instead of paying an allocation and a free each, for buffers up to this size.
_POOLED_BYTES = 64 << 20
_pool = threading.local()
_COMPILE_OPTIONS = (
    "fastmath",
    "debug",
    "lineinfo",
    "opt",
    "boundscheck",
    "max_registers",
    "inline",
)
# What a Python scalar may become without changing kind (NumPy 2's rule for Python scalars).
_PYTHON_KINDS = {"b": "biufc", "i": "iufc", "u": "iufc", "f": "fc", "c": "c"}


# --- pure helpers: broadcasting, memory order, signature choice, kernel text ----------------


def _shape_text(shape):
    return "(" + ",".join(str(extent) for extent in shape) + ("," if len(shape) == 1 else "") + ")"


def broadcast_shapes(*shapes):
    """NumPy's broadcast of array shapes (ValueError with NumPy's message when they do not)."""
    ndim = max((len(shape) for shape in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        offset = ndim - len(shape)
        for axis, extent in enumerate(shape):
            current = result[offset + axis]
            if extent != current and extent != 1:
                if current != 1:
                    raise ValueError(
                        "operands could not be broadcast together with shapes "
                        + " ".join(_shape_text(s) for s in shapes)
                    )
                result[offset + axis] = extent
    return tuple(result)


def broadcast_strides(shape, strides, target):
    """Strides that view an array of ``shape`` as one of the broadcast shape ``target``: zero
    along the axes it lacks and along those where it has one element."""
    pad = len(target) - len(shape)
    return (0,) * pad + tuple(0 if extent == 1 else s for extent, s in zip(shape, strides))


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


def _scalar_fits(kind, dtype, formal):
    if kind == "python":
        return formal.kind in _PYTHON_KINDS.get(dtype.kind, "")
    return bool(np.can_cast(dtype, formal, "same_kind"))


def select_signature(signatures, inputs):
    """The index of the signature (a tuple of input dtypes) a call takes. ``inputs`` gives each
    argument as (kind, dtype), kind 'array', 'scalar' (a NumPy scalar) or 'python' (a Python
    number, with the dtype NumPy gives it). numba-cuda's rules, in order: every type exact;
    arrays exact and scalars of the same kind; arrays exact and any scalars; then arrays that
    cast safely (the kernel converts them element by element). None when nothing fits."""

    def exact(formal, kind, dtype):
        return dtype == formal

    def same_kind_scalars(formal, kind, dtype):
        return dtype == formal if kind == "array" else _scalar_fits(kind, dtype, formal)

    def any_scalars(formal, kind, dtype):
        return dtype == formal if kind == "array" else True

    def safe_arrays(formal, kind, dtype):
        if kind == "array":
            return bool(np.can_cast(dtype, formal, "safe"))
        return _scalar_fits(kind, dtype, formal)

    for rule in (exact, same_kind_scalars, any_scalars, safe_arrays):
        for index, formals in enumerate(signatures):
            if len(formals) == len(inputs) and all(
                rule(formal, kind, dtype) for formal, (kind, dtype) in zip(formals, inputs)
            ):
                return index
    return None


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


# --- operands ----------------------------------------------------------------------------


def _classify(value, stream):
    """(operand, 'device' | 'host' | 'scalar'): device arrays as taipan device arrays, host
    arrays as NumPy arrays (not yet copied), scalars as they are."""
    if type(value) is DeviceNDArray:
        return value, "device"
    if type(value) in _PYTHON_SCALARS or isinstance(value, np.generic):
        return value, "scalar"
    if type(value) is np.ndarray and value.dtype.kind in "biufc":
        return value, "host"
    view = kernelgen.foreign_view(value, stream)
    if view is not None:
        return view, "device"
    array = np.asarray(value)
    if array.dtype.kind not in "biufc":
        raise TypeError(f"CUDA ufuncs take numbers and arrays of numbers, not {array.dtype}")
    return array, "host"


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


def _scalar_description(value):
    """('python' | 'scalar', dtype) of a scalar argument, for choosing the signature."""
    if type(value) in _PYTHON_SCALARS:
        return "python", np.asarray(value).dtype
    return "scalar", value.dtype


def _options(options, gufunc):
    """(compile options, identity) from the decorator's keywords, refusing what numba-cuda
    refuses."""
    options = dict(options)
    options.pop("target", None)
    if options.pop("cache", False):
        raise TypeError("caching is not supported by CUDA ufuncs")
    if options.pop("nopython", True) is False:
        raise TypeError("nopython flag must be True: CUDA ufuncs compile in nopython mode")
    options.pop("forceobj", None)
    if gufunc and options.pop("writable_args", ()):
        raise TypeError("writable_args are not supported by CUDA gufuncs")
    identity = options.pop("identity", None)
    compile_options = {key: options.pop(key) for key in list(options) if key in _COMPILE_OPTIONS}
    if options:
        raise KeyError(f"Unrecognized options: {sorted(options)}")
    compile_options.pop("inline", None)  # device functions are always inlined by LLVM
    return compile_options, identity


def _cuda_module():
    import taipan.cuda

    return taipan.cuda


def _check_function(py_func, what):
    code = getattr(py_func, "__code__", None)
    if code is None:
        raise TypeError(f"{what} needs a Python function, not {type(py_func).__name__}")
    if code.co_flags & 0x0C or code.co_kwonlyargcount:
        raise TypingError(f"a CUDA ufunc's function takes positional parameters only: {py_func}")
    return code.co_argcount


def _dtype_of(taipan_type, what):
    if taipan_type.kind_name not in ("Boolean", "Integer", "Float", "Complex"):
        raise TypingError(f"a CUDA ufunc's {what} are numbers or booleans, not {taipan_type}")
    return np.dtype(taipan_type.name)


class _Plan:
    """What a call with given argument dtypes, shapes and strides does: the compiled kernel, its
    argument types, how each operand is described to it, the output's shape, dtype and order,
    and the launch size."""

    __slots__ = ("blocks", "debug", "describe", "dtype", "kernel", "order", "shape", "types")


class CUDAUFunc:
    """A ufunc running on the GPU (``@vectorize(signatures, target='cuda')``): call it with
    host or device arrays and scalars; ``out=`` and ``stream=`` as in numba-cuda."""

    def __init__(self, py_func, signatures, options):
        from taipan.dispatcher import wrap_python_function

        py_func = getattr(py_func, "py_func", py_func)
        self.nin = _check_function(py_func, "vectorize(target='cuda')")
        if self.nin < 1:
            raise TypingError(f"a ufunc needs at least one input: {py_func.__qualname__}")
        wrap_python_function(self, py_func)
        self._options, self.identity = _options(options, gufunc=False)
        self._debug = bool(self._options.get("debug"))
        self._core = kernelgen.device_function(py_func, self._options)
        self._signatures = []  # (input dtypes, output dtype or None until inferred)
        self._dynamic = not signatures
        self._lock = threading.RLock()
        self._kernels = {}
        self._plans = {}
        self._reducer = None
        for signature in signatures:
            self._add(signature)

    nout = 1

    @property
    def nargs(self):
        return self.nin + 1

    @property
    def ntypes(self):
        return len(self._signatures)

    @property
    def types(self):
        """The signatures as NumPy spells ufunc loops ('ff->f')."""
        return [
            "".join(d.char for d in inputs) + "->" + (output.char if output else "?")
            for inputs, output in self._signatures
        ]

    def __repr__(self):
        return f"<CUDA ufunc '{self.__name__}'>"

    def _add(self, signature):
        from taipan.cuda.compiler import split_signature
        from taipan.types import Type, parse_signature

        if isinstance(signature, Type) or (isinstance(signature, str) and "(" not in signature):
            # NumbaPro's [float32]: every argument and the result of that type.
            text = str(signature)
            parsed = parse_signature(f"{text}({', '.join([text] * self.nin)})")
            arguments, result = tuple(parsed.args), parsed.return_type
        else:
            arguments, result = split_signature(signature)
        if len(arguments) != self.nin:
            raise TypeError(
                f"{self.__name__} takes {self.nin} arguments, the signature {signature!r} gives "
                f"{len(arguments)}"
            )
        inputs = tuple(_dtype_of(t, "arguments") for t in arguments)
        output = None
        if result is not None and result.kind_name != "NoneType":
            output = _dtype_of(result, "results")
        if all(known != inputs for known, _ in self._signatures):
            self._signatures.append((inputs, output))

    def _output_dtype(self, index):
        """The signature's result dtype, inferred from the device function when not given."""
        inputs, output = self._signatures[index]
        if output is None:
            compiled = self._core.specialize_for([kernelgen.scalar_type(d) for d in inputs])
            output = _dtype_of(compiled.return_type, "results")
            self._signatures[index] = (inputs, output)
        return output

    def _select(self, descriptions):
        """The signature index for the inputs' (kind, dtype); a dynamic ufunc adds one."""
        formals = [inputs for inputs, _ in self._signatures]
        index = select_signature(formals, descriptions)
        if index is not None and (
            not self._dynamic or formals[index] == tuple(d for _, d in descriptions)
        ):
            return index
        if self._dynamic:
            self._signatures.append((tuple(d for _, d in descriptions), None))
            return len(self._signatures) - 1
        given = ", ".join(f"{d}" + (" scalar" if k != "array" else "") for k, d in descriptions)
        known = "; ".join(", ".join(str(d) for d in f) for f in formals)
        raise TypeError(
            f"{self.__name__}: no signature takes ({given}); the signatures take ({known}). "
            "Arrays must have these dtypes or cast safely to them"
        )

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
            "cuda": _cuda_module(),
            "core": self._core,
            "result": self._output_dtype(index).type,
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
        if keywords:
            raise TypeError(
                f"{self.__name__}() got unexpected keyword argument(s) {sorted(keywords)}: CUDA "
                "ufuncs take out= and stream="
            )
        if len(args) != self.nin:
            if len(args) == self.nin + 1 and out is None:
                *args, out = args
            else:
                raise TypeError(
                    f"{self.__name__}() takes {self.nin} input argument"
                    f"{'s' * (self.nin != 1)}, got {len(args)}"
                )
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
                value, where = _classify(value, stream)
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
            return out
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

    def reduce(self, array, axis=0, stream=0):
        """Reduces along axis 0 (or over all elements, axis=None) with the ufunc, as numba-cuda's
        ``reduce``: a 1-D array (or axis=None) gives a scalar, through one tree-reduction kernel;
        an n-dimensional array gives an array of its other dimensions (on the device when the
        input was), through ufunc calls on halves."""
        if self.nin != 2:
            raise ValueError("reduce only supported for binary functions")
        value, where = _classify(array, stream)
        if where == "scalar":
            raise TypeError("reduce needs an array, not a scalar")
        if axis is None:
            if value.ndim != 1:
                if where == "host":
                    value = value.reshape(-1)
                elif value.is_c_contiguous():
                    value = value.reshape(value.size)
                else:
                    raise NotImplementedError("reduce(axis=None) needs a C-contiguous device array")
        elif axis not in (0, -value.ndim if value.ndim else 0):
            raise NotImplementedError(
                f"CUDA ufunc reduce works along axis 0 (or axis=None), not axis {axis}"
            )
        if value.ndim == 0:
            raise TypeError("reduce needs an array of at least one dimension")
        with self._lock:
            index = select_signature(
                [inputs for inputs, _ in self._signatures], [("array", value.dtype)] * 2
            )
            if index is None or self._signatures[index][0] != (value.dtype,) * 2:
                if self._dynamic:
                    self._select([("array", value.dtype)] * 2)
                else:
                    raise TypeError(
                        f"{self.__name__}.reduce: no signature takes two {value.dtype} values"
                    )
        count = value.shape[0]
        if count == 0:
            if self.identity is None or self.identity == "reorderable":
                raise TypeError("Reduction on an empty array.")
            identity = value.dtype.type(self.identity)
            return identity if value.ndim == 1 else np.full(value.shape[1:], identity)
        if value.ndim == 1:
            if self._reducer is None:
                from taipan.cuda.reduction import Reduce

                self._reducer = Reduce(self._core)
            return self._reducer._reduce(value, None, None, None, stream)
        driver.ready()
        if where == "host":
            value = devicearray.to_device(value, stream)
        leftovers = []
        while value.shape[0] > 1:
            half = value.shape[0] // 2
            if value.shape[0] % 2:
                leftovers.append(value[2 * half])
            value = self(value[:half], value[half : 2 * half], stream=stream)
        value = value[0]
        for row in leftovers:
            value = self(value, row, stream=stream)
        return value.copy_to_host(stream=stream) if where == "host" else value


def vectorize(signatures, options):
    """The decorator ``vectorize(signatures, target='cuda')`` returns."""

    def decorate(py_func):
        return CUDAUFunc(py_func, signatures, options)

    return decorate


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
        self._core = kernelgen.device_function(py_func, self._options)
        self._lock = threading.RLock()
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
            descriptions = [
                ("array", v.dtype) if k != "scalar" else _scalar_description(v)
                for v, k in zip(inputs, kinds)
            ]
            index = select_signature([d[: self.nin] for d, _ in self._signatures], descriptions)
            if index is None:
                given = ", ".join(str(d) for _, d in descriptions)
                raise TypeError(f"{self.__name__}: no signature takes inputs of types ({given})")
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
