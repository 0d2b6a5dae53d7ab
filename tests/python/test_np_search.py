"""NumPy's sorting, searching, counting and order-statistics functions in compiled code
(taipan.numpy_library.sorting, search and order_statistics), compared with NumPy itself: values,
dtypes and shapes, over dtypes, layouts, empty arrays, NaN, keywords and errors; every call also
checks that the arrays it allocates are all freed."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from numpy.exceptions import AxisError

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import get_allocation_stats

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
NUMERIC = ["int32", "int64", "float32", "float64"]


def data(dtype, shape, seed=0):
    """Small values with repeats (so ties and duplicates occur), NaN-free."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-5, 6, size=shape)
    if dtype == "bool":
        return (values > 0).astype(bool)
    if dtype.startswith("float"):
        return (values * 0.75).astype(dtype)
    return values.astype(dtype)


def layouts(a, fortran=False):
    """``a`` and a non-contiguous view of the same values (and its Fortran-ordered copy):
    each layout is a separate compilation, so the tests pick few."""
    views = [a]
    if a.ndim == 1:
        views.append(np.repeat(a, 2)[::2])
    elif a.ndim >= 2:
        views.append(a[:, ::-1])
        if fortran:
            views.append(np.asfortranarray(a))
    return views


# NumPy before 2.4 (2.2.6 checked) interpolates float32 quantiles in another order, which can
# round a few ulps of the interpolated values (about 100 here) apart from taipan (written to
# NumPy 2.4's order); compare those within that.
FLOAT32_ULP_RTOL = 0.0 if np.lib.NumpyVersion(np.__version__) >= "2.4.0" else 1e-6


def assert_values_equal(actual, expected):
    if FLOAT32_ULP_RTOL and np.asarray(expected).dtype == np.float32:
        np.testing.assert_allclose(actual, expected, rtol=FLOAT32_ULP_RTOL, atol=4e-5)
    else:
        np.testing.assert_array_equal(actual, expected)


def same_result(actual, expected):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for got, wanted in zip(actual, expected):
            same_result(got, wanted)
        return
    if isinstance(expected, np.ndarray):
        assert isinstance(actual, np.ndarray), f"expected an array, got {actual!r}"
        assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
        assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != {expected.dtype}"
        assert_values_equal(actual, expected)
        return
    # NumPy scalars come back as Python numbers: the value and its kind must agree.
    expected_kind = np.asarray(expected).dtype.kind
    assert {"i": int, "u": int, "f": float, "b": bool}[expected_kind] is type(actual), (
        f"{actual!r} is not of NumPy's kind {expected_kind}"
    )
    assert_values_equal(actual, expected)


def check(f, *args, **kwargs):
    """f(*args) equals NumPy's answer (f.py_func), and frees every array it allocated except
    those it returns, which are freed once dropped."""
    expected = f.py_func(*args, **kwargs)
    f(*args, **kwargs)  # compile outside the counted region
    gc.collect()
    before = get_allocation_stats()
    actual = f(*args, **kwargs)
    same_result(actual, expected)
    del actual
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free, "arrays leaked"


def check_raises(f, error, *args, message=None):
    with pytest.raises(error) as numpy_error:
        f.py_func(*args)
    with pytest.raises(error) as taipan_error:
        f(*args)
    assert type(taipan_error.value) is type(numpy_error.value)
    if message is not None:
        assert str(taipan_error.value) == message
    return taipan_error.value


def check_typing_error(f, *args, line_text, message="numpy."):
    with pytest.raises(TypingError) as error:
        f(*args)
    text = str(error.value)
    assert message in text, text
    assert line_text in text, text


# ---------------------------------------------------------------------------------------------
# sort and argsort


@njit
def sort_default(a):
    return np.sort(a)


@njit
def sort_axis(a, axis):
    return np.sort(a, axis=axis, kind="mergesort")


@njit
def sort_flat(a):
    return np.sort(a, axis=None)


@njit
def argsort_axis(a, axis):
    return np.argsort(a, axis, kind="stable")


@njit
def argsort_default(a):
    return np.argsort(a)


@njit
def argsort_flat(a):
    return np.argsort(a, axis=None, kind="stable")


@pytest.mark.parametrize(
    ("dtype", "shape"),
    [(d, (3, 4)) for d in DTYPES]
    + [("float64", (7,)), ("int64", (2, 3, 4)), ("float64", (0,)), ("int32", (3, 0))],
)
def test_sort_and_argsort_along_every_axis(dtype, shape):
    for a in layouts(data(dtype, shape)):
        check(sort_default, a)
        check(sort_flat, a)
        check(argsort_flat, a)
        for axis in range(-a.ndim, a.ndim):
            check(sort_axis, a, axis)
            check(argsort_axis, a, axis)


def test_sort_puts_nan_last_and_default_argsort_orders_distinct_values():
    a = np.array([[3.0, np.nan, -np.inf, 1.0], [np.nan, 2.0, np.inf, -0.5]])
    for axis in (0, 1):
        check(sort_axis, a, axis)
        check(argsort_axis, a, axis)
    distinct = np.random.default_rng(3).permutation(40).reshape(5, 8).astype(np.float64)
    check(argsort_default, distinct)
    check(argsort_default, distinct.T)
    check(argsort_default, np.array(2.5))  # a 0-d array sorts as one element


def test_sort_errors():
    with pytest.raises(AxisError):
        sort_axis(np.zeros((2, 3)), 2)
    with pytest.raises(AxisError):
        argsort_axis(np.zeros(3), -2)
    # Complex arrays were refused here; they now sort in NumPy's order (a9c090c,
    # test_sort_dtypes.py covers them in full).
    values = np.array([2 + 1j, np.nan, 1 - 1j, 2 + 0j], np.complex128)
    np.testing.assert_array_equal(sort_default(values), np.sort(values))


# ---------------------------------------------------------------------------------------------
# unique


@njit
def unique_values(a):
    return np.unique(a)


@njit
def unique_all(a):
    return np.unique(a, return_index=True, return_inverse=True, return_counts=True)


@njit
def unique_counts(a, equal_nan):
    return np.unique(a, return_counts=True, equal_nan=equal_nan)


@njit
def unique_index_flag(a, flag):
    return np.unique(a, return_index=flag)


@pytest.mark.parametrize(
    ("dtype", "shape"),
    [(d, (3, 4)) for d in DTYPES] + [("int64", (9,)), ("float64", (2, 2, 3)), ("float32", (0,))],
)
def test_unique(dtype, shape):
    for a in layouts(data(dtype, shape)):
        check(unique_values, a)
        check(unique_all, a)
        check(unique_counts, a, True)


def test_unique_nan_and_flags():
    a = np.array([2.0, np.nan, 1.0, np.nan, 2.0, -np.inf])
    check(unique_values, a)
    check(unique_all, a)
    check(unique_counts, a, False)  # each NaN is its own value
    check(unique_index_flag, a, True)
    # A flag passed as False would change the number of outputs: taipan refuses it clearly.
    with pytest.raises(ValueError, match="return_index"):
        unique_index_flag(a, False)


# ---------------------------------------------------------------------------------------------
# searchsorted and digitize


@njit
def searchsorted_both(a, v):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right")


@njit
def searchsorted_sorter(a, v, sorter):
    return np.searchsorted(a, v, "right", sorter=sorter)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_searchsorted(dtype):
    a = np.sort(data(dtype, (12,)))
    keys = data(dtype, (3, 4), seed=1)
    for base in layouts(a):
        check(searchsorted_both, base, keys)
        check(searchsorted_both, base, keys.T)
        check(searchsorted_both, base, keys[0, :0])
        for scalar in (-10, 0, 1, 10):
            check(searchsorted_both, base, scalar)
        check(searchsorted_both, base, 0.75)
    unsorted = data(dtype, (10,), seed=4)
    check(searchsorted_sorter, unsorted, keys, np.argsort(unsorted, kind="stable"))
    check(searchsorted_sorter, unsorted, 1, np.argsort(unsorted, kind="stable"))


def test_searchsorted_nan_inf_and_errors():
    a = np.array([-np.inf, 1.0, 2.0, 2.0, np.inf, np.nan, np.nan])
    check(searchsorted_both, a, np.array([np.nan, np.inf, 2.0, -np.inf, 0.0]))
    check(searchsorted_both, a, np.nan)
    check(searchsorted_both, np.zeros(0), 1.0)
    check(searchsorted_both, np.float32([0.1, 0.2]), 0.1)  # compared as float32, like NumPy
    check_raises(searchsorted_sorter, ValueError, a, 1.0, np.arange(3))
    check_raises(searchsorted_sorter, ValueError, a, 1.0, np.arange(7) + 7)
    check_typing_error(searchsorted_both, np.zeros((2, 2)), 1.0, line_text="np.searchsorted(a, v)")


@njit
def digitize(x, bins, right):
    return np.digitize(x, bins, right=right)


@njit
def digitize_default(x, bins):
    return np.digitize(x, bins)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_digitize(dtype):
    x = data(dtype, (3, 5))
    for bins in (np.array([-2, 0, 0, 3]), np.array([4.5, 1.0, -1.0]), np.array([1, 1, 1])):
        for right in (False, True):
            for view in layouts(x):
                check(digitize, view, bins, right)
            check(digitize, x[0, 0], bins, right)
    check(digitize_default, x, np.zeros(0))
    check(digitize_default, np.array([np.nan, np.inf, -1.0]), np.array([0.0, 1.0]))


def test_digitize_errors():
    check_raises(
        digitize_default,
        ValueError,
        np.zeros(3),
        np.array([0.0, 2.0, 1.0]),
        message="bins must be monotonically increasing or decreasing",
    )
    check_typing_error(
        digitize_default, np.zeros(2, np.complex128), np.zeros(2), line_text="np.digitize(x, bins)"
    )


# ---------------------------------------------------------------------------------------------
# bincount and histogram


@njit
def bincount(x):
    return np.bincount(x)


@njit
def bincount_options(x, weights, minlength):
    return np.bincount(x, weights=weights, minlength=minlength)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64"])
def test_bincount(dtype):
    x = np.abs(data("int64", (11,))).astype(dtype)
    weights = data("float64", (11,), seed=2)
    for view in layouts(x):
        check(bincount, view)
    check(bincount, x[:0])
    check(bincount_options, x, weights, 3)
    check(bincount_options, x, weights.astype(np.int32), 20)
    check(bincount_options, x[::2], weights[::2], 0)


def test_bincount_errors():
    check_raises(
        bincount,
        ValueError,
        np.array([1, -1]),
        message="'list' argument must have no negative elements",
    )
    with pytest.raises(ValueError, match="'minlength' must not be negative"):
        bincount_options(np.array([1]), np.ones(1), -1)
    with pytest.raises(ValueError, match="the same length"):
        bincount_options(np.array([1]), np.ones(2), 0)
    check_typing_error(bincount, np.zeros(2), line_text="np.bincount(x)")


@njit
def histogram(a, bins):
    return np.histogram(a, bins)


@njit
def histogram_default(a):
    return np.histogram(a)


@njit
def histogram_range(a, bins, low, high):
    return np.histogram(a, bins=bins, range=(low, high))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_histogram(dtype):
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((20, 30)) * 10).astype(dtype)
    for view in layouts(a):
        check(histogram_default, view)
        check(histogram, view, 7)
    check(histogram_range, a, 13, -3, 7.5)
    check(histogram_range, a, 4, 0.1, 0.1)  # an empty range widens by 0.5 each side
    check(histogram, a, np.array([-20.0, -1.0, 0.0, 0.0, 4.5, 20.0]))
    check(histogram, a, np.array([-5, 0, 5]))
    check(histogram, a, np.array([1.0]))
    check(histogram_default, a[:0])
    check(histogram_default, np.full(5, 3, dtype))


def test_histogram_edges_and_nan():
    # Values on the edges: each bin is half open, the last one closed.
    a = np.array([0.0, 0.1, 0.2, 0.3, 0.7, 1.0, 1.0, np.nan, 2.0, -1.0])
    check(histogram_range, a, 10, 0.0, 1.0)
    check(histogram, a, np.array([0.0, 0.3, 1.0]))
    check(histogram_range, np.float32([0.1, 0.2, 0.3]), 3, 0.1, 0.3)
    with pytest.raises(ValueError, match="autodetected range"):
        histogram_default(a)
    with pytest.raises(ValueError, match="max must be larger than min"):
        histogram_range(a, 3, 1.0, 0.0)
    with pytest.raises(ValueError, match="must be positive"):
        histogram(a, 0)
    with pytest.raises(ValueError, match="increase monotonically"):
        histogram(a, np.array([1.0, 0.0]))
    check_typing_error(histogram_default, np.zeros(2, bool), line_text="np.histogram(a)")


# ---------------------------------------------------------------------------------------------
# nonzero, flatnonzero, argwhere, count_nonzero


@njit
def nonzero_family(a):
    return np.nonzero(a), np.flatnonzero(a), np.argwhere(a), np.count_nonzero(a)


@njit
def argwhere(a):
    return np.argwhere(a), np.flatnonzero(a), np.count_nonzero(a)


@njit
def nonzero(a):
    return np.nonzero(a)


@njit
def count_nonzero_axis(a, axis):
    return np.count_nonzero(a, axis=axis)


@pytest.mark.parametrize(
    ("dtype", "shape"),
    [(d, (3, 4)) for d in DTYPES + ["complex128"]]
    + [("float64", (9,)), ("int64", (2, 3, 4)), ("bool", (2, 1, 2, 3)), ("int32", (0,))]
    + [("float64", (2, 0))],
)
def test_nonzero_family(dtype, shape):
    a = data(dtype, shape) if dtype != "complex128" else data("float64", shape) * 1j
    for view in layouts(a):
        check(nonzero_family, view)
        for axis in range(-view.ndim, view.ndim):
            check(count_nonzero_axis, view, axis)


def test_nonzero_nan_and_0d():
    a = np.array([[0.0, np.nan], [-0.0, np.inf]])
    check(nonzero_family, a)
    check(argwhere, np.array(3.0))
    check(argwhere, np.array(0))
    check_raises(nonzero, ValueError, np.array(1.0))
    with pytest.raises(AxisError):
        count_nonzero_axis(a, 2)


# ---------------------------------------------------------------------------------------------
# median, percentile, quantile


@njit
def median(a):
    return np.median(a)


@njit
def median_axis(a, axis):
    return np.median(a, axis=axis)


@njit
def percentile(a, q):
    return np.percentile(a, q)


@njit
def quantile_axis(a, q, axis):
    return np.quantile(a, q, axis=axis, method="linear")


@pytest.mark.parametrize(
    ("dtype", "shape"),
    [(d, (4, 5)) for d in NUMERIC] + [("float64", (7,)), ("int64", (8,)), ("float32", (2, 3, 2))],
)
def test_order_statistics(dtype, shape):
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(shape) * 100).astype(dtype)
    qs = np.array([0.0, 12.5, 50.0, 99.9, 100.0])
    for view in layouts(a, fortran=dtype == "float64"):
        check(median, view)
        check(percentile, view, 33.3)
        check(percentile, view, qs)
        for axis in range(-a.ndim, a.ndim):
            check(median_axis, view, axis)
            check(quantile_axis, view, 0.71, axis)
            check(quantile_axis, view, qs / 100, axis)


def test_order_statistics_nan_inf_and_small():
    a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -np.inf], [np.inf, 2.0, 0.5]])
    check(median, a)
    check(median_axis, a, 1)
    check(median_axis, a, 0)
    check(percentile, a[2], 50)
    check(percentile, np.array([1.0, np.inf]), 100.0)
    check(quantile_axis, a, np.array([0.0, 0.5, 1.0]), 1)
    check(median, np.array([True, False, True, True]))
    check(median, np.array([7], np.int32))
    check(median_axis, np.zeros((0, 3)), 0)


def test_order_statistics_errors():
    check_raises(
        percentile,
        ValueError,
        np.ones(3),
        100.5,
        message="Percentiles must be in the range [0, 100]",
    )
    check_raises(
        quantile_axis,
        ValueError,
        np.ones(3),
        np.array([0.5, -0.1]),
        0,
        message="Quantiles must be in the range [0, 1]",
    )
    check_raises(percentile, IndexError, np.zeros(0), 50.0)
    with pytest.raises(AxisError):
        median_axis(np.ones((2, 2)), 2)
    check_typing_error(percentile, np.ones(3, bool), 50.0, line_text="np.percentile(a, q)")
