"""np.tril_indices, np.triu_indices and their _from forms (numpy_library/triangle_indices.py),
np.diagflat and np.fill_diagonal (numpy_library/diagonals.py) compared with NumPy over sizes,
offsets, dtypes, layouts and Numba's checks; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts, sample
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


@njit
def tril_indices(n, k, m):
    return np.tril_indices(n, k, m)


@njit
def triu_indices(n, k, m):
    return np.triu_indices(n, k, m)


@njit
def tril_indices_default(n):
    return np.tril_indices(n)


@njit
def triu_indices_from(a, k):
    return np.triu_indices_from(a, k)


@njit
def tril_indices_from(a):
    return np.tril_indices_from(a)


def check_pair(f, *args):
    expected = f.py_func(*args)
    with no_allocation_leak():
        actual = f(*args)
        assert len(actual) == len(expected)
        assert all(a.dtype == e.dtype and np.array_equal(a, e) for a, e in zip(actual, expected))
        del actual


@pytest.mark.parametrize("f", [tril_indices, triu_indices], ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("k", [-5, -1, 0, 2])
@pytest.mark.parametrize("m", [None, 0, 3, 6])
def test_indices(f, n, k, m):
    check_pair(f, n, k, m)


def test_indices_from_and_defaults():
    check_pair(tril_indices_default, 5)
    for shape in [(3, 5), (5, 3), (0, 2)]:
        for _, a in (
            layouts(sample("float64", shape)) if 0 not in shape else [("C", np.ones(shape))]
        ):
            check_pair(tril_indices_from, a)
            for k in (-2, 0, 1):
                check_pair(triu_indices_from, a, k)


def test_integer_arguments_only():
    with pytest.raises(TypingError, match="k must be an integer"):
        tril_indices(3, 1.0, None)
    with pytest.raises(TypingError, match="input array must be 2-d"):
        tril_indices_from(np.ones(3))


@njit
def diagflat(v, k):
    return np.diagflat(v, k)


@njit
def diagflat_default(v):
    return np.diagflat(v)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
@pytest.mark.parametrize("k", [-3, -1, 0, 2])
def test_diagflat(dtype, k):
    check_like_numpy(diagflat, sample(dtype, (4,)), k)
    for _, a in layouts(sample(dtype, (2, 3))):
        check_like_numpy(diagflat, a, k)
    check_like_numpy(diagflat, sample(dtype, (0,)), k)


def test_diagflat_of_sequences_and_numbers():
    check_like_numpy(diagflat_default, [1, 2, 3])
    check_like_numpy(diagflat_default, ((1.5, 2), (3, 4)))
    check_like_numpy(diagflat_default, 7)
    with pytest.raises(TypingError, match='The argument "v" must be array-like'):
        diagflat_default("abc")


@njit
def fill_diagonal(a, val, wrap):
    np.fill_diagonal(a, val, wrap)
    return a


def check_fill(a, val, wrap):
    expected = a.copy()
    np.fill_diagonal(expected, val, wrap)
    with no_allocation_leak():
        result = fill_diagonal(a, val, wrap)
        assert result is not None
        assert np.array_equal(a, expected), f"\n{a}\n{expected}"
        del result


@pytest.mark.parametrize("dtype", ["bool", "int16", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(3, 3), (7, 3), (3, 7), (0, 0), (3, 3, 3), (2, 2, 2, 2)])
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal(dtype, shape, wrap):
    check_fill(np.zeros(shape, dtype), 1, wrap)
    check_fill(np.zeros(shape, dtype), np.array([1, 0, 1], dtype=dtype), wrap)
    check_fill(np.zeros(shape, dtype), (1, 1), wrap)


def test_fill_diagonal_of_views():
    for _, a in layouts(np.zeros((5, 4))):
        check_fill(a, [7.0, 8.0], True)
    big = np.zeros((6, 8))
    check_fill(big[::2, 1::2], 3.0, False)


def test_fill_diagonal_checks():
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        fill_diagonal(np.zeros((2, 3, 2)), 1.0, False)
    with pytest.raises(ValueError, match="Unable to safely conform val to a.dtype"):
        fill_diagonal(np.zeros((3, 3), np.int8), 300, False)
    with pytest.raises(ValueError, match="Unable to safely conform val to a.dtype"):
        fill_diagonal(np.zeros((3, 3), np.int32), np.array([1.0, np.nan]), False)
    with pytest.raises(TypingError, match=r"The first argument must be at least 2-D \(found 1-D\)"):
        fill_diagonal(np.zeros(3), 1.0, False)
