"""Branches pruned on values known while compiling, as Numba's dead_branch_prune does: `a.ndim`
of an array and `len(t)` of a tuple (fixed by their types), omitted arguments whose default is
None, None literals, global and closure constants and locals assigned once from a constant,
compared with ==, !=, <, <=, >, >= or tested for truth. The branch not taken would fail to type;
the kept branch's value equals the Python function's."""

import numpy as np
import pytest
from conftest import assert_same
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError

FLAG = False
MODE = "fast"
LIMIT = 2.5
NEGATIVE = -3


def by_ndim(a):
    if a.ndim == 1:
        return a[0]
    return a[0, 0]


def by_ndim_order(a):
    if a.ndim > 1:
        return a[0, 0] + a.shape[1]
    return a[0]


def by_ndim_not_equal(a):
    if a.ndim != 2:
        return a.sum()
    return a[0, 0]


def ndim_as_expression(a):
    return a[0] if a.ndim == 1 else a[0, 0]


def omitted_none(a, weights=None):
    if weights is None:
        return a.sum()
    return (a * weights).sum()


def omitted_none_is_not(a, weights=None):
    if weights is not None:
        return (a * weights).sum()
    return a.sum()


def none_literal(a):
    x = None
    if x is None:
        return a[0]
    return x[0, 0]


def global_flag(a):
    if FLAG:
        return a[0, 0]
    return a[0]


def global_string(a):
    if MODE == "slow":
        return a[0, 0]
    return a[0]


def global_float_order(a):
    if LIMIT < 2:
        return a[0, 0]
    return a[0]


def negated_global(a):
    if -NEGATIVE <= 2:
        return a[0, 0]
    return a[0]


def tuple_length(t):
    if len(t) == 2:
        return t[0] + t[1]
    return t[0] + t[1] + t[2]


def local_constant(a):
    k = 1
    if k == 2:
        return a[0, 0]
    return a[0]


def combined(a, weights=None):
    if a.ndim == 1 and weights is None:
        return a[0]
    if not (a.ndim == 1):  # noqa: SIM201 - `not` of a decided comparison
        return a[0, 0]
    return a[0] * weights[0]


def closure_constant(dimensions):
    def pick(a):
        if dimensions == a.ndim:
            return a.sum()
        return a[0, 0, 0]

    return pick


VECTOR = np.arange(1.0, 5.0)
MATRIX = np.arange(1.0, 7.0).reshape(2, 3)


@pytest.mark.parametrize(
    "function, args",
    [
        (by_ndim, (VECTOR,)),
        (by_ndim, (MATRIX,)),
        (by_ndim_order, (VECTOR,)),
        (by_ndim_order, (MATRIX,)),
        (by_ndim_not_equal, (VECTOR,)),
        (by_ndim_not_equal, (MATRIX,)),
        (ndim_as_expression, (VECTOR,)),
        (ndim_as_expression, (MATRIX,)),
        (omitted_none, (VECTOR,)),
        (omitted_none, (VECTOR, VECTOR)),
        (omitted_none_is_not, (VECTOR,)),
        (none_literal, (VECTOR,)),
        (global_flag, (VECTOR,)),
        (global_string, (VECTOR,)),
        (global_float_order, (VECTOR,)),
        (negated_global, (VECTOR,)),
        (tuple_length, ((1, 2),)),
        (tuple_length, ((1, 2.5, 4),)),
        (local_constant, (VECTOR,)),
        (combined, (VECTOR,)),
        (combined, (MATRIX,)),
        (closure_constant(1), (VECTOR,)),
        (closure_constant(2), (MATRIX,)),
    ],
    ids=lambda value: getattr(value, "__name__", None) or type(value).__name__,
)
def test_the_branch_that_cannot_type_is_pruned(function, args):
    f = njit(function)
    with no_allocation_leak():
        assert_same(f, *args)


def test_an_integer_array_takes_the_same_path():
    f = njit(by_ndim)
    assert_same(f, np.arange(6).reshape(3, 2))
    assert_same(f, np.arange(4, dtype=np.int32))


def test_conditions_known_only_at_run_time_type_both_branches():
    @njit
    def run_time(a, n):
        if n == 1:
            return a[0]
        return a[0, 0]  # typed: a 1-d array has one index

    with pytest.raises(TypingError, match="too many indices"):
        run_time(VECTOR, 1)


def test_a_local_assigned_twice_is_not_a_constant():
    @njit
    def twice(a, flag):
        k = 1
        if flag:
            k = 2
        if k == 2:
            return a[0, 0]
        return a[0]

    with pytest.raises(TypingError, match="too many indices"):
        twice(VECTOR, False)


def test_mixed_kinds_compare_as_python_does():
    text = "1"

    @njit
    def mixed(a):
        if text == 1:  # a string never equals an int
            return a[0, 0]
        return a[0]

    assert_same(mixed, VECTOR)
