"""np.ndindex, np.ndenumerate and np.nditer in for loops, and ndarray.item(), compared with
NumPy over shapes, layouts, empty and 0-d arrays; no leaks."""

import gc

import numpy as np
import pytest

from taipan import njit
from taipan.errors import UnsupportedError
from taipan.runtime import get_allocation_stats


def balanced(call):
    call()
    gc.collect()
    before = get_allocation_stats()
    for _ in range(3):
        call()
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free


def arrays():
    base = np.arange(24.0).reshape(2, 3, 4) - 7.5
    return {
        "1d": np.arange(5, dtype=np.int32),
        "2d": base[0],
        "3d": base,
        "transposed": base.T,
        "strided": base[:, ::2, ::-1],
        "empty": np.zeros((3, 0)),
        "0d": np.array(2.5),
        "bool": np.array([[True, False], [False, True]]),
        "complex": (base[1] + 1j * base[0]).astype(np.complex64),
    }


@njit
def enumerate_all(a):
    total = 0.0
    count = 0
    for index, value in np.ndenumerate(a):
        weight = 1
        for axis in range(len(index)):
            weight += index[axis] * (axis + 2)
        total += weight * value
        count += 1
    return total, count


SHAPED = [name for name in arrays() if name != "0d"]


@pytest.mark.parametrize("name", SHAPED)
def test_ndenumerate_visits_every_element_in_c_order(name):
    a = arrays()[name]
    if a.dtype == np.complex64:
        pytest.skip("weights of complex values are covered by test_ndenumerate_items")
    assert enumerate_all(a) == pytest.approx(enumerate_all.py_func(a))
    balanced(lambda: enumerate_all(a))


@pytest.mark.parametrize("name", SHAPED)
def test_ndenumerate_items(name):
    a = arrays()[name]

    @njit
    def items(a):
        out = np.empty((a.size, a.ndim + 1), np.complex128)
        k = 0
        for index, value in np.ndenumerate(a):
            for axis in range(a.ndim):
                out[k, axis] = index[axis]
            out[k, a.ndim] = value
            k += 1  # noqa: SIM113 (enumerate of an index iterator is not compiled)
        return out

    expected = np.array(
        [list(index) + [value] for index, value in np.ndenumerate(a)], np.complex128
    ).reshape(a.size, a.ndim + 1)
    np.testing.assert_array_equal(items(a), expected)


@pytest.mark.parametrize("shape", [(0,), (4,), (2, 3), (3, 0, 2), (2, 2, 2, 2)], ids=str)
def test_ndindex_of_a_tuple_and_of_integers(shape):
    @njit
    def codes(shape):
        code = 0
        count = 0
        for index in np.ndindex(shape):
            for axis in range(len(index)):
                code = (code * 7 + index[axis]) % 1000003
            count += 1
        return code, count

    assert codes(shape) == codes.py_func(shape)

    if len(shape) == 2:

        @njit
        def spread(m, n):
            total = 0
            for i, j in np.ndindex(m, n):
                total += i * 100 + j
            return total

        assert spread(*shape) == spread.py_func(*shape)


def test_zero_dimensional_index_spaces_have_one_empty_index():
    @njit
    def f(a):
        n = 0
        total = 0.0
        for index, value in np.ndenumerate(a):
            n += 1 + len(index)
            total += value
        for index in np.ndindex(()):
            n += 10 + len(index)
        for index in np.ndindex():
            n += 100 + len(index)
        return n, total

    assert f(np.array(2.5)) == f.py_func(np.array(2.5)) == (111, 2.5)


def test_ndindex_of_negative_extents_raises_as_numpy_does():
    @njit
    def f(m):
        n = 0
        for _ in np.ndindex(m, 3):
            n += 1
        return n

    for function in (f.py_func, f):
        with pytest.raises(ValueError, match="negative dimensions are not allowed"):
            function(-1)


@pytest.mark.parametrize("name", ["1d", "2d", "transposed", "strided", "0d", "bool", "complex"])
def test_nditer_yields_zero_d_views_in_memory_order(name):
    a = arrays()[name]

    @njit
    def flat(a):
        out = np.empty(a.size, a.dtype)
        k = 0
        for x in np.nditer(a):
            out[k] = x.item()
            k += 1  # noqa: SIM113 (enumerate of an index iterator is not compiled)
        return out

    np.testing.assert_array_equal(flat(a), np.array([x.item() for x in np.nditer(a)], a.dtype))
    balanced(lambda: flat(a))


def test_nditer_of_an_empty_array_raises_as_numpy_does():
    @njit
    def count(a):
        n = 0
        for _ in np.nditer(a):
            n += 1
        return n

    with pytest.raises(ValueError, match="zero-sized operands"):
        count.py_func(np.zeros((2, 0)))
    with pytest.raises(ValueError, match="zero-sized operands"):
        count(np.zeros((2, 0)))
    balanced(lambda: count(np.ones((3, 3))[::2, ::-1]))


def test_item_of_size_one_arrays_and_error():
    @njit
    def item(a):
        return a.item()

    assert item(np.array(3.5)) == 3.5
    assert item(np.array([[7]], np.int32)) == 7
    assert item(np.array([True])) is True or item(np.array([True])) == 1
    with pytest.raises(ValueError, match="size 1"):
        item(np.arange(3.0))


def test_index_iterators_outside_for_loops_are_refused():
    @njit
    def f(a):
        return np.ndenumerate(a)

    with pytest.raises(UnsupportedError, match="only be iterated by a for loop"):
        f(np.zeros(3))
