"""Builtins (abs, min, max, round, int, float, bool, complex, divmod, pow, len) and the
``math`` and ``cmath`` modules, compared with CPython.

Floats from transcendental functions are compared within a few units in the last place
(ulps), as libm and CPython may round differently; exact operations are compared bitwise.
Where CPython raises ValueError or OverflowError for a domain or range error (math.sqrt(-1),
math.log(0), math.exp(1000)), Numba returns C's nan or inf instead of raising; taipan may do
either, and these tests accept CPython's exception (same type and message) or C's value.
"""

from __future__ import annotations

import cmath
import itertools
import math

import numpy as np
import pytest
from conftest import assert_same, run, same

from taipan import njit

INF = math.inf
NAN = math.nan

FLOATS = [
    0.0,
    -0.0,
    0.5,
    -0.5,
    1.0,
    -1.0,
    1.5,
    2.0,
    -2.5,
    3.0,
    0.1,
    0.7,
    -0.9,
    10.0,
    100.5,
    1e-10,
    -1e-10,
    1e-300,
    5e-324,
    1e10,
    1e300,
    -1e300,
    math.pi,
    -math.e,
    INF,
    -INF,
    NAN,
]


def check(f, *args, ulps=0, rel=0.0, c_value=None):
    """Compare with CPython (within ``ulps``, or relative error ``rel``).

    Where CPython raises ValueError/OverflowError (a domain or range error), accept the same
    exception or C's result: ``c_value(*args)`` when given, else any nan or inf.
    """
    expected, expected_error = run(f.py_func, *args)
    if isinstance(expected_error, (ValueError, OverflowError, ZeroDivisionError)):
        actual, actual_error = run(f, *args)
        if actual_error is not None:
            assert type(actual_error) is type(expected_error), (f.__name__, args, actual_error)
            assert str(actual_error) == str(expected_error), (f.__name__, args, actual_error)
        elif c_value is not None:
            with np.errstate(all="ignore"):
                wanted = c_value(*args)
            assert same(actual, wanted, ulps=ulps, strict_type=False), (
                f.__name__,
                args,
                actual,
                wanted,
            )
        else:
            values = actual if isinstance(actual, tuple) else (actual,)
            assert any(
                isinstance(v, float)
                and not math.isfinite(v)
                or isinstance(v, complex)
                and not cmath.isfinite(v)
                for v in values
            ), (f.__name__, args, actual)
        return
    if rel and isinstance(expected, float) and math.isfinite(expected):
        actual = f(*args)
        assert isinstance(actual, float)
        assert math.isclose(actual, expected, rel_tol=rel, abs_tol=0.0), (
            f"{f.__name__}{args!r}: CPython {expected!r}, taipan {actual!r}"
        )
        return
    assert_same(f, *args, ulps=ulps)


# ---------------------------------------------------------------------------------------------
# builtins


@njit
def absolute(x):
    return abs(x)


@njit
def min2(a, b):
    return min(a, b)


@njit
def max2(a, b):
    return max(a, b)


@njit
def min3(a, b, c):
    return min(a, b, c), max(a, b, c)


@njit
def minmax_tuple(t):
    return min(t), max(t)


@njit
def round1(x):
    return round(x)


@njit
def round2(x, n):
    return round(x, n)


@njit
def to_int(x):
    return int(x)


@njit
def to_float(x):
    return float(x)


@njit
def to_bool(x):
    return bool(x)


@njit
def to_complex1(x):
    return complex(x)


@njit
def to_complex2(x, y):
    return complex(x, y)


@njit
def divmod_(a, b):
    return divmod(a, b)


@njit
def pow2(a, b):
    return pow(a, b)


@njit
def pow3(a, b, m):
    return pow(a, b, m)


@njit
def length(t):
    return len(t)


@njit
def no_arg_constructors():
    return int(), float(), bool(), complex()  # noqa: UP018 - the calls are what is tested


@pytest.mark.parametrize(
    "x",
    [
        0,
        5,
        -5,
        2**62,
        0.0,
        -0.0,
        -2.5,
        INF,
        -INF,
        NAN,
        True,
        False,
        3 + 4j,
        -3 - 4j,
        complex(INF, NAN),
        1e300 + 1e300j,
    ],
)
def test_abs(x):
    assert_same(absolute, x)


def test_abs_int64_min():
    # wraps like every int64 overflow in Numba: abs(-2**63) == -2**63
    assert absolute(-(2**63)) == -(2**63)


def test_abs_numpy_scalars():
    assert absolute(np.float32(-1.5)) == 1.5
    assert absolute(np.int8(-5)) == 5
    assert absolute(np.complex64(3 + 4j)) == 5.0


@pytest.mark.parametrize(
    "a, b",
    list(itertools.product([-1, 0, 3, -0.0, 0.0, 2.5, INF], [-1, 0, 3, 0.0, -0.0, -2.5, -INF])),
)
def test_min_max_two(a, b):
    # CPython returns the first of equal arguments (min(0.0, -0.0) is 0.0)
    assert_same(min2, a, b, strict_type=type(a) is type(b))
    assert_same(max2, a, b, strict_type=type(a) is type(b))


def test_min_max_nan():
    # CPython: min(nan, 1.0) is nan and min(1.0, nan) is 1.0 (nan comparisons are False)
    for a, b in [(NAN, 1.0), (1.0, NAN), (NAN, NAN)]:
        assert_same(min2, a, b)
        assert_same(max2, a, b)


@pytest.mark.parametrize("a, b, c", list(itertools.product([1, -2, 3], repeat=3)))
def test_min_max_three(a, b, c):
    assert_same(min3, a, b, c)


def test_min_max_three_floats():
    assert_same(min3, 1.5, -2.5, 0.25)
    assert_same(min3, 1.5, 1.5, 1.5)


def test_min_max_tuple():
    assert_same(minmax_tuple, (3, 1, 2))
    assert_same(minmax_tuple, (3.5, -1.0, 2.0, 8.25))
    assert_same(minmax_tuple, (7,))


@pytest.mark.parametrize(
    "x",
    [
        0.0,
        -0.0,
        0.5,
        1.5,
        2.5,
        3.5,
        -0.5,
        -1.5,
        -2.5,
        0.49999999999999994,
        2.4999999,
        2.5000001,
        1e15 + 0.5,
        4503599627370497.0,
        -7.7,
        1e18,
    ],
)
def test_round_one_arg_ties_to_even(x):
    assert_same(round1, x)


def test_round_int():
    assert_same(round1, 7)
    assert_same(round1, -7)
    assert_same(round2, 1234, 2)


@pytest.mark.parametrize(
    "x",
    [
        0.0,
        -0.0,
        0.125,
        0.375,
        0.5,
        1.5,
        2.5,
        -2.5,
        1234.5678,
        -1234.5678,
        0.285,
        1.005,
        123456789.125,
        3.14159265358979,
        1e-5,
        0.1 + 0.2,
    ],
)
@pytest.mark.parametrize("n", [0, 1, 2, 3, -1, -2, 5])
def test_round_ndigits(x, n):
    assert_same(round2, x, n)


def test_round_ndigits_special():
    for x in [INF, -INF, NAN]:
        for n in (0, 2, -2):
            assert_same(round2, x, n)
    assert_same(round2, 1e300, 2)
    assert_same(round2, 1e300, -300)
    assert_same(round2, 5e-324, 400)
    assert_same(round2, 123.456, 400)
    assert_same(round2, 1e300, -300)


@pytest.mark.parametrize("x, n", [(2.675, 2), (1e300, 5)])
def test_round_ndigits_correctly_rounded(x, n):
    # CPython rounds the exact binary value: round(2.675, 2) == 2.67 (2.675 is 2.67499999...)
    assert_same(round2, x, n)


def test_round_huge_negative_ndigits():
    assert_same(round2, 123.456, -400)
    assert_same(round2, -123.456, -309)


def test_round_non_finite_one_arg():
    # CPython raises OverflowError / ValueError; Numba returns an arbitrary int. Only check that
    # taipan does not crash and, if it raises, raises CPython's exception.
    for x in (INF, -INF, NAN):
        actual, error = run(round1, x)
        _, expected_error = run(round1.py_func, x)
        if error is not None:
            assert type(error) is type(expected_error)
        else:
            assert isinstance(actual, int)


@pytest.mark.parametrize(
    "x", [0.0, -0.0, 0.9, -0.9, 1.5, -1.5, 2**52 + 0.5, 1e18, -1e18, 7, -7, True, False]
)
def test_int_conversion(x):
    assert_same(to_int, x)


@pytest.mark.parametrize(
    "x", [0, 1, -1, 2**53 + 1, -(2**63), 2**63 - 1, 0.5, -0.0, INF, NAN, True, False]
)
def test_float_conversion(x):
    assert_same(to_float, x)


@pytest.mark.parametrize(
    "x", [0, 1, -1, 0.0, -0.0, 0.5, NAN, INF, True, False, 0j, 1j, complex(0, -0.0)]
)
def test_bool_conversion(x):
    assert_same(to_bool, x)


@pytest.mark.parametrize("x", [0, 1, -1, 0.5, -0.0, NAN, INF, True, 1 + 2j])
def test_complex_conversion(x):
    assert_same(to_complex1, x)


@pytest.mark.parametrize("x, y", [(0, 0), (1, 2), (0.5, -0.5), (-0.0, 0.0), (INF, NAN), (1, 2.5)])
def test_complex_two_args(x, y):
    assert_same(to_complex2, x, y)


def test_no_arg_constructors():
    assert_same(no_arg_constructors)


def test_numpy_scalar_conversions():
    assert to_float(np.float32(0.1)) == float(np.float32(0.1))
    assert to_int(np.float32(-2.75)) == -2
    assert to_int(np.uint8(200)) == 200
    assert to_bool(np.float64(0.0)) is False


@pytest.mark.parametrize("a, b", list(itertools.product([7, -7, 0, 13, -1], [2, -2, 3, -5, 1])))
def test_divmod_int(a, b):
    assert_same(divmod_, a, b)


@pytest.mark.parametrize(
    "a, b",
    list(
        itertools.product([7.5, -7.5, 0.0, -0.0, 1e300, INF, NAN], [2.0, -2.0, 0.1, INF, -INF, NAN])
    ),
)
def test_divmod_float(a, b):
    assert_same(divmod_, a, b)


def test_divmod_zero():
    # taipan follows Numba's messages: "integer divmod by zero" for ints
    with pytest.raises(ZeroDivisionError):
        divmod_(1, 0)
    with pytest.raises(ZeroDivisionError):
        divmod_(1.0, 0.0)


@pytest.mark.parametrize(
    "a, b",
    [
        (2, 10),
        (-3, 3),
        (2.0, 0.5),
        (2.0, -2.0),
        (-8.0, 3.0),
        (2, 0.5),
        (1.5, 2),
        (0, 0),
        (10, 18),
        (1 + 1j, 0.5 + 0j),
    ],
)
def test_pow_two_args(a, b):
    assert_same(pow2, a, b, ulps=1)


@pytest.mark.parametrize("a, b", [(1j, 2 + 0j), (1 + 1j, 3 + 0j), (2j, 4 + 0j), (1j, -1 + 0j)])
def test_complex_pow_integral_exponent(a, b):
    assert_same(pow2, a, b)


@pytest.mark.parametrize(
    "a, b, m",
    [
        (3, 4, 5),
        (2, 100, 1000000007),
        (-3, 3, 5),
        (3, 3, -5),
        (-3, 3, -5),
        (0, 0, 7),
        (7, 0, 1),
        (123456789, 987654321, 97),
        (2**62, 2**62, 2**61 + 1),
        (5, 1, 3),
        (10, 10, 10),
    ],
)
def test_pow_three_args(a, b, m):
    assert_same(pow3, a, b, m)


def test_pow_three_args_errors():
    # CPython: ValueError("pow() 3rd argument cannot be 0")
    assert_same(pow3, 3, 4, 0, check_message=False)


def test_pow_three_args_negative_exponent():
    # CPython 3.8+ computes the modular inverse; anything else must at least raise ValueError
    actual, error = run(pow3, 3, -1, 7)
    if error is None:
        assert actual == pow(3, -1, 7)
    else:
        assert isinstance(error, ValueError)


def test_sum_of_tuple():
    @njit
    def f(t):
        return sum(t)

    assert_same(f, (1, 2, 3))
    assert_same(f, (0.5, 0.25))


def test_min_max_mixed_int_float():
    # Numba unifies the arguments to float64 (CPython returns the argument itself, an int)
    assert min2(1, 2.5) == 1 and max2(1, 0.5) == 1
    assert min2(3, 2.5) == 2.5 and max2(3, 2.5) == 3


@pytest.mark.parametrize("x", [1, -1, 0, 2**61, -(2**63), 1.5, -0.0, math.inf, 1e300, 1 + 2j, True])
def test_hash(x):
    @njit
    def f(x):
        return hash(x)

    assert_same(f, x)


def test_len():
    assert_same(length, (1, 2, 3))
    assert_same(length, (1, 2.5))
    assert_same(length, ())


# ---------------------------------------------------------------------------------------------
# math: one argument


@njit
def m_sqrt(x):
    return math.sqrt(x)


@njit
def m_exp(x):
    return math.exp(x)


@njit
def m_log(x):
    return math.log(x)


@njit
def m_log_base(x, b):
    return math.log(x, b)


@njit
def m_log2(x):
    return math.log2(x)


@njit
def m_log10(x):
    return math.log10(x)


@njit
def m_log1p(x):
    return math.log1p(x)


@njit
def m_expm1(x):
    return math.expm1(x)


@njit
def m_sin(x):
    return math.sin(x)


@njit
def m_cos(x):
    return math.cos(x)


@njit
def m_tan(x):
    return math.tan(x)


@njit
def m_asin(x):
    return math.asin(x)


@njit
def m_acos(x):
    return math.acos(x)


@njit
def m_atan(x):
    return math.atan(x)


@njit
def m_sinh(x):
    return math.sinh(x)


@njit
def m_cosh(x):
    return math.cosh(x)


@njit
def m_tanh(x):
    return math.tanh(x)


@njit
def m_asinh(x):
    return math.asinh(x)


@njit
def m_acosh(x):
    return math.acosh(x)


@njit
def m_atanh(x):
    return math.atanh(x)


@njit
def m_fabs(x):
    return math.fabs(x)


@njit
def m_floor(x):
    return math.floor(x)


@njit
def m_ceil(x):
    return math.ceil(x)


@njit
def m_trunc(x):
    return math.trunc(x)


@njit
def m_isnan(x):
    return math.isnan(x)


@njit
def m_isinf(x):
    return math.isinf(x)


@njit
def m_isfinite(x):
    return math.isfinite(x)


@njit
def m_erf(x):
    return math.erf(x)


@njit
def m_erfc(x):
    return math.erfc(x)


@njit
def m_gamma(x):
    return math.gamma(x)


@njit
def m_lgamma(x):
    return math.lgamma(x)


@njit
def m_radians(x):
    return math.radians(x)


@njit
def m_degrees(x):
    return math.degrees(x)


@njit
def m_frexp(x):
    return math.frexp(x)


# name -> (function, ulps); gamma and lgamma are compared with a relative tolerance instead,
# as CPython has its own implementation (a few 1e-15 off), and taipan calls libm
REL = {"gamma": 1e-13, "lgamma": 1e-13}

UNARY = {
    "sqrt": (m_sqrt, 0),
    "exp": (m_exp, 1),
    "log": (m_log, 1),
    "log2": (m_log2, 1),
    "log10": (m_log10, 1),
    "log1p": (m_log1p, 1),
    "expm1": (m_expm1, 1),
    "sin": (m_sin, 1),
    "cos": (m_cos, 1),
    "tan": (m_tan, 1),
    "asin": (m_asin, 1),
    "acos": (m_acos, 1),
    "atan": (m_atan, 1),
    "sinh": (m_sinh, 1),
    "cosh": (m_cosh, 1),
    "tanh": (m_tanh, 1),
    "asinh": (m_asinh, 1),
    "acosh": (m_acosh, 1),
    "atanh": (m_atanh, 1),
    "fabs": (m_fabs, 0),
    "erf": (m_erf, 2),
    "erfc": (m_erfc, 4),
    "gamma": (m_gamma, 8),
    "lgamma": (m_lgamma, 8),
    "radians": (m_radians, 0),
    "degrees": (m_degrees, 0),
    "frexp": (m_frexp, 0),
}


@pytest.mark.parametrize("name", list(UNARY))
@pytest.mark.parametrize("x", FLOATS)
def test_math_unary(name, x):
    f, ulps = UNARY[name]
    check(f, x, ulps=ulps, rel=REL.get(name, 0.0))


@pytest.mark.parametrize(
    "name",
    [
        "sqrt",
        "exp",
        "log",
        "sin",
        "cos",
        "atan",
        "tanh",
        "fabs",
        "erf",
        "gamma",
        "radians",
        "frexp",
    ],
)
@pytest.mark.parametrize("x", [0, 1, -1, 2, 10, 2**53 + 1, True])
def test_math_unary_int_argument(name, x):
    f, ulps = UNARY[name]
    check(f, x, ulps=ulps, rel=REL.get(name, 0.0))


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "tanh", "fabs"])
def test_math_unary_float32(name):
    f, _ = UNARY[name]
    x = np.float32(0.7)
    # Numba computes math functions of a float32 in single precision (sqrtf, expf, ...); the
    # result is boxed as a Python float holding a float32 value, within one float32 ulp of
    # the correctly rounded float32 result
    result = f(x)
    assert type(result) is float
    assert float(np.float32(result)) == result
    wanted = np.float32(getattr(math, name)(float(x)))
    assert abs(np.float32(result) - wanted) <= abs(np.spacing(wanted))


def test_math_unary_float32_return_type():
    @njit
    def f(x):
        return math.sqrt(x), math.log(x), math.fabs(x), math.sin(x)

    f(np.float32(0.5))
    assert str(f.nopython_signatures[0].return_type) == "UniTuple(float32 x 4)"


@pytest.mark.parametrize(
    "x",
    [
        0.5,
        1.0,
        2.0,
        3.0,
        4.5,
        10.0,
        20.0,
        170.5,
        171.0,
        172.0,
        -0.5,
        -1.5,
        -2.5,
        1e-10,
        -1e-10,
        0.0,
        -0.0,
        -1.0,
        -2.0,
    ],
)
def test_gamma_lgamma(x):
    check(m_gamma, x, rel=1e-13)
    check(m_lgamma, x, rel=1e-13)


@pytest.mark.parametrize("x", [-6.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, 27.0, 30.0])
def test_erf_erfc(x):
    check(m_erf, x, ulps=2)
    check(m_erfc, x, ulps=4)


@pytest.mark.parametrize(
    "x",
    [
        0.0,
        -0.0,
        0.4,
        0.5,
        0.6,
        1.0,
        -1.0,
        -1.5,
        1.5,
        1e300,
        -1e300,
        2.0**52 + 0.5,
        -(2.0**52) - 0.5,
        1e18,
        -1e18,
        5e-324,
    ],
)
def test_floor_ceil_trunc(x):
    # Numba: the results are int64, so only values that fit are compared
    if abs(x) < 9e18:
        assert_same(m_floor, x)
        assert_same(m_ceil, x)
        assert_same(m_trunc, x)


@pytest.mark.parametrize("x", [0, 7, -7, 2**62, True])
def test_floor_ceil_trunc_int(x):
    assert_same(m_floor, x)
    assert_same(m_ceil, x)
    assert_same(m_trunc, x)


def test_floor_ceil_non_finite():
    # CPython: OverflowError / ValueError; Numba returns an arbitrary int64.  Accept CPython's
    # exception or any int, never a crash.
    for f in (m_floor, m_ceil, m_trunc):
        for x in (INF, -INF, NAN):
            actual, error = run(f, x)
            _, expected_error = run(f.py_func, x)
            if error is not None:
                assert type(error) is type(expected_error)
            else:
                assert isinstance(actual, int)


@pytest.mark.parametrize("x", [0.0, -0.0, 1.0, -INF, INF, NAN, 5e-324, 1e308, 0, 3, -(2**63)])
def test_classification(x):
    assert_same(m_isnan, x)
    assert_same(m_isinf, x)
    assert_same(m_isfinite, x)


def test_frexp_values():
    for x in [0.0, -0.0, 1.0, 0.5, 3.0, -3.0, 5e-324, 1.7976931348623157e308, 1e-310]:
        assert_same(m_frexp, x)


# ---------------------------------------------------------------------------------------------
# math: two arguments


@njit
def m_atan2(y, x):
    return math.atan2(y, x)


@njit
def m_hypot(x, y):
    return math.hypot(x, y)


@njit
def m_pow(x, y):
    return math.pow(x, y)


@njit
def m_copysign(x, y):
    return math.copysign(x, y)


@njit
def m_fmod(x, y):
    return math.fmod(x, y)


@njit
def m_ldexp(x, i):
    return math.ldexp(x, i)


@njit
def m_gcd(a, b):
    return math.gcd(a, b)


BINARY_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e300, 1e-300, INF, -INF, NAN]

# math.log(x, base) (which Numba lacks) where CPython raises: log(x) / log(base) in C
C_VALUES = {"log_base": lambda x, b: float(np.log(np.float64(x)) / np.log(np.float64(b)))}

BINARY = {
    "atan2": (m_atan2, 1),
    "hypot": (m_hypot, 1),
    "pow": (m_pow, 1),
    "copysign": (m_copysign, 0),
    "fmod": (m_fmod, 0),
    "log_base": (m_log_base, 2),
}


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("x, y", list(itertools.product(BINARY_VALUES, BINARY_VALUES)))
def test_math_binary(name, x, y):
    f, ulps = BINARY[name]
    check(f, x, y, ulps=ulps, c_value=C_VALUES.get(name))


@pytest.mark.parametrize(
    "x, y", [(8, 2), (100, 10), (2.0**-1074, 2), (1e300, 10), (7, 7), (1, 10), (10, 1)]
)
def test_log_two_args(x, y):
    check(m_log_base, x, y, ulps=2, c_value=C_VALUES["log_base"])


def test_pow_integers():
    check(m_pow, 2, 10)
    check(m_pow, 2, -2)
    check(m_pow, 0, 0)
    check(m_pow, -8, 3)


@pytest.mark.parametrize("x", [0.0, -0.0, 1.0, -0.75, 5e-324, 1e300, INF, NAN])
@pytest.mark.parametrize("i", [0, 1, -1, 10, -1074, 1023, 1024, -1100, 5000, -5000])
def test_ldexp(x, i):
    check(m_ldexp, x, i)


@pytest.mark.parametrize(
    "a, b",
    [
        (12, 18),
        (-12, 18),
        (12, -18),
        (0, 5),
        (5, 0),
        (0, 0),
        (17, 31),
        (2**62, 2**40),
        (-(2**62), 6),
        (1, 1),
    ],
)
def test_gcd(a, b):
    assert_same(m_gcd, a, b)


# ---------------------------------------------------------------------------------------------
# math constants


@njit
def constants():
    return math.pi, math.e, math.tau, math.inf, -math.inf, math.nan


def test_constants():
    assert_same(constants)


def test_constant_arithmetic():
    @njit
    def area(r):
        return math.pi * r * r

    @njit
    def is_big(x):
        return x > math.inf or x == math.inf

    assert_same(area, 2.0)
    assert_same(is_big, math.inf)
    assert_same(is_big, 1e308)


# ---------------------------------------------------------------------------------------------
# cmath


@njit
def c_sqrt(z):
    return cmath.sqrt(z)


@njit
def c_exp(z):
    return cmath.exp(z)


@njit
def c_log(z):
    return cmath.log(z)


@njit
def c_log_base(z, b):
    return cmath.log(z, b)


@njit
def c_log10(z):
    return cmath.log10(z)


@njit
def c_sin(z):
    return cmath.sin(z)


@njit
def c_cos(z):
    return cmath.cos(z)


@njit
def c_tan(z):
    return cmath.tan(z)


@njit
def c_asin(z):
    return cmath.asin(z)


@njit
def c_acos(z):
    return cmath.acos(z)


@njit
def c_atan(z):
    return cmath.atan(z)


@njit
def c_sinh(z):
    return cmath.sinh(z)


@njit
def c_cosh(z):
    return cmath.cosh(z)


@njit
def c_tanh(z):
    return cmath.tanh(z)


@njit
def c_phase(z):
    return cmath.phase(z)


@njit
def c_polar(z):
    return cmath.polar(z)


@njit
def c_rect(r, phi):
    return cmath.rect(r, phi)


@njit
def c_classify(z):
    return cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z)


@njit
def c_constants():
    return cmath.pi, cmath.e, cmath.tau, cmath.inf, cmath.infj


COMPLEXES = [
    0j,
    complex(-0.0, 0.0),
    complex(0.0, -0.0),
    1 + 0j,
    -1 + 0j,
    1j,
    -1j,
    1 + 2j,
    -3.5 + 0.25j,
    0.5 - 0.75j,
    complex(-2.0, -0.0),
    complex(1e-300, 1e-300),
    complex(100.0, 1.0),
]

CMATH = {
    "sqrt": (c_sqrt, 1),
    "exp": (c_exp, 2),
    "log": (c_log, 2),
    "log10": (c_log10, 2),
    "sin": (c_sin, 2),
    "cos": (c_cos, 2),
    "tan": (c_tan, 4),
    "asin": (c_asin, 4),
    "acos": (c_acos, 4),
    "atan": (c_atan, 4),
    "sinh": (c_sinh, 2),
    "cosh": (c_cosh, 2),
    "tanh": (c_tanh, 4),
    "phase": (c_phase, 1),
    "polar": (c_polar, 1),
}


@pytest.mark.parametrize("name", list(CMATH))
@pytest.mark.parametrize("z", COMPLEXES)
def test_cmath_unary(name, z):
    f, ulps = CMATH[name]
    check(f, z, ulps=ulps)


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "phase", "polar"])
@pytest.mark.parametrize("x", [2.0, -2.0, 0.0, 3])
def test_cmath_real_argument(name, x):
    f, ulps = CMATH[name]
    check(f, x, ulps=ulps)


@pytest.mark.parametrize(
    "z",
    [
        complex(INF, 0),
        complex(-INF, 1),
        complex(0, INF),
        complex(NAN, 0),
        complex(1, NAN),
        complex(INF, NAN),
    ],
)
@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "phase"])
def test_cmath_special_values(name, z):
    f, ulps = CMATH[name]
    check(f, z, ulps=ulps)


@pytest.mark.parametrize(
    "r, phi",
    [
        (1.0, 0.0),
        (2.0, math.pi / 2),
        (1.0, math.pi),
        (0.0, 1.0),
        (3.0, -0.5),
        (-1.0, 0.25),
        (INF, 1.0),
    ],
)
def test_cmath_rect(r, phi):
    check(c_rect, r, phi, ulps=1)


@pytest.mark.parametrize("r, phi", [(INF, 0.0), (INF, -0.0), (0.0, INF)])
def test_cmath_rect_special(r, phi):
    check(c_rect, r, phi, ulps=1)


@pytest.mark.parametrize("z, b", [(8 + 0j, 2 + 0j), (1 + 1j, 10 + 0j), (-1 + 0j, 2 + 0j)])
def test_cmath_log_base(z, b):
    check(c_log_base, z, b, ulps=4)


@pytest.mark.parametrize(
    "z",
    [
        0j,
        1 + 1j,
        complex(INF, 0),
        complex(0, -INF),
        complex(NAN, 1),
        complex(1, NAN),
        complex(INF, NAN),
    ],
)
def test_cmath_classify(z):
    assert_same(c_classify, z)


def test_cmath_constants():
    assert_same(c_constants)


@njit
def two_argument_math(x, y):
    return math.pow(x, y), math.atan2(x, y), math.hypot(x, y), math.fmod(x, y)


@pytest.mark.parametrize(
    "x, y",
    [
        (np.float32(1.5), np.uint8(255)),
        (np.float32(1.5), np.int16(-3)),
        (np.float32(-2.5), np.int8(7)),
        (np.float32(0.1), 3),
        (np.int8(3), np.float32(0.7)),
    ],
)
def test_two_argument_math_of_float32_and_an_integer_is_float64(x, y):
    # CPython's math functions (and Numba's) take doubles; computing math.pow(np.float32(1.5),
    # np.uint8(255)) in float32 overflowed to inf, where CPython gives 8e44.
    assert_same(two_argument_math, x, y, ulps=1, strict_type=False)


@njit
def roundings(x):
    return math.floor(x), math.ceil(x), math.trunc(x)


@pytest.mark.parametrize("x", [np.uint64(2**64 - 1), np.uint64(2**63), np.uint64(0), np.uint32(7)])
def test_floor_ceil_trunc_of_unsigned_integers_keep_the_value(x):
    # An integer is its own floor, as in Numba (it read 2**64 - 1 as -1). CPython has no
    # math.trunc of NumPy's integers and floors them through a float (2**64 - 1 becomes 2**64).
    assert roundings(x) == (int(x),) * 3
