"""Array indexing: integers, tuples, slices (views sharing memory), ``...``, ``None``,
item and slice assignment with broadcasting, augmented assignment, boolean masks, integer
arrays, and bounds checking."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import (
    ALL_DTYPES,
    assert_array_same,
    compare,
    layouts,
    layouts_1d,
    run_script,
    sample,
)

from taipan import njit

# ---------------------------------------------------------------------------------------------
# integer indices


@njit
def get1(a, i):
    return a[i]


@njit
def get2(a, i, j):
    return a[i, j]


@njit
def get2_chained(a, i, j):
    return a[i][j]


@njit
def get3(a, i, j, k):
    return a[i, j, k]


@njit
def get_tuple_index(a, t):
    return a[t]


@njit
def get_0d(a):
    return a[()]


@njit
def set_0d(a, v):
    a[()] = v


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_integer_index_each_dtype(dtype):
    a = sample(dtype, (6,))
    for i in (0, 3, 5, -1, -6):
        compare(get1, a, i)


@pytest.mark.parametrize("name_index", range(5))
def test_two_integers_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    for i, j in [(0, 0), (2, 3), (-1, -1), (1, -4), (-3, 2)]:
        assert get2(a, i, j) == a[i, j]
        assert get2_chained(a, i, j) == a[i][j]


@pytest.mark.parametrize("name_index", range(3))
def test_integer_index_1d_layouts(name_index):
    _, a = layouts_1d(sample("int16", (5,)))[name_index]
    for i in range(-5, 5):
        assert get1(a, i) == a[i]


def test_three_integers_and_tuple_index():
    a = np.arange(24).reshape(2, 3, 4)
    assert get3(a, 1, 2, 3) == 23
    assert get3(a, -1, -2, -3) == a[-1, -2, -3]


@njit
def get_built_tuple_index(a, i, j):
    t = (i, j)
    return a[t]


def test_index_with_tuple_variable():
    a = np.arange(24).reshape(2, 3, 4)
    assert get_tuple_index(a, (1, 0, 2)) == a[1, 0, 2]
    compare(get_tuple_index, a, (1, 2))
    compare(get_built_tuple_index, a, 1, -1)


def test_integer_index_on_2d_gives_row_view():
    a = np.arange(12.0).reshape(3, 4)
    row = get1(a, 1)
    assert_array_same(row, a[1])
    row[0] = -5.0
    assert a[1, 0] == -5.0


def test_0d_array_index():
    a = np.array(3.5)
    assert get_0d(a) == 3.5
    set_0d(a, 4.5)
    assert a[()] == 4.5


@njit
def ellipsis_of(a):
    return a[...]


def test_0d_array_ellipsis_is_a_view():
    a = np.array(3.5)
    v = ellipsis_of(a)
    assert isinstance(v, np.ndarray) and v.shape == ()
    v[()] = 1.0
    assert a[()] == 1.0


def test_numpy_integer_indices():
    a = np.arange(5.0)
    assert get1(a, np.uint64(1)) == 1.0
    assert get1(a, np.int8(-1)) == 4.0
    assert get1(a, np.int32(2)) == 2.0
    assert get2(np.arange(6).reshape(2, 3), np.uint8(1), np.int16(-1)) == 5


def test_float_index_is_typing_error():
    from taipan.errors import TypingError

    with pytest.raises(TypingError):
        get1(np.arange(3.0), 1.0)


# ---------------------------------------------------------------------------------------------
# slices: views sharing memory


@njit
def slice_start_stop(a, start, stop):
    return a[start:stop]


@njit
def slice_step(a, start, stop, step):
    return a[start:stop:step]


@njit
def slice_all_forms(a):
    return a[1:], a[:-1], a[::2], a[::-1], a[-3:], a[:], a[-1:0:-2], a[5:1], a[100:], a[-100:2]


@njit
def slice_2d_forms(a):
    return a[1:, :2], a[:, 1:], a[::-1, ::2], a[1], a[:, -1], a[-1, 1:], a[::2, 1::2]


@njit
def ellipsis_forms(a):
    return a[...], a[..., 0], a[0, ...], a[..., 1:], a[1, ..., -1]


@njit
def newaxis_forms(a):
    return a[None], a[:, None], a[np.newaxis, :, np.newaxis], a[None, 1:, None]


@njit
def newaxis_2d(a):
    return a[:, None, :], a[None, ..., None], a[1, None]


@njit
def slice_then_write(a):
    v = a[1:4]
    v[0] = 100
    w = a[::-1]
    w[0] = 200
    return v, w


@njit
def slice_variable_step(a, step):
    return a[::step]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_slice_forms_each_dtype(dtype):
    compare(slice_all_forms, sample(dtype, (7,)))


@pytest.mark.parametrize("name_index", range(3))
def test_slice_forms_each_1d_layout(name_index):
    _, a = layouts_1d(sample("float64", (7,)))[name_index]
    compare(slice_all_forms, a)


@pytest.mark.parametrize(
    ("start", "stop", "step"),
    [
        (0, 7, 1),
        (1, 6, 2),
        (6, 0, -1),
        (-1, -8, -2),
        (-2, 1, -3),
        (5, 2, 1),
        (0, 100, 3),
        (-100, 100, 4),
        (2, -2, 1),
        (3, 3, 1),
        (6, -100, -1),
    ],
)
def test_slice_runtime_bounds(start, stop, step):
    a = np.arange(7)
    compare(slice_step, a, start, stop, step)
    if step == 1:
        compare(slice_start_stop, a, start, stop)


def test_slice_variable_step():
    a = np.arange(10.0)
    for step in (1, 2, 3, -1, -4, 20):
        compare(slice_variable_step, a, step)


def test_slice_zero_step_is_value_error():
    with pytest.raises(ValueError):
        slice_variable_step(np.arange(3.0), 0)


@pytest.mark.parametrize("name_index", range(5))
def test_slice_forms_2d_each_layout(name_index):
    _, a = layouts(sample("int32", (3, 4)))[name_index]
    compare(slice_2d_forms, a)


def test_slices_are_views_sharing_memory():
    a = np.arange(6)
    v, w = slice_then_write(a)
    assert_array_same(a, np.array([0, 100, 2, 3, 4, 200]))
    assert np.shares_memory(v, a) and np.shares_memory(w, a)
    v[1] = -1
    assert a[2] == -1
    w[-1] = -7
    assert a[0] == -7


def test_returned_view_of_2d_shares_memory():
    a = np.zeros((4, 5))
    views = slice_2d_forms(a)
    for k, view in enumerate(views):
        view[...] = k + 1
        expected = np.zeros((4, 5))
        slice_2d_forms.py_func(expected)[k][...] = k + 1
        assert_array_same(a, expected)
        a[...] = 0


def test_ellipsis():
    a = np.arange(24.0).reshape(2, 3, 4)
    compare(ellipsis_forms, a)
    v = ellipsis_forms(a)[1]
    v[0, 0] = -1.0
    assert a[0, 0, 0] == -1.0


def test_newaxis_1d():
    compare(newaxis_forms, np.arange(5.0))


def test_newaxis_2d():
    compare(newaxis_2d, np.arange(12).reshape(3, 4))


def test_slice_of_empty_array():
    a = np.zeros(0)
    compare(slice_all_forms, a)
    compare(slice_start_stop, a, 0, 5)
    compare(slice_step, a, -1, -5, -1)


# ---------------------------------------------------------------------------------------------
# assignment: scalars and broadcast arrays into slices


@njit
def set_slice_scalar(a, v):
    a[1:3] = v


@njit
def set_slice_array(a, b):
    a[1:3] = b


@njit
def set_column(a, v):
    a[:, 0] = v


@njit
def set_row(a, b):
    a[1] = b


@njit
def set_all(a, b):
    a[:] = b


@njit
def set_ellipsis(a, v):
    a[...] = v


@njit
def set_2d_block(a, b):
    a[1:, ::2] = b


@njit
def set_reversed(a, b):
    a[::-1] = b


@njit
def set_self_overlap(a):
    a[1:] = a[:-1]


@njit
def set_self_overlap_reversed(a):
    a[::-1] = a


@njit
def set_self_overlap_2d(a):
    a[:, 1:] = a[:, :-1]


@njit
def aug_self_reversed(a):
    a += a[::-1]


@njit
def set_int_item_2d(a, i, j, v):
    a[i, j] = v


def test_set_slice_scalar():
    compare(set_slice_scalar, np.zeros(5), 7.0)
    compare(set_slice_scalar, np.zeros(5, np.int32), 7)
    compare(set_slice_scalar, np.zeros((4, 3)), 2.5)


def test_set_slice_scalar_converts():
    a = np.zeros(4, np.int16)
    set_slice_scalar(a, 3)
    assert_array_same(a, np.array([0, 3, 3, 0], np.int16))
    b = np.zeros(4)
    set_slice_scalar(b, True)
    assert_array_same(b, np.array([0.0, 1.0, 1.0, 0.0]))


def test_set_slice_array():
    compare(set_slice_array, np.zeros(5), np.array([1.0, 2.0]))
    compare(set_slice_array, np.zeros((4, 3)), np.array([1.0, 2.0, 3.0]))  # broadcast row
    compare(set_slice_array, np.zeros((4, 3)), np.arange(6.0).reshape(2, 3))
    compare(set_slice_array, np.zeros((4, 3)), np.array([[1.0], [2.0]]))  # broadcast column
    compare(set_slice_array, np.zeros(5), np.array([4.0]))  # broadcast size 1


def test_set_slice_array_converts_dtype():
    a = np.zeros(4)
    set_slice_array(a, np.array([1, 2], np.int32))
    assert_array_same(a, np.array([0.0, 1.0, 2.0, 0.0]))


def test_set_slice_array_shape_mismatch_is_value_error():
    with pytest.raises(ValueError):
        set_slice_array(np.zeros(5), np.ones(3))
    with pytest.raises(ValueError):
        set_slice_array(np.zeros((4, 3)), np.ones(2))


@pytest.mark.parametrize("name_index", range(5))
def test_set_column_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    compare(set_column, a, 5.0)
    compare(set_column, a, np.array([1.0, 2.0, 3.0]))
    compare(set_row, a, np.array([1.0, 2.0, 3.0, 4.0]))
    compare(set_row, a, 9.0)
    compare(set_2d_block, a, np.array([-1.0, -2.0]))
    compare(set_all, a, np.arange(4.0))
    compare(set_ellipsis, a, 0.5)


def test_set_reversed_and_into_views():
    compare(set_reversed, np.zeros(4), np.arange(4.0))
    a = np.zeros(9)
    view = a[::2]
    set_reversed(view, np.arange(5.0))
    assert_array_same(a, np.array([4.0, 0, 3, 0, 2, 0, 1, 0, 0]))


@pytest.mark.parametrize(
    ("f", "shape"),
    [
        (set_self_overlap, (6,)),
        (set_self_overlap_reversed, (5,)),
        (set_self_overlap_2d, (2, 3)),
        (aug_self_reversed, (4,)),
    ],
)
def test_set_overlapping_slices_like_numpy(f, shape):
    compare(f, np.arange(float(np.prod(shape))).reshape(shape))


def test_set_0d_ellipsis():
    compare(set_ellipsis, np.array(1.0), 2.0)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_set_item_each_dtype(dtype):
    a = sample(dtype, (3, 4))
    v = sample(dtype, (1,), seed=5)[0]
    compare(set_int_item_2d, a, -1, 2, v)


def test_set_item_converts_value():
    a = np.zeros(3, np.int32)
    set_slice_scalar(a, 2.0)
    assert_array_same(a, np.array([0, 2, 2], np.int32))
    c = np.zeros(2, np.complex128)
    set_slice_scalar(c, 1.5)
    assert_array_same(c, np.array([0, 1.5], np.complex128))


# ---------------------------------------------------------------------------------------------
# augmented assignment


@njit
def aug_item(a, i):
    a[i] += 1


@njit
def aug_item_2d(a):
    a[0, 1] -= 2
    a[1, 0] *= 3


@njit
def aug_slice(a):
    a[1:] *= 2


@njit
def aug_whole(a, b):
    a += b


@njit
def aug_whole_returns(a, b):
    a += b
    return a


@njit
def aug_all_ops(a):
    a += 1
    a -= 2
    a *= 3
    a /= 4
    a **= 2
    return a


@njit
def aug_int_ops(a):
    a //= 2
    a %= 5
    a |= 8
    a &= 12
    a ^= 1
    a <<= 2
    a >>= 1
    return a


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint32", "float32", "float64", "complex128"])
def test_aug_item(dtype):
    compare(aug_item, sample(dtype, (4,)), 2)
    compare(aug_item, sample(dtype, (4,)), -1)


def test_aug_item_2d_and_slice():
    compare(aug_item_2d, np.arange(6.0).reshape(2, 3))
    compare(aug_item_2d, np.asfortranarray(np.arange(6).reshape(2, 3)))
    compare(aug_slice, np.arange(5))
    compare(aug_slice, np.arange(12.0).reshape(4, 3))
    compare(aug_slice, np.arange(10.0)[::-2])


def test_aug_whole_array():
    compare(aug_whole, np.arange(5.0), np.arange(5.0))
    compare(aug_whole, np.arange(6.0).reshape(2, 3), np.array([1.0, 2.0, 3.0]))
    compare(aug_whole, np.arange(6.0).reshape(2, 3), 1.5)
    compare(aug_whole, np.arange(6).reshape(2, 3), np.array([[10], [20]]))


def test_aug_whole_array_is_in_place():
    a = np.arange(4.0)
    out = aug_whole_returns(a, 1.0)
    assert out is a or np.shares_memory(out, a)
    assert_array_same(a, np.arange(4.0) + 1.0)


def test_aug_all_ops():
    compare(aug_all_ops, np.arange(5.0))
    compare(aug_int_ops, np.arange(-3, 9))


def test_aug_broadcast_error():
    with pytest.raises(ValueError):
        aug_whole(np.zeros(3), np.zeros(4))


# ---------------------------------------------------------------------------------------------
# boolean masks and integer arrays


@njit
def mask_get(a, m):
    return a[m]


@njit
def mask_of_nonneg(a):
    return a[a >= 0]


@njit
def fancy_get(a, idx):
    return a[idx]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_bool_mask_getitem(dtype):
    a = sample(dtype, (8,))
    m = np.array([True, False, True, True, False, False, True, False])
    compare(mask_get, a, m)


def test_bool_mask_getitem_is_a_copy():
    a = np.arange(5.0)
    out = mask_of_nonneg(a)
    out[0] = 99.0
    assert a[0] == 0.0
    assert_array_same(out, np.array([99.0, 1.0, 2.0, 3.0, 4.0]))


def test_bool_mask_edge_cases():
    compare(mask_get, np.arange(4.0), np.zeros(4, bool))
    compare(mask_get, np.arange(4.0), np.ones(4, bool))
    compare(mask_get, np.zeros(0), np.zeros(0, bool))
    compare(mask_of_nonneg, np.array([-1.0, 2.0, -3.0, 4.0])[::-1])
    compare(mask_get, np.arange(8.0)[::2], np.array([True, False, False, True])[::-1])


def test_bool_mask_wrong_length_is_index_error():
    with pytest.raises(IndexError):
        mask_get(np.arange(4.0), np.ones(3, bool))


@pytest.mark.parametrize("dtype", ["int64", "int32", "int8", "uint16", "uint64"])
def test_integer_array_getitem(dtype):
    a = np.arange(10.0) * 1.5
    idx = np.array([3, 0, 9, 3, 1], dtype)
    compare(fancy_get, a, idx)


def test_integer_array_getitem_negative_and_empty_and_strided():
    a = np.arange(10) * 2
    compare(fancy_get, a, np.array([-1, -10, 4]))
    compare(fancy_get, a, np.zeros(0, np.int64))
    compare(fancy_get, a[::-3], np.array([0, 3, 1]))
    out = fancy_get(a, np.array([1, 2]))
    out[0] = -1
    assert a[1] == 2


@njit
def mask_setitem(a):
    a[a > 2] = 0
    return a


@njit
def fancy_setitem(a, idx):
    a[idx] = -1
    return a


def test_mask_and_fancy_setitem():
    compare(mask_setitem, np.arange(5.0))
    compare(fancy_setitem, np.arange(5.0), np.array([0, 2]))


def test_integer_array_out_of_bounds_is_index_error():
    with pytest.raises(IndexError):
        fancy_get(np.arange(4.0), np.array([0, 4]))
    with pytest.raises(IndexError):
        fancy_get(np.arange(4.0), np.array([-5]))


# ---------------------------------------------------------------------------------------------
# bounds checking


@njit(boundscheck=True)
def checked_get1(a, i):
    return a[i]


@njit(boundscheck=True)
def checked_get2(a, i, j):
    return a[i, j]


@njit(boundscheck=True)
def checked_set2(a, i, j, v):
    a[i, j] = v


@njit(boundscheck=True)
def checked_loop(a, n):
    s = 0.0
    for i in range(n):
        s += a[i]
    return s


def test_boundscheck_in_bounds_works():
    a = np.arange(5.0)
    assert checked_get1(a, -5) == 0.0
    assert checked_get1(a, 4) == 4.0
    assert checked_loop(a, 5) == 10.0
    b = np.arange(6.0).reshape(2, 3)
    assert checked_get2(b, -2, 2) == 2.0


@pytest.mark.parametrize("i", [5, 6, -6, 1000, -1000])
def test_boundscheck_1d_raises_index_error(i):
    with pytest.raises(IndexError, match="axis 0"):
        checked_get1(np.arange(5.0), i)


def test_boundscheck_names_the_axis():
    b = np.zeros((2, 3))
    with pytest.raises(IndexError, match="axis 1"):
        checked_get2(b, 0, 3)
    with pytest.raises(IndexError, match="axis 0"):
        checked_get2(b, 2, 0)
    with pytest.raises(IndexError, match="axis 1"):
        checked_set2(b, 1, -4, 1.0)
    assert not b.any()


@njit(boundscheck=True)
def checked_row_slice(a, i):
    return a[i, 1:]


@njit(boundscheck=True)
def checked_set1(a, i):
    a[i] = 1


@njit(boundscheck=True)
def checked_aug1(a, i):
    a[i] += 1


def test_boundscheck_mixed_set_and_augmented():
    with pytest.raises(IndexError, match="axis 0"):
        checked_row_slice(np.zeros((2, 3)), 2)
    assert_array_same(checked_row_slice(np.ones((2, 3)), -2), np.ones(2))
    a = np.zeros(3)
    for i in (3, -4, 100):
        with pytest.raises(IndexError, match="axis 0"):
            checked_set1(a, i)
        with pytest.raises(IndexError, match="axis 0"):
            checked_aug1(a, i)
    assert not a.any()
    checked_aug1(a, -1)
    assert a[2] == 1.0


BOUNDSCHECK_ENV_SCRIPT = """
import numpy as np
from taipan import njit

@njit
def get(a, i):
    return a[i]

@njit(boundscheck=False)
def get_unchecked(a, i):
    return a[i]

try:
    get(np.arange(3.0), 3)
    print("no error")
except IndexError as error:
    print("IndexError", "axis 0" in str(error))
print(get_unchecked(np.arange(3.0), 2))
"""


def test_boundscheck_environment_variable(tmp_path):
    """TAIPAN_BOUNDSCHECK=1 (read when taipan is imported) turns checks on by default."""
    result = run_script(BOUNDSCHECK_ENV_SCRIPT, tmp_path, env={"TAIPAN_BOUNDSCHECK": "1"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines() == ["IndexError True", "2.0"]


def test_boundscheck_loop_past_end():
    with pytest.raises(IndexError):
        checked_loop(np.arange(3.0), 4)


def test_boundscheck_empty_array():
    with pytest.raises(IndexError):
        checked_get1(np.zeros(0), 0)


def test_boundscheck_on_views():
    a = np.arange(10.0)[::3]  # 4 elements
    assert checked_get1(a, 3) == 9.0
    with pytest.raises(IndexError):
        checked_get1(a, 4)
