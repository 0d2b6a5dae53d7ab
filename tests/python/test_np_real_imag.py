"""np.real and np.imag of numbers and arrays (taipan.numpy_library.methods) compared with
NumPy: the attributes ``x.real`` and ``x.imag`` read through NumPy's functions, also in a
branch pruned by isinstance."""

import numpy as np
import pytest
from array_helpers import assert_array_same
from numpy_checks import no_allocation_leak

from taipan import njit


@njit
def real_and_imag(x):
    return np.real(x), np.imag(x)


@pytest.mark.parametrize(
    "x",
    [1 + 2j, -0.5j, 2.5, 7, np.array([1 + 2j, 3j]), np.arange(3.0), np.arange(4).reshape(2, 2)],
)
def test_real_and_imag_match_numpy(x):
    expected = real_and_imag.py_func(x)
    with no_allocation_leak():
        _compare(real_and_imag(x), expected)


def _compare(got, expected):
    if isinstance(expected[0], np.ndarray):
        assert_array_same(got[0], expected[0])
        assert_array_same(got[1], np.asarray(expected[1]))
    else:
        assert got == expected


@njit
def imaginary_part_if_complex(x):
    if isinstance(x, complex):
        return np.imag(x)
    return -1.0


def test_imag_in_a_branch_pruned_by_isinstance():
    for x in (1 + 2j, 3.5, "s"):
        assert imaginary_part_if_complex(x) == imaginary_part_if_complex.py_func(x)
