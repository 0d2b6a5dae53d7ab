"""Helpers for NumPy functions whose implementation depends on a number of dimensions or of
arrays known only when compiling: Python source generated per case and compiled by taipan, and
the conversions between taipan's types and NumPy's dtypes that typing functions need.

Generated source is the way around what compiled code cannot do: iterate over a tuple of arrays
of different types, index with a run-time number of slices, or format a number into a message
(messages that name an axis are string literals, one per value near the valid range)."""

import itertools
import linecache
import re

import numpy as np

from taipan import types

AxisError = np.exceptions.AxisError

# Axes within this distance of the valid range get NumPy's exact message ("axis 3 is out of
# bounds for array of dimension 2"); further ones a message without the value.
_NAMED_OUT_OF_RANGE = 8

_compiled = {}
_counter = itertools.count()


def python_function(name, source, namespace=None):
    """The function ``name`` defined by ``source``, executed with ``namespace`` (plus numpy as
    ``np``). The source is registered with linecache, so taipan's front end and its error
    messages can read it. Equal sources give the same function object."""
    key = (name, source, tuple(sorted((namespace or {}).items(), key=lambda item: item[0])))
    try:
        return _compiled[key]
    except TypeError:  # an unhashable namespace value: do not cache
        key = None
    except KeyError:
        pass
    filename = f"<taipan.numpy_library generated {name} #{next(_counter)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    scope = {"np": np, "AxisError": AxisError, **(namespace or {})}
    exec(compile(source, filename, "exec"), scope)  # noqa: S102 - source built by this package
    function = scope[name]
    if key is not None:
        _compiled[key] = function
    return function


def jitted(name, source, namespace=None):
    """``python_function`` compiled with taipan, for calling from other implementations."""
    from taipan import njit

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


def axis_normalizer(ndim):
    """A compiled ``(axis) -> axis in [0, ndim)`` raising NumPy's AxisError for an axis out of
    range."""
    lines = [f"def normalize_axis(axis):\n    if axis < -{ndim} or axis >= {ndim}:\n"]
    for axis in itertools.chain(
        range(-ndim - _NAMED_OUT_OF_RANGE, -ndim), range(ndim, ndim + _NAMED_OUT_OF_RANGE)
    ):
        lines.append(
            f"        if axis == {axis}:\n            raise AxisError("
            f"'axis {axis} is out of bounds for array of dimension {ndim}')\n"
        )
    lines.append(
        f"        raise AxisError('axis is out of bounds for array of dimension {ndim}')\n"
        f"    if axis < 0:\n        return axis + {ndim}\n    return axis\n"
    )
    return jitted("normalize_axis", "".join(lines))


def index_at(ndim, axis, piece):
    """The text of an index of ``ndim`` dimensions taking ``piece`` on ``axis`` and everything
    on the others: ``index_at(3, 1, "i")`` is ``":, i, :"``."""
    return ", ".join(piece if d == axis else ":" for d in range(ndim))


def shape_with(ndim, shape, axis, value):
    """The text of a shape tuple equal to ``shape`` (text of a tuple expression) except
    ``value`` on the run-time ``axis`` (text of an integer expression)."""
    items = [f"({value} if {axis} == {d} else {shape}[{d}])" for d in range(ndim)]
    return "(" + ", ".join(items) + ("," if ndim == 1 else "") + ")"


def is_none(t):
    """True for an omitted argument (its Python default None) or an explicit None."""
    return t is None or isinstance(t, types.NoneType)


def is_integer(t):
    """True for an integer argument, or a parameter's Python default that is an integer
    (booleans are not axes, counts or shifts)."""
    return isinstance(t, types.Integer) or (isinstance(t, int) and not isinstance(t, bool))


def integer_tuple(t):
    """True for a tuple of integers (possibly empty)."""
    return isinstance(t, types.BaseTuple) and all(isinstance(e, types.Integer) for e in t.types)


def is_boolean(t):
    """True for a boolean argument or a parameter's Python default that is a bool."""
    return isinstance(t, (bool, types.Boolean))


def array_tuple(t):
    """The element types of a tuple of arrays, else None."""
    if not isinstance(t, types.BaseTuple):
        return None
    elements = list(t.types)
    if not all(isinstance(e, types.Array) for e in elements):
        return None
    return elements


def numpy_dtype(t):
    """The NumPy dtype of a taipan scalar type or of an array's elements."""
    if isinstance(t, types.Array):
        t = t.dtype
    if isinstance(t, (types.Integer, types.Float, types.Complex, types.Boolean)):
        return np.dtype(t.name)
    return None


def scalar_class(dtype):
    """NumPy's scalar class of a dtype (``np.float64``), which compiled code accepts as the
    ``dtype`` of ``np.empty``."""
    return np.dtype(dtype).type


_STRING_LITERAL = re.compile(r"^Literal\[str\]\((.*)\)$")


def string_value(t):
    """The value of a string argument: its Python default (a str) or the literal a call
    passed; None when it is not a string known when compiling."""
    if isinstance(t, str):
        return t
    match = _STRING_LITERAL.match(str(t))
    return match.group(1) if match else None
