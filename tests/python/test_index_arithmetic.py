"""Integer arithmetic inside an array subscript (`x[m + j * k]`) carries LLVM's `nsw`, as all of
Numba's integer arithmetic does, so that LLVM proves indices of range counters non-negative and
strength-reduces them. The results still equal the Python function's, negative indices
included; int64 arithmetic outside a subscript keeps wrapping (hashing, LCGs, dict keys)."""

import re

import numpy as np
import pytest
from conftest import assert_same

from taipan import njit
from taipan.runtime import live_blocks

MASK = 2**64 - 1


def wrapped(value):
    """`value` as int64 arithmetic leaves it: reduced modulo 2**64 into the signed range."""
    value &= MASK
    return value - 2**64 if value >= 2**63 else value


def llvm_text(dispatcher):
    return "\n".join(dispatcher.inspect_llvm().values())


@njit
def strided_differences(x, kmax):
    total = 0.0
    n = x.size
    for k in range(1, kmax + 1):
        for m in range(k):
            ll = 0.0
            for j in range(1, (n - m - 1) // k):
                ll += abs(x[m + j * k] - x[m + (j - 1) * k])
            total += ll / k
    return total


@njit
def gather_from_end(x, count):
    total = 0.0
    for j in range(count):
        total += x[-1 - j] * (j + 1)  # negative indices, counted from the end
    return total


@njit
def offset_index(x, i, shift):
    return x[i - shift]


@njit
def two_dimensional(a):
    total = 0
    rows, cols = a.shape
    for i in range(1, rows):
        for j in range(cols):
            total += a[i * 1 - 1, j - cols] * a[rows - i, 2 * j - j]
    return total


@njit
def strided_store(n, k):
    out = np.zeros(n * k)
    for m in range(k):
        for j in range(n):
            out[m + j * k] = j - m
            out[j * k + m] += 0.5
    return out


@njit
def narrow_operands(x, i, j):
    # int32 operands: the arithmetic is int64 (as Numba types it) and the index is exact
    return x[i * j - i]


def test_strided_differences_equal_py_func():
    x = np.random.default_rng(0).standard_normal(1000)
    for kmax in (1, 2, 5, 10):
        assert_same(strided_differences, x, kmax, ulps=8)


def test_negative_indices():
    x = np.arange(10.0)
    for count in (0, 1, 5, 10):
        assert_same(gather_from_end, x, count)
    for i, shift in ((0, 1), (3, 5), (9, 19), (9, 0), (2, -3)):
        assert_same(offset_index, x, i, shift)


def test_two_dimensional_and_stores():
    a = np.arange(24, dtype=np.int64).reshape(4, 6)
    assert_same(two_dimensional, a)
    before = live_blocks()
    for n, k in ((1, 1), (5, 3), (4, 7)):
        assert np.array_equal(strided_store(n, k), strided_store.py_func(n, k))
    assert live_blocks() == before


def test_int32_operands():
    x = np.arange(50)
    for i, j in ((3, 4), (-2, 7), (7, 0)):
        assert_same(narrow_operands, x, np.int32(i), np.int32(j))


def test_out_of_range_with_boundscheck_raises():
    @njit(boundscheck=True)
    def checked(x, m, j, k):
        return x[m + j * k]

    x = np.arange(10)
    assert checked(x, 1, 2, 3) == 7
    assert checked(x, -3, 1, 1) == 8
    with pytest.raises(IndexError):
        checked(x, 1, 3, 3)
    with pytest.raises(IndexError):
        checked(x, -20, 1, 1)


def test_index_arithmetic_carries_nsw():
    x = np.arange(10.0)
    assert offset_index(x, 3, 1) == 2.0
    # As lowered: the optimised code tests `i < shift` for the wraparound and drops the flag.
    assert "sub nsw i64" in "\n".join(offset_index._inspect("llvm-unoptimized", None).values())


@njit
def trailing_window_sums(a, window):
    # numbagg's moving-window form: the index `i - window` is read only when `i >= window`
    out = np.empty(a.size)
    total = 0.0
    for i in range(a.size):
        total += a[i]
        if i >= window:
            total -= a[i - window]
        out[i] = total
    return out


def test_difference_index_under_its_guard_has_no_wraparound():
    x = np.random.default_rng(1).standard_normal(50)
    for window in (0, 1, 3, 49, 50, 80):
        actual = trailing_window_sums(x, window)
        expected = trailing_window_sums.py_func(x, window)
        assert actual.tobytes() == expected.tobytes()
    # `i - window < 0` is tested as `i < window`, which the guard decides: no select of the
    # extent (the wraparound) is left in the loop.
    assert not re.search(r"select i1 [^,]+, i64", llvm_text(trailing_window_sums))


@njit
def plain_arithmetic(a, b, c):
    return a * b + c


@njit
def lcg(state, steps):
    for _ in range(steps):
        state = state * 6364136223846793005 + 1442695040888963407
    return state


@njit
def arithmetic_next_to_index(x, a, b):
    value = a * b + 1  # outside the subscript: wraps as int64
    return x[a - b] + value


def test_plain_arithmetic_still_wraps():
    big = 2**62
    for a, b, c in ((big, 4, 1), (big, 2, 0), (-big, 3, 5), (2**63 - 1, 2**63 - 1, 7)):
        assert plain_arithmetic(a, b, c) == wrapped(a * b + c)
    assert "nsw" not in llvm_text(plain_arithmetic)
    for seed, steps in ((0, 1), (1, 100), (-12345, 1000)):
        expected = seed
        for _ in range(steps):
            expected = wrapped(expected * 6364136223846793005 + 1442695040888963407)
        assert lcg(seed, steps) == expected
    x = np.arange(5)
    assert arithmetic_next_to_index(x, 2**62, 2**62 - 1) == 1 + wrapped(2**62 * (2**62 - 1) + 1)


@njit
def dict_of_products(a, b):
    d = {}
    d[a * b] = 1  # a dict key is not an index: it wraps and hashes as the wrapped int
    return d


@njit
def hashes(a, b):
    return hash(a * b), hash((a - b, a + b))


def test_dict_keys_and_hashes_unchanged():
    big = 2**62
    assert dict_of_products(big, 4) == {wrapped(big * 4): 1}
    for a, b in ((3, 4), (big, 2), (-big, 3), (2**63 - 1, -1)):
        product, pair = hashes(a, b)
        assert product == hash(wrapped(a * b))
        assert pair == hash((wrapped(a - b), wrapped(a + b)))
