"""np.interp against NumPy: scalars and arrays of points, real and complex samples, left= and
right=, NaN and infinite points, repeated sample points, errors; no leaks."""

import gc

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import get_allocation_stats


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def interp_bounds(x, xp, fp, left, right):
    return np.interp(x, xp, fp, left=left, right=right)


SAMPLES = np.array([0.0, 1.0, 2.5, 4.0, 4.0, 7.0])
POINTS = np.array([-np.inf, -1.0, 0.0, 0.5, 1.0, 3.0, 4.0, 5.5, 7.0, 8.0, np.inf, np.nan, -0.0])


def same(actual, expected):
    if np.ndim(expected) == 0:
        assert np.ndim(actual) == 0
        np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))
        return
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize("values_dtype", [np.float64, np.float32, np.int64, np.complex128])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "2-d"])
def test_arrays_of_points(values_dtype, layout):
    values = (np.array([1.0, 3.0, -2.0, 0.5, 6.0, np.inf]) * 2).astype(
        values_dtype if values_dtype is not np.int64 else np.float64
    )
    if values_dtype is np.int64:
        values = np.array([1, 3, -2, 0, 6, 9], np.int64)
    if values_dtype is np.complex128:
        values = values + 1j * values[::-1]
    points = {"contiguous": POINTS, "strided": POINTS[::2], "2-d": POINTS[:12].reshape(3, 4)}
    x = points[layout]
    same(interp(x, SAMPLES, values), np.interp(x, SAMPLES, values))


@pytest.mark.parametrize("point", [-2.0, 0.0, 0.25, 2.5, 6.5, 7.0, 9.0, np.nan, 3])
def test_scalar_points(point):
    values = np.array([1.0, 3.0, -2.0, 0.5, 6.0, 2.0])
    same(interp(point, SAMPLES, values), np.interp(point, SAMPLES, values))


def test_left_and_right():
    values = np.array([1.0, 3.0, -2.0, 0.5, 6.0, 2.0])
    same(
        interp_bounds(POINTS, SAMPLES, values, -9.0, 9.0),
        np.interp(POINTS, SAMPLES, values, left=-9.0, right=9.0),
    )
    complex_values = values + 2j
    same(
        interp_bounds(POINTS, SAMPLES, complex_values, -9.0 + 1j, 9.0),
        np.interp(POINTS, SAMPLES, complex_values, left=-9.0 + 1j, right=9.0),
    )


def test_one_sample_point_and_infinite_values():
    same(interp(POINTS, np.array([2.0]), np.array([5.0])), np.interp(POINTS, [2.0], [5.0]))
    xp = np.array([0.0, 1.0, 2.0])
    fp = np.array([np.inf, np.inf, 1.0])  # inf - inf: the slope from the right sample point
    same(interp(POINTS, xp, fp), np.interp(POINTS, xp, fp))
    same(interp(np.array([]), xp, fp), np.interp(np.array([]), xp, fp))


def test_errors_name_numpys_messages():
    for xp, fp, message in [
        (np.array([]), np.array([]), "array of sample points is empty"),
        (np.array([1.0, 2.0]), np.array([1.0]), "fp and xp are not of the same length."),
    ]:
        with pytest.raises(ValueError, match=message):
            np.interp(1.0, xp, fp)
        with pytest.raises(ValueError, match=message):
            interp(1.0, xp, fp)

    @njit
    def with_period(x, xp, fp):
        return np.interp(x, xp, fp, period=2.0)

    with pytest.raises(TypingError, match="period"):
        with_period(1.0, SAMPLES, SAMPLES)


def test_no_leaks():
    values = np.array([1.0, 3.0, -2.0, 0.5, 6.0, 2.0])
    interp(POINTS, SAMPLES, values)
    gc.collect()
    before = get_allocation_stats()
    for _ in range(5):
        interp(POINTS, SAMPLES, values)
        interp(1.5, SAMPLES, values)
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free
