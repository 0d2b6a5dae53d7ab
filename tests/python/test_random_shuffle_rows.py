"""random.shuffle of an N-d array shuffles its rows (the first axis) with CPython's draws, each
swap a whole-row swap as Numba does (CPython's `x[i], x[j] = x[j], x[i]` on row views copies one
row over the other instead)."""

import random

import numpy as np
import pytest

import taipan
from taipan import _core
from taipan.runtime import live_blocks


def follow(seed):
    """A CPython Random seeded with `seed` whose state the compiled generator now shares."""
    generator = random.Random(seed)
    state = generator.getstate()[1]
    _core.set_random_state(False, state[-1], list(state[:-1]))
    return generator


@taipan.njit
def shuffle(x):
    random.shuffle(x)


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.arange(32).reshape(8, 4),
        lambda: np.arange(24.0).reshape(2, 3, 4),
        lambda: np.asfortranarray(np.arange(15).reshape(5, 3)),
        lambda: np.arange(40).reshape(10, 4)[::2, 1:3],
        lambda: np.zeros((0, 3)),
        lambda: np.arange(3).reshape(1, 3),
    ],
)
def test_rows_are_permuted_by_cpythons_draws(make):
    before = live_blocks()
    for seed in (1, 7, 123):
        array = make()
        generator = follow(seed)
        # the permutation CPython's shuffle gives a list of the row numbers
        order = list(range(len(array)))
        generator.shuffle(order)
        expected = make()[order]
        shuffle(array)
        np.testing.assert_array_equal(array, expected)
    assert live_blocks() == before


def test_shuffled_view_writes_through():
    base = np.arange(20).reshape(5, 4)
    view = base[:, :2]
    follow(5)
    shuffle(view)
    assert sorted(map(tuple, base[:, :2])) == [(i * 4, i * 4 + 1) for i in range(5)]
    np.testing.assert_array_equal(base[:, 2:], np.arange(20).reshape(5, 4)[:, 2:])
