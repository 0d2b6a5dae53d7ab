"""Lists, tuples and numbers given where NumPy takes array-likes, to functions that took only
arrays (partition, argpartition, split, array_split, bincount, searchsorted, digitize,
argwhere, flatnonzero, array_equal, cov, corrcoef, cross, interp, vander, repeat, roll), the
splitting aliases (vsplit, hsplit, dsplit), convolve and correlate with a mode known at run
time, and Numba's messages; compared with NumPy, allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


def check_pieces(f, *args):
    expected = f.py_func(*args)
    with no_allocation_leak():
        actual = f(*args)
        assert len(actual) == len(expected)
        assert all(
            a.dtype == e.dtype and a.shape == e.shape and np.array_equal(a, e)
            for a, e in zip(actual, expected)
        )
        del actual


@njit
def partition(a, kth):
    return np.partition(a, kth)


@njit
def argpartition(a, kth):
    return np.argpartition(a, kth)


def test_partition_of_sequences():
    for a in (
        [3, 1, 2, 5, 4],
        (3.5, 1.0, 2.0),
        [[4, 1, 3], [2, 9, 0]],
        ((1.0, 3.142, -np.inf, 3),),
    ):
        expected = np.partition(np.asarray(a), 1)
        with no_allocation_leak():
            got = partition(a, 1)
            assert np.array_equal(np.sort(got, -1), np.sort(expected, -1))
            assert np.array_equal(got[..., 1], expected[..., 1])
            order = argpartition(a, 1)
            assert np.array_equal(
                np.take_along_axis(np.asarray(a), order, -1)[..., 1], expected[..., 1]
            )
            del got, order


def test_partition_messages():
    with pytest.raises(TypingError, match="The first argument must be an array-like"):
        partition(3, 0)
    with pytest.raises(TypingError, match=r"The first argument must be at least 1-D \(found 0-D\)"):
        partition(np.array(3), 0)
    with pytest.raises(TypingError, match="Partition index must be integer"):
        argpartition(np.arange(3), 1.5)
    with pytest.raises(ValueError, match=r"kth\(=3\) out of bounds \(3\)"):
        partition(np.arange(3), 3)
    with pytest.raises(ValueError, match="kth must be scalar or 1-D"):
        argpartition(np.arange(10), np.arange(6).reshape(3, 2))


@njit
def split(a, sections):
    return np.split(a, sections)


@njit
def array_split(a, sections, axis):
    return np.array_split(a, sections, axis=axis)


@njit
def vsplit(a, sections):
    return np.vsplit(a, sections)


@njit
def hsplit(a, sections):
    return np.hsplit(a, sections)


@njit
def dsplit(a, sections):
    return np.dsplit(a, sections)


def test_splits():
    # NumPy's split reads a list's shape and fails; Numba's (and taipan's) take it as an array
    pieces = split([1, 2, 3, 4], 2)
    assert [list(p) for p in pieces] == [[1, 2], [3, 4]]
    del pieces
    check_pieces(array_split, [[1, 2], [4, 5]], [1], 1)  # (NumPy ends a list at len(ary))
    a = np.arange(24.0).reshape(2, 3, 4)
    for sections in (1, 2, [1], (0, 1), np.array([1, 3])):
        if np.ndim(sections) or a.shape[0] % sections == 0:
            check_pieces(vsplit, a, sections)
        check_pieces(dsplit, a, sections if np.ndim(sections) else 2)
        check_pieces(hsplit, a, sections if np.ndim(sections) else 3)
    check_pieces(hsplit, np.arange(6), 3)
    with pytest.raises(ValueError, match="vsplit only works on arrays of 2 or more dimensions"):
        vsplit(np.arange(4), 2)
    with pytest.raises(ValueError, match="dsplit only works on arrays of 3 or more dimensions"):
        dsplit(np.zeros((2, 2)), 2)
    with pytest.raises(TypingError, match='The argument "ary" must be an array'):
        hsplit([1, 2], 2)


@njit
def bincount(x, weights):
    return np.bincount(x, weights)


@njit
def searchsorted(a, v):
    return np.searchsorted(a, v)


@njit
def digitize(x, bins):
    return np.digitize(x, bins)


@njit
def argwhere(a):
    return np.argwhere(a)


@njit
def flatnonzero(a):
    return np.flatnonzero(a)


@njit
def array_equal(a, b):
    return np.array_equal(a, b)


def test_search_and_counting():
    check_like_numpy(bincount, [1, 1, 3, 0], None)
    check_like_numpy(bincount, (1, 1, 3), [0.5, 1.0, 2.0])
    check_like_numpy(bincount, np.array([2, 0]), (1, 2))
    check_like_numpy(searchsorted, [1, 3, 5], [0, 3, 6])
    check_like_numpy(searchsorted, np.arange(5.0), (1.5, -1.0))
    check_like_numpy(searchsorted, (1, 2, 3), 2)
    check_like_numpy(digitize, [0.5, 3.2, 7.0], [1, 2, 3])
    check_like_numpy(argwhere, ((1.0, 0.0), (0.0, 2.0)))
    check_like_numpy(argwhere, [0, 3, 0, 1])
    check_like_numpy(argwhere, 5)
    check_like_numpy(flatnonzero, ((1, 0), (0, 2)))
    check_like_numpy(flatnonzero, 0.0)


def test_array_equal():
    for a, b in [
        ((1, 2, 3), (1, 2, 3)),
        ([1, 2], (1, 2, 3)),
        (2, 2),
        (3, 2),
        (True, 1),
        (np.arange(3), [0, 1, 2]),
        ([[1.0, 2.0]], np.array([[1.0, 2.0]])),
    ]:
        check_like_numpy(array_equal, a, b)
    with pytest.raises(TypingError, match='Both arguments to "array_equals" must be array-like'):
        array_equal(np.arange(2), None)


@njit
def cov(m):
    return np.cov(m)


@njit
def corrcoef(x, y):
    return np.corrcoef(x, y)


@njit
def cross(a, b):
    return np.cross(a, b)


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def vander(x, n):
    return np.vander(x, n)


def test_statistics_and_products():
    check_like_numpy(cov, ((1.0, 2.0, 4.0), (3.0, 5.0, 1.0)), rtol=1e-14)
    check_like_numpy(cov, [1.0, 2.0, 4.5], rtol=1e-14)
    check_like_numpy(corrcoef, (1.0, 2.0, 4.0), [3, 5, 1], rtol=1e-14)
    check_like_numpy(cross, (1, 2, 3), (4, 5, 6))
    check_like_numpy(cross, [1.5, 2.0], np.array([4.0, 5.0, 6.0]))
    check_like_numpy(interp, (1.5, 2.5), (1, 2, 3), (4.0, 5.0, 7.0))
    check_like_numpy(interp, 1.5, [1, 2, 3], [4, 5, 6])
    check_like_numpy(vander, [1, 2, 3], None)
    check_like_numpy(vander, (1.5, 2.0), 3)
    with pytest.raises(TypingError, match="m has more than 2 dimensions"):
        cov(np.zeros((2, 2, 2)))
    with pytest.raises(TypingError, match="Second argument N must be None or an integer"):
        vander(np.arange(3.0), 1.5)


@njit
def repeat(a, repeats):
    return np.repeat(a, repeats)


@njit
def roll(a, shift):
    return np.roll(a, shift)


def test_repeat_and_roll():
    check_like_numpy(repeat, 4, 3)
    check_like_numpy(repeat, [4, 5], [1, 2])
    check_like_numpy(repeat, (1.5, 2.5), 2)
    check_like_numpy(roll, [1, 2, 3], 2)
    check_like_numpy(roll, 5, 1)
    check_like_numpy(roll, (True, False, True), -1)
    check_like_numpy(roll, np.arange(4), True)
    with pytest.raises(TypingError, match="shift must be an integer"):
        roll(np.arange(4), 1.5)


@njit
def convolve(a, v, mode):
    return np.convolve(a, v, mode=mode)


@njit
def correlate(a, v, mode):
    return np.correlate(a, v, mode)


@pytest.mark.parametrize("f", [convolve, correlate], ids=lambda f: f.__name__)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_mode_known_at_run_time(f, mode):
    for n, m in [(5, 3), (3, 5), (1, 1), (4, 4)]:
        check_like_numpy(f, np.arange(n) + 1j, np.arange(m) * 0.5, mode, rtol=1e-14)


def test_unknown_mode():
    with pytest.raises(ValueError, match="mode must be one of 'valid', 'same', or 'full'"):
        convolve(np.arange(3.0), np.arange(2.0), "middle")


@njit
def cov_ddof(m, ddof):
    return np.cov(m, ddof=ddof)


@njit
def cov_pair(m, y):
    return np.cov(m, y)


def test_cov_of_0d_arrays_and_float_ddof():
    check_like_numpy(cov_pair, np.array(2.5), np.array(1.5))
    check_like_numpy(corrcoef, np.array([2.5, 1.0]), np.array([1.5, 3.0]), rtol=1e-14)
    check_like_numpy(cov_ddof, np.arange(6.0).reshape(2, 3), 1.0, rtol=1e-14)
    with pytest.raises(ValueError, match="ddof must be integral value"):
        cov_ddof(np.arange(6.0).reshape(2, 3), 1.1)
    with pytest.raises(ValueError, match="Cannot convert non-finite ddof to integer"):
        cov_ddof(np.arange(6.0).reshape(2, 3), np.nan)
    with pytest.raises(ValueError, match="m and y have incompatible dimensions"):
        cov_pair(np.arange(3.0), np.arange(4.0))


@njit
def take_along_flat(a, indices):
    return np.take_along_axis(a, indices, axis=None)


def test_messages_and_unsigned_indices():
    check_like_numpy(
        take_along_flat, np.arange(24).reshape(3, 1, 4, 2), np.array([1, 2], np.uint64)
    )

    @njit
    def flip(a):
        return np.flip(a)

    @njit
    def tri(n, k):
        return np.tri(n, n, k)

    @njit
    def indices(d):
        return np.indices(d)

    @njit
    def append(a, b):
        return np.append(a, b)

    with pytest.raises(TypingError, match="Cannot np.flip on UniTuple"):
        flip((1, 2, 3))
    with pytest.raises(TypingError, match="k must be an integer"):
        tri(3, 1.5)
    with pytest.raises(TypingError, match='The argument "dimensions" must be a tuple of integers'):
        indices("abc")
    with pytest.raises(TypingError, match='The first argument "arr" must be array-like'):
        append(None, np.arange(3))
    with pytest.raises(TypingError, match="The repeats argument must be an integer or an array"):
        repeat(np.arange(3.0), 1.5)
    with pytest.raises(TypingError, match="shift must be an integer"):
        roll(np.arange(3), (1, 2))


@njit
def broadcast_arrays(a, b):
    return np.broadcast_arrays(a, b)


@njit
def broadcast_to_scalar(a):
    return np.broadcast_to(a, ())


def test_broadcasting_of_array_likes():
    for a, b in [
        (True, False),
        ((123, 456), (789,)),
        (np.intp(2), np.zeros((1, 3), np.intp)),
        ([(1, 2), (3, 4)], 2),
    ]:
        expected = np.broadcast_arrays(a, b)
        with no_allocation_leak():
            got = broadcast_arrays(a, b)
            assert all(
                x.shape == y.shape and x.dtype == y.dtype and np.array_equal(x, y)
                for x, y in zip(got, expected)
            )
            del got
    check_like_numpy(broadcast_to_scalar, 5.0)
    with pytest.raises(TypingError, match="Mismatch of argument types"):
        broadcast_arrays(np.arange(6).reshape(2, 3), True)
    with pytest.raises(TypingError, match='Argument "1" must be array-like'):
        broadcast_arrays(np.zeros(3), "hello world")
    with pytest.raises(TypingError, match="Cannot broadcast a non-scalar to a scalar array"):
        broadcast_to_scalar(np.zeros(3))


@njit
def searchsorted_side(a, v, side):
    return np.searchsorted(a, v, side=side)


def test_searchsorted_side_known_at_run_time():
    for side in ("left", "right"):
        check_like_numpy(searchsorted_side, np.arange(5), np.array([[1, 3], [0, 9]]), side)
        check_like_numpy(searchsorted_side, np.arange(5.0), 3, side)
    with pytest.raises(ValueError, match=r"search side must be 'left' or 'right' \(got 'middle'\)"):
        searchsorted_side(np.arange(5), 3, "middle")


def test_append_axis_must_be_an_integer():
    @njit
    def append_along(a, b, axis):
        return np.append(a, b, axis=axis)

    with pytest.raises(TypingError, match='The third argument "axis" must be an integer'):
        append_along(np.ones((2, 2)), np.ones((2, 2)), 1.5)


@njit
def asarray_chkfinite(a):
    return np.asarray_chkfinite(a)


def test_asarray_chkfinite_of_lists():
    check_like_numpy(asarray_chkfinite, [1, 2, 3])
    check_like_numpy(asarray_chkfinite, [1.0, np.inf])  # NumPy's ValueError
    with pytest.raises(
        TypingError, match="The argument to np.asarray_chkfinite must be array-like"
    ):
        asarray_chkfinite("abc")
