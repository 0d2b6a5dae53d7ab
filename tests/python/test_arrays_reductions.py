"""Reductions over whole arrays and along an axis: sum, prod, min, max, mean, std, var, argmin,
argmax, any, all (as np.<f>(a) and a.<f>()), cumsum and cumprod; NaN propagation; errors."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import (
    COMPLEX_DTYPES,
    REAL_DTYPES,
    assert_array_same,
    assert_value_same,
    layouts,
    run_script,
    sample,
)

from taipan import njit

RTOL = 1e-12


def tolerance(dtype):
    return 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else RTOL


# One jitted function per (reduction, spelling); the axis forms take the axis at compile time
# as a literal, and at run time as an argument.


@njit
def np_sum(a):
    return np.sum(a)


@njit
def m_sum(a):
    return a.sum()


@njit
def np_prod(a):
    return np.prod(a)


@njit
def m_prod(a):
    return a.prod()


@njit
def np_min(a):
    return np.min(a)


@njit
def m_min(a):
    return a.min()


@njit
def np_max(a):
    return np.max(a)


@njit
def m_max(a):
    return a.max()


@njit
def np_amin(a):
    return np.amin(a)


@njit
def np_amax(a):
    return np.amax(a)


@njit
def np_mean(a):
    return np.mean(a)


@njit
def m_mean(a):
    return a.mean()


@njit
def np_std(a):
    return np.std(a)


@njit
def m_std(a):
    return a.std()


@njit
def np_var(a):
    return np.var(a)


@njit
def m_var(a):
    return a.var()


@njit
def np_argmin(a):
    return np.argmin(a)


@njit
def m_argmin(a):
    return a.argmin()


@njit
def np_argmax(a):
    return np.argmax(a)


@njit
def m_argmax(a):
    return a.argmax()


@njit
def np_any(a):
    return np.any(a)


@njit
def m_any(a):
    return a.any()


@njit
def np_all(a):
    return np.all(a)


@njit
def m_all(a):
    return a.all()


@njit
def np_cumsum(a):
    return np.cumsum(a)


@njit
def m_cumsum(a):
    return a.cumsum()


@njit
def np_cumprod(a):
    return np.cumprod(a)


@njit
def m_cumprod(a):
    return a.cumprod()


SUM_LIKE = [np_sum, np_prod]
MIN_MAX = [np_min, np_max, np_amin, np_amax]
STATS = [np_mean, np_std, np_var]
ARG = [np_argmin, np_argmax]
LOGICAL = [np_any, np_all]
CUMULATIVE = [np_cumsum, np_cumprod]
METHODS = [
    m_sum,
    m_prod,
    m_min,
    m_max,
    m_mean,
    m_std,
    m_var,
    m_argmin,
    m_argmax,
    m_any,
    m_all,
    m_cumsum,
    m_cumprod,
]


def ids(functions):
    return [f.__name__ for f in functions]


def check(f, a, rtol=0.0):
    expected = f.py_func(a)
    actual = f(a)
    if isinstance(expected, np.ndarray) and expected.ndim > 0:
        assert_array_same(actual, expected, rtol=rtol)
    else:
        assert_value_same(actual, expected, rtol=rtol)


def small_for_prod(a):
    """Values whose products neither overflow nor lose precision."""
    if a.dtype.kind == "b":
        return a
    out = (a.real % 3 + 1).astype(a.dtype) if a.dtype.kind != "c" else a / 10
    return out


# ---------------------------------------------------------------------------------------------
# whole-array reductions


@pytest.mark.parametrize("f", SUM_LIKE, ids=ids(SUM_LIKE))
@pytest.mark.parametrize("dtype", ["bool", *REAL_DTYPES, *COMPLEX_DTYPES])
def test_sum_prod_each_dtype(f, dtype):
    a = small_for_prod(sample(dtype, (3, 4)))
    check(f, a, rtol=tolerance(dtype))


@pytest.mark.parametrize("f", MIN_MAX + ARG, ids=ids(MIN_MAX + ARG))
@pytest.mark.parametrize("dtype", ["bool", *REAL_DTYPES])
def test_min_max_arg_each_dtype(f, dtype):
    check(f, sample(dtype, (3, 4)))


@pytest.mark.parametrize("f", STATS, ids=ids(STATS))
@pytest.mark.parametrize("dtype", ["bool", *REAL_DTYPES, *COMPLEX_DTYPES])
def test_mean_std_var_each_dtype(f, dtype):
    check(f, sample(dtype, (3, 4)), rtol=tolerance(dtype))


@pytest.mark.parametrize("f", LOGICAL, ids=ids(LOGICAL))
@pytest.mark.parametrize("dtype", ["bool", *REAL_DTYPES, *COMPLEX_DTYPES])
def test_any_all_each_dtype(f, dtype):
    a = sample(dtype, (3, 4))
    check(f, a)
    check(f, np.zeros_like(a))
    check(f, np.ones_like(a))


@pytest.mark.parametrize("f", CUMULATIVE, ids=ids(CUMULATIVE))
@pytest.mark.parametrize("dtype", ["bool", *REAL_DTYPES, *COMPLEX_DTYPES])
def test_cumulative_each_dtype(f, dtype):
    a = small_for_prod(sample(dtype, (3, 4)))
    check(f, a, rtol=tolerance(dtype))


@pytest.mark.parametrize("f", METHODS, ids=ids(METHODS))
def test_method_spellings(f):
    check(f, small_for_prod(sample("float64", (3, 4))), rtol=RTOL)
    check(f, small_for_prod(sample("int16", (5,)))[::-1], rtol=RTOL)
    check(f, sample("bool", (2, 3)), rtol=RTOL)


ALL_WHOLE = SUM_LIKE + MIN_MAX + STATS + ARG + LOGICAL + CUMULATIVE


@pytest.mark.parametrize("f", ALL_WHOLE, ids=ids(ALL_WHOLE))
@pytest.mark.parametrize("name_index", range(5))
def test_whole_reductions_each_layout(f, name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    check(f, small_for_prod(a), rtol=RTOL)


@pytest.mark.parametrize("f", ALL_WHOLE, ids=ids(ALL_WHOLE))
def test_whole_reductions_1d_and_3d(f):
    check(f, small_for_prod(sample("float64", (7,)))[::-2], rtol=RTOL)
    check(f, small_for_prod(sample("int32", (2, 3, 4))).transpose(2, 0, 1)[:, ::-1], rtol=RTOL)


@pytest.mark.parametrize(
    "f", SUM_LIKE + LOGICAL + CUMULATIVE, ids=ids(SUM_LIKE + LOGICAL + CUMULATIVE)
)
def test_empty_reductions_with_identity(f):
    check(f, np.zeros(0))
    check(f, np.zeros((0, 3), np.int32))


@pytest.mark.parametrize("f", STATS, ids=ids(STATS))
def test_empty_mean_is_nan(f):
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        expected = f.py_func(np.zeros(0))
    assert np.isnan(expected)
    assert np.isnan(f(np.zeros(0)))


@pytest.mark.parametrize(
    "f",
    MIN_MAX + ARG + [m_min, m_max, m_argmin, m_argmax],
    ids=ids(MIN_MAX + ARG + [m_min, m_max, m_argmin, m_argmax]),
)
def test_empty_min_max_is_value_error(f):
    with pytest.raises(ValueError):
        f(np.zeros(0))
    with pytest.raises(ValueError):
        f(np.zeros((3, 0), np.int64))


@pytest.mark.parametrize("f", ALL_WHOLE, ids=ids(ALL_WHOLE))
def test_reductions_of_0d_array(f):
    check(f, np.array(2.5), rtol=RTOL)


def test_sum_large_float_tolerance():
    a = np.random.default_rng(1).standard_normal(10_001)
    check(np_sum, a, rtol=RTOL)
    check(np_mean, a, rtol=RTOL)
    check(np_var, a, rtol=1e-10)
    check(np_std, a, rtol=1e-10)


def test_integer_sum_result_types():
    # sums of small integer types accumulate in 64 bits (NumPy's default integer)
    a = np.full(300, 100, np.int8)
    assert np_sum(a) == 30000
    b = np.full(300, 250, np.uint8)
    assert np_sum(b) == 75000
    assert np_sum(np.array([True, True, False])) == 2


# ---------------------------------------------------------------------------------------------
# NaN handling


NAN_CASES = [
    np.array([1.0, np.nan, -2.0]),
    np.array([np.nan, 1.0, 2.0]),
    np.array([1.0, 2.0, np.nan]),
    np.array([np.nan, np.nan]),
    np.array([np.inf, -np.inf, 0.0]),
    np.array([-np.inf, np.nan, np.inf]),
    np.array([0.0, -0.0]),
    np.array([-0.0, 0.0]),
]


@pytest.mark.parametrize(
    "f", MIN_MAX + ARG + SUM_LIKE + STATS, ids=ids(MIN_MAX + ARG + SUM_LIKE + STATS)
)
@pytest.mark.parametrize("case", range(len(NAN_CASES)))
def test_nan_and_inf_propagation(f, case):
    a = NAN_CASES[case]
    with np.errstate(all="ignore"):
        check(f, a)
        check(f, a.astype(np.float32))


@pytest.mark.parametrize(
    "f", [np_min, np_max, np_argmin, np_argmax], ids=ids([np_min, np_max, np_argmin, np_argmax])
)
def test_nan_in_2d_non_contiguous(f):
    a = np.arange(12.0).reshape(3, 4)
    a[2, 1] = np.nan
    check(f, a)
    check(f, np.asfortranarray(a))
    check(f, a[::-1, ::2])


COMPLEX_MIN_MAX_SCRIPT = """
import numpy as np
from taipan import njit
from taipan.errors import TypingError

@njit
def reduce_all(a):
    return np.min(a), np.max(a), np.argmin(a), np.argmax(a)

@njit
def reduce_axis(a):
    return np.min(a, axis=1), np.argmax(a, axis=0)

a = np.array([1 + 5j, 1 - 2j, -1 + 9j, 3 + 0j, -1 + 1j])
try:
    print(reduce_all(a) == reduce_all.py_func(a))
except TypingError:
    print("TypingError")
b = a.reshape(1, 5)
try:
    print(all((x == y).all() for x, y in zip(reduce_axis(b), reduce_axis.py_func(b))))
except TypingError:
    print("TypingError")
"""


def test_complex_min_max_do_not_crash(tmp_path):
    """In a subprocess: an earlier build crashed (SIGSEGV) compiling these."""
    result = run_script(COMPLEX_MIN_MAX_SCRIPT, tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert all(line in ("True", "TypingError") for line in result.stdout.split()), result.stdout


def test_complex_min_max_lexicographic(tmp_path):
    result = run_script(COMPLEX_MIN_MAX_SCRIPT, tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "True"], result.stdout


# ---------------------------------------------------------------------------------------------
# reductions along an axis


@njit
def sum_axis(a, axis):
    return np.sum(a, axis=axis)


@njit
def sum_axis_method(a, axis):
    return a.sum(axis=axis)


@njit
def sum_axis_positional(a):
    return np.sum(a, 0), a.sum(1)


@njit
def prod_axis(a, axis):
    return np.prod(a, axis=axis)


@njit
def prod_axis_method(a, axis):
    return a.prod(axis=axis)


@njit
def min_axis(a, axis):
    return np.min(a, axis=axis)


@njit
def min_axis_method(a, axis):
    return a.min(axis=axis)


@njit
def max_axis(a, axis):
    return np.max(a, axis=axis)


@njit
def max_axis_method(a, axis):
    return a.max(axis=axis)


@njit
def mean_axis(a, axis):
    return np.mean(a, axis=axis)


@njit
def mean_axis_method(a, axis):
    return a.mean(axis=axis)


@njit
def std_axis(a, axis):
    return np.std(a, axis=axis)


@njit
def std_axis_method(a, axis):
    return a.std(axis=axis)


@njit
def var_axis(a, axis):
    return np.var(a, axis=axis)


@njit
def var_axis_method(a, axis):
    return a.var(axis=axis)


@njit
def argmin_axis(a, axis):
    return np.argmin(a, axis=axis)


@njit
def argmin_axis_method(a, axis):
    return a.argmin(axis=axis)


@njit
def argmax_axis(a, axis):
    return np.argmax(a, axis=axis)


@njit
def argmax_axis_method(a, axis):
    return a.argmax(axis=axis)


@njit
def any_axis(a, axis):
    return np.any(a, axis=axis)


@njit
def any_axis_method(a, axis):
    return a.any(axis=axis)


@njit
def all_axis(a, axis):
    return np.all(a, axis=axis)


@njit
def all_axis_method(a, axis):
    return a.all(axis=axis)


@njit
def literal_axes(a):
    return (
        np.sum(a, axis=0),
        np.sum(a, axis=-1),
        a.max(axis=1),
        a.min(axis=-2),
        np.mean(a, axis=0),
        a.argmax(axis=-1),
        np.any(a > 3, axis=0),
        np.all(a > 3, axis=-1),
        np.var(a, axis=-1),
    )


AXIS_FUNCTIONS = [
    sum_axis,
    sum_axis_method,
    prod_axis,
    prod_axis_method,
    min_axis,
    min_axis_method,
    max_axis,
    max_axis_method,
    mean_axis,
    mean_axis_method,
    std_axis,
    std_axis_method,
    var_axis,
    var_axis_method,
    argmin_axis,
    argmin_axis_method,
    argmax_axis,
    argmax_axis_method,
    any_axis,
    any_axis_method,
    all_axis,
    all_axis_method,
]
AXIS_NP = AXIS_FUNCTIONS[::2]


def check_axis(f, a, axis, rtol=RTOL):
    expected = f.py_func(a, axis)
    actual = f(a, axis)
    assert_array_same(actual, expected, rtol=rtol)


@pytest.mark.parametrize("f", AXIS_FUNCTIONS, ids=ids(AXIS_FUNCTIONS))
@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_axis_2d(f, axis):
    a = small_for_prod(sample("float64", (3, 4)))
    check_axis(f, a, axis)


@pytest.mark.parametrize("f", AXIS_NP, ids=ids(AXIS_NP))
@pytest.mark.parametrize("name_index", range(5))
def test_axis_2d_each_layout(f, name_index):
    _, a = layouts(small_for_prod(sample("float64", (3, 4))))[name_index]
    check_axis(f, a, 0)
    check_axis(f, a, 1)


@pytest.mark.parametrize("f", AXIS_NP, ids=ids(AXIS_NP))
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_axis_3d(f, axis):
    a = small_for_prod(sample("int64", (2, 3, 4)))
    check_axis(f, a, axis)


@pytest.mark.parametrize("f", AXIS_FUNCTIONS, ids=ids(AXIS_FUNCTIONS))
def test_axis_1d_gives_0d_or_1d(f):
    a = small_for_prod(sample("float64", (5,)))
    expected = f.py_func(a, 0)
    actual = f(a, 0)
    if isinstance(expected, np.ndarray) and expected.ndim > 0:
        assert_array_same(actual, expected, rtol=RTOL)
    else:
        assert_value_same(actual, expected, rtol=RTOL)


@pytest.mark.parametrize("f", AXIS_NP, ids=ids(AXIS_NP))
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "float32", "complex128"])
def test_axis_dtypes(f, dtype):
    if dtype == "complex128" and f in (min_axis, max_axis, argmin_axis, argmax_axis):
        pytest.skip("complex min / max: see test_complex_min_max_lexicographic")
    a = small_for_prod(sample(dtype, (3, 4)))
    check_axis(f, a, 1, rtol=tolerance(dtype))
    check_axis(f, a, 0, rtol=tolerance(dtype))


@pytest.mark.parametrize(
    "f",
    [sum_axis, prod_axis, any_axis, all_axis],
    ids=ids([sum_axis, prod_axis, any_axis, all_axis]),
)
def test_axis_empty(f):
    a = np.zeros((0, 3))
    check_axis(f, a, 0)
    check_axis(f, a, 1)


@pytest.mark.parametrize(
    "f",
    [min_axis, max_axis, argmin_axis, argmax_axis],
    ids=ids([min_axis, max_axis, argmin_axis, argmax_axis]),
)
def test_axis_empty_min_max_is_value_error(f):
    with pytest.raises(ValueError):
        f(np.zeros((0, 3)), 0)
    check_axis(f, np.zeros((0, 3)), 1)  # reducing the non-empty axis gives an empty result


@pytest.mark.parametrize(
    "f",
    [min_axis, max_axis, argmin_axis, argmax_axis, sum_axis, mean_axis],
    ids=ids([min_axis, max_axis, argmin_axis, argmax_axis, sum_axis, mean_axis]),
)
def test_axis_nan(f):
    a = np.arange(12.0).reshape(3, 4)
    a[1, 2] = np.nan
    a[0, 0] = np.nan
    check_axis(f, a, 0)
    check_axis(f, a, 1)


def test_axis_out_of_range_is_error():
    with pytest.raises((ValueError, IndexError, np.exceptions.AxisError)):
        sum_axis(np.zeros((2, 3)), 2)
    with pytest.raises((ValueError, IndexError, np.exceptions.AxisError)):
        sum_axis(np.zeros((2, 3)), -3)


def test_literal_axes():
    a = np.arange(12.0).reshape(3, 4)[::-1]
    expected = literal_axes.py_func(a)
    actual = literal_axes(a)
    for x, e in zip(actual, expected):
        assert_array_same(x, e, rtol=RTOL)


def test_positional_axis():
    a = np.arange(12).reshape(3, 4)
    for x, e in zip(sum_axis_positional(a), sum_axis_positional.py_func(a)):
        assert_array_same(x, e)


def test_axis_reduction_result_is_fresh_array():
    a = np.ones((3, 4))
    out = sum_axis(a, 0)
    out[0] = 100.0
    assert a.sum() == 12.0
