"""CUDA ufuncs and gufuncs in the simulator (``@vectorize(..., target='cuda')`` and
``@guvectorize(..., target='cuda')`` with TAIPAN_ENABLE_CUDASIM set).

The classes take the front the GPU path's take (taipan.cuda.api.ufuncs), which parses the
signatures and layouts, chooses a signature for a call and checks its operands; what runs is
the simulator's: the scalar function runs in the interpreter, once per element (NumPy's
frompyfunc broadcasts it) or once per loop index of a gufunc, on the NumPy arrays behind device
arrays. Host inputs give host results and device inputs device results, as on the GPU."""

import numpy as np

from taipan.cuda import api
from taipan.cuda.simulator.devicearray import DeviceNDArray, _register, foreign_array
from taipan.cuda.simulator.reduction import Reduce, scalar_function
from taipan.decorators import njit


def _array_of(value):
    return value._array


def _same(value):
    return value


def _as_formal(value, formal):
    return formal.type(value)


def _foreign(value):
    return foreign_array(value) if hasattr(value, "__cuda_array_interface__") else None


def _classify(value):
    """(operand, 'device' | 'host' | 'scalar'), device operands as their NumPy arrays."""
    return api.ufuncs.classify_operand(value, DeviceNDArray, _array_of, _foreign)


def _output(value, refusal):
    """(array, 'device' | 'host') of an output operand."""
    return api.ufuncs.output_operand(value, DeviceNDArray, _array_of, _foreign, refusal)


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
        dispatcher.compile(tuple(api.ufuncs.scalar_type(d) for d in inputs))
        return api.ufuncs._dtype_of(dispatcher.nopython_signatures[-1].return_type, "results")
    except Exception:  # noqa: BLE001 (untypeable on the CPU: ask Python)
        return np.asarray(py_func(*(d.type(1) for d in inputs))).dtype


class CUDAUFunc(api.UFuncFront):
    """A CUDA ufunc of the simulator: the GPU path's signatures, checks and attributes; calls
    run the scalar function in the interpreter."""

    _REPR_SUFFIX = " (CUDA simulator)"

    def __init__(self, py_func, signatures, options):
        self._call = scalar_function(py_func, "vectorize(target='cuda')")
        super().__init__(py_func, signatures, options)

    def _core_function(self, py_func):
        return self._call

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
        api.ufuncs.check_keywords(self.__name__, keywords, "ufuncs")
        args, out = api.ufuncs.ufunc_arguments(self.__name__, self.nin, args, out)
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
            target, _ = _output(out, "out= takes a host or device array")
        with self._lock:
            descriptions = [
                ("array", v.dtype) if k != "scalar" else api.ufuncs._scalar_description(v)
                for v, k in zip(operands, kinds)
            ]
            index = self._select(descriptions)
            result_dtype = self._output_dtype(index)
            formals = self._signatures[index][0]
        shapes = [v.shape for v, k in zip(operands, kinds) if k != "scalar"]
        if target is not None:
            shape = api.ufuncs.broadcast_shapes(*shapes, target.shape) if shapes else target.shape
            if shape != target.shape:
                raise ValueError(
                    f"non-broadcastable output operand with shape {api.ufuncs._shape_text(target.shape)}"
                    f" doesn't match the broadcast shape {api.ufuncs._shape_text(shape)}"
                )
            if not np.can_cast(result_dtype, target.dtype, "same_kind"):
                raise TypeError(
                    f"Cannot cast ufunc '{self.__name__}' output from {result_dtype!r} to "
                    f"{target.dtype!r} with casting rule 'same_kind'"
                )
        else:
            shape = (
                api.ufuncs.broadcast_shapes(*shapes) if shapes else (1,)
            )  # numba: scalars give (1,)
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

    def _classify(self, value, stream):
        return _classify(value)

    def _flattened(self, value, where):
        """The NumPy array behind a host or C-contiguous device array, as 1-D."""
        if where == "device" and not value.flags.c_contiguous:
            raise api.ufuncs.c_contiguous_only()
        return value.reshape(-1)

    def _make_reducer(self):
        return Reduce(self._call)

    def _reduce_rows(self, value, where, stream):
        value = np.asarray(api.ufuncs.fold_rows(value, self))
        return DeviceNDArray._wrap(_register(value.copy()), stream) if where == "device" else value


def vectorize(signatures, options):
    """The decorator ``vectorize(signatures, target='cuda')`` returns in the simulator."""

    def decorate(py_func):
        return CUDAUFunc(py_func, signatures, options)

    return decorate


class CUDAGUFunc(api.GUFuncFront):
    """A CUDA gufunc of the simulator: the GPU path's layout, signatures and checks; the
    function runs in the interpreter once per index of the loop dimensions."""

    _REPR_SUFFIX = " (CUDA simulator)"

    def _classify(self, value, stream):
        return _classify(value)

    def _output_operand(self, value, stream):
        try:
            return _output(value, "a gufunc output is an array")
        except TypeError:
            raise TypeError(f"a gufunc output is an array, not {type(value).__name__}") from None

    def __init__(self, py_func, signatures, layout, options):
        self._call = scalar_function(py_func, "guvectorize(target='cuda')")
        super().__init__(py_func, signatures, layout, options)

    def _core_function(self, py_func):
        return self._call

    def _kernel(self, *args, **kwargs):
        raise NotImplementedError("the CUDA simulator compiles no kernels")

    def inspect_asm(self, *args, **kwargs):
        raise NotImplementedError("the CUDA simulator compiles no PTX")

    def __call__(self, *args, out=None, stream=0, **keywords):
        outputs, inputs, kinds, given, given_kinds = self._call_operands(
            args, out, keywords, stream
        )
        to_host = "device" not in kinds and "device" not in given_kinds
        with self._lock:
            dtypes, modes = self._signatures[self._signature_index(inputs, kinds)]
        modes = list(modes)
        self._cast_inputs(inputs, kinds, dtypes, modes, _as_formal, _same, "array")
        loop, results = self._schedule(inputs, kinds, "array", given, given_kinds, dtypes, np.empty)
        operands = []
        for value, names, mode in zip(inputs + results, self._core_names, modes):
            if mode == "value":
                operands.append((mode, value))
                continue
            core = value.shape[value.ndim - len(names) :]
            view = _broadcast_view(value, loop + core) if value.shape != loop + core else value
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


def _broadcast_view(value, shape):
    """`value` viewed with `shape` (NumPy's broadcast), writable when `value` is: a gufunc
    without outputs writes its operands in place, broadcast ones too, as on the GPU."""
    strides = api.ufuncs.broadcast_strides(value.shape, value.strides, shape)
    return np.lib.stride_tricks.as_strided(value, shape, strides, writeable=value.flags.writeable)


def guvectorize(signatures, layout, options):
    """The decorator ``guvectorize(signatures, layout, target='cuda')`` returns in the
    simulator."""

    def decorate(py_func):
        return CUDAGUFunc(py_func, signatures, layout, options)

    return decorate
