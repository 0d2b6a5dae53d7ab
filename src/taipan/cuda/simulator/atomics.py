"""``cuda.atomic`` in the simulator: each operation reads, changes and writes the element under
one lock, and returns the old value, as the GPU's atomics do."""

import builtins
import math
import os
from _thread import allocate_lock

import numpy as np

_lock = allocate_lock()


def _after_fork():
    # A thread of the parent may have held it.
    global _lock
    _lock = allocate_lock()


os.register_at_fork(after_in_child=_after_fork)


def _nan(value):
    return isinstance(value, (float, np.floating)) and math.isnan(value)


def _max(a, b):
    # As numba-cuda's: a NaN element or value changes nothing (the element stays).
    if _nan(a) or _nan(b):
        return a
    return builtins.max(a, b)


def _min(a, b):
    if _nan(a) or _nan(b):
        return a
    return builtins.min(a, b)


def _nanmax(a, b):
    # NaN loses: the other value is kept.
    if _nan(a) or _nan(b):
        return b if _nan(a) else a
    return builtins.max(a, b)


def _nanmin(a, b):
    if _nan(a) or _nan(b):
        return b if _nan(a) else a
    return builtins.min(a, b)


def add(ary, idx, val):
    """ary[idx] += val; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = old + val
    return old


def sub(ary, idx, val):
    """ary[idx] -= val; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = old - val
    return old


def and_(ary, idx, val):
    """ary[idx] &= val; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = old & val
    return old


def or_(ary, idx, val):
    """ary[idx] |= val; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = old | val
    return old


def xor(ary, idx, val):
    """ary[idx] ^= val; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = old ^ val
    return old


def inc(ary, idx, val):
    """ary[idx] = 0 if ary[idx] >= val else ary[idx] + 1; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = 0 if old >= val else old + 1
    return old


def dec(ary, idx, val):
    """ary[idx] = val if ary[idx] == 0 or ary[idx] > val else ary[idx] - 1; returns the old
    value."""
    with _lock:
        old = ary[idx]
        ary[idx] = val if old == 0 or old > val else old - 1
    return old


def exch(ary, idx, val):
    """ary[idx] = val; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = val
    return old


def max(ary, idx, val):
    """ary[idx] = max(ary[idx], val); returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = _max(old, val)
    return old


def min(ary, idx, val):
    """ary[idx] = min(ary[idx], val); returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = _min(old, val)
    return old


def nanmax(ary, idx, val):
    """max() ignoring NaN; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = _nanmax(old, val)
    return old


def nanmin(ary, idx, val):
    """min() ignoring NaN; returns the old value."""
    with _lock:
        old = ary[idx]
        ary[idx] = _nanmin(old, val)
    return old


def cas(ary, idx, old, val):
    """ary[idx] = val if ary[idx] == old; returns the value found."""
    with _lock:
        found = ary[idx]
        if found == old:
            ary[idx] = val
    return found


def compare_and_swap(ary, old, val):
    """cas() on the first element (Numba's older form)."""
    with _lock:
        index = (0,) * ary.ndim
        found = ary[index]
        if found == old:
            ary[index] = val
    return found


class _Atomic:
    """The ``cuda.atomic`` namespace."""

    add = staticmethod(add)
    sub = staticmethod(sub)
    and_ = staticmethod(and_)
    or_ = staticmethod(or_)
    xor = staticmethod(xor)
    inc = staticmethod(inc)
    dec = staticmethod(dec)
    exch = staticmethod(exch)
    max = staticmethod(max)
    min = staticmethod(min)
    nanmax = staticmethod(nanmax)
    nanmin = staticmethod(nanmin)
    cas = staticmethod(cas)
    compare_and_swap = staticmethod(compare_and_swap)

    def __repr__(self):
        return "<cuda.atomic (CUDA simulator)>"


atomic = _Atomic()
