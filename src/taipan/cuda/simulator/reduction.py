"""``cuda.reduce`` in the simulator: the binary function folds the array on the host, in pairs
(a tree, as the GPU's reduction folds), on whole NumPy arrays at once when the function takes
them elementwise, else one pair of elements at a time."""

import numpy as np

from taipan.cuda import api
from taipan.cuda.simulator.devicearray import DeviceNDArray, foreign_array
from taipan.cuda.simulator.launch import Kernel


def scalar_function(functor, what):
    """The Python callable behind a reduction's or CUDA ufunc's function: a device function or
    Python function as it is, a CPU ``@jit`` function as it is; a kernel is refused."""
    if isinstance(functor, Kernel):
        raise TypeError(
            f"{functor.__name__} is a CUDA kernel: give a scalar Python function or a device "
            f"function (cuda.jit(device=True)) to {what}"
        )
    if not callable(functor):
        raise TypeError(f"expected a Python function, not {type(functor).__name__}")
    return functor


class Reduce(api.ReduceFront):
    """A reduction with a binary function (``@cuda.reduce``), folding on the host. Calling it
    reduces a host or device array: ``r(arr, size=None, res=None, init=0, stream=0)``. How
    each dtype folds is kept in ``_kernels``: "arrays" (the function took whole arrays) or
    "pairs"."""

    _REPR_SUFFIX = " (CUDA simulator)"

    def _scalar_function(self, functor):
        return scalar_function(functor, "cuda.reduce")

    def _operand(self, arr, stream):
        return _operand(arr)

    def inspect_asm(self, dtype, layout="C"):
        raise NotImplementedError("the CUDA simulator compiles no PTX")

    def _reduce_values(self, values, res, init, stream):
        dtype = values.dtype
        result = self._fold(values)
        if init is not None:
            result = dtype.type(self._op(result, init))
        if res is not None:
            if type(res) is DeviceNDArray:
                target = res._array
            elif hasattr(res, "__cuda_array_interface__"):
                target = foreign_array(res)
            else:
                raise TypeError(f"res= takes a device array, not {type(res).__name__}")
            target[0] = result
            return None
        return result

    def _fold(self, values):
        dtype = values.dtype
        how = self._kernels.get(dtype)
        if how != "pairs":
            try:
                result = _fold_arrays(self._op, values)
                self._kernels[dtype] = "arrays"
                return result
            except Exception:  # noqa: BLE001 (the function does not take arrays: fold pairs)
                self._kernels[dtype] = "pairs"
        return _fold_pairs(self._op, values)


def _fold_arrays(op, values):
    """A tree of the function applied to halves of the array, as arrays."""
    dtype = values.dtype
    level = values
    while level.shape[0] > 1:
        half = level.shape[0] // 2
        folded = np.asarray(op(level[:half], level[half : 2 * half]))
        if folded.shape != (half,):
            raise TypeError("the function did not work elementwise")
        folded = folded.astype(dtype, copy=False)
        if level.shape[0] % 2:
            folded = np.concatenate([folded, level[2 * half :]])
        level = folded
    return level[0]


def _fold_pairs(op, values):
    """The same tree, the function called on one pair of elements at a time (by NumPy's
    frompyfunc, which hands it Python numbers); the result is cast to the array's dtype."""
    pair = np.frompyfunc(op, 2, 1)
    level = values.astype(object)
    while level.shape[0] > 1:
        half = level.shape[0] // 2
        folded = pair(level[:half], level[half : 2 * half])
        if level.shape[0] % 2:
            folded = np.concatenate([folded, level[2 * half :]])
        level = folded
    return values.dtype.type(level[0])


def _operand(value):
    """A device array's NumPy array, a host array as it is."""
    if type(value) is DeviceNDArray:
        return value._array
    if hasattr(value, "__cuda_array_interface__"):
        return foreign_array(value)
    if isinstance(value, np.ndarray):
        return value
    raise TypeError(f"cuda.reduce takes a host or device array, not {type(value).__name__}")


# ``@cuda.reduce`` decorates a binary function, as in Numba, where it is the class itself.
reduce = Reduce
