"""np.isin, np.intersect1d, np.union1d, np.setdiff1d and np.setxor1d (numpy_library/
set_operations.py) compared with NumPy over dtypes, shapes, layouts, array-likes, both
algorithms of in1d (few and many test elements) and the flags; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts, layouts_1d
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.errors import TypingError


@njit
def isin(a, b):
    return np.isin(a, b)


@njit
def isin_inverted(a, b):
    return np.isin(a, b, invert=True)


@njit
def isin_unique(a, b):
    return np.isin(a, b, assume_unique=True)


@njit
def intersect1d(a, b):
    return np.intersect1d(a, b)


@njit
def intersect1d_unique(a, b):
    return np.intersect1d(a, b, True)


@njit
def union1d(a, b):
    return np.union1d(a, b)


@njit
def setdiff1d(a, b):
    return np.setdiff1d(a, b)


@njit
def setdiff1d_unique(a, b):
    return np.setdiff1d(a, b, assume_unique=True)


@njit
def setxor1d(a, b):
    return np.setxor1d(a, b)


@njit
def setxor1d_unique(a, b):
    return np.setxor1d(a, b, True)


SET_FUNCTIONS = [intersect1d, union1d, setdiff1d, setxor1d]
ALL = [isin, isin_inverted, isin_unique, *SET_FUNCTIONS, intersect1d_unique]
DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64"]


def data(dtype, n, seed):
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 7, n)).astype(dtype)


@pytest.mark.parametrize("f", ALL, ids=[f.__name__ for f in ALL])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sizes", [(0, 3), (3, 0), (5, 2), (2, 40), (40, 3), (30, 30)])
def test_dtypes_and_sizes(f, dtype, sizes):
    # few test elements take in1d's loop, many its sort; both orders of sizes
    check_like_numpy(f, data(dtype, sizes[0], 1), data(dtype, sizes[1], 2))


@pytest.mark.parametrize("f", ALL, ids=[f.__name__ for f in ALL])
def test_mixed_dtypes(f):
    check_like_numpy(f, data("int32", 12, 3), data("float64", 9, 4) + 0.5)
    check_like_numpy(f, data("uint8", 12, 3), data("int16", 30, 4))


@pytest.mark.parametrize("f", ALL, ids=[f.__name__ for f in ALL])
def test_layouts_and_dimensions(f):
    for _, a in layouts(data("int64", 12, 5).reshape(3, 4)):
        for _, b in layouts_1d(data("int64", 6, 6)):
            check_like_numpy(f, a, b)
    check_like_numpy(f, data("float64", 24, 7).reshape(2, 3, 4), data("float64", 20, 8))
    check_like_numpy(f, np.array(3.0), data("float64", 4, 9))


@pytest.mark.parametrize("f", ALL, ids=[f.__name__ for f in ALL])
def test_array_likes(f):
    check_like_numpy(f, [3, 1, 2, 3], (2, 5))
    check_like_numpy(f, (1.5, 2.5), [2.5, 0.5, 1.5])
    check_like_numpy(f, 2, np.arange(4))


@pytest.mark.parametrize("f", [isin, isin_inverted, *SET_FUNCTIONS], ids=lambda f: f.__name__)
def test_nan(f):
    check_like_numpy(f, np.array([1.0, np.nan, 2.0, np.nan]), np.array([np.nan, 2.0]))


@pytest.mark.parametrize("f", [isin, isin_inverted], ids=lambda f: f.__name__)
def test_isin_by_binary_search_of_one_kind(f):
    # real numbers of one kind look each item up among the sorted distinct test elements:
    # the same answers as NumPy's sort of both, signed zeros, NaN and infinities included
    # (not with assume_unique=True: for inputs that are not unique NumPy's answer is its
    # algorithm's, which that flag keeps)
    specials = np.array([np.nan, -0.0, 0.0, 1.0, np.inf, -np.inf, 2.5] * 30)
    tests = np.array([0.0, np.nan, np.inf, 5.0, -0.0] * 40)
    for dtype in ["float64", "float32"]:
        check_like_numpy(f, specials.astype(dtype), tests.astype(dtype))
        check_like_numpy(f, tests.astype(dtype), specials.astype(dtype))
    check_like_numpy(f, data("int32", 2000, 11) * 3, np.arange(0, 30, 2, dtype=np.int64))
    check_like_numpy(f, data("uint8", 500, 12), data("uint64", 400, 13))
    check_like_numpy(f, data("int64", 3000, 14).reshape(30, 100), data("int16", 2500, 15))
    check_like_numpy(f, np.arange(10**4) % 997, np.arange(0, 3000, 7))


def test_isin_keeps_the_shape_of_its_first_argument():
    a = data("int64", 60, 10).reshape(3, 4, 5)
    check_like_numpy(isin, a, [1, 4])
    check_like_numpy(isin, a, np.arange(100) % 5)
    check_like_numpy(isin_inverted, a, np.arange(100) % 5)


def test_flags_must_be_booleans():
    @njit
    def bad(a, b):
        return np.setdiff1d(a, b, assume_unique=1)

    with pytest.raises(TypingError, match='setdiff1d: Argument "assume_unique" must be boolean'):
        bad(np.arange(3), np.arange(2))


def test_arguments_must_be_array_like():
    with pytest.raises(TypingError, match="The arguments to np.union1d must be array-like"):
        union1d("abc", np.arange(2))
    with pytest.raises(TypingError, match="intersect1d: first two args must be array-like"):
        intersect1d(np.arange(2), "abc")
