"""Creating arrays in compiled code (np.empty, zeros, ones, full, *_like, arange, linspace, eye,
identity, copy, asarray, array) and the array methods copy, astype, reshape, ravel, flatten,
transpose and fill."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import ALL_DTYPES, assert_array_same, compare, layouts, sample

from taipan import njit

# ---------------------------------------------------------------------------------------------
# empty / zeros / ones / full


@njit
def zeros_int(n):
    return np.zeros(n)


@njit
def zeros_tuple(n, m):
    return np.zeros((n, m))


@njit
def zeros_3d():
    return np.zeros((2, 3, 4), np.int32)


@njit
def ones_int(n):
    return np.ones(n)


@njit
def ones_tuple(n, m):
    return np.ones((n, m))


@njit
def empty_shape(n, m):
    a = np.empty((n, m))
    return a.shape, a.itemsize


@njit
def creation_dtypes(n):
    return (
        np.zeros(n, np.int8),
        np.zeros(n, dtype=np.uint16),
        np.ones(n, np.float32),
        np.ones((n, 2), dtype=np.complex64),
        np.zeros(n, np.bool_),
        np.ones(n, dtype=np.int64),
        np.zeros((n,), np.uint64),
        np.ones(n, np.complex128),
    )


@njit
def creation_builtin_dtypes(n):
    return np.zeros(n, dtype=int), np.ones(n, float), np.zeros(n, bool), np.ones(n, complex)


@njit
def full_forms(n):
    return (
        np.full(n, 3.5),
        np.full((n, 2), 7),
        np.full(n, 2, np.float32),
        np.full(n, 1.5, dtype=np.int32),
        np.full(n, True),
        np.full((2, n), 1 + 2j),
    )


@njit
def empty_like_shape(a):
    b = np.empty_like(a)
    return b.shape, b.itemsize


@njit
def like_forms(a):
    return np.zeros_like(a), np.ones_like(a), np.full_like(a, 3)


@njit
def like_with_dtype(a):
    return (
        np.zeros_like(a, np.float32),
        np.ones_like(a, dtype=np.int8),
        np.full_like(a, 2, np.int16),
    )


@njit
def empty_like_dtype(a):
    return np.empty_like(a, dtype=np.uint8)


def test_zeros_ones():
    compare(zeros_int, 4)
    compare(zeros_int, 0)
    compare(zeros_tuple, 2, 3)
    compare(zeros_tuple, 0, 3)
    compare(ones_int, 5)
    compare(ones_tuple, 3, 1)
    compare(zeros_3d)


@njit
def empty_dtypes(n):
    return np.empty(n, np.int32), np.empty((n, 2), dtype=np.complex64), np.empty(n, dtype=bool)


def test_empty_shape():
    assert empty_shape(3, 4) == ((3, 4), 8)
    assert empty_shape(0, 0) == ((0, 0), 8)
    a, b, c = empty_dtypes(3)
    assert (a.shape, a.dtype) == ((3,), np.int32)
    assert (b.shape, b.dtype) == ((3, 2), np.complex64)
    assert (c.shape, c.dtype) == ((3,), np.bool_)
    for x in (a, b, c):
        x[...] = 1  # writable, owned memory
        assert x.all()


def test_creation_with_dtypes():
    compare(creation_dtypes, 3)


def test_creation_with_builtin_type_dtypes():
    compare(creation_builtin_dtypes, 2)


def test_full():
    compare(full_forms, 3)


def test_negative_dimension_is_value_error():
    with pytest.raises(ValueError):
        zeros_int(-1)
    with pytest.raises(ValueError):
        ones_tuple(2, -3)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_like_functions_each_dtype(dtype):
    a = sample(dtype, (3, 2))
    compare(like_forms, a)
    shape, itemsize = empty_like_shape(a)
    assert shape == (3, 2) and itemsize == a.itemsize


@pytest.mark.parametrize("name_index", range(5))
def test_like_functions_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    compare(like_forms, a)
    compare(like_with_dtype, a)
    assert empty_like_dtype(a).dtype == np.uint8


def test_like_0d_and_empty():
    compare(like_forms, np.array(2.5))
    compare(like_forms, np.zeros((0, 3), np.int32))


# ---------------------------------------------------------------------------------------------
# arange / linspace / eye / identity


@njit
def arange1(n):
    return np.arange(n)


@njit
def arange2(a, b):
    return np.arange(a, b)


@njit
def arange3(a, b, c):
    return np.arange(a, b, c)


@njit
def arange_dtype(n):
    return np.arange(n, dtype=np.float32)


@njit
def linspace3(a, b, n):
    return np.linspace(a, b, n)


@njit
def linspace2(a, b):
    return np.linspace(a, b)


@njit
def linspace_no_endpoint(a, b, n):
    return np.linspace(a, b, n, endpoint=False)


@njit
def eye1(n):
    return np.eye(n)


@njit
def eye2(n, m):
    return np.eye(n, m)


@njit
def eye3(n, m, k):
    return np.eye(n, m, k)


@njit
def eye_kw(n, k):
    return np.eye(n, k=k)


@njit
def eye_dtype(n):
    return np.eye(n, dtype=np.int32)


@njit
def identity(n):
    return np.identity(n)


@pytest.mark.parametrize("n", [0, 1, 5, -3])
def test_arange_one_arg(n):
    compare(arange1, n)


def test_arange_float_one_arg():
    compare(arange1, 3.5)


@pytest.mark.parametrize(("a", "b"), [(2, 7), (7, 2), (-3, 3), (1.5, 4), (0.5, 3.25), (-2, -2)])
def test_arange_two_args(a, b):
    compare(arange2, a, b)


@pytest.mark.parametrize(
    ("a", "b", "c"),
    [
        (0, 10, 3),
        (10, 0, -3),
        (10, 0, -1),
        (0, 1, 0.1),
        (1.0, 0.0, -0.25),
        (5, 5, 1),
        (0, -5, 1),
        (-10, 10, 7),
        (2, 3, 5),
    ],
)
def test_arange_three_args(a, b, c):
    compare(arange3, a, b, c)


def test_arange_zero_step_is_error():
    with pytest.raises(ValueError):
        arange3(0, 5, 0)


def test_arange_dtype_keyword():
    compare(arange_dtype, 4)


@pytest.mark.parametrize(
    ("a", "b", "n"), [(0, 1, 5), (1, 0, 4), (-2.5, 2.5, 11), (0, 1, 0), (3, 3, 3), (0, 10, 2)]
)
def test_linspace(a, b, n):
    compare(linspace3, a, b, n, rtol=1e-15)
    compare(linspace_no_endpoint, a, b, n, rtol=1e-15)


def test_linspace_one_point_without_endpoint():
    compare(linspace_no_endpoint, 2.0, 5.0, 1)


def test_linspace_one_point():
    compare(linspace3, 2.0, 5.0, 1)


def test_linspace_endpoint_exact_and_default_num():
    out = linspace3(0.0, 1.0, 7)
    assert out[0] == 0.0 and out[-1] == 1.0
    compare(linspace2, -1.0, 1.0, rtol=1e-15)
    assert linspace2(0, 1).shape == (50,)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_eye_and_identity(n):
    compare(eye1, n)
    compare(identity, n)
    compare(eye_dtype, n)


@pytest.mark.parametrize(
    ("n", "m", "k"), [(3, 5, 0), (5, 3, 0), (4, 4, 1), (4, 4, -2), (3, 5, 4), (3, 5, -3), (2, 6, 3)]
)
def test_eye_rectangular_and_offset(n, m, k):
    compare(eye2, n, m)
    compare(eye3, n, m, k)
    if n == m:
        compare(eye_kw, n, k)


# ---------------------------------------------------------------------------------------------
# np.copy / np.asarray / np.array


@njit
def np_copy(a):
    return np.copy(a)


@njit
def np_asarray(a):
    return np.asarray(a)


@njit
def array_literal_list():
    return np.array([1.0, 2.0, 3.5])


@njit
def array_literal_ints():
    return np.array([1, 2, 3])


@njit
def array_literal_tuple(x):
    return np.array((x, 2 * x, 3 * x))


@njit
def array_literal_mixed():
    return np.array([1, 2.5, True])


@njit
def array_literal_complex():
    return np.array([1, 2j])


@njit
def array_literal_dtype():
    return np.array([1, 2, 3], dtype=np.float32)


@njit
def array_literal_bools():
    return np.array([True, False])


@pytest.mark.parametrize("name_index", range(5))
def test_np_copy_each_layout(name_index):
    _, a = layouts(sample("complex128", (3, 4)))[name_index]
    out = np_copy(a)
    assert_array_same(out, a)
    assert not np.shares_memory(out, a)
    out[0, 0] = 0
    assert_array_same(a, layouts(sample("complex128", (3, 4)))[name_index][1])  # untouched


def test_np_copy_0d():
    assert_array_same(np_copy(np.array(5)), np.array(5))


def test_np_asarray_of_array_is_same_data():
    a = np.arange(4.0)
    out = np_asarray(a)
    assert_array_same(out, a)
    assert np.shares_memory(out, a)


def test_np_asarray_of_scalar():
    out = np_asarray(3.0)
    assert_array_same(out, np.asarray(3.0))


def test_np_asarray_of_tuple():
    compare(np_asarray, (1, 2, 3))
    compare(np_asarray, (1.5, 2.5))


@pytest.mark.parametrize(
    "f",
    [
        array_literal_list,
        array_literal_ints,
        array_literal_mixed,
        array_literal_complex,
        array_literal_bools,
        array_literal_dtype,
    ],
)
def test_np_array_of_literals(f):
    compare(f)


def test_np_array_of_tuple_of_values():
    compare(array_literal_tuple, 2)
    compare(array_literal_tuple, 0.5)


# ---------------------------------------------------------------------------------------------
# methods: copy, astype, reshape, ravel, flatten, transpose, fill


@njit
def method_copy(a):
    return a.copy()


@njit
def method_astype_f32(a):
    return a.astype(np.float32)


@njit
def method_astype_forms(a):
    return a.astype(np.int64), a.astype(np.uint8), a.astype(np.float64), a.astype(np.complex128)


@njit
def method_astype_bool(a):
    return a.astype(np.bool_)


@njit
def astype_of_dtype(a, b):
    return a.astype(b.dtype)


@njit
def reshape_tuple(a):
    return a.reshape((3, 4))


@njit
def reshape_varargs(a):
    return a.reshape(4, 3)


@njit
def reshape_minus_one(a):
    return a.reshape(-1, 2), a.reshape((2, -1)), a.reshape(-1)


@njit
def reshape_runtime(a, n, m):
    return a.reshape((n, m))


@njit
def reshape_varargs_runtime(a, n, m):
    return a.reshape(n, m)


@njit
def np_reshape(a):
    return np.reshape(a, (2, 6))


@njit
def ravel(a):
    return a.ravel()


@njit
def np_ravel(a):
    return np.ravel(a)


@njit
def flatten(a):
    return a.flatten()


@njit
def transpose(a):
    return a.transpose()


@njit
def np_transpose(a):
    return np.transpose(a)


@njit
def fill(a, v):
    a.fill(v)


@njit
def fill_returns_none(a):
    return a.fill(0)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copy_method_each_dtype(dtype):
    a = sample(dtype, (3, 4))
    out = method_copy(a)
    assert_array_same(out, a)
    assert not np.shares_memory(out, a)


@pytest.mark.parametrize("name_index", range(5))
def test_copy_method_each_layout(name_index):
    _, a = layouts(sample("int32", (3, 4)))[name_index]
    out = method_copy(a)
    assert_array_same(out, a)
    assert out.flags.c_contiguous
    assert not np.shares_memory(out, a)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint32", "float32", "float64"])
def test_astype(dtype):
    a = sample(dtype, (2, 3))
    compare(method_astype_f32, a)
    compare(method_astype_forms, np.abs(a) if dtype != "bool" else a)
    compare(method_astype_bool, a)


def test_astype_truncates_floats():
    compare(method_astype_forms, np.array([1.7, -0.5, 2.5, 255.9]))


def test_astype_complex_to_complex64():
    compare(astype_of_dtype, sample("complex128", (4,)), np.zeros(1, np.complex64))


def test_astype_noncontiguous_and_dtype_from_array():
    a = sample("float64", (4, 6))[::2, ::-3]
    compare(method_astype_f32, a)
    compare(astype_of_dtype, a, np.zeros(1, np.int16))


def test_astype_is_a_copy():
    a = np.arange(3.0)
    out = astype_of_dtype(a, a)
    out[0] = 5.0
    assert a[0] == 0.0


def test_reshape():
    a = np.arange(12.0)
    compare(reshape_tuple, a)
    compare(np_reshape, a)
    compare(reshape_runtime, a, 6, 2)
    compare(reshape_runtime, a, -1, 3)
    compare(reshape_tuple, np.arange(12).reshape(2, 6))
    compare(reshape_runtime, np.arange(12.0).reshape(3, 4).T, 2, 6)  # needs a copy
    compare(reshape_runtime, np.zeros(0), 0, 5)


def test_reshape_varargs():
    a = np.arange(12.0)
    compare(reshape_varargs, a)
    compare(reshape_varargs_runtime, a, 2, 6)
    compare(reshape_minus_one, a)


def test_reshape_of_contiguous_is_a_view():
    a = np.arange(12.0)
    out = reshape_tuple(a)
    out[1, 1] = -1.0
    assert a[5] == -1.0


def test_reshape_wrong_size_is_value_error():
    with pytest.raises(ValueError):
        reshape_runtime(np.arange(12.0), 5, 2)
    with pytest.raises(ValueError):
        reshape_runtime(np.arange(12.0), -1, 5)


@pytest.mark.parametrize("name_index", range(5))
def test_ravel_flatten_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    compare(ravel, a)
    compare(np_ravel, a)
    compare(flatten, a)
    out = flatten(a)
    out[0] = 1e9
    assert a[0, 0] != 1e9


def test_ravel_of_contiguous_is_view():
    a = np.arange(6.0).reshape(2, 3)
    out = ravel(a)
    out[4] = -1
    assert a[1, 1] == -1


@pytest.mark.parametrize("name_index", range(5))
def test_transpose_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    compare(transpose, a)
    compare(np_transpose, a)
    t = transpose(a)
    t[3, 2] = 42.0
    assert a[2, 3] == 42.0


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_fill(dtype):
    a = sample(dtype, (3, 4))
    v = sample(dtype, (1,), seed=3)[0]
    compare(fill, a, v)


@pytest.mark.parametrize("name_index", range(5))
def test_fill_each_layout(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    compare(fill, a, 2.5)
    assert fill_returns_none(a) is None
    assert not a.any()


def test_fill_converts():
    a = np.zeros(3, np.int32)
    fill(a, 7.9)
    assert_array_same(a, np.full(3, 7, np.int32))
