"""np.cov and np.corrcoef of a single variable, as NumPy gives them: np.cov of a 1-D input (or
of a tuple holding one sequence, whose one row is known when compiling) is a 0-d array, and
np.corrcoef of one is a scalar (NumPy divides the 0-d covariance by itself: NaN for a zero, NaN
or empty variance, never ZeroDivisionError). Counters checked."""

import warnings

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def cov(m):
    return np.cov(m)


@taipan.njit
def corrcoef(x):
    return np.corrcoef(x)


@taipan.njit
def cov_options(m, bias, ddof):
    return np.cov(m, None, False, bias, ddof)


SINGLE = [
    np.array([0.3942, 0.5969, 0.7730, 0.9918, 0.7964]),
    np.array([np.nan, 0.5969, -np.inf, 0.9918, 0.7964]),
    np.array([-0.0, -0.0, -0.0]),
    np.array([1, 2, 3], dtype=np.int32),
    np.array([1 + 2j, 3 - 1j, 0j]),
    np.arange(10.0)[::3],
    np.array([]),
    (-2.1, -1, 4.3),
    [4, 5, 6],
    ((1.1, 2.2, 1.5),),
    ((1, 2, 3j),),
    3.142,
    (),
]


def check(f, m):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = f.py_func(m)
        got = f(m)
    assert isinstance(got, np.ndarray) == isinstance(expected, np.ndarray), (m, got, expected)
    assert np.shape(got) == np.shape(expected)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(got, expected, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("m", SINGLE, ids=repr)
def test_single_variable_shapes_and_values(m):
    before = live_blocks()
    check(cov, m)
    check(corrcoef, m)
    assert live_blocks() == before


@taipan.njit
def cov_rows(m, bias, ddof):
    # rowvar omitted: its default True is known when compiling (a value passed is not, and a
    # 2-D m then keeps two dimensions, as in Numba)
    return np.cov(m, bias=bias, ddof=ddof)


def test_one_row_tuple_with_rowvar_false_is_refused_not_answered_in_the_wrong_shape():
    # NumPy transposes a 2-D m when rowvar is False even with one row (not y's rule): a 2-D
    # result, where rowvar True gives 0-d; typing cannot see the bool's value, so the 0-d form
    # is compiled and rowvar False raises
    m = ((1.0, 4.0, 2.5, -0.0),)
    before = live_blocks()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for bias in (False, True):
            for ddof in (None, 0, 2):
                expected = np.cov(m, None, True, bias, ddof)
                got = cov_rows(m, bias, ddof)
                assert got.shape == expected.shape == ()
                np.testing.assert_allclose(got, expected, rtol=1e-14)
                with pytest.raises(ValueError, match="compiled for rowvar=True"):
                    cov_options(m, bias, ddof)
                assert np.cov(m, None, False, bias, ddof).shape == (4, 4)
        del got
    assert live_blocks() == before


@taipan.njit
def cov_passing_rowvar(m, rowvar=True):
    return np.cov(m, None, rowvar)


def test_one_row_tuple_with_rowvar_passed_through():
    m = ((1.1, 2.2, 1.5),)
    assert cov_passing_rowvar(m).shape == np.cov(m).shape == ()
    np.testing.assert_allclose(cov_passing_rowvar(m), np.cov(m), rtol=1e-14)
    with pytest.raises(ValueError, match="compiled for rowvar=True"):
        cov_passing_rowvar(m, False)


@taipan.njit
def cov_y(m, y, rowvar):
    return np.cov(m, y, rowvar)


def test_y_of_one_row_stays_one_variable():
    m = np.array([[1.0, 2.0, 4.0]])
    y = np.array([[3.0, -1.0, 0.5]])
    before = live_blocks()
    for rowvar in (True, False):
        expected = np.cov(m.T if not rowvar else m, y, rowvar)
        got = cov_y(np.ascontiguousarray(m.T) if not rowvar else m, y, rowvar)
        np.testing.assert_allclose(got, expected, rtol=1e-14)
    del got
    assert live_blocks() == before


def test_several_variables_stay_two_dimensional():
    m = np.array([[0, 2], [1, 1], [2, 0]]).T
    before = live_blocks()
    check(cov, m)
    check(corrcoef, m)
    check(cov, ((0.1, 0.2), (0.11, 0.19), (0.09, 0.21)))
    assert live_blocks() == before
