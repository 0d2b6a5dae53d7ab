"""np.delete, np.insert, np.extract, np.select, np.trim_zeros and np.resize
(numpy_library/editing.py), np.average and np.unwrap (numpy_library/averaging.py) compared
with NumPy over dtypes, shapes, layouts, array-likes and errors; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts, sample
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.errors import TypingError

DTYPES = ["bool", "int8", "uint32", "int64", "float32", "complex128"]


@njit
def delete(a, obj):
    return np.delete(a, obj)


@njit
def delete_slice(a):
    return np.delete(a, slice(1, None, 2))


@njit
def insert(a, obj, values):
    return np.insert(a, obj, values)


@njit
def extract(condition, a):
    return np.extract(condition, a)


@njit
def select(conditions, choices, default):
    return np.select(conditions, choices, default)


@njit
def select_default(conditions, choices):
    return np.select(conditions, choices)


@njit
def trim_zeros(a, trim):
    return np.trim_zeros(a, trim)


@njit
def trim_zeros_default(a):
    return np.trim_zeros(a)


@njit
def resize(a, shape):
    return np.resize(a, shape)


@njit
def average(a):
    return np.average(a)


@njit
def average_weighted(a, weights):
    return np.average(a, weights=weights)


@njit
def unwrap(p):
    return np.unwrap(p)


@njit
def unwrap_with(p, discont, period):
    return np.unwrap(p, discont, period=period)


@pytest.mark.parametrize("dtype", DTYPES)
def test_delete(dtype):
    for _, a in layouts(sample(dtype, (3, 4))):
        for obj in (0, 5, -1, -12, 11, 12, -13):
            check_like_numpy(delete, a, obj) if -12 <= obj < 12 else None
        check_like_numpy(delete, a, np.array([0, 3, 3, -1]))
        check_like_numpy(delete, a, [1, 2])
        check_like_numpy(delete_slice, a)
    check_like_numpy(delete, [1.5, 2.5, 3.5], 1)
    check_like_numpy(delete_slice, (1, 2, 3, 4, 5))


def test_delete_errors():
    with pytest.raises(IndexError, match="obj must be less than the len"):
        delete(np.arange(3), 3)
    with pytest.raises(TypingError, match="obj should be of Integer dtype"):
        delete(np.arange(3), 1.0)
    with pytest.raises(TypingError, match="arr must be either an Array or a Sequence"):
        delete(3, 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_insert(dtype):
    for _, a in layouts(sample(dtype, (2, 3))):
        for obj in (0, 2, 6, -1, -6):
            check_like_numpy(insert, a, obj, sample(dtype, (2,)))
            check_like_numpy(insert, a, obj, sample(dtype, (1,))[0])
        check_like_numpy(insert, a, np.array([1, 1, 4]), sample(dtype, (3,)))
        check_like_numpy(insert, a, [5, 0, -2], sample(dtype, (1,)))
        check_like_numpy(insert, a, [2], sample(dtype, (4,)))
    check_like_numpy(insert, [1, 2, 3], 1, (7, 8))
    check_like_numpy(insert, np.arange(4.0), 1, 2)  # an int into floats


def test_insert_errors():
    with pytest.raises(IndexError, match="index is out of bounds"):
        insert(np.arange(3), 4, 1)
    with pytest.raises(ValueError, match="shape mismatch"):
        insert(np.arange(3), np.array([0, 1]), np.arange(3))
    with pytest.raises(TypingError, match="obj should be of Integer dtype"):
        insert(np.arange(3), np.array([0.5]), 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_extract(dtype):
    for _, a in layouts(sample(dtype, (3, 4))):
        condition = sample("bool", (3, 4), seed=2)
        check_like_numpy(extract, condition, a)
        check_like_numpy(extract, condition.ravel()[:5], a)
        check_like_numpy(extract, sample("int64", (12,)), a)  # nonzero numbers are true
    check_like_numpy(extract, [True, False, True], (1.0, 2.0, 3.0))


def test_extract_errors():
    with pytest.raises(ValueError, match="Cannot extract from an empty array"):
        extract(np.ones(2, np.bool_), np.zeros(0))
    with pytest.raises(ValueError, match="condition shape inconsistent"):
        extract(np.ones(5, np.bool_), np.zeros(3))


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_select(dtype):
    x = sample(dtype, (4, 5))
    real = x.real if np.iscomplexobj(x) else x
    conditions = [real > 3, real < -3, ~np.isnan(real)]
    choices = [x, x * 2, x * 0]
    check_like_numpy(select, conditions, choices, 9)
    check_like_numpy(select_default, tuple(conditions), tuple(choices))
    check_like_numpy(select, [real.ravel() > 0], [x.ravel()], 1.5)


def test_select_errors():
    a = np.arange(3)
    with pytest.raises(ValueError, match="list of cases must be same length"):
        select([a > 0, a > 1], [a], 0)
    with pytest.raises(TypingError, match="condlist arrays must contain booleans"):
        select([a], [a], 0)
    with pytest.raises(TypingError, match="condlist arrays must be of at least dimension 1"):
        select([np.array(True)], [np.array(1)], 0)


@pytest.mark.parametrize("dtype", ["bool", "int16", "float64", "complex128"])
@pytest.mark.parametrize("trim", ["fb", "f", "b", "F", "B", "x"])
def test_trim_zeros(dtype, trim):
    a = np.array([0, 0, 1, 2, 0, 3, 0, 0]).astype(dtype)
    check_like_numpy(trim_zeros, a, trim)
    check_like_numpy(trim_zeros, a[::-2], trim)
    check_like_numpy(trim_zeros, np.zeros(4, dtype), trim)
    check_like_numpy(trim_zeros, np.zeros(0, dtype), trim)
    check_like_numpy(trim_zeros_default, a)


def test_trim_zeros_errors():
    with pytest.raises(TypingError, match="array must be 1D"):
        trim_zeros_default(np.zeros((2, 2)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_resize(dtype):
    for _, a in layouts(sample(dtype, (2, 3))):
        for shape in [(3, 5), (2, 3), (1,), (0,), (4, 0, 2), (), 7, 0]:
            check_like_numpy(resize, a, shape)
    check_like_numpy(resize, np.zeros(0, dtype), (2, 2))
    check_like_numpy(resize, [1, 2], (3,))
    check_like_numpy(resize, 5.0, (2, 2))
    with pytest.raises(ValueError, match="must be non-negative"):
        resize(np.arange(3), (2, -1))


@pytest.mark.parametrize("dtype", ["bool", "int32", "float32", "float64", "complex128"])
def test_average(dtype):
    for _, a in layouts(sample(dtype, (3, 4))):
        check_like_numpy(average, a, rtol=1e-6)
        check_like_numpy(average_weighted, a, sample("float64", (3, 4), seed=4), rtol=1e-6)
        check_like_numpy(average_weighted, a, np.arange(1, 13).reshape(3, 4), rtol=1e-6)
    check_like_numpy(average, [1, 2, 4])
    check_like_numpy(average_weighted, np.arange(4.0), [1, 2, 3, 4])
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        average_weighted(np.arange(2.0), np.zeros(2))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
def test_unwrap(dtype):
    p = (np.array([0, 3, 6.5, 1, 7, -5, 12, 13, 0.5]) * 1.7).astype(dtype)
    check_like_numpy(unwrap, p, rtol=1e-6)
    check_like_numpy(unwrap, p[::-2], rtol=1e-6)
    check_like_numpy(unwrap, p[:8].reshape(2, 4), rtol=1e-6)
    check_like_numpy(unwrap_with, p, 4.0, 5.0, rtol=1e-5)
    check_like_numpy(unwrap_with, p, None, 8, rtol=1e-5)
    check_like_numpy(unwrap, list(p[:4]), rtol=1e-6)
