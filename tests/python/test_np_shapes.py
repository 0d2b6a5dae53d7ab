"""NumPy's joining, repeating and rearranging functions and its matrix and difference functions
(taipan.numpy_library.shapes and shapes_products) compared with NumPy itself: dtypes, shapes,
values, non-contiguous inputs, keyword arguments, errors, and the allocation counters."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import assert_array_same
from numpy_checks import no_allocation_leak, numpy_quietly

from taipan import njit
from taipan.errors import TypingError

DTYPES = [np.int32, np.int64, np.float32, np.float64, np.complex128, np.bool_]
NUMERIC = [np.int32, np.int64, np.float32, np.float64, np.complex128]


def sample(shape, dtype, seed=0):
    """Values of ``dtype`` with ``shape``: varied, negative too, booleans mixed."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-9, 10, size=shape)
    if dtype is np.bool_:
        return values > 0
    if dtype is np.complex128:
        return (values + 1j * rng.integers(-9, 10, size=shape)).astype(dtype)
    return values.astype(dtype)


def check(compiled, *args):
    """The compiled function gives NumPy's result (an array or a tuple of arrays), and every
    block it allocated is freed once the result is dropped."""
    expected = numpy_quietly(compiled.py_func, *args)
    actual = compiled(*args)
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_array_same(a, e)
    else:
        assert_array_same(actual, expected)
    del actual
    assert_no_leak(compiled, *args)


def assert_no_leak(compiled, *args):
    with no_allocation_leak():
        compiled(*args)


def check_error(compiled, exception, *args):
    """Raises NumPy's exception class with NumPy's message."""
    with pytest.raises(exception) as expected:
        numpy_quietly(compiled.py_func, *args)
    with pytest.raises(exception) as actual:
        compiled(*args)
    assert str(actual.value) == str(expected.value)


def non_contiguous(shape, dtype):
    """Three views of a sample: every other row, transposed, and reversed along axis 1."""
    base = sample((shape[0] * 2,) + shape[1:], dtype)
    return [base[::2], sample(shape[::-1], dtype).T, sample(shape, dtype)[:, ::-1]]


# ---------------------------------------------------------------------------------------------
# concatenate, stack, vstack, hstack, column_stack


@njit
def concatenate_default(a, b):
    return np.concatenate((a, b))


@njit
def concatenate_axis(a, b, c, axis):
    return np.concatenate((a, b, c), axis=axis)


@njit
def concatenate_flat(a, b):
    return np.concatenate((a, b), axis=None)


@pytest.mark.parametrize("dtype", DTYPES)
def test_concatenate_dtypes(dtype):
    check(concatenate_default, sample((2, 3), dtype), sample((4, 3), dtype, 1))
    check(concatenate_flat, sample((2, 3), dtype), sample(5, dtype, 1))


@pytest.mark.parametrize(
    "first,second",
    [
        (np.int32, np.float32),
        (np.int64, np.bool_),
        (np.int8, np.uint8),
        (np.int64, np.uint64),
        (np.float32, np.complex128),
    ],
)
def test_concatenate_promotes_like_numpy(first, second):
    check(concatenate_default, sample(3, first), sample(2, second))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_concatenate_axes_3d(axis):
    shapes = [[2, 3, 4], [2, 3, 4], [2, 3, 4]]
    for index, shape in enumerate(shapes):
        shape[axis] = index + 1
    a, b, c = (sample(tuple(s), np.float64, i) for i, s in enumerate(shapes))
    check(concatenate_axis, a, b[..., ::-1], c, axis)


def test_concatenate_non_contiguous_and_empty():
    for view in non_contiguous((2, 3), np.int64):
        check(concatenate_axis, view, view, np.zeros((0, 3), np.int64), 0)
    check(concatenate_default, np.zeros(0), np.zeros(0, np.int32))
    check(concatenate_flat, np.array(1), np.array(2.5))  # 0-d arrays flatten


def test_concatenate_errors():
    a, b = sample((2, 3), np.float64), sample((3, 2), np.float64)
    check_error(concatenate_default, ValueError, np.array(1), np.array(2))
    check_error(concatenate_default, ValueError, np.arange(3), b)
    check_error(concatenate_axis, np.exceptions.AxisError, a, a, a, 2)
    check_error(concatenate_axis, np.exceptions.AxisError, a, a, a, -3)
    # The message names the dimension and arrays but not the run-time sizes.
    with pytest.raises(ValueError, match="along dimension 1, the array at index 0 and the array"):
        concatenate_default(a, b)


@njit
def concatenate_empty_tuple():
    return np.concatenate(())


def test_concatenate_of_nothing():
    with pytest.raises(ValueError, match="need at least one array to concatenate"):
        concatenate_empty_tuple()


@njit
def concatenate_list(a, b):
    return np.concatenate([a, b])


def test_concatenate_list_is_refused_at_the_users_line():
    # Numba's np.concatenate takes a tuple of arrays only; a list is a TypingError at the line.
    with pytest.raises(Exception, match="No implementation of numpy.concatenate") as error:
        concatenate_list(np.arange(2), np.arange(2))
    assert "np.concatenate([a, b])" in str(error.value)


@njit
def concatenate_scalars(a):
    return np.concatenate((a, 1.0))


def test_concatenate_of_a_scalar_names_the_users_line():
    with pytest.raises(TypingError, match="No implementation of numpy.concatenate") as error:
        concatenate_scalars(np.arange(2.0))
    assert "return np.concatenate((a, 1.0))" in str(error.value)


@njit
def stack_axis(a, b, axis):
    return np.stack((a, b), axis=axis)


@njit
def stack_default(a, b):
    return np.stack((a, b))


@pytest.mark.parametrize("dtype", DTYPES)
def test_stack_dtypes(dtype):
    check(stack_default, sample((2, 3), dtype), sample((2, 3), dtype, 1))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack_axes(axis):
    a = sample((2, 3), np.int32)
    check(stack_axis, a, a.T.T[::1, ::-1].astype(np.float32), axis)
    check(stack_axis, np.array(1), np.array(2.5), axis % 1)  # 0-d arrays make a 1-d result
    check(stack_axis, np.zeros((0, 2)), np.zeros((0, 2)), axis)


def test_stack_errors():
    a = sample((2, 3), np.int64)
    check_error(stack_axis, ValueError, a, a.T, 0)
    check_error(stack_axis, ValueError, a, np.arange(3), 0)
    check_error(stack_axis, np.exceptions.AxisError, a, a, 3)


@njit
def vstack(a, b):
    return np.vstack((a, b))


@njit
def hstack(a, b):
    return np.hstack((a, b))


@njit
def column_stack(a, b):
    return np.column_stack((a, b))


@njit
def hstack_tup(tup):
    return np.hstack(tup=tup)


@pytest.mark.parametrize("function", [vstack, hstack, column_stack])
@pytest.mark.parametrize(
    "shape_a,shape_b", [((), ()), ((3,), (3,)), ((2, 3), (2, 3)), ((2, 3, 2), (2, 3, 2))]
)
def test_stacking_functions(function, shape_a, shape_b):
    check(function, sample(shape_a, np.int32), sample(shape_b, np.float64, 1))


@pytest.mark.parametrize("function", [vstack, hstack, column_stack])
def test_stacking_functions_non_contiguous(function):
    for view in non_contiguous((3, 3), np.complex128):
        check(function, view, view[::-1])
    check(function, np.zeros(0, bool), np.zeros(0, bool))


def test_stacking_keyword_and_mixed_dimensions():
    check(hstack_tup, (np.arange(2), np.arange(3.0)))
    check(vstack, np.arange(3), sample((2, 3), np.int64))
    check_error(hstack, ValueError, np.arange(3), sample((2, 3), np.int64))


# ---------------------------------------------------------------------------------------------
# tile and repeat


@njit
def tile(a, reps):
    return np.tile(a, reps)


@njit
def tile_keywords(a, reps):
    return np.tile(A=a, reps=reps)


@pytest.mark.parametrize("dtype", DTYPES)
def test_tile_dtypes(dtype):
    check(tile, sample((2, 3), dtype), (2, 2))


@pytest.mark.parametrize("reps", [0, 1, 3, (2,), (2, 3), (1, 2, 3), (2, 0, 1), ()])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_tile_reps(shape, reps):
    check(tile, sample(shape, np.int64), reps)


def test_tile_views_empty_and_errors():
    for view in non_contiguous((2, 3), np.float32):
        check(tile_keywords, view, (2, 1, 2))
    check(tile, np.zeros((0, 3)), (2, 2))
    check_error(tile, ValueError, np.arange(3), -1)
    check_error(tile, ValueError, np.arange(3), (2, -1))


@njit
def repeat(a, repeats):
    return np.repeat(a, repeats)


@njit
def repeat_axis(a, repeats, axis):
    return np.repeat(a, repeats=repeats, axis=axis)


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_dtypes(dtype):
    check(repeat, sample((2, 3), dtype), 2)
    check(repeat_axis, sample((2, 3), dtype), np.array([0, 2, 1]), 1)


@pytest.mark.parametrize("repeats", [0, 1, 3, np.array([2]), np.array(2), np.array([1, 0, 3])])
def test_repeat_counts(repeats):
    check(repeat, sample(3, np.float64), repeats)
    check(repeat, np.array(4.5), 3)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_repeat_axes(axis):
    a = sample((2, 3, 4), np.int32)
    check(repeat_axis, a, 2, axis)
    check(repeat_axis, a[:, ::-1], np.arange(a.shape[axis]), axis)


def test_repeat_views_empty_and_errors():
    for view in non_contiguous((2, 3), np.complex128):
        check(repeat, view, 2)
    check(repeat_axis, np.zeros((0, 3)), 3, 0)
    check(repeat, np.zeros(3), np.array([True, False, True]))
    check_error(repeat, ValueError, np.arange(3), -1)
    check_error(repeat, ValueError, np.arange(3), np.array([1, -1, 2]))
    check_error(repeat_axis, np.exceptions.AxisError, np.arange(3), 2, 1)
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        repeat(np.arange(3), np.array([1, 2]))


# ---------------------------------------------------------------------------------------------
# flip and roll


@njit
def flip(m):
    return np.flip(m)


@njit
def flip_axis(m, axis):
    return np.flip(m, axis=axis)


@pytest.mark.parametrize("dtype", DTYPES)
def test_flip_dtypes(dtype):
    check(flip, sample((2, 3), dtype))
    check(flip_axis, sample((2, 3, 2), dtype), 1)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, (0, 2), (1,), (), (-1, 0, 1)])
def test_flip_axes(axis):
    check(flip_axis, sample((2, 3, 4), np.int64), axis)


def test_flip_views_0d_and_errors():
    for view in non_contiguous((3, 4), np.float64):
        check(flip, view)
        check(flip_axis, view, 1)
    assert flip(np.array(2.5)) == np.flip(np.array(2.5))
    check(flip, np.zeros((0, 2)))
    check_error(flip_axis, np.exceptions.AxisError, np.arange(3), 1)
    check_error(flip_axis, ValueError, sample((2, 2), np.int32), (0, -2))


def test_flip_returns_a_view():
    a = np.arange(6.0).reshape(2, 3)
    b = flip_axis(a, 1)
    assert np.shares_memory(a, b)


@njit
def roll(a, shift):
    return np.roll(a, shift)


@njit
def roll_axis(a, shift, axis):
    return np.roll(a, shift=shift, axis=axis)


@pytest.mark.parametrize("dtype", DTYPES)
def test_roll_dtypes(dtype):
    check(roll, sample((2, 3), dtype), 2)
    check(roll_axis, sample((2, 3), dtype), -1, 1)


@pytest.mark.parametrize("shift", [0, 1, -1, 5, -13, 100])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_roll_shifts(shift, axis):
    a = sample((3, 4), np.int32)
    check(roll, a, shift)
    check(roll_axis, a.T, shift, axis)


def test_roll_tuples_views_empty_and_errors():
    a = sample((2, 3, 4), np.float64)
    check(roll_axis, a, (1, -2), (0, 2))
    check(roll_axis, a, (1, 2), 1)
    check(roll_axis, a, 3, (0, 1, 2))
    for view in non_contiguous((3, 4), np.complex128):
        check(roll_axis, view, 1, 0)
    check(roll, np.array(3.0), 2)
    check(roll_axis, np.zeros((0, 3)), 2, 0)
    check(roll, np.zeros(0), 2)
    check_error(roll_axis, ValueError, a, (1, 2), (0, 1, 2))
    check_error(roll_axis, np.exceptions.AxisError, a, 1, 3)


# ---------------------------------------------------------------------------------------------
# meshgrid


@njit
def meshgrid_xy(x, y):
    return np.meshgrid(x, y)


@njit
def meshgrid_ij(x, y, z):
    return np.meshgrid(x, y, z, indexing="ij")


@njit
def meshgrid_sparse(x, y, z, w):
    return np.meshgrid(x, y, z, w, sparse=True, indexing="xy")


@njit
def meshgrid_one(x):
    return np.meshgrid(x, copy=True)


@njit
def meshgrid_no_copy(x, y):
    return np.meshgrid(x, y, copy=False)


@njit
def meshgrid_bad_indexing(x):
    return np.meshgrid(x, indexing="yx")


@pytest.mark.parametrize("dtype", DTYPES)
def test_meshgrid_dtypes(dtype):
    check(meshgrid_xy, sample(3, dtype), sample(4, np.float64))
    check(meshgrid_one, sample(3, dtype))


def test_meshgrid_indexing_sparse_and_views():
    x, y, z = sample(3, np.int32), sample((2, 2), np.float32), sample(4, np.int64)[::2]
    check(meshgrid_ij, x, y, z)
    check(meshgrid_sparse, x, y, z, np.arange(5.0)[::-1])
    check(meshgrid_xy, np.zeros(0), np.array(2.0))  # empty and 0-d inputs
    check_error(meshgrid_bad_indexing, ValueError, x)


def test_meshgrid_without_copy_is_refused():
    with pytest.raises(NotImplementedError, match="copy=False"):
        meshgrid_no_copy(np.arange(2), np.arange(3))


# ---------------------------------------------------------------------------------------------
# triu, tril, vander, outer, kron, trace


@njit
def tril(m, k):
    return np.tril(m, k=k)


@njit
def triu(m, k):
    return np.triu(m, k)


@njit
def tril_default(m):
    return np.tril(m)


@pytest.mark.parametrize("dtype", DTYPES)
def test_triangles_dtypes(dtype):
    check(tril, sample((3, 4), dtype), 0)
    check(triu, sample((4, 3), dtype), 0)


@pytest.mark.parametrize("k", [0, 1, -1, 2, -4, 9])
@pytest.mark.parametrize("function", [tril, triu])
def test_triangles_diagonals_and_shapes(function, k):
    check(function, sample(4, np.int64), k)  # 1-d: the row repeated
    check(function, sample((3, 5), np.float64).T, k)
    check(function, sample((2, 3, 4), np.int32)[:, ::-1], k)
    check(function, np.zeros((0, 3)), k)
    check(tril_default, sample((3, 3), np.float32)[::2])


@njit
def vander(x):
    return np.vander(x)


@njit
def vander_keywords(x, n, increasing):
    return np.vander(x, N=n, increasing=increasing)


@pytest.mark.parametrize("dtype", DTYPES + [np.uint8, np.float16])
def test_vander_dtypes(dtype):
    check(vander, sample(4, dtype))
    check(vander_keywords, sample(3, dtype), 5, True)


def test_vander_arguments_and_errors():
    check(vander_keywords, np.array([0.5, np.nan, np.inf, -2.0]), 4, False)
    check(vander_keywords, np.arange(3.0)[::-1], 0, True)
    check(vander, np.arange(30))  # int64 overflow wraps as in NumPy
    check(vander, np.zeros(0, np.int32))
    check_error(vander, ValueError, sample((2, 2), np.float64))
    check_error(vander_keywords, ValueError, np.arange(3.0), -1, False)


@njit
def outer(a, b):
    return np.outer(a, b)


@njit
def outer_into(a, b, out):
    return np.outer(a, b, out=out)


@pytest.mark.parametrize("first", DTYPES)
@pytest.mark.parametrize("second", [np.int32, np.float64, np.bool_])
def test_outer_dtypes(first, second):
    check(outer, sample(3, first), sample(4, second))


def test_outer_shapes_and_out():
    check(outer, sample((2, 3), np.int64), sample((2, 2), np.float32).T)
    check(outer, np.array(2.0), np.zeros(0))
    check(outer, np.array([np.inf, np.nan]), np.array([0.0, 1.0]))
    out = np.zeros((3, 2))
    result = outer_into(np.arange(3.0), np.arange(2.0), out)
    assert result is out
    assert_array_same(out, np.outer(np.arange(3.0), np.arange(2.0)))


@njit
def kron(a, b):
    return np.kron(a, b)


@pytest.mark.parametrize("dtype", DTYPES)
def test_kron_dtypes(dtype):
    check(kron, sample((2, 2), dtype), sample((2, 3), np.int32))


@pytest.mark.parametrize(
    "shape_a,shape_b",
    [
        ((3,), (2,)),
        ((2, 3), (4,)),
        ((3,), (2, 2)),
        ((2, 2, 2), (3, 1)),
        ((), (2, 3)),
        ((0, 2), (2,)),
    ],
)
def test_kron_shapes(shape_a, shape_b):
    check(kron, sample(shape_a, np.int64), sample(shape_b, np.float64, 1))


def test_kron_views():
    for view in non_contiguous((2, 3), np.complex128):
        check(kron, view, view[::-1])


@njit
def trace(a):
    return np.trace(a)


@njit
def trace_offset(a, offset):
    return np.trace(a, offset=offset)


@pytest.mark.parametrize("dtype", DTYPES + [np.int8, np.uint16])
def test_trace_dtypes(dtype):
    a = sample((4, 4), dtype)
    result = trace(a)
    expected = np.trace(a)
    assert type(result) is type(expected.item())
    assert result == expected
    assert np.asarray(trace_offset(a, 1)).astype(expected.dtype) == np.trace(a, offset=1)


@pytest.mark.parametrize("offset", [0, 1, -1, 3, -3, 7, -7])
def test_trace_offsets(offset):
    a = sample((3, 5), np.int64)
    assert trace_offset(a, offset) == np.trace(a, offset=offset)
    assert trace_offset(a.T, offset) == np.trace(a.T, offset=offset)
    assert trace_offset(a[:, ::-2], offset) == np.trace(a[:, ::-2], offset=offset)


def test_trace_floats_errors_and_no_allocation():
    a = np.random.default_rng(1).random((40, 40)).astype(np.float32)
    assert np.isclose(trace(a), np.trace(a), rtol=1e-6)
    assert np.isnan(trace(np.array([[np.nan, 1.0], [2.0, 3.0]])))
    assert trace(np.zeros((0, 3))) == 0
    check_error(trace, ValueError, np.arange(3))
    assert_no_leak(trace, a)


@njit
def trace_3d(a):
    return np.trace(a)


def test_trace_3d_is_refused_at_the_users_line():
    with pytest.raises(TypingError, match="2-D arrays only") as error:
        trace_3d(np.zeros((2, 2, 2)))
    assert "return np.trace(a)" in str(error.value)


# ---------------------------------------------------------------------------------------------
# cross


@njit
def cross(a, b):
    return np.cross(a, b)


@pytest.mark.parametrize("dtype", NUMERIC + [np.int8, np.uint8])
def test_cross_dtypes(dtype):
    check(cross, sample(3, dtype), sample(3, dtype, 1))
    check(cross, sample(3, dtype), sample(3, np.float64, 1))


@pytest.mark.parametrize(
    "shape_a,shape_b",
    [((3,), (3,)), ((2,), (3,)), ((3,), (2,)), ((4, 3), (3,)), ((2, 4, 3), (4, 2)), ((0, 3), (3,))],
)
def test_cross_shapes(shape_a, shape_b):
    from taipan.numpy_library import shapes_products

    a, b = sample(shape_a, np.float64), sample(shape_b, np.int64, 1)
    if 2 in (shape_a[-1], shape_b[-1]) and not shapes_products._CROSS_TAKES_TWO:
        check_error(cross, ValueError, a, b)  # NumPy 2.5 refuses 2-element vectors
    else:
        check(cross, a, b)


def test_cross_zeros_nan_views_and_errors():
    check(cross, np.zeros(3), np.array([1.0, -2.0, 3.0]))  # the signs of zeros
    check(cross, np.array([np.nan, 1.0, np.inf]), np.array([1.0, 2.0, 3.0]))
    for view in non_contiguous((3, 3), np.float64):
        check(cross, view, view[::-1])
    check_error(cross, ValueError, np.arange(4), np.arange(3))
    from taipan.numpy_library import shapes_products

    if shapes_products._CROSS_TAKES_TWO:
        with pytest.raises(ValueError, match="two 2-element vectors"):
            cross(np.arange(2), np.arange(2))
    else:
        check_error(cross, ValueError, np.arange(2), np.arange(2))


@njit
def cross_booleans(a, b):
    return np.cross(a, b)


def test_cross_of_booleans_is_refused_with_numpys_message():
    # NumPy raises TypeError when running; taipan knows when compiling (a TypingError).
    with pytest.raises(TypingError, match="numpy boolean subtract") as error:
        cross_booleans(np.ones(3, bool), np.ones(3, bool))
    assert "return np.cross(a, b)" in str(error.value)


# ---------------------------------------------------------------------------------------------
# diff and ediff1d


@njit
def diff(a):
    return np.diff(a)


@njit
def diff_keywords(a, n, axis):
    return np.diff(a, n=n, axis=axis)


@pytest.mark.parametrize("dtype", DTYPES + [np.uint8, np.int8])
def test_diff_dtypes(dtype):
    check(diff, sample((3, 5), dtype))
    check(diff_keywords, sample(6, dtype), 2, 0)


@pytest.mark.parametrize("n", [0, 1, 2, 4, 9])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
def test_diff_orders_and_axes(n, axis):
    check(diff_keywords, sample((3, 4, 5), np.int64), n, axis)
    check(diff_keywords, sample((3, 4, 5), np.float64)[::-1, :, ::2], n, axis)


def test_diff_nan_views_empty_and_errors():
    check(diff, np.array([1.0, np.nan, np.inf, np.inf, -np.inf]))
    for view in non_contiguous((3, 4), np.complex128):
        check(diff_keywords, view, 1, 0)
        check(diff_keywords, view, 0, 0)
    check(diff, np.zeros(0))
    a = np.arange(4.0)
    assert diff_keywords(a, 0, 0) is a  # n=0 gives back the C-contiguous input
    check_error(diff, ValueError, np.array(1.0))
    check_error(diff_keywords, ValueError, a, -1, 0)
    check_error(diff_keywords, np.exceptions.AxisError, a, 1, 1)


@njit
def ediff1d(a):
    return np.ediff1d(a)


@njit
def ediff1d_both(a, to_end, to_begin):
    return np.ediff1d(a, to_end=to_end, to_begin=to_begin)


@njit
def ediff1d_begin(a, to_begin):
    return np.ediff1d(a, to_begin=to_begin)


@pytest.mark.parametrize("dtype", NUMERIC + [np.uint8])
def test_ediff1d_dtypes(dtype):
    check(ediff1d, sample((3, 4), dtype))
    check(ediff1d_both, sample(5, dtype), sample(2, dtype), sample(1, dtype, 1))
    if dtype is not np.uint8:  # a Python int is int64, not castable to uint8 (same_kind)
        check(ediff1d_begin, sample(5, dtype), 7)


def test_ediff1d_ends_views_empty_and_errors():
    a = np.array([1.0, np.nan, np.inf, 2.0])
    check(ediff1d_both, a, np.array([[1, 2]]), np.array(3.5, np.float32))
    check(ediff1d_begin, sample((2, 3), np.int32).T, np.zeros(0, np.int64))
    check(ediff1d, np.zeros(0, np.int32))
    check(ediff1d, np.array(5))
    check_error(ediff1d_begin, TypeError, np.arange(3), 1.5)
    check_error(ediff1d_begin, TypeError, np.arange(3, dtype=np.uint8), 7)
    with pytest.raises(TypingError, match="numpy boolean subtract") as error:
        ediff1d(np.ones(3, bool))
    assert "return np.ediff1d(a)" in str(error.value)


def test_cross_length_rules_follow_the_installed_numpy(monkeypatch):
    """NumPy 2.5 refuses 2-element vectors and names both lengths; taipan asks the installed
    NumPy which rules hold, so the 2.5 rules are tested here whatever NumPy runs the tests."""
    from taipan.numpy_library import shapes_products

    message = (
        "Both input arrays must be (arrays of) 3-dimensional vectors, but they are {} and {} "
        "dimensional instead."
    )
    monkeypatch.setattr(shapes_products, "_CROSS_TAKES_TWO", False)
    monkeypatch.setattr(shapes_products, "_CROSS_LENGTH_MESSAGE", message)
    check_lengths = shapes_products._cross_length_check()
    check_lengths(3, 3)
    for na, nb in [(2, 3), (3, 2), (4, 3), (2, 2)]:
        with pytest.raises(ValueError) as error:
            check_lengths(na, nb)
        assert str(error.value) == message.format(na, nb)
    with pytest.raises(ValueError, match=r"^Both input arrays must be \(arrays of\) 3-dim"):
        check_lengths(40, 3)
