"""np.round and np.around (numpy_library/rounding.py), np.take and np.roots
(numpy_library/take_and_roots.py), np.dstack and np.row_stack (numpy_library/stacking.py)
compared with NumPy over dtypes, decimals, shapes, layouts and errors; allocations balance."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from array_helpers import layouts, sample
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError

VALUES = np.array(
    [[0.5, 1.5, 2.5, -0.5, 1.2345, -7.55], [123.456, 1e300, np.nan, np.inf, -2.675, 0.125]]
)


@njit
def round_(a, decimals):
    return np.round(a, decimals)


@njit
def around(a):
    return np.around(a)


@njit
def round_into(a, decimals, out):
    np.round(a, decimals, out)
    return out


@pytest.mark.parametrize("decimals", [0, 1, 3, -1, -2])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_round_inexact(decimals, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = VALUES.astype(dtype) if dtype != "complex128" else VALUES[0] + 1j * VALUES[1]
    for _, a in layouts(values.reshape(2, -1)):
        check_like_numpy(round_, a, decimals)
    check_like_numpy(round_, 2.675, decimals)
    check_like_numpy(round_, -0.5 + 2.5j, decimals)


@pytest.mark.parametrize("decimals", [0, 2, -1, -2])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_round_integers(decimals, dtype):
    values = np.array([15, 25, 35, 14, 16, 105, 95, 0, 7]).astype(dtype)
    if np.dtype(dtype).kind == "i":
        values[::3] *= -1
    check_like_numpy(round_, values, decimals)
    check_like_numpy(round_, values[::2].reshape(1, -1), decimals)
    check_like_numpy(round_, 250, decimals)


def test_around_out_and_errors():
    check_like_numpy(around, VALUES)
    check_like_numpy(around, sample("float64", (0,)))
    out = np.zeros((2, 6))
    with no_allocation_leak():
        result = round_into(VALUES, 1, out)
        assert result is out or np.shares_memory(result, out)
        assert np.array_equal(out, np.round(VALUES, 1), equal_nan=True)
        del result
    with pytest.raises(ValueError, match="invalid output shape"):
        round_into(VALUES, 1, np.zeros((6, 2)))
    with pytest.raises(TypingError, match="booleans"):
        around(np.array([True]))
    with pytest.raises(TypingError, match="decimals must be an integer"):
        round_(VALUES, 1.5)


@njit
def take(a, indices):
    return np.take(a, indices)


@pytest.mark.parametrize("dtype", ["bool", "int16", "float64", "complex64"])
def test_take(dtype):
    for _, a in layouts(sample(dtype, (3, 4))):
        check_like_numpy(take, a, np.array([0, 11, -1, -12, 5]))
        check_like_numpy(take, a, np.array([[1, 2], [3, 4]]))
        check_like_numpy(take, a, 7)
        check_like_numpy(take, a, -3)
        check_like_numpy(take, a, np.zeros(0, np.int64))
    check_like_numpy(take, [1.5, 2.5], (1, 0, 1))


def test_take_errors():
    with pytest.raises(IndexError, match="index 12 is out of bounds for axis 0 with size 12"):
        take(np.zeros((3, 4)), 12)
    with pytest.raises(TypingError, match="indices must be an integer"):
        take(np.zeros(3), np.zeros(2))


@njit
def roots(p):
    return np.roots(p)


@pytest.mark.parametrize(
    "p",
    [
        [1, -3, 2],
        [0, 0, 1, -3, 2, 0, 0],
        [1.0],
        [0.0, 0.0],
        [2.0, 0, 0],
        [1, -6, 11, -6],
        [1j, 2, 3],
        [1 + 1j, 0, -1],
    ],
    ids=str,
)
def test_roots(p):
    expected = np.roots(p)
    with no_allocation_leak():
        actual = roots(np.asarray(p))
        assert actual.shape == expected.shape
        if np.iscomplexobj(np.asarray(p)):
            assert actual.dtype == np.complex128
        np.testing.assert_allclose(np.sort_complex(actual), np.sort_complex(expected), rtol=1e-12)
        del actual


def test_roots_of_real_coefficients_are_real_or_complex_as_numpys_eigvals():
    if np.linalg.eigvals(np.eye(1)).dtype.kind == "c":  # NumPy 2.5: complex for every matrix
        assert roots(np.array([1.0, -3.0, 2.0])).dtype == np.complex128
        np.testing.assert_allclose(roots(np.array([1.0, 0.0, 1.0])), np.roots([1.0, 0.0, 1.0]))
        return
    assert roots(np.array([1.0, -3.0, 2.0])).dtype == np.float64
    with pytest.raises(ValueError, match="complex eigenvalues"):
        roots(np.array([1.0, 0.0, 1.0]))  # x**2 + 1: NumPy's result would be complex


@njit
def dstack(a, b):
    return np.dstack((a, b))


@njit
def row_stack(a, b):
    return np.row_stack((a, b))


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex128"])
def test_dstack(dtype):
    for a, b in [((3,), (3,)), ((2, 3), (2, 3)), ((2, 3, 2), (2, 3, 1)), ((), ())]:
        check_like_numpy(dstack, sample(dtype, a), sample(dtype, b, seed=1))
    for _, a in layouts(sample(dtype, (3, 4))):
        check_like_numpy(dstack, a, sample("int8", (3, 4)))


@pytest.mark.skipif(not hasattr(np, "row_stack"), reason="NumPy removed np.row_stack")
def test_row_stack():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check_like_numpy(row_stack, sample("float64", (2, 3)), sample("int64", (3,)))
