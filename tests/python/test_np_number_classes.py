"""np.iscomplex, np.isreal, np.iscomplexobj, np.isrealobj, np.isneginf, np.isposinf, np.angle,
np.sinc and np.nan_to_num (numpy_library/number_classes.py) compared with NumPy over dtypes,
numbers, shapes, layouts and keywords; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError

SPECIAL = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e308])
COMPLEX = np.array([1 + 2j, 3 + 0j, complex(np.nan, 1), complex(np.inf, -np.inf), -0.0j, 2j])


@njit
def iscomplex(x):
    return np.iscomplex(x)


@njit
def isreal(x):
    return np.isreal(x)


@njit
def iscomplexobj(x):
    return np.iscomplexobj(x)


@njit
def isrealobj(x):
    return np.isrealobj(x)


@njit
def isneginf(x):
    return np.isneginf(x)


@njit
def isposinf(x):
    return np.isposinf(x)


@njit
def angle(z):
    return np.angle(z)


@njit
def angle_degrees(z):
    return np.angle(z, deg=True)


@njit
def sinc(x):
    return np.sinc(x)


@njit
def nan_to_num(x):
    return np.nan_to_num(x)


@njit
def nan_to_num_given(x):
    return np.nan_to_num(x, nan=-1.0, posinf=7.0, neginf=-7)


@njit
def nan_to_num_in_place(x):
    np.nan_to_num(x, copy=False, posinf=5.0)
    return x


def values(dtype):
    if np.dtype(dtype).kind == "c":
        return COMPLEX.astype(dtype)
    if np.dtype(dtype).kind == "f":
        return SPECIAL.astype(dtype)
    return np.arange(-3, 5).astype(dtype)


DTYPES = ["bool", "int8", "uint32", "int64", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize(
    "f", [iscomplex, isreal, iscomplexobj, isrealobj], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("dtype", DTYPES)
def test_kind_tests(f, dtype):
    check_like_numpy(f, values(dtype))
    check_like_numpy(f, values(dtype).reshape(2, -1))
    check_like_numpy(f, values(dtype)[:0])
    check_like_numpy(f, values(dtype)[1])


@pytest.mark.parametrize(
    "f", [iscomplex, isreal, iscomplexobj, isrealobj], ids=lambda f: f.__name__
)
def test_kind_tests_of_sequences(f):
    check_like_numpy(f, [1.0, 2.0])
    check_like_numpy(f, (1, 2j))
    check_like_numpy(f, 3)


@pytest.mark.parametrize("f", [isneginf, isposinf], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "float64"])
def test_infinity_tests(f, dtype):
    check_like_numpy(f, values(dtype))
    for _, a in layouts(values(dtype).reshape(2, 4)):
        check_like_numpy(f, a)
    check_like_numpy(f, np.float64(-np.inf))
    check_like_numpy(f, [np.inf, -np.inf])


def test_infinity_tests_refuse_complex():
    with pytest.raises(TypingError, match="not defined for complex"):
        isneginf(COMPLEX)


@pytest.mark.parametrize("f", [angle, angle_degrees], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "complex128"])
def test_angle(f, dtype):
    check_like_numpy(f, values(dtype), rtol=1e-6 if "64" not in dtype else 1e-15)
    check_like_numpy(f, values(dtype).reshape(2, -1)[:, ::2], rtol=1e-6)
    check_like_numpy(f, 1 - 1j, rtol=1e-15)
    check_like_numpy(f, -2.0)


def test_angle_refuses_strings():
    with pytest.raises(TypingError, match='Argument "z" must be a complex or Array'):
        angle("abc")


@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "float64"])
def test_sinc(dtype):
    check_like_numpy(sinc, values(dtype), rtol=1e-6)
    check_like_numpy(sinc, values(dtype).reshape(2, 4).T, rtol=1e-6)
    check_like_numpy(sinc, 0.0)
    check_like_numpy(sinc, 0.25, rtol=1e-15)


@pytest.mark.parametrize("f", [nan_to_num, nan_to_num_given], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_to_num(f, dtype):
    check_like_numpy(f, values(dtype))
    for _, a in layouts(values(dtype).reshape(2, -1)):
        check_like_numpy(f, a)
    check_like_numpy(f, values(dtype)[:0])
    check_like_numpy(f, values(dtype)[-2])


def test_nan_to_num_of_numbers_and_sequences():
    for x in (np.nan, np.inf, -np.inf, 2.5, 3, complex(np.nan, np.inf), [1.0, np.nan], (np.inf, 1)):
        check_like_numpy(nan_to_num, x)
        check_like_numpy(nan_to_num_given, x)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_nan_to_num_in_place(dtype):
    for _, a in layouts(values(dtype).reshape(2, -1)):
        expected = nan_to_num_in_place.py_func(a.copy())
        given = a.copy()
        with no_allocation_leak():
            result = nan_to_num_in_place(given)
            assert np.array_equal(result, expected)
            assert np.array_equal(given, expected)
            del result
