"""np.linalg.qr, matrix_power, matrix_rank, pinv, cond and np.vdot
(numpy_library/linalg_products.py) compared with NumPy over dtypes, shapes and layouts;
allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError

NUMPY_BEFORE_2_3 = np.lib.NumpyVersion(np.__version__) < "2.3.0"


def matrix(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) + 2 * np.eye(*shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def tolerance(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


@njit
def qr(a):
    return np.linalg.qr(a)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64"])
@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (1, 4), (0, 3)], ids=str)
def test_qr(dtype, shape):
    a = (
        matrix("float64", shape).round(1).astype(dtype)
        if dtype == "int64"
        else matrix(dtype, shape)
    )
    for _, view in layouts(a) if 0 not in shape else [("C", a)]:
        expected_q, expected_r = np.linalg.qr(view)
        with no_allocation_leak():
            q, r = qr(view)
            assert q.dtype == expected_q.dtype and r.dtype == expected_r.dtype
            assert q.shape == expected_q.shape and r.shape == expected_r.shape
            np.testing.assert_allclose(q, expected_q, rtol=0, atol=tolerance(dtype) * 10)
            np.testing.assert_allclose(r, expected_r, rtol=0, atol=tolerance(dtype) * 10)
            del q, r


@njit
def matrix_power(a, n):
    return np.linalg.matrix_power(a, n)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 6, -1, -3])
def test_matrix_power(dtype, n):
    a = (
        matrix("float64", (3, 3)).round(0).astype(dtype)
        if "int" in dtype
        else matrix(dtype, (3, 3))
    )
    if "int" in dtype and n < 0:
        with pytest.raises(TypeError, match="negative power"):
            matrix_power(a, n)
        return
    for _, view in layouts(a):
        check_like_numpy(matrix_power, view, n, rtol=tolerance(dtype) * 100)
    check_like_numpy(matrix_power, np.zeros((0, 0), dtype), max(n, 0))


def test_matrix_power_errors():
    with pytest.raises(np.linalg.LinAlgError, match="must be square"):
        matrix_power(np.zeros((2, 3)), 2)
    with pytest.raises(TypingError, match="exponent must be an integer"):
        matrix_power(np.zeros((2, 2)), 1.5)


@njit
def matrix_rank(a):
    return np.linalg.matrix_rank(a)


@njit
def matrix_rank_tol(a, tol):
    return np.linalg.matrix_rank(a, tol)


def test_matrix_rank():
    for a in [
        matrix("float64", (4, 4)),
        np.ones((3, 5)),
        np.zeros((3, 3)),
        np.eye(4)[:, :3],
        matrix("complex128", (3, 2)),
        np.arange(9.0).reshape(3, 3),
        np.zeros(3),
        np.ones(2),
    ]:
        check_like_numpy(matrix_rank, a)
    check_like_numpy(matrix_rank_tol, np.diag([1.0, 1e-3, 1e-8]), 1e-4)


@njit
def pinv(a):
    return np.linalg.pinv(a)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int16"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (0, 3)], ids=str)
def test_pinv(dtype, shape):
    if 0 in shape and "int" in dtype:
        pytest.skip("NumPy keeps an empty integer matrix's dtype; compiled code gives float64")
    a = matrix("float64", shape).round(0).astype(dtype) if "int" in dtype else matrix(dtype, shape)
    for _, view in layouts(a) if 0 not in shape else [("C", a)]:
        expected = np.linalg.pinv(view)
        with no_allocation_leak():
            actual = pinv(view)
            assert actual.dtype == expected.dtype and actual.shape == expected.shape
            np.testing.assert_allclose(actual, expected, rtol=0, atol=tolerance(dtype) * 10)
            del actual


@njit
def cond(a):
    return np.linalg.cond(a)


@njit
def cond_p(a, p):
    return np.linalg.cond(a, p)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_cond(dtype):
    a = matrix(dtype, (4, 4))
    check_like_numpy(cond, a, rtol=1e-10)
    for p in (1, -1, 2, -2, np.inf, -np.inf):
        if dtype == "complex128" and p in (1, -1, np.inf, -np.inf) and NUMPY_BEFORE_2_3:
            # NumPy < 2.3 cast these norms' ratio to the complex input type; taipan gives
            # the real number, as Numba and NumPy >= 2.3 do.
            np.testing.assert_allclose(cond_p(a, p), np.linalg.cond(a, p).real, rtol=1e-10)
            continue
        check_like_numpy(cond_p, a, p, rtol=1e-10)
    check_like_numpy(cond, matrix(dtype, (3, 5)), rtol=1e-10)


@njit
def vdot(a, b):
    return np.vdot(a, b)


@pytest.mark.parametrize(
    "dtypes",
    [
        ("float64", "float64"),
        ("complex128", "complex128"),
        ("int32", "float32"),
        ("complex64", "float64"),
        ("bool", "bool"),
    ],
    ids=str,
)
def test_vdot(dtypes):
    a = (
        matrix("float64", (3, 4)).astype(dtypes[0])
        if dtypes[0] != "bool"
        else np.eye(3, 4, dtype=bool)
    )
    b = matrix(dtypes[1], (4, 3), seed=1) if dtypes[1] != "bool" else np.eye(4, 3, dtype=bool)
    if np.dtype(dtypes[0]).kind == "c":
        a = a + 1j * matrix("float64", (3, 4), seed=2)
        a = a.astype(dtypes[0])
    check_like_numpy(vdot, a, b.T, rtol=1e-5)
    check_like_numpy(vdot, a.T, b, rtol=1e-5)
    with pytest.raises(ValueError, match="different lengths"):
        vdot(a, b[:2])
