"""Comparing dtypes in compiled code: `a.dtype == b.dtype`, `a.dtype == DT` (a np.dtype global)
and `a.dtype == np.float64`, decided by the types as NumPy decides them (a dtype equals the
scalar class it names)."""

import numpy as np
import pytest

import taipan

DT = np.dtype(np.float64)
INT32 = np.dtype("int32")


@taipan.njit
def same_dtype(a, b):
    return a.dtype == b.dtype, a.dtype != b.dtype


@taipan.njit
def against_globals(a):
    return a.dtype == DT, a.dtype != INT32, a.dtype == np.float64, np.float32 == a.dtype


@taipan.njit
def branch_on_dtype(a):
    if a.dtype == np.float64:
        return a.sum() * 2.0
    return a.sum() * 1.0


DTYPES = [np.float64, np.float32, np.int32, np.int64, np.uint8, np.complex128, np.bool_]


@pytest.mark.parametrize("left", DTYPES)
@pytest.mark.parametrize("right", DTYPES)
def test_two_arrays(left, right):
    a, b = np.zeros(2, left), np.zeros(3, right)
    assert same_dtype(a, b) == same_dtype.py_func(a, b)


@pytest.mark.parametrize("dtype", DTYPES)
def test_globals_and_classes(dtype):
    a = np.ones(4, dtype)
    assert against_globals(a) == tuple(bool(x) for x in against_globals.py_func(a))
    assert branch_on_dtype(a) == branch_on_dtype.py_func(a)
