"""Numba's compiling decorators in the shim's two modes: taipan's, or plain Python."""

import functools
import inspect
import sys
import types as _pytypes
from collections import namedtuple

import numpy as np

import taipan
from numba import PLAIN_PYTHON
from numba._missing import ShimUnsupported, missing


def _is_function(value):
    if isinstance(value, (str, tuple, list, taipan.types.Type, taipan.types.Signature)):
        return False
    return callable(value)


class _NoSignatures(list):
    """Plain-Python mode's ``signatures``: empty, but ``signatures[0]`` is None (tests pass it
    to ``inspect_llvm``)."""

    def __getitem__(self, index):
        return None if isinstance(index, int) else super().__getitem__(index)


def _nothing_compiled(signature=None):
    return {} if signature is None else ""


# Numba's dispatcher attributes, answered as by a dispatcher that compiled nothing: a test that
# reads them on its way to comparing results still runs as plain Python.
_PLAIN_ATTRIBUTES = {
    "signatures": _NoSignatures,
    "nopython_signatures": _NoSignatures,
    "overloads": dict,
    "targetoptions": dict,
    "inspect_llvm": lambda: _nothing_compiled,
    "inspect_asm": lambda: _nothing_compiled,
    "inspect_types": lambda: lambda *args, **kwargs: None,
    "disable_compile": lambda: lambda *args, **kwargs: None,
    "compile": lambda: lambda *args, **kwargs: None,
}


def _plain(function):
    """Plain-Python mode: the function itself, with Numba's ``py_func`` and (empty) dispatcher
    attributes."""
    try:
        function.py_func = function
        for name, make in _PLAIN_ATTRIBUTES.items():
            setattr(function, name, make())
    except (AttributeError, TypeError):
        pass
    return function


class Refused:
    """What a taipan decorator refused (an option or a signature it does not take): the error
    is raised when the function is used, so only the tests that use it fail."""

    def __init__(self, py_func, error):
        self.py_func = py_func
        self._error = error
        functools.update_wrapper(self, py_func)

    def __call__(self, *args, **kwargs):
        raise self._error

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise self._error


def _deferring(decorator):
    """``decorator(function)``, with an exception it raises deferred to the first use."""

    def decorate(function):
        try:
            return decorator(function)
        except Exception as error:  # noqa: BLE001 - any refusal, raised again on use
            return Refused(function, error)

    return decorate


def _compiling(taipan_decorator, plain_decorator):
    """A Numba decorator factory: ``deco(function)``, ``deco(signature, **options)(function)``
    or ``deco(**options)(function)``."""

    def factory(signature_or_function=None, *args, **options):
        if _is_function(signature_or_function) and not args:
            if PLAIN_PYTHON:
                return plain_decorator(signature_or_function, None, options)
            return _deferring(lambda f: taipan_decorator(f, **options))(signature_or_function)
        if PLAIN_PYTHON:
            return lambda f: plain_decorator(f, signature_or_function, options)

        # ``deco(**options)``: no signature (``vectorize(nopython=True)`` is a lazy ufunc).
        leading = () if signature_or_function is None else (signature_or_function,)

        def compile_with(function):
            decorator = taipan_decorator(*leading, *args, **options)
            return decorator(function)

        return _deferring(compile_with)

    return factory


def _taipan_jit(*args, **options):
    return taipan.jit(*args, **options)


def _taipan_njit(*args, **options):
    return taipan.njit(*args, **options)


# Numba's ``Dispatcher.stats``: the disk cache's directory and its hits and misses as Counters
# by argument types (taipan's own ``stats`` counts them). The dispatchers are taipan's, so in
# the shim their class answers with Numba's form.
_CompileStats = namedtuple("_CompileStats", ("cache_path", "cache_hits", "cache_misses"))


def _numba_stats(dispatcher):
    from taipan.caching import cache_directories

    directories = cache_directories(dispatcher.py_func)
    return _CompileStats(
        directories[0] if directories else None, dispatcher._cache_hits, dispatcher._cache_misses
    )


if not PLAIN_PYTHON:
    import taipan.dispatcher

    taipan.dispatcher.Dispatcher.stats = property(_numba_stats)

jit = _compiling(_taipan_jit, lambda f, sig, opts: _plain(f))
njit = _compiling(_taipan_njit, lambda f, sig, opts: _plain(f))
generated_jit = missing("numba.generated_jit")


def _plain_vectorize(function, signatures, options):
    return np.vectorize(function)


def _taipan_vectorize(*args, **options):
    return taipan.vectorize(*args, **options)


vectorize = _compiling(_taipan_vectorize, _plain_vectorize)


def _plain_guvectorize(function, signatures, options):
    def refuse(*args, **kwargs):
        raise ShimUnsupported("guvectorize has no plain-Python form in the shim")

    return refuse


def guvectorize(*args, **options):
    if PLAIN_PYTHON:
        return lambda f: _plain_guvectorize(f, args, options)

    def compile_with(function):
        return taipan.guvectorize(*args, **options)(function)

    return _deferring(compile_with)


class _PlainCFunc:
    """Plain-Python mode's ``cfunc``: calls the function; ``ctypes`` is the function itself."""

    def __init__(self, function):
        self._pyfunc = self.ctypes = self.py_func = function
        functools.update_wrapper(self, function)

    def __call__(self, *args):
        return self._pyfunc(*args)

    @property
    def address(self):
        raise ShimUnsupported("a plain-Python cfunc has no address")


def cfunc(signature, **options):
    if PLAIN_PYTHON:
        return _PlainCFunc
    return _deferring(lambda f: taipan.cfunc(signature, **options)(f))


def jit_module(**options):
    """Compiles every function defined in the calling module (Numba's ``jit_module``)."""
    if PLAIN_PYTHON:
        return
    module = sys.modules[inspect.stack()[1].frame.f_globals["__name__"]]
    for name, value in list(vars(module).items()):
        if isinstance(value, _pytypes.FunctionType) and value.__module__ == module.__name__:
            setattr(module, name, jit(**options)(value))


stencil = missing("numba.stencil")


def literal_unroll(container):
    return container


if not PLAIN_PYTHON:  # callable from compiled code: taipan's
    literal_unroll = taipan.literal_unroll


def literally(value):
    return value


if not PLAIN_PYTHON:  # a literal in compiled code: taipan's
    literally = taipan.literally


pndindex = np.ndindex
