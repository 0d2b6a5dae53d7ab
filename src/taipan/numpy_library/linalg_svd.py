"""np.linalg's singular value decompositions (svd, svdvals) by LAPACK's gesdd and least
squares (lstsq) by gelsd, for compiled code (shared preparation in numpy_library/_linalg.py)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library._linalg import (
    INTEGER,
    A,
    N,
    S,
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
    work_length,
    workspace,
    workspace_queries,
    workspaces,
)
from taipan.numpy_library.support import is_none


def svd_parts(a, full_matrices, compute_vectors):
    """Python stub: (u, s, vh) of `a` by gesdd; u and vh are empty unless `compute_vectors`."""


@overload(svd_parts)
def _svd_parts_typer(a, full_matrices, compute_vectors):
    dtype = lapack_dtypes(a)[0]
    real = real_dtype(dtype)
    complex_matrix = is_complex(dtype)
    gesdd = routine(dtype, "gesdd", 15 if complex_matrix else 14, 1)

    def impl(a, full_matrices, compute_vectors):
        rows, columns = a.shape
        smaller = min(rows, columns)
        if not compute_vectors:
            job = N
            u_columns, vh_rows = 1, 1
        elif full_matrices:
            job = A
            u_columns, vh_rows = rows, columns
        else:
            job = S
            u_columns, vh_rows = smaller, smaller
        values = np.empty(smaller, real)
        u = np.zeros((u_columns, max(rows, 1)), dtype)  # column order: u.T is U
        vh = np.zeros((columns, max(vh_rows, 1)), dtype)  # column order: vh.T is Vh
        if smaller == 0:
            if compute_vectors:  # NumPy's result: identities where full matrices are asked for
                set_identity(u)
                set_identity(vh)
            return u[:, :rows].T, values, vh[:, :vh_rows].T
        factors = fortran_copy(a, dtype)
        largest = max(rows, columns)
        if job == N:
            real_size = 7 * smaller
        else:
            real_size = max(
                5 * smaller * smaller + 5 * smaller,
                2 * largest * smaller + 2 * smaller * smaller + smaller,
            )
        real_work = np.empty(real_size, real)
        integer_work = np.empty(8 * smaller, INTEGER)
        query = np.empty(1, dtype)
        info = integer(0)
        for size in (-1, 0):  # a workspace query, then the computation
            work = workspace(size, query, dtype)
            # Complex gesdd takes rwork, real gesdd does not.
            if complex_matrix:
                gesdd(
                    character(job),
                    integer(rows),
                    integer(columns),
                    factors,
                    integer(rows),
                    values,
                    u,
                    integer(u.shape[1]),
                    vh,
                    integer(vh.shape[1]),
                    work,
                    work_length(size, work),
                    real_work,
                    integer_work,
                    info,
                    1,
                )
            else:
                gesdd(
                    character(job),
                    integer(rows),
                    integer(columns),
                    factors,
                    integer(rows),
                    values,
                    u,
                    integer(u.shape[1]),
                    vh,
                    integer(vh.shape[1]),
                    work,
                    work_length(size, work),
                    integer_work,
                    info,
                    1,
                )
        check_info(info, "SVD did not converge")
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

    check_matrix("svd", a)
    dtype, result = lapack_dtypes(a)
    to_result = converter(dtype, result)
    to_real_result = converter(real_dtype(dtype), real_dtype(result))

    def impl(a, full_matrices=True, compute_uv=True, hermitian=False):
        u, s, vh = svd_parts(a, full_matrices, True)
        return to_result(u), to_real_result(s), to_result(vh)

    return impl


if hasattr(np.linalg, "svdvals"):

    @overload(np.linalg.svdvals)
    def svdvals(x):
        check_matrix("svdvals", x, "x")
        dtype, result = lapack_dtypes(x)
        to_real_result = converter(real_dtype(dtype), real_dtype(result))

        def impl(x):
            return to_real_result(svd_parts(x, False, False)[1])

        return impl


@overload(np.linalg.lstsq)
def lstsq(a, b, rcond=None):
    check_matrix("lstsq", a)
    check_right_sides("lstsq", b)
    if not (is_none(rcond) or isinstance(rcond, (types.Float, types.Integer))):
        raise TypingError(f"np.linalg.lstsq(): rcond must be a number or None, not {rcond}")
    dtype, result = lapack_dtypes(a, b)
    to_result = converter(dtype, result)
    real = real_dtype(dtype)
    single = real_dtype(result)
    to_real_result = converter(real, single)
    complex_matrix = is_complex(dtype)
    gelsd = routine(dtype, "gelsd", 15 if complex_matrix else 14)
    vector = b.ndim == 1
    epsilon = float(np.finfo(single).eps)
    default_rcond = is_none(rcond)

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
            factors = fortran_copy(a, dtype)
            cutoff = np.empty(1, real)
            if default_rcond:
                cutoff[0] = epsilon * max(rows, columns)
            else:
                cutoff[0] = rcond
            found_rank = integer(0)
            queries = workspace_queries(dtype, real)
            info = integer(0)
            for size in (-1, 0):  # a workspace query, then the computation
                work, real_work, integer_work = workspaces(size, queries, dtype, real)
                # Complex gelsd takes rwork, real gelsd does not.
                if complex_matrix:
                    gelsd(
                        integer(rows),
                        integer(columns),
                        integer(right_sides),
                        factors,
                        integer(rows),
                        solutions,
                        integer(leading),
                        values,
                        cutoff,
                        found_rank,
                        work,
                        work_length(size, work),
                        real_work,
                        integer_work,
                        info,
                    )
                else:
                    gelsd(
                        integer(rows),
                        integer(columns),
                        integer(right_sides),
                        factors,
                        integer(rows),
                        solutions,
                        integer(leading),
                        values,
                        cutoff,
                        found_rank,
                        work,
                        work_length(size, work),
                        integer_work,
                        info,
                    )
            check_info(info, "SVD did not converge in Linear Least Squares")
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
            return to_result(x), to_real_result(residuals), rank, to_real_result(values)
        x2 = np.empty((columns, right_sides), dtype)
        for i in range(columns):
            for j in range(right_sides):
                x2[i, j] = solutions[j, i]
        return to_result(x2), to_real_result(residuals), rank, to_real_result(values)

    return impl
