"""What the np.linalg modules share: checking and typing their arguments, finding the LAPACK
routine for a dtype, and preparing its calls (Fortran-order copies, scalar arguments, workspace
queries, info checks, narrowing results to single precision).

Implementations copy their inputs to Fortran order and call LAPACK through ctypes
(numpy_library/lapack.py). 2-D arrays of any layout and dtype are taken (integers and bools
become float64, as in NumPy); float32/complex64 stay single precision. Fortran order is produced
by filling a C-ordered buffer shaped (columns, rows): its bytes are the matrix in column order,
and its transpose is the matrix. Results that LAPACK writes in column order come back the same
way, as transposed (Fortran-layout) views.

Exception messages are written out in each raise, or passed as literals to ``check_info``:
compiled code raises constant messages only when they are literals (a global string's message
came back as "<run-time value>")."""

import functools

import numpy as np

from taipan import types
from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import register_jitable
from taipan.numpy_library.lapack import find_lapack
from taipan.numpy_library.support import string_value

_LAPACK = find_lapack()
INTEGER = _LAPACK.integer if _LAPACK is not None else np.int64  # LAPACK's INTEGER

# Fortran CHARACTER arguments, as their codes.
N, V, A, S, L, U = (ord(c) for c in "NVASLU")


# ---------------------------------------------------------------------------------------------
# Typing helpers (run when a call is compiled)


def check_matrix(function, a, name="a"):
    """Raises TypingError unless ``a`` is a 2-D array of numbers."""
    if not isinstance(a, types.Array):
        raise TypingError(f"np.linalg.{function}() takes an array for {name}, not {a}")
    if a.ndim < 2:
        raise TypingError(
            f"{a.ndim}-dimensional array given. Array must be at least two-dimensional"
        )
    if a.ndim > 2:
        raise TypingError(f"np.linalg.{function}() supports 2-D arrays only, not stacks of them")
    check_dtype(function, a)


def check_dtype(function, a):
    if a.dtype.kind_name not in ("Boolean", "Integer", "Float", "Complex"):
        raise TypingError(f"np.linalg.{function}() cannot take arrays of {a.dtype}")


def check_right_sides(function, b):
    """Raises TypingError unless ``b`` is a vector or a matrix of right-hand sides."""
    if not isinstance(b, types.Array) or b.ndim not in (1, 2):
        raise TypingError(f"np.linalg.{function}() takes a 1-D or 2-D array for b, not {b}")
    check_dtype(function, b)


def lapack_dtypes(*arrays):
    """NumPy's linalg types: LAPACK computes in double precision (complex if any input is), and
    results are single precision only if every input is."""
    names = [str(a.dtype) for a in arrays]
    if "float16" in names:
        raise TypingError("array type float16 is unsupported in linalg")
    is_complex = any(name.startswith("complex") for name in names)
    single = all(name in ("float32", "complex64") for name in names)
    if is_complex:
        return np.complex128, np.complex64 if single else np.complex128
    return np.float64, np.float32 if single else np.float64


def real_dtype(dtype):
    return {np.complex64: np.float32, np.complex128: np.float64}.get(dtype, dtype)


def is_complex(dtype):
    return dtype in (np.complex64, np.complex128)


def routine(dtype, name, pointer_count, character_count=0):
    """The LAPACK routine `name` ("gesv") for `dtype`, by its s/d/c/z prefix."""
    if _LAPACK is None:
        raise TypingError(
            "np.linalg in compiled code needs LAPACK: neither NumPy's bundled OpenBLAS nor "
            "SciPy's cython_lapack was found"
        )
    prefix = {np.float32: "s", np.float64: "d", np.complex64: "c", np.complex128: "z"}[dtype]
    try:
        return _LAPACK.routine(prefix + name, pointer_count, character_count)
    except LookupError as error:
        raise TypingError(str(error)) from None


def constant_string(value):
    """The text of a string argument (a Python default or a string literal), else TypingError."""
    text = string_value(value)
    if text is None:
        raise TypingError(f"expected a constant string, not {value}")
    return text


def converter(source, target):
    """A compiled function returning an array of dtype ``source`` as ``target``: itself when
    they are equal, else a copy (single-precision results of double-precision LAPACK)."""
    if source == target:
        return _unchanged
    narrowed = _narrowers.get(target)
    if narrowed is None:

        def narrowed(x):
            return x.astype(target)

        narrowed = _narrowers[target] = njit(narrowed)
    return narrowed


@njit
def _unchanged(x):
    return x


_narrowers = {}  # target dtype -> its compiled narrowing copy


# ---------------------------------------------------------------------------------------------
# Helpers compiled into the implementations


@register_jitable
def integer(value):
    """A Fortran INTEGER argument holding `value`."""
    cell = np.empty(1, INTEGER)
    cell[0] = value
    return cell


@register_jitable
def character(code):
    """A Fortran CHARACTER argument."""
    cell = np.empty(1, np.uint8)
    cell[0] = code
    return cell


@register_jitable
def fortran_copy(a, dtype):
    """Matrix `a` as `dtype` in a new buffer shaped (columns, rows): the bytes of `a` in Fortran
    order, which LAPACK reads and overwrites."""
    rows, columns = a.shape
    buffer = np.empty((columns, rows), dtype)
    for j in range(columns):
        for i in range(rows):
            buffer[j, i] = a[i, j]
    return buffer


@register_jitable
def square_size(a):
    if a.shape[0] != a.shape[1]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    return a.shape[0]


@register_jitable
def check_finite(a):
    rows, columns = a.shape
    for i in range(rows):
        for j in range(columns):
            if not np.isfinite(a[i, j]):
                raise np.linalg.LinAlgError("Array must not contain infs or NaNs")


@register_jitable
def check_info(info, message):
    """Raises LinAlgError(message) when LAPACK reported a failure to compute (info > 0)."""
    if info[0] > 0:
        raise np.linalg.LinAlgError(message)


@register_jitable
def workspace(size, query, dtype):
    """The work array of a call that is a workspace query (``size`` -1: the one-element
    ``query``, where LAPACK writes the size it wants) or the computation (size 0: that size)."""
    if size < 0:
        return query
    return np.empty(max(1, int(abs(query[0]))), dtype)


@register_jitable
def workspace_queries(dtype, real):
    """The one-element query arrays of a routine with WORK, RWORK and IWORK workspaces."""
    return np.empty(1, dtype), np.empty(1, real), np.empty(1, INTEGER)


@register_jitable
def workspaces(size, queries, dtype, real):
    """``workspace`` for each of WORK, RWORK and IWORK, from ``workspace_queries``."""
    query, real_query, integer_query = queries
    return (
        workspace(size, query, dtype),
        workspace(size, real_query, real),
        workspace(size, integer_query, INTEGER),
    )


@register_jitable
def work_length(size, work):
    """The LWORK argument for ``work``: -1 for a workspace query, else its length."""
    return integer(size if size < 0 else work.size)


@register_jitable
def set_identity(buffer):
    for i in range(min(buffer.shape[0], buffer.shape[1])):
        buffer[i, i] = 1


@functools.cache
def square_solver(dtype):
    """A compiled ``(factors, solutions) -> info`` solving in place by LAPACK's gesv: factors is
    an n x n matrix in column order, solutions one row per right-hand side (also column order)."""

    gesv = routine(dtype, "gesv", 8)

    def solve_in_place(factors, solutions):
        n = factors.shape[0]
        info = integer(0)
        gesv(
            integer(n),
            integer(solutions.shape[0]),
            factors,
            integer(max(n, 1)),
            np.empty(max(n, 1), INTEGER),
            solutions,
            integer(max(n, 1)),
            info,
        )
        return info

    return njit(solve_in_place)
