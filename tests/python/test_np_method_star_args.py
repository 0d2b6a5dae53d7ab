"""``a.method(*args)``: a tuple spread into an array method's positional arguments (sum,
cumsum, prod, repeat, clip, astype, reshape...), as into NumPy functions; the result is NumPy's.
A container's method (list.append(*t)) stays refused at the user's line. Counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import UnsupportedError
from taipan.runtime import live_blocks


@taipan.njit
def array_sum(a, *args):
    return a.sum(*args)


@taipan.njit
def array_cumsum(a, *args):
    return a.cumsum(*args)


@taipan.njit
def array_repeat(a, *args):
    return a.repeat(*args)


@taipan.njit
def array_clip(a, *args):
    return a.clip(*args)


@taipan.njit
def array_reshape(a, *args):
    return a.reshape(*args)


def same(got, expected):
    np.testing.assert_array_equal(got, expected)
    assert np.asarray(got).dtype.kind == np.asarray(expected).dtype.kind


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128, np.bool_])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 3, 4)])
def test_spread_into_reductions(dtype, shape):
    a = np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)
    before = live_blocks()
    same(array_sum(a), a.sum())
    same(array_cumsum(a), a.cumsum())
    for axis in range(a.ndim):
        same(array_sum(a, axis), a.sum(axis))
        if dtype is not np.bool_:
            same(array_sum(a, axis, np.float64), a.sum(axis, np.float64))
    assert live_blocks() == before


def test_spread_into_other_methods():
    a = np.arange(12.0).reshape(3, 4)
    before = live_blocks()
    same(array_repeat(a, 2), a.repeat(2))
    same(array_clip(a, 2, 5), a.clip(2, 5))
    same(array_clip(np.asfortranarray(a), None, 5), a.clip(None, 5))
    same(array_reshape(a, 4, 3), a.reshape(4, 3))
    same(array_reshape(a, (2, 6)), a.reshape((2, 6)))
    assert live_blocks() == before


def test_spread_into_a_list_method_is_refused_at_the_users_line():
    @taipan.njit
    def append_all(values, *args):
        values.append(*args)
        return values

    with pytest.raises(UnsupportedError) as info:
        append_all([1.0], 2.0)
    assert "test_np_method_star_args.py" in str(info.value)
