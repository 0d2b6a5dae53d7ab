"""np.linalg's linear systems, inverses, determinants and Cholesky factors for compiled code,
by LAPACK's gesv, getrf and potrf (shared preparation in numpy_library/_linalg.py)."""

import numpy as np

from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library._linalg import (
    INTEGER,
    L,
    U,
    character,
    check_info,
    check_matrix,
    check_right_sides,
    converter,
    fortran_copy,
    integer,
    is_complex,
    lapack_dtypes,
    real_dtype,
    routine,
    set_identity,
    square_size,
    square_solver,
)


@register_jitable
def _vector_as_row(b, dtype):
    """Vector `b` as the single right-hand side of gesv: a (1, n) buffer of `dtype`."""
    row = np.empty((1, b.shape[0]), dtype)
    for i in range(b.shape[0]):
        row[0, i] = b[i]
    return row


@overload(np.linalg.solve)
def solve(a, b):
    check_matrix("solve", a)
    check_right_sides("solve", b)
    dtype, result = lapack_dtypes(a, b)
    to_result = converter(dtype, result)
    solve_in_place = square_solver(dtype)
    vector = b.ndim == 1
    right_sides = _vector_as_row if vector else fortran_copy

    def impl(a, b):
        n = square_size(a)
        if b.shape[0] != n:
            if vector:
                raise ValueError("solve1: Input operand 1 has a mismatch in its core dimension 0")
            raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
        solution = right_sides(b, dtype)
        check_info(solve_in_place(fortran_copy(a, dtype), solution), "Singular matrix")
        if vector:
            return to_result(solution[0])
        return to_result(solution.T)

    return impl


@overload(np.linalg.inv)
def inv(a):
    check_matrix("inv", a)
    dtype, result = lapack_dtypes(a)
    to_result = converter(dtype, result)
    solve_in_place = square_solver(dtype)

    def impl(a):
        n = square_size(a)
        factors = fortran_copy(a, dtype)
        inverse = np.zeros((n, n), dtype)
        set_identity(inverse)
        check_info(solve_in_place(factors, inverse), "Singular matrix")
        return to_result(inverse.T)

    return impl


def _lu_sign_and_log(a):
    """Python stub: the sign and log-magnitude of det(a), from an LU factorisation."""


@overload(_lu_sign_and_log)
def _lu_sign_and_log_typer(a):
    dtype = lapack_dtypes(a)[0]
    real = real_dtype(dtype)
    getrf = routine(dtype, "getrf", 6)
    complex_factors = is_complex(dtype)

    def impl(a):
        n = square_size(a)
        factors = fortran_copy(a, dtype)
        pivots = np.empty(max(n, 1), INTEGER)
        info = integer(0)
        getrf(integer(n), integer(n), factors, integer(max(n, 1)), pivots, info)
        sign = dtype(1)
        log_magnitude = real(0)
        if info[0] > 0:  # an exactly zero pivot: singular
            return dtype(0), real(-np.inf)
        for i in range(n):
            element = factors[i, i]
            magnitude = real(abs(element))
            if complex_factors:
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
    check_matrix("slogdet", a)
    result = lapack_dtypes(a)[1]
    real = real_dtype(result)

    def impl(a):
        sign, log_magnitude = _lu_sign_and_log(a)
        return result(sign), real(log_magnitude)

    return impl


@overload(np.linalg.det)
def det(a):
    check_matrix("det", a)
    result = lapack_dtypes(a)[1]

    def impl(a):
        # NumPy's own formula, sign * exp(log|det|), so results agree to the last bit.
        sign, log_magnitude = _lu_sign_and_log(a)
        return result(sign * np.exp(log_magnitude))

    return impl


@overload(np.linalg.cholesky)
def cholesky(a, upper=False):
    check_matrix("cholesky", a)
    if not isinstance(upper, bool):
        raise TypingError("np.linalg.cholesky(): upper must be left out or a constant")
    dtype, result = lapack_dtypes(a)
    potrf = routine(dtype, "potrf", 5, 1)
    # LAPACK sees a in column order, so its upper triangle is a's own upper triangle.
    triangle = U if upper else L

    def impl(a, upper=False):
        n = square_size(a)
        factor = fortran_copy(a, dtype)
        info = integer(0)
        potrf(character(triangle), integer(n), factor, integer(max(n, 1)), info, 1)
        check_info(info, "Matrix is not positive definite")
        cleaned = np.zeros((n, n), result)  # the other triangle is left as it was: zero it
        for i in range(n):
            for j in range(n):
                if (j >= i) == upper or i == j:
                    cleaned[i, j] = factor[j, i]
        return cleaned

    return impl
