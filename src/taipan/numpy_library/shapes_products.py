"""NumPy's functions on matrices and differences of arrays: triu, tril, vander, outer, kron,
trace, cross, diff and ediff1d, written in Python for taipan to compile.

Values are computed the way NumPy computes them (the same products and differences, in the
result's dtype), so integer overflow wraps and floating-point results agree bit for bit."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library._axis import axis_normalizer
from taipan.numpy_library._generate import index_at, jitted, python_function, raiser
from taipan.numpy_library.support import is_integer, is_none, numpy_dtype, scalar_class

# NumPy's TypeError for subtracting booleans, raised when compiling.
_BOOLEAN_SUBTRACT = (
    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
    "operator, or the logical_xor function instead."
)

# ---------------------------------------------------------------------------------------------
# triu and tril


def _triangle_source(name, ndim):
    """Copies ``m`` and zeroes the elements above (tril) or below (triu) diagonal ``k`` of each
    matrix of its last two axes; a 1-D ``m`` is the row repeated into a square matrix."""
    lines = [f"def {name}(m, k=0):"]
    if ndim == 1:
        lines.append("    out = np.empty((m.shape[0], m.shape[0]), m.dtype)")
        lines.append("    out[...] = m")
        ndim = 2
    else:
        lines.append("    out = m.copy()")
    batch = " * ".join([f"out.shape[{d}]" for d in range(ndim - 2)] or ["1"])
    lines.append(f"    rows = out.shape[{ndim - 2}]")
    lines.append(f"    cols = out.shape[{ndim - 1}]")
    lines.append(f"    matrices = out.reshape(({batch}, rows, cols))")
    lines.append("    for b in range(matrices.shape[0]):")
    lines.append("        for i in range(rows):")
    if name == "tril":
        lines.append("            for j in range(max(i + k + 1, 0), cols):")
    else:
        lines.append("            for j in range(min(i + k, cols)):")
    lines.append("                matrices[b, i, j] = 0")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


def _triangle(name, m, k):
    if not isinstance(m, types.Array) or m.ndim == 0 or not is_integer(k):
        return None
    return python_function(name, _triangle_source(name, m.ndim))


@overload(np.tril)
def _tril(m, k=0):
    return _triangle("tril", m, k)


@overload(np.triu)
def _triu(m, k=0):
    return _triangle("triu", m, k)


# ---------------------------------------------------------------------------------------------
# vander, outer, kron and trace


@overload(np.vander)
def _vander(x, N=None, increasing=False):
    if not isinstance(x, types.Array):
        return None
    if x.ndim != 1:
        return raiser(
            "vander",
            "x, N=None, increasing=False",
            "ValueError",
            "x must be a one-dimensional array or sequence.",
        )
    if not (is_none(N) or is_integer(N)):
        return None
    # NumPy: np.empty((len(x), N), dtype=np.promote_types(x.dtype, int)), then a cumulative
    # product of the columns in that dtype.
    dtype = scalar_class(np.promote_types(numpy_dtype(x), np.int64))
    columns = "x.shape[0]" if is_none(N) else "N"
    source = f"""def vander(x, N=None, increasing=False):
    cols = {columns}
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
"""
    return python_function("vander", source, {"dtype": dtype})


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
    a_sizes = ["1"] * (ndim - a.ndim) + [f"a.shape[{d}]" for d in range(a.ndim)]
    b_sizes = ["1"] * (ndim - b.ndim) + [f"b.shape[{d}]" for d in range(b.ndim)]
    a_view = ", ".join(f"{s}, 1" for s in a_sizes)
    b_view = ", ".join(f"1, {s}" for s in b_sizes)
    shape = ", ".join(f"{x} * {y}" for x, y in zip(a_sizes, b_sizes))
    source = f"""def kron(a, b):
    product = a.reshape(({a_view})) * b.reshape(({b_view}))
    return product.reshape(({shape},))
"""
    return python_function("kron", source)


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
        message = "diag requires an array of at least two dimensions"
        return raiser("trace", "a, offset=0", "ValueError", message)
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
    import warnings

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
# Lengths up to this one get NumPy's message with their numbers (messages are literals).
_NAMED_CROSS_LENGTHS = 6


def _cross_length_check():
    """A compiled check of the two vector lengths raising NumPy's ValueError."""
    allowed = (
        "(na == 2 or na == 3) and (nb == 2 or nb == 3)"
        if _CROSS_TAKES_TWO
        else ("na == 3 and nb == 3")
    )
    lines = ["def check_lengths(na, nb):", f"    if {allowed}:", "        return"]
    if "{}" in _CROSS_LENGTH_MESSAGE:
        for na in range(_NAMED_CROSS_LENGTHS + 1):
            for nb in range(_NAMED_CROSS_LENGTHS + 1):
                text = _CROSS_LENGTH_MESSAGE.format(na, nb)
                lines.append(f"    if na == {na} and nb == {nb}:")
                lines.append(f"        raise ValueError({text!r})")
    general = _CROSS_LENGTH_MESSAGE.replace(", but they are {} and {} dimensional instead", "")
    lines.append(f"    raise ValueError({general!r})")
    return jitted("check_lengths", "\n".join(lines) + "\n")


@overload(np.cross)
def _cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
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

# Orders within this range get NumPy's exact message ("order must be non-negative but got -1").
_NAMED_NEGATIVE_ORDERS = 8


def _diff_source(ndim, boolean, returns_input):
    difference = "{hi} != {lo}" if boolean else "{hi} - {lo}"
    lines = ["def diff(a, n=1, axis=-1):", "    if n < 0:"]
    for order in range(-_NAMED_NEGATIVE_ORDERS, 0):
        lines.append(f"        if n == {order}:")
        lines.append(f"            raise ValueError('order must be non-negative but got {order}')")
    lines.append("        raise ValueError('order must be non-negative')")
    lines.append("    ax = normalize_axis(axis)")
    lines.append("    if n == 0:")
    lines.append("        return a" if returns_input else "        return a.copy()")
    for d in range(ndim):
        hi = index_at(ndim, d, "1:")
        lo = index_at(ndim, d, ":-1")
        lines.append(f"    {'if' if d == 0 else 'elif'} ax == {d}:")
        lines.append(f"        r = {difference.format(hi=f'a[{hi}]', lo=f'a[{lo}]')}")
        lines.append("        for _ in range(n - 1):")
        lines.append(f"            r = {difference.format(hi=f'r[{hi}]', lo=f'r[{lo}]')}")
    lines.append("    return r")
    return "\n".join(lines) + "\n"


@overload(np.diff)
def _diff(a, n=1, axis=-1, prepend=None, append=None):
    if not isinstance(a, types.Array) or not (is_integer(n) and is_integer(axis)):
        return None
    if not (is_none(prepend) and is_none(append)):
        return None
    if a.ndim == 0:
        message = "diff requires input that is at least one dimensional"
        return raiser("diff", "a, n=1, axis=-1", "ValueError", message)
    # n == 0 gives back `a` itself, as NumPy does, when its type is the result's (a C array);
    # otherwise a copy (compiled code cannot return a strided view and a new array from one
    # function).
    returns_input = a.layout == "C"
    source = _diff_source(a.ndim, isinstance(a.dtype, types.Boolean), returns_input)
    return python_function("diff", source, {"normalize_axis": axis_normalizer(a.ndim)})


def _ediff1d_source(has_end, has_begin):
    parameters = "ary, to_end=None, to_begin=None"
    lines = [f"def ediff1d({parameters}):", "    flat = ary.ravel()"]
    lines.append("    count = max(flat.size - 1, 0)")
    for name, present in (("begin", has_begin), ("end", has_end)):
        if present:
            lines.append(f"    {name} = np.asarray(to_{name}).ravel()")
            lines.append(f"    {name}_size = {name}.size")
        else:
            lines.append(f"    {name}_size = 0")
    lines.append("    out = np.empty(begin_size + count + end_size, dtype)")
    if has_begin:
        lines.append("    out[:begin_size] = begin")
    lines.append("    out[begin_size:begin_size + count] = flat[1:] - flat[:-1]")
    if has_end:
        lines.append("    out[begin_size + count:] = end")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


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
            return raiser("ediff1d", "ary, to_end=None, to_begin=None", "TypeError", message)
    source = _ediff1d_source(not is_none(to_end), not is_none(to_begin))
    return python_function("ediff1d", source, {"dtype": scalar_class(dtype)})
