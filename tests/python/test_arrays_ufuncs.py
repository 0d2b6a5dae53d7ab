"""Array expressions with broadcasting, comparisons, unary operators, and NumPy ufuncs on
scalars and arrays of every dtype.

Values are compared with NumPy's everywhere; result dtypes are checked where they are part of
the behaviour under test, and the integer-promotion rules have their own table-driven tests
(``test_result_dtype``) so that a dtype bug shows up once, precisely, and not in every value
test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from array_helpers import (
    ALL_DTYPES,
    FLOAT_DTYPES,
    INTEGER_DTYPES,
    assert_array_same,
    compare,
    layouts,
    sample,
)
from child_processes import child_environment, run_python

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import get_allocation_stats

RTOL = 1e-12


def xfail(reason):
    return pytest.mark.xfail(reason=reason, strict=True)


def rtol_for(*values):
    """Tolerance for results computed from ``values``: float32 / complex64 inputs give results
    good to about 1e-6 (different libm, fused operations); doubles to about 1e-14."""
    for v in values:
        dtype = np.asarray(v).dtype
        if dtype in (np.float32, np.complex64, np.float16):
            return 2e-6
    return 1e-14


def safe_operands(dtype, shape=(6,)):
    """Two arrays of ``dtype`` whose sum, difference, product and quotient fit in ``dtype``
    (no wraparound in NumPy: the values test arithmetic, not integer overflow)."""
    rng = np.random.default_rng(7)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return sample(dtype, shape), sample(dtype, shape, seed=1)
    if dtype.kind == "u":
        a = rng.integers(5, 12, shape)
        b = rng.integers(1, 5, shape)
    elif dtype.kind == "i":
        a = rng.integers(-11, 12, shape)
        b = rng.integers(1, 5, shape) * rng.choice([-1, 1], shape)
    else:
        a = rng.standard_normal(shape) * 10
        b = rng.standard_normal(shape) + 3
        if dtype.kind == "c":
            a = a + 1j * rng.standard_normal(shape)
            b = b - 2j * rng.standard_normal(shape)
    return a.astype(dtype), b.astype(dtype)


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


ARITH = [add, sub, mul, div, floordiv, mod]


def fid(functions):
    return [f.__name__ for f in functions]


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_arith_values_same_dtype(f, dtype):
    if dtype == "bool" and f is sub:
        pytest.skip("NumPy has no boolean subtract")
    if np.dtype(dtype).kind == "c" and f in (floordiv, mod):
        pytest.skip("NumPy has no complex floor division")
    a, b = safe_operands(dtype)
    if dtype == "bool" and f in (div, floordiv, mod):
        b = np.ones_like(b)
    with np.errstate(all="ignore"):
        compare(f, a, b, rtol=rtol_for(a))


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("int8", "int64"),
        ("int32", "float32"),
        ("uint8", "int8"),
        ("float32", "float64"),
        ("int64", "complex64"),
        ("uint32", "int64"),
        ("int16", "bool"),
        ("float32", "complex128"),
    ],
)
def test_arith_values_mixed_dtypes(f, left, right):
    if np.dtype(right).kind == "c" and f in (floordiv, mod):
        pytest.skip("NumPy has no complex floor division")
    a, _ = safe_operands(left)
    _, b = safe_operands(right)
    if right == "bool":
        b = np.ones_like(b)
    with np.errstate(all="ignore"):
        compare(f, a, b, rtol=rtol_for(a, b))


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
@pytest.mark.parametrize(
    ("dtype", "scalar"),
    [
        ("int8", 3),
        ("int8", -2),
        ("int64", 2.5),
        ("uint16", 3),
        ("uint16", True),
        ("float32", 2.5),
        ("float32", 3),
        ("float64", -2),
        ("float64", True),
    ],
)
def test_array_op_python_scalar_values(f, dtype, scalar):
    """Values as NumPy's; the dtype either NumPy 2's (the array's precision wins) or the one
    a 64-bit scalar would give (Numba's rule for Python ints and floats)."""
    a, _ = safe_operands(dtype, (5,))
    with np.errstate(all="ignore"):
        orders = [(a, scalar)]
        if not (dtype.startswith("uint") and f in (sub, floordiv, mod)):
            orders.append((scalar, a))
        for args in orders:
            result = compare(f, *args, rtol=rtol_for(a), check_dtype=False)
            numpy_dtype = f.py_func(*args).dtype
            strong = f.py_func(*[np.asarray(x) if x is scalar else x for x in args]).dtype
            assert result.dtype in (numpy_dtype, strong), (result.dtype, numpy_dtype, strong)


@pytest.mark.parametrize("f", [add, sub, mul, div], ids=fid([add, sub, mul, div]))
def test_array_op_complex_scalar_values(f):
    a, _ = safe_operands("float64", (5,))
    compare(f, a, 1 + 2j, rtol=RTOL)
    compare(f, 1 - 1j, a, rtol=RTOL)


@pytest.mark.parametrize("f", ARITH, ids=fid(ARITH))
def test_array_op_numpy_scalar_values(f):
    a, _ = safe_operands("int32", (4,))
    compare(f, a, np.float32(1.5), rtol=1e-6)
    compare(f, np.int8(3), a + 20)


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
    compare(add, a, b)
    compare(add, b, a)
    compare(mul, a, b)


@pytest.mark.parametrize("name_index", range(5))
def test_expression_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    _, b = layouts(sample("float64", (3, 4), seed=3))[(name_index + 2) % 5]
    compare(combined, a, b, a, rtol=RTOL)
    compare(nested_expression, a, b, rtol=RTOL)
    compare(polynomial, a, rtol=RTOL)


def test_expression_float32_stays_float32():
    a = sample("float32", (3, 4))
    b = sample("float32", (3, 4), seed=2)
    compare(add, a, b)
    compare(mul, a, b)
    compare(combined, a, b, a, rtol=2e-6)


def test_expression_1d_views():
    a = np.arange(10.0)
    compare(combined, a[::2], a[1::2], a[::-2], rtol=RTOL)
    compare(add, a[::-1], a)


def test_expression_result_is_new_array():
    a = np.ones(3)
    out = add(a, a)
    assert not np.shares_memory(out, a)
    assert_array_same(polynomial(a), np.full(3, 2.0))


@pytest.mark.parametrize(
    ("shape_a", "shape_b"), [((3,), (4,)), ((2, 3), (3, 2)), ((3, 4), (2, 1, 3))]
)
def test_broadcast_error_is_value_error(shape_a, shape_b):
    with pytest.raises(ValueError):
        add(np.zeros(shape_a), np.zeros(shape_b))
    with pytest.raises(ValueError):
        combined(np.zeros(shape_a), np.zeros(shape_b), np.zeros(shape_a))


def test_power_operator():
    a = np.array([1.0, 2.0, 0.5, -1.5, 0.0])
    compare(pow_, a, 2)
    with np.errstate(invalid="ignore"):
        compare(pow_, a, 0.5 * np.ones(5))
    compare(pow_, 2.0, a)
    compare(pow_, np.arange(6), np.array([0, 1, 2, 3, 2, 1]))
    compare(pow_, np.arange(4, dtype=np.int32), 3, check_dtype=False)


@pytest.mark.parametrize("f", [bitand, bitor, bitxor], ids=fid([bitand, bitor, bitxor]))
@pytest.mark.parametrize("dtype", ["bool", *INTEGER_DTYPES])
def test_bitwise_values(f, dtype):
    compare(f, sample(dtype, (6,)), sample(dtype, (6,), seed=7))


@pytest.mark.parametrize("f", [lshift, rshift], ids=fid([lshift, rshift]))
@pytest.mark.parametrize("dtype", ["int16", "int64", "uint8", "uint32"])
def test_shifts_values(f, dtype):
    a = (np.abs(sample(dtype, (6,))) % 16).astype(dtype)
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
        compare(div, a, b)  # true division of ints: inf / nan
        compare(floordiv, a, b)  # NumPy gives 0
        compare(mod, a, b)  # NumPy gives 0
        compare(div, a, 0)
        compare(floordiv, a, 0)


# ---------------------------------------------------------------------------------------------
# comparisons and unary operators


@njit
def comparisons(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b


@njit
def some_comparisons(a, b):
    return a < b, a == b, a >= b


@njit
def equalities(a, b):
    return a == b, a != b


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


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if not d.startswith("complex")])
def test_comparisons_each_dtype(dtype):
    a = sample(dtype, (8,))
    b = sample(dtype, (8,), seed=1)
    b[0] = a[0]
    compare(some_comparisons, a, b)
    if dtype in ("int64", "float64", "uint8"):
        compare(comparisons, a, b)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_equality(dtype):
    a = sample(dtype, (4,))
    b = a.copy()
    b[1] += 1
    compare(equalities, a, b)


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
def test_unary_minus_and_plus_values(dtype):
    a = sample(dtype, (6,))
    with np.errstate(all="ignore"):
        compare(negate, a)
    compare(positive, a)


@pytest.mark.parametrize("dtype", ["bool", *INTEGER_DTYPES])
def test_invert_values(dtype):
    compare(invert, sample(dtype, (6,)))


def test_invert_bool_is_logical_not():
    assert_array_same(invert(np.array([True, False])), np.array([False, True]))


def test_logical_combination():
    a = sample("int32", (3, 4))
    b = sample("int32", (3, 4), seed=5)
    compare(logical_combo, a, b)


# ---------------------------------------------------------------------------------------------
# integer promotion: the result dtype of array arithmetic (NumPy's rules, which Numba follows
# for arrays); NumPy's float16 results are float32 in Numba (taipan has no float16)


def arr(dtype, values=(1, 2, 3)):
    return np.array(values, dtype)


SCALAR_PROMOTION = (
    "BUG: float32 array + an int64 argument gives float64; NumPy 2 (Python int) and Numba "
    "(int64 scalar) both keep float32 (a literal int, a + 2, does keep float32)"
)

DTYPE_CASES = [
    # (id, function, arguments, NumPy's dtype, bug or None)
    ("int8+int8", add, (arr("i1"), arr("i1")), "int8", None),
    ("int16-int16", sub, (arr("i2"), arr("i2")), "int16", None),
    ("int32*int32", mul, (arr("i4"), arr("i4")), "int32", None),
    ("uint8+uint8", add, (arr("u1"), arr("u1")), "uint8", None),
    ("uint16//uint16", floordiv, (arr("u2"), arr("u2")), "uint16", None),
    ("uint32%uint32", mod, (arr("u4"), arr("u4")), "uint32", None),
    ("bool+bool", add, (arr("?", (1, 0, 1)), arr("?", (1, 1, 0))), "bool", None),
    ("bool*bool", mul, (arr("?", (1, 0, 1)), arr("?", (1, 1, 0))), "bool", None),
    ("uint8+int8", add, (arr("u1"), arr("i1")), "int16", None),
    ("bool+int16", add, (arr("?"), arr("i2")), "int16", None),
    ("uint64+int64", add, (arr("u8"), arr("i8")), "float64", None),
    ("int8&int8", bitand, (arr("i1"), arr("i1")), "int8", None),
    ("uint16|uint16", bitor, (arr("u2"), arr("u2")), "uint16", None),
    ("int8<<int8", lshift, (arr("i1"), arr("i1")), "int8", None),
    ("int8**int8", pow_, (arr("i1"), arr("i1")), "int8", None),
    ("-int8", negate, (arr("i1"),), "int8", None),
    ("-uint32", negate, (arr("u4"),), "uint32", None),
    ("+int16", positive, (arr("i2"),), "int16", None),
    ("~int16", invert, (arr("i2"),), "int16", None),
    ("~uint8", invert, (arr("u1"),), "uint8", None),
    ("np.minimum(int8)", "b_minimum", (arr("i1"), arr("i1")), "int8", None),
    ("np.multiply(int16)", "b_multiply", (arr("i2"), arr("i2")), "int16", None),
    ("np.sqrt(int16)", "u_sqrt", (arr("i2"),), "float32", None),
    ("np.sin(uint16)", "u_sin", (arr("u2"),), "float32", None),
    ("np.exp(int8)", "u_exp", (arr("i1"),), "float32", None),
    ("np.log(uint8)", "u_log", (arr("u1"),), "float32", None),
    ("np.sqrt(bool)", "u_sqrt", (arr("?"),), "float32", None),
    ("np.arctan2(int8)", "b_arctan2", (arr("i1"), arr("i1")), "float32", None),
    ("np.rint(int16)", "u_rint", (arr("i2"),), "float32", None),
    ("np.floor(int32)", "u_floor", (arr("i4"),), "int32", None),
    ("np.ceil(int64)", "u_ceil", (arr("i8"),), "int64", None),
    ("np.trunc(uint8)", "u_trunc", (arr("u1"),), "uint8", None),
    ("np.floor(bool)", "u_floor", (arr("?"),), "bool", None),
    ("np.floor(int-scalar)", "u_floor", (3,), "int64", None),
    ("np.fabs(bool)", "u_fabs", (arr("?"),), "float32", None),
    ("uint16+True", add, (arr("u2"), True), "uint16", None),
    ("np.int8(3)+int32", add, (np.int8(3), arr("i4")), "int32", None),
    ("float32+2", add, (arr("f4"), 2), "float32", SCALAR_PROMOTION),
    # the ones taipan gets right
    ("int64+int64", add, (arr("i8"), arr("i8")), "int64", None),
    ("uint64*uint64", mul, (arr("u8"), arr("u8")), "uint64", None),
    ("int32+float32", add, (arr("i4"), arr("f4")), "float64", None),
    ("float32+float32", add, (arr("f4"), arr("f4")), "float32", None),
    ("float32/float32", div, (arr("f4"), arr("f4")), "float32", None),
    ("int8/int8", div, (arr("i1"), arr("i1")), "float64", None),
    ("int64/int64", div, (arr("i8"), arr("i8")), "float64", None),
    ("complex64*complex64", mul, (arr("c8"), arr("c8")), "complex64", None),
    ("float32*complex64", mul, (arr("f4"), arr("c8")), "complex64", None),
    ("int8+float64", add, (arr("i1"), arr("f8")), "float64", None),
    ("int64+2.5", add, (arr("i8"), 2.5), "float64", None),
    ("int32+np.float32", add, (arr("i4"), np.float32(1.5)), "float64", None),
    ("-float32", negate, (arr("f4"),), "float32", None),
    ("~bool", invert, (arr("?"),), "bool", None),
    ("np.sqrt(int32)", "u_sqrt", (arr("i4"),), "float64", None),
    ("np.sqrt(uint64)", "u_sqrt", (arr("u8"),), "float64", None),
    ("np.sqrt(float32)", "u_sqrt", (arr("f4"),), "float32", None),
    ("np.abs(int8)", "u_abs", (arr("i1"),), "int8", None),
    ("np.abs(complex64)", "u_abs", (arr("c8"),), "float32", None),
    ("np.sign(uint16)", "u_sign", (arr("u2"),), "uint16", None),
    ("np.square(int16)", "u_square", (arr("i2"),), "int16", None),
    ("np.isnan(int8)", "u_isnan", (arr("i1"),), "bool", None),
    ("np.isfinite(float32)", "u_isfinite", (arr("f4"),), "bool", None),
    ("np.floor(float32)", "u_floor", (arr("f4"),), "float32", None),
    ("np.fabs(int32)", "u_fabs", (arr("i4"),), "float64", None),
    ("np.hypot(float32)", "b_hypot", (arr("f4"), arr("f4")), "float32", None),
    ("np.maximum(uint64)", "b_maximum", (arr("u8"), arr("u8")), "uint64", None),
    ("int8<int8", "lt", (arr("i1"), arr("i1")), "bool", None),
]


@njit
def lt(a, b):
    return a < b


@pytest.mark.parametrize(
    ("f", "args", "expected"),
    [
        pytest.param(f, args, expected, id=name, marks=[xfail(bug)] if bug else [])
        for name, f, args, expected, bug in DTYPE_CASES
    ],
)
def test_result_dtype(f, args, expected):
    if isinstance(f, str):
        f = globals()[f]
    with np.errstate(all="ignore"):
        result = f(*args)
        reference = f.py_func(*args)
    result = np.asarray(result)
    assert result.dtype == np.dtype(expected), f"dtype {result.dtype}, expected {expected}"
    np.testing.assert_allclose(
        result.astype(np.complex128), np.asarray(reference).astype(np.complex128), rtol=1e-3
    )


@pytest.mark.parametrize(
    ("f", "args", "dtypes"),
    [
        (add, (arr("f4"), 2.5), ("float32", "float64")),
        (add, (arr("i1"), 2), ("int8", "int64")),
        (add, (arr("f4"), 1j), ("complex64", "complex128")),
    ],
    ids=["float32+2.5", "int8+2", "float32+1j"],
)
def test_result_dtype_with_python_scalar(f, args, dtypes):
    """Python floats / ints / complex with an array: NumPy 2 keeps the array's precision,
    Numba uses the 64-bit type of the scalar; either is accepted."""
    result = f(*args)
    assert result.dtype in [np.dtype(d) for d in dtypes]


@pytest.mark.parametrize(
    ("f", "args", "expected"),
    [
        (add, (arr("?", (1, 1, 0)), arr("?", (1, 0, 0))), np.array([True, True, False])),
        (add, (arr("i1", (100, -100)), arr("i1", (100, -100))), np.array([-56, 56], np.int8)),
        (sub, (arr("u1", (1, 0)), arr("u1", (2, 1))), np.array([255, 255], np.uint8)),
        (mul, (arr("u4", (3,)), arr("u4", (2**31,))), np.array([2**31], np.uint32)),
        (negate, (arr("u1", (1, 0)),), np.array([255, 0], np.uint8)),
        (invert, (arr("u1", (1, 0)),), np.array([254, 255], np.uint8)),
        (invert, (arr("u2", (1,)),), np.array([65534], np.uint16)),
    ],
    ids=["bool+bool", "int8-overflow", "uint8-wrap", "uint32-wrap", "-uint8", "~uint8", "~uint16"],
)
def test_small_integer_array_values_wrap_like_numpy(f, args, expected):
    with np.errstate(all="ignore"):
        assert_array_same(f.py_func(*args), expected)
    assert_array_same(f(*args), expected)


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
UNARY = FLOAT_UNARY + ANY_UNARY + REAL_UNARY
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


def float_reference(f, *args):
    """NumPy's result, computed in float64 where NumPy would compute in float16 / float32 from
    small integers (taipan and Numba use wider types there; see test_result_dtype)."""
    widened = []
    for a in args:
        a = np.asarray(a)
        widened.append(a.astype(np.float64) if a.dtype.kind in "biu" else a)
    return f.py_func(*widened)


def check_values(f, *args, rtol):
    """Compiled result equals NumPy's in value (dtype not checked)."""
    with np.errstate(all="ignore"):
        actual = f(*args)
        expected = f.py_func(*args)
        if np.asarray(expected).dtype in (np.float16, np.float32) and all(
            np.asarray(a).dtype.kind in "biu" for a in args
        ):
            expected = float_reference(f, *args)
            rtol = max(rtol, 1e-6)
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    if expected.dtype.kind in "fc" or actual.dtype.kind in "fc":
        np.testing.assert_allclose(
            actual.astype(np.complex128),
            expected.astype(np.complex128),
            rtol=rtol,
            atol=0,
            equal_nan=True,
        )
        # signed zeros and infinities must agree exactly (the sign of a NaN is not checked)
        exact = (expected.real == 0) | np.isinf(expected.real)
        assert (np.signbit(actual.real) == np.signbit(expected.real))[exact].all(), (
            f"{actual!r} vs {expected!r}"
        )
    else:
        assert np.array_equal(actual, expected), f"{actual!r} vs {expected!r}"


@pytest.mark.parametrize("f", UNARY, ids=fid(UNARY))
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_unary_ufunc_float_arrays(f, dtype):
    a = SPECIALS.astype(dtype)
    with np.errstate(all="ignore"):
        compare(f, a, rtol=rtol_for(a))
        if dtype == "float64":
            compare(f, a.reshape(2, 7)[:, ::-2], rtol=rtol_for(a))


@pytest.mark.parametrize("f", UNARY, ids=fid(UNARY))
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64"])
def test_unary_ufunc_integer_arrays(f, dtype):
    if dtype == "bool" and f in (u_negative, u_sign):
        pytest.skip("NumPy has no bool loop")
    a = sample(dtype, (10,))
    if f is u_negative and dtype.startswith("uint") and dtype != "uint64":
        a = np.zeros_like(a)  # wraparound of small unsigned ints is tested elsewhere
    check_values(f, a, rtol=1e-14)


def complex_params():
    params = []
    for dtype in ("complex64", "complex128"):
        for f in FLOAT_UNARY + ANY_UNARY:
            params.append(pytest.param(f, dtype, id=f"{dtype}-{f.__name__}"))
    return params


@pytest.mark.parametrize(("f", "dtype"), complex_params())
def test_unary_ufunc_complex_arrays(f, dtype):
    a = (sample("float64", (6,)) / 10 + 1j * sample("float64", (6,), seed=3) / 10).astype(dtype)
    with np.errstate(all="ignore"):
        compare(f, a, rtol=rtol_for(a))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sign_is_numpy_or_typing_error(dtype):
    from taipan.errors import TypingError

    a = np.array([1 + 1j, -2 + 0j, 0j, 3j], dtype)
    try:
        result = u_sign(a)
    except TypingError:
        return
    assert_array_same(result, np.sign(a))


def test_complex64_scalar_ufunc():
    z = np.complex64(1 + 1j)
    check_values(u_exp, z, rtol=2e-6)
    check_values(u_sqrt, z, rtol=2e-6)


def test_complex128_scalar_ufunc():
    for f in (u_exp, u_sqrt, u_log, u_sin, u_abs, u_tanh):
        check_values(f, 1 + 1j, rtol=1e-14)


@pytest.mark.parametrize("f", UNARY, ids=fid(UNARY))
@pytest.mark.parametrize(
    "x",
    [0.5, -2.0, 3, 0, np.float32(1.5), np.int16(-4), True, math.nan, -math.inf],
    ids=["f", "negf", "i", "zero", "f32", "i16", "bool", "nan", "neginf"],
)
def test_unary_ufunc_scalars(f, x):
    if isinstance(x, bool) and f in (u_negative, u_sign):
        pytest.skip("NumPy has no bool loop")
    check_values(f, x, rtol=rtol_for(x))
    result = f(x)
    assert not isinstance(result, np.ndarray), f"a scalar gives a scalar, not {result!r}"


@pytest.mark.parametrize("f", BINARY, ids=fid(BINARY))
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_binary_ufunc_float_arrays(f, dtype):
    a = SPECIALS.astype(dtype)
    grid_a = np.repeat(a, a.size)
    grid_b = np.tile(a, a.size)
    with np.errstate(all="ignore"):
        compare(f, grid_a, grid_b, rtol=rtol_for(a))


@pytest.mark.parametrize("f", BINARY, ids=fid(BINARY))
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "uint64"])
def test_binary_ufunc_integer_arrays(f, dtype):
    if dtype == "bool" and f in (b_subtract, b_floor_divide, b_mod, b_power, b_add):
        pytest.skip("NumPy has no such bool loop (or it is logical; tested elsewhere)")
    a, b = safe_operands(dtype, (8,))
    if f is b_power and dtype != "bool":
        b = (np.abs(b) % 4).astype(dtype)
    if f is b_subtract and dtype.startswith("u"):
        a = a + b  # no wraparound
    check_values(f, a, b, rtol=1e-14)


@pytest.mark.parametrize("f", BINARY, ids=fid(BINARY))
def test_binary_ufunc_broadcast_and_scalars(f):
    a = sample("float64", (3, 4)) / 5
    b = np.abs(sample("float64", (4,), seed=2)) / 5 + 0.5
    with np.errstate(all="ignore"):
        compare(f, a, b, rtol=RTOL)
        compare(f, b, 1.5, rtol=RTOL)
        compare(f, 2.0, a, rtol=RTOL)
    check_values(f, 1.5, -0.5, rtol=RTOL)
    check_values(f, 7, 2, rtol=RTOL)
    check_values(f, -7.5, 2, rtol=RTOL)


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


@pytest.mark.parametrize("name_index", range(5))
def test_ufunc_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    _, b = layouts(sample("float64", (3, 4), seed=8))[(name_index + 1) % 5]
    compare(u_sin, a, rtol=RTOL)
    compare(b_arctan2, a, b, rtol=RTOL)
    compare(b_maximum, a, b)


# ---------------------------------------------------------------------------------------------
# ufuncs as library entries: fusion, overloads, loops NumPy does not have


@njit
def fused_sin_expression(a, b, c):
    return a * np.sin(b) + np.maximum(c, 0.0)


def test_ufunc_calls_fuse_into_one_loop_allocating_only_the_result():
    a, b, c = (sample("float64", (50,), seed=s) for s in (1, 2, 3))
    compare(fused_sin_expression, a, b, c, rtol=RTOL)
    before = get_allocation_stats()
    result = fused_sin_expression(a, b, c)
    after = get_allocation_stats()
    assert after.alloc - before.alloc == 1, "one array: the result, no temporaries"
    del result


DECLINED_OVERLOAD_PROGRAM = """
import math
import numpy as np
from taipan import njit, types
from taipan.extending import overload

@overload(np.cos)
def cos_of_tuples(x):
    if isinstance(x, types.UniTuple):
        return lambda x: x[0]
    return None

@njit
def f(a, b):
    return a * np.cos(b) + 1.0

a = np.linspace(-2.0, 2.0, 5)
assert np.allclose(f(a, a), a * np.cos(a) + 1.0, rtol=1e-12, atol=0)
assert math.isclose(f(2.0, 0.5), 2.0 * math.cos(0.5) + 1.0, rel_tol=1e-12)
print("ok")
"""


def test_ufunc_whose_overloads_all_decline_is_taipans_on_arrays_and_scalars(tmp_path):
    """In a process of its own: the overload of np.cos would stay registered."""
    program = tmp_path / "declined_overload.py"
    program.write_text(DECLINED_OVERLOAD_PROGRAM)
    result = run_python([program], env=child_environment())
    assert result.stdout.strip() == "ok", result.stderr


@njit
def clip_by_keyword(a):
    return np.clip(a, a_min=-1.0, a_max=1.0)


def test_clip_takes_its_bounds_by_keyword():
    a = sample("float64", (7,))
    assert_array_same(clip_by_keyword(a), np.clip(a, -1.0, 1.0))


@njit
def b_fmod(x, y):
    return np.fmod(x, y)


@njit
def t_clip(x, low, high):
    return np.clip(x, low, high)


@pytest.mark.parametrize(
    ("f", "arity"),
    [
        (u_fabs, 1),
        (u_floor, 1),
        (u_trunc, 1),
        (b_mod, 2),
        (b_floor_divide, 2),
        (b_fmod, 2),
        (t_clip, 3),
    ],
    ids=lambda value: getattr(value, "__name__", str(value)),
)
def test_ufuncs_without_a_complex_loop_reject_complex_at_typing(f, arity):
    """These once crashed or computed garbage on complex operands."""
    z = np.array([1 + 2j, -3 + 0.5j])
    for operand in (z, z[0]):
        with pytest.raises(TypingError, match="no implementation of numpy"):
            f(*([operand] * arity))
