"""Tuples unify item by item: returning `(x, None)` on one path and `(x, y)` on another gives a
tuple with an optional item, as Numba's tuples unify; with a declared signature of optional
items (dcor's pattern) both returns convert. Results compare with the Python function."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same
from numpy_checks import no_allocation_leak

from taipan import njit, types
from taipan.errors import TypingError


def maybe_pair(x, flag):
    if flag:
        return x, 2.0 * x
    return x, None


def test_returns_unify_into_an_optional_item():
    f = njit(maybe_pair)
    assert_same(f, 1.5, True)
    assert_same(f, 1.5, False)
    assert str(f.nopython_signatures[0].return_type) == "Tuple(float64, OptionalType(float64))"


def test_declared_optional_items():
    signature = types.Tuple((types.float64, types.optional(types.float64)))(
        types.float64, types.boolean
    )
    f = njit(signature)(maybe_pair)
    assert_same(f, 3.0, True)
    assert_same(f, 3.0, False)


def test_arrays_beside_optional_items():
    @njit
    def f(a, flag):
        total = a.sum()
        if flag:
            return a * 2, total, np.var(a)
        return a * 2, total, None

    a = np.arange(5.0)
    with no_allocation_leak():
        for flag in (True, False):
            got, want = f(a, flag), f.py_func(a, flag)
            np.testing.assert_array_equal(got[0], want[0])
            assert got[1:] == want[1:]
            del got


def test_tuples_of_other_lengths_do_not_unify():
    @njit
    def f(flag):
        if flag:
            return 1, 2
        return 1, None, 3

    with pytest.raises(TypingError):
        f(True)
