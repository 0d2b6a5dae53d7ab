"""``a.flat`` across layouts: reading and iterating match NumPy for C, F and strided arrays;
writing through it works on C arrays and is refused at typing on others, whose ``flat`` is a
copy (writing into the copy would leave the array silently unchanged)."""

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@njit
def _read(a):
    s = 0.0
    for x in a.flat:
        s += x
    return s + a.flat[1] * 100.0 + a.flat[-1] * 10000.0


@njit
def _write(a):
    a.flat[5] = 99.0
    return a


def _layouts():
    base = np.arange(24.0).reshape(4, 6)
    return {
        "C": base.copy(),
        "F": np.asfortranarray(base),
        "strided": base[:, ::2],
        "reversed": base[::-1],
    }


@pytest.mark.parametrize("layout", ["C", "F", "strided", "reversed"])
def test_reading_flat_follows_c_order(layout):
    a = _layouts()[layout]
    before = live_blocks()
    assert _read(a) == _read.py_func(a)
    assert live_blocks() == before


def test_writing_flat_of_a_c_array_writes_the_array():
    a, b = np.zeros((3, 4)), np.zeros((3, 4))
    np.testing.assert_array_equal(_write(a), _write.py_func(b))
    assert a[1, 1] == 99.0


@pytest.mark.parametrize("layout", ["F", "strided", "reversed"])
def test_writing_flat_of_another_layout_is_refused_at_its_line(layout):
    a = _layouts()[layout]
    with pytest.raises(TypingError, match="read-only") as info:
        _write(a)
    assert "a.flat[5] = 99.0" in str(info.value)
