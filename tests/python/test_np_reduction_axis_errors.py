"""NumPy's AxisError from the native reductions (sum, prod, min, max, mean, std, var, argmin,
argmax, any, all and their methods) for an axis out of range, with NumPy's text naming the axis
as given and the array's ndim; an axis tuple's out-of-range member too; the error is a
ValueError and an IndexError for except clauses, as NumPy's is. Also a.sum(axis=()) keeps an F
array's order (NumPy's copy in order 'K'). Counters checked."""

import numpy as np
import pytest
from numpy.exceptions import AxisError

import taipan
from taipan.runtime import live_blocks

# (the method, the function) of each reduction
REDUCTIONS = {
    "sum": (lambda a, axis: a.sum(axis), lambda a, axis: np.sum(a, axis=axis)),
    "prod": (lambda a, axis: a.prod(axis), lambda a, axis: np.prod(a, axis=axis)),
    "min": (lambda a, axis: a.min(axis), lambda a, axis: np.min(a, axis=axis)),
    "max": (lambda a, axis: a.max(axis), lambda a, axis: np.max(a, axis=axis)),
    "mean": (lambda a, axis: a.mean(axis), lambda a, axis: np.mean(a, axis=axis)),
    "std": (lambda a, axis: a.std(axis), lambda a, axis: np.std(a, axis=axis)),
    "var": (lambda a, axis: a.var(axis), lambda a, axis: np.var(a, axis=axis)),
    "argmin": (lambda a, axis: a.argmin(axis), lambda a, axis: np.argmin(a, axis=axis)),
    "argmax": (lambda a, axis: a.argmax(axis), lambda a, axis: np.argmax(a, axis=axis)),
    "any": (lambda a, axis: a.any(axis), lambda a, axis: np.any(a, axis=axis)),
    "all": (lambda a, axis: a.all(axis), lambda a, axis: np.all(a, axis=axis)),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@pytest.mark.parametrize("form", [0, 1], ids=["method", "function"])
def test_axis_out_of_range_is_numpys_axis_error(name, form):
    f = taipan.njit(REDUCTIONS[name][form])
    for a in (np.ones((4, 3)), np.ones(5), np.ones((2, 3, 4)).T):
        for axis in (a.ndim, a.ndim + 3, -a.ndim - 1, -9):
            with pytest.raises(AxisError) as expected:
                f.py_func(a, axis)
            with pytest.raises(AxisError) as got:
                f(a, axis)
            assert str(got.value) == str(expected.value)
        for axis in range(-a.ndim, a.ndim):  # in range: NumPy's values
            np.testing.assert_allclose(f(a, axis), f.py_func(a, axis))


@taipan.njit
def sum_over(a, axes):
    return a.sum(axis=axes)


def test_axis_tuple_member_out_of_range():
    a = np.arange(24.0).reshape(2, 3, 4)
    for axes in ((0, 3), (-4,), (1, -7, 0)):
        with pytest.raises(AxisError) as expected:
            a.sum(axis=axes)
        with pytest.raises(AxisError) as got:
            sum_over(a, axes)
        assert str(got.value) == str(expected.value)


@taipan.njit
def caught_as(a, axis):
    try:
        a.sum(axis)
    except AxisError:
        return 1
    return 0


@taipan.njit
def caught_as_value_error(a, axis):
    try:
        a.max(axis)
    except ValueError:
        return 2
    return 0


@taipan.njit
def caught_as_index_error(a, axis):
    try:
        a.mean(axis)
    except IndexError:
        return 3
    return 0


def test_caught_as_numpy_catches_it():
    a = np.ones((2, 2))
    before = live_blocks()
    assert caught_as(a, 2) == 1 and caught_as(a, 1) == 0
    assert caught_as_value_error(a, -3) == 2
    assert caught_as_index_error(a, 7) == 3
    assert live_blocks() == before


@taipan.njit
def sum_empty_axes(a):
    return a.sum(axis=())


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64, np.bool_])
def test_sum_over_no_axes_is_a_copy_in_numpys_order(dtype):
    base = (np.arange(24) % 3).astype(dtype).reshape(2, 3, 4)
    before = live_blocks()
    for a in (base, np.asfortranarray(base), base.T, base[:, ::2]):
        expected = a.sum(axis=())
        got = sum_empty_axes(a)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        if a.flags.c_contiguous or a.flags.f_contiguous:
            assert got.flags.f_contiguous == expected.flags.f_contiguous
            assert got.flags.c_contiguous == expected.flags.c_contiguous
        assert not np.shares_memory(got, a)
        del got
    assert live_blocks() == before
