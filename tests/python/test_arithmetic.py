"""Arithmetic, comparisons and logic on scalars, compared with CPython (``f.py_func``).

Where Numba deliberately differs from CPython, taipan follows Numba and these tests say so:
ints are int64 and wrap on overflow (compared with NumPy's int64 arithmetic instead), an int
raised to a negative int power is an int (0 unless the base is 1 or -1), and the messages of
ZeroDivisionError are Numba's.
"""

from __future__ import annotations

import itertools
import math
import operator
import warnings

import numpy as np
import pytest
from conftest import assert_raises_same, assert_same, same

from taipan import njit

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

INTS = [
    0,
    1,
    -1,
    2,
    -2,
    3,
    -3,
    7,
    -7,
    10,
    -10,
    13,
    255,
    -256,
    12345,
    -98765,
    2**31,
    -(2**31),
    2**53 + 1,
    -(2**53) - 1,
    INT64_MAX,
    INT64_MIN,
]
SMALL_INTS = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10, -10, 13, 100, -100, 12345, -98765]
FLOATS = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    1.5,
    -2.5,
    3.0,
    0.1,
    -0.3,
    7.25,
    1e-300,
    -1e-300,
    5e-324,
    1e300,
    -1e300,
    1.7976931348623157e308,
    2.0**53,
    math.pi,
    -math.e,
    math.inf,
    -math.inf,
    math.nan,
]


def _wrap(value: int) -> int:
    """Two's-complement int64 wrap of a Python int."""
    return (value + 2**63) % 2**64 - 2**63


def _fits(value: int) -> bool:
    return INT64_MIN <= value <= INT64_MAX


# ---------------------------------------------------------------------------------------------
# jitted functions


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
def truediv(a, b):
    return a / b


@njit
def floordiv(a, b):
    return a // b


@njit
def mod(a, b):
    return a % b


@njit
def power(a, b):
    return a**b


@njit
def neg(a):
    return -a


@njit
def pos(a):
    return +a


@njit
def invert(a):
    return ~a


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
def compare_all(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b


@njit
def chained(a, b, c):
    return a < b < c, a <= b < c, a < b > c, a == b == c, a != b != c, a < b <= c < 100


@njit
def logic(a, b):
    return (a and b), (a or b), (not a), (not b)


@njit
def logic_bool(a, b):
    return (a > 0 and b > 0), (a > 0 or b > 0), not (a > 0), (a > 0) and not (b > 0)


@njit
def short_circuit(a, b):
    # b == 0 would raise in the division if ``and`` did not short-circuit
    return b != 0 and a // b > 1


@njit
def short_circuit_or(a, b):
    return b == 0 or a // b > 1


@njit
def ternary(a, b):
    return a - b if a > b else b * 2


@njit
def ternary_nested(x):
    return -1 if x < 0 else (0 if x == 0 else 1)


@njit
def augmented_int(a, b):
    x = a
    x += b
    x -= 3
    x *= 2
    x //= 3
    x %= 1000
    x <<= 2
    x >>= 1
    x &= 0xFFFF
    x |= 0x10
    x ^= b
    x **= 2
    return x


@njit
def augmented_float(a, b):
    x = a
    x += b
    x -= 0.75
    x *= 1.5
    x /= 3.0
    x //= 0.25
    x %= 7.0
    x **= 2
    return x


@njit
def mixed(a, x):
    return a + x, a - x, a * x, x * a, a / x, x / a


@njit
def mixed_compare(a, x):
    return a < x, a <= x, a == x, a != x, x > a, x >= a


@njit
def int_true_division(a, b):
    return a / b


@njit
def poly(x):
    return 3.0 * x * x - 2.0 * x + 1.0


@njit
def complex_ops(z, w):
    return z + w, z - w, z * w, -z, z == w, z != w


@njit
def complex_div(z, w):
    return z / w


@njit
def complex_pow(z, w):
    return z**w


@njit
def complex_parts(z):
    return z.real, z.imag, z.conjugate(), abs(z)


@njit
def complex_literal(x):
    return x + 2j, 1j * 1j, (1 + 2j) * x


@njit
def float_parts(x):
    return x.real, x.imag, x.conjugate()


@njit
def int_methods(a):
    return a.real, a.imag, a.conjugate()


# ---------------------------------------------------------------------------------------------
# ints


INT_PAIRS = list(itertools.product(SMALL_INTS, SMALL_INTS))


@pytest.mark.parametrize("fn", [add, sub, mul, floordiv, mod, truediv], ids=lambda f: f.__name__)
@pytest.mark.parametrize("a, b", INT_PAIRS)
def test_int_binary(fn, a, b):
    # zero divisors: same exception type; the messages are Numba's (checked below)
    assert_same(fn, a, b, check_message=False)


@pytest.mark.parametrize("a", INTS)
@pytest.mark.parametrize("b", [1, -1, 2, -2, 3, 7, -7, 10, 2**31, INT64_MAX, INT64_MIN])
def test_int_floordiv_mod_extremes(a, b):
    if a == INT64_MIN and b == -1:
        pytest.skip("overflow: see test_int64_min_floordiv_minus_one")
    assert_same(floordiv, a, b)
    assert_same(mod, a, b)


@pytest.mark.parametrize("a", INTS)
@pytest.mark.parametrize("b", INTS)
def test_int_add_sub_mul_wrap(a, b):
    """int64 overflow wraps around as in Numba and NumPy (CPython would give a big int)."""
    for fn, op in ((add, operator.add), (sub, operator.sub), (mul, operator.mul)):
        exact = op(a, b)
        result = fn(a, b)
        assert type(result) is int
        assert result == _wrap(exact), (fn.__name__, a, b)
        if _fits(exact):
            assert result == exact
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert result == int(op(np.int64(a), np.int64(b)))


def test_int64_wrap_examples():
    assert add(INT64_MAX, 1) == INT64_MIN
    assert sub(INT64_MIN, 1) == INT64_MAX
    assert mul(2**62, 2) == INT64_MIN
    assert mul(2**32, 2**32) == 0
    assert neg(INT64_MIN) == INT64_MIN


CONSTANT_DIVISORS = [1, 2, 3, -2, -3, 7, -7, 1009, -1009, 2**62, -(2**62), INT64_MAX, INT64_MIN]


def _floor_by_constant(divisor):
    """`a // divisor` and `a % divisor` with the divisor a literal of the compiled text (a
    constant divisor is lowered without a zero check or a select between computed values)."""
    namespace = {}
    exec(f"def f(a):\n    return a // ({divisor}), a % ({divisor})\n", namespace)  # noqa: S102
    return njit(namespace["f"])


@pytest.mark.parametrize("divisor", CONSTANT_DIVISORS)
def test_int_floordiv_mod_by_constant(divisor):
    f = _floor_by_constant(divisor)
    for a in INTS:
        assert f(a) == f.py_func(a), (a, divisor)


@pytest.mark.parametrize("divisor", [3, -3, 100, -100])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint32])
def test_small_int_floordiv_mod_by_constant(divisor, dtype):
    """NumPy scalars of narrower types: NumPy's own // and % are the reference."""
    if divisor < 0 and np.dtype(dtype).kind == "u":
        pytest.skip("a negative divisor of an unsigned scalar is NumPy's promotion question")
    f = _floor_by_constant(divisor)
    info = np.iinfo(dtype)
    for a in {info.min, info.max, 0, 1, info.max // 2, max(info.min, -5)}:
        assert [int(x) for x in f(dtype(a))] == [int(x) for x in f.py_func(dtype(a))], (a,)


def test_int64_min_floordiv_minus_one():
    # Numba: INT64_MIN // -1 overflows and wraps to INT64_MIN; % gives 0.
    assert mod(INT64_MIN, -1) == 0
    assert floordiv(INT64_MIN, -1) == INT64_MIN


@pytest.mark.parametrize("a", INTS)
def test_int_unary(a):
    for fn in (neg, pos, invert):
        result = fn(a)
        assert type(result) is int
        assert result == _wrap(fn.py_func(a))


@pytest.mark.parametrize("a, b", INT_PAIRS)
def test_int_bitwise(a, b):
    assert_same(bitand, a, b)
    assert_same(bitor, a, b)
    assert_same(bitxor, a, b)


@pytest.mark.parametrize("a", INTS)
@pytest.mark.parametrize("b", INTS)
def test_int_bitwise_extremes(a, b):
    assert_same(bitand, a, b)
    assert_same(bitor, a, b)
    assert_same(bitxor, a, b)


@pytest.mark.parametrize(
    "a", [0, 1, -1, 3, -3, 255, -256, 12345, -98765, 2**31, INT64_MAX, INT64_MIN]
)
@pytest.mark.parametrize("b", [0, 1, 2, 7, 31, 32, 62, 63])
def test_shifts(a, b):
    assert_same(rshift, a, b)
    # << wraps like every int64 operation (CPython's result is unbounded)
    assert lshift(a, b) == _wrap(a << b)


def test_shift_by_negative_count():
    # CPython raises ValueError("negative shift count"); Numba's result is undefined, so only
    # check that taipan does not crash.
    for fn in (lshift, rshift):
        try:
            fn(1, -1)
        except ValueError:
            pass


@pytest.mark.parametrize(
    "a, b",
    [
        (2, 0),
        (2, 1),
        (2, 10),
        (-2, 3),
        (-3, 4),
        (3, 39),
        (7, 22),
        (0, 0),
        (0, 5),
        (1, 100),
        (-1, 101),
        (-1, 100),
        (10, 18),
    ],
)
def test_int_power(a, b):
    assert_same(power, a, b)


def test_int_power_wraps():
    assert power(2, 63) == INT64_MIN
    assert power(2, 64) == 0
    assert power(3, 40) == _wrap(3**40)


@pytest.mark.parametrize("a, expected", [(2, 0), (-2, 0), (10, 0), (1, 1), (-1, -1)])
def test_int_power_negative_exponent(a, expected):
    # Numba: int ** negative int is an int: 0, except for bases 1 and -1 (CPython: a float)
    result = power(a, -1)
    assert type(result) is int and result == expected
    assert power(-1, -2) == 1


def test_zero_to_negative_power():
    # Numba's message; CPython raises ZeroDivisionError too (with another message)
    assert_raises_same(power, 0, -1, message="0 cannot be raised to a negative power")


def test_int_int_true_division_is_float():
    assert_same(int_true_division, 7, 2)
    assert_same(int_true_division, -7, 2)
    assert_same(int_true_division, 1, 3)
    assert_same(int_true_division, 2**53 + 1, 1)
    assert_same(int_true_division, 0, -5)


# ---------------------------------------------------------------------------------------------
# division by zero: same type as CPython; integer messages as CPython 3.11+ gives them


@pytest.mark.parametrize(
    "fn, a, b, message",
    [
        (floordiv, 1, 0, "integer division or modulo by zero"),
        (floordiv, 0, 0, "integer division or modulo by zero"),
        (floordiv, -5, 0, "integer division or modulo by zero"),
        (mod, 1, 0, "integer modulo by zero"),
        (mod, -1, 0, "integer modulo by zero"),
        (truediv, 1, 0, "division by zero"),
        (truediv, 0, 0, "division by zero"),
        (truediv, 1.0, 0.0, "division by zero"),
        (truediv, 1.0, -0.0, "division by zero"),
        (truediv, 0.0, 0.0, "division by zero"),
        (truediv, math.inf, 0.0, "division by zero"),
        (truediv, math.nan, 0.0, "division by zero"),
        (truediv, 1, 0.0, "division by zero"),
        (truediv, 1.0, 0, "division by zero"),
        (floordiv, 1.0, 0.0, "division by zero"),
        (mod, 1.0, 0.0, "modulo by zero"),
        (mod, 1.0, -0.0, "modulo by zero"),
    ],
)
def test_zero_division(fn, a, b, message):
    assert_raises_same(fn, a, b, exc_type=ZeroDivisionError, message=message)


def test_complex_division_by_zero():
    assert_raises_same(complex_div, 1 + 1j, 0j, exc_type=ZeroDivisionError)


def test_divmod_by_zero():
    @njit
    def f(a, b):
        return divmod(a, b)

    assert_raises_same(f, 1, 0, exc_type=ZeroDivisionError)
    assert_raises_same(f, 1.0, 0.0, exc_type=ZeroDivisionError)


def test_zero_division_is_catchable_and_function_still_works():
    for _ in range(3):
        with pytest.raises(ZeroDivisionError):
            floordiv(3, 0)
        assert floordiv(3, 2) == 1


# ---------------------------------------------------------------------------------------------
# floats


FLOAT_PAIRS = list(itertools.product(FLOATS, FLOATS))


@pytest.mark.parametrize("fn", [add, sub, mul, truediv, floordiv, mod], ids=lambda f: f.__name__)
@pytest.mark.parametrize("a, b", FLOAT_PAIRS)
def test_float_binary(fn, a, b):
    assert_same(fn, a, b, check_message=False)


def _float_power_cases():
    exponents = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        0.5,
        -0.5,
        3.0,
        -3.0,
        10.0,
        1.5,
        1e10,
        -1e10,
        math.inf,
        -math.inf,
        math.nan,
    ]
    yield from itertools.product(FLOATS, exponents)


@pytest.mark.parametrize("a, b", list(_float_power_cases()))
def test_float_power(a, b):
    expected = expected_error = None
    try:
        expected = a**b
    except (ZeroDivisionError, OverflowError) as error:
        expected_error = error
    if isinstance(expected, complex):
        # Numba: a negative float to a non-integer power is nan (CPython returns a complex)
        assert math.isnan(power(a, b))
        return
    if expected_error is not None:
        # CPython raises (0.0 ** -1.0, 1e300 ** 2.0); Numba returns C pow's +-inf instead.
        # Accept either CPython's exception (same type and message) or C's result.
        try:
            result = power(a, b)
        except type(expected_error) as error:
            assert str(error) == str(expected_error)
            return
        with np.errstate(all="ignore"):
            assert same(result, float(np.power(np.float64(a), np.float64(b))))
        return
    assert same(power(a, b), expected)


@pytest.mark.parametrize("x", FLOATS)
def test_float_unary(x):
    assert_same(neg, x)
    assert_same(pos, x)


def test_negative_zero():
    assert_same(neg, 0.0)
    assert same(neg(0.0), -0.0)
    assert same(mul(-1.0, 0.0), -0.0)
    assert same(add(-0.0, -0.0), -0.0)
    assert same(add(-0.0, 0.0), 0.0)
    assert same(sub(0.0, 0.0), 0.0)
    assert same(mod(-0.0, 1.0), 0.0)
    assert same(mod(0.0, -1.0), -0.0)
    assert same(floordiv(-0.0, 1.0), -0.0)
    assert same(truediv(-0.0, 5.0), -0.0)
    assert same(truediv(1.0, -math.inf), -0.0)


def test_huge_and_tiny():
    assert_same(mul, 1e308, 10.0)
    assert mul(1e308, 10.0) == math.inf
    assert mul(-1e308, 10.0) == -math.inf
    assert_same(power, 2.0, -1074.0)
    assert power(2.0, -1074.0) == 5e-324
    assert_same(power, 2.0, -1075.0)
    assert_same(truediv, 5e-324, 2.0)
    assert_same(mul, 5e-324, 0.5)
    assert_same(add, 1.7976931348623157e308, 1.7976931348623157e308)
    assert_same(sub, math.inf, math.inf)
    assert_same(mul, math.inf, 0.0)
    assert_same(power, 10.0, 308.0)
    assert_same(power, 10.0, -323.0)
    assert_same(poly, 1e200)
    assert_same(poly, -1e-200)


def test_float_mod_sign_follows_divisor():
    for a, b in itertools.product([5.5, -5.5, 0.0, -0.0, 1e300, 3.0], [2.0, -2.0, 0.1, -0.1]):
        assert_same(mod, a, b)
        assert_same(floordiv, a, b)


def test_float_floordiv_inf():
    assert_same(floordiv, 1.0, math.inf)
    assert_same(floordiv, -1.0, math.inf)
    assert_same(mod, 1.0, math.inf)
    assert_same(mod, -1.0, math.inf)
    assert_same(floordiv, math.inf, 1.0)
    assert_same(mod, math.inf, 1.0)


@pytest.mark.parametrize(
    "a", [0, 1, -1, 3, -7, 2**53, 2**53 + 1, -(2**53) - 1, INT64_MAX, INT64_MIN]
)
@pytest.mark.parametrize("x", [0.0, -0.0, 0.5, -2.5, 3.0, 2.0**53, 9.2e18, math.inf, math.nan])
def test_mixed_int_float(a, x):
    assert_same(mixed, a, x, check_message=False)
    if abs(a) <= 2**53:
        assert_same(mixed_compare, a, x)
    else:
        # Numba compares an int with a float after converting the int to float64 (CPython
        # compares exactly); taipan follows Numba.
        assert mixed_compare(a, x) == mixed_compare.py_func(float(a), x)


def test_mixed_compare_converts_int_to_float():
    # Numba semantics: 2**53 + 1 becomes 2.0**53 before comparing (CPython says False)
    assert mixed_compare(2**53 + 1, 2.0**53)[2] is True


def test_int_float_comparison_exactness():
    # CPython compares int and float exactly; Numba converts the int to float64 first, so
    # 2**53 + 1 == 2.0**53 is True in Numba.  Check only cases where both agree.
    assert_same(compare_all, 2**53, 2.0**53)
    assert_same(compare_all, 3, 3.0)
    assert_same(compare_all, -3, 2.5)
    assert_same(compare_all, 1, math.nan)


def test_poly():
    for x in FLOATS:
        assert_same(poly, x)


# ---------------------------------------------------------------------------------------------
# comparisons and logic


@pytest.mark.parametrize("a, b", list(itertools.product([-2, 0, 1, 5], [-2, 0, 1, 5])))
def test_compare_ints(a, b):
    assert_same(compare_all, a, b)


@pytest.mark.parametrize(
    "a, b",
    list(itertools.product([-0.0, 0.0, 1.5, -math.inf, math.nan], [0.0, 1.5, math.inf, math.nan])),
)
def test_compare_floats(a, b):
    assert_same(compare_all, a, b)


def test_compare_bools():
    for a, b in itertools.product([True, False], repeat=2):
        assert_same(compare_all, a, b)


def test_compare_int_extremes():
    assert_same(compare_all, INT64_MIN, INT64_MAX)
    assert_same(compare_all, INT64_MAX, INT64_MAX)


@pytest.mark.parametrize("a, b, c", list(itertools.product([1, 2, 3], repeat=3)))
def test_chained_comparisons(a, b, c):
    assert_same(chained, a, b, c)


def test_chained_comparisons_floats():
    for a, b, c in itertools.product([0.5, math.nan, -1.0], repeat=3):
        assert_same(chained, a, b, c)


@pytest.mark.parametrize("a, b", list(itertools.product([True, False], repeat=2)))
def test_logic_bools(a, b):
    assert_same(logic, a, b)


@pytest.mark.parametrize("a, b", list(itertools.product([0, 3, -1], repeat=2)))
def test_logic_ints(a, b):
    assert_same(logic, a, b)


@pytest.mark.parametrize("a, b", list(itertools.product([0.0, 2.5, math.nan], repeat=2)))
def test_logic_floats(a, b):
    assert_same(logic, a, b)


@pytest.mark.parametrize("a, b", list(itertools.product([-1, 0, 2], repeat=2)))
def test_logic_comparisons(a, b):
    assert_same(logic_bool, a, b)


def test_short_circuit():
    for a, b in [(10, 0), (10, 3), (1, 2), (0, 0)]:
        assert_same(short_circuit, a, b)
        assert_same(short_circuit_or, a, b)


def test_bool_arithmetic():
    assert_same(add, True, True)
    assert_same(sub, False, True)
    assert_same(mul, True, 7)
    assert_same(add, True, 0.5)
    assert_same(neg, True)
    assert_same(bitand, True, False)
    assert_same(bitor, True, False)
    assert_same(bitxor, True, True)


@pytest.mark.parametrize("a, b", [(1, 2), (2, 1), (-3, -3), (0.5, -0.5), (math.nan, 1.0)])
def test_ternary(a, b):
    assert_same(ternary, a, b)


def test_ternary_nested():
    for x in [-5, 0, 5, -0.5, 0.0, 0.5]:
        assert_same(ternary_nested, x)


@pytest.mark.parametrize("a, b", [(1, 2), (-7, 3), (100, -100), (0, 0), (12345, 678)])
def test_augmented_int(a, b):
    assert_same(augmented_int, a, b)


@pytest.mark.parametrize("a, b", [(1.0, 2.0), (-7.5, 3.25), (1e10, -1e-3), (0.0, 0.0)])
def test_augmented_float(a, b):
    assert_same(augmented_float, a, b)


# ---------------------------------------------------------------------------------------------
# complex

COMPLEXES = [
    0j,
    1 + 0j,
    -1j,
    1 + 2j,
    -3.5 + 0.25j,
    complex(1e300, 1e300),
    complex(1e-300, -1),
    complex(math.inf, 0),
    complex(0, math.nan),
    complex(-0.0, -0.0),
]


@pytest.mark.parametrize("z", COMPLEXES)
@pytest.mark.parametrize("w", COMPLEXES)
def test_complex_arithmetic(z, w):
    assert_same(complex_ops, z, w)


@pytest.mark.parametrize("z", COMPLEXES)
@pytest.mark.parametrize(
    "w",
    [
        1 + 0j,
        -1j,
        1 + 2j,
        -3.5 + 0.25j,
        complex(1e-300, -1),
        complex(1e300, 1e300),
        complex(1e-310, 1e-310),
    ],
)
def test_complex_division(z, w):
    assert_same(complex_div, z, w, ulps=2)


@pytest.mark.parametrize(
    "z, w",
    [
        (1 + 2j, 2 + 0j),
        (1 + 2j, 0.5 + 0j),
        (-1 + 0j, 0.5 + 0j),
        (2j, 1j),
        (1 + 1j, 3 + 0j),
        (1.5 - 2j, -2 + 0j),
        (1 + 1j, 0j),
        (0j, 1 + 0j),
        (0j, 0j),
    ],
)
def test_complex_power(z, w):
    assert_same(complex_pow, z, w, ulps=4)


@pytest.mark.parametrize("z", COMPLEXES)
def test_complex_parts(z):
    assert_same(complex_parts, z, ulps=1)


def test_complex_literals():
    assert_same(complex_literal, 1.5)
    assert_same(complex_literal, -2.0)


def test_float_and_int_attributes():
    assert_same(float_parts, 2.5)
    assert_same(float_parts, -0.0)
    assert_same(int_methods, 7)
    assert_same(int_methods, -7)


def test_mixed_complex_real():
    assert_same(add, 1 + 2j, 3)
    assert_same(add, 1.5, 1 + 2j)
    assert_same(mul, 2, 1 - 1j)
    assert_same(truediv, 1 + 1j, 2.0)
    assert_same(truediv, 3, 1 + 1j)
    assert_same(add, 1j, True)


# ---------------------------------------------------------------------------------------------
# NumPy scalars: promotion follows NumPy, visible in the compiled return types


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (np.float32(1.5), np.float32(2.25), "float32"),
        (np.float32(1.5), np.float64(2.25), "float64"),
        (np.float64(1.5), np.float64(2.25), "float64"),
        # Numba widens integer arithmetic to at least intp (NumPy would keep int32, int8, ...)
        (np.int32(3), np.int32(4), "int64"),
        (np.int8(3), np.int8(4), "int64"),
        (np.int16(3), np.int32(4), "int64"),
        (np.uint8(3), np.uint8(4), "uint64"),
        (np.uint32(3), np.uint64(4), "uint64"),
        (np.float32(1.5), np.int8(2), "float32"),
        (np.float32(1.5), np.int32(2), "float64"),
        (np.int64(3), np.int64(4), "int64"),
        (np.complex64(1 + 2j), np.complex64(3 - 1j), "complex64"),
        (np.complex64(1 + 2j), np.complex128(3 - 1j), "complex128"),
    ],
)
def test_numpy_scalar_promotion(a, b, expected):
    @njit
    def f(a, b):
        return a + b

    result = f(a, b)
    assert str(f.nopython_signatures[0].return_type) == expected
    assert result == a + b


def test_float32_arithmetic_is_single_precision():
    @njit
    def f(a, b):
        return a * b + a / b

    a, b = np.float32(1.1), np.float32(3.3)
    result = f(a, b)
    assert str(f.nopython_signatures[0].return_type) == "float32"
    assert result == float(a * b + a / b)
    assert result != float(a) * float(b) + float(a) / float(b)


def test_float32_returns_python_float():
    @njit
    def f(a):
        return a

    # Numba boxes float32 results as Python floats, with the float32 value
    result = f(np.float32(0.1))
    assert type(result) is float
    assert result == float(np.float32(0.1))


@pytest.mark.parametrize("fn", [add, sub, mul, truediv, floordiv, mod], ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "a, b", [(1.5, 2.25), (-7.0, 3.0), (0.1, 0.3), (1e30, 1e-30), (-0.0, 2.0), (3.0e38, 10.0)]
)
def test_float32_binary_matches_numpy(fn, a, b):
    x, y = np.float32(a), np.float32(b)
    with np.errstate(all="ignore"):
        expected = fn.py_func(x, y)
    assert isinstance(expected, np.float32)
    assert same(fn(x, y), float(expected), strict_type=False)


def test_small_numpy_ints_widen():
    @njit
    def f(a, b):
        return a + b

    # Numba: int8 + int8 is computed in int64, so it does not wrap at 8 bits (NumPy gives -56)
    assert f(np.int8(100), np.int8(100)) == 200
    assert str(f.nopython_signatures[0].return_type) == "int64"


def test_numpy_int_with_python_int():
    @njit
    def f(a):
        return a + 1

    assert f(np.int32(5)) == 6
    # Numba: int32 + int64 literal promotes to int64
    assert str(f.nopython_signatures[0].return_type) == "int64"


def test_numpy_bool_and_uint():
    @njit
    def f(a, b):
        return a + b, a * b, a > b

    assert_same(f, np.uint32(7), np.uint32(3), strict_type=False)
    assert_same(f, np.int16(-7), np.int16(3), strict_type=False)


def test_uint64_arithmetic():
    @njit
    def f(a, b):
        return a + b

    big = np.uint64(2**64 - 2)
    assert f(big, np.uint64(1)) == 2**64 - 1
    assert str(f.nopython_signatures[0].return_type) == "uint64"


@pytest.mark.parametrize(
    "a, b",
    [
        (2.0, -1074),
        (10.0, 308),
        (10.0, -308),
        (-2.0, 3),
        (0.5, 1100),
        (1.0000001, 10**9),
        (1.1, 100),
        (3.0, 40),
        (-1.5, 33),
        (0.1, 7),
        (1.0001, 12345),
        (7.0, -5),
        (-0.5, -3),
        (2.0, 0),
        (math.nan, 0),
        (math.inf, -1),
        (-math.inf, 3),
    ],
)
def test_float_to_int_power_matches_c_pow(a, b):
    # CPython converts the int exponent and calls C pow; Numba multiplies repeatedly (and so is
    # a few ulps off); taipan gives CPython's results
    assert_same(power, a, b)


def test_mixed_signedness_comparison():
    @njit
    def f(a, b):
        return a < b, a == b, a > b

    assert_same(f, np.uint64(5), np.int64(7), strict_type=False)
    assert_same(f, np.uint32(5), np.int32(-7), strict_type=False)


def test_uint64_int64_comparison():
    @njit
    def f(a, b):
        return a < b, a == b, a > b

    assert f(np.uint64(2**63 + 5), np.int64(-1)) == (False, False, True)


def test_float32_power_int_stays_float32():
    @njit
    def f(a, b):
        return a**b

    assert f(np.float32(1.5), 2) == 2.25
    assert str(f.nopython_signatures[0].return_type) == "float32"


NARROW_INTEGERS = [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32]


@pytest.mark.parametrize("dtype", NARROW_INTEGERS)
def test_narrow_integer_unary_keeps_numpy_value(dtype):
    # Numba widens -x and ~x of a narrow integer to 64 bits, but computes in the operand's
    # width first, so the value is NumPy's: ~np.uint8(0) is 255 and -np.int8(-128) is -128
    # (widening first gave 2**64 - 1 and 128).
    info = np.iinfo(dtype)
    values = np.array(sorted({info.min, info.min + 1, info.min // 2, 0, 1, 5, info.max}), dtype)
    for value in values:
        for fn in (neg, pos, invert):
            with np.errstate(over="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                expected = fn.py_func(value)
            result = fn(value)
            assert type(result) is int, (fn.__name__, value)
            assert result == int(expected), (fn.__name__, value, result, expected)

    @njit
    def negate_and_invert_each(a):
        out = np.empty((2, a.size), np.int64)
        for i in range(a.size):
            out[0, i] = -a[i]
            out[1, i] = ~a[i]
        return out

    with np.errstate(over="ignore"):
        expected = np.stack([(-values).astype(np.int64), (~values).astype(np.int64)])
    assert np.array_equal(negate_and_invert_each(values), expected)


def test_invert_bool_is_logical_not():
    # Numba: ~True is False and ~False is True (a bool stays a bool); CPython gives -2 and -1
    assert invert(True) is False
    assert invert(False) is True
