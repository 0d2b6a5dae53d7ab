"""``cuda.reduce``'s front, the same on the GPU path (taipan.cuda.reduction) and in the
simulator: the reduction object, its call's checks and the empty and ``size`` cases. A
backend's class supplies ``_scalar_function(functor)`` (what folds two values),
``_operand(arr, stream)`` (the array the call reduces) and ``_reduce_values(values, res, init,
stream)`` (the reduction of a non-empty 1-D array)."""

from taipan.wrappers import wrap_python_function


class ReduceFront:
    """A reduction with a binary function (``@cuda.reduce``). Calling it reduces a host or
    device array: ``r(arr, size=None, res=None, init=0, stream=0)``."""

    # Said after the name in the repr: which backend runs it.
    _REPR_SUFFIX = ""

    def __init__(self, functor):
        self._functor = functor
        self._op = self._scalar_function(functor)
        wrap_python_function(self, getattr(functor, "py_func", functor))
        self._kernels = {}

    def __repr__(self):
        return f"<CUDA reduction '{self.__name__}'{self._REPR_SUFFIX}>"

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Reduces ``arr`` (its first ``size`` elements) to one value: returned as a NumPy
        scalar, or, with ``res`` (a device array), written to ``res[0]`` on the device and
        None returned. ``init`` enters the reduction once; an empty array gives ``init``."""
        return self._reduce(arr, size, res, init, stream)

    def _reduce(self, arr, size, res, init, stream):
        """The reduction; ``init`` None reduces without an initial value (ufunc.reduce)."""
        values = self._operand(arr, stream)
        if values.ndim != 1:
            raise TypeError("only support 1D array")
        if size is not None:
            values = values[: int(size)]
        if init is not None:
            init = values.dtype.type(init)
        if values.shape[0] == 0:
            if init is None:
                raise TypeError("Reduction on an empty array.")
            return init
        return self._reduce_values(values, res, init, stream)
