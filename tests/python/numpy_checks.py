"""Shared checks of the NumPy library's tests: compiled results against NumPy's (values, or the
same exception and message), and the runtime's allocation counters (every block freed)."""

from __future__ import annotations

import contextlib
import gc
import warnings

import numpy as np
import pytest
from array_helpers import assert_array_same, assert_value_same

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
