"""hash() of integers, booleans, floats, complex numbers, tuples of those and strings, and
frozensets in compiled code, equal to CPython's hash() (Objects/longobject.c, pyhash.c,
tupleobject.c, setobject.c): the dict and set tables will hash keys
with it, so that their behaviour (and, where Numba's does, iteration order) matches CPython's.
Strings keep their C++ hash (library/Strings.cpp): this overload declines them."""

import math

from taipan import types
from taipan.extending import overload
from taipan.types import int64, uint64
from taipan.unrolling import literal_unroll

# CPython's modulus for numeric hashes: the Mersenne prime 2**61 - 1 (sys.hash_info.modulus).
_MODULUS = (1 << 61) - 1
_BITS = 61
_INF = 314159  # sys.hash_info.inf
# xxHash's primes as CPython's tuple hash uses them, written as the int64 of the same bits:
# compiled int64 arithmetic wraps as Py_uhash_t does.
_PRIME_1 = 11400714785074694791 - (1 << 64)
_PRIME_2 = 14029467366897019727 - (1 << 64)
_PRIME_5 = 2870177450012600261
_LOW_31 = (1 << 31) - 1


def _hash_signed(n):
    """CPython's hash of an int: sign(n) * (|n| mod M), -1 becoming -2; written without |n|,
    which overflows for the smallest int64."""
    r = n % _MODULUS  # Python's floor modulo: 0 <= r < M
    if n < 0 and r != 0:
        r = -(_MODULUS - r)
    if r == -1:
        r = -2
    return r


def _hash_unsigned(n):
    # The modulus as uint64: uint64 % int64 would be computed in float64, as in Numba.
    return int64(n % uint64(_MODULUS))  # never -1


def _hash_float(v):
    """_Py_HashDouble: the integer of the same value hashes the same (hash(2.0) == hash(2)).
    NaN hashes to 0, as in CPython before 3.10 and in Numba: CPython 3.10+ hashes a NaN by its
    object's identity, which a compiled value has not."""
    if math.isnan(v):
        return 0
    if math.isinf(v):
        return _INF if v > 0 else -_INF
    m, e = math.frexp(v)
    sign = 1
    if m < 0:
        sign = -1
        m = -m
    x = 0
    while m != 0.0:
        x = ((x << 28) & _MODULUS) | (x >> (_BITS - 28))
        m *= 268435456.0  # 2**28
        e -= 28
        y = int(m)
        m -= y
        x += y
        if x >= _MODULUS:
            x -= _MODULUS
    if e >= 0:
        e = e % _BITS
    else:
        e = _BITS - 1 - ((-1 - e) % _BITS)
    x = ((x << e) & _MODULUS) | (x >> (_BITS - e))
    x = x * sign
    if x == -1:
        x = -2
    return x


def _hash_complex(v):
    """complex_hash: hash(real) + 1000003 * hash(imag) in wrapping arithmetic, -1 becoming -2
    (so hash(2+0j) == hash(2))."""
    x = hash(v.real) + 1000003 * hash(v.imag)  # sys.hash_info.imag
    if x == -1:
        x = -2
    return x


def _hashable(t):
    if isinstance(t, (types.Integer, types.Boolean, types.Float, types.Complex, types.UnicodeType)):
        return True  # a string's hash is the C++ library's, CPython's own
    return isinstance(t, types.BaseTuple) and all(_hashable(e) for e in t.types)


# CPython's frozenset_hash (Objects/setobject.c) in Py_uhash_t arithmetic: the xor of every
# item's shuffled hash (the table's empty and dummy slots cancel out), mixed with the size.
_UINT64_MAX = (1 << 64) - 1


def _hash_frozenset(s):
    h = uint64(0)
    for item in s:
        bits = uint64(hash(item))  # _shuffle_bits of the item's hash
        h ^= ((bits ^ uint64(89869747)) ^ (bits << uint64(16))) * uint64(3644798167)
    h ^= (uint64(len(s)) + uint64(1)) * uint64(1927868237)
    h ^= (h >> uint64(11)) ^ (h >> uint64(25))
    h = h * uint64(69069) + uint64(907133923)
    if h == uint64(_UINT64_MAX):
        h = uint64(590923713)
    return int64(h)


def _hash_tuple(t):
    """CPython's tuplehash (xxHash's round) over the items' hashes, the loop unrolled over a
    tuple whose items differ in type."""
    acc = _PRIME_5
    for item in literal_unroll(t):
        acc += hash(item) * _PRIME_2
        acc = (acc << 31) | ((acc >> 33) & _LOW_31)
        acc *= _PRIME_1
    acc += len(t) ^ (_PRIME_5 ^ 3527539)
    if acc == -1:
        return 1546275796
    return acc


@overload(hash)
def _hash(value):
    if isinstance(value, types.Boolean):
        return lambda value: 1 if value else 0
    if isinstance(value, types.Integer):
        unsigned = str(value).startswith("u")
        if unsigned and str(value) == "uint64":
            return _hash_unsigned
        return _hash_signed  # narrower unsigned values fit int64
    if isinstance(value, types.Float):
        return _hash_float
    if isinstance(value, types.Complex):
        return _hash_complex
    if isinstance(value, types.BaseTuple) and _hashable(value):
        return _hash_tuple
    if str(value).startswith("frozenset("):
        return _hash_frozenset
    return None  # strings and the rest: the C++ library's hash, or its error
