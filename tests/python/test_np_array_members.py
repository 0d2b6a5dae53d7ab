"""Array members NumPy has and Numba supports: a.flags (c_contiguous, f_contiguous, contiguous,
writeable, aligned, decided at run time for views by NumPy's rule), a.conj() and
a.conjugate() (a real array itself, a new array of conjugates of a complex one) and
a.view(dtype) (the same memory as another dtype; a changed item size rescales the last axis,
which must be contiguous, with NumPy's errors). Compared with NumPy across dtypes, shapes (0-d,
empty, 1-3-d) and layouts (C, F, strided); counters checked."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


def views_of(a):
    yield a
    if a.ndim >= 1:
        yield a[::2]
        yield a[::-1]
    if a.ndim >= 2:
        yield np.asfortranarray(a)
        yield a.T
        yield a[:, ::2]
        yield a[:, :1]
        yield a[:1]
    if a.ndim >= 3:
        yield a[:, 1:, ::3]


SHAPES = [(), (0,), (5,), (1,), (3, 4), (0, 3), (2, 3, 4), (1, 1, 4)]


@pytest.mark.parametrize("shape", SHAPES)
def test_flags(shape):
    f = taipan.njit(
        lambda a: (
            a.flags.c_contiguous,
            a.flags.f_contiguous,
            a.flags.contiguous,
            a.flags.writeable,
        )
    )
    whole = taipan.njit(lambda a: a.flags)
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    for view in views_of(a):
        expected = (
            view.flags.c_contiguous,
            view.flags.f_contiguous,
            view.flags.contiguous if hasattr(view.flags, "contiguous") else view.flags.c_contiguous,
            view.flags.writeable,
        )
        assert f(view) == expected, (view.shape, view.strides)
        flags = whole(view)
        assert flags.aligned and flags.c_contiguous == expected[0]


def test_flags_of_a_read_only_global():
    frozen = np.arange(6.0).reshape(2, 3)
    assert taipan.njit(lambda: frozen.flags.writeable)() is False
    assert taipan.njit(lambda: frozen.T.flags.f_contiguous)() is True


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3)])
def test_conj_and_conjugate(dtype, shape):
    a = (np.arange(int(np.prod(shape))) - 2).astype(dtype).reshape(shape)
    if np.iscomplexobj(a):
        a = np.asarray(a + 1j * np.arange(a.size).reshape(shape).astype(dtype), dtype=dtype)
    for method in (lambda x: x.conj(), lambda x: x.conjugate()):
        compiled = taipan.njit(method)
        for view in views_of(a):
            before = live_blocks()
            got = np.asarray(compiled(view))
            expected = np.asarray(method(view))
            # A 0-d result of a ufunc comes back as a Python number, as in Numba.
            assert got.dtype == expected.dtype or view.ndim == 0
            assert got.shape == expected.shape
            np.testing.assert_array_equal(got, expected)
            if not np.iscomplexobj(view) and view.ndim:
                assert np.shares_memory(got, view) or view.size == 0
            del got
            assert live_blocks() == before


VIEW_DTYPES = [
    np.int8,
    np.uint8,
    np.int16,
    np.int32,
    np.float32,
    np.int64,
    np.float64,
    np.complex128,
]


@pytest.mark.parametrize("target", VIEW_DTYPES)
@pytest.mark.parametrize("shape", [(8,), (0,), (3, 8), (2, 2, 4), (4, 0)])
def test_view_changes_the_dtype(target, shape):
    compiled = taipan.njit(lambda a, t: a.view(t))
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) * 77
    for view in (a, a[..., ::2], a[:1], np.asfortranarray(a)):
        try:
            expected = view.view(target)
        except ValueError:
            with pytest.raises(ValueError):
                compiled(view, target)
            continue
        before = live_blocks()
        got = compiled(view, target)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert got.strides == expected.strides
        np.testing.assert_array_equal(got, expected)
        del got
        assert live_blocks() == before


def test_view_writes_through():
    def f(a):
        v = a.view(np.uint8)
        v[0] = 255
        return a

    a = np.zeros(2, dtype=np.int32)
    assert taipan.njit(f)(a.copy())[0] == f(a.copy())[0]


def test_view_errors():
    compiled = taipan.njit(lambda a: a.view(np.int64))
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        compiled(np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2])
    with pytest.raises(ValueError, match="divisor of the total size in bytes"):
        compiled(np.arange(3, dtype=np.int32))
    with pytest.raises(ValueError, match="0d array"):
        compiled(np.array(3, dtype=np.int32))
    zero_d = taipan.njit(lambda a: a.view(np.float64))(np.array(4607182418800017408))
    assert zero_d == 1.0


def test_item_of_a_larger_array_raises_numbas_message():
    f = taipan.njit(lambda a: a.item())
    assert f(np.array([2.5])) == 2.5
    with pytest.raises(ValueError, match=r"item\(\): can only convert an array of size 1"):
        f(np.zeros(2))


@pytest.mark.parametrize("shape", [(0,), (5,), (3, 4), (2, 3, 2)])
def test_dot_nonzero_take_methods(shape):
    a = (np.arange(int(np.prod(shape))) % 3).astype(np.float64).reshape(shape)
    nonzero = taipan.njit(lambda a: a.nonzero())
    take = taipan.njit(lambda a, i: a.take(i))
    for view in views_of(a):
        before = live_blocks()
        for got, expected in zip(nonzero(view), view.nonzero()):
            np.testing.assert_array_equal(got, expected)
        if view.size:
            for indices in (0, -1, np.array([0, view.size - 1]), np.array([[0], [view.size - 1]])):
                got = take(view, indices)
                expected = view.take(indices)
                assert np.asarray(got).shape == np.asarray(expected).shape
                np.testing.assert_array_equal(got, expected)
        del got
        assert live_blocks() == before
    dot = taipan.njit(lambda a, b: a.dot(b))
    m = np.arange(20.0).reshape(4, 5)
    np.testing.assert_array_equal(dot(m, np.arange(5.0)), m.dot(np.arange(5.0)))
    np.testing.assert_array_equal(dot(m, m.T), m.dot(m.T))
