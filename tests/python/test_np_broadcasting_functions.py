"""np.broadcast_to, np.broadcast_shapes, np.broadcast_arrays, np.diag, np.tri and np.indices in
compiled code, compared with NumPy: values, shapes, dtypes and strides of the views (0 on a
stretched axis), empty shapes, non-contiguous arrays, errors raised at run time."""

import numpy as np
import pytest
from conftest import assert_raises_same

import taipan
from taipan.runtime import live_blocks


@taipan.njit
def broadcast_to(a, shape):
    return np.broadcast_to(a, shape)


@taipan.njit
def broadcast_shapes_2(a, b):
    return np.broadcast_shapes(a, b)


@taipan.njit
def broadcast_arrays_2(a, b):
    return np.broadcast_arrays(a, b)


@taipan.njit
def broadcast_arrays_3(a, b, c):
    return np.broadcast_arrays(a, b, c)


@taipan.njit
def write_to_broadcast(a):
    v = np.broadcast_to(a, (2, 3))
    v[0, 0] = 1.0


def check_view(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    np.testing.assert_array_equal(got, want)


BROADCAST_TO = [
    (np.arange(3.0), (2, 3)),
    (np.arange(3.0).reshape(3, 1), (2, 3, 4)),
    (np.array(5, dtype=np.int8), (2, 2)),
    (np.arange(6).reshape(2, 3)[:, ::2], (4, 2, 2)),
    (np.arange(3.0), (0, 3)),
    (np.array([1 + 1j, np.nan]), (3, 2)),
    (np.array([-0.0, np.inf]), (1, 2)),
    (np.array([True, False]).reshape(2, 1), (2, 5)),
    (np.zeros((0, 1)), (3, 0, 4)),
]


@pytest.mark.parametrize("index", range(len(BROADCAST_TO)))
def test_broadcast_to_like_numpy(index):
    a, shape = BROADCAST_TO[index]
    before = live_blocks()
    got = broadcast_to(a, shape)
    check_view(got, np.broadcast_to(a, shape))
    assert not got.flags.writeable
    del got
    assert live_blocks() == before


def test_broadcast_to_its_own_shape_is_a_read_only_view():
    a = np.arange(3.0)
    got = broadcast_to(a, 3)
    check_view(got, np.broadcast_to(a, 3))
    assert got is not a and not got.flags.writeable and np.shares_memory(got, a)


def test_broadcast_to_of_numbers_tuples_and_an_integer_shape():
    assert (broadcast_to(5, (2, 2)) == np.broadcast_to(5, (2, 2))).all()
    assert (broadcast_to((1.0, 2.0), (3, 2)) == np.broadcast_to((1.0, 2.0), (3, 2))).all()


def test_broadcast_to_errors_like_numpy():
    assert_raises_same(broadcast_to, np.arange(3.0), (2, 4), message=None)
    assert_raises_same(broadcast_to, np.arange(3.0), (-1, 3))
    assert_raises_same(broadcast_to, np.zeros((2, 3)), (3,))


def test_broadcast_to_is_read_only():
    with pytest.raises(taipan.errors.TypingError, match="read-only"):
        write_to_broadcast(np.arange(3.0))


@pytest.mark.parametrize(
    "a, b",
    [
        ((1, 3), (2, 1)),
        ((3,), (4, 1)),
        (5, (2, 1)),
        ((), (2,)),
        ((), ()),
        ((2, 0), (1,)),
        ((1, 1, 1), (7,)),
        ((2,), (3,)),
        ((2, 3), (3, 3)),
        ((-1,), (1,)),
    ],
)
def test_broadcast_shapes_like_numpy(a, b):
    try:
        want = np.broadcast_shapes(a, b)
    except ValueError:
        assert_raises_same(broadcast_shapes_2, a, b)
        return
    assert broadcast_shapes_2(a, b) == want


def test_broadcast_shapes_of_any_count():
    @taipan.njit
    def several():
        return np.broadcast_shapes(), np.broadcast_shapes((6, 7), (5, 6, 1), (7,), (5, 1, 7))

    assert several() == several.py_func()


ARRAY_PAIRS = [
    (np.arange(3.0), np.arange(2).reshape(2, 1)),
    (np.array(2.5), np.arange(4, dtype=np.int16)[::2]),
    (np.zeros((0, 1)), np.ones((1, 5), dtype=np.complex64)),
    (np.arange(6.0).reshape(2, 3).T, np.arange(2.0)),
]


@pytest.mark.parametrize("index", range(len(ARRAY_PAIRS)))
def test_broadcast_arrays_like_numpy(index):
    a, b = ARRAY_PAIRS[index]
    before = live_blocks()
    got = broadcast_arrays_2(a, b)
    want = np.broadcast_arrays(a, b)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want, strict=True):
        check_view(g, w)
    del got, g
    assert live_blocks() == before


def test_broadcast_arrays_of_three_and_errors():
    a, b, c = np.arange(3.0), np.ones((4, 1), dtype=np.int32), np.array(7)
    for g, w in zip(broadcast_arrays_3(a, b, c), np.broadcast_arrays(a, b, c), strict=True):
        check_view(g, w)
    assert_raises_same(broadcast_arrays_2, np.arange(3.0), np.arange(4.0))


@taipan.njit
def diagonal(v, k):
    return np.diag(v, k)


@taipan.njit
def main_diagonal(v):
    return np.diag(v)


DIAG_INPUTS = [
    np.arange(3.0),
    np.array([1 + 1j, np.nan, -0.0]),
    np.arange(12, dtype=np.int32).reshape(3, 4),
    np.arange(12).reshape(4, 3).T,
    np.arange(20.0).reshape(4, 5)[::2, ::-2],
    np.zeros(0),
    np.zeros((0, 3)),
    np.array([True, False]),
]


@pytest.mark.parametrize("index", range(len(DIAG_INPUTS)))
def test_diag_like_numpy(index):
    v = DIAG_INPUTS[index]
    before = live_blocks()
    for k in (-5, -2, -1, 0, 1, 2, 7):
        got, want = diagonal(v, k), np.diag(v, k)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    got = main_diagonal(v)
    np.testing.assert_array_equal(got, np.diag(v))
    del got
    assert live_blocks() == before


def test_diag_of_three_dimensions_is_a_typing_error():
    with pytest.raises(taipan.errors.TypingError, match="diag"):
        main_diagonal(np.zeros((2, 2, 2)))


@taipan.njit
def triangle(n, m, k):
    return np.tri(n, m, k)


@pytest.mark.parametrize(
    "n, m, k", [(3, 3, 0), (3, 5, -1), (4, 2, 1), (0, 3, 0), (3, 0, 0), (3, 3, -5), (2, 3, 9)]
)
def test_tri_like_numpy(n, m, k):
    before = live_blocks()
    got, want = triangle(n, m, k), np.tri(n, m, k)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    del got
    assert live_blocks() == before


def test_tri_defaults_and_dtypes():
    @taipan.njit
    def forms():
        return np.tri(3), np.tri(3, dtype=np.int32), np.tri(2, 4, k=1, dtype=np.dtype(np.uint8))

    for got, want in zip(forms(), forms.py_func(), strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@taipan.njit
def grid_indices(shape):
    return np.indices(shape)


@pytest.mark.parametrize("shape", [(2, 3), (3,), (2, 0, 2), (2, 3, 4), (1, 1)])
def test_indices_like_numpy(shape):
    before = live_blocks()
    got, want = grid_indices(shape), np.indices(shape)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    del got
    assert live_blocks() == before


def test_indices_dtype():
    @taipan.njit
    def as_int32():
        return np.indices((2, 2), np.int32)

    got = as_int32()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.indices((2, 2), np.int32))
