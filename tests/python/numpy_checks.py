"""Shared checks of the tests: compiled results against NumPy's or CPython's (values, or the same
exception and message), and the runtime's allocation counters (every block freed)."""

from __future__ import annotations

import contextlib
import gc
import math
import warnings

import numpy as np
import pytest
from array_helpers import assert_array_same, assert_value_same

from taipan import njit, typed
from taipan.runtime import get_allocation_stats


class AllocationCount:
    """The blocks the runtime allocated and freed while a ``counting_allocations`` block ran."""

    allocated = 0
    freed = 0


@contextlib.contextmanager
def counting_allocations():
    """Counts the runtime's allocations and frees in the block, garbage collected on both sides
    so that results dropped in the block count as freed."""
    count = AllocationCount()
    gc.collect()
    before = get_allocation_stats()
    yield count
    gc.collect()
    after = get_allocation_stats()
    count.allocated = after.alloc - before.alloc
    count.freed = after.free - before.free


@contextlib.contextmanager
def no_allocation_leak():
    """Asserts that every block the runtime allocated in the block was freed."""
    with counting_allocations() as count:
        yield
    assert count.allocated == count.freed, f"{count.allocated} allocated, {count.freed} freed"


def numpy_quietly(function, *args, **kwargs):
    """``function(*args, **kwargs)`` run by NumPy with its warnings silenced (NaN slices, inf *
    0): the reference result."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def numpy_or_value_error(function, *args, **kwargs):
    """``numpy_quietly``, or the ValueError NumPy raised."""
    try:
        return numpy_quietly(function, *args, **kwargs)
    except ValueError as error:
        return error


def check_like_numpy(f, *args, rtol=0.0, **kwargs):
    """Compiled ``f`` gives what ``f.py_func`` gives in NumPy: arrays by shape, dtype and value
    (inexact ones within ``rtol``), scalars by kind and value, or the same ValueError with the
    same message; and every block it allocated is freed."""
    expected = numpy_or_value_error(f.py_func, *args, **kwargs)
    with no_allocation_leak():
        if isinstance(expected, Exception):
            with pytest.raises(type(expected)) as raised:
                f(*args, **kwargs)
            assert str(raised.value) == str(expected)
            return
        actual = f(*args, **kwargs)
        if isinstance(expected, np.ndarray) and expected.ndim > 0:
            assert_array_same(actual, expected, rtol=rtol if expected.dtype.kind in "fc" else 0)
        else:
            assert_value_same(actual, expected, rtol=rtol)
        del actual


def outcome(function, *args, **kwargs):
    """What a call gives: ``("value", result)``, or ``("raised", class, message)`` of the
    exception it raised."""
    try:
        return ("value", function(*args, **kwargs))
    except Exception as error:  # noqa: BLE001 - the exception is the outcome compared
        return ("raised", type(error), str(error))


def plain(value):
    """A result in Python's terms, comparable with ``==``: a typed.Dict as a dict (its order
    kept), an array as its dtype and items, a NumPy scalar as its Python number, inside
    containers too."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (typed.Dict, dict)):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def check_outcome(function, *args, reference=None):
    """``njit(function)`` gives what ``reference`` (``function`` itself by default) gives in
    Python: the same value in plain terms, or the same exception and message; and every block
    it allocated is freed. Returns the compiled outcome."""
    compiled = njit(function)
    with no_allocation_leak():
        got = plain(outcome(compiled, *args))
    expected = plain(outcome(reference or function, *args))
    assert got == expected, (got, expected)
    return got


def same_in_order(got, expected):
    """Equal values of the same type, NaN matching NaN; dicts, sets, lists and tuples also in
    the same order (CPython's iteration order of a set), element by element."""
    if isinstance(expected, np.generic):
        expected = expected.item()
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(got, float) and math.isnan(got)
    if type(got) is not type(expected):
        return False
    if isinstance(expected, dict):
        return list(got) == list(expected) and all(
            same_in_order(got[k], expected[k]) for k in expected
        )
    if isinstance(expected, (set, frozenset)):
        return got == expected and list(got) == list(expected)
    if isinstance(expected, (list, tuple)):
        return len(got) == len(expected) and all(map(same_in_order, got, expected))
    return got == expected


def check_in_order(function, *args):
    """``njit(function)`` returns what ``function`` returns, in plain terms and in the same
    order (``same_in_order``), and every block it allocated is freed. Returns the compiled
    result."""
    compiled = njit(function)
    with no_allocation_leak():
        got = plain(compiled(*args))
    expected = plain(function(*args))
    assert same_in_order(got, expected), (got, expected)
    return got
