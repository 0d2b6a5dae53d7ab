"""np.where's forms beside the three-array kernel: np.where(condition) (NumPy's
np.asarray(condition).nonzero()) of arrays of any dtype, layout and ndim, lists and tuples, and
lists or tuples among the three operands of np.where(c, x, y) (converted with np.asarray,
numbers kept as numbers). Compared with NumPy; counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def where1(c):
    return np.where(c)


@taipan.njit
def where3(c, x, y):
    return np.where(c, x, y)


@taipan.njit
def where_x_only(c, x):
    return np.where(c, x)


def conditions():
    base = np.array([[0.0, 1.5, np.nan], [-0.0, 0.0, -2.0], [np.inf, 0.0, 3.0], [1.0, 0, 0]])
    yield base
    yield np.asfortranarray(base)
    yield base.T
    yield base[::2, ::-1]
    yield np.nan_to_num(base, posinf=5.0).astype(np.int32)
    yield base[:, 0] != 0
    mixed = base.astype(np.complex64)
    mixed.imag = base[::-1]
    yield mixed
    yield np.zeros((0, 3))
    yield np.arange(24).reshape(2, 3, 4) % 3
    yield [1, 0, 2, 0]
    yield (0.0, -0.0, 1.0)
    yield [[True, False], [False, True]]


def check_nonzero(c):
    expected = np.where(c)
    got = where1(c)
    assert isinstance(got, tuple) and len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype
        np.testing.assert_array_equal(g, e)


def test_one_argument_is_nonzero():
    before = live_blocks()
    for c in conditions():
        check_nonzero(c)
    assert live_blocks() == before


def test_one_argument_of_a_number_is_numpys_error():
    with pytest.raises(ValueError) as expected:
        np.where(5)
    with pytest.raises(ValueError) as got:
        where1(5)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize(
    "c, x, y",
    [
        ([True, False], np.zeros((2, 25)).T, np.ones((2, 25)).T),
        (np.array([True, False])[:, np.newaxis], np.zeros((2, 25)), np.ones((2, 25))),
        ((True, False, True), [1.5, np.nan, -0.0], 2.5),
        (np.array([1, 0, 3]), (1, 2, 3), [-1, -2, -3]),
        ([[1, 0], [0, 1]], np.arange(4.0).reshape(2, 2, order="F"), np.float32(7.0)),
        ([0.0, np.nan], 1j, [2, 3]),
    ],
)
def test_sequences_among_the_operands(c, x, y):
    before = live_blocks()
    expected = np.where(c, x, y)
    got = where3(c, x, y)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    del got
    assert live_blocks() == before


def test_x_without_y_is_a_typing_error():
    with pytest.raises(TypingError, match="either both or neither"):
        where_x_only(np.array([True]), np.array([1.0]))


def test_non_array_like_condition_is_a_typing_error():
    with pytest.raises(TypingError, match='"condition" must be array-like'):
        where1("abc")
