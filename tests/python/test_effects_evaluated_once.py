"""Expressions with effects of their own are evaluated as often as Python evaluates them:
`d[k()] += v` calls `k()` once (the item is read, then stored), and NumPy scalar globals keep
their own type (a float32 global times a float32 is a float32 product, as in NumPy). Results are
compared with the Python function's, and the runtime's allocation counters must balance."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import UnsupportedError


@njit
def bump(calls):
    calls[0] += 1
    return calls[0] % 3


def dict_items(n):
    d = {0: 0, 1: 0, 2: 0}
    calls = np.zeros(1, np.int64)
    for _ in range(n):
        d[bump(calls)] += 1
    return d[0], d[1], d[2], calls[0]


def list_items(n):
    items = [0.5, 1.5, 2.5]
    calls = np.zeros(1, np.int64)
    for _ in range(n):
        items[bump(calls)] *= 2.0
    return items[0], items[1], items[2], calls[0]


def array_items(n):
    a = np.zeros(3, np.int64)
    calls = np.zeros(1, np.int64)
    for _ in range(n):
        a[bump(calls)] += calls[0]  # the index is evaluated before the value, as in Python
    return a[0], a[1], a[2], calls[0]


def array_tuple_items(n):
    a = np.zeros((3, 2))
    calls = np.zeros(1, np.int64)
    for _ in range(n):
        a[bump(calls), 1] -= 1.5
    return a.sum(), a[0, 1], calls[0]


def string_items(n):
    words = ["a", "b", "c"]
    calls = np.zeros(1, np.int64)
    for _ in range(n):
        words[bump(calls)] += "x"
    return words[0] + words[1] + words[2], calls[0]


@pytest.mark.parametrize(
    "function", [dict_items, list_items, array_items, array_tuple_items, string_items]
)
@pytest.mark.parametrize("n", [0, 1, 7])
def test_an_augmented_item_s_index_is_evaluated_once(function, n):
    compiled = njit(function)
    expected = function(n)
    with no_allocation_leak():
        assert compiled(n) == expected


def test_an_augmented_item_of_a_call_s_result_is_refused():
    @njit
    def make():
        return np.zeros(3)

    @njit
    def f():
        make()[0] += 1.0

    with pytest.raises(UnsupportedError, match="assign the container to a variable") as error:
        f()
    assert "test_effects_evaluated_once.py" in str(error.value)


def test_an_augmented_slice_with_effects_in_its_bounds_is_refused():
    @njit
    def f(a, calls):
        a[bump(calls) : 3] += 1.0

    with pytest.raises(UnsupportedError, match="bounds into variables"):
        f(np.zeros(3), np.zeros(1, np.int64))


SCALE32 = np.float32(1.1)
OFFSET32 = np.int32(-7)
HALF64 = np.float64(0.5)
SQRT_2PI = np.float32((2 * np.pi) ** 0.5)


def times_scale(x):
    return x * SCALE32


def ratio(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * x[i] / (x[i] * SQRT_2PI) + SCALE32


@pytest.mark.parametrize("x", [np.float32(3.3), np.float32(-0.0), np.float32(np.inf)])
def test_float32_globals_stay_float32(x):
    with no_allocation_leak():
        got = njit(times_scale)(x)
    expected = times_scale(x)
    assert np.float32(got) == expected or (np.isnan(got) and np.isnan(expected))
    assert np.float32(got).tobytes() == expected.tobytes()


def test_numpy_scalar_globals_keep_their_type_in_arithmetic():
    @njit
    def mixed(x, k):
        return x / SCALE32, k * OFFSET32, HALF64 * 3

    x, k = np.float32(0.7), np.int32(5)
    with no_allocation_leak():
        got = mixed(x, k)
    expected = mixed.py_func(x, k)
    assert np.float32(got[0]).tobytes() == expected[0].tobytes()
    assert got[1] == expected[1] == -35
    assert got[2] == expected[2]


def test_float32_arithmetic_with_float32_globals_matches_numpy_bit_for_bit():
    x = np.linspace(0.1, 3.0, 1001, dtype=np.float32)
    got, expected = np.empty_like(x), np.empty_like(x)
    with no_allocation_leak():
        njit(ratio)(x, got)
    ratio(x, expected)
    assert got.tobytes() == expected.tobytes()


def test_an_f_string_of_a_float32_global_matches_python():
    # NumPy formats np.float32 in an f-string as the Python float it converts to.
    @njit
    def text():
        return f"{SCALE32}", f"{SCALE32:.3f}"

    with no_allocation_leak():
        got = text()
    assert got == (f"{SCALE32}", f"{SCALE32:.3f}")
