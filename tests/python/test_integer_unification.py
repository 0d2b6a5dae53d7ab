"""A variable assigned integers of two signednesses takes Numba's common type.

Numba unifies a signed and an unsigned integer into the narrowest signed integer that holds both
(uint8 and int64 give int64, uint32 and int32 give int64); only uint64 with a signed integer gives
float64. A wider type than needed would change results only in rare cases, but float64 where
Numba keeps an integer silently turns an index into a float.
"""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
SIGNED = ["int8", "int16", "int32", "int64"]

# numba.core.typing.Context().unify_pairs for each pair (Numba 0.68).
NUMBA_UNIFIED = {
    ("uint8", "int8"): "int16",
    ("uint8", "int16"): "int16",
    ("uint8", "int32"): "int32",
    ("uint8", "int64"): "int64",
    ("uint16", "int8"): "int32",
    ("uint16", "int16"): "int32",
    ("uint16", "int32"): "int32",
    ("uint16", "int64"): "int64",
    ("uint32", "int8"): "int64",
    ("uint32", "int16"): "int64",
    ("uint32", "int32"): "int64",
    ("uint32", "int64"): "int64",
    ("uint64", "int8"): "float64",
    ("uint64", "int16"): "float64",
    ("uint64", "int32"): "float64",
    ("uint64", "int64"): "float64",
}


@taipan.njit
def pick(a, b, take_b):
    x = a[0]
    if take_b:
        x = b[0]
    return x


@pytest.mark.parametrize(("unsigned", "signed"), sorted(NUMBA_UNIFIED))
def test_signed_and_unsigned_meet_as_numba_says(unsigned, signed):
    big = np.array([np.iinfo(unsigned).max], dtype=unsigned)
    low = np.array([np.iinfo(signed).min], dtype=signed)
    before = live_blocks()
    from_unsigned = pick(big, low, False)
    from_signed = pick(big, low, True)
    assert live_blocks() == before
    expected = np.dtype(NUMBA_UNIFIED[(unsigned, signed)])
    assert pick.nopython_signatures[-1].return_type.name == expected.name
    # The common type holds both values exactly (float64 for uint64 rounds, as in Numba).
    assert from_unsigned == expected.type(big[0])
    assert from_signed == expected.type(low[0])


def test_loop_variable_over_a_small_unsigned_value_stays_an_index():
    @taipan.njit
    def last_label(labels, n, counts):
        label = labels[0]
        for label in range(n):
            counts[label] += 1
        return label

    counts = np.zeros(3, np.int64)
    result = last_label(np.zeros(4, np.uint8), 3, counts)
    assert result == 2 and isinstance(result, int)
    assert counts.tolist() == [1, 1, 1]
