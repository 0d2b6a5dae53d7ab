"""np.swapaxes, np.moveaxis, np.transpose with axes, np.expand_dims, np.fliplr, np.flipud,
np.rot90 and np.take_along_axis (numpy_library/axes.py) compared with NumPy over dtypes,
shapes, layouts and axes; the views share the array's memory, and allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts, sample
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


@njit
def swapaxes(a, i, j):
    return np.swapaxes(a, i, j)


@njit
def moveaxis(a, source, destination):
    return np.moveaxis(a, source, destination)


@njit
def transpose(a, axes):
    return np.transpose(a, axes)


@njit
def expand_dims(a, axis):
    return np.expand_dims(a, axis)


@njit
def fliplr(a):
    return np.fliplr(a)


@njit
def flipud(a):
    return np.flipud(a)


@njit
def rot90(a, k):
    return np.rot90(a, k)


@njit
def rot90_default(a):
    return np.rot90(a)


@njit
def take_along_axis(a, indices, axis):
    return np.take_along_axis(a, indices, axis)


@njit
def take_along_flat(a, indices):
    return np.take_along_axis(a, indices, None)


def arrays(dtype="float64"):
    """3-D arrays in several layouts, and 2-D ones."""
    base = sample(dtype, (2, 3, 4))
    yield base
    yield np.asfortranarray(base)
    yield np.zeros((4, 3, 8), dtype)[::2, :, 1::2]
    yield base[:, ::-1, :]
    for _, a in layouts(sample(dtype, (3, 4))):
        yield a


@pytest.mark.parametrize("dtype", ["bool", "int32", "float64", "complex128"])
def test_swapaxes(dtype):
    for a in arrays(dtype):
        for i in range(-a.ndim, a.ndim):
            check_like_numpy(swapaxes, a, i, a.ndim - 1)
    check_like_numpy(swapaxes, np.arange(3), 0, -1)


def test_swapaxes_is_a_view_and_checks_axes():
    a = np.arange(6.0).reshape(2, 3)
    view = swapaxes(a, 0, 1)
    view[2, 1] = -1.0
    assert a[1, 2] == -1.0
    with pytest.raises(ValueError, match="np.swapaxes: Argument axis1 out of bounds"):
        swapaxes(a, 2, 0)
    with pytest.raises(TypingError, match='The first argument "a" must be an array'):
        swapaxes("abc", 0, 0)


@pytest.mark.parametrize(
    "source,destination",
    [(0, -1), (-1, 0), ((0, 1), (2, 0)), ([0, 2], [-1, -2]), ((), ()), ((2, 0, 1), (0, 1, 2))],
    ids=str,
)
def test_moveaxis(source, destination):
    for a in arrays():
        if a.ndim == 3:
            check_like_numpy(moveaxis, a, source, destination)


def test_moveaxis_errors():
    a = np.zeros((2, 3, 4))
    with pytest.raises(ValueError, match="np.moveaxis: repeated axis in source argument"):
        moveaxis(a, (0, 0), (1, 2))
    with pytest.raises(ValueError, match="must have the same number of parameters"):
        moveaxis(a, (0, 1), (1,))
    with pytest.raises(ValueError, match="np.moveaxis: Argument destination out of bounds"):
        moveaxis(a, 0, 3)


@pytest.mark.parametrize("axes", [(0, 1, 2), (2, 0, 1), (1, 2, 0), (-1, 0, 1)], ids=str)
def test_transpose_with_axes(axes):
    for a in arrays("int16"):
        if a.ndim == 3:
            check_like_numpy(transpose, a, axes)
    check_like_numpy(transpose, np.zeros((2, 3, 4)), [2, 1, 0])
    check_like_numpy(transpose, np.zeros((2, 3, 4)), (0, 0, 1))  # repeated: ValueError


@pytest.mark.parametrize("dtype", ["bool", "uint8", "float32", "complex64"])
def test_expand_dims(dtype):
    for a in arrays(dtype):
        for axis in range(-a.ndim - 1, a.ndim + 1):
            check_like_numpy(expand_dims, a, axis)
    check_like_numpy(expand_dims, np.array(2.5), 0)
    check_like_numpy(expand_dims, np.zeros((0, 3)), 1)
    with pytest.raises(ValueError, match="out of bounds"):
        expand_dims(np.zeros(3), 2)


@pytest.mark.parametrize("dtype", ["int64", "float64", "complex128"])
def test_flips_and_rotations(dtype):
    for a in arrays(dtype):
        check_like_numpy(fliplr, a)
        check_like_numpy(flipud, a)
        check_like_numpy(rot90_default, a)
        for k in (-5, -1, 0, 1, 2, 3, 4, 7):
            check_like_numpy(rot90, a, k)
    check_like_numpy(flipud, sample(dtype, (5,)))
    check_like_numpy(flipud, [1, 2, 3])
    check_like_numpy(fliplr, ((1, 2), (3, 4)))


def test_flip_and_rotation_errors():
    with pytest.raises(TypingError, match="Input must be >= 2-d"):
        rot90(np.zeros(3), 1)
    with pytest.raises(TypingError, match="Input must be >= 2-d"):
        fliplr(np.zeros(3))
    with pytest.raises(TypingError, match='The second argument "k" must be an integer'):
        rot90(np.zeros((2, 2)), 1.5)


def test_take_along_axis():
    rng = np.random.default_rng(3)
    for a in arrays("float64"):
        for axis in range(-a.ndim, a.ndim):
            order = np.argsort(a, axis=axis)
            check_like_numpy(take_along_axis, a, order, axis)
            shape = list(a.shape)
            shape[axis] = 5
            picks = rng.integers(-a.shape[axis], a.shape[axis], shape)
            check_like_numpy(take_along_axis, a, picks, axis)
            shape = [1] * a.ndim
            shape[axis] = 2  # broadcast over the other axes
            check_like_numpy(take_along_axis, a, np.zeros(shape, np.int32), axis)
    check_like_numpy(take_along_flat, np.arange(6.0).reshape(2, 3), np.array([5, 0, -1]))


def test_take_along_axis_errors():
    a = np.arange(6.0).reshape(2, 3)
    with pytest.raises(IndexError):
        take_along_axis(a, np.array([[3]]), 1)
    with pytest.raises(ValueError, match="dimensions don't match"):
        take_along_axis(a, np.zeros((3, 1), np.int64), 1)
    with pytest.raises(TypingError, match="must have the same number of dimensions"):
        take_along_axis(a, np.zeros(3, np.int64), 1)
    with pytest.raises(TypingError, match="The indices array must contain integers"):
        take_along_axis(a, np.zeros((2, 3)), 1)


def test_views_keep_the_base_alive():
    with no_allocation_leak():
        view = expand_dims(np.arange(4.0), 0)
        assert view.shape == (1, 4) and view[0, 3] == 3.0
        del view


def test_transpose_axes_errors():
    with pytest.raises(ValueError, match="axes don't match array"):
        transpose(np.zeros((2, 3)), (0, 1, 2))
    with pytest.raises(ValueError, match="axis is out of bounds for array of given dimension"):
        transpose(np.zeros((2, 3)), (0, 2))
