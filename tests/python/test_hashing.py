"""hash() in compiled code equals CPython's hash() for the keys dicts and sets will take: ints
(every int64 and uint64, the modulus 2**61 - 1 and its neighbours), booleans, floats (inf, -inf,
-0.0, subnormals, the integer-valued ones hashing as their int) and tuples of those, nested."""

import sys

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit

M = sys.hash_info.modulus

INTS = [0, 1, -1, -2, 2, M - 1, M, M + 1, -M, -M - 1, 2**62, 2**63 - 1, -(2**63), 12345678901]
FLOATS = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    2.0,
    1.5,
    -1.5,
    0.1,
    -2.5e-10,
    1e300,
    -1e300,
    5e-324,
    2.0**61,
    float("inf"),
    float("-inf"),
    123456.789,
]
TUPLES = [(), (1,), (1, 2.0), (-1, -1), ((1, 2), 3.5, True), (0.0, -0.0), (M, 2**63 - 1, 7)]


def hashed(x):
    return hash(x)


@pytest.mark.parametrize("value", INTS + [True, False] + FLOATS + TUPLES, ids=repr)
def test_hash_equals_cpython(value):
    compiled = njit(hashed)
    with no_allocation_leak():
        assert compiled(value) == hash(value)


def test_hash_of_uint64_beyond_int64():
    compiled = njit(hashed)
    for value in [2**63, 2**64 - 1, 2**64 - 2, M * 3]:
        assert compiled(np.uint64(value)) == hash(value)


@pytest.mark.parametrize(
    "value", [0j, 1 + 2j, -1.5 - 0.25j, complex(1e30, -1e-30), complex(float("inf"), 1), 2 + 0j]
)
def test_hash_of_complex_equals_cpython(value):
    compiled = njit(hashed)
    assert compiled(value) == hash(value)
    assert compiled(np.complex64(value)) == hash(complex(np.complex64(value)))
    assert compiled((value, 1)) == hash((value, 1))


def test_hash_of_nan_is_zero_as_in_numba():
    # CPython 3.10+ hashes a NaN by its object's identity, which a compiled value has not: 0,
    # as Numba (and CPython before 3.10) does. NaN never equals itself, so tables stay correct.
    assert njit(hashed)(float("nan")) == 0


def test_equal_keys_hash_equally():
    compiled = njit(hashed)
    assert compiled(2.0) == compiled(2) == compiled((2,)[0])
    assert compiled(-0.0) == compiled(0.0) == compiled(0) == compiled(False)
    assert compiled(1.0) == compiled(True)
