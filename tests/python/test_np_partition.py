"""np.partition, np.argpartition (taipan.numpy_library.partitioning) checked by the partition
property against np.sort (NumPy does not promise the order of the other elements), and
np.array_split / np.split compared with NumPy: dtypes, NaN, -0.0, inf, empty and non-contiguous
arrays, 2-d and 3-d, kth sequences and negative kth, errors, and the allocation counters."""

from __future__ import annotations

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import live_blocks


@njit
def partition(a, kth):
    return np.partition(a, kth)


@njit
def argpartition(a, kth):
    return np.argpartition(a, kth)


def normalized(kth, length):
    kths = [kth] if np.ndim(kth) == 0 else list(kth)
    return sorted({k + length if k < 0 else k for k in kths})


def assert_partitioned(a, kth, result):
    """``result`` is a partition of ``a`` along its last axis around ``kth``: the same shape and
    dtype, the same elements per lane, the kth elements equal to the sorted lane's, those before
    them <= and those after >= (NaN last, compared bit for bit through np.sort)."""
    assert isinstance(result, np.ndarray)
    assert result.shape == a.shape and result.dtype == a.dtype
    expected = np.sort(a, axis=-1)
    assert np.array_equal(np.sort(result, axis=-1), expected, equal_nan=True)
    length = a.shape[-1]
    for k in normalized(kth, length):
        assert np.array_equal(result[..., k], expected[..., k], equal_nan=True)
        pivot = result[..., k : k + 1]
        # Everything before position k sorts at or before the pivot, everything after at or after
        # it: a sort of the pieces keeps the kth value at k.
        before = np.sort(np.concatenate([result[..., :k], pivot], axis=-1), axis=-1)
        after = np.sort(np.concatenate([pivot, result[..., k + 1 :]], axis=-1), axis=-1)
        assert np.array_equal(before[..., -1], expected[..., k], equal_nan=True)
        assert np.array_equal(after[..., 0], expected[..., k], equal_nan=True)


def assert_argpartitioned(a, kth, indices):
    assert indices.dtype == np.intp and indices.shape == a.shape
    lanes = np.sort(indices, axis=-1)
    assert np.array_equal(lanes, np.broadcast_to(np.arange(a.shape[-1]), a.shape))
    assert_partitioned(a, kth, np.take_along_axis(a, indices, axis=-1))


def check_both(a, kth):
    before = live_blocks()
    result = partition(a, kth)
    indices = argpartition(a, kth)
    assert_partitioned(a, kth, result)
    assert_argpartitioned(a, kth, indices)
    del result, indices
    assert live_blocks() == before


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.integers(-9, 10, size=shape)
    if dtype is np.bool_:
        return values > 0
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64])
@pytest.mark.parametrize("length", [1, 2, 3, 16, 17, 40, 1000])
def test_every_kth_of_a_vector(dtype, length):
    a = sample(length, dtype, seed=length)
    for k in range(-length, length, max(1, length // 11)):
        check_both(a, k)


def test_booleans():
    a = sample(50, np.bool_)
    for k in (0, 10, 25, 49, -1):
        check_both(a, k)


def test_special_floats():
    a = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, np.nan, -2.0, 0.0, -0.0] * 5)
    for k in range(a.size):
        check_both(a, k)
    check_both(a.astype(np.float32), [0, 19, -3])


def test_nan_only_and_repeated_values():
    check_both(np.full(100, np.nan), 50)
    check_both(np.zeros(1000), [0, 500, 999])
    check_both(np.tile(np.array([1.0, np.nan]), 300), [10, 299, 300, -1])


@pytest.mark.parametrize("seed", range(5))
def test_large_random_lanes_with_nan(seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(5000)
    a[rng.random(5000) < 0.05] = np.nan
    check_both(a, [0, 1234, 2500, -1, -250])


def test_adversarial_orders_finish():
    # Sorted, reversed and organ-pipe inputs defeat naive pivots; the fallback bounds the work.
    n = 20000
    ascending = np.arange(n, dtype=np.float64)
    pipe = np.concatenate([np.arange(n // 2), np.arange(n // 2)[::-1]]).astype(np.int64)
    for a in (ascending, ascending[::-1].copy(), pipe):
        check_both(a, [n // 2, n // 3])


@pytest.mark.parametrize(
    "kth", [(1, 3), [0, -1], (2,), np.array([4, 0, 4, 2]), [-5, 1, 1]], ids=repr
)
def test_kth_sequences(kth):
    check_both(sample(5, np.float64, seed=3), kth)
    check_both(sample((3, 5), np.int64, seed=4), kth)


def test_empty_kth_sequence_returns_a_copy():
    a = sample(6, np.float64)
    result = partition(a, np.empty(0, np.int64))
    assert np.array_equal(np.sort(result), np.sort(a))


def test_two_and_three_dimensions():
    check_both(sample((4, 9), np.float64, seed=1), 4)
    check_both(sample((3, 4, 7), np.int32, seed=2), [-1, 0, 3])
    check_both(sample((2, 3, 1), np.float32, seed=2), 0)


def test_non_contiguous_inputs():
    base = sample((6, 20), np.float64, seed=5)
    check_both(base[::2, ::3], 2)
    check_both(base.T, [0, 5])
    check_both(base[:, 5:15], -2)
    check_both(sample(41, np.int64)[::-2], 7)


def test_input_is_left_alone_and_result_is_a_copy():
    a = sample(30, np.float64)
    original = a.copy()
    result = partition(a, 10)
    assert np.array_equal(a, original)
    result[:] = 0
    assert np.array_equal(a, original)


def test_empty_arrays_check_no_kth():
    # As NumPy: an empty array gives an empty result whatever kth is.
    check_both(np.empty((0, 4)), 3)
    check_both(np.empty((2, 0, 5), np.int32), [0, -1])
    for a, kth in (
        (np.empty(0), 0),
        (np.empty(0), 5),
        (np.empty((3, 0)), 0),
        (np.empty(0), [0, 1]),
    ):
        before = live_blocks()
        assert partition(a, kth).shape == a.shape
        assert argpartition(a, kth).shape == a.shape
        assert live_blocks() == before


@pytest.mark.parametrize(
    ("a", "kth"),
    [
        (np.arange(5.0), 5),
        (np.arange(5.0), -6),
        (np.arange(5.0), [1, 9]),
        (np.arange(6).reshape(2, 3), 3),
    ],
)
def test_kth_out_of_range(a, kth):
    with pytest.raises(ValueError) as expected:
        np.partition(a, kth)
    for function in (partition, argpartition):
        before = live_blocks()
        with pytest.raises(ValueError) as actual:
            function(a, kth)
        assert str(actual.value) == str(expected.value)
        assert live_blocks() == before


def test_refused_arguments_name_the_call():
    with pytest.raises(Exception, match="partition"):
        partition(np.arange(5.0), True)
    with pytest.raises(Exception, match="partition"):
        partition(np.arange(5.0), 1.5)
    with pytest.raises(Exception, match="partition"):
        partition(np.arange(4) + 1j, 1)


def test_selection_is_linear_not_a_sort_on_lanes_with_one_kth():
    # A plain behaviour check of the algorithm: a sorted lane stays sorted only by accident;
    # an organ pipe partitioned at its first element is generally not fully sorted afterwards.
    a = np.random.default_rng(9).permutation(2000).astype(np.float64)
    result = partition(a, 0)
    assert result[0] == 0.0
    assert not np.array_equal(result, np.sort(a))


# ---------------------------------------------------------------------------------------------
# array_split and split


@njit
def array_split(a, sections):
    return np.array_split(a, sections)


@njit
def array_split_axis(a, sections, axis):
    return np.array_split(a, sections, axis)


@njit
def split(a, sections):
    return np.split(a, sections)


@njit
def split_axis(a, sections, axis):
    return np.split(a, sections, axis=axis)


def assert_pieces(actual, expected):
    assert isinstance(actual, list) and len(actual) == len(expected)
    for got, want in zip(actual, expected):
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.array_equal(got, want, equal_nan=True)


def check_split(function, a, *args):
    before = live_blocks()
    assert_pieces(function(a, *args), function.py_func(a, *args))
    assert live_blocks() == before


@pytest.mark.parametrize("sections", [1, 2, 3, 4, 7, 9])
def test_array_split_sections(sections):
    check_split(array_split, np.arange(7.0), sections)
    check_split(array_split, np.arange(24).reshape(6, 4), sections)


@pytest.mark.parametrize(
    "indices", [(2, 5), [2, 5, 100], [5, 2], [-2], np.array([0, 0, 3]), (), [3]], ids=repr
)
def test_array_split_indices(indices):
    if isinstance(indices, tuple) and not indices:
        indices = np.empty(0, np.int64)
    check_split(array_split, np.arange(7), indices)
    check_split(split, np.arange(7), indices)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_array_split_along_axes(axis):
    a = np.arange(60.0).reshape(3, 4, 5)
    check_split(array_split_axis, a, 2, axis)
    check_split(array_split_axis, a, [1, 3], axis)
    check_split(array_split_axis, a[:, ::2, ::-1], 2, axis)


def test_pieces_are_views():
    a = np.arange(10.0)
    pieces = array_split(a, 3)
    pieces[1][0] = -1.0
    assert a[4] == -1.0


def test_split_sections_and_errors():
    check_split(split, np.arange(12), 3)
    check_split(split_axis, np.arange(12).reshape(2, 6), 3, 1)
    for function, args in (
        (split, (np.arange(7), 3)),
        (array_split, (np.arange(7), 0)),
        (split, (np.arange(7), -1)),
    ):
        with pytest.raises(ValueError) as expected:
            function.py_func(*args)
        with pytest.raises(ValueError) as actual:
            function(*args)
        assert str(actual.value) == str(expected.value)


def test_split_axis_out_of_range():
    with pytest.raises(np.exceptions.AxisError):
        array_split_axis(np.arange(6), 2, 1)
