# ruff: noqa: PLR0124, PLR0133, F632  (`is` between literals and names is what is tested)
"""Inputs that once crashed the interpreter or gave wrong results: huge and negative array sizes
in every creation function, `is` between odd type pairs, and cmath at its special values (signs
of zeros, NaN-ness and the exceptions CPython raises)."""

from __future__ import annotations

import cmath
import gc
import itertools
import math

import numpy as np
import pytest
from module_files import load_module

from taipan import jit, njit, types
from taipan.errors import TypingError
from taipan.runtime import get_allocation_stats

HUGE = 1 << 62

# ---- array sizes: one checked allocation routine ---------------------------------------------

CREATORS = {
    "zeros": lambda n: np.zeros(n),
    "ones": lambda n: np.ones(n),
    "empty": lambda n: np.empty(n),
    "full": lambda n: np.full(n, 1),
    "zeros_2d": lambda n: np.zeros((n, 2)),
    "ones_square": lambda n: np.ones((n, n)),
    "empty_3d": lambda n: np.empty((2, n, 3)),
    "full_tuple": lambda n: np.full((3, n), 2.5),
    "arange": lambda n: np.arange(n),
    "arange_float": lambda n: np.arange(0.0, float(n)),
    "eye": lambda n: np.eye(n),
    "identity": lambda n: np.identity(n),
}


def creator(name):
    return njit(CREATORS[name])


def numpy_error(function, n):
    with pytest.raises(Exception) as info:
        function(n)
    return info.value


@pytest.mark.parametrize("name", sorted(CREATORS))
@pytest.mark.parametrize("n", [HUGE, 1 << 61, (1 << 63) - 1, -1, -HUGE])
def test_creation_refuses_sizes_numpy_refuses(name, n):
    function = creator(name)
    if name.startswith("arange") and n == (1 << 63) - 1:
        pytest.skip("NumPy's arange computes this length differently (no error to compare)")
    if name in ("arange", "arange_float") and n < 0:
        assert function(n).size == 0  # an empty range, as in NumPy
        return
    expected = numpy_error(CREATORS[name], n)
    gc.collect()
    before = get_allocation_stats()
    with pytest.raises((ValueError, MemoryError)) as info:
        function(n)
    # NumPy's MemoryError is a subclass (_ArrayMemoryError); its message names the shape.
    assert isinstance(info.value, MemoryError if isinstance(expected, MemoryError) else ValueError)
    if isinstance(expected, ValueError):
        assert str(info.value) == str(expected)
    else:
        assert str(info.value).startswith("Unable to allocate")
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free


@njit
def linspace(n):
    return np.linspace(0.0, 1.0, n)


def test_linspace_negative_count():
    with pytest.raises(ValueError):
        linspace(-1)
    with pytest.raises(ValueError):
        linspace.py_func(-1)


def test_negative_extents_with_positive_product():
    f = njit(lambda: np.zeros((-2, -3)))
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        np.zeros((-2, -3))
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        f()


def test_empty_array_with_huge_extent_is_refused_like_numpy():
    f = njit(lambda: np.zeros((0, HUGE, HUGE)))
    with pytest.raises(ValueError, match="array is too big") as expected:
        np.zeros((0, HUGE, HUGE))
    with pytest.raises(ValueError) as got:
        f()
    assert str(got.value) == str(expected.value)
    assert njit(lambda: np.zeros((0, 1 << 40)))().shape == (0, 1 << 40)


# ---- `is` ------------------------------------------------------------------------------------


def test_is_between_void_pointers_compares_addresses():
    same = jit((types.voidptr, types.voidptr), nopython=True)(lambda x, y: x is y)
    different = jit((types.voidptr, types.voidptr), nopython=True)(lambda x, y: x is not y)
    for function in (same, different):
        ir = function.inspect_llvm(function.signatures[0])
        assert "icmp eq ptr" in ir or "icmp ne ptr" in ir


@njit
def identity_pairs(x, t):
    return (
        None is x,
        x is not None,
        x is x,
        x is 1.0,
        t is t,
        t is (1, 2.0),
        np.sin is np.sin,
        np.sin is np.cos,
        None is None,
    )


def test_is_between_other_type_pairs():
    assert identity_pairs(3, (1, 2)) == (False, True, True, False, True, False, True, False, True)
    assert identity_pairs.py_func(3, (1, 2))[:3] == (False, True, True)


@pytest.mark.parametrize(
    "source",
    [
        lambda a, b: a is b,
        lambda a, b: (a, 1) is (b, 1),
        lambda a, b: range(a.size) is range(b.size),
    ],
)
def test_is_between_values_without_identity_is_a_typing_error(source):
    f = njit(source)
    with pytest.raises(TypingError, match="no object identity"):
        f(np.ones(2), np.ones(2))


def test_array_is_none_and_array_is_number():
    f = njit(lambda a: (a is None, a is not None, a is 1))
    assert f(np.ones(2)) == (False, True, False)


# ---- cmath at special values -----------------------------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan]
FINITE_EXTRA = [0.5, -2.5, 710.0, -710.0]
UNARY = [
    "exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "phase", "polar", "isnan", "isinf", "isfinite",
]  # fmt: skip


def same_number(got, expected):
    if isinstance(expected, tuple):
        return all(same_number(g, e) for g, e in zip(got, expected, strict=True))
    if isinstance(expected, complex):
        return same_number(got.real, expected.real) and same_number(got.imag, expected.imag)
    if isinstance(expected, bool):
        return got is expected
    if math.isnan(expected):
        return math.isnan(got)
    if expected == 0 or math.isinf(expected):
        return got == expected and math.copysign(1, got) == math.copysign(1, expected)
    return math.isclose(got, expected, rel_tol=4e-16 * 4)


def outcome(function, *args):
    try:
        return "ok", function(*args)
    except (ValueError, OverflowError) as error:
        return type(error), str(error)


def check_against_cpython(function, compiled, args_list):
    for args in args_list:
        expected = outcome(function, *args)
        got = outcome(compiled, *args)
        if expected[0] == "ok":
            assert got[0] == "ok", (args, got)
            assert same_number(got[1], expected[1]), (args, got[1], expected[1])
        else:
            assert got == expected, (args, got, expected)


@pytest.fixture(scope="module")
def cmath_functions(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cmath_calls")
    lines = ["import cmath", "from taipan import njit", ""]
    for name in UNARY:
        lines += ["@njit", f"def call_{name}(z):", f"    return cmath.{name}(z)", ""]
    lines += ["@njit", "def call_rect(r, phi):", "    return cmath.rect(r, phi)", ""]
    path = folder / "cmath_calls.py"
    path.write_text("\n".join(lines))
    return load_module(path, "cmath_calls")


@pytest.mark.parametrize("name", UNARY)
def test_cmath_special_values_match_cpython(cmath_functions, name):
    values = SPECIAL + FINITE_EXTRA
    arguments = [(complex(a, b),) for a, b in itertools.product(values, values)]
    check_against_cpython(getattr(cmath, name), getattr(cmath_functions, f"call_{name}"), arguments)


def test_cmath_rect_special_values_match_cpython(cmath_functions):
    values = SPECIAL + FINITE_EXTRA
    check_against_cpython(cmath.rect, cmath_functions.call_rect, itertools.product(values, values))


def test_reported_cmath_signs(cmath_functions):
    z = cmath_functions.call_atan(complex(-math.inf, math.nan))
    assert math.copysign(1, z.imag) == -1.0 and z.real == -math.pi / 2
    z = cmath_functions.call_exp(complex(-math.inf, -math.inf))
    assert z == 0 and math.copysign(1, z.imag) == 1.0 and math.copysign(1, z.real) == 1.0
