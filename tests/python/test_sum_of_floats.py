"""sum() of floats computes what the running Python computes: from 3.12 CPython compensates the
rounding of a float sum (Neumaier), before it adds plainly; compiled code follows the
interpreter it runs under (runtime/PythonDialect). NumPy's float64 items (an array's) are added
plainly by CPython at every version, and so they are here."""

import random

import numpy as np
import pytest
from conftest import same

from taipan import njit
from taipan.runtime import live_blocks


def sum_list(values):
    return sum(values)


def sum_list_float_start(values):
    return sum(values, 0.5)


def sum_list_int_start(values):
    return sum(values, 3)


def sum_generator(values):
    return sum(v * 1.5 for v in values)


def sum_generator_int_start(values):
    return sum((v for v in values), 7)


def sum_tuple(values):
    return sum((values[0], values[1], values[2], 1, values[3]))


def sum_of_list_built_inside(n):
    items = [0.1] * n
    return sum(items)


CASES = [
    [0.1] * 10,
    [1e100, 1.0, -1e100],
    [1e16, 1.0, 1.0, -1e16],
    [-0.0, -0.0],
    [-0.0],
    [float("inf"), 1.0, 2.0],
    [float("inf"), float("-inf"), 1.0],
    [float("nan"), 1.0],
    [1e308, 1e308, -1e308],
    [0.1, 0.2, 0.3, -0.6, 1e-17, 3.0],
]


def _random_cases():
    generator = random.Random(2811)
    return [
        [generator.uniform(-1e6, 1e6) * 10.0 ** generator.randint(-8, 8) for _ in range(n)]
        for n in (4, 5, 17, 100)
    ]


@pytest.mark.parametrize(
    "function",
    [sum_list, sum_list_float_start, sum_list_int_start, sum_generator, sum_generator_int_start],
)
@pytest.mark.parametrize("values", CASES + _random_cases())
def test_sum_of_a_list_of_floats(function, values):
    compiled = njit(function)
    before = live_blocks()
    actual, expected = compiled(list(values)), function(list(values))
    assert same(actual, expected), (actual, expected)
    assert live_blocks() == before


@pytest.mark.parametrize("values", [c for c in CASES + _random_cases() if len(c) >= 4])
def test_sum_of_a_tuple_mixing_ints_and_floats(values):
    actual, expected = njit(sum_tuple)(list(values)), sum_tuple(list(values))
    assert same(actual, expected), (actual, expected)


def test_sum_of_a_list_made_in_compiled_code():
    for n in (1, 3, 10, 1000):  # an empty one sums to 0.0 (a static type), CPython to 0
        assert same(njit(sum_of_list_built_inside)(n), sum_of_list_built_inside(n))


def test_an_arrays_items_are_added_plainly():
    values = np.array([0.1] * 10)
    assert same(njit(sum_list)(values), sum_list(values))
