"""np.take(a, indices, axis=...) and a.take(indices, axis=...): the chosen lanes along an axis,
in NumPy's shape (a's shape with the axis replaced by the indices' shape; one index of a 1-D
array is the item itself), across dtypes, layouts (C, F, strided views), index forms (arrays of
any ndim, lists, tuples, one integer, negative positions, empty) and NumPy's errors (AxisError,
IndexError naming the axis). Counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def take_axis(a, indices, axis):
    return np.take(a, indices, axis=axis)


@taipan.njit
def take_method(a, indices, axis):
    return a.take(indices, axis=axis)


@taipan.njit
def take_no_axis(a, indices):
    return np.take(a, indices, None)


def check(a, indices, axis):
    expected = np.take(a, indices, axis=axis)
    for f in (take_axis, take_method):
        if f is take_method and isinstance(indices, tuple):
            continue  # a.take of a tuple: the same code path
        got = f(a, indices, axis)
        assert isinstance(got, np.ndarray) == isinstance(expected, np.ndarray), (got, expected)
        got = np.asarray(got)
        assert got.shape == np.shape(expected)
        assert got.dtype == np.asarray(expected).dtype
        np.testing.assert_array_equal(got, expected)
        if got.size:
            assert got.flags.c_contiguous or got.ndim == 0


def layouts(base):
    yield base
    yield np.asfortranarray(base)
    yield base.T
    if base.ndim >= 2:
        yield base[::2, ::-1]


DTYPES = [np.int8, np.int64, np.uint16, np.float32, np.float64, np.complex128, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES)
def test_take_along_every_axis_of_every_layout(dtype):
    base = (np.arange(60) % 7 - 3).astype(dtype).reshape(4, 5, 3)
    before = live_blocks()
    for a in layouts(base):
        for axis in range(-a.ndim, a.ndim):
            n = a.shape[axis]
            for indices in (
                np.array([0, n - 1, 1]),
                np.array([[0, -1], [1, 1]]),
                [n - 1, 0],
                (0,),
                -1,
                1,
                np.array([], dtype=np.int64),
                np.array([1, 0], dtype=np.uint8),
            ):
                check(a, indices, axis)
    assert live_blocks() == before


def test_special_values_are_copied_exactly():
    a = np.array([[np.nan, -0.0, np.inf], [1.5, -np.inf, 0.0]])
    before = live_blocks()
    for axis in (0, 1):
        got = take_axis(a, np.array([1, 0, 1]), axis)
        expected = np.take(a, np.array([1, 0, 1]), axis=axis)
        assert got.tobytes() == expected.tobytes()  # NaN and the sign of zero kept
    del got
    assert live_blocks() == before


def test_one_dimensional_and_single_index_forms():
    a = np.arange(5.0)
    before = live_blocks()
    check(a, 0, 0)
    check(a, -5, 0)
    check(a, (0,), 0)
    check(np.array([123]), np.asarray([0]), 0)
    check(np.ones((10, 1, 11, 1, 12, 1, 3)), 0, 3)
    check(np.zeros((2, 0)), np.array([], dtype=np.int64), 1)
    check(np.zeros((2, 0)), np.array([1, 0]), 0)
    assert live_blocks() == before


def test_axis_none_is_the_flattened_take():
    a = np.arange(12).reshape(3, 4).T
    before = live_blocks()
    np.testing.assert_array_equal(take_no_axis(a, np.array([1, 5, -1])), np.take(a, [1, 5, -1]))
    assert take_no_axis(a, 7) == np.take(a, 7)
    assert live_blocks() == before


@pytest.mark.parametrize(
    "a, indices, axis",
    [
        (np.arange(9).reshape(3, 3), np.array([0, 1, 2]), 2),
        (np.arange(9).reshape(3, 3), np.array([0, 1, 2]), -3),
        (np.arange(9).reshape(3, 3), np.array([0, 3]), 1),
        (np.arange(9).reshape(3, 3), np.array([[0], [-4]]), 0),
        (np.arange(4), 4, 0),
        (np.arange(4), -5, 0),
        (np.arange(4), 0, 1),
    ],
)
def test_errors_are_numpys(a, indices, axis):
    with pytest.raises(Exception) as expected:
        np.take(a, indices, axis=axis)
    with pytest.raises(Exception) as got:
        take_axis(a, indices, axis)
    assert type(got.value) is type(expected.value)
    assert str(got.value) == str(expected.value)


def test_non_integer_axis_or_indices_are_typing_errors():
    with pytest.raises(TypingError, match="axis must be an integer"):
        take_axis(np.arange(3), np.array([0]), 1.0)
    with pytest.raises(TypingError, match="indices must be an integer"):
        take_axis(np.arange(3), np.array([0.5]), 0)
    with pytest.raises(TypingError, match="at least one dimension"):
        take_axis(np.array(3.0), 0, 0)
