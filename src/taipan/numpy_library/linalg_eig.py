"""np.linalg's eigenvalues and eigenvectors for compiled code: eig and eigvals by LAPACK's
geev, eigh and eigvalsh by syevd/heevd (shared preparation in numpy_library/_linalg.py).

The dtype of ``eig``'s results for a real matrix depends on the NumPy installed: NumPy 2.5 and
later always return complex results, which compiled code does too (pairs of LAPACK's real
eigenvectors made into complex ones, as NumPy does). Earlier NumPy returns complex results only
when an eigenvalue is complex, a decision on values that compiled code cannot make from types:
there a real matrix gives real results and one with complex eigenvalues raises ValueError (as
Numba does); pass a complex matrix for those."""

import numpy as np

from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library._linalg import (
    N,
    V,
    character,
    check_finite,
    check_info,
    check_matrix,
    constant_string,
    converter,
    fortran_copy,
    integer,
    is_complex,
    lapack_dtypes,
    real_dtype,
    routine,
    square_size,
    work_length,
    workspace,
    workspace_queries,
    workspaces,
)

_ALWAYS_COMPLEX = []


def _eig_always_complex():
    """Whether the installed NumPy's eig returns complex results for real matrices whatever
    their eigenvalues (asked of NumPy itself once)."""
    if not _ALWAYS_COMPLEX:
        _ALWAYS_COMPLEX.append(np.linalg.eigvals(np.eye(1)).dtype.kind == "c")
    return _ALWAYS_COMPLEX[0]


def _eig_typer(function, a, vectors):
    check_matrix(function, a)
    dtype, result = lapack_dtypes(a)
    return _eig_implementation(vectors, dtype, result, _eig_always_complex())


def _real_eig_as_complex(a, vectors, dtype, result):
    """eig of a real matrix as NumPy 2.5 returns it, whatever NumPy is installed."""
    return _eig_implementation(vectors, dtype, result, True)


def _eig_implementation(vectors, dtype, result, always_complex):
    """eig or eigvals by geev. With `always_complex` (NumPy 2.5 and later), a real matrix gives
    complex eigenvalues, and eigenvectors in which LAPACK's (re, im) column pairs of
    complex-conjugate eigenvalues become v and conj(v); without, a real matrix with complex
    eigenvalues raises ValueError."""
    complex_matrix = is_complex(dtype)
    complex_results = always_complex and not complex_matrix
    if complex_results:
        complex_result = np.complex64 if result == np.float32 else np.complex128
        to_result = converter(np.complex128, complex_result)
    else:
        to_result = converter(dtype, result)
    real = real_dtype(dtype)
    geev = routine(dtype, "geev", 14, 2)
    job = V if vectors else N

    def impl(a):
        n = square_size(a)
        check_finite(a)
        factors = fortran_copy(a, dtype)
        leading = max(n, 1)
        right = np.empty((n if vectors else 1, leading), dtype)
        left = np.empty(1, dtype)
        values = np.empty(n, dtype)
        imaginary = np.empty(n, dtype)  # real matrices: the eigenvalues' imaginary parts
        real_work = np.empty(max(2 * n, 1), real)  # complex matrices: rwork
        query = np.empty(1, dtype)
        info = integer(0)
        for size in (-1, 0):  # a workspace query, then the computation
            work = workspace(size, query, dtype)
            # The two ABIs differ: real geev takes the imaginary parts, complex geev rwork.
            if complex_matrix:
                geev(
                    character(N),
                    character(job),
                    integer(n),
                    factors,
                    integer(leading),
                    values,
                    left,
                    integer(1),
                    right,
                    integer(right.shape[1]),
                    work,
                    work_length(size, work),
                    real_work,
                    info,
                    1,
                    1,
                )
            else:
                geev(
                    character(N),
                    character(job),
                    integer(n),
                    factors,
                    integer(leading),
                    values,
                    imaginary,
                    left,
                    integer(1),
                    right,
                    integer(right.shape[1]),
                    work,
                    work_length(size, work),
                    info,
                    1,
                    1,
                )
        check_info(info, "Eigenvalues did not converge")
        if complex_results:
            eigenvalues = _complex_eigenvalues(values, imaginary, n)
            if vectors:
                eigenvectors = _complex_eigenvectors(imaginary, right, n)
                return to_result(eigenvalues), to_result(eigenvectors.T)
            return to_result(eigenvalues)
        if not complex_matrix:
            for i in range(n):
                if imaginary[i] != 0:
                    raise ValueError(
                        "eig() argument must not cause a domain change: this real matrix has "
                        "complex eigenvalues, which compiled code can only return for a complex "
                        "matrix (a.astype(np.complex128))"
                    )
        if vectors:
            # The buffer has a row even when n is 0.
            return to_result(values), to_result(right[:, :n].T)
        return to_result(values)

    return impl


@register_jitable
def _complex_eigenvalues(values, imaginary, n):
    """Real geev's eigenvalues from their two parts."""
    eigenvalues = np.empty(n, np.complex128)
    for i in range(n):
        eigenvalues[i] = values[i] + 1j * imaginary[i]
    return eigenvalues


@register_jitable
def _complex_eigenvectors(imaginary, right, n):
    """Real geev's eigenvectors (row i of `right` is LAPACK's column i), each (re, im) pair of a
    complex-conjugate eigenvalue pair made into v and conj(v); row i is eigenvector i."""
    eigenvectors = np.empty((n, n), np.complex128)
    i = 0
    while i < n:
        if imaginary[i] != 0 and i + 1 < n:
            for k in range(n):
                eigenvectors[i, k] = right[i, k] + 1j * right[i + 1, k]
                eigenvectors[i + 1, k] = right[i, k] - 1j * right[i + 1, k]
            i += 2
        else:
            for k in range(n):
                eigenvectors[i, k] = right[i, k]
            i += 1
    return eigenvectors


@overload(np.linalg.eig)
def eig(a):
    return _eig_typer("eig", a, True)


@overload(np.linalg.eigvals)
def eigvals(a):
    return _eig_typer("eigvals", a, False)


def _eigh_typer(function, a, UPLO, vectors):
    check_matrix(function, a)
    uplo = constant_string(UPLO).upper()
    if uplo not in ("L", "U"):
        raise TypingError("UPLO argument must be 'L' or 'U'")
    triangle = ord(uplo)
    dtype, result = lapack_dtypes(a)
    to_result = converter(dtype, result)
    real = real_dtype(dtype)
    to_real_result = converter(real, real_dtype(result))
    complex_matrix = is_complex(dtype)
    if complex_matrix:
        evd = routine(dtype, "heevd", 13, 2)
    else:
        evd = routine(dtype, "syevd", 11, 2)
    job = V if vectors else N

    def impl(a, UPLO="L"):
        n = square_size(a)
        factors = fortran_copy(a, dtype)
        values = np.empty(n, real)
        queries = workspace_queries(dtype, real)
        info = integer(0)
        for size in (-1, 0):  # a workspace query, then the computation
            work, real_work, integer_work = workspaces(size, queries, dtype, real)
            # heevd takes rwork (and its length) where syevd takes nothing.
            if complex_matrix:
                evd(
                    character(job),
                    character(triangle),
                    integer(n),
                    factors,
                    integer(max(n, 1)),
                    values,
                    work,
                    work_length(size, work),
                    real_work,
                    work_length(size, real_work),
                    integer_work,
                    work_length(size, integer_work),
                    info,
                    1,
                    1,
                )
            else:
                evd(
                    character(job),
                    character(triangle),
                    integer(n),
                    factors,
                    integer(max(n, 1)),
                    values,
                    work,
                    work_length(size, work),
                    integer_work,
                    work_length(size, integer_work),
                    info,
                    1,
                    1,
                )
        check_info(info, "Eigenvalues did not converge")
        if vectors:
            return to_real_result(values), to_result(factors.T)
        return to_real_result(values)

    return impl


@overload(np.linalg.eigh)
def eigh(a, UPLO="L"):
    return _eigh_typer("eigh", a, UPLO, True)


@overload(np.linalg.eigvalsh)
def eigvalsh(a, UPLO="L"):
    return _eigh_typer("eigvalsh", a, UPLO, False)
