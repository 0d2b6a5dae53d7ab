"""NumPy's functions on matrices and differences of arrays: triu, tril, vander, outer, kron,
trace, cross, diff and ediff1d, written in Python for taipan to compile.

Values are computed the way NumPy computes them (the same products and differences, in the
result's dtype), so integer overflow wraps and floating-point results agree bit for bit."""

import warnings

import numpy as np

from taipan import types
from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library._axis import normalize_axis_of
from taipan.numpy_library.support import is_integer, is_none, is_sequence, numpy_dtype, scalar_class
from taipan.unsafe import interleave, multiply_items, tuple_setitem

# NumPy's TypeError for subtracting booleans, raised when compiling.
_BOOLEAN_SUBTRACT = (
    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
    "operator, or the logical_xor function instead."
)

# ---------------------------------------------------------------------------------------------
# triu and tril


@register_jitable
def _zero_triangle(out, k, lower):
    """Zeroes, in each matrix of the last two axes of ``out``, the elements above (``lower``:
    tril) or below (triu) diagonal ``k``; returns ``out``."""
    rows = out.shape[-2]
    cols = out.shape[-1]
    batch = 1
    for d in range(out.ndim - 2):
        batch *= out.shape[d]
    matrices = out.reshape((batch, rows, cols))
    for b in range(matrices.shape[0]):
        for i in range(rows):
            if lower:
                start, stop = max(i + k + 1, 0), cols
            else:
                start, stop = 0, min(i + k, cols)
            for j in range(start, stop):
                matrices[b, i, j] = 0
    return out


def _triangle(lower, m, k):
    """tril (``lower``) or triu of ``m``: a copy with the other triangle zeroed; a 1-D ``m`` is
    the row repeated into a square matrix."""
    if not isinstance(m, types.Array) or m.ndim == 0 or not is_integer(k):
        return None
    if m.ndim == 1:

        def triangle_of_row(m, k=0):
            out = np.empty((m.shape[0], m.shape[0]), m.dtype)
            out[...] = m
            return _zero_triangle(out, k, lower)

        return triangle_of_row

    def triangle(m, k=0):
        return _zero_triangle(m.copy(), k, lower)

    return triangle


@overload(np.tril)
def _tril(m, k=0):
    return _triangle(True, m, k)


@overload(np.triu)
def _triu(m, k=0):
    return _triangle(False, m, k)


# ---------------------------------------------------------------------------------------------
# vander, outer, kron and trace


@overload(np.vander)
def _vander(x, N=None, increasing=False):
    if not (is_none(N) or is_integer(N)):
        raise TypingError("Second argument N must be None or an integer")
    if is_sequence(x):  # a list or tuple: as an array
        return lambda x, N=None, increasing=False: np.vander(np.asarray(x), N, increasing)
    if not isinstance(x, types.Array):
        return None
    if x.ndim != 1:

        def vander_of_other_dimensions(x, N=None, increasing=False):
            raise ValueError("x must be a one-dimensional array or sequence.")

        return vander_of_other_dimensions
    if not (is_none(N) or is_integer(N)):
        return None
    # NumPy: np.empty((len(x), N), dtype=np.promote_types(x.dtype, int)), then a cumulative
    # product of the columns in that dtype.
    dtype = scalar_class(np.promote_types(numpy_dtype(x), np.int64))

    def vander(x, N=None, increasing=False):
        if N is None:
            cols = x.shape[0]
        else:
            cols = N
        out = np.empty((x.shape[0], cols), dtype)
        if cols > 0:
            if increasing:
                out[:, 0] = 1
                for j in range(1, cols):
                    out[:, j] = out[:, j - 1] * x
            else:
                out[:, cols - 1] = 1
                for j in range(cols - 2, -1, -1):
                    out[:, j] = out[:, j + 1] * x
        return out

    return vander


@overload(np.outer)
def _outer(a, b, out=None):
    if not (isinstance(a, types.Array) and isinstance(b, types.Array)):
        return None
    if is_none(out):

        def outer(a, b, out=None):
            return a.ravel()[:, None] * b.ravel()[None, :]

        return outer
    if not (isinstance(out, types.Array) and out.ndim == 2):
        return None

    def outer_into(a, b, out=None):
        out[...] = a.ravel()[:, None] * b.ravel()[None, :]
        return out

    return outer_into


@overload(np.kron)
def _kron(a, b):
    if not (isinstance(a, types.Array) and isinstance(b, types.Array)):
        return None
    if a.ndim == 0 or b.ndim == 0:

        def kron_scalar(a, b):
            return a * b

        return kron_scalar
    # Seen with shapes (a0, 1, a1, 1...) and (1, b0, 1, b1...), the product's elements are in
    # the Kronecker product's order; NumPy pads the shorter shape with leading ones.
    ndim = max(a.ndim, b.ndim)
    a_padding = (1,) * (ndim - a.ndim)
    b_padding = (1,) * (ndim - b.ndim)
    ones = (1,) * ndim

    def kron(a, b):
        a_sizes = a_padding + a.shape
        b_sizes = b_padding + b.shape
        product = a.reshape(interleave(a_sizes, ones)) * b.reshape(interleave(ones, b_sizes))
        return product.reshape(multiply_items(a_sizes, b_sizes))

    return kron


def _sum_dtype(dtype):
    """The dtype NumPy sums ``dtype`` in: small integers and booleans widen to 64 bits."""
    if dtype.kind == "b" or (dtype.kind == "i" and dtype.itemsize < 8):
        return np.int64
    if dtype.kind == "u" and dtype.itemsize < 8:
        return np.uint64
    return dtype.type


@overload(np.trace)
def _trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    if not isinstance(a, types.Array) or not is_integer(offset):
        return None
    if not (axis1 == 0 and axis2 == 1 and is_none(dtype) and is_none(out)):
        return None
    if a.ndim < 2:

        def trace_of_fewer_dimensions(a, offset=0):
            raise ValueError("diag requires an array of at least two dimensions")

        return trace_of_fewer_dimensions
    if a.ndim > 2:
        raise TypingError("numpy.trace is supported for 2-D arrays only")
    accumulator = _sum_dtype(numpy_dtype(a))

    def trace(a, offset=0):
        rows, cols = a.shape
        total = accumulator(0)
        if offset >= 0:
            for i in range(max(min(rows, cols - offset), 0)):
                total += a[i, i + offset]
        else:
            for i in range(max(min(rows + offset, cols), 0)):
                total += a[i - offset, i]
        return total

    return trace


# ---------------------------------------------------------------------------------------------
# cross


def _numpy_cross_rules():
    """How the installed NumPy treats vector lengths in np.cross, asked of NumPy itself: whether
    it takes 2-element vectors (NumPy 2.5 refuses them), and its message for bad lengths (with
    ``{}`` where NumPy names the two lengths)."""

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            np.cross(np.zeros(2), np.zeros(3))
            takes_two = True
        except ValueError:
            takes_two = False
        try:
            np.cross(np.zeros(4), np.zeros(3))
            message = "incompatible dimensions for cross product\n(dimension must be 2 or 3)"
        except ValueError as error:
            message = str(error)
    return takes_two, message.replace("4 and 3", "{} and {}")


_CROSS_TAKES_TWO, _CROSS_LENGTH_MESSAGE = _numpy_cross_rules()
_cross_checks = {}  # (takes two, message) -> the compiled check


def _cross_length_check():
    """A compiled ``check_lengths(na, nb)`` raising NumPy's ValueError unless the vector
    lengths are allowed, by the rules of ``_CROSS_TAKES_TWO`` and ``_CROSS_LENGTH_MESSAGE``."""
    key = (_CROSS_TAKES_TWO, _CROSS_LENGTH_MESSAGE)
    check = _cross_checks.get(key)
    if check is not None:
        return check
    takes_two, message = key
    names_lengths = "{}" in message
    before, between, after = (message.split("{}") + ["", ""])[:3]

    def check_lengths(na, nb):
        if takes_two:
            if (na == 2 or na == 3) and (nb == 2 or nb == 3):
                return
        elif na == 3 and nb == 3:
            return
        if names_lengths:
            raise ValueError(before + str(na) + between + str(nb) + after)
        raise ValueError(message)

    check = _cross_checks[key] = njit(check_lengths)
    return check


@overload(np.cross)
def _cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if is_sequence(a) or is_sequence(b):  # lists and tuples: as arrays

        def cross_of_sequences(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
            return np.cross(np.asarray(a), np.asarray(b))

        return cross_of_sequences
    if not (isinstance(a, types.Array) and isinstance(b, types.Array)):
        return None
    if not (axisa == -1 and axisb == -1 and axisc == -1 and is_none(axis)):
        return None
    if a.ndim == 0 or b.ndim == 0:
        return None
    dtype = np.result_type(numpy_dtype(a), numpy_dtype(b))
    if dtype == np.bool_:
        raise TypingError(_BOOLEAN_SUBTRACT)
    dtype = scalar_class(dtype)

    # NumPy's formulas, term by term (a 2-vector's third component is zero, and NumPy negates a
    # product rather than subtracting it from zero, which keeps the sign of zeros).
    check_lengths = _cross_length_check()

    def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
        na = a.shape[-1]
        nb = b.shape[-1]
        check_lengths(na, nb)
        if na == 2 and nb == 2:
            raise ValueError(
                "numpy.cross of two 2-element vectors returns arrays of one dimension fewer "
                "than for 3-element ones, which taipan cannot type when the length is known "
                "only at run time: compute a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]"
            )
        a0 = a[..., 0]
        a1 = a[..., 1]
        b0 = b[..., 0]
        b1 = b[..., 1]
        c2 = a0 * b1 - a1 * b0
        if na == 2:
            b2 = b[..., 2]
            c0 = a1 * b2
            c1 = -(a0 * b2)
        elif nb == 2:
            a2 = a[..., 2]
            c0 = -(a2 * b1)
            c1 = a2 * b0
        else:
            a2 = a[..., 2]
            b2 = b[..., 2]
            c0 = a1 * b2 - a2 * b1
            c1 = a2 * b0 - a0 * b2
        out = np.empty(c2.shape + (3,), dtype)
        out[..., 0] = c0
        out[..., 1] = c1
        out[..., 2] = c2
        return out

    return cross


# ---------------------------------------------------------------------------------------------
# diff and ediff1d


def _step(later, earlier):
    """First differences: ``later - earlier``, or ``later != earlier`` for booleans (NumPy's
    diff), of two arrays of one dtype."""
    return later != earlier if later.dtype == np.bool_ else later - earlier


def _subtract(later, earlier):
    return later - earlier


def _changed(later, earlier):
    return later != earlier


@overload(_step)
def _step_typer(later, earlier):
    return _changed if isinstance(later.dtype, types.Boolean) else _subtract


@register_jitable
def _differences(a, axis):
    """The first differences of ``a`` along the normalised ``axis``: NumPy's own
    ``a[1:] - a[:-1]`` there (``!=`` for booleans), two views of ``a`` and one elementwise loop,
    in ``a``'s dtype as NumPy's subtraction of two arrays of one dtype gives."""
    every = (slice(None),) * a.ndim
    later = a[tuple_setitem(every, axis, slice(1, None))]
    earlier = a[tuple_setitem(every, axis, slice(None, -1))]
    return _step(later, earlier)


@overload(np.diff)
def _diff(a, n=1, axis=-1, prepend=None, append=None):
    if not isinstance(a, types.Array) or not (is_integer(n) and is_integer(axis)):
        return None
    if not (is_none(prepend) and is_none(append)):
        return None
    if a.ndim == 0:

        def diff_of_0d(a, n=1, axis=-1):
            raise ValueError("diff requires input that is at least one dimensional")

        return diff_of_0d
    # n == 0 gives back `a` itself, as NumPy does, when its type is the result's (a C array);
    # otherwise a copy (compiled code cannot return a strided view and a new array from one
    # function).
    returns_input = a.layout == "C"
    ndim = a.ndim

    def diff(a, n=1, axis=-1):
        if n < 0:
            raise ValueError(f"order must be non-negative but got {n}")
        ax = normalize_axis_of(axis, ndim)
        if n == 0:
            if returns_input:
                return a
            return a.copy()
        r = _differences(a, ax)
        for _ in range(n - 1):
            r = _differences(r, ax)
        return r

    return diff


def _ediff1d_operand(t):
    """The dtype NumPy gives to_begin/to_end (np.asanyarray of it), or None if unsupported."""
    if isinstance(t, (types.Array, types.Integer, types.Float, types.Complex, types.Boolean)):
        return numpy_dtype(t)
    return None


@overload(np.ediff1d)
def _ediff1d(ary, to_end=None, to_begin=None):
    if not isinstance(ary, types.Array):
        return None
    dtype = numpy_dtype(ary)
    if dtype == np.bool_:
        raise TypingError(_BOOLEAN_SUBTRACT)
    for name, value in (("to_begin", to_begin), ("to_end", to_end)):
        if is_none(value):
            continue
        operand = _ediff1d_operand(value)
        if operand is None:
            return None
        if not np.can_cast(operand, dtype, casting="same_kind"):
            message = (
                f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule."
            )
            return _ediff1d_refusal(message)
    dtype = scalar_class(dtype)

    def ediff1d(ary, to_end=None, to_begin=None):
        flat = ary.ravel()
        count = max(flat.size - 1, 0)
        if to_begin is None:
            begin_size = 0
        else:
            begin = np.asarray(to_begin).ravel()
            begin_size = begin.size
        if to_end is None:
            end_size = 0
        else:
            end = np.asarray(to_end).ravel()
            end_size = end.size
        out = np.empty(begin_size + count + end_size, dtype)
        if to_begin is not None:
            out[:begin_size] = begin
        out[begin_size : begin_size + count] = flat[1:] - flat[:-1]
        if to_end is not None:
            out[begin_size + count :] = end
        return out

    return ediff1d


def _ediff1d_refusal(message):
    def ediff1d_of_incompatible_dtype(ary, to_end=None, to_begin=None):
        raise TypeError(message)

    return ediff1d_of_incompatible_dtype
