"""Optional values (Numba's Optional(T)): variables and returns that are a value on some paths
and None on others, narrowing with ``is None``, optional arguments from signatures, and the
run-time TypeError of an optional used as a number while it is None."""

from __future__ import annotations

import pytest
from numpy_checks import no_allocation_leak

from taipan import njit, types


@njit
def maybe(x):
    if x > 0:
        return x
    return None


@njit
def maybe_local(x):
    y = None
    if x > 0:
        y = x * 2
    return y


@njit
def narrowed(x):
    y = None
    if x > 3:
        y = x
    if y is None:
        return -1
    return y + 1


@njit
def narrowed_not(x):
    y = None
    if x > 3:
        y = x
    if y is not None:
        return y * 10
    return 0


@njit
def unnarrowed(x):
    y = None
    if x > 3:
        y = x
    return y + 1


@njit
def conditional(x):
    return x if x > 0 else None


@pytest.mark.parametrize("function", [maybe, maybe_local, narrowed, narrowed_not, conditional])
@pytest.mark.parametrize("x", [-2, 0, 1, 5, 7])
def test_matches_python(function, x):
    with no_allocation_leak():
        assert function(x) == function.py_func(x)
        assert type(function(x)) is type(function.py_func(x))


def test_float_values():
    for x in (-1.5, 2.5):
        assert maybe(x) == maybe.py_func(x)
        assert narrowed(x) == narrowed.py_func(x)


def test_use_without_narrowing_raises_type_error_when_none():
    assert unnarrowed(5) == 6
    with no_allocation_leak(), pytest.raises(TypeError):
        unnarrowed(1)


def test_optional_argument_from_signature():
    @njit(types.int64(types.Optional(types.int64)))
    def f(x):
        if x is None:
            return -1
        return x + 1

    assert f(None) == -1
    assert f(41) == 42


def test_optional_return_in_signature():
    @njit(types.optional(types.float64)(types.float64))
    def f(x):
        if x < 0:
            return None
        return x

    assert f(-1.0) is None
    assert f(2.0) == 2.0


def test_optional_type_objects():
    t = types.Optional(types.int64)
    assert isinstance(t, types.Optional)
    assert t.type == types.int64
    assert not isinstance(types.int64, types.Optional)
    assert types.Optional(t) == t


@njit
def returns_optional_items(maybe):
    found = None
    if maybe:
        found = 10
    return 1, found, (found, 2.5)


@pytest.mark.parametrize("maybe", [True, False])
def test_returned_tuple_keeps_optional_items(maybe):
    # `return 1, x` with x None or an int gives None to Python, not "expected int64, got None"
    assert returns_optional_items(maybe) == returns_optional_items.py_func(maybe)
    for _ in range(1000):  # boxing None many times (Numba issue #4058)
        assert returns_optional_items(False)[1] is None
