"""Helpers of the NumPy library: reading argument types in typing functions (omitted arguments,
integers, string literals, dtypes), and the compiled pieces of NumPy's sort order that sorting
and searching share."""

import numpy as np

from taipan import types
from taipan.extending import overload, register_jitable
from taipan.numpy_library.branch_free import choose_unpredictable

# ---------------------------------------------------------------------------------------------
# Argument types (typing functions receive a type, or a parameter's Python default)


def is_none(t):
    """True for an omitted argument (its Python default None) or an explicit None."""
    return t is None or isinstance(t, types.NoneType)


def is_integer(t):
    """True for an integer argument, or a parameter's Python default that is an integer
    (booleans are not axes, counts or shifts)."""
    return isinstance(t, types.Integer) or (isinstance(t, int) and not isinstance(t, bool))


def is_integer_scalar(t):
    """An integer or boolean argument, or a Python default that is one (what NumPy's sorting
    and searching functions accept where they take an integer)."""
    return isinstance(t, (int, types.Integer, types.Boolean))


def integer_tuple(t):
    """True for a tuple of integers (possibly empty)."""
    return isinstance(t, types.BaseTuple) and all(isinstance(e, types.Integer) for e in t.types)


def is_boolean(t):
    """True for a boolean argument or a parameter's Python default that is a bool."""
    return isinstance(t, (bool, types.Boolean))


def is_real_array(t):
    """An array of booleans, integers or floats (what taipan's sort handles)."""
    return isinstance(t, types.Array) and not isinstance(t.dtype, types.Complex)


def is_real_scalar(t):
    return isinstance(t, (types.Integer, types.Float, types.Boolean))


def is_array_like(t):
    """What np.asarray takes in compiled code (Numba's ``type_can_asarray``): an array, a number
    or boolean, a list or a tuple."""
    return isinstance(
        t, (types.Array, types.Number, types.Boolean, types.List, types.BaseTuple, types.ListType)
    )


def item_type(t):
    """The type of a list's or homogeneous tuple's items (taipan's UniTuple has no ``dtype``),
    else None."""
    if isinstance(t, types.List):
        return t.dtype
    if isinstance(t, types.BaseTuple) and t.types and len(set(t.types)) == 1:
        return t.types[0]
    return None


def is_sequence(t):
    """A list or a tuple of numbers (or of such sequences): an array-like that a function
    taking arrays converts with np.asarray first."""
    return isinstance(t, (types.List, types.BaseTuple)) and array_like_dtype(t) is not None


def array_like_dtype(t):
    """The NumPy dtype np.asarray gives an array-like argument (a tuple's items promoted as
    NumPy promotes them), else None."""
    if isinstance(t, (types.Array, types.Number, types.Boolean)):
        return numpy_dtype(t)
    if isinstance(t, (types.List, types.ListType)):
        return array_like_dtype(t.dtype if isinstance(t, types.List) else t.item_type)
    if isinstance(t, types.BaseTuple):
        dtypes = [array_like_dtype(e) for e in t.types]
        if not dtypes:
            return np.dtype(np.float64)  # np.asarray(()) is an empty float64 array
        if any(d is None for d in dtypes):
            return None
        return np.result_type(*dtypes)
    return None


def array_like_ndim(t):
    """The number of dimensions np.asarray gives an array-like argument, else None."""
    if isinstance(t, types.Array):
        return t.ndim
    if isinstance(t, (types.Number, types.Boolean)):
        return 0
    if isinstance(t, types.List):
        inner = array_like_ndim(t.dtype)
        return None if inner is None else inner + 1
    if isinstance(t, types.BaseTuple):
        if not t.types:
            return 1
        inner = {array_like_ndim(e) for e in t.types}
        return None if len(inner) != 1 or None in inner else inner.pop() + 1
    return None


def array_tuple(t):
    """The element types of a tuple of arrays, else None."""
    if not isinstance(t, types.BaseTuple):
        return None
    elements = list(t.types)
    if not all(isinstance(e, types.Array) for e in elements):
        return None
    return elements


def string_value(t):
    """The value of a string argument: its Python default (a str) or the literal a call passed;
    None when it is not a string known when compiling."""
    if isinstance(t, str):
        return t
    return getattr(t, "literal_value", None)


def numpy_dtype(t):
    """The NumPy dtype of a taipan number type or of an array's elements; None for others."""
    if isinstance(t, types.Array):
        t = t.dtype
    if isinstance(t, (types.Integer, types.Float, types.Complex, types.Boolean)):
        return np.dtype(t.name)
    return None


def scalar_class(dtype):
    """NumPy's scalar class of a dtype (``np.float64``), which compiled code accepts as the
    ``dtype`` of ``np.empty``."""
    return np.dtype(dtype).type


def key_dtype(array_dtype, key):
    """The type a searched scalar key is compared in: NumPy's promotion of the array's dtype and
    the key's (np.searchsorted makes a Python float a float64 array, so it is not weak)."""
    return np.promote_types(numpy_dtype(array_dtype), numpy_dtype(key)).type


# ---------------------------------------------------------------------------------------------
# NumPy's sort order, compiled


def sorts_before(x, y):
    """NumPy's sort order (compiled code only): for real numbers NaN (NaT) after everything
    else; complex numbers by real part, then imaginary part, NaN parts last (npysort's less)."""


@overload(sorts_before)
def _sorts_before_typer(x, y):
    if isinstance(x, types.Complex) or isinstance(y, types.Complex):
        return _complex_sorts_before
    return lambda x, y: x < y or (is_missing(y) and not is_missing(x))


@register_jitable
def _complex_sorts_before(x, y):
    a = complex(x)
    b = complex(y)
    a_real_nan = a.real != a.real
    b_real_nan = b.real != b.real
    a_imag_nan = a.imag != a.imag
    b_imag_nan = b.imag != b.imag
    if a.real < b.real:
        return not a_imag_nan or b_imag_nan
    if a.real > b.real:
        return b_imag_nan and not a_imag_nan
    if a.real == b.real or (a_real_nan and b_real_nan):
        return a.imag < b.imag or (b_imag_nan and not a_imag_nan)
    return b_real_nan


def is_missing(x):
    """NaN for numbers, NaT for datetime64/timedelta64 (compiled code only): what NumPy's sort
    order puts last; no string is."""


@overload(is_missing)
def _is_missing_typer(x):
    if isinstance(x, (types.NPDatetime, types.NPTimedelta)):
        return lambda x: np.isnat(x)
    if isinstance(x, types.UnicodeType):  # an item of a `<U n` array
        return lambda x: False
    return lambda x: np.isnan(x)


@register_jitable
def bisect(a, key, right):
    """The index where ``key`` goes in the sorted 1-D array ``a``: before equal elements
    (``right`` False, NumPy's side='left') or after them. NaN (NaT) sorts last."""
    low = 0
    high = a.shape[0]
    if is_missing(key):  # after every number: NaN elements decide alone
        while low < high:
            middle = (low + high) >> 1
            if right or not is_missing(a[middle]):
                low = middle + 1
            else:
                high = middle
        return low
    # A number key: sorts_before's NaN terms reduce to one comparison (a NaN element is
    # neither <= nor < it), a search of one compare per step, as NumPy's. Each step goes
    # either way at random, so it selects rather than branches (branch_free.py).
    while low < high:
        middle = (low + high) >> 1
        element = a[middle]
        goes_after = element <= key if right else element < key
        low = choose_unpredictable(goes_after, middle + 1, low)
        high = choose_unpredictable(goes_after, high, middle)
    return low


def _optional_array(value):
    pass


@overload(_optional_array)
def _optional_array_typer(value):
    if is_none(value):
        return lambda value: None
    return lambda value: np.asarray(value)


@register_jitable
def as_optional_array(value):
    """np.asarray(value), or None for None (an optional array argument given as a sequence)."""
    return _optional_array(value)


def _array_unless_scalar(value):
    pass


@overload(_array_unless_scalar)
def _array_unless_scalar_typer(value):
    if isinstance(value, (types.Number, types.Boolean)):
        return lambda value: value
    return lambda value: np.asarray(value)


@register_jitable
def as_array_unless_scalar(value):
    """A number as it is, anything else through np.asarray (an argument that may be either)."""
    return _array_unless_scalar(value)


def as_arrays(items):
    """A tuple of np.asarray of each item of the tuple ``items`` (compiled code only)."""


@overload(as_arrays)
def _as_arrays_typer(items):
    if not items.types:
        return lambda items: ()
    return lambda items: (np.asarray(items[0]),) + as_arrays(items[1:])
