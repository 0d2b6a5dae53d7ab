"""NaN-ignoring reductions (nansum, nanprod, nanmean, nanvar, nanstd, nanmin, nanmax, nanargmin,
nanargmax, nancumsum, nancumprod) and cumsum/cumprod with axis=, compared with NumPy over
dtypes, shapes, layouts, NaN and infinities, axes and errors; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.errors import TypingError

DTYPES = ["bool", "int32", "float32", "complex128"]  # int64 and float64 in the other tests


def check(f, *args, **kwargs):
    """f compiled equals f in NumPy (float32 and complex within a tight tolerance), without
    allocation leaks."""
    rtol = 1e-5 if any(getattr(a, "dtype", None) == np.float32 for a in args) else 1e-12
    check_like_numpy(f, *args, rtol=rtol, **kwargs)


def sample(dtype, shape, nan=True, seed=0):
    rng = np.random.default_rng(seed)
    data = rng.standard_normal(shape) * 10
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind in "fc" and nan and data.size > 2:
        data.ravel()[:: max(2, data.size // 3)] = np.nan
    if np.dtype(dtype).kind == "b":
        return data > 0
    if np.dtype(dtype).kind == "i":
        return (data % 7).astype(dtype)
    return data.astype(dtype)


def variants(a):
    """The array and non-contiguous views of the same kind of data."""
    out = [a]
    if a.ndim >= 1:
        out.append(a[::2])
    if a.ndim >= 2:
        out += [a.T, a[:, ::-1]]
    return out


@njit
def nansum(a):
    return np.nansum(a)


@njit
def nanprod(a):
    return np.nanprod(a)


@njit
def nanmean(a):
    return np.nanmean(a)


@njit
def nanvar(a):
    return np.nanvar(a)


@njit
def nanstd(a):
    return np.nanstd(a)


@njit
def nanmin(a):
    return np.nanmin(a)


@njit
def nanmax(a):
    return np.nanmax(a)


@njit
def nanargmin(a):
    return np.nanargmin(a)


@njit
def nanargmax(a):
    return np.nanargmax(a)


@njit
def nancumsum(a):
    return np.nancumsum(a)


@njit
def nancumprod(a):
    return np.nancumprod(a)


@njit
def nansum_axis(a, axis):
    return np.nansum(a, axis=axis)


@njit
def nanprod_axis(a, axis):
    return np.nanprod(a, axis)


@njit
def nanmean_axis(a, axis):
    return np.nanmean(a, axis=axis)


@njit
def nanvar_axis(a, axis, ddof):
    return np.nanvar(a, axis, ddof=ddof)


@njit
def nanstd_axis(a, axis, ddof):
    return np.nanstd(a, axis=axis, ddof=ddof)


@njit
def nanstd_ddof(a, ddof):
    return np.nanstd(a, ddof=ddof)


@njit
def nanmin_axis(a, axis):
    return np.nanmin(a, axis=axis)


@njit
def nanmax_axis(a, axis):
    return np.nanmax(a, axis)


@njit
def nanargmin_axis(a, axis):
    return np.nanargmin(a, axis=axis)


@njit
def nanargmax_axis(a, axis):
    return np.nanargmax(a, axis)


@njit
def cumsum_axis(a, axis):
    return np.cumsum(a, axis=axis)


@njit
def cumprod_axis(a, axis):
    return np.cumprod(a, axis)


@njit
def cumsum_flat(a):
    return np.cumsum(a)


@njit
def cumprod_flat(a):
    return np.cumprod(a)


@njit
def nancumsum_axis(a, axis):
    return np.nancumsum(a, axis=axis)


@njit
def nancumprod_axis(a, axis):
    return np.nancumprod(a, axis)


WHOLE = [nansum, nanprod, nanmean, nanvar, nanstd, nancumsum, nancumprod, cumsum_flat]
ALONG = [nansum_axis, nanprod_axis, nanmean_axis, nancumsum_axis, nancumprod_axis, cumsum_axis]
EXTREMES = [nanmin, nanmax]
ARG_EXTREMES = [nanargmin, nanargmax]


def names(functions):
    return [f.__name__ for f in functions]


@pytest.mark.parametrize("f", WHOLE, ids=names(WHOLE))
@pytest.mark.parametrize("dtype", DTYPES)
def test_whole_array_each_dtype_and_layout(f, dtype):
    for a in variants(sample(dtype, (4, 6)))[1:3]:
        check(f, a)


@pytest.mark.parametrize(
    "f", WHOLE + EXTREMES + ARG_EXTREMES, ids=names(WHOLE + EXTREMES + ARG_EXTREMES)
)
@pytest.mark.parametrize("shape", [(7,), (2, 3, 4)])
def test_whole_array_shapes(f, shape):
    check(f, sample("float64", shape))


@pytest.mark.parametrize("f", EXTREMES + ARG_EXTREMES, ids=names(EXTREMES + ARG_EXTREMES))
@pytest.mark.parametrize("dtype", ["bool", "int64", "float32", "float64"])
def test_extremes_each_dtype_and_layout(f, dtype):
    for a in variants(sample(dtype, (4, 6))):
        check(f, a)


@pytest.mark.parametrize("f", EXTREMES, ids=names(EXTREMES))
def test_complex_extremes_skip_nan_in_lexicographic_order(f):
    check(f, np.array([complex(np.nan, 1), 1 + 2j, 1 + 1j, 3 - 1j, complex(3, np.nan)]))
    check(f, np.array([complex(np.nan, 0), complex(0, np.nan)]))  # all NaN: the first


NAN_INF_CASES = [
    [1.0, np.nan, -2.0],
    [np.nan, np.nan],
    [np.inf, np.nan, -np.inf],
    [np.nan, np.inf],
    [np.nan, -np.inf],
    [-0.0, 0.0, np.nan],
]


@pytest.mark.parametrize(
    "f", WHOLE + EXTREMES + [nanstd_ddof], ids=names(WHOLE + EXTREMES + [nanstd_ddof])
)
@pytest.mark.parametrize("case", range(len(NAN_INF_CASES)))
def test_nan_and_inf(f, case):
    for dtype in (np.float64, np.float32):
        a = np.array(NAN_INF_CASES[case], dtype)
        if f is nanstd_ddof:
            check(f, a, 1)
        else:
            check(f, a)


@pytest.mark.parametrize("f", ARG_EXTREMES, ids=names(ARG_EXTREMES))
def test_arg_extremes_nan_and_inf(f):
    for case in NAN_INF_CASES:
        a = np.array(case)
        if np.isnan(a).all():
            with pytest.raises(ValueError, match="^All-NaN slice encountered$"):
                f(a)
        else:
            check(f, a)


@pytest.mark.parametrize("f", WHOLE, ids=names(WHOLE))
def test_empty_arrays(f):
    check(f, np.zeros(0))
    check(f, np.zeros((0, 3), np.int32))


@pytest.mark.parametrize(
    ("f", "message"),
    [
        (nanmin, "zero-size array to reduction operation fmin which has no identity"),
        (nanmax, "zero-size array to reduction operation fmax which has no identity"),
        (nanargmin, "attempt to get argmin of an empty sequence"),
        (nanargmax, "attempt to get argmax of an empty sequence"),
    ],
)
def test_empty_extremes_raise_numpys_value_error(f, message):
    for a in (np.zeros(0), np.zeros((2, 0), np.int64), np.zeros(0, np.complex128)):
        if f in ARG_EXTREMES and a.dtype.kind == "c":
            continue
        with pytest.raises(ValueError) as expected:
            f.py_func(a)
        assert str(expected.value) == message
        with pytest.raises(ValueError) as actual:
            f(a)
        assert str(actual.value) == message


@pytest.mark.parametrize("f", ALONG, ids=names(ALONG))
@pytest.mark.parametrize("dtype", DTYPES)
def test_along_axis_each_dtype(f, dtype):
    a = sample(dtype, (3, 4, 5))
    if f in (nanprod_axis, nancumprod_axis) and a.dtype.kind != "b":
        a = a / 8 if a.dtype.kind in "fc" else a % 3
    for axis in (0, 1, 2, -1, -3):
        check(f, a, axis)
    check(f, a[:, ::-1], 1)
    check(f, sample(dtype, (6,)), 0)


@pytest.mark.parametrize("f", [nanvar_axis, nanstd_axis], ids=["nanvar_axis", "nanstd_axis"])
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128"])
def test_spread_along_axis_with_ddof(f, dtype):
    a = sample(dtype, (3, 4, 5))
    for axis in (0, 1, -1):
        for ddof in (0, 1, 4):  # ddof 4 leaves no degrees of freedom on the short slices
            check(f, a, axis, ddof)
    check(f, sample(dtype, (5,)), 0, 1)


@pytest.mark.parametrize(
    "f",
    [nanmin_axis, nanmax_axis, nanargmin_axis, nanargmax_axis],
    ids=["nanmin_axis", "nanmax_axis", "nanargmin_axis", "nanargmax_axis"],
)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_extremes_along_axis(f, dtype):
    a = sample(dtype, (3, 4, 5))
    for axis in (0, 1, 2, -1):
        check(f, a, axis)
    check(f, a.T, 0)
    check(f, sample(dtype, (6,)), -1)
    check(f, sample(dtype, (6,)), None)


def test_all_nan_slices_along_axis():
    a = np.array([[np.nan, np.nan], [1.0, np.nan]])
    check(nanmin_axis, a, 1)  # NaN for the all-NaN row (NumPy warns)
    check(nanmax_axis, a, 0)
    check(nanargmin_axis, a, 1)  # no row is all NaN
    for axis in (0, -2):
        with pytest.raises(ValueError, match="^All-NaN slice encountered$"):
            nanargmax_axis(a, axis)


@pytest.mark.parametrize(
    "f", ALONG + [nanmin_axis, nanargmax_axis], ids=names(ALONG + [nanmin_axis, nanargmax_axis])
)
def test_axis_out_of_bounds_is_numpys_axis_error(f):
    a = np.ones((2, 3))
    for axis in (2, -3, 5):
        with pytest.raises(np.exceptions.AxisError) as expected:
            f.py_func(a, axis)
        with pytest.raises(np.exceptions.AxisError) as actual:
            f(a, axis)
        assert str(actual.value) == str(expected.value)
    with pytest.raises(np.exceptions.AxisError, match="out of bounds for array of dimension 1"):
        f(np.ones(3), 1)


def test_cumulative_keeps_native_behaviour():
    for a in (np.arange(6, dtype=np.int8).reshape(2, 3), np.array(2.5), np.array([True, True])):
        check(cumsum_flat, a)
        check(cumprod_flat, a)
    check(cumprod_axis, (np.arange(12, dtype=np.uint16).reshape(3, 4) % 3 + 1), 1)
    check(cumsum_axis, np.zeros((0, 3)), 1)
    check(cumsum_axis, np.zeros((2, 0)), 1)


def test_nanvar_ddof_keyword_and_negative_ddof():
    a = np.array([1.0, np.nan, 4.0, 2.0])
    for ddof in (0, 1, 2, 3, 5, -1):
        check(nanstd_ddof, a, ddof)
    check(nanstd_ddof, np.arange(5, dtype=np.int32), 2)


@njit
def nansum_with_dtype(a):
    return np.nansum(a, dtype=np.float32)


@njit
def nanmean_of_list(a):
    return np.nanmean(a, 1.5)


def test_unsupported_arguments_are_typing_errors_naming_the_line():
    with pytest.raises(TypingError) as error:
        nansum_with_dtype(np.ones(3))
    assert "'dtype' argument is not supported" in str(error.value)
    assert "return np.nansum(a, dtype=np.float32)" in str(error.value)
    with pytest.raises(TypingError) as error:
        nanmean_of_list(np.ones(3))
    assert "No implementation of numpy.nanmean" in str(error.value)
    assert "return np.nanmean(a, 1.5)" in str(error.value)
