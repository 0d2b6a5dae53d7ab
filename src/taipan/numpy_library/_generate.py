"""Python source generated per case and compiled by taipan, for NumPy functions whose
implementation depends on a number of dimensions or of arrays known only when compiling.

Generated source is the way around what compiled code cannot do: iterate over a tuple of arrays
of different types, index with a run-time number of slices, or format a number into a message
(messages that name an axis are string literals, one per value near the valid range)."""

import itertools
import linecache

import numpy as np

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
    from taipan.decorators import njit

    function = python_function(name, source, namespace)
    key = ("jitted", function)
    if key not in _compiled:
        _compiled[key] = njit(function)
    return _compiled[key]


def raiser(name, parameters, exception, message):
    """An implementation ``name(parameters)`` that raises ``exception(message)``: for errors
    that NumPy raises and that the argument types alone decide. The message is a literal of the
    source (compiled code keeps only literal messages)."""
    source = f"def {name}({parameters}):\n    raise {exception}({message!r})\n"
    return python_function(name, source)


def index_at(ndim, axis, piece):
    """The text of an index of ``ndim`` dimensions taking ``piece`` on ``axis`` and everything
    on the others: ``index_at(3, 1, "i")`` is ``":, i, :"``."""
    return ", ".join(piece if d == axis else ":" for d in range(ndim))


def shape_with(ndim, shape, axis, value):
    """The text of a shape tuple equal to ``shape`` (text of a tuple expression) except
    ``value`` on the run-time ``axis`` (text of an integer expression)."""
    items = [f"({value} if {axis} == {d} else {shape}[{d}])" for d in range(ndim)]
    return "(" + ", ".join(items) + ("," if ndim == 1 else "") + ")"
