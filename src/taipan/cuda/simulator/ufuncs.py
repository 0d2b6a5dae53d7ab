"""CUDA ufuncs and gufuncs in the simulator (``@vectorize(..., target='cuda')`` and
``@guvectorize(..., target='cuda')`` with TAIPAN_ENABLE_CUDASIM set).

The classes are the GPU path's (taipan.cuda.ufuncs), which parse the signatures and layouts,
choose a signature for a call and check its operands, with the parts that compile and launch
replaced: the scalar function runs in the interpreter, once per element (NumPy's frompyfunc
broadcasts it) or once per loop index of a gufunc, on the NumPy arrays behind device arrays.
Host inputs give host results and device inputs device results, as on the GPU."""

import numpy as np

from taipan.cuda import ufuncs as gpu
from taipan.cuda.simulator.devicearray import DeviceNDArray, _register, foreign_array
from taipan.cuda.simulator.reduction import Reduce, scalar_function
from taipan.decorators import njit


def _classify(value):
    """(operand, 'device' | 'host' | 'scalar'), device operands as their NumPy arrays."""
    if type(value) is DeviceNDArray:
        return value._array, "device"
    if type(value) in gpu._PYTHON_SCALARS or isinstance(value, np.generic):
        return value, "scalar"
    if type(value) is np.ndarray and value.dtype.kind in "biufc":
        return value, "host"
    if hasattr(value, "__cuda_array_interface__"):
        return foreign_array(value), "device"
    array = np.asarray(value)
    if array.dtype.kind not in "biufc":
        raise TypeError(f"CUDA ufuncs take numbers and arrays of numbers, not {array.dtype}")
    return array, "host"


def _output(value):
    """(array, 'device' | 'host') of an out= operand."""
    if type(value) is DeviceNDArray:
        return value._array, "device"
    if isinstance(value, np.ndarray) and not hasattr(value, "__cuda_array_interface__"):
        return value, "host"
    if hasattr(value, "__cuda_array_interface__"):
        return foreign_array(value), "device"
    raise TypeError(f"out= takes a host or device array, not {type(value).__name__}")


def _cast(values, dtype):
    """An array of Python or NumPy numbers as `dtype`, integers wrapping as on the GPU."""
    values = np.asarray(values)
    try:
        return values.astype(dtype)
    except OverflowError:
        bits = [int(v) & 0xFFFFFFFFFFFFFFFF for v in values.reshape(-1)]
        return np.array(bits, np.uint64).astype(dtype).reshape(values.shape)


def _result_dtype(py_func, inputs):
    """The result dtype of the scalar function for these input dtypes: as compiled code types
    it when taipan's CPU compiler can type the function, else that of a call on ones."""
    try:
        dispatcher = njit(py_func)
        dispatcher.compile(tuple(gpu.kernelgen.scalar_type(d) for d in inputs))
        return gpu._dtype_of(dispatcher.nopython_signatures[-1].return_type, "results")
    except Exception:  # noqa: BLE001 (untypeable on the CPU: ask Python)
        return np.asarray(py_func(*(d.type(1) for d in inputs))).dtype


class CUDAUFunc(gpu.CUDAUFunc):
    """A CUDA ufunc of the simulator: the GPU path's signatures, checks and attributes; calls
    run the scalar function in the interpreter."""

    def __init__(self, py_func, signatures, options):
        self._call = scalar_function(py_func, "vectorize(target='cuda')")
        super().__init__(py_func, signatures, options)

    def _core_function(self, py_func):
        return self._call

    def __repr__(self):
        return f"<CUDA ufunc '{self.__name__}' (CUDA simulator)>"

    def _output_dtype(self, index):
        inputs, output = self._signatures[index]
        if output is None:
            output = _result_dtype(self.py_func, inputs)
            self._signatures[index] = (inputs, output)
        return output

    def _kernel(self, *args, **kwargs):
        raise NotImplementedError("the CUDA simulator compiles no kernels")

    def inspect_asm(self, *args, **kwargs):
        raise NotImplementedError("the CUDA simulator compiles no PTX")

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
        operands, kinds = [], []
        for value in args:
            value, kind = _classify(value)
            operands.append(value)
            kinds.append(kind)
        on_device = "device" in kinds
        target = None
        if out is not None:
            if isinstance(out, tuple) and len(out) == 1:
                out = out[0]
            target, _ = _output(out)
        with self._lock:
            descriptions = [
                ("array", v.dtype) if k != "scalar" else gpu._scalar_description(v)
                for v, k in zip(operands, kinds)
            ]
            index = self._select(descriptions)
            result_dtype = self._output_dtype(index)
            formals = self._signatures[index][0]
        shapes = [v.shape for v, k in zip(operands, kinds) if k != "scalar"]
        if target is not None:
            shape = gpu.broadcast_shapes(*shapes, target.shape) if shapes else target.shape
            if shape != target.shape:
                raise ValueError(
                    f"non-broadcastable output operand with shape {gpu._shape_text(target.shape)}"
                    f" doesn't match the broadcast shape {gpu._shape_text(shape)}"
                )
            if not np.can_cast(result_dtype, target.dtype, "same_kind"):
                raise TypeError(
                    f"Cannot cast ufunc '{self.__name__}' output from {result_dtype!r} to "
                    f"{target.dtype!r} with casting rule 'same_kind'"
                )
        else:
            shape = gpu.broadcast_shapes(*shapes) if shapes else (1,)  # numba: scalars give (1,)
        values = [
            formal.type(v) if k == "scalar" else v.astype(formal, copy=False)
            for v, k, formal in zip(operands, kinds, formals)
        ]
        result = self._evaluate(values, shape, result_dtype)
        if target is not None:
            target[...] = result
            return out
        if on_device:
            return DeviceNDArray._wrap(_register(result), stream)
        return result

    def _evaluate(self, values, shape, dtype):
        """The scalar function over the broadcast operands, as an array of `dtype`."""
        if 0 in shape:
            return np.empty(shape, dtype)
        elementwise = np.frompyfunc(self._call, self.nin, 1)
        return np.ascontiguousarray(np.broadcast_to(_cast(elementwise(*values), dtype), shape))

    def reduce(self, array, axis=0, stream=0):
        """Reduces along axis 0 (or over all elements, axis=None), as numba-cuda's ``reduce``."""
        if self.nin != 2:
            raise ValueError("reduce only supported for binary functions")
        value, where = _classify(array)
        if where == "scalar":
            raise TypeError("reduce needs an array, not a scalar")
        if axis is None:
            if value.ndim != 1:
                if where == "device" and not value.flags.c_contiguous:
                    raise NotImplementedError("reduce(axis=None) needs a C-contiguous device array")
                value = value.reshape(-1)
        elif axis not in (0, -value.ndim if value.ndim else 0):
            raise NotImplementedError(
                f"CUDA ufunc reduce works along axis 0 (or axis=None), not axis {axis}"
            )
        if value.ndim == 0:
            raise TypeError("reduce needs an array of at least one dimension")
        with self._lock:
            index = gpu.select_signature(
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
                self._reducer = Reduce(self._call)
            return self._reducer._reduce(value, None, None, None, stream)
        leftovers = []
        while value.shape[0] > 1:
            half = value.shape[0] // 2
            if value.shape[0] % 2:
                leftovers.append(value[2 * half])
            value = self(value[:half], value[half : 2 * half])
        value = value[0]
        for row in leftovers:
            value = self(value, row)
        value = np.asarray(value)
        return DeviceNDArray._wrap(_register(value.copy()), stream) if where == "device" else value


def vectorize(signatures, options):
    """The decorator ``vectorize(signatures, target='cuda')`` returns in the simulator."""

    def decorate(py_func):
        return CUDAUFunc(py_func, signatures, options)

    return decorate


class CUDAGUFunc(gpu.CUDAGUFunc):
    """A CUDA gufunc of the simulator: the GPU path's layout, signatures and checks; the
    function runs in the interpreter once per index of the loop dimensions."""

    def __init__(self, py_func, signatures, layout, options):
        self._call = scalar_function(py_func, "guvectorize(target='cuda')")
        super().__init__(py_func, signatures, layout, options)

    def _core_function(self, py_func):
        return self._call

    def __repr__(self):
        return f"<CUDA gufunc '{self.__name__}' {self.layout} (CUDA simulator)>"

    def _kernel(self, *args, **kwargs):
        raise NotImplementedError("the CUDA simulator compiles no kernels")

    def inspect_asm(self, *args, **kwargs):
        raise NotImplementedError("the CUDA simulator compiles no PTX")

    def __call__(self, *args, out=None, stream=0, **keywords):
        if keywords:
            raise TypeError(
                f"{self.__name__}() got unexpected keyword argument(s) {sorted(keywords)}: CUDA "
                "gufuncs take out= and stream="
            )
        nin, nout = self.nin, self.nout
        outputs = gpu.gufunc_outputs(self.__name__, nin, nout, args, out)
        inputs, kinds = [], []
        for value in args[:nin]:
            value, kind = _classify(value)
            inputs.append(value)
            kinds.append(kind)
        given, given_kinds = [], []
        for value in outputs:
            if value is None:
                given.append(None)
                given_kinds.append(None)
            else:
                try:
                    array, kind = _output(value)
                except TypeError:
                    raise TypeError(
                        f"a gufunc output is an array, not {type(value).__name__}"
                    ) from None
                given.append(array)
                given_kinds.append(kind)
        to_host = "device" not in kinds and "device" not in given_kinds
        with self._lock:
            dtypes, modes = self._signatures[self._signature_index(inputs, kinds)]
        modes = list(modes)
        for position, (value, kind) in enumerate(zip(inputs, kinds)):
            formal = dtypes[position]
            if kind == "scalar":
                if modes[position] == "value":
                    inputs[position] = formal.type(value)
                    continue
                value, kind = np.asarray(value, formal), "host"
            if kind == "host":
                value = value.astype(formal, copy=False)
            elif value.dtype != formal:
                raise TypeError(
                    f"{self.__name__}: input {position} is a device array of {value.dtype}; "
                    f"the signature needs {formal} (device arrays are not cast)"
                )
            if modes[position] == "value":
                modes[position] = "element"  # an array where the signature has a scalar
            inputs[position] = value
            kinds[position] = "array"
        shapes = [v.shape if k == "array" else () for v, k in zip(inputs, kinds)]
        loop, full = gpu.gufunc_schedule(
            self.layout,
            self._core_names,
            nin,
            shapes + [None if v is None else v.shape for v in given],
        )
        results = []
        for position, (value, kind, shape) in enumerate(zip(given, given_kinds, full)):
            formal = dtypes[nin + position]
            if kind == "device" and value.dtype != formal:
                raise TypeError(
                    f"{self.__name__}: output {position} is a device array of {value.dtype}; "
                    f"the signature needs {formal}"
                )
            results.append(value if kind == "device" else np.empty(shape, formal))
        operands = []
        for value, names, mode in zip(inputs + results, self._core_names, modes):
            if mode == "value":
                operands.append((mode, value))
                continue
            core = value.shape[value.ndim - len(names) :]
            view = np.broadcast_to(value, loop + core) if value.shape != loop + core else value
            if mode == "slice":
                view = view.reshape(loop + (1,))
            operands.append((mode, view))
        for index in np.ndindex(*loop):
            self._call(*(value if mode == "value" else value[index] for mode, value in operands))
        returned = []
        for value, kind, result in zip(outputs, given_kinds, results):
            if kind == "host":
                value[...] = result
                returned.append(value)
            elif kind == "device":
                returned.append(value)
            elif to_host:
                returned.append(result)
            else:
                returned.append(DeviceNDArray._wrap(_register(result), stream))
        return returned[0] if len(returned) == 1 else tuple(returned)


def guvectorize(signatures, layout, options):
    """The decorator ``guvectorize(signatures, layout, target='cuda')`` returns in the
    simulator."""

    def decorate(py_func):
        return CUDAGUFunc(py_func, signatures, layout, options)

    return decorate
