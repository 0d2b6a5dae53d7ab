"""Index tuples kept in globals or closures (Numba freezes them): slices, `...`, integers,
integer and boolean arrays, frozen as constants and used to index, as the same tuples passed
as arguments do. A slice global freezes as a slice value (slice2 or slice3)."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

SHAPE = (5, 6, 7, 8)

INDICES = [
    (slice(1, 3), Ellipsis, 2),
    (slice(None), np.array([0, 1, 2]), Ellipsis),
    (0, Ellipsis, slice(0, 2)),
    (np.array([True, False, True, False, True]), slice(None, None, 2)),
    (slice(4, None, -1), 3, np.array([1, 1, 0]), Ellipsis),
    (Ellipsis, slice(-3, None)),
    (Ellipsis,),
    (slice(None, None, -2),),
    (1, 2, slice(1, 6, 2), np.array([7, 0])),
    (slice(10, 20), Ellipsis),  # an empty slice
]


def getter(index):
    def get_item(array):
        return array[index]

    return taipan.njit(get_item)


def setter(index):
    def set_item(array, value):
        array[index] = value

    return taipan.njit(set_item)


@pytest.mark.parametrize("index", INDICES, ids=repr)
def test_closure_index_tuple_reads_as_numpy(index):
    array = np.arange(np.prod(SHAPE)).reshape(SHAPE)
    before = live_blocks()
    got = getter(index)(array)
    expected = array[index]
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    del got
    assert live_blocks() == before


@pytest.mark.parametrize("index", INDICES, ids=repr)
def test_closure_index_tuple_writes_as_numpy(index):
    source = np.arange(np.prod(SHAPE)).reshape(SHAPE)
    value = source[index] * 10
    expected = source.copy()
    expected[index] = value
    got = source.copy()
    before = live_blocks()
    setter(index)(got, value)
    assert live_blocks() == before
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    "index", [slice(2, 5), slice(None, None, 3), slice(-1, None, -1), slice(None)], ids=repr
)
def test_slice_global_indexes_arrays_lists_and_is_returned(index):
    def use(array, items):
        return array[index], items[index], index

    compiled = taipan.njit(use)
    array = np.arange(10.0)
    items = list(range(10))
    got = compiled(array, items)
    np.testing.assert_array_equal(got[0], array[index])
    assert got[1] == items[index]
    assert got[2] == index


def test_frozen_slice_of_floats_is_refused_at_the_line():
    index = (slice(0.5, 2), 1)

    def use(array):
        return array[index]

    with pytest.raises(TypingError, match="Untyped global name .index.: a value of type"):
        taipan.njit(use)(np.zeros((3, 3)))


def test_frozen_zero_step_is_refused():
    index = (slice(None, None, 0), 1)

    def use(array):
        return array[index]

    with pytest.raises(TypingError, match="Untyped global name .index.: a value of type"):
        taipan.njit(use)(np.zeros((3, 3)))
