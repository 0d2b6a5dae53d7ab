"""np.sort, a.sort and argsort of every dtype NumPy sorts, complex arrays in NumPy's
lexicographic order with its placement of NaNs (R + Rj < R + nanj < nan + Rj < nan + nanj), the
``kind=`` keyword (every kind gives the sorted values; argsort stays stable), layouts (C, F,
strided views), and sorted() of lists of strings; compared with NumPy and CPython, the
runtime's blocks counted."""

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks

DTYPES = [
    np.bool_,
    np.int8,
    np.uint8,
    np.int16,
    np.uint16,
    np.int32,
    np.uint32,
    np.int64,
    np.uint64,
    np.float32,
    np.float64,
    np.complex64,
    np.complex128,
]
KINDS = ["quicksort", "mergesort", "heapsort", "stable"]


def values_of(dtype, n=40, seed=0):
    rng = np.random.default_rng(seed)
    if dtype is np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_)
    if np.issubdtype(dtype, np.complexfloating):
        # Few distinct parts, so that ties in the real part are common.
        values = rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)
        return values.astype(dtype)
    if np.issubdtype(dtype, np.floating):
        return rng.normal(size=n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(dtype)


def complex_with_nans(dtype):
    nan = np.nan
    values = [
        complex(nan, nan),
        complex(1, nan),
        complex(nan, 1),
        complex(1, 1),
        complex(1, -1),
        complex(-1, nan),
        complex(nan, -2),
        complex(0, 0),
        complex(-1, 5),
        complex(1, 1),
        complex(np.inf, 0),
        complex(-np.inf, nan),
    ]
    return np.array(values, dtype)


def sort_copy(a):
    return np.sort(a)


def sort_copy_axis(a, axis):
    return np.sort(a, axis=axis)


def sort_flat(a):
    return np.sort(a, axis=None)


def sort_in_place(a):
    a.sort()
    return a


def argsort_of(a):
    return np.argsort(a)


def argsort_method(a):
    return a.argsort()


def check_argsort(function, a):
    """taipan's argsort is stable: NumPy's stable kind gives the same order of ties (its
    default kind need not)."""
    before = live_blocks()
    got = njit(function)(a)
    same_array(got, np.argsort(a, kind="stable"))
    del got
    assert live_blocks() == before


def same_array(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def check(function, *arguments):
    before = live_blocks()
    expected = function(*[a.copy() if isinstance(a, np.ndarray) else a for a in arguments])
    got = njit(function)(*arguments)
    same_array(got, expected)
    del got
    assert live_blocks() == before


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_and_argsort_of_every_dtype(dtype):
    a = values_of(dtype)
    check(sort_copy, a)
    check(sort_in_place, a.copy())
    check_argsort(argsort_of, a)
    check_argsort(argsort_method, a)
    check_argsort(argsort_of, a[::-2])
    matrix = a.reshape(5, 8)
    check(sort_copy, matrix)
    check(sort_copy_axis, matrix, 0)
    check(sort_flat, matrix)
    check(sort_in_place, np.asfortranarray(matrix))
    check(sort_copy, matrix[:, ::3])  # a strided view
    check(sort_copy, a[:0])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_nans_sort_where_numpy_puts_them(dtype):
    a = complex_with_nans(dtype)
    check(sort_copy, a)
    check(sort_in_place, a.copy())
    check_argsort(argsort_of, a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_nans_and_zeros(dtype):
    a = np.array([np.nan, 1.0, -0.0, 0.0, -np.inf, np.nan, np.inf, -1.0], dtype)
    check(sort_copy, a)
    check_argsort(argsort_of, a)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.complex128])
def test_kind_keyword(kind, dtype):
    def sort_kind(a):
        return np.sort(a, kind=kind)

    def method_kind(a):
        a.sort(kind=kind)
        return a

    def method_kind_axis(a):
        a.sort(axis=0, kind=kind)
        return a

    def argsort_kind(a):
        return a.argsort(kind=kind)

    a = values_of(dtype, 24)
    check(sort_kind, a)
    check(method_kind, a.copy())
    check(method_kind, a.reshape(4, 6).copy())
    check(method_kind_axis, a.reshape(4, 6).copy())
    check_argsort(argsort_kind, a)


def test_a_kind_that_is_not_a_literal_is_a_typing_error():
    @njit
    def nonliteral(kind):
        np.arange(5).sort(kind=kind)

    with pytest.raises(TypingError, match='"kind" must be a string literal'):
        nonliteral("quicksort")

    @njit
    def nonliteral_argsort(kind):
        return np.arange(5).argsort(kind=kind)

    with pytest.raises(TypingError, match='"kind" must be a string literal'):
        nonliteral_argsort("quicksort")


def test_sorting_a_read_only_array_in_place_is_refused():
    frozen = np.arange(4.0)
    frozen.flags.writeable = False

    @njit
    def sort_it(a):
        a.sort()

    with pytest.raises(TypingError, match="read-only"):
        sort_it(frozen)


def test_sorted_lists_of_strings():
    def sorted_strings(words):
        return sorted(words), sorted(words, reverse=True)

    def sort_list(words):
        copy = list(words)
        copy.sort()
        return copy

    words = ["pear", "apple", "Äpfel", "", "banana", "apple", "zebra", "Zebra", "日本", "a"]
    before = live_blocks()
    assert njit(sorted_strings)(words) == sorted_strings(words)
    assert njit(sort_list)(words) == sort_list(words)
    assert live_blocks() == before


def test_dtypes_without_a_native_sort_are_refused_not_misread():
    """float16 has no sort code: it was sorted as float64, reading past the array's end."""
    from taipan.errors import UnsupportedError

    with pytest.raises(UnsupportedError, match="sorting arrays of float16"):
        njit(sort_copy)(np.array([3, 1, 2], np.float16))
    with pytest.raises(UnsupportedError, match="sorting arrays of float16"):
        njit(argsort_method)(np.array([3, 1, 2], np.float16))


def test_datetime_arrays_still_sort():
    a = np.array([5, 1, 3], "M8[D]")
    check(sort_copy, a)
