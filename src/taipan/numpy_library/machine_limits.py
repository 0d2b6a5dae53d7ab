"""np.iinfo, np.finfo and np.dtype in compiled code. np.dtype of a number type gives its scalar
class, which is how compiled code holds every dtype of numbers (a.dtype, a dtype global). The
limits are those of a number type given as its class (np.int32), a dtype or a number; they are
known while typing and come back as a named tuple frozen in the code, with the fields and value
types Numba gives: the float limits in the type's own precision (float32 for np.float32 and
np.complex64), integers as Python ints."""

import re
from collections import namedtuple

import numpy as np

from taipan.errors import ImpreciseTypeError, TypingError
from taipan.extending import overload
from taipan.numpy_library.support import numpy_dtype

# Numba's fields (numba/np/arraymath.py), in its order.
iinfo = namedtuple("iinfo", ["min", "max", "bits"])
finfo = namedtuple(
    "finfo",
    [
        "eps",
        "epsneg",
        "iexp",
        "machep",
        "max",
        "maxexp",
        "min",
        "minexp",
        "negep",
        "nexp",
        "nmant",
        "precision",
        "resolution",
        "tiny",
        "bits",
    ],
)


def _dtype_of(t):
    """The NumPy dtype a type argument names: a scalar class (its type reads
    ``Function(numpy.int32)``) or a number's own type; None for anything else."""
    dtype = numpy_dtype(t)
    if dtype is not None:
        return dtype
    match = re.fullmatch(r"Function\(numpy\.(\w+)\)", getattr(t, "name", ""))
    if match is None:
        return None
    try:
        return np.dtype(match.group(1))
    except TypeError:
        return None


def _frozen(value):
    """The limits as the tuple will hold them: NumPy's floats keep their scalar type."""
    return value if isinstance(value, np.floating) else int(value)


@overload(np.iinfo)
def _iinfo(int_type):
    dtype = _dtype_of(int_type)
    if dtype is None or dtype.kind not in "iu":
        raise TypingError(f"np.iinfo takes an integer type, not {int_type}")
    info = np.iinfo(dtype)
    limits = iinfo(int(info.min), int(info.max), int(info.bits))

    def impl(int_type):
        return limits

    return impl


@overload(np.finfo)
def _finfo(dtype):
    numpy_type = _dtype_of(dtype)
    if numpy_type is None or numpy_type.kind not in "fc":
        raise TypingError(f"np.finfo takes a floating-point or complex type, not {dtype}")
    info = np.finfo(numpy_type)
    limits = finfo(*(_frozen(getattr(info, field)) for field in finfo._fields))

    def impl(dtype):
        return limits

    return impl


@overload(np.dtype)
def _dtype(obj, align=False, copy=False):
    """``np.dtype(np.float32)``, ``np.dtype("f8")``, ``np.dtype(a.dtype)``: compiled code holds a
    dtype of numbers as its scalar class, as it holds ``a.dtype``."""
    text = getattr(obj, "literal_value", obj if isinstance(obj, str) else None)
    try:
        numpy_type = np.dtype(text) if isinstance(text, str) else _dtype_of(obj)
    except TypeError:
        numpy_type = None
    if numpy_type is not None and numpy_type.kind == "O":
        # Numba's dtype(pyobject): no compiled value holds a Python object, so the variable
        # given it cannot be typed ("Cannot infer the type of variable ...", as Numba's array
        # of them)
        raise ImpreciseTypeError("dtype(pyobject)")
    if numpy_type is None or numpy_type.kind not in "biufc":
        raise TypingError(f"np.dtype of {obj} is not supported in compiled code")
    scalar = numpy_type.type

    def impl(obj, align=False, copy=False):
        return scalar

    return impl
