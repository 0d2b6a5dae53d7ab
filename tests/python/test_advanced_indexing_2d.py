"""Advanced indexing of arrays of two or more dimensions with one integer or boolean array, as
Numba supports it: ``r[r[:, 0] != r[:, 1]]`` (a mask along axis 0 selects rows), ``v[idx]``
(rows by position), ``v[i, 0]`` and ``v[0, i]`` (an array among integers and slices, the
selected axis placed by NumPy's rule), read into new arrays and stored through. Compared with
NumPy over empty masks and index arrays, negative and out-of-range indices (IndexError) and
mismatched masks."""

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@njit
def rows_differing(r):
    return r[r[:, 0] != r[:, 1]]


@njit
def take(v, idx):
    return v[idx]


@njit
def column_at(v, i):
    return v[i, 0]


@njit
def row_at(v, i):
    return v[0, i]


@njit
def between(v, i):
    return v[1:, i]


@njit
def apart(v, i):
    return v[0, :, i]


@njit
def with_slice_value(v, s, i):
    return v[s, i]


def expect_same(got, expected):
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def outcome(f, *args):
    try:
        return f(*args), None
    except Exception as error:  # noqa: BLE001 - the exception is the compared result
        return None, error


def check(f, *args):
    got, error = outcome(f, *args)
    expected, expected_error = outcome(f.py_func, *args)
    if expected_error is not None:
        assert error is not None, f"NumPy raised {expected_error!r}, taipan returned {got!r}"
        assert type(error) is type(expected_error), (error, expected_error)
        return
    assert error is None, error
    expect_same(got, expected)


PAIRS = [
    np.array([[1, 1], [2, 3], [4, 4], [5, 6]]),
    np.array([[1.5, 2.5, 0.0], [3.0, 3.0, 1.0]]),
    np.zeros((0, 2), dtype=np.int32),
    np.array([[7, 7]]),
]


@pytest.mark.parametrize("r", PAIRS, ids=range(len(PAIRS)))
def test_mask_along_axis_0_selects_rows(r):
    before = live_blocks()
    check(rows_differing, r)
    check(take, r, np.ones(r.shape[0], dtype=bool))
    check(take, r, np.zeros(r.shape[0], dtype=bool))
    assert live_blocks() == before


def test_mask_of_three_dimensions_and_views():
    v = np.arange(60.0).reshape(3, 4, 5)
    check(take, v, np.array([True, False, True]))
    check(take, v[:, ::2, ::-1], np.array([False, True, True]))
    check(take, v.transpose(2, 0, 1), np.array([True, False, False, True, True]))


def test_mismatched_mask_is_index_error():
    v = np.arange(12).reshape(3, 4)
    check(take, v, np.array([True, False]))
    check(column_at, v, np.array([True, False]))


INDEXES = [
    np.array([0, 2, 1, 2]),
    np.array([-1, -3, 0]),
    np.array([], dtype=np.int64),
    np.array([1], dtype=np.int32),
    np.array([2, 0], dtype=np.uint8),
    np.array([3]),
    np.array([-4]),
]


@pytest.mark.parametrize("idx", INDEXES, ids=range(len(INDEXES)))
def test_integer_arrays_select_like_numpy(idx):
    v = np.arange(12.0).reshape(3, 4)
    w = np.arange(24).reshape(2, 3, 4)
    before = live_blocks()
    check(take, v, idx)
    check(take, w[:, ::-1], idx % 2 if idx.size and idx.max() < 3 else idx)
    check(column_at, v, idx)
    check(row_at, v, idx)
    check(between, v, idx)
    check(apart, w, idx)
    check(with_slice_value, v, slice(None, None, -1), idx)
    assert live_blocks() == before


def test_selected_axis_goes_first_when_a_slice_stands_between():
    w = np.arange(24).reshape(2, 3, 4)
    idx = np.array([3, 0])
    assert apart(w, idx).shape == w[0, :, idx].shape == (2, 3)
    assert between(np.arange(12).reshape(3, 4), idx).shape == (2, 2)


@njit
def set_rows(v, mask, value):
    v[mask] = value
    return v


@njit
def set_column(v, i, value):
    v[i, 0] = value
    return v


@njit
def set_tail(v, i, value):
    v[1:, i] = value
    return v


def check_store(f, v, index, value):
    got, error = outcome(f, v.copy(), index, value)
    expected, expected_error = outcome(f.py_func, v.copy(), index, value)
    if expected_error is not None:
        assert error is not None and type(error) is type(expected_error), (error, expected_error)
        return
    assert error is None, error
    expect_same(got, expected)


def test_stores_through_a_selection():
    v = np.arange(12.0).reshape(3, 4)
    before = live_blocks()
    for mask in [np.array([True, False, True]), np.zeros(3, bool), np.ones(3, bool)]:
        check_store(set_rows, v, mask, -1.0)
        check_store(set_rows, v, mask, np.array([10.0, 20.0, 30.0, 40.0]))
    check_store(set_rows, v, np.array([True, False, True]), np.array([[1.0] * 4, [2.0] * 4]))
    check_store(set_rows, v, np.array([2, 0]), 5)
    check_store(set_column, v, np.array([2, -1, 0]), 9.5)
    check_store(set_column, v, np.array([2, 1, 0]), np.array([1.0, 2.0, 3.0]))
    check_store(set_tail, v, np.array([3, 1]), np.array([[1.0, 2.0], [3.0, 4.0]]))
    check_store(set_tail, v, np.array([3, 1]), np.array([[7.0], [8.0]]))
    # errors: out of range, a mask of the wrong length, a value that does not broadcast
    check_store(set_column, v, np.array([3]), 1.0)
    check_store(set_rows, v, np.array([True, False]), 1.0)
    check_store(set_rows, v, np.array([True, False, True]), np.array([1.0, 2.0, 3.0]))
    assert live_blocks() == before


def test_unsupported_combinations_are_typing_errors():
    @njit
    def two_arrays(v, i, j):
        return v[i, j]

    # Several index arrays are supported now (test_advanced_index_multi.py): NumPy's values.
    v = np.arange(4.0).reshape(2, 2)
    np.testing.assert_array_equal(two_arrays(v, np.array([0]), np.array([1])), v[[0], [1]])

    @njit
    def float_index_beside(v, i):
        return v[i, 0]

    with pytest.raises(TypingError, match="must hold integers or booleans"):
        float_index_beside(np.zeros((2, 2)), np.zeros(2))

    @njit
    def mask_2d(v):
        return v[v > 0]

    # A mask of the array's own shape is supported now (test_index_forms.py): NumPy's values.
    v = np.array([[1.0, -1.0], [0.0, 2.0]])
    np.testing.assert_array_equal(mask_2d(v), v[v > 0])
