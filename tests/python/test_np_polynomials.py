"""numpy.polynomial's functions (numpy_library/polynomials.py): polyutils.trimseq and
as_series, polynomial.polyadd, polysub, polymul, polydiv, polyval and polyint compared with
NumPy over dtypes, array-likes, shapes and Numba's checks; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.polynomial import polynomial as poly
from numpy.polynomial import polyutils as pu
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


def check(f, *args, rtol=1e-13):
    expected = f.py_func(*args)
    with no_allocation_leak():
        actual = f(*args)
        check_value(actual, expected, rtol)
        del actual


def check_value(actual, expected, rtol):
    if isinstance(expected, (list, tuple)):
        assert type(actual) is type(expected) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            check_value(a, e, rtol)
        return
    expected = np.asarray(expected)
    actual_array = np.asarray(actual)
    assert actual_array.shape == expected.shape, f"{actual!r} vs {expected!r}"
    assert actual_array.dtype == expected.dtype, f"{actual!r} vs {expected!r}"
    np.testing.assert_allclose(actual_array, expected, rtol=rtol, atol=0)


@njit
def trimseq(seq):
    return pu.trimseq(seq)


@njit
def as_series(a):
    return pu.as_series(a)


@njit
def as_series_untrimmed(a):
    return np.polynomial.polyutils.as_series(a, False)


@njit
def polyadd(c1, c2):
    return poly.polyadd(c1, c2)


@njit
def polysub(c1, c2):
    return poly.polysub(c1, c2)


@njit
def polymul(c1, c2):
    return np.polynomial.polynomial.polymul(c1, c2)


@njit
def polydiv(c1, c2):
    return poly.polydiv(c1, c2)


@njit
def polyval(x, c):
    return poly.polyval(x, c)


@njit
def polyval_pointwise(x, c):
    return poly.polyval(x, c, False)


@njit
def polyval_tensor_at_run_time(x, c, tensor):
    return poly.polyval(x, c, tensor)


@njit
def polyint(c, m):
    return poly.polyint(c, m)


def test_trimseq():
    for n in range(5):
        check(trimseq, np.array([1] + [0] * n))
        check(trimseq, np.array([0.0] * (n + 1)))
    check(trimseq, np.array([1j, 0, 2, 0j]))
    check(trimseq, np.zeros(0))
    check(trimseq, [1, 2, 0])


SERIES = [
    np.arange(4),
    np.arange(6).reshape((2, 3)),
    (1, np.arange(3), np.arange(2, dtype=np.float32)),
    ([1, 2, 3, 4, 0], [1, 2, 3]),
    ((0, 0, 1e-3, 0, 1e-5, 0, 0), (1, 2, 3, 4, 5, 6, 7)),
    ((0, 0, 1e-3, 0), (1j, 2, 3j, 4j)),
    (2, [1.1, 0.0]),
    ((1, 2, 3, 0),),
    [np.array([1, 2, 3, 0]), np.array([1, 2, 3, 0])],
]


@pytest.mark.parametrize("series", SERIES, ids=range(len(SERIES)))
def test_as_series(series):
    check(as_series, series)
    check(as_series_untrimmed, series)


def test_as_series_errors():
    with pytest.raises(TypingError, match="Coefficient array is not 1-d"):
        as_series(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        as_series(([1, 2], np.zeros(0)))
    with pytest.raises(TypingError, match='The argument "alist" must be array-like'):
        as_series("abc")


PAIRS = [
    (np.array([0, 0, 1]), np.array([1])),
    (np.array([1]), np.array([0, 0, 0, 1])),
    ([1, 2, 3], [1, 2, 3]),
    ([1, 2, 3], (1, 2, 3)),
    ([1, 2, 3], 3),
    (3, (1, 2, 3)),
    (np.array([1, 2, 3]), np.array([1.0, 2.0, 3.0])),
    (np.array([1j, 2j, 3j]), np.array([1.0, 2.0, 3.0])),
    ((1, 2, 3), 3j),
    ((1, 1e-3, 3), (1, 2, 3)),
    (np.array([1, 0, 0, 0, 0, 0, -1]), np.array([1, 0, 0, -1])),
    (np.array([2.0]), np.array([2.0])),
]


@pytest.mark.parametrize("f", [polyadd, polysub, polymul, polydiv], ids=lambda f: f.__name__)
@pytest.mark.parametrize("pair", PAIRS, ids=range(len(PAIRS)))
def test_arithmetic(f, pair):
    check(f, *pair)


@pytest.mark.parametrize("f", [polyadd, polysub, polymul, polydiv], ids=lambda f: f.__name__)
def test_arithmetic_errors(f):
    with pytest.raises(TypingError, match='The argument "c1" must be array-like'):
        f("abc", np.arange(3))
    with pytest.raises(TypingError, match="Coefficient array is not 1-d"):
        f(np.arange(3), np.zeros((2, 2)))


def test_division_by_zero():
    with pytest.raises(ZeroDivisionError):
        polydiv([1], [0])


POINTS = [
    1,
    2.5,
    np.linspace(-1, 1, 7),
    np.arange(4).reshape(2, 2),
    [1, 2],
    np.zeros(0),
    1j,
    np.zeros(()),
]


@pytest.mark.parametrize("x", POINTS, ids=range(len(POINTS)))
@pytest.mark.parametrize("c", [[1], [1, 2, 3], (0, -1, 0, 1), np.array([1j, 2.0])], ids=str)
def test_polyval(x, c):
    check(polyval, x, c)
    check(polyval_pointwise, x, c)


def test_polyval_of_coefficient_matrices():
    check(polyval, np.array([1, 2]), np.arange(4).reshape(2, 2))
    check(polyval, [1, 2], np.arange(6.0).reshape(3, 2))
    check(polyval_pointwise, 2.5, np.arange(6.0).reshape(3, 2))
    # the result's dimensions depend on tensor's value: a constant False decides them (the
    # call is typed again with it), a value known only at run time is refused, not guessed
    check(polyval_pointwise, np.array([1, 2]), np.arange(4).reshape(2, 2))
    check(polyval_pointwise, np.array([[1.5, -0.0], [2, 3]]), np.arange(8.0).reshape(2, 2, 2))
    with pytest.raises(TypingError, match="cannot unify the return types"):
        polyval_tensor_at_run_time(np.array([1, 2]), np.arange(4).reshape(2, 2), False)


@pytest.mark.parametrize(
    "c", [[1, 2, 3], [0], (0, 0, 1), np.array([1j, 2]), np.arange(8).reshape(2, 2, 2)], ids=str
)
@pytest.mark.parametrize("m", [0, 1, 3])
def test_polyint(c, m):
    check(polyint, c, m)


def test_polyint_errors():
    with pytest.raises(TypingError, match='The argument "m" must be an integer'):
        polyint([1, 2], 1.5)
