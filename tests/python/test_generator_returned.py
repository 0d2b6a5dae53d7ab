"""A ``np.random.Generator`` returned from compiled code is the Python object passed in.

Compiled code holds a Generator as its bit generator's ``bitgen_t`` address; the boxing
layer remembers which Generator object each address was unboxed from, so returning it (alone,
in a tuple, through a jitted callee, from either of two arguments) gives back that very object,
as Numba does, with its state advanced by the draws made on the way.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from test_random_generator import BIT_GENERATORS, states_equal

from taipan import njit
from taipan.runtime import live_blocks


@njit
def draw_and_return(rng):
    rng.random()
    return rng


@njit
def in_a_tuple(rng, n):
    values = rng.integers(0, 10, size=n)
    return values, rng, n


@njit
def through_a_callee(rng):
    first = draw_and_return(rng)
    return first, draw_and_return(first).standard_normal()


@njit
def either(flag, a, b):
    return a if flag else b


@njit
def swapped(a, b):
    return b, a


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS, ids=lambda b: b.__name__)
def test_returned_generator_is_the_argument(bit_generator):
    rng, twin = np.random.Generator(bit_generator(4)), np.random.Generator(bit_generator(4))
    before = live_blocks()
    assert draw_and_return(rng) is rng
    assert draw_and_return.py_func(twin) is twin
    assert states_equal(rng.bit_generator.state, twin.bit_generator.state)
    assert live_blocks() == before


def test_generator_in_a_returned_tuple():
    rng, twin = np.random.default_rng(9), np.random.default_rng(9)
    before = live_blocks()
    values, returned, n = in_a_tuple(rng, 5)
    expected, _, _ = in_a_tuple.py_func(twin, 5)
    assert returned is rng and n == 5
    assert np.array_equal(values, expected) and values.dtype == expected.dtype
    del values
    assert live_blocks() == before
    assert rng.random() == twin.random()


def test_generator_returned_through_a_jitted_callee():
    rng, twin = np.random.default_rng(2), np.random.default_rng(2)
    returned, normal = through_a_callee(rng)
    expected_rng, expected_normal = through_a_callee.py_func(twin)
    assert returned is rng and expected_rng is twin
    assert normal == expected_normal
    assert states_equal(rng.bit_generator.state, twin.bit_generator.state)


@pytest.mark.parametrize("flag", [True, False])
def test_the_chosen_one_of_two_generators(flag):
    a, b = np.random.default_rng(1), np.random.Generator(np.random.MT19937(1))
    assert either(flag, a, b) is either.py_func(flag, a, b)
    assert swapped(a, b) == (b, a) and swapped(a, b)[0] is b


def test_generators_passed_once_are_not_kept_alive():
    # The table of passed Generators drops the ones nobody holds as it grows.
    def live_generators():
        gc.collect()
        return sum(isinstance(o, np.random.Generator) for o in gc.get_objects())

    draw_and_return(np.random.default_rng(0))
    before = live_generators()
    for seed in range(200):
        assert draw_and_return(np.random.default_rng(seed)) is not None
    assert live_generators() - before < 40
    kept = np.random.default_rng(5)
    assert draw_and_return(kept) is kept
    for seed in range(200):
        draw_and_return(np.random.default_rng(seed))
    assert draw_and_return(kept) is kept
