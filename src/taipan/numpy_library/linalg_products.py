"""np.linalg's functions built on the others, and LAPACK's QR: np.linalg.qr (geqrf, then
orgqr/ungqr for Q; Numba's form: the matrix only, NumPy's 'reduced' mode), matrix_power,
matrix_rank, pinv and cond (by singular values, or by norms for other ``p``), and np.vdot,
with NumPy's results and dtypes."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library._linalg import (
    check_info,
    check_matrix,
    converter,
    fortran_copy,
    integer,
    is_complex,
    lapack_dtypes,
    routine,
)
from taipan.numpy_library.support import is_none, numpy_dtype, scalar_class, string_value


@overload(np.linalg.qr)
def _qr(a):
    check_matrix("qr", a)
    dtype, result = lapack_dtypes(a)
    to_result = converter(dtype, result)
    geqrf = routine(dtype, "geqrf", 8)
    orgqr = routine(dtype, "ungqr" if is_complex(dtype) else "orgqr", 9)

    def qr(a):
        m, n = a.shape
        k = min(m, n)
        if k == 0:
            return to_result(np.zeros((m, k), dtype)), to_result(np.zeros((k, n), dtype))
        factors = fortran_copy(a, dtype)  # (n, m): the matrix in column order
        tau = np.empty(k, dtype)
        info = integer(0)
        query = np.empty(1, dtype)
        geqrf(integer(m), integer(n), factors, integer(m), tau, query, integer(-1), info)
        work = np.empty(max(1, int(abs(query[0]))), dtype)
        geqrf(integer(m), integer(n), factors, integer(m), tau, work, integer(work.size), info)
        check_info(info, "QR factorization failed")
        r = np.zeros((k, n), dtype)
        for j in range(n):
            for i in range(min(j + 1, k)):
                r[i, j] = factors[j, i]
        q = factors[:k].copy()  # the first k columns hold the reflectors
        orgqr(integer(m), integer(k), integer(k), q, integer(m), tau, query, integer(-1), info)
        work = np.empty(max(1, int(abs(query[0]))), dtype)
        orgqr(
            integer(m), integer(k), integer(k), q, integer(m), tau, work, integer(work.size), info
        )
        check_info(info, "QR factorization failed")
        return to_result(q.T), to_result(r)

    return qr


@overload(np.linalg.matrix_power)
def _matrix_power(a, n):
    if not isinstance(a, types.Array) or a.ndim != 2:
        raise TypingError("np.linalg.matrix_power() takes a 2-D array")
    if not isinstance(n, (int, types.Integer)):
        raise TypingError("exponent must be an integer")
    dtype = scalar_class(numpy_dtype(a))
    inexact = np.dtype(dtype).kind in "fc"

    if inexact:
        inverse_of = register_jitable(lambda a: np.linalg.inv(a))
    else:

        @register_jitable
        def inverse_of(a):
            if a.shape[0] >= 0:  # always: a run-time test keeps the array result type
                raise TypeError(
                    "matrix_power of an integer matrix to a negative power is not supported in "
                    "compiled code (NumPy gives a float matrix, a type chosen at run time)"
                )
            return np.ascontiguousarray(a)

    if np.dtype(dtype).kind == "f":
        product = register_jitable(lambda x, y: np.dot(x, y))
    else:

        @register_jitable
        def product(x, y):  # np.dot takes float32 and float64 matrices only
            size = x.shape[0]
            out = np.zeros((size, size), dtype)
            for i in range(size):
                for k in range(size):
                    for j in range(size):
                        out[i, j] += x[i, k] * y[k, j]
            return out

    def matrix_power(a, n):
        if a.shape[0] != a.shape[1]:
            raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
        size = a.shape[0]
        if n == 0:
            out = np.zeros((size, size), dtype)
            for i in range(size):
                out[i, i] = 1
            return out
        base = np.ascontiguousarray(a).astype(dtype) if n > 0 else inverse_of(a).astype(dtype)
        exponent = abs(n)
        result = np.zeros((size, size), dtype)
        for i in range(size):
            result[i, i] = 1
        first = True
        while exponent > 0:  # binary powering, as NumPy's
            if exponent & 1:
                result = base.copy() if first else product(result, base)
                first = False
            exponent >>= 1
            if exponent > 0:
                base = product(base, base)
        return result

    return matrix_power


@overload(np.linalg.matrix_rank)
def _matrix_rank(A, tol=None):
    if not isinstance(A, types.Array):
        raise TypingError("np.linalg.matrix_rank() takes an array")
    if A.ndim < 2:

        def rank_of_vector(A, tol=None):
            for value in A.ravel():
                if value != 0:
                    return 1
            return 0

        return rank_of_vector
    check_matrix("matrix_rank", A, "A")
    if not (is_none(tol) or isinstance(tol, (types.Integer, types.Float))):
        raise TypingError("np.linalg.matrix_rank(): tol must be a number")
    epsilon = np.finfo(lapack_dtypes(A)[1]).eps

    def matrix_rank(A, tol=None):
        singular = np.linalg.svd(A)[1]
        if singular.size == 0:
            return 0
        if tol is None:
            threshold = singular.max() * max(A.shape[0], A.shape[1]) * epsilon
        else:
            threshold = tol
        count = 0
        for s in singular:
            if s > threshold:
                count += 1
        return count

    return matrix_rank


@overload(np.linalg.pinv)
def _pinv(a, rcond=1e-15):
    check_matrix("pinv", a)
    dtype, result = lapack_dtypes(a)
    conjugate = is_complex(dtype)

    def pinv(a, rcond=1e-15):
        m, n = a.shape
        if m == 0 or n == 0:
            return np.zeros((n, m), result)
        u, s, vh = np.linalg.svd(a, False)
        cutoff = rcond * s.max()
        out = np.zeros((n, m), result)
        for k in range(s.size):
            if s[k] > cutoff:
                scale = 1.0 / s[k]
                for i in range(n):
                    v = vh[k, i].conjugate() if conjugate else vh[k, i]
                    for j in range(m):
                        w = u[j, k].conjugate() if conjugate else u[j, k]
                        out[i, j] += v * scale * w
        return out

    return pinv


@overload(np.linalg.cond)
def _cond(x, p=None):
    check_matrix("cond", x, "x")
    if isinstance(p, (str, types.UnicodeType)) or string_value(p) is not None:
        raise TypingError("np.linalg.cond(): p given as a string is not supported")
    if is_none(p):

        def cond_by_singular_values(x, p=None):
            s = np.linalg.svd(x)[1]
            return s[0] / s[-1]

        return cond_by_singular_values
    if not isinstance(p, (types.Integer, types.Float)):
        raise TypingError("np.linalg.cond(): p must be None or a number")

    def cond(x, p=None):
        if p == 2 or p == -2:
            s = np.linalg.svd(x)[1]
            return s[0] / s[-1] if p == 2 else s[-1] / s[0]
        return np.linalg.norm(x, p) * np.linalg.norm(np.linalg.inv(x), p)

    return cond


@overload(np.vdot)
def _vdot(a, b):
    if not (isinstance(a, types.Array) and isinstance(b, types.Array)):
        return None
    dtype = scalar_class(np.result_type(numpy_dtype(a), numpy_dtype(b)))
    conjugate = np.dtype(dtype).kind == "c" and isinstance(a.dtype, types.Complex)

    if np.dtype(dtype).kind == "b":  # NumPy's boolean dot: any pair both true

        def vdot_of_booleans(a, b):
            x = a.ravel()
            y = b.ravel()
            if x.size != y.size:
                raise ValueError("vdot: vectors have different lengths")
            for i in range(x.size):
                if x[i] and y[i]:
                    return True
            return False

        return vdot_of_booleans

    def vdot(a, b):
        x = a.ravel()
        y = b.ravel()
        if x.size != y.size:
            raise ValueError("vdot: vectors have different lengths")
        total = dtype(0)
        for i in range(x.size):
            if conjugate:
                total += dtype(x[i]).conjugate() * dtype(y[i])
            else:
                total += dtype(x[i]) * dtype(y[i])
        return total

    return vdot
