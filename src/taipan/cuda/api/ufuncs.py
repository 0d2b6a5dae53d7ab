"""The front of CUDA ufuncs and gufuncs, the same on the GPU path (taipan.cuda.ufuncs,
taipan.cuda.gufuncs) and in the simulator (taipan.cuda.simulator.ufuncs): NumPy's broadcast of
shapes and strides, numba-cuda's choice of a signature for a call's argument types, sorting a
call's operands into device arrays, host arrays and scalars, gufunc layouts and loop shapes,
the checks of the decorator's function and keywords and of a call's arguments, and the ufunc
and gufunc classes less how they run (UFuncFront, GUFuncFront).

A backend's class supplies ``_core_function(py_func)`` (what computes one element),
``_classify(value, stream)`` (classify_operand with its device arrays), ``__call__`` and, for
ufuncs, ``_output_dtype``, ``_flattened``, ``_make_reducer`` and ``_reduce_rows`` (see
UFuncFront.reduce)."""

import warnings

import numpy as np

from taipan import _core, compile_options
from taipan.cuda.api.decorators import split_signature
from taipan.errors import TypingError, UnsupportedError
from taipan.types import Type, parse_signature
from taipan.wrappers import wrap_python_function

_PYTHON_SCALARS = frozenset((bool, int, float, complex))
# The keywords that reach the kernel's compilation (the options table: the same for gufuncs).
_COMPILE_OPTIONS = compile_options.compiled("cuda.vectorize")
# What a Python scalar may become without changing kind (NumPy 2's rule for Python scalars).
_PYTHON_KINDS = {"b": "biufc", "i": "iufc", "u": "iufc", "f": "fc", "c": "c"}


# --- pure helpers: broadcasting, signature choice --------------------------------------------


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


# --- operands ----------------------------------------------------------------------------


# The dtype kinds of a CUDA ufunc's operands: numbers, booleans, datetime64 and timedelta64.
_OPERAND_KINDS = "biufcmM"


def classify_operand(value, device_array, device_operand, foreign_view):
    """(operand, 'device' | 'host' | 'scalar') of a call's argument: the backend's device arrays
    (of class `device_array`) as ``device_operand(value)``, other libraries' arrays as
    ``foreign_view(value)`` gives them (None: not one), host arrays as NumPy arrays (not yet
    copied), scalars as they are."""
    if type(value) is device_array:
        return device_operand(value), "device"
    if type(value) in _PYTHON_SCALARS or isinstance(value, np.generic):
        return value, "scalar"
    if type(value) is np.ndarray and value.dtype.kind in _OPERAND_KINDS:
        return value, "host"
    view = foreign_view(value)
    if view is not None:
        return view, "device"
    array = np.asarray(value)
    if array.dtype.kind not in _OPERAND_KINDS:
        raise TypeError(
            "CUDA ufuncs take numbers and arrays of numbers (or of datetime64 and timedelta64), "
            f"not {array.dtype}"
        )
    return array, "host"


def output_operand(value, device_array, device_operand, foreign_view, refusal):
    """(array, 'device' | 'host') of an output a call was given (as for classify_operand);
    TypeError saying `refusal` for anything else."""
    if type(value) is device_array:
        return device_operand(value), "device"
    if isinstance(value, np.ndarray) and not hasattr(value, "__cuda_array_interface__"):
        return value, "host"
    view = foreign_view(value)
    if view is None:
        raise TypeError(f"{refusal}, not {type(value).__name__}")
    return view, "device"


def is_array_object(value):
    """Whether an ``out=`` given to a CUDA ufunc or gufunc is returned as given: an array of
    its own (a device array, CuPy's, PyTorch's: it has a shape and a dtype). An object that
    only exports the CUDA Array Interface is returned as the device array viewing it, as
    numba-cuda returns (the caller could not use the bare exporter as an array)."""
    return hasattr(value, "shape") and hasattr(value, "dtype")


def scalar_type(dtype):
    """The taipan type of a NumPy scalar dtype (a number, a boolean, datetime64[unit] or
    timedelta64[unit])."""
    dtype = np.dtype(dtype)
    if dtype.kind in "mM":
        from taipan.typeof import from_dtype

        return from_dtype(dtype)
    return _core.scalar_type(dtype.name)


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
    if "nopython" in options and not gufunc:
        # numba-cuda's warning: CUDA ufuncs always compile in nopython mode
        warnings.warn("nopython kwarg for cuda target is redundant", RuntimeWarning, stacklevel=4)
    if options.pop("nopython", True) is False:
        raise TypeError("nopython flag must be True")
    options.pop("forceobj", None)
    if gufunc and options.pop("writable_args", ()):
        raise TypeError("writable_args are not supported by CUDA gufuncs")
    identity = options.pop("identity", None)
    compile_options = {key: options.pop(key) for key in list(options) if key in _COMPILE_OPTIONS}
    if options:
        raise KeyError(f"Unrecognized options: {sorted(options)}")
    compile_options.pop("inline", None)  # device functions are always inlined by LLVM
    return compile_options, identity


def _check_function(py_func, what):
    code = getattr(py_func, "__code__", None)
    if code is None:
        raise TypeError(f"{what} needs a Python function, not {type(py_func).__name__}")
    if code.co_flags & 0x0C or code.co_kwonlyargcount:
        raise TypingError(f"a CUDA ufunc's function takes positional parameters only: {py_func}")
    return code.co_argcount


_UFUNC_KINDS = ("Boolean", "Integer", "Float", "Complex", "NPDatetime", "NPTimedelta")


def _dtype_of(taipan_type, what):
    if taipan_type.kind_name not in _UFUNC_KINDS:
        raise TypingError(
            f"a CUDA ufunc's {what} are numbers or booleans (or datetime64 and timedelta64), "
            f"not {taipan_type}"
        )
    return np.dtype(taipan_type.name)


# --- gufunc layouts and loop shapes -----------------------------------------------------------


def parse_layout(layout):
    """``'(m,n),(n)->(m)'`` as (number of inputs, each operand's core-dimension names). A
    layout without ``->`` (``'(n),(n),(z)'``) has inputs only, which the function writes in
    place."""
    text = layout.replace(" ", "")
    sides = text.split("->")
    if len(sides) > 2 or not all(s.startswith("(") and s.endswith(")") for s in sides):
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
            given = tuple(given)
            # numba-cuda's rule: an output may lack leading loop dimensions of extent 1 (its
            # elements are the same); the loop views it with those dimensions added.
            if (1,) * (len(expected) - len(given)) + given != expected:
                raise ValueError(
                    f"output {position - nin} has shape {given}, the call needs {expected}"
                )
            expected = given
        full.append(expected)
    return loop, full


# --- calls ------------------------------------------------------------------------------------


def check_keywords(name, keywords, what):
    """Refuses keywords a CUDA ufunc or gufunc call does not take."""
    if keywords:
        raise TypeError(
            f"{name}() got unexpected keyword argument(s) {sorted(keywords)}: CUDA {what} take "
            "out= and stream="
        )


def ufunc_arguments(name, nin, args, out):
    """(inputs, out) of a CUDA ufunc call, whose output may come as a last positional argument."""
    if len(args) != nin:
        if len(args) == nin + 1 and out is None:
            *args, out = args
        else:
            raise TypeError(
                f"{name}() takes {nin} input argument{'s' * (nin != 1)}, got {len(args)}"
            )
    return args, out


def gufunc_outputs(name, nin, nout, args, out):
    """A CUDA gufunc call's outputs, given positionally after the ``nin`` inputs or as ``out=``
    (None for each one to allocate); the GPU path and the simulator check calls alike."""
    if not nout:  # every operand an input, written in place: NumPy's message
        if out is not None:
            raise TypeError(f"{name}() has no outputs to give as out=")
        if len(args) != nin:
            raise TypeError(
                f"{name}() takes from {nin} to {nin} positional arguments but {len(args)} "
                f"{'was' if len(args) == 1 else 'were'} given"
            )
        return []
    if len(args) == nin + nout:
        if out is not None:
            raise ValueError("cannot specify argument 'out' as both positional and keyword")
        return list(args[nin:])
    if len(args) != nin:

        def positional(count):
            return f"{count} positional argument{'s' * (count != 1)}"

        # numba-cuda's message, with the gufunc's name
        raise TypeError(
            f"{name}(): this gufunc accepts {positional(nin)} (when providing input only) or "
            f"{positional(nin + nout)} (when providing input and output). Got "
            f"{positional(len(args))}."
        )
    if out is None:
        return [None] * nout
    outputs = list(out) if isinstance(out, tuple) else [out]
    if len(outputs) != nout:
        raise ValueError(f"{name} has {nout} outputs, out= gives {len(outputs)}")
    return outputs


def fold_rows(value, combine):
    """``value[0] op value[1] op ...`` along axis 0 of an n-dimensional array, as a tree of
    ``combine`` calls on halves (a ufunc's reduce along axis 0); the rows left over by odd
    lengths are folded in at the end."""
    leftovers = []
    while value.shape[0] > 1:
        half = value.shape[0] // 2
        if value.shape[0] % 2:
            leftovers.append(value[2 * half])
        value = combine(value[:half], value[half : 2 * half])
    value = value[0]
    for row in leftovers:
        value = combine(value, row)
    return value


# --- the classes -----------------------------------------------------------------------------


def _rebuild_ufunc(cls, py_func, signatures, options):
    if isinstance(py_func, bytes):
        import pickle

        py_func = pickle.loads(py_func)
    return cls(py_func, signatures, options)


class UFuncFront:
    """A CUDA ufunc (``@vectorize(signatures, target='cuda')``) less how it runs: its function,
    signatures (given, or added per call when none were) and their choice, attributes and
    ``reduce``'s checks."""

    # Said after the name in the repr: which backend runs it.
    _REPR_SUFFIX = ""

    def __init__(self, py_func, signatures, options):
        py_func = getattr(py_func, "py_func", py_func)
        self.nin = _check_function(py_func, "vectorize(target='cuda')")
        if self.nin < 1:
            raise TypingError(f"a ufunc needs at least one input: {py_func.__qualname__}")
        wrap_python_function(self, py_func)
        self._options, self.identity = _options(options, gufunc=False)
        self._debug = bool(self._options.get("debug"))
        self._core = self._core_function(py_func)
        self._signatures = []  # (input dtypes, output dtype or None until inferred)
        self._dynamic = not signatures
        self._lock = _core.compiler_lock  # what it guards ends in a compilation
        self._kernels = {}
        self._plans = {}
        self._reducer = None
        self._made_with = (list(signatures), dict(options))  # what a pickle carries
        for signature in signatures:
            self._add(signature)

    def __reduce__(self):
        """By reference when its module's name finds it; else by value: the Python function
        (taipan.serialize), the signatures and options, compiled again where it lands."""
        from taipan.serialize import _by_value, _reachable_by_name

        if _reachable_by_name(self):
            return self.__qualname__
        py_func = self.py_func
        if not _reachable_by_name(py_func):
            py_func = _by_value(py_func)
        return _rebuild_ufunc, (type(self), py_func, *self._made_with)

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
        return f"<CUDA ufunc '{self.__name__}'{self._REPR_SUFFIX}>"

    def _add(self, signature):
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

    def reduce(self, array, axis=0, stream=0):
        """Reduces along axis 0 (or over all elements, axis=None) with the ufunc, as numba-cuda's
        ``reduce``: a 1-D array (or axis=None) gives a scalar, through the backend's reduction
        (``_make_reducer``); an n-dimensional array gives an array of its other dimensions (on
        the device when the input was), through ufunc calls on halves (``_reduce_rows``)."""
        if self.nin != 2:
            raise ValueError("reduce only supported for binary functions")
        value, where = self._classify(array, stream)
        if where == "scalar":
            raise TypeError("reduce needs an array, not a scalar")
        if axis is None:
            if value.ndim != 1:
                value = self._flattened(value, where)
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
                self._reducer = self._make_reducer()
            return self._reducer._reduce(value, None, None, None, stream)
        return self._reduce_rows(value, where, stream)


class GUFuncFront:
    """A CUDA gufunc (``@guvectorize(signatures, layout, target='cuda')``) less how it runs:
    its layout, signatures with each operand's mode, and their choice for a call."""

    _REPR_SUFFIX = ""

    def __init__(self, py_func, signatures, layout, options):
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
        formals = [d[: self.nin] for d, _ in self._signatures]
        index = select_signature(formals, descriptions)
        if index is None:
            given = ", ".join(str(d) for _, d in descriptions)
            # A device array is never cast (it would be copied); say so when casting one would
            # have matched, as numba-cuda does.
            castable = [
                ("scalar", d) if k == "device" else (k, d) for (_, d), k in zip(descriptions, kinds)
            ]
            if "device" in kinds and select_signature(formals, castable) is not None:
                raise TypeError(
                    f"{self.__name__}: no signature takes inputs of types ({given}); a "
                    "compatible signature is possible by casting but a device array does not "
                    "support .astype()"
                )
            raise TypeError(f"{self.__name__}: no signature takes inputs of types ({given})")
        return index

    def __repr__(self):
        return f"<CUDA gufunc '{self.__name__}' {self.layout}{self._REPR_SUFFIX}>"

    def _call_operands(self, args, out, keywords, stream):
        """(outputs as given, inputs, input kinds, outputs, output kinds) of a call: the
        inputs sorted by the backend's ``_classify``, the outputs (given positionally or as
        out=) by its ``_output_operand``, None and kind None for each one to allocate."""
        check_keywords(self.__name__, keywords, "gufuncs")
        outputs = gufunc_outputs(self.__name__, self.nin, self.nout, args, out)
        inputs, kinds = [], []
        for value in args[: self.nin]:
            value, kind = self._classify(value, stream)
            inputs.append(value)
            kinds.append(kind)
        given, given_kinds = [], []
        for value in outputs:
            value, kind = (None, None) if value is None else self._output_operand(value, stream)
            given.append(value)
            given_kinds.append(kind)
        return outputs, inputs, kinds, given, given_kinds

    def _schedule(self, inputs, kinds, array_kind, outputs, output_kinds, dtypes, allocate):
        """(loop shape, output arrays) of a call whose inputs _cast_inputs made arrays of kind
        `array_kind`: the outputs are the given device arrays (of the signature's dtypes), the
        others ``allocate(shape, dtype)``."""
        shapes = [v.shape if k == array_kind else () for v, k in zip(inputs, kinds)]
        loop, full = gufunc_schedule(
            self.layout,
            self._core_names,
            self.nin,
            shapes + [None if v is None else v.shape for v in outputs],
        )
        arrays = []
        for position, (value, kind, shape) in enumerate(zip(outputs, output_kinds, full)):
            formal = dtypes[self.nin + position]
            if kind != "device":
                arrays.append(allocate(shape, formal))
            elif value.dtype != formal:
                raise TypeError(
                    f"{self.__name__}: output {position} is a device array of {value.dtype}; "
                    f"the signature needs {formal}"
                )
            else:
                arrays.append(value)
        return loop, arrays

    def _cast_inputs(self, inputs, kinds, dtypes, modes, scalar, host, kind):
        """Makes a call's inputs (lists, changed in place) what the loop passes the core
        function, for a signature's operand `dtypes` and `modes`: a scalar where the signature
        has a value as ``scalar(value, formal dtype)``; elsewhere an array of the formal dtype
        of kind `kind` (host arrays, and scalars where the signature has an array, through
        ``host(array)``; device arrays must have that dtype), a value mode becoming 'element'."""
        for position, (value, where) in enumerate(zip(inputs, kinds)):
            formal = dtypes[position]
            if where == "scalar":
                if modes[position] == "value":
                    inputs[position] = scalar(value, formal)
                    continue
                value, where = np.asarray(value, formal), "host"
            if where == "host":
                value = host(value.astype(formal, copy=False))
            elif value.dtype != formal:
                raise TypeError(
                    f"{self.__name__}: input {position} is a device array of {value.dtype}; "
                    f"the signature needs {formal} (device arrays are not cast)"
                )
            if modes[position] == "value":
                modes[position] = "element"  # an array where the signature has a scalar
            inputs[position] = value
            kinds[position] = kind

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


def c_contiguous_only():
    """The error of reduce(axis=None) on a device array that is not C-contiguous."""
    return NotImplementedError("reduce(axis=None) needs a C-contiguous device array")
