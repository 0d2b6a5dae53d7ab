"""NumPy's legacy ``np.random`` distributions in compiled code give NumPy's numbers, bit for bit.

``np.random.seed(s)`` inside compiled code seeds the compiled legacy stream (MT19937 and the
polar method's cached gauss) as ``RandomState`` seeds its own, so the same calls after the same
seed give the same values, scalar or sized, in the same order as NumPy outside compiled code;
invalid parameters raise NumPy's ValueError with NumPy's message.
"""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import assert_value_same
from conftest import run

from taipan import njit
from taipan.runtime import live_blocks

SEEDS = [0, 1, 42, 2**32 - 1]


def assert_identical(actual, expected):
    """Tuples item by item; arrays by shape, dtype and values; scalars by value and kind."""
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_identical(a, e)
        return
    if isinstance(expected, np.ndarray):
        assert isinstance(actual, np.ndarray)
        assert actual.shape == expected.shape and actual.dtype == expected.dtype
        # Bit for bit: the bytes, not a tolerance.
        assert actual.tobytes() == expected.tobytes(), f"\n{actual!r}\n!=\n{expected!r}"
        return
    assert_value_same(actual, expected)


def assert_same_stream(f, *args):
    """``f`` (jitted) and ``f.py_func`` give identical results or raise the same error; the
    compiled call leaves no memory block behind."""
    expected, expected_error = run(f.py_func, *args)
    before = live_blocks()
    actual, actual_error = run(f, *args)
    if expected_error is not None:
        assert actual_error is not None, f"NumPy raised {expected_error!r}, taipan {actual!r}"
        assert type(actual_error) is type(expected_error)
        assert str(actual_error) == str(expected_error)
    else:
        assert actual_error is None, f"taipan raised {actual_error!r}"
        assert_identical(actual, expected)
    del actual
    assert live_blocks() == before


def sampler(draw, arity):
    """A jitted function: seed, then draw a scalar and arrays of every size form."""
    if arity == 0:

        def run0(seed):
            np.random.seed(seed)
            return draw(), draw(size=5), draw(size=(2, 3)), draw(size=0), draw(None), draw()

        return njit(run0)
    if arity == 1:

        def run1(seed, a):
            np.random.seed(seed)
            return draw(a), draw(a, size=5), draw(a, size=(2, 3)), draw(a, size=0), draw(a, None)

        return njit(run1)
    if arity == 2:

        def run2(seed, a, b):
            np.random.seed(seed)
            return draw(a, b), draw(a, b, size=5), draw(a, b, size=(2, 3)), draw(a, b, size=0)

        return njit(run2)

    def run3(seed, a, b, c):
        np.random.seed(seed)
        return draw(a, b, c), draw(a, b, c, size=7), draw(a, b, c, size=(3, 2)), draw(a, b, c)

    return njit(run3)


# Parameters that take each branch of NumPy's algorithms (gamma's shape < 1 and >= 1, the
# binomial's inversion and BTPE, Poisson's multiplication and PTRS, ...), then invalid ones.
CASES = {
    "standard_exponential": [()],
    "standard_cauchy": [()],
    "exponential": [(1.0,), (2.5,), (0.0,), (-1.0,), (-0.0,), (np.nan,)],
    "standard_gamma": [(0.5,), (1.0,), (3.7,), (0.0,), (-1.0,)],
    "gamma": [(0.3, 2.0), (1.0, 1.0), (9.0, 0.5), (2.0, -1.0), (-2.0, 1.0)],
    "normal": [(0.0, 1.0), (3.0, 2.5), (1.0, 0.0), (0.0, -1.0)],
    "beta": [(0.5, 0.7), (1.0, 1.0), (2.0, 5.0), (0.3, 4.0), (0.0, 1.0), (1.0, -1.0)],
    "chisquare": [(1.0,), (3.5,), (0.2,), (0.0,)],
    "noncentral_chisquare": [
        (3.0, 2.0),
        (0.5, 2.0),
        (2.0, 0.0),
        (1.0, 30.0),
        (0.0, 1.0),
        (1.0, -1.0),
    ],
    "f": [(3.0, 4.0), (0.5, 20.0), (0.0, 1.0), (1.0, 0.0)],
    "noncentral_f": [(3.0, 4.0, 1.0), (0.5, 20.0, 0.0), (1.0, 1.0, -1.0)],
    "standard_t": [(1.0,), (5.0,), (0.3,), (0.0,)],
    "pareto": [(2.0,), (0.5,), (0.0,)],
    "weibull": [(1.5,), (0.0,), (0.3,), (-1.0,)],
    "power": [(2.0,), (0.5,), (0.0,)],
    "laplace": [(0.0, 1.0), (2.0, 3.0), (0.0, -1.0)],
    "gumbel": [(0.0, 1.0), (2.0, 3.0), (0.0, -1.0)],
    "logistic": [(0.0, 1.0), (2.0, 3.0), (0.0, -1.0)],
    "lognormal": [(0.0, 1.0), (1.0, 0.25), (0.0, -1.0)],
    "rayleigh": [(1.0,), (3.0,), (-1.0,)],
    "wald": [(1.0, 2.0), (3.0, 0.5), (0.0, 1.0), (1.0, 0.0)],
    "vonmises": [(0.5, 2.0), (0.0, 1e-9), (1.0, 1e-6), (-2.0, 50.0), (0.0, -1.0)],
    "triangular": [
        (0.0, 0.5, 2.0),
        (-1.0, -1.0, 1.0),
        (0.0, 1.0, 1.0),
        (1.0, 0.0, 2.0),
        (0.0, 3.0, 2.0),
        (1.0, 1.0, 1.0),
    ],
    "poisson": [(3.0,), (0.0,), (25.0,), (1e6,), (-1.0,), (np.nan,), (1e19,)],
    "binomial": [
        (10, 0.3),
        (100, 0.3),
        (1000, 0.9),
        (20, 0.95),
        (0, 0.5),
        (5, 0.0),
        (5, 1.0),
        (-1, 0.5),
        (5, 1.5),
        (5, np.nan),
    ],
    "negative_binomial": [(5.0, 0.3), (1.0, 0.9), (0.5, 0.01), (0.0, 0.5), (1.0, 1.5)],
    "geometric": [(0.2,), (0.5,), (1.0,), (0.01,), (0.0,), (1.5,)],
    "zipf": [(2.0,), (1.2,), (5.0,), (1.0,), (np.nan,)],
    "logseries": [(0.6,), (0.01,), (0.99,), (0.0,), (1.0,), (-0.5,)],
    "hypergeometric": [
        (10, 20, 5),
        (100, 200, 50),
        (300, 20, 250),
        (0, 5, 3),
        (5, 5, 10),
        (5, 5, 11),
        (-1, 5, 1),
        (5, -1, 1),
        (5, 5, 0),
    ],
}


@pytest.mark.parametrize(
    "name, parameters", [(name, p) for name, cases in CASES.items() for p in cases]
)
def test_legacy_distribution_matches_numpy(name, parameters):
    f = sampler(getattr(np.random, name), len(parameters))
    for seed in SEEDS:
        assert_same_stream(f, seed, *parameters)


@njit
def interleaved(seed):
    # Every draw shares one stream, and the gauss cache carries over between functions.
    np.random.seed(seed)
    first = np.random.standard_normal()
    gamma = np.random.gamma(4.0)
    second = np.random.normal(1.0, 2.0)
    rest = np.random.standard_t(3.0, 3)
    return first, gamma, second, rest, np.random.randn(), np.random.binomial(50, 0.5)


@pytest.mark.parametrize("seed", SEEDS)
def test_draws_share_one_stream_and_the_gauss_cache(seed):
    assert_same_stream(interleaved, seed)


@njit
def keyword_forms(seed):
    np.random.seed(seed)
    return (
        np.random.gamma(shape=2.0, scale=3.0),
        np.random.normal(scale=2.0),
        np.random.exponential(),
        np.random.poisson(),
        np.random.laplace(size=3),
        np.random.binomial(n=7, p=0.25, size=(2, 2)),
        np.random.hypergeometric(ngood=7, nbad=3, nsample=4, size=2),
    )


def test_keywords_and_defaults_match_numpy():
    for seed in SEEDS:
        assert_same_stream(keyword_forms, seed)


@njit
def sample_aliases(seed):
    np.random.seed(seed)
    return (
        np.random.random_sample(3),
        np.random.ranf(),
        np.random.sample((2, 2)),
        np.random.rand(2, 3),
        np.random.randn(4),
        np.random.random(),
    )


def test_uniform_aliases_match_numpy():
    for seed in SEEDS:
        assert_same_stream(sample_aliases, seed)


@njit
def integer_parameters(seed, n, p):
    np.random.seed(seed)
    return np.random.binomial(n, p), np.random.poisson(n), np.random.gamma(n, p, size=2)


def test_integer_and_float_parameters_convert_as_numpy_does():
    assert_same_stream(integer_parameters, 3, 40, 0.5)
    assert_same_stream(integer_parameters, 3, np.int32(40), np.float32(0.5))


@njit
def multinomials(seed, n, pvals):
    np.random.seed(seed)
    return (
        np.random.multinomial(n, pvals),
        np.random.multinomial(n, pvals, size=4),
        (np.random.multinomial(n, pvals, size=(2, 3))),
    )


@pytest.mark.parametrize(
    "n, pvals",
    [
        (10, np.array([0.2, 0.3, 0.5])),
        (1000, np.array([0.1, 0.1, 0.1, 0.7])),
        (0, np.array([0.5, 0.5])),
        (5, np.array([1.0])),
        (50, np.array([0.0, 1.0, 0.0])),
        (10, np.array([0.6, 0.6, 0.1])),  # sum(pvals[:-1]) > 1
        (10, np.array([-0.1, 0.6, 0.5])),
        (10, np.array([np.nan, 0.5])),
        (-1, np.array([0.5, 0.5])),
        (10, np.array([0.2, 0.3, 0.5], dtype=np.float32)),
        (10, np.array([0.2, 0.9, 0.3, 0.5])[::2]),  # strided
    ],
)
def test_multinomial_matches_numpy(n, pvals):
    for seed in SEEDS:
        assert_same_stream(multinomials, seed, n, pvals)


@njit
def dirichlets(seed, alpha):
    np.random.seed(seed)
    return (
        np.random.dirichlet(alpha),
        np.random.dirichlet(alpha, 3),
        np.random.dirichlet(alpha, size=(2, 2)),
    )


@pytest.mark.parametrize(
    "alpha",
    [
        np.array([1.0, 2.0, 3.0]),
        np.array([0.1, 0.5]),
        (2.0, 3.0, 0.5),
        (1, 2),
        np.array([1.0, 0.0]),
        np.array([1.0, -2.0]),
    ],
)
def test_dirichlet_matches_numpy(alpha):
    for seed in SEEDS:
        assert_same_stream(dirichlets, seed, alpha)


@njit
def shuffled(seed, a):
    np.random.seed(seed)
    b = a.copy()
    np.random.shuffle(b)
    return b, np.random.permutation(a), np.random.permutation(7)


@pytest.mark.parametrize(
    "a", [np.arange(10.0), np.arange(12).reshape(4, 3), np.arange(1), np.arange(0.0)]
)
def test_shuffle_and_permutation_match_numpy(a):
    for seed in SEEDS:
        assert_same_stream(shuffled, seed, a)


def test_sampling_continues_numpy_stream_after_seed_in_python_is_independent():
    # The compiled stream is its own: seeding NumPy outside does not reseed compiled code, as
    # in Numba; seeding inside gives NumPy's stream for that seed.
    @njit
    def draws(n):
        return np.random.gamma(2.0, size=n)

    @njit
    def seed(s):
        np.random.seed(s)

    seed(7)
    np.random.seed(7)
    np.testing.assert_array_equal(draws(5), np.random.gamma(2.0, size=5))


def test_non_number_parameter_is_a_typing_error():
    from taipan.errors import TypingError

    @njit
    def bad(x):
        return np.random.gamma(x)

    with pytest.raises(TypingError):
        bad("a")


@njit
def choices(seed, a, size, replace):
    np.random.seed(seed)
    first = np.random.choice(a, replace=replace)
    return first, np.random.choice(a, size, replace), np.random.choice(a, (2, 2), replace=replace)


@pytest.mark.parametrize("a", [10, 4, np.arange(10.0) * 3, np.arange(6, dtype=np.int32)])
@pytest.mark.parametrize("replace", [True, False])
@pytest.mark.parametrize("size", [0, 1, 3, 4])
def test_choice_with_and_without_replacement_matches_numpy(a, replace, size):
    for seed in SEEDS:
        assert_same_stream(choices, seed, a, size, replace)


@njit
def choice_sized(seed, a, size):
    np.random.seed(seed)
    return np.random.choice(a, size)


@pytest.mark.parametrize(
    "a, size", [(0, 3), (0, 0), (-2, 1), (np.arange(0.0), 2), (np.arange(0.0), 0)]
)
def test_choice_of_nothing_raises_as_numpy(a, size):
    assert_same_stream(choice_sized, 1, a, size)


@njit
def multinomial_of_list(seed, n):
    np.random.seed(seed)
    return np.random.multinomial(n, [0.25, 0.25, 0.5]), np.random.dirichlet([1.0, 2.0], 2)


def test_multinomial_and_dirichlet_take_lists():
    for seed in SEEDS:
        assert_same_stream(multinomial_of_list, seed, 20)
