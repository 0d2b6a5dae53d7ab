"""np.searchsorted of complex arrays in NumPy's complex order (real part, then imaginary part,
NaN parts last: npysort's less), with scalar and array keys of any number type, both sides and
a sorter. Only sorted arrays are compared: for an unsorted one the answer depends on the order
in which NumPy's binary search probes, which NumPy 2.5 changed (the GPU host's NumPy 2.5.2
differs from 2.4 there)."""

import itertools

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

POOL = [complex(*c) for c in itertools.product([0, 1, np.nan], [0, 1, np.nan])]


@taipan.njit
def search(a, v):
    return np.searchsorted(a, v)


@taipan.njit
def search_right(a, v):
    return np.searchsorted(a, v, side="right")


@taipan.njit
def search_sorted_by(a, v, sorter):
    return np.searchsorted(a, v, side="left", sorter=sorter)


def samples():
    rng = np.random.default_rng(31)
    for i in range(60):
        a = rng.choice(POOL, rng.choice([3, 5, len(POOL)]))
        v = rng.choice(POOL, 4 + i % 3)
        yield np.sort(a), v
        yield np.sort(a).astype(np.complex64), v.astype(np.complex64)


@pytest.mark.parametrize("function", [search, search_right], ids=lambda f: f.__name__)
def test_array_keys(function):
    before = live_blocks()
    for a, v in samples():
        np.testing.assert_array_equal(function(a, v), function.py_func(a, v))
    assert live_blocks() == before


@pytest.mark.parametrize("function", [search, search_right], ids=lambda f: f.__name__)
def test_scalar_keys_of_every_number_type(function):
    a = np.sort(np.array(POOL))
    for key in [*POOL, 1, 0.5, np.nan, True, np.float32(1.0), np.complex64(1 + 1j)]:
        assert function(a, key) == function.py_func(a, key), key
    keys = np.arange(3)
    np.testing.assert_array_equal(function(a, keys), function.py_func(a, keys))


def test_sorter():
    a = np.array(POOL[::-1])
    sorter = np.argsort(a)
    v = np.array(POOL)
    np.testing.assert_array_equal(
        search_sorted_by(a, v, sorter), search_sorted_by.py_func(a, v, sorter)
    )
