"""Index forms of issue 31 that compiled code takes as NumPy does: a 0-d integer array indexes
as its integer (alone, in a tuple, beside an index array, on either side of an assignment); a
0-d array stores its item into an element; a source with extra leading axes of extent 1
broadcasts into a view ((1, n) into (n,)), and one whose extra axes are not 1 raises NumPy's
ValueError; None/np.newaxis and mixed slice/integer/array tuples on both sides. Compared with
NumPy on copies, across dtypes and layouts, the runtime's blocks counted."""

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import live_blocks

INDEX_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def check(function, *arguments):
    before = live_blocks()
    expected_arguments = [a.copy() if isinstance(a, np.ndarray) else a for a in arguments]
    expected = function(*expected_arguments)
    got = njit(function)(*arguments)
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected
    for g, e in zip(arguments, expected_arguments):
        if isinstance(e, np.ndarray):
            np.testing.assert_array_equal(g, e)
    del got
    assert live_blocks() == before


def item(a, i):
    return a[i]


def item_2d(a, i, j):
    return a[i, j]


def row(a, i):
    return a[i]


def mixed(a, i, j):
    return a[i, 1:, j]


def with_index_array(a, i, selector):
    return a[i, selector]


def store(a, i, v):
    a[i] = v
    return a


def store_2d(a, i, j, v):
    a[i, j] = v
    return a


def store_all(a, v):
    a[:] = v
    return a


def store_row(a, i, v):
    a[i, :] = v
    return a


def new_axes(a):
    return a[np.newaxis, :, None]


def new_axes_2d(a):
    return a[:, None, 1:, np.newaxis]


def mixed_store(a, i, v):
    a[1, :, i] = v
    return a


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES)
def test_zero_d_integer_arrays_index_as_integers(index_dtype):
    one = np.array(1, index_dtype)
    two = np.array(2, index_dtype)
    vector = np.arange(5.0)
    check(item, vector, two)
    check(item, vector[::2], one)  # a strided view
    matrix = np.arange(12).reshape(3, 4)
    check(item_2d, matrix, one, two)
    check(item_2d, np.asfortranarray(matrix), two, one)
    check(row, matrix, two)
    check(mixed, np.arange(24).reshape(2, 3, 4), one, two)
    check(with_index_array, matrix, one, np.array([3, 0, 1]))
    check(store, np.arange(5), two, 42)
    check(store_2d, np.zeros((3, 4)), two, one, 2.5)


def test_a_negative_zero_d_index_counts_from_the_end():
    check(item, np.arange(5), np.array(-1, np.int32))


def test_zero_d_index_out_of_range_raises_index_error():
    @njit(boundscheck=True)
    def read(a, i):
        return a[i]

    with pytest.raises(IndexError):
        read(np.arange(3), np.array(3, np.int64))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.complex128])
def test_a_zero_d_array_stores_its_item(dtype):
    check(store, np.zeros(4, dtype), 1, np.array(3, dtype))
    check(store, np.zeros(4, dtype), 2, np.array(7, np.int8))
    check(store_2d, np.zeros((2, 2), dtype), 1, 0, np.array(5, dtype))


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_extra_leading_axes_of_extent_one_broadcast(dtype):
    check(store_all, np.zeros(5, dtype), np.arange(1, 6).reshape(1, 5).astype(dtype))
    check(store_all, np.zeros(5, dtype), np.arange(1, 6).reshape(1, 1, 5).astype(dtype))
    check(store_all, np.zeros((2, 3), dtype), np.arange(3).reshape(1, 1, 3).astype(dtype))
    check(store_all, np.zeros((2, 3), dtype), np.arange(6).reshape(1, 2, 3)[:, :, ::-1])
    check(store_row, np.zeros((2, 3), dtype), 1, np.arange(3).reshape(1, 3).astype(dtype))
    check(store_all, np.zeros(4, dtype), np.ones((1, 1)))  # extents of 1 everywhere


def test_extra_leading_axes_that_are_not_one_raise_value_error():
    compiled = njit(store_all)
    with pytest.raises(ValueError, match="could not broadcast"):
        compiled(np.zeros(3), np.ones((2, 3)))
    with pytest.raises(ValueError):
        store_all(np.zeros(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match="could not broadcast"):
        compiled(np.zeros(3), np.ones((1, 4)))


def test_new_axes_and_mixed_tuples():
    check(new_axes, np.arange(4))
    check(new_axes_2d, np.arange(12.0).reshape(3, 4))
    check(mixed_store, np.zeros((3, 4, 5)), np.array([0, 2]), 7.0)
    check(mixed_store, np.zeros((3, 4, 5)), np.array([4, 1]), np.arange(4.0))


def test_a_non_zero_d_array_into_an_element_is_a_typing_error():
    from taipan.errors import TypingError

    with pytest.raises(TypingError, match="cannot broadcast"):
        njit(store)(np.zeros(4), 1, np.ones(2))


def masked(v):
    return v[v > 0]


def masked_store(v, x):
    v[v > 0] = x
    return v


def masked_by(v, mask):
    return v[mask]


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (4, 1, 2)])
def test_boolean_masks_of_the_array_s_own_shape(dtype, shape):
    rng = np.random.default_rng(3)
    if dtype is np.complex128:
        v = (rng.integers(-3, 4, shape) + 1j).astype(dtype)
        check(masked_by, v, v.real > 0)
        return
    v = rng.integers(-3, 4, shape).astype(dtype)
    check(masked, v)
    check(masked, np.asfortranarray(v))  # C order of the elements, whatever the layout
    check(masked_store, v.copy(), 0)
    check(masked_store, v.copy(), np.array(9, dtype))
    check(masked_by, v, np.zeros(shape, np.bool_))  # nothing selected: an empty array
    check(masked_by, v.transpose(), (v > 1).transpose())


def test_a_mask_of_another_shape_raises_index_error():
    with pytest.raises(IndexError, match="did not match"):
        njit(masked_by)(np.zeros((3, 4)), np.ones((3, 5), np.bool_))
    with pytest.raises(IndexError, match="did not match"):
        njit(masked_by)(np.zeros((2, 2)), np.ones((3, 2), np.bool_))


def store_selected(a, i, v):
    a[i] = v
    return a


def store_selected_rows(a, i, v):
    a[i, :] = v
    return a


def test_selections_take_values_with_extra_leading_unit_axes():
    """a[idx] = v and a[idx, :] = v with v of more dimensions, whose extra leading extents
    are 1 (it crashed the compiler before: a negative axis offset)."""
    check(store_selected, np.zeros(5), np.array([0, 3]), np.array([[5.0, 6.0]]))
    check(store_selected_rows, np.zeros((3, 2)), np.array([0, 2]), np.arange(4.0).reshape(1, 2, 2))
    check(store_selected_rows, np.zeros((3, 2)), np.array([2, 1]), np.array([[7.0, 8.0]]))
    with pytest.raises(ValueError):
        njit(store_selected_rows)(np.zeros((3, 2)), np.array([0, 2]), np.ones((2, 2, 2)))
