"""A ``np.random.Generator`` passed to compiled code: its methods give NumPy's numbers.

Compiled code draws through the Generator's own bit generator (its ``bitgen_t``), with NumPy's
Generator algorithms (ziggurat normal and exponential, Lemire's bounded integers), so the same
Generator state gives the same values as NumPy, and the state Python sees afterwards has
advanced exactly as NumPy's calls would have advanced it.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import run
from test_random_distributions import assert_identical

import taipan
from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks

BIT_GENERATORS = [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64]
SEEDS = [0, 7, 12345]


def generator_pair(bit_generator, seed):
    return np.random.Generator(bit_generator(seed)), np.random.Generator(bit_generator(seed))


def states_equal(a, b):
    """Bit generator states (dicts of ints and arrays) are equal."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(states_equal(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def assert_same_draws(f, bit_generator, seed, *args):
    """``f(generator, *args)`` compiled and in Python, from two equal Generators: equal results
    (or the same error), equal Generator states after, and no memory block left behind."""
    compiled_rng, python_rng = generator_pair(bit_generator, seed)
    expected, expected_error = run(f.py_func, python_rng, *args)
    before = live_blocks()
    actual, actual_error = run(f, compiled_rng, *args)
    if expected_error is not None:
        assert actual_error is not None, f"NumPy raised {expected_error!r}, taipan {actual!r}"
        assert type(actual_error) is type(expected_error)
        assert str(actual_error) == str(expected_error)
    else:
        assert actual_error is None, f"taipan raised {actual_error!r}"
        assert_identical(actual, expected)
        assert states_equal(compiled_rng.bit_generator.state, python_rng.bit_generator.state)
        assert compiled_rng.random() == python_rng.random()
    del actual
    assert live_blocks() == before


def method_caller(name, arity):
    """A jitted function calling Generator.<name> with `arity` parameters, scalar and sized."""
    namespace = {}
    params = ", ".join(f"a{i}" for i in range(arity))
    lead = params + ", " if arity else ""
    source = (
        f"def call(rng{', ' if arity else ''}{params}):\n"
        f"    return (rng.{name}({params}), rng.{name}({lead}size=4),\n"
        f"            rng.{name}({lead}size=(2, 3)), rng.{name}({lead}size=0))\n"
    )
    exec(source, namespace)  # noqa: S102 - one caller per method name
    return njit(namespace["call"])


CASES = {
    "random": [()],
    "standard_normal": [()],
    "standard_exponential": [()],
    "standard_cauchy": [()],
    "normal": [(0.0, 1.0), (2.0, 0.5), (0.0, -1.0)],
    "uniform": [(0.0, 1.0), (-3.0, 5.0), (2.0, 1.0), (0.0, np.inf)],
    "exponential": [(1.0,), (3.0,), (-1.0,)],
    "standard_gamma": [(0.4,), (1.0,), (5.0,), (-1.0,)],
    "gamma": [(0.4, 2.0), (5.0, 1.5), (1.0, -2.0)],
    "beta": [(0.5, 0.7), (2.0, 3.0), (1e-200, 1e-200), (0.0, 1.0)],
    "chisquare": [(0.5,), (4.0,), (0.0,)],
    "noncentral_chisquare": [(0.5, 2.0), (4.0, 1.0), (3.0, 0.0), (1.0, -1.0)],
    "f": [(3.0, 4.0), (0.0, 1.0)],
    "noncentral_f": [(3.0, 4.0, 2.0), (1.0, 1.0, -1.0)],
    "standard_t": [(1.0,), (6.5,), (0.0,)],
    "pareto": [(2.0,), (0.0,)],
    "weibull": [(1.5,), (0.0,), (-1.0,)],
    "power": [(2.0,), (0.0,)],
    "laplace": [(0.0, 1.0), (1.0, -1.0)],
    "gumbel": [(0.0, 1.0), (1.0, 2.0)],
    "logistic": [(0.0, 1.0), (1.0, -1.0)],
    "lognormal": [(0.0, 1.0), (1.0, 0.3)],
    "rayleigh": [(1.0,), (-1.0,)],
    "wald": [(1.0, 2.0), (0.0, 1.0)],
    "vonmises": [(0.5, 2.0), (0.0, 1e-9), (0.0, 2e6), (0.0, -1.0)],
    "triangular": [(0.0, 0.5, 2.0), (1.0, 0.0, 2.0), (1.0, 1.0, 1.0)],
    "poisson": [(3.0,), (40.0,), (0.0,), (-1.0,), (1e19,)],
    "binomial": [(10, 0.3), (500, 0.6), (0, 0.5), (5, 0.0), (-1, 0.5), (5, 2.0)],
    "negative_binomial": [
        (5.0, 0.3),
        (0.5, 0.9),
        (0.0, 0.5),
        (np.nan, 0.5),
        (1.0, 0.0),
        (1e300, 0.5),
    ],
    "geometric": [(0.2,), (0.7,), (0.0,)],
    "zipf": [(2.0,), (1.5,), (2000.0,), (1.0,)],
    "logseries": [(0.5,), (0.999,), (1.0,)],
}


@pytest.mark.parametrize(
    "name, parameters", [(name, p) for name, cases in CASES.items() for p in cases]
)
def test_generator_method_matches_numpy(name, parameters):
    f = method_caller(name, len(parameters))
    for seed in SEEDS:
        assert_same_draws(f, np.random.PCG64, seed, *parameters)


@njit
def mixed(rng, n):
    total = 0.0
    for _ in range(n):
        total += rng.normal() + rng.exponential(2.0) + rng.gamma(3.0)
    return total, rng.integers(0, 10, size=5), rng.random(3), rng.binomial(20, 0.4)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_every_bit_generator_draws_and_advances_as_numpy(bit_generator):
    for seed in SEEDS:
        assert_same_draws(mixed, bit_generator, seed, 50)


@njit
def integer_forms(rng, low, high):
    return (
        rng.integers(high),
        rng.integers(low, high),
        rng.integers(low, high, size=6),
        rng.integers(low, high, endpoint=True, size=(2, 2)),
        rng.integers(low, high, 3, np.int64, True),
    )


@njit
def int32_forms(rng, low, high):
    # Alone: a check that fails after arrays were built leaks them (a taipan bug of the
    # statement's temporaries, see notes/w30/RANDOM.md), so each call is its own statement.
    scalar = rng.integers(low, high, dtype=np.int32)
    return scalar, rng.integers(low, high, size=3, dtype=np.int32)


@pytest.mark.parametrize(
    "low, high",
    [(0, 10), (-5, 5), (3, 4), (0, 2**32), (-(2**40), 2**40), (5, 5), (7, 3), (0, 0), (0, -3)],
)
def test_integers_match_numpy(low, high):
    for seed in SEEDS:
        assert_same_draws(integer_forms, np.random.PCG64, seed, low, high)
        assert_same_draws(int32_forms, np.random.PCG64, seed, low, high)


@njit
def unsigned_integers(rng, low, high):
    return rng.integers(low, high, size=4, dtype=np.uint32), rng.integers(
        low, high, dtype=np.uint64
    )


@pytest.mark.parametrize("low, high", [(0, 10), (5, 2**31), (-1, 5)])
def test_unsigned_integers_match_numpy(low, high):
    assert_same_draws(unsigned_integers, np.random.PCG64, 3, low, high)


@njit
def int32_bounds(rng, low, high):
    return rng.integers(low, high, dtype=np.int32)


@pytest.mark.parametrize("low, high", [(-(2**31) - 1, 0), (0, 2**31 + 1), (0, 2**31)])
def test_integers_out_of_dtype_bounds_raise_as_numpy(low, high):
    assert_same_draws(int32_bounds, np.random.PCG64, 1, low, high)


@njit
def integers_of_size(rng, low, high, size):
    wide = rng.integers(low, high, size=size)
    narrow = rng.integers(low, high, size=size, dtype=np.int32)
    return wide, narrow


@pytest.mark.parametrize("low, high", [(0, 5), (5, 5), (9, 2), (0, 2**40)])
@pytest.mark.parametrize("size", [0, 3])
def test_integers_of_no_elements_check_nothing_as_numpy(low, high, size):
    assert_same_draws(integers_of_size, np.random.PCG64, 1, low, high, size)


@njit
def keyword_forms(rng):
    return (
        rng.normal(scale=2.0, size=2),
        rng.standard_normal(size=3, dtype=np.float64),
        rng.standard_exponential(3, method="inv"),
        rng.standard_exponential(size=2, method="zig"),
        rng.random(dtype=np.float64),
        rng.gamma(shape=2.0),
        rng.uniform(high=3.0),
        rng.integers(low=2, high=9, endpoint=True),
    )


def test_keywords_dtype_and_method_match_numpy():
    for seed in SEEDS:
        assert_same_draws(keyword_forms, np.random.PCG64, seed)


@njit
def shuffles(rng, a):
    b = a.copy()
    rng.shuffle(b)
    return b, rng.permutation(a), rng.permutation(9)


@njit
def shuffles_along(rng, a, axis):
    b = a.copy()
    rng.shuffle(b, axis)
    return b, rng.permutation(a, axis=axis), rng.permutation(6, axis)


@pytest.mark.parametrize(
    "a", [np.arange(10.0), np.arange(15).reshape(5, 3), np.arange(1), np.arange(0, dtype=np.int32)]
)
def test_shuffle_and_permutation_match_numpy(a):
    for seed in SEEDS:
        assert_same_draws(shuffles, np.random.PCG64, seed, a)


@pytest.mark.parametrize(
    "a",
    [
        np.arange(24).reshape(2, 3, 4),
        np.arange(24.0).reshape(4, 6)[:, ::2],  # strided
        np.asfortranarray(np.arange(12).reshape(3, 4)),
        np.arange(8, dtype=np.int8),
        np.zeros((0, 3)),
    ],
)
def test_shuffle_along_every_axis_matches_numpy(a):
    for axis in range(-a.ndim, a.ndim):
        assert_same_draws(shuffles_along, np.random.PCG64, 4, a, axis)


@njit
def shuffle_in_place(rng, a, axis):
    rng.shuffle(a, axis)


def test_shuffle_changes_the_callers_array_and_checks_the_axis():
    a, b = np.arange(12).reshape(3, 4), np.arange(12).reshape(3, 4)
    shuffle_in_place(np.random.default_rng(2), a, 1)
    np.random.default_rng(2).shuffle(b, 1)
    np.testing.assert_array_equal(a, b)
    with pytest.raises(IndexError):
        shuffle_in_place(np.random.default_rng(2), a, 2)
    with pytest.raises(IndexError):
        np.random.default_rng(2).shuffle(a, 2)  # NumPy's AxisError is an IndexError too


def test_generator_state_is_shared_with_python():
    @njit
    def draw(rng):
        return rng.random()

    rng = np.random.default_rng(11)
    reference = np.random.default_rng(11)
    for _ in range(3):
        assert draw(rng) == reference.random()
        assert rng.standard_normal() == reference.standard_normal()  # Python draws in between


def test_generator_argument_has_a_type():
    rng = np.random.default_rng(0)
    assert taipan.typeof(rng) is not None
    assert taipan.typeof(rng) == taipan.typeof(np.random.Generator(np.random.MT19937(1)))


def test_returning_a_generator_gives_the_argument_not_none():
    @njit
    def identity(rng):
        return rng

    rng = np.random.default_rng(0)
    assert identity(rng) is rng


@njit
def single_precision(rng, shape):
    return (
        rng.random(dtype=np.float32),
        rng.random(300, np.float32),
        rng.standard_normal(2000, dtype=np.float32),
        rng.standard_exponential(2000, dtype=np.float32),
        rng.standard_exponential(300, dtype=np.float32, method="inv"),
        rng.standard_gamma(shape, 1000, dtype=np.float32),
        rng.standard_normal(dtype=np.float32),
    )


@pytest.mark.parametrize("shape", [0.3, 1.0, 4.5, 0.0])
def test_float32_draws_match_numpy(shape):
    # NumPy's float algorithms: 32-bit words, the float ziggurat tables, float arithmetic.
    for seed in SEEDS:
        assert_same_draws(single_precision, np.random.PCG64, seed, shape)


def test_other_dtypes_are_a_typing_error_naming_the_line():
    @njit
    def half(rng):
        return rng.random(dtype=np.float16)

    with pytest.raises(TypingError, match="dtype must be np.float64 or np.float32"):
        half(np.random.default_rng(0))


def test_unknown_method_names_the_method():
    @njit
    def unknown(rng):
        return rng.bytes(3)

    with pytest.raises(Exception, match="numpy.random.Generator.bytes"):
        unknown(np.random.default_rng(0))
