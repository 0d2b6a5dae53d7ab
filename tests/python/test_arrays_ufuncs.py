"""Array expressions with broadcasting, comparisons, unary operators, and NumPy ufuncs on
scalars and arrays of every dtype."""

from __future__ import annotations

import math

import numpy as np
import pytest
from array_helpers import (
    ALL_DTYPES,
    FLOAT_DTYPES,
    INTEGER_DTYPES,
    assert_array_same,
    assert_value_same,
    compare,
    layouts,
    sample,
)

from taipan import njit

RTOL = 1e-12

# ---------------------------------------------------------------------------------------------
# binary operators with broadcasting


@njit
def add(a, b):
    return a + b


@njit
def sub(a, b):
    return a - b


@njit
def mul(a, b):
    return a * b


@njit
def div(a, b):
    return a / b


@njit
def floordiv(a, b):
    return a // b


@njit
def mod(a, b):
    return a % b


@njit
def pow_(a, b):
    return a**b


@njit
def bitand(a, b):
    return a & b


@njit
def bitor(a, b):
    return a | b


@njit
def bitxor(a, b):
    return a ^ b


@njit
def lshift(a, b):
    return a << b


@njit
def rshift(a, b):
    return a >> b


@njit
def combined(a, b, c):
    return a * b + np.sin(c)


@njit
def polynomial(x):
    return 3.0 * x**2 - 2.0 * x + 1.0


@njit
def nested_expression(a, b):
    return (a + b) * (a - b) / (1.0 + np.abs(b)) - np.sqrt(np.abs(a)) * 2


ARITH = [add, sub, mul, div]


def fid(functions):
    return [f.__name__ for f in functions]


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_arith_same_dtype(f, dtype):
    a = sample(dtype, (3, 4))
    b = sample(dtype, (3, 4), seed=1)
    if f is div and dtype != "bool" and np.dtype(dtype).kind in "iu":
        b = np.where(b == 0, 1, b).astype(dtype)
    if f is sub and dtype == "bool":
        pytest.skip("NumPy has no boolean subtract")
    with np.errstate(all="ignore"):
        compare(f, a, b, rtol=RTOL)


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("int8", "int64"),
        ("int32", "float32"),
        ("uint8", "int8"),
        ("float32", "float64"),
        ("int64", "complex64"),
        ("uint64", "int64"),
        ("bool", "int16"),
        ("float32", "complex128"),
    ],
)
def test_arith_mixed_dtypes(f, left, right):
    a = sample(left, (2, 3))
    b = sample(right, (2, 3), seed=2)
    if f is sub and "bool" in (left, right):
        b = b.astype(right)
    with np.errstate(all="ignore"):
        compare(f, a, b, rtol=1e-6)


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
@pytest.mark.parametrize(
    "scalar", [2, -3, 2.5, True, 1 + 1j], ids=["int", "negint", "float", "bool", "complex"]
)
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "float32", "float64"])
def test_array_op_python_scalar(f, scalar, dtype):
    a = sample(dtype, (5,))
    if dtype.startswith("uint") and isinstance(scalar, int) and scalar < 0:
        pytest.skip("NumPy 2 rejects a negative Python int with an unsigned array")
    with np.errstate(all="ignore"):
        compare(f, a, scalar, rtol=1e-6)
        compare(f, scalar, a, rtol=1e-6)


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
def test_array_op_numpy_scalar(f):
    a = sample("int32", (4,))
    compare(f, a, np.float32(1.5), rtol=1e-6)
    compare(f, np.int8(3), a, rtol=1e-6)


@pytest.mark.parametrize(
    ("shape_a", "shape_b"),
    [
        ((3, 4), (4,)),
        ((3, 1), (1, 4)),
        ((3, 4), (3, 1)),
        ((1,), (5,)),
        ((2, 3, 4), (3, 1)),
        ((4,), (2, 3, 4)),
        ((0, 3), (3,)),
        ((0,), (1,)),
        ((), (3,)),
        ((2, 1, 3), (4, 1)),
    ],
)
def test_broadcasting(shape_a, shape_b):
    a = sample("float64", shape_a)
    b = sample("float64", shape_b, seed=4)
    for f in (add, mul, sub):
        compare(f, a, b)
        compare(f, b, a)


@pytest.mark.parametrize("name_index", range(5))
def test_expression_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    _, b = layouts(sample("float64", (3, 4), seed=3))[(name_index + 2) % 5]
    compare(combined, a, b, a, rtol=RTOL)
    compare(nested_expression, a, b, rtol=RTOL)
    compare(polynomial, a, rtol=RTOL)


def test_expression_1d_views():
    a = np.arange(10.0)
    compare(combined, a[::2], a[1::2], a[::-2], rtol=RTOL)
    compare(add, a[::-1], a)


def test_expression_result_is_new_array():
    a = np.ones(3)
    out = add(a, a)
    assert not np.shares_memory(out, a)
    out2 = polynomial(a)
    assert_array_same(out2, np.full(3, 2.0))


@pytest.mark.parametrize(
    ("shape_a", "shape_b"), [((3,), (4,)), ((2, 3), (3, 2)), ((3, 4), (2, 1, 3))]
)
def test_broadcast_error_is_value_error(shape_a, shape_b):
    with pytest.raises(ValueError):
        add(np.zeros(shape_a), np.zeros(shape_b))
    with pytest.raises(ValueError):
        combined(np.zeros(shape_a), np.zeros(shape_b), np.zeros(shape_a))


@pytest.mark.parametrize("f", [floordiv, mod], ids=fid([floordiv, mod]))
@pytest.mark.parametrize(
    "dtype", ["int8", "int32", "int64", "uint8", "uint64", "float32", "float64"]
)
def test_floordiv_mod(f, dtype):
    a = sample(dtype, (12,))
    b = sample(dtype, (12,), seed=9)
    b = np.where(b == 0, 3, b).astype(dtype)
    compare(f, a, b, rtol=1e-6)
    compare(f, a, 7 if dtype[0] != "f" else 2.5, rtol=1e-6)


def test_power_operator():
    a = np.array([1.0, 2.0, 0.5, -1.5, 0.0])
    compare(pow_, a, 2)
    compare(pow_, a, 0.5 * np.ones(5))
    compare(pow_, 2.0, a)
    compare(pow_, np.arange(6), np.array([0, 1, 2, 3, 2, 1]))
    compare(pow_, np.arange(4, dtype=np.int32), 3)


@pytest.mark.parametrize("f", [bitand, bitor, bitxor], ids=fid([bitand, bitor, bitxor]))
@pytest.mark.parametrize("dtype", ["bool", *INTEGER_DTYPES])
def test_bitwise(f, dtype):
    compare(f, sample(dtype, (6,)), sample(dtype, (6,), seed=7))


@pytest.mark.parametrize("f", [lshift, rshift], ids=fid([lshift, rshift]))
@pytest.mark.parametrize("dtype", ["int16", "int64", "uint8", "uint32"])
def test_shifts(f, dtype):
    a = np.abs(sample(dtype, (6,))).astype(dtype)
    compare(f, a, np.array([0, 1, 2, 3, 1, 2], dtype))


# ---------------------------------------------------------------------------------------------
# division by zero follows NumPy: inf / nan, no exception


def test_float_division_by_zero_gives_inf_nan():
    a = np.array([1.0, -1.0, 0.0, np.inf])
    b = np.zeros(4)
    with np.errstate(all="ignore"):
        compare(div, a, b)
        compare(div, a, 0.0)
        compare(div, a, 0)
        compare(floordiv, a, b)
        compare(mod, a, b)


def test_integer_division_by_zero_in_arrays_does_not_raise():
    a = np.array([1, -1, 0, 7])
    b = np.zeros(4, np.int64)
    with np.errstate(all="ignore"):
        compare(div, a, b)  # true divide of ints: inf / nan
        compare(floordiv, a, b)  # NumPy gives 0
        compare(mod, a, b)  # NumPy gives 0


# ---------------------------------------------------------------------------------------------
# comparisons and unary operators


@njit
def comparisons(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b


@njit
def compare_scalar(a, x):
    return a > x, x > a, a == x


@njit
def negate(a):
    return -a


@njit
def positive(a):
    return +a


@njit
def invert(a):
    return ~a


@njit
def logical_combo(a, b):
    return (a > 0) & (b < 0) | ~(a == b)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_comparisons_each_dtype(dtype):
    a = sample(dtype, (3, 4))
    b = sample(dtype, (3, 4), seed=1)
    b[0, 0] = a[0, 0]
    if np.dtype(dtype).kind == "c":
        pytest.skip("ordering comparisons of complex arrays: only == and != below")
    compare(comparisons, a, b)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_equality(dtype):
    @njit
    def eq(a, b):
        return a == b, a != b

    a = sample(dtype, (4,))
    b = a.copy()
    b[1] += 1
    compare(eq, a, b)


def test_comparisons_broadcast_and_nan():
    a = np.array([[1.0, np.nan, 3.0]])
    b = np.array([[1.0], [np.nan], [2.0]])
    compare(comparisons, a, b)
    compare(compare_scalar, a, 2.0)
    compare(compare_scalar, np.arange(5), 2)
    compare(compare_scalar, np.arange(5, dtype=np.uint8), -1)


def test_comparisons_mixed_signedness():
    a = np.array([0, 1, 200, 255], np.uint8)
    b = np.array([-1, 1, -56, 127], np.int8)
    compare(comparisons, a, b)
    c = np.array([2**63, 1, 0], np.uint64)
    d = np.array([-1, 1, 0], np.int64)
    compare(comparisons, c, d)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != "bool"])
def test_unary_minus_and_plus(dtype):
    a = sample(dtype, (3, 4))
    with np.errstate(all="ignore"):
        compare(negate, a)
    compare(positive, a)


@pytest.mark.parametrize("dtype", ["bool", *INTEGER_DTYPES])
def test_invert(dtype):
    compare(invert, sample(dtype, (3, 4)))


def test_invert_bool_is_logical_not():
    out = invert(np.array([True, False]))
    assert_array_same(out, np.array([False, True]))


def test_logical_combination():
    a = sample("int32", (3, 4))
    b = sample("int32", (3, 4), seed=5)
    compare(logical_combo, a, b)


# ---------------------------------------------------------------------------------------------
# ufuncs


@njit
def u_sqrt(x):
    return np.sqrt(x)


@njit
def u_exp(x):
    return np.exp(x)


@njit
def u_log(x):
    return np.log(x)


@njit
def u_log10(x):
    return np.log10(x)


@njit
def u_log2(x):
    return np.log2(x)


@njit
def u_log1p(x):
    return np.log1p(x)


@njit
def u_expm1(x):
    return np.expm1(x)


@njit
def u_sin(x):
    return np.sin(x)


@njit
def u_cos(x):
    return np.cos(x)


@njit
def u_tan(x):
    return np.tan(x)


@njit
def u_arcsin(x):
    return np.arcsin(x)


@njit
def u_arccos(x):
    return np.arccos(x)


@njit
def u_arctan(x):
    return np.arctan(x)


@njit
def u_sinh(x):
    return np.sinh(x)


@njit
def u_cosh(x):
    return np.cosh(x)


@njit
def u_tanh(x):
    return np.tanh(x)


@njit
def u_abs(x):
    return np.abs(x)


@njit
def u_absolute(x):
    return np.absolute(x)


@njit
def u_builtin_abs(x):
    return abs(x)


@njit
def u_fabs(x):
    return np.fabs(x)


@njit
def u_floor(x):
    return np.floor(x)


@njit
def u_ceil(x):
    return np.ceil(x)


@njit
def u_trunc(x):
    return np.trunc(x)


@njit
def u_rint(x):
    return np.rint(x)


@njit
def u_isnan(x):
    return np.isnan(x)


@njit
def u_isinf(x):
    return np.isinf(x)


@njit
def u_isfinite(x):
    return np.isfinite(x)


@njit
def u_sign(x):
    return np.sign(x)


@njit
def u_square(x):
    return np.square(x)


@njit
def u_negative(x):
    return np.negative(x)


@njit
def b_arctan2(x, y):
    return np.arctan2(x, y)


@njit
def b_hypot(x, y):
    return np.hypot(x, y)


@njit
def b_minimum(x, y):
    return np.minimum(x, y)


@njit
def b_maximum(x, y):
    return np.maximum(x, y)


@njit
def b_fmin(x, y):
    return np.fmin(x, y)


@njit
def b_fmax(x, y):
    return np.fmax(x, y)


@njit
def b_power(x, y):
    return np.power(x, y)


@njit
def b_add(x, y):
    return np.add(x, y)


@njit
def b_subtract(x, y):
    return np.subtract(x, y)


@njit
def b_multiply(x, y):
    return np.multiply(x, y)


@njit
def b_divide(x, y):
    return np.divide(x, y)


@njit
def b_floor_divide(x, y):
    return np.floor_divide(x, y)


@njit
def b_mod(x, y):
    return np.mod(x, y)


FLOAT_UNARY = [
    u_sqrt,
    u_exp,
    u_log,
    u_log10,
    u_log2,
    u_log1p,
    u_expm1,
    u_sin,
    u_cos,
    u_tan,
    u_arcsin,
    u_arccos,
    u_arctan,
    u_sinh,
    u_cosh,
    u_tanh,
]
ANY_UNARY = [u_abs, u_absolute, u_builtin_abs, u_square, u_negative, u_sign]
REAL_UNARY = [u_fabs, u_floor, u_ceil, u_trunc, u_rint, u_isnan, u_isinf, u_isfinite]
BINARY = [
    b_arctan2,
    b_hypot,
    b_minimum,
    b_maximum,
    b_fmin,
    b_fmax,
    b_power,
    b_add,
    b_subtract,
    b_multiply,
    b_divide,
    b_floor_divide,
    b_mod,
]

# inputs that reach the interesting parts of each function, NaN / inf / signed zero included
SPECIALS = np.array(
    [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -3.5, 10.0, 1e-300, 700.0, np.inf, -np.inf, np.nan]
)


def float_tolerance(dtype):
    return 2e-6 if np.dtype(dtype) == np.float32 else 1e-14


@pytest.mark.parametrize(
    "f", FLOAT_UNARY + ANY_UNARY + REAL_UNARY, ids=fid(FLOAT_UNARY + ANY_UNARY + REAL_UNARY)
)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_unary_ufunc_float_arrays(f, dtype):
    a = SPECIALS.astype(dtype)
    with np.errstate(all="ignore"):
        compare(f, a, rtol=float_tolerance(dtype))
        compare(f, a.reshape(2, 7)[:, ::-2], rtol=float_tolerance(dtype))


@pytest.mark.parametrize(
    "f", FLOAT_UNARY + ANY_UNARY + REAL_UNARY, ids=fid(FLOAT_UNARY + ANY_UNARY + REAL_UNARY)
)
@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "int64", "uint8", "uint64"])
def test_unary_ufunc_integer_arrays(f, dtype):
    if f in (u_negative,) and dtype == "bool":
        pytest.skip("NumPy rejects np.negative of bool")
    if f is u_sign and dtype == "bool":
        pytest.skip("NumPy has no np.sign for bool")
    a = sample(dtype, (2, 5))
    with np.errstate(all="ignore"):
        compare(f, a, rtol=1e-14)


@pytest.mark.parametrize("f", FLOAT_UNARY + ANY_UNARY, ids=fid(FLOAT_UNARY + ANY_UNARY))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_unary_ufunc_complex_arrays(f, dtype):
    a = (sample("float64", (6,)) / 10 + 1j * sample("float64", (6,), seed=3) / 10).astype(dtype)
    with np.errstate(all="ignore"):
        compare(f, a, rtol=2e-5 if dtype == "complex64" else 1e-12)


@pytest.mark.parametrize(
    "f", FLOAT_UNARY + ANY_UNARY + REAL_UNARY, ids=fid(FLOAT_UNARY + ANY_UNARY + REAL_UNARY)
)
@pytest.mark.parametrize(
    "x",
    [0.5, -2.0, 3, 0, np.float32(1.5), np.int16(-4), True, math.nan],
    ids=["f", "negf", "i", "zero", "f32", "i16", "bool", "nan"],
)
def test_unary_ufunc_scalars(f, x):
    if f is u_negative and isinstance(x, bool):
        pytest.skip("NumPy rejects np.negative of bool")
    if f is u_sign and isinstance(x, bool):
        pytest.skip("NumPy has no np.sign for bool")
    with np.errstate(all="ignore"):
        expected = f.py_func(x)
        actual = f(x)
    assert_value_same(actual, expected, rtol=1e-6 if isinstance(x, np.float32) else 1e-14)


@pytest.mark.parametrize("f", BINARY, ids=fid(BINARY))
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_binary_ufunc_float_arrays(f, dtype):
    a = SPECIALS.astype(dtype)
    grid_a = np.repeat(a, a.size)
    grid_b = np.tile(a, a.size)
    with np.errstate(all="ignore"):
        compare(f, grid_a, grid_b, rtol=float_tolerance(dtype))


@pytest.mark.parametrize("f", BINARY, ids=fid(BINARY))
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64", "bool"])
def test_binary_ufunc_integer_arrays(f, dtype):
    if dtype == "bool" and f in (b_subtract, b_floor_divide, b_mod, b_power):
        pytest.skip("NumPy has no such loop for bool")
    a = sample(dtype, (8,))
    b = sample(dtype, (8,), seed=11)
    if f is b_power and dtype != "bool":
        b = (np.abs(b) % 4).astype(dtype)
        a = (a % 5).astype(dtype)
    with np.errstate(all="ignore"):
        compare(f, a, b, rtol=1e-14)


@pytest.mark.parametrize("f", BINARY, ids=fid(BINARY))
def test_binary_ufunc_broadcast_and_scalars(f):
    a = sample("float64", (3, 4)) / 5
    b = np.abs(sample("float64", (4,), seed=2)) / 5 + 0.5
    with np.errstate(all="ignore"):
        compare(f, a, b, rtol=RTOL)
        compare(f, b, 1.5, rtol=RTOL)
        compare(f, 2.0, a, rtol=RTOL)
        expected = f.py_func(1.5, -0.5)
        assert_value_same(f(1.5, -0.5), expected, rtol=RTOL)
        assert_value_same(f(7, 2), f.py_func(7, 2), rtol=RTOL)


@pytest.mark.parametrize("f", [b_minimum, b_maximum], ids=fid([b_minimum, b_maximum]))
def test_minimum_maximum_propagate_nan(f):
    a = np.array([np.nan, 1.0, np.nan, 2.0])
    b = np.array([1.0, np.nan, np.nan, 3.0])
    out = f(a, b)
    assert np.isnan(out[:3]).all()
    compare(f, a, b)
    assert np.isnan(f(np.nan, 1.0)) and np.isnan(f(1.0, np.nan))


@pytest.mark.parametrize("f", [b_fmin, b_fmax], ids=fid([b_fmin, b_fmax]))
def test_fmin_fmax_ignore_nan(f):
    a = np.array([np.nan, 1.0, np.nan, 2.0])
    b = np.array([1.0, np.nan, np.nan, 3.0])
    out = f(a, b)
    assert not np.isnan(out[:2]).any() and np.isnan(out[2])
    compare(f, a, b)
    assert f(np.nan, 1.0) == 1.0


def test_ufunc_on_0d_and_empty():
    compare(u_sqrt, np.array(4.0))
    compare(u_sqrt, np.zeros(0))
    compare(b_hypot, np.zeros((0, 3)), np.ones(3))
    compare(add, np.array(1.0), np.array(2.0))


def test_ufunc_result_dtypes():
    assert u_sqrt(np.arange(3, dtype=np.float32)).dtype == np.float32
    assert u_sqrt(np.arange(3, dtype=np.int16)).dtype == np.float32
    assert u_sqrt(np.arange(3, dtype=np.int32)).dtype == np.float64
    assert u_isnan(np.arange(3.0)).dtype == np.bool_
    assert u_abs(np.arange(3, dtype=np.int8)).dtype == np.int8
    assert u_abs(np.ones(2, np.complex64)).dtype == np.float32
    assert b_divide(np.arange(3), np.arange(1, 4)).dtype == np.float64
