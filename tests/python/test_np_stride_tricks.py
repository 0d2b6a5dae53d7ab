"""numpy.lib.stride_tricks' as_strided and sliding_window_view (numpy_library/stride_tricks.py,
over taipan.unsafe.strided_view) compared with NumPy over dtypes, layouts, window shapes and
axes, spelled as np.lib.stride_tricks.<name> and imported; allocations balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts, sample
from numpy.lib.stride_tricks import as_strided as imported_as_strided
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


@njit
def as_strided(a, shape, strides):
    return np.lib.stride_tricks.as_strided(a, shape, strides)


@njit
def as_strided_keywords(a, strides):
    return np.lib.stride_tricks.as_strided(a, strides=strides)


@njit
def as_strided_imported(a, shape, strides):
    return imported_as_strided(a, shape=shape, strides=strides)


@njit
def windows(a, shape):
    return np.lib.stride_tricks.sliding_window_view(a, shape)


@njit
def windows_along(a, shape, axis):
    return np.lib.stride_tricks.sliding_window_view(a, shape, axis)


@pytest.mark.parametrize("dtype", ["bool", "int16", "float64", "complex128"])
def test_as_strided(dtype):
    a = sample(dtype, (12,))
    size = a.itemsize
    check_like_numpy(as_strided, a, (3, 4), (4 * size, size))
    check_like_numpy(as_strided, a, (4, 3), (size, 4 * size))
    check_like_numpy(as_strided, a, (5, 3), (2 * size, size))  # overlapping rows
    check_like_numpy(as_strided, a, (3, 4), (0, size))
    check_like_numpy(as_strided_imported, a, (2, 2, 3), (6 * size, 3 * size, size))
    check_like_numpy(as_strided_keywords, a, (2 * size,))
    for _, b in layouts(sample(dtype, (4, 5))):
        check_like_numpy(as_strided, b, (2, 2), b.strides)


def test_as_strided_writes_through():
    a = np.zeros(6)
    view = as_strided(a, (3,), (16,))
    view[1] = 5.0
    assert a[2] == 5.0


def test_as_strided_needs_strides():
    @njit
    def no_strides(a):
        return np.lib.stride_tricks.as_strided(a, (2,))

    with pytest.raises(TypingError, match="strides argument cannot be None"):
        no_strides(np.zeros(3))


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex64"])
def test_sliding_window_view(dtype):
    check_like_numpy(windows, sample(dtype, (10,)), 3)
    check_like_numpy(windows, sample(dtype, (10,)), 10)
    check_like_numpy(windows, sample(dtype, (10,)), 0)
    for _, a in layouts(sample(dtype, (4, 5))):
        check_like_numpy(windows, a, (2, 3))
        check_like_numpy(windows_along, a, 2, 1)
        check_like_numpy(windows_along, a, 3, -2)
        check_like_numpy(windows_along, a, (2, 2), (1, 1))  # one axis twice
        check_like_numpy(windows_along, a, (2, 3), (1, 0))
    check_like_numpy(windows, sample(dtype, (2, 3, 4)), (1, 2, 3))


def test_sliding_window_view_errors():
    a = np.arange(5.0)
    with pytest.raises(ValueError, match="window_shape cannot be larger than input array shape"):
        windows(a, 6)
    with pytest.raises(ValueError, match="`window_shape` cannot contain negative values"):
        windows(a, -1)
    with pytest.raises(ValueError, match="Must provide matching length window_shape and axis"):
        windows_along(np.zeros((3, 3)), (2, 2), (0,))
    with pytest.raises(ValueError, match="out of bounds"):
        windows_along(a, 2, 1)
    with pytest.raises(TypingError, match="window_shape must be an integer or tuple"):
        windows(a, 2.0)


def test_views_keep_their_base_alive():
    with no_allocation_leak():
        view = windows(np.arange(6.0), 4)
        assert view.shape == (3, 4) and view[2, 3] == 5.0
        del view
