"""What CUDA ufuncs (taipan.cuda.ufuncs) and CUDA gufuncs (taipan.cuda.gufuncs) share: NumPy's
broadcast of shapes and strides, numba-cuda's choice of a signature for a call's argument types,
sorting a call's operands into device arrays, host arrays and scalars, and the checks of the
decorator's function and keywords."""

import numpy as np

from taipan.cuda import kernelgen
from taipan.cuda.devicearray import DeviceNDArray
from taipan.errors import TypingError

_PYTHON_SCALARS = frozenset((bool, int, float, complex))
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


_cuda_module = kernelgen.cuda_package


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
