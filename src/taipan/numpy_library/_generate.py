"""Python source generated per case and compiled by taipan: the two places left that need it.

np.flip returns a view reversed along axes chosen at run time, which needs an index whose
``::-1`` sits at a run-time position (Numba builds it with tuple_setitem on a tuple of slices;
taipan's compiled code has no slice values in an index tuple), so its implementation is one
branch of constant indices per axis, as text. taipan.gufunc_calls writes the loop nest of a
gufunc called from compiled code the same way. Everything else in the NumPy library is ordinary
Python: see taipan/unsafe.py for the tuple primitives and literal_unroll for tuples of arrays."""

import itertools
import linecache

import numpy as np

from taipan.decorators import njit

_compiled = {}
_counter = itertools.count()


def python_function(name, source, namespace=None):
    """The function ``name`` defined by ``source``, executed with ``namespace`` (plus numpy as
    ``np`` and NumPy's ``AxisError``). The source is registered with linecache, so taipan's front
    end and its error messages can read it. Equal sources give the same function object."""
    key = (name, source, tuple(sorted((namespace or {}).items(), key=lambda item: item[0])))
    try:
        return _compiled[key]
    except TypeError:  # an unhashable namespace value: do not cache
        key = None
    except KeyError:
        pass
    filename = f"<taipan.numpy_library generated {name} #{next(_counter)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    scope = {"np": np, "AxisError": np.exceptions.AxisError, **(namespace or {})}
    exec(compile(source, filename, "exec"), scope)  # noqa: S102 - source built by this package
    function = scope[name]
    if key is not None:
        _compiled[key] = function
    return function


def jitted(name, source, namespace=None):
    """``python_function`` compiled with taipan, for calling from other implementations."""
    function = python_function(name, source, namespace)
    key = ("jitted", function)
    if key not in _compiled:
        _compiled[key] = njit(function)
    return _compiled[key]


def index_at(ndim, axis, piece):
    """The text of an index of ``ndim`` dimensions taking ``piece`` on ``axis`` and everything
    on the others: ``index_at(3, 1, "i")`` is ``":, i, :"``."""
    return ", ".join(piece if d == axis else ":" for d in range(ndim))
