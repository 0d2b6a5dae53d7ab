"""Tiered compilation (compiler/TieredCompilation, TAIPAN_TIER_UP_CALLS): a function without
loops or recursion, long enough to pay, runs level-0 code first and its level-3 code after
TIER_UP_CALLS calls. Both tiers must compute exactly what the Python function does."""

import math
import pickle
import threading

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import config, njit


@pytest.fixture
def tier_up_after(monkeypatch):
    """Dispatchers compiled while this is active tier up after `count` calls."""

    def set_count(count):
        monkeypatch.setattr(config, "TIER_UP_CALLS", count)

    return set_count


def straight_line(a, b, x, y):
    # Long enough to qualify: floor division and modulo by constants and by b, float division,
    # min/max, signs and conversions, all without a loop.
    k0 = a % 1009
    k1 = (a + 1) // 7
    k2 = a // b + a % b
    f0 = x / (abs(y) + 1.0) + 0.5
    f1 = max(x, y) * 0.75 - min(x, y) * 0.125
    f2 = math.copysign(1.0, x) * f0 - k0 * 0.001
    if k1 % 2 == 0:
        k0 = (k0 * 7 + k1 - 3) % 1009
        f1 = f1 * 0.5 + k2 * 0.25
    else:
        k1 = k1 // 3 + k0 % 5
        f2 = f2 - f1 / (abs(f0) + 2.0)
    k2 = (k2 * 3 + k0) % 97 - (k1 // 4)
    f0 = f0 * 0.25 + f1 * 0.5 - f2 * 0.125
    f1 = x // (abs(y) + 0.5) + x % 3.5
    f2 = (f0 - f1) * 2.0 + k2
    k0 = -(k0 // -9) + k1 % -4
    return k0 + k1 + k2, f0 + f1 + f2, f1


# The same code as a callee of the functions below (compiled into each caller's module).
line = njit(straight_line)

INTS = [0, 1, -1, 7, -7, 1009, -1010, 2**40 + 3, -(2**40) - 5]
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e300, -1e-300, math.inf, -math.inf, math.nan]


def same(got, want):
    both_nan = [isinstance(g, float) and math.isnan(g) and math.isnan(w) for g, w in zip(got, want)]
    return all(g == w or nan for g, w, nan in zip(got, want, both_nan)) and (
        math.copysign(1, got[2]) == math.copysign(1, want[2])
    )


def check_against_python(function):
    for a in INTS:
        for b in (3, -4, 1009):
            for x, y in zip(FLOATS, FLOATS[::-1]):
                got = function(a, b, x, y)
                want = function.py_func(a, b, x, y)
                assert same(got, want), (a, b, x, y, got, want)


def first_tier(function):
    (compiled,) = function._overloads.values()
    return compiled.first_tier


def test_both_tiers_compute_what_python_does(tier_up_after):
    tier_up_after(10_000)
    function = njit(straight_line)
    function(1, 3, 1.0, 2.0)
    assert first_tier(function)
    first_address = next(iter(function._overloads.values())).address
    check_against_python(function)
    assert first_tier(function)  # fewer calls than the count so far
    for i in range(10_000):
        function(i, 3, 1.0, 2.0)
    assert not first_tier(function)
    assert next(iter(function._overloads.values())).address != first_address
    check_against_python(function)


def test_the_call_that_reaches_the_count_runs_the_final_code(tier_up_after):
    tier_up_after(3)
    function = njit(straight_line)
    results = [function(5, 3, 0.5, -1.5) for _ in range(5)]
    assert not first_tier(function)
    assert all(same(r, function.py_func(5, 3, 0.5, -1.5)) for r in results)


def test_exceptions_are_the_same_in_both_tiers(tier_up_after):
    tier_up_after(4)
    function = njit(straight_line)
    messages = []
    for _ in range(6):
        with pytest.raises(ZeroDivisionError) as caught:
            function(5, 0, 1.0, 2.0)
        messages.append(str(caught.value))
    assert not first_tier(function)
    with pytest.raises(ZeroDivisionError) as python:
        straight_line(5, 0, 1.0, 2.0)
    assert set(messages) == {str(python.value)}


def with_loop(a, b, x, y):
    total = line(a, b, x, y)[1]
    for i in range(a):
        total += i
    return total


@njit
def recursive(n, b, x, y):
    if n <= 0:
        return line(n, b, x, y)[0]
    return recursive(n - 1, b, x, y) + 1


def short(a, b):
    return a + b


def test_only_long_straight_line_code_gets_a_first_tier(tier_up_after):
    tier_up_after(1000)
    looped = njit(with_loop)
    assert looped(300, 3, 1.0, 2.0) == with_loop(300, 3, 1.0, 2.0)
    assert not first_tier(looped)
    assert recursive(4, 3, 1.0, 2.0) == recursive.py_func(4, 3, 1.0, 2.0)
    assert not first_tier(recursive)
    small = njit(short)
    assert small(2, 3) == 5
    assert not first_tier(small)
    fast = njit(fastmath=True)(straight_line)
    fast(1, 3, 1.0, 2.0)
    assert not first_tier(fast)


def test_a_level_below_3_is_final_from_the_start(tier_up_after, monkeypatch):
    tier_up_after(1000)
    monkeypatch.setattr(config, "OPT", 2)
    function = njit(straight_line)
    function(1, 3, 1.0, 2.0)
    assert not first_tier(function)


def test_zero_turns_tiering_off(tier_up_after):
    tier_up_after(0)
    function = njit(straight_line)
    function(1, 3, 1.0, 2.0)
    assert not first_tier(function)


def test_cached_code_is_always_final(tier_up_after, tmp_path, monkeypatch):
    tier_up_after(1000)
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    function = njit(cache=True)(straight_line)
    function(1, 3, 1.0, 2.0)
    assert not first_tier(function)


def test_an_explicit_signatures_conversions_count_towards_the_same_code(tier_up_after):
    tier_up_after(6)
    function = njit("Tuple((int64, float64, float64))(int64, int64, float64, float64)")(
        straight_line
    )
    assert first_tier(function)
    for _ in range(3):
        function(np.int32(5), 3, 1.0, 2.0)  # converted to the signature's int64
        function(5, 3, 1.0, 2.0)
    assert not first_tier(function)
    assert same(function(np.int32(5), 3, 1.0, 2.0), straight_line(5, 3, 1.0, 2.0))


def sum_of_line(a, b, x, y):
    k, f, g = line(a, b, x, y)
    return f + g + k


def python_sum_of_line(a, b, x, y):
    k, f, g = straight_line(a, b, x, y)
    return f + g + k


def test_a_declared_return_type_holds_in_both_tiers(tier_up_after):
    # float32 rounds the sum: the level-3 code must return a float32 too, not the inferred
    # float64 (this is the value py_func's result takes through the signature's return type).
    tier_up_after(3)
    function = njit("float32(int64, int64, float64, float64)")(sum_of_line)
    assert first_tier(function)
    want = [float(np.float32(python_sum_of_line(a, 3, 1.0, 2.0))) for a in (5, 6)]
    assert want[0] != python_sum_of_line(5, 3, 1.0, 2.0)  # the rounding shows
    for _ in range(4):
        assert [function(a, 3, 1.0, 2.0) for a in (5, 6)] == want
    assert not first_tier(function)


def build_array(a, x):
    out = np.empty(4)
    out[0] = line(a, 3, x, 1.0)[1]
    out[1] = line(a + 1, -4, x, 2.0)[1]
    out[2] = line(a - 1, 5, -x, 0.5)[2]
    out[3] = a % 7
    return out


def test_arrays_made_by_either_tier_are_released(tier_up_after):
    tier_up_after(5)
    function = njit(build_array)
    with no_allocation_leak():
        for i in range(10):
            np.testing.assert_array_equal(function(i, 0.5), build_array(i, 0.5))
    assert not first_tier(function)


def test_threads_calling_while_the_function_tiers_up(tier_up_after):
    tier_up_after(200)
    function = njit(straight_line)
    function(1, 3, 1.0, 2.0)
    failures = []

    def work(seed):
        for i in range(300):
            a = seed * 1000 + i
            if not same(function(a, 3, 0.5, -1.5), straight_line(a, 3, 0.5, -1.5)):
                failures.append(a)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert not first_tier(function)


def test_a_pickle_never_carries_a_first_tier(tier_up_after):
    from taipan.serialize import carried_code

    tier_up_after(1000)
    function = njit(straight_line)
    function(1, 3, 1.0, 2.0)
    (compiled,) = function._overloads.values()
    assert compiled.first_tier and carried_code(compiled) is None
    restored = pickle.loads(pickle.dumps(function))
    assert same(restored(1, 3, 1.0, 2.0), straight_line(1, 3, 1.0, 2.0))
