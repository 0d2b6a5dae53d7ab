"""``numba._helperlib``'s random-state routines, which Numba's ``test_random`` uses to make a
Python generator follow the compiled one (``rnd_get_np_state_ptr``, ``rnd_set_state``...).

A "state pointer" names one of the calling thread's Mersenne Twisters: np.random's legacy one or
the ``random`` module's. In ``taipan`` mode they are taipan's (read and set through
``taipan._core``); in ``python`` mode, where the test's functions run as plain Python, they are
NumPy's global ``RandomState`` and the ``random`` module's own generator.
"""

import random as _random

import numpy as _np

from numba import PLAIN_PYTHON
from numba._missing import fill_missing

_NUMPY, _PYTHON = "numpy", "python"
_WORDS = 624


def rnd_get_np_state_ptr():
    return _NUMPY


def rnd_get_py_state_ptr():
    return _PYTHON


def rnd_get_state(ptr):
    """``(index, words)``: the index of the next word and the 624 words."""
    if PLAIN_PYTHON:
        if ptr == _NUMPY:
            _, words, index = _np.random.get_state()[:3]
            return int(index), [int(word) for word in words]
        state = _random.getstate()[1]
        return int(state[-1]), list(state[:-1])
    from taipan import _core

    index, words = _core.random_state(ptr == _NUMPY)
    return int(index), list(words)


def rnd_set_state(ptr, state):
    """Sets ``(index, words)``; a cached gauss value is dropped, as Numba drops it."""
    index, words = state
    words = [int(word) for word in words]
    if len(words) != _WORDS:
        raise ValueError(f"a Mersenne Twister state has {_WORDS} words, not {len(words)}")
    if PLAIN_PYTHON:
        if ptr == _NUMPY:
            _np.random.set_state(("MT19937", _np.array(words, dtype=_np.uint32), index, 0, 0.0))
        else:
            _random.setstate((3, tuple(words) + (index,), None))
        return
    from taipan import _core

    _core.set_random_state(ptr == _NUMPY, index, words)


def rnd_seed(ptr, seed):
    """An int seeds as NumPy seeds (``init_genrand``); bytes seed ``init_by_array`` with their
    little-endian 32-bit words."""
    if isinstance(seed, (bytes, bytearray)):
        padded = bytes(seed) + b"\0" * (-len(seed) % 4)
        key = [int.from_bytes(padded[i : i + 4], "little") for i in range(0, len(padded), 4)]
        words = True
    else:
        key, words = [int(seed) & 0xFFFFFFFF], False
    if PLAIN_PYTHON:
        generator = _np.random.RandomState()
        generator.seed(_np.array(key, dtype=_np.uint32) if words else key[0])
        _, state, index = generator.get_state()[:3]
        rnd_set_state(ptr, (int(index), [int(word) for word in state]))
        return
    from taipan import _core

    _core.seed_random_state(ptr == _NUMPY, key, words)


def rnd_shuffle(ptr):
    """Regenerates the 624 words (the twister's "twist") and rewinds the index."""
    if PLAIN_PYTHON:
        raise NotImplementedError("rnd_shuffle has no plain-Python counterpart")
    from taipan import _core

    _core.twist_random_state(ptr == _NUMPY)


__getattr__ = fill_missing(globals(), __name__)
