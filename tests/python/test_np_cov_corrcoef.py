"""np.cov and np.corrcoef in compiled code, compared with NumPy: real, integer and complex
inputs, rowvar, bias, ddof, a second variable set y, non-contiguous arrays, NaN, constant rows
(a zero standard deviation), empty observations, and Numba's result types (0-d for a 1-D
input without y, else 2-D)."""

import warnings

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

RNG = np.random.default_rng(30)


@taipan.njit
def covariance(m):
    return np.cov(m)


@taipan.njit
def covariance_full(m, y, rowvar, bias, ddof):
    return np.cov(m, y, rowvar, bias, ddof)


@taipan.njit
def correlation(x):
    return np.corrcoef(x)


@taipan.njit
def correlation_full(x, y, rowvar):
    return np.corrcoef(x, y, rowvar)


def check_close(got, want):
    if isinstance(want, np.generic):  # NumPy's scalar (corrcoef of one variable) is a number
        assert not isinstance(got, np.ndarray), (got, want)
        got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14, equal_nan=True)


def reference(function, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args)


INPUTS = [
    RNG.random((3, 5)),
    RNG.random(6),
    RNG.random((4, 3)).T,
    np.arange(12, dtype=np.int32).reshape(3, 4),
    RNG.random((2, 4)) + 1j * RNG.random((2, 4)),
    RNG.random((3, 8))[:, ::2].astype(np.float32),
    np.ones((2, 3)),
    np.array([[1.0, np.nan, 2.0], [1.0, 2.0, 3.0]]),
    np.array([[-0.0, np.inf, 1.0], [1.0, 2.0, 4.0]]),
    np.zeros((2, 0)),
    np.zeros((0, 3)),
    np.array([True, False, True, True]),
]


@pytest.mark.parametrize("index", range(len(INPUTS)))
def test_like_numpy(index):
    m = INPUTS[index]
    before = live_blocks()
    check_close(covariance(m), reference(np.cov, m))
    check_close(correlation(m), reference(np.corrcoef, m))
    assert live_blocks() == before


@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("ddof", [None, 0, 2, 9])
def test_arguments_like_numpy(rowvar, bias, ddof):
    m = RNG.random((2, 5))
    y = RNG.random((3, 5))
    if not rowvar:
        m, y = m.T, y.T
    before = live_blocks()
    check_close(
        covariance_full(m, y, rowvar, bias, ddof), reference(np.cov, m, y, rowvar, bias, ddof)
    )
    check_close(correlation_full(m, y, rowvar), reference(np.corrcoef, m, y, rowvar))
    assert live_blocks() == before


def test_one_dimensional_pairs_and_complex_y():
    x, y = RNG.random(7), RNG.random(7) - 1j * RNG.random(7)
    check_close(covariance_full(x, y, True, False, None), np.cov(x, y))
    check_close(correlation_full(x, y, True), np.corrcoef(x, y))


def test_one_row_two_dimensional_input_stays_two_dimensional():
    """Numba's type: NumPy squeezes this to 0-d at run time; the values agree."""
    m = RNG.random((1, 4))
    got = covariance(m)
    assert got.shape == (1, 1)
    np.testing.assert_allclose(got[0, 0], np.cov(m))


def test_mismatched_observations_raise_value_error():
    with pytest.raises(ValueError):
        covariance_full(RNG.random((2, 5)), RNG.random((2, 4)), True, False, None)


def test_refused_arguments():
    @taipan.njit
    def bad_ddof(m):
        return np.cov(m, ddof="x")

    with pytest.raises(TypingError, match="ddof"):
        bad_ddof(np.ones(3))
