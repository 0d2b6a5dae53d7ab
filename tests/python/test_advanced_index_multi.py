"""NumPy's advanced indexing in general (issue 31): several index arrays in one index,
broadcast together (`a[i, j]`, a column against a row, n-d index arrays), NumPy's rule for
where the broadcast axes go (where the first advanced piece stands when the advanced pieces are
adjacent, else first), integers among them, masks of any dimensions (as the index arrays of
their true positions) beside other pieces, None and '...' beside index arrays, augmented
assignments through them (`a[i, j] += v`, NumPy's read-combine-store), the same indices given as tuple values (arguments), and every form on the
left of an assignment. Compared with NumPy across dtypes and layouts (C, F, strided views),
empty arrays and negative indices; IndexError and ValueError as NumPy raises them; the
runtime's blocks counted."""

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import live_blocks

DTYPES = [np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64, np.complex128, np.bool_]
INDEX_DTYPES = [np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64]


def layouts(shape, dtype=np.int64):
    """The same values as a C array, an F array and a strided view."""
    base = (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)
    wide = np.zeros(tuple(2 * n for n in shape), dtype=dtype)
    view = wide[tuple(slice(None, None, 2) for _ in shape)]
    view[...] = base
    return {"C": base, "F": np.asfortranarray(base), "strided": view}


def check_read(function, *arguments):
    before = live_blocks()
    expected = function(*arguments)
    got = njit(function)(*arguments)
    assert isinstance(got, np.ndarray)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    assert not np.may_share_memory(got, arguments[0])
    del got
    assert live_blocks() == before


def same_layout_copy(a):
    """A copy of ``a`` laid out as it is: C, F or a strided view of a larger array."""
    if a.flags.c_contiguous:
        return a.copy()
    if a.flags.f_contiguous:
        return a.copy(order="F")
    wide = np.zeros(tuple(2 * n for n in a.shape), dtype=a.dtype)
    view = wide[tuple(slice(None, None, 2) for _ in a.shape)]
    view[...] = a
    return view


def check_store(function, array, *arguments):
    before = live_blocks()
    expected = same_layout_copy(array)
    function(expected, *arguments)
    got = same_layout_copy(array)
    assert got.flags.c_contiguous == array.flags.c_contiguous
    njit(function)(got, *arguments)
    np.testing.assert_array_equal(got, expected)
    assert live_blocks() == before


def check_error(function, error, match, *arguments):
    with pytest.raises(error, match=match):
        function(*[a.copy() if isinstance(a, np.ndarray) else a for a in arguments])
    with pytest.raises(error, match=match):
        njit(function)(*arguments)


# ---- reads, written indices ------------------------------------------------------------------


def two_arrays(a, i, j):
    return a[i, j]


def two_arrays_slice(a, i, j):
    return a[i, j, :]


def separated(a, i, j):
    return a[i, :, j]


def integer_between(a, i, j):
    return a[i, 1, j]


def integer_and_slice(a, i):
    return a[0, :, i]


def newaxis_before(a, i):
    return a[None, i]


def newaxis_between(a, i, j):
    return a[i, None, j]


def slice_newaxis_array(a, i):
    return a[:1, None, i]


def ellipsis_after(a, i):
    return a[i, ...]


def ellipsis_before(a, i):
    return a[..., i]


def ellipsis_between(a, i, j):
    return a[i, ..., j]


def mask_and_array(a, m, j):
    return a[m, j]


def nd_alone(a, i):
    return a[i]


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_two_index_arrays_across_dtypes_and_layouts(dtype, layout):
    a = layouts((4, 5, 6), dtype)[layout]
    i = np.array([0, 3, -1, 2, 0])
    j = np.array([4, -5, 1, 1, 0])
    check_read(two_arrays, a, i, j)
    check_read(two_arrays_slice, a, i, j)
    check_read(separated, a, i, np.array([5, -6, 0, 2, 2]))
    check_read(integer_between, a, i, np.array([5, -6, 0, 2, 2]))


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES)
def test_index_dtypes(index_dtype):
    a = layouts((4, 5, 6))["C"]
    i = np.array([0, 3, 1], dtype=index_dtype)
    j = np.array([4, 2, 1], dtype=index_dtype)
    check_read(two_arrays, a, i, j)
    check_read(separated, a, i, j)


def test_broadcast_index_arrays():
    a = layouts((4, 5, 6))["F"]
    column = np.array([[0], [1], [3]])
    row = np.array([[0, 1, 3, 4, 2]])
    check_read(two_arrays, a, column, row)
    check_read(separated, a, column, row)
    check_read(two_arrays, a, np.array([[2]]), np.array([[0, 1, 3], [4, 2, 0]]))
    check_read(integer_between, a, column, row)
    check_read(nd_alone, a, np.array([[0, 1], [3, -1]]))
    check_read(nd_alone, np.arange(10.0)[::3], np.array([[0, 1], [3, -1]]))


def test_advanced_axes_placement():
    a = layouts((3, 4, 5))["C"]
    i = np.array([0, 2, 1])
    check_read(integer_and_slice, a, i)
    check_read(newaxis_before, a, i)
    check_read(newaxis_between, a, i, i)
    check_read(slice_newaxis_array, a, i)
    check_read(ellipsis_after, a, i)
    check_read(ellipsis_before, a, np.array([4, 0, -1]))
    check_read(ellipsis_between, a, i, np.array([4, 0, -1]))  # '...' of one axis: first
    check_read(ellipsis_between, layouts((3, 5))["F"], i, np.array([4, 0, -1]))  # of none


def test_mask_beside_an_index_array():
    a = layouts((4, 5))["strided"]
    check_read(mask_and_array, a, np.array([True, False, True, True]), np.array([0, 4, -1]))
    check_read(mask_and_array, a, np.array([False, True, False, False]), np.array([2]))


def test_empty():
    a = layouts((4, 5, 6))["C"]
    empty = np.zeros(0, dtype=np.int64)
    check_read(two_arrays, a, empty, empty)
    check_read(separated, a, empty, empty)
    check_read(two_arrays, np.zeros((0, 3)), empty, empty)
    check_read(mask_and_array, a, np.zeros(4, dtype=np.bool_), np.array([1]))
    check_read(ellipsis_after, np.zeros((3, 0)), np.array([2, 0]))


def test_read_errors():
    a = layouts((4, 5, 6))["C"]
    check_error(two_arrays, IndexError, "out of bounds", a, np.array([0, 4]), np.array([0, 1]))
    check_error(two_arrays, IndexError, "out of bounds", a, np.array([0, -5]), np.array([0, 1]))
    check_error(separated, IndexError, "out of bounds", a, np.array([0, 1]), np.array([6, 1]))
    check_error(
        two_arrays, IndexError, "could not be broadcast", a, np.array([0, 1]), np.array([0, 1, 2])
    )
    check_error(
        mask_and_array,
        IndexError,
        "boolean index did not match",
        a,
        np.ones(3, np.bool_),
        np.array([0]),
    )


# ---- tuple values ----------------------------------------------------------------------------


def index_value(a, index):
    return a[index]


def store_value(a, index, v):
    a[index] = v


@pytest.mark.parametrize(
    "index",
    [
        (np.array([0, 1, 3]), np.array([4, 2, -1])),
        (1, np.array([0, 1, 3]), slice(None), np.array([2, 0, 1])),
        (np.array([[0, 1], [2, 3]]), 3, Ellipsis),
        (Ellipsis, 1, np.array([0, 1, 3])),
        (slice(1, 3), Ellipsis, None, np.array([1, 2, 1])),
        (np.array([1, 2, 1]), Ellipsis, None, None),
        (None, slice(1), None, np.array([1, 2, 1])),
        (np.array([True, False, True, True]), slice(None, None, -2)),
        (Ellipsis, 1),
        (Ellipsis,),
        (slice(None), None, 2),
    ],
)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_tuple_values(index, layout):
    a = layouts((4, 5, 6, 7))[layout]
    expected = a[index]
    before = live_blocks()
    got = njit(index_value)(a, index)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    del got
    assert live_blocks() == before
    check_store(store_value, a, index, expected * 2 + 1)
    check_store(store_value, a, index, 9)


# ---- stores ----------------------------------------------------------------------------------


def store_two(a, i, j, v):
    a[i, j] = v


def store_separated(a, i, j, v):
    a[i, :, j] = v


def store_newaxis(a, i, v):
    a[None, i] = v


def store_ellipsis(a, i, v):
    a[..., i] = v


def store_self_overlap(a, i):
    a[i, :] = a[::-1, :][: len(i), :]


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_])
def test_stores(dtype, layout):
    a = layouts((4, 5, 6), dtype)[layout]
    i = np.array([0, 3, -1])
    j = np.array([4, 2, 0])
    check_store(store_two, a, i, j, np.ones((3, 6), dtype=dtype))
    check_store(store_two, a, i, j, np.zeros(6, dtype=dtype))  # broadcast
    check_store(store_two, a, i, j, 1)
    check_store(store_separated, a, i, np.array([5, 0, -2]), np.ones((3, 5), dtype=dtype))
    check_store(store_newaxis, a, i, np.zeros((1, 3, 5, 6), dtype=dtype))
    check_store(store_ellipsis, a, np.array([1, -1]), np.zeros((4, 5, 2), dtype=dtype))
    check_store(store_two, a, np.array([[0], [1]]), np.array([[1, 2, 3]]), np.array(7, dtype))


def test_store_repeated_positions_last_wins():
    a = np.zeros((3, 3))
    check_store(store_two, a, np.array([0, 0, 1]), np.array([1, 1, 2]), np.array([1.0, 2.0, 3.0]))


def test_store_overlapping_value_reads_a_copy():
    a = layouts((4, 5))["C"]
    check_store(store_self_overlap, a, np.array([0, 2, 1]))


def test_store_errors():
    a = np.zeros((4, 5, 6))
    check_error(
        store_two,
        ValueError,
        "could not be broadcast",
        a,
        np.array([0, 1]),
        np.array([0, 1]),
        np.zeros((3, 6)),
    )
    check_error(store_two, IndexError, "out of bounds", a, np.array([0, 1]), np.array([0, 5]), 1.0)
    check_error(
        store_two,
        IndexError,
        "could not be broadcast",
        a,
        np.array([0, 1]),
        np.array([0, 1, 2]),
        1.0,
    )


# ---- masks of several dimensions -------------------------------------------------------------


def mask_then_slice(a, m):
    return a[m, 1:]


def integer_then_mask(a, m):
    return a[1, m]


def store_mask_then_slice(a, m, v):
    a[m, 1:] = v


def test_masks_of_several_dimensions():
    for a in layouts((3, 4, 5)).values():
        m = (a[:, :, 0] % 2).astype(np.bool_)
        check_read(mask_then_slice, a, m)
        check_read(integer_then_mask, a, (a[0] % 3 == 0))
        check_read(nd_alone, a, m)
        check_store(store_mask_then_slice, a, m, 7)
        check_store(store_mask_then_slice, a, m, np.arange(4))
    check_error(
        nd_alone,
        IndexError,
        "boolean index did not match",
        layouts((3, 4, 5))["C"],
        np.ones((3, 3), np.bool_),
    )


# ---- augmented assignments -------------------------------------------------------------------


def add_two(a, i, j, v):
    a[i, j] += v


def multiply_mask(a, m, v):
    a[m] *= v


def subtract_one_array(a, i, v):
    a[i] -= v


def add_value(a, index, v):
    a[index] += v


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128])
def test_augmented(dtype, layout):
    a = layouts((4, 5, 6), dtype)[layout]
    i = np.array([0, 3, -1, 0])  # a repeated position is updated once, as in NumPy
    j = np.array([4, 2, 0, 4])
    check_store(add_two, a, i, j, 2)
    check_store(add_two, a, i, j, np.arange(6).astype(dtype))
    check_store(multiply_mask, a, a > 2, 3)
    check_store(multiply_mask, a, np.array([True, False, True, False]), 3)
    check_store(subtract_one_array, a, np.array([1, 1, 2]), 1)
    check_store(subtract_one_array, a[0], np.array([1, 1, 2]), np.ones(6, dtype))
    check_store(subtract_one_array, a[0, 0], np.array([1, 1, -2]), 5)
    check_store(add_value, a, (Ellipsis, np.array([1, 1, 5])), 1)
    check_error(add_two, ValueError, "could not be broadcast", a, i, j, np.ones(5, dtype))
    check_error(add_two, IndexError, "out of bounds", a, i, np.array([5, 5, 5, 5]), 1)
