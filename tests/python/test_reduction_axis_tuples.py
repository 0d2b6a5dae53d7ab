"""Reductions over a tuple of axes (issue 31): np.sum/np.prod/np.min/np.max/np.amin/np.amax/
np.mean and the array methods with `axis=(i, j, ...)`, negative axes, every permutation,
`axis=()` (a copy in the result's dtype), NumPy's errors for an axis out of range and for an
axis given twice; across dtypes and layouts (C, F, strided views) and empty arrays, compared
with NumPy, the runtime's blocks counted."""

from itertools import chain, permutations

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import live_blocks


def sum_axes(a, axes):
    return np.sum(a, axis=axes)


def prod_axes(a, axes):
    return a.prod(axis=axes)


def min_axes(a, axes):
    return np.min(a, axis=axes)


def amax_axes(a, axes):
    return np.amax(a, axis=axes)


def max_method(a, axes):
    return a.max(axis=axes)


def mean_axes(a, axes):
    return np.mean(a, axis=axes)


def sum_dtype(a, axes):
    return a.sum(axis=axes, dtype=np.float32)


def sum_literal(a):
    return a.sum(axis=(0, -1)), np.mean(a, axis=(1,)), np.min(a, axis=(2, 0))


REDUCTIONS = [sum_axes, prod_axes, min_axes, amax_axes, max_method, mean_axes, sum_dtype]


def layouts(shape, dtype):
    base = ((np.arange(int(np.prod(shape))) % 11) - 3).astype(dtype).reshape(shape)
    wide = np.zeros(tuple(2 * n for n in shape), dtype=dtype)
    view = wide[tuple(slice(None, None, 2) for _ in shape)]
    view[...] = base
    return {"C": base, "F": np.asfortranarray(base), "strided": view}


_compiled = {}


def compiled(function):
    """One dispatcher per function, so that each tuple length and array type compiles once."""
    if function not in _compiled:
        _compiled[function] = njit(function)
    return _compiled[function]


def check(function, a, axes):
    before = live_blocks()
    expected = function(a, axes)
    got = compiled(function)(a, axes)
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_allclose(got, expected, rtol=1e-6)
    else:  # a scalar, boxed as a Python number (as Numba boxes one)
        assert not isinstance(got, np.ndarray)
        assert np.asarray(got).dtype.kind == np.asarray(expected).dtype.kind or (
            np.asarray(expected).dtype.kind in "iu" and isinstance(got, int)
        )
        np.testing.assert_allclose(got, expected, rtol=1e-6)
    del got
    assert live_blocks() == before


ALL_AXES = list(chain.from_iterable(permutations([-2, -1, 0, 1, 2], r) for r in range(4)))


@pytest.mark.parametrize("function", REDUCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_axis_tuples(function, dtype, layout):
    a = layouts((3, 4, 5), dtype)[layout]
    for axes in ALL_AXES:
        if len(set(np.array(axes) % 3)) == len(axes):
            check(function, a, axes)


@pytest.mark.parametrize("function", [sum_axes, mean_axes, max_method], ids=lambda f: f.__name__)
def test_bool_and_complex(function):
    if function is not max_method:
        check(function, layouts((3, 4, 5), np.complex128)["F"], (0, 2))
    check(function, layouts((3, 4, 5), np.bool_)["C"], (2, 1))


def test_literal_axes():
    a = layouts((3, 4, 5), np.float64)["strided"]
    expected = sum_literal(a)
    got = njit(sum_literal)(a)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e)


def test_empty():
    a = np.zeros((3, 0, 4))
    check(sum_axes, a, (0, 1))
    check(prod_axes, a, (1,))
    check(sum_axes, a, (0, 2))
    check(mean_axes, np.zeros((3, 2, 4)), ())
    with pytest.raises(ValueError, match="zero-size array"):
        njit(min_axes)(a, (0, 1))


def test_errors():
    a = np.ones((2, 3, 4))
    for axes in [(3,), (0, -4), (1, 1), (0, -3), (0, 1, 2, 0)]:
        with pytest.raises(ValueError) as expected:
            sum_axes(a, axes)
        with pytest.raises(ValueError) as got:
            compiled(sum_axes)(a, axes)
        if "duplicate" in str(expected.value):
            assert "duplicate value in 'axis'" in str(got.value)
        else:
            assert "out of bounds" in str(got.value)


def test_refused_forms_name_the_line():
    from taipan.errors import TypingError

    def argmin_axes(a):
        return np.argmin(a, axis=(0, 1))

    with pytest.raises(TypingError, match="argmin_axes|axis"):
        njit(argmin_axes)(np.ones((2, 3)))
