"""What every wrapper of a compiled Python function shares (dispatchers, cfuncs, ufuncs, object
mode, CUDA kernels and reductions): the wrapped function's identity, and adapting the runtime
to NumPy once it is loaded. Kept apart from the dispatcher so that each wrapper imports these
without importing the others."""

import sys

from taipan import _core

_adapted_to_numpy = False


def adapt_to_numpy_once():
    """Once NumPy is loaded: finds the BLAS that matrix products in compiled code call, and
    tells the runtime how this NumPy prints float32 scalars (with an exponent from 1e6 up since
    NumPy 2.3, from 1e16 up before), so that str() and print() in compiled code give its text.
    Called before each compilation; once done, it costs the test of one flag."""
    global _adapted_to_numpy
    if not _adapted_to_numpy and "numpy" in sys.modules:
        _adapted_to_numpy = True
        import numpy

        from taipan.blas import find_blas

        find_blas()
        _core.set_float32_positional_limit(1e6 if "e" in str(numpy.float32(1e6)) else 1e16)


def wrap_python_function(wrapper, py_func):
    """Gives ``wrapper`` (a dispatcher, a DUFunc) the Python function it compiles: ``py_func``
    and the function's name, qualified name, module and docstring, as functools.wraps does."""
    wrapper.py_func = py_func
    wrapper.__name__ = py_func.__name__
    wrapper.__qualname__ = py_func.__qualname__
    wrapper.__module__ = py_func.__module__
    wrapper.__doc__ = py_func.__doc__
    wrapper.__wrapped__ = py_func
