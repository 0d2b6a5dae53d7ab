"""Lists and tuples stored into array rows and slices (``a[i] = [x, y]``, ``a[i, :] = (x, y)``,
``a[1:3] = [1, 2]``, nested tuples into 2-d views) as NumPy converts them to an array first:
cast to the array's dtype, broadcast, and a ValueError when the shapes do not broadcast.
Results are compared with ``py_func`` (NumPy)."""

import numpy as np
import pytest
from conftest import assert_same

from taipan import TypingError, njit
from taipan.runtime import live_blocks


def check(function, *arguments):
    before = live_blocks()
    result = function(*arguments)
    expected = function.py_func(*arguments)
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)
    del result  # the returned array owns its block
    assert live_blocks() == before


@njit
def rows_from_lists(n, dtype_example):
    a = np.zeros((n, 2), dtype=dtype_example.dtype)
    for i in range(n):
        a[i] = [i, i + 0.75]
    return a


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_])
def test_row_from_a_list_casts_to_the_dtype(dtype):
    check(rows_from_lists, 4, np.zeros(1, dtype))


@njit
def rows_from_tuples(n):
    a = np.zeros((n, 3))
    for i in range(n):
        a[i, :] = (i, 2 * i, True)
    return a


def test_row_from_a_mixed_tuple():
    check(rows_from_tuples, 3)


@njit
def slice_from_list(values):
    a = np.zeros(6, dtype=np.int64)
    a[1:3] = [values[0], values[1]]
    a[4:] = (7, 8)
    return a


def test_slice_from_list_and_tuple():
    check(slice_from_list, np.array([5, 6]))


@njit
def column_from_tuple(n):
    a = np.zeros((n, 3))
    a[:, 1] = (1.5, 2.5, 3.5)
    return a


def test_column_from_tuple():
    check(column_from_tuple, 3)


@njit
def broadcast_rows(n):
    a = np.zeros((n, 2))
    a[:] = [1.0, 2.0]  # every row
    a[0] = [9.0]  # one item broadcast along the row
    return a


def test_sequence_broadcasts_along_leading_axes():
    check(broadcast_rows, 4)


@njit
def block_from_nested_tuple():
    a = np.zeros((3, 3))
    a[1:, :2] = ((1, 2), (3, 4))
    a[0] = (5,)
    return a


def test_nested_tuple_into_a_2d_view():
    check(block_from_nested_tuple)


@njit
def list_built_at_run_time(n):
    a = np.zeros((2, n))
    values = []
    for i in range(n):
        values.append(i * 1.5)
    a[1] = values
    return a


def test_list_built_at_run_time():
    check(list_built_at_run_time, 5)


@njit
def complex_row():
    a = np.zeros((2, 2), dtype=np.complex128)
    a[0] = [1 + 2j, 3.0]
    return a


def test_complex_row():
    check(complex_row)


@njit
def wrong_length(k):
    a = np.zeros((3, 2))
    values = [1.0] * k
    a[0] = values
    return a


@pytest.mark.parametrize("k", [0, 3, 5])
def test_shape_mismatch_is_numpy_value_error(k):
    before = live_blocks()
    assert_same(wrong_length, k, check_message=False)
    assert live_blocks() == before


@njit
def wrong_tuple_length():
    a = np.zeros(4)
    a[1:3] = (1.0, 2.0, 3.0)
    return a


def test_tuple_shape_mismatch_is_value_error():
    assert_same(wrong_tuple_length, check_message=False)


def test_sequence_into_one_element_is_refused():
    @njit
    def element():
        a = np.zeros((2, 2))
        a[0, 0] = [1.0, 2.0]
        return a

    with pytest.raises(TypingError, match="setting an array element with a sequence"):
        element()


def test_complex_into_real_array_is_refused():
    @njit
    def complex_into_real():
        a = np.zeros(2)
        a[:] = [1j, 2.0]
        return a

    with pytest.raises(TypingError, match="cannot store"):
        complex_into_real()


def test_deeper_sequence_than_the_view_is_refused():
    @njit
    def too_deep():
        a = np.zeros(2)
        a[:] = ((1.0, 2.0), (3.0, 4.0))
        return a

    with pytest.raises(TypingError, match="cannot store"):
        too_deep()
