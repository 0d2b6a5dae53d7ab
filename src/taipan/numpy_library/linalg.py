"""np.linalg (and np.trace) for compiled code: one typing function per NumPy function, each
returning an implementation in Python that copies its inputs to Fortran order and calls LAPACK
through ctypes (numpy_library/lapack.py). 2-D arrays of any layout and dtype (integers and bools
become float64, as in NumPy); float32/complex64 stay single precision.

Fortran order is produced by filling a C-ordered buffer shaped (columns, rows): its bytes are
the matrix in column order, and its transpose is the matrix. Results that LAPACK writes in
column order come back the same way, as transposed (Fortran-layout) views.

NumPy decides the dtype of ``eig``'s results from the values (complex only when an eigenvalue is
complex); compiled code needs it from the types, so a real matrix gives real results and one
with complex eigenvalues raises ValueError (as Numba does): pass a complex matrix for those."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library.lapack import find_lapack

_LAPACK = find_lapack()
_INT = _LAPACK.integer if _LAPACK is not None else np.int64  # LAPACK's INTEGER

# Fortran CHARACTER arguments, as their codes.
_N, _V, _A, _S, _L, _U = (ord(c) for c in "NVASLU")

# Exception messages are written out in each raise: compiled code raises constant messages only
# when they are literals (a global string's message came back as "<run-time value>").


# ---------------------------------------------------------------------------------------------
# Typing helpers (run when a call is compiled)


def _check_matrix(function, a, name="a"):
    if not isinstance(a, types.Array):
        raise TypingError(f"np.linalg.{function}() takes an array for {name}, not {a}")
    if a.ndim < 2:
        raise TypingError(
            f"{a.ndim}-dimensional array given. Array must be at least two-dimensional"
        )
    if a.ndim > 2:
        raise TypingError(f"np.linalg.{function}() supports 2-D arrays only, not stacks of them")
    _check_dtype(function, a)


def _check_dtype(function, a):
    if a.dtype.kind_name not in ("Boolean", "Integer", "Float", "Complex"):
        raise TypingError(f"np.linalg.{function}() cannot take arrays of {a.dtype}")


def _lapack_dtypes(*arrays):
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


def _real_dtype(dtype):
    return {np.complex64: np.float32, np.complex128: np.float64}.get(dtype, dtype)


def _is_complex(dtype):
    return dtype in (np.complex64, np.complex128)


def _routine(dtype, name, pointer_count, character_count=0):
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


def _string_option(value, default):
    """The text of a string argument: a Python default, or a string literal's type."""
    if value is None or isinstance(value, str):
        return default if value is None else value
    text = getattr(value, "literal_value", None)
    if text is None:
        raise TypingError(f"expected a constant string, not {value}")
    return text


def _is_none(value):
    return value is None or isinstance(value, types.NoneType)


# ---------------------------------------------------------------------------------------------
# Helpers compiled into the implementations


@register_jitable
def _integer(value):
    """A Fortran INTEGER argument holding `value`."""
    cell = np.empty(1, _INT)
    cell[0] = value
    return cell


@register_jitable
def _character(code):
    """A Fortran CHARACTER argument."""
    cell = np.empty(1, np.uint8)
    cell[0] = code
    return cell


@register_jitable
def _column_major(a, buffer):
    """Copies matrix `a` into `buffer`, shaped (columns, rows): the bytes of `a` in Fortran
    order, which LAPACK reads and overwrites. Returns the buffer."""
    rows, columns = a.shape
    for j in range(columns):
        for i in range(rows):
            buffer[j, i] = a[i, j]
    return buffer


@register_jitable
def _square_size(a):
    if a.shape[0] != a.shape[1]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    return a.shape[0]


@register_jitable
def _check_finite(a):
    rows, columns = a.shape
    for i in range(rows):
        for j in range(columns):
            if not np.isfinite(a[i, j]):
                raise np.linalg.LinAlgError("Array must not contain infs or NaNs")


@register_jitable
def _workspace_size(query):
    """The optimal workspace LAPACK reported in the first element of a size query."""
    return max(1, int(abs(query[0])))


@register_jitable
def _set_identity(buffer):
    for i in range(min(buffer.shape[0], buffer.shape[1])):
        buffer[i, i] = 1


# ---------------------------------------------------------------------------------------------
# Linear systems and determinants


@overload(np.linalg.solve)
def solve(a, b):
    _check_matrix("solve", a)
    if not isinstance(b, types.Array) or b.ndim not in (1, 2):
        raise TypingError(f"np.linalg.solve() takes a 1-D or 2-D array for b, not {b}")
    _check_dtype("solve", b)
    dtype, result = _lapack_dtypes(a, b)
    narrow = dtype != result
    gesv = _routine(dtype, "gesv", 8)
    vector = b.ndim == 1

    def impl(a, b):
        n = _square_size(a)
        if b.shape[0] != n:
            if vector:
                raise ValueError("solve1: Input operand 1 has a mismatch in its core dimension 0")
            raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
        if vector:
            solution = np.empty((1, n), dtype)
            for i in range(n):
                solution[0, i] = b[i]
        else:
            solution = _column_major(b, np.empty((b.shape[1], n), dtype))
        factors = _column_major(a, np.empty((n, n), dtype))
        info = _integer(0)
        gesv(
            _integer(n),
            _integer(solution.shape[0]),
            factors,
            _integer(max(n, 1)),
            np.empty(max(n, 1), _INT),
            solution,
            _integer(max(n, 1)),
            info,
        )
        if info[0] > 0:
            raise np.linalg.LinAlgError("Singular matrix")
        if vector:
            if narrow:
                return solution[0].astype(result)
            return solution[0]
        if narrow:
            return solution.T.astype(result)
        return solution.T

    return impl


@overload(np.linalg.inv)
def inv(a):
    _check_matrix("inv", a)
    dtype, result = _lapack_dtypes(a)
    narrow = dtype != result
    gesv = _routine(dtype, "gesv", 8)

    def impl(a):
        n = _square_size(a)
        factors = _column_major(a, np.empty((n, n), dtype))
        inverse = np.zeros((n, n), dtype)
        _set_identity(inverse)
        info = _integer(0)
        gesv(
            _integer(n),
            _integer(n),
            factors,
            _integer(max(n, 1)),
            np.empty(max(n, 1), _INT),
            inverse,
            _integer(max(n, 1)),
            info,
        )
        if info[0] > 0:
            raise np.linalg.LinAlgError("Singular matrix")
        if narrow:
            return inverse.T.astype(result)
        return inverse.T

    return impl


def _lu_sign_and_log(a):
    """Python stub: the sign and log-magnitude of det(a), from an LU factorisation."""


@overload(_lu_sign_and_log)
def _lu_sign_and_log_typer(a):
    dtype = _lapack_dtypes(a)[0]
    real = _real_dtype(dtype)
    getrf = _routine(dtype, "getrf", 6)
    is_complex = _is_complex(dtype)

    def impl(a):
        n = _square_size(a)
        factors = _column_major(a, np.empty((n, n), dtype))
        pivots = np.empty(max(n, 1), _INT)
        info = _integer(0)
        getrf(_integer(n), _integer(n), factors, _integer(max(n, 1)), pivots, info)
        sign = dtype(1)
        log_magnitude = real(0)
        if info[0] > 0:  # an exactly zero pivot: singular
            return dtype(0), real(-np.inf)
        for i in range(n):
            element = factors[i, i]
            magnitude = real(abs(element))
            if is_complex:
                sign *= element / magnitude
            elif element < 0:
                sign = -sign
            if pivots[i] != i + 1:
                sign = -sign
            log_magnitude += real(np.log(magnitude))
        return sign, log_magnitude

    return impl


@overload(np.linalg.slogdet)
def slogdet(a):
    _check_matrix("slogdet", a)
    result = _lapack_dtypes(a)[1]
    real = _real_dtype(result)

    def impl(a):
        sign, log_magnitude = _lu_sign_and_log(a)
        return result(sign), real(log_magnitude)

    return impl


@overload(np.linalg.det)
def det(a):
    _check_matrix("det", a)
    result = _lapack_dtypes(a)[1]

    def impl(a):
        # NumPy's own formula, sign * exp(log|det|), so results agree to the last bit.
        sign, log_magnitude = _lu_sign_and_log(a)
        return result(sign * np.exp(log_magnitude))

    return impl


# ---------------------------------------------------------------------------------------------
# Eigenvalues


def _eig_typer(function, a, vectors):
    _check_matrix(function, a)
    dtype, result = _lapack_dtypes(a)
    narrow = dtype != result
    real = _real_dtype(dtype)
    is_complex = _is_complex(dtype)
    geev = _routine(dtype, "geev", 14, 2)
    job = _V if vectors else _N

    def impl(a):
        n = _square_size(a)
        _check_finite(a)
        factors = _column_major(a, np.empty((n, n), dtype))
        leading = max(n, 1)
        right = np.empty((n if vectors else 1, leading), dtype)
        left = np.empty(1, dtype)
        values = np.empty(n, dtype)
        imaginary = np.empty(n, dtype)  # real matrices: the eigenvalues' imaginary parts
        real_work = np.empty(max(2 * n, 1), real)  # complex matrices: rwork
        query = np.empty(1, dtype)
        info = _integer(0)
        for size in (-1, 0):  # a workspace query, then the computation
            work = query
            if size == 0:
                work = np.empty(_workspace_size(query), dtype)
            if is_complex:
                geev(
                    _character(_N),
                    _character(job),
                    _integer(n),
                    factors,
                    _integer(leading),
                    values,
                    left,
                    _integer(1),
                    right,
                    _integer(right.shape[1]),
                    work,
                    _integer(size if size < 0 else work.size),
                    real_work,
                    info,
                    1,
                    1,
                )
            else:
                geev(
                    _character(_N),
                    _character(job),
                    _integer(n),
                    factors,
                    _integer(leading),
                    values,
                    imaginary,
                    left,
                    _integer(1),
                    right,
                    _integer(right.shape[1]),
                    work,
                    _integer(size if size < 0 else work.size),
                    info,
                    1,
                    1,
                )
        if info[0] > 0:
            raise np.linalg.LinAlgError("Eigenvalues did not converge")
        if not is_complex:
            for i in range(n):
                if imaginary[i] != 0:
                    raise ValueError(
                        "eig() argument must not cause a domain change: this real matrix has "
                        "complex eigenvalues, which compiled code can only return for a complex "
                        "matrix (a.astype(np.complex128))"
                    )
        if vectors:
            vectors_found = right[:, :n].T  # the buffer has a row even when n is 0
            if narrow:
                return values.astype(result), vectors_found.astype(result)
            return values, vectors_found
        if narrow:
            return values.astype(result)
        return values

    return impl


@overload(np.linalg.eig)
def eig(a):
    return _eig_typer("eig", a, True)


@overload(np.linalg.eigvals)
def eigvals(a):
    return _eig_typer("eigvals", a, False)


def _eigh_typer(function, a, UPLO, vectors):
    _check_matrix(function, a)
    uplo = _string_option(UPLO, "L").upper()
    if uplo not in ("L", "U"):
        raise TypingError("UPLO argument must be 'L' or 'U'")
    triangle = ord(uplo)
    dtype, result = _lapack_dtypes(a)
    narrow = dtype != result
    real = _real_dtype(dtype)
    real_result = _real_dtype(result)
    is_complex = _is_complex(dtype)
    if is_complex:
        evd = _routine(dtype, "heevd", 13, 2)
    else:
        evd = _routine(dtype, "syevd", 11, 2)
    job = _V if vectors else _N

    def impl(a, UPLO="L"):
        n = _square_size(a)
        factors = _column_major(a, np.empty((n, n), dtype))
        values = np.empty(n, real)
        query = np.empty(1, dtype)
        real_query = np.empty(1, real)
        integer_query = np.empty(1, _INT)
        info = _integer(0)
        for size in (-1, 0):  # a workspace query, then the computation
            if size < 0:
                work, real_work, integer_work = query, real_query, integer_query
            else:
                work = np.empty(_workspace_size(query), dtype)
                real_work = np.empty(_workspace_size(real_query), real)
                integer_work = np.empty(_workspace_size(integer_query), _INT)
            if is_complex:
                evd(
                    _character(job),
                    _character(triangle),
                    _integer(n),
                    factors,
                    _integer(max(n, 1)),
                    values,
                    work,
                    _integer(size if size < 0 else work.size),
                    real_work,
                    _integer(size if size < 0 else real_work.size),
                    integer_work,
                    _integer(size if size < 0 else integer_work.size),
                    info,
                    1,
                    1,
                )
            else:
                evd(
                    _character(job),
                    _character(triangle),
                    _integer(n),
                    factors,
                    _integer(max(n, 1)),
                    values,
                    work,
                    _integer(size if size < 0 else work.size),
                    integer_work,
                    _integer(size if size < 0 else integer_work.size),
                    info,
                    1,
                    1,
                )
        if info[0] > 0:
            raise np.linalg.LinAlgError("Eigenvalues did not converge")
        if vectors:
            if narrow:
                return values.astype(real_result), factors.T.astype(result)
            return values, factors.T
        if narrow:
            return values.astype(real_result)
        return values

    return impl


@overload(np.linalg.eigh)
def eigh(a, UPLO="L"):
    return _eigh_typer("eigh", a, UPLO, True)


@overload(np.linalg.eigvalsh)
def eigvalsh(a, UPLO="L"):
    return _eigh_typer("eigvalsh", a, UPLO, False)


# ---------------------------------------------------------------------------------------------
# Singular values and least squares


def _svd(a, full_matrices, compute_vectors):
    """Python stub: (u, s, vh) of `a` by gesdd; u and vh are empty unless `compute_vectors`."""


@overload(_svd)
def _svd_typer(a, full_matrices, compute_vectors):
    dtype = _lapack_dtypes(a)[0]
    real = _real_dtype(dtype)
    is_complex = _is_complex(dtype)
    gesdd = _routine(dtype, "gesdd", 15 if is_complex else 14, 1)

    def impl(a, full_matrices, compute_vectors):
        rows, columns = a.shape
        smaller = min(rows, columns)
        if not compute_vectors:
            job = _N
            u_columns, vh_rows = 1, 1
        elif full_matrices:
            job = _A
            u_columns, vh_rows = rows, columns
        else:
            job = _S
            u_columns, vh_rows = smaller, smaller
        values = np.empty(smaller, real)
        u = np.zeros((u_columns, max(rows, 1)), dtype)  # column order: u.T is U
        vh = np.zeros((columns, max(vh_rows, 1)), dtype)  # column order: vh.T is Vh
        if smaller == 0:
            if compute_vectors:  # NumPy's result: identities where full matrices are asked for
                _set_identity(u)
                _set_identity(vh)
            return u[:, :rows].T, values, vh[:, :vh_rows].T
        factors = _column_major(a, np.empty((columns, rows), dtype))
        largest = max(rows, columns)
        if job == _N:
            real_size = 7 * smaller
        else:
            real_size = max(
                5 * smaller * smaller + 5 * smaller,
                2 * largest * smaller + 2 * smaller * smaller + smaller,
            )
        real_work = np.empty(real_size, real)
        integer_work = np.empty(8 * smaller, _INT)
        query = np.empty(1, dtype)
        info = _integer(0)
        for size in (-1, 0):  # a workspace query, then the computation
            work = query
            if size == 0:
                work = np.empty(_workspace_size(query), dtype)
            if is_complex:
                gesdd(
                    _character(job),
                    _integer(rows),
                    _integer(columns),
                    factors,
                    _integer(rows),
                    values,
                    u,
                    _integer(u.shape[1]),
                    vh,
                    _integer(vh.shape[1]),
                    work,
                    _integer(size if size < 0 else work.size),
                    real_work,
                    integer_work,
                    info,
                    1,
                )
            else:
                gesdd(
                    _character(job),
                    _integer(rows),
                    _integer(columns),
                    factors,
                    _integer(rows),
                    values,
                    u,
                    _integer(u.shape[1]),
                    vh,
                    _integer(vh.shape[1]),
                    work,
                    _integer(size if size < 0 else work.size),
                    integer_work,
                    info,
                    1,
                )
        if info[0] > 0:
            raise np.linalg.LinAlgError("SVD did not converge")
        return u[:, :rows].T, values, vh[:, :vh_rows].T

    return impl


@overload(np.linalg.svd)
def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    if compute_uv is not True:
        raise TypingError(
            "np.linalg.svd(): compute_uv cannot be passed in compiled code, where the result's "
            "type cannot depend on its value: use np.linalg.svdvals(a) for the singular values"
        )
    if hermitian is not False:
        raise TypingError("np.linalg.svd(): hermitian is not supported in compiled code")

    _check_matrix("svd", a)
    result = _lapack_dtypes(a)[1]
    narrow = result in (np.float32, np.complex64)
    real = _real_dtype(result)

    def impl(a, full_matrices=True, compute_uv=True, hermitian=False):
        u, s, vh = _svd(a, full_matrices, True)
        if narrow:
            return u.astype(result), s.astype(real), vh.astype(result)
        return u, s, vh

    return impl


if hasattr(np.linalg, "svdvals"):

    @overload(np.linalg.svdvals)
    def svdvals(x):
        _check_matrix("svdvals", x, "x")
        real = _real_dtype(_lapack_dtypes(x)[1])
        narrow = real == np.float32

        def impl(x):
            values = _svd(x, False, False)[1]
            if narrow:
                return values.astype(real)
            return values

        return impl


@overload(np.linalg.lstsq)
def lstsq(a, b, rcond=None):
    _check_matrix("lstsq", a)
    if not isinstance(b, types.Array) or b.ndim not in (1, 2):
        raise TypingError(f"np.linalg.lstsq() takes a 1-D or 2-D array for b, not {b}")
    _check_dtype("lstsq", b)
    if not (_is_none(rcond) or isinstance(rcond, (types.Float, types.Integer))):
        raise TypingError(f"np.linalg.lstsq(): rcond must be a number or None, not {rcond}")
    dtype, result = _lapack_dtypes(a, b)
    narrow = dtype != result
    real = _real_dtype(dtype)
    is_complex = _is_complex(dtype)
    gelsd = _routine(dtype, "gelsd", 15 if is_complex else 14)
    vector = b.ndim == 1
    single = _real_dtype(result)
    epsilon = float(np.finfo(single).eps)
    default_rcond = _is_none(rcond)

    def impl(a, b, rcond=None):
        rows, columns = a.shape
        if b.shape[0] != rows:
            raise np.linalg.LinAlgError("Incompatible dimensions")
        right_sides = 1 if vector else b.shape[1]
        leading = max(1, rows, columns)
        solutions = np.zeros((right_sides, leading), dtype)  # column order, as LAPACK's B
        for j in range(right_sides):
            for i in range(rows):
                if vector:
                    solutions[j, i] = b[i]
                else:
                    solutions[j, i] = b[i, j]
        smaller = min(rows, columns)
        values = np.empty(smaller, real)
        rank = 0
        if smaller > 0:
            factors = _column_major(a, np.empty((columns, rows), dtype))
            cutoff = np.empty(1, real)
            if default_rcond:
                cutoff[0] = epsilon * max(rows, columns)
            else:
                cutoff[0] = rcond
            found_rank = _integer(0)
            query = np.empty(1, dtype)
            real_query = np.empty(1, real)
            integer_query = np.empty(1, _INT)
            info = _integer(0)
            for size in (-1, 0):  # a workspace query, then the computation
                if size < 0:
                    work, real_work, integer_work = query, real_query, integer_query
                else:
                    work = np.empty(_workspace_size(query), dtype)
                    real_work = np.empty(_workspace_size(real_query), real)
                    integer_work = np.empty(_workspace_size(integer_query), _INT)
                if is_complex:
                    gelsd(
                        _integer(rows),
                        _integer(columns),
                        _integer(right_sides),
                        factors,
                        _integer(rows),
                        solutions,
                        _integer(leading),
                        values,
                        cutoff,
                        found_rank,
                        work,
                        _integer(size if size < 0 else work.size),
                        real_work,
                        integer_work,
                        info,
                    )
                else:
                    gelsd(
                        _integer(rows),
                        _integer(columns),
                        _integer(right_sides),
                        factors,
                        _integer(rows),
                        solutions,
                        _integer(leading),
                        values,
                        cutoff,
                        found_rank,
                        work,
                        _integer(size if size < 0 else work.size),
                        integer_work,
                        info,
                    )
            if info[0] > 0:
                raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
            rank = int(found_rank[0])
        else:  # no unknowns or no equations: x is 0 and b is all residual
            for j in range(right_sides):
                for i in range(columns):
                    solutions[j, i] = 0
        if rank == columns and rows > columns:
            residuals = np.zeros(right_sides, real)
            for j in range(right_sides):
                for i in range(columns, rows):
                    residuals[j] += abs(solutions[j, i]) ** 2
        else:
            residuals = np.zeros(0, real)
        if vector:
            x = np.empty(columns, dtype)
            for i in range(columns):
                x[i] = solutions[0, i]
            if narrow:
                return x.astype(result), residuals.astype(single), rank, values.astype(single)
            return x, residuals, rank, values
        x2 = np.empty((columns, right_sides), dtype)
        for i in range(columns):
            for j in range(right_sides):
                x2[i, j] = solutions[j, i]
        if narrow:
            return x2.astype(result), residuals.astype(single), rank, values.astype(single)
        return x2, residuals, rank, values

    return impl


@overload(np.linalg.cholesky)
def cholesky(a, upper=False):
    _check_matrix("cholesky", a)
    if not isinstance(upper, bool):
        raise TypingError("np.linalg.cholesky(): upper must be left out or a constant")
    dtype, result = _lapack_dtypes(a)
    potrf = _routine(dtype, "potrf", 5, 1)
    # LAPACK sees a in column order, so its upper triangle is a's own upper triangle.
    triangle = _U if upper else _L

    def impl(a, upper=False):
        n = _square_size(a)
        factor = _column_major(a, np.empty((n, n), dtype))
        info = _integer(0)
        potrf(_character(triangle), _integer(n), factor, _integer(max(n, 1)), info, 1)
        if info[0] > 0:
            raise np.linalg.LinAlgError("Matrix is not positive definite")
        cleaned = np.zeros((n, n), result)  # the other triangle is left as it was: zero it
        for i in range(n):
            for j in range(n):
                if (j >= i) == upper or i == j:
                    cleaned[i, j] = factor[j, i]
        return cleaned

    return impl


# ---------------------------------------------------------------------------------------------
# Norms and traces


@register_jitable
def _sum_of_squares(x):
    total = 0.0
    for value in x.ravel():
        total += value.real * value.real + value.imag * value.imag
    return total


@register_jitable
def _vector_norm(x, order):
    if order == np.inf:
        return np.abs(x).max()
    if order == -np.inf:
        return np.abs(x).min()
    if order == 0:
        count = 0.0
        for value in x:
            if value != 0:
                count += 1.0
        return count
    if order == 1:
        return np.abs(x).sum()
    if order == 2:
        return np.sqrt(_sum_of_squares(x))
    return (np.abs(x) ** order).sum() ** (1.0 / order)


@register_jitable
def _matrix_norm(x, order):
    if order == 1:
        return np.abs(x).sum(axis=0).max()
    if order == -1:
        return np.abs(x).sum(axis=0).min()
    if order == np.inf:
        return np.abs(x).sum(axis=1).max()
    if order == -np.inf:
        return np.abs(x).sum(axis=1).min()
    if order == 2:
        return _svd(x, False, False)[1].max()
    if order == -2:
        return _svd(x, False, False)[1].min()
    raise ValueError("Invalid norm order for matrices.")


def _inexact(x):
    """Python stub: x, or x as float64 when it holds integers or bools (as NumPy's norm)."""


@overload(_inexact)
def _inexact_typer(x):
    if x.dtype.kind_name in ("Integer", "Boolean"):
        return lambda x: x.astype(np.float64)
    return lambda x: x


@overload(np.linalg.norm)
def norm(x, ord=None, axis=None, keepdims=False):
    if not isinstance(x, types.Array):
        raise TypingError(f"np.linalg.norm() takes an array, not {x}")
    _check_dtype("norm", x)
    if not _is_none(axis) or keepdims is not False:
        raise TypingError("np.linalg.norm(): axis and keepdims are not supported in compiled code")
    # NumPy's result: float32 for single precision, float64 otherwise (integers included).
    result = np.float32 if str(x.dtype) in ("float32", "complex64") else np.float64
    text = getattr(ord, "literal_value", None)
    if _is_none(ord) or (text == "fro" and x.ndim == 2):

        def frobenius(x, ord=None, axis=None, keepdims=False):
            return result(np.sqrt(_sum_of_squares(_inexact(x))))

        return frobenius
    if x.ndim == 1 and text is not None:
        raise TypingError(f"Invalid norm order '{text}' for vectors")
    if x.ndim == 2 and text == "nuc":

        def nuclear(x, ord=None, axis=None, keepdims=False):
            return result(_svd(x, False, False)[1].sum())

        return nuclear
    if x.ndim > 2 or text is not None:
        raise TypingError(
            "Improper number of dimensions to norm."
            if x.ndim > 2
            else f"Invalid norm order '{text}' for matrices."
        )
    if not isinstance(ord, (types.Integer, types.Float)):
        raise TypingError(f"np.linalg.norm(): ord must be a number, None or a string, not {ord}")
    if x.ndim == 1:

        def vector(x, ord=None, axis=None, keepdims=False):
            return result(_vector_norm(_inexact(x), ord))

        return vector

    def matrix(x, ord=None, axis=None, keepdims=False):
        return result(_matrix_norm(_inexact(x), ord))

    return matrix


def _trace_dtype(dtype):
    """NumPy's sum type: small integers and bools widen to 64 bits."""
    name = str(dtype)
    if name == "bool" or (name.startswith("int") and name != "int64"):
        return np.int64
    if name.startswith("uint") and name != "uint64":
        return np.uint64
    return getattr(np, name)


def _trace_typer(a, offset):
    if not isinstance(a, types.Array) or a.ndim != 2:
        raise TypingError(f"trace() supports 2-D arrays only in compiled code, not {a}")
    if not isinstance(offset, (int, types.Integer)):
        raise TypingError(f"trace(): offset must be an integer, not {offset}")
    result = _trace_dtype(a.dtype)

    def impl(a, offset=0):
        rows, columns = a.shape
        total = result(0)
        i = max(0, -offset)
        j = max(0, offset)
        while i < rows and j < columns:
            total += a[i, j]
            i += 1
            j += 1
        return total

    return impl


# np.trace itself is in shapes_products.py (one place per function); the method is here.
@overload_method(types.Array, "trace")
def array_trace(a, offset=0):
    return _trace_typer(a, offset)
