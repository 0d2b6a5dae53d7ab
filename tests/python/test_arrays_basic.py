"""Arrays as arguments: no copies, read-only arrays, unsupported dtypes, attributes, len,
iteration, and eager signatures with array types."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import (
    ALL_DTYPES,
    COMPLEX_DTYPES,
    NUMERIC_DTYPES,
    assert_array_same,
    compare,
    layouts,
    layouts_1d,
    run_script,
    sample,
)

import taipan
from taipan import njit
from taipan.errors import TypingError

# ---------------------------------------------------------------------------------------------
# passing arrays in: no copy, writes are visible to the caller


@njit
def set_item(a, i, v):
    a[i] = v


@njit
def set_item_2d(a, i, j, v):
    a[i, j] = v


@njit
def first(a):
    return a[0]


@njit
def total_loop(a):
    s = a[0] - a[0]
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def total_loop_2d(a):
    s = a[0, 0] - a[0, 0]
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_write_is_visible_to_caller(dtype):
    a = sample(dtype, (5,))
    value = a[1]
    expected = a.copy()
    expected[3] = value
    set_item(a, 3, value)
    assert_array_same(a, expected)


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES)
def test_read_sum_each_dtype(dtype):
    a = sample(dtype, (7,))
    if a.dtype.kind in "iu":
        # compiled integer arithmetic widens to 64 bits (as in Numba): no int8 wraparound
        assert total_loop(a) == sum(int(x) for x in a)
    else:
        compare(total_loop, a, rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12)


@pytest.mark.parametrize("name_index", range(5))
def test_write_2d_each_layout(name_index):
    name, a = layouts(sample("float64", (3, 4)))[name_index]
    expected = a.copy()
    expected[2, 1] = 99.0
    set_item_2d(a, 2, 1, 99.0)
    assert_array_same(a, expected)
    assert a[2, 1] == 99.0, name


@pytest.mark.parametrize("name_index", range(5))
def test_read_2d_each_layout(name_index):
    name, a = layouts(sample("int64", (3, 4)))[name_index]
    assert total_loop_2d(a) == a.sum(), name


@pytest.mark.parametrize("name_index", range(3))
def test_write_1d_each_layout(name_index):
    _, a = layouts_1d(sample("int32", (6,)))[name_index]
    base = a.base
    expected = a.copy()
    expected[0] = 7
    expected[-1] = 8
    set_item(a, 0, 7)
    set_item(a, -1, 8)
    assert_array_same(a, expected)
    if base is not None:
        assert np.shares_memory(a, base)


def test_write_into_view_changes_parent():
    parent = np.zeros((4, 6))
    view = parent[1:, ::2]
    set_item_2d(view, 0, 1, 5.0)
    assert parent[1, 2] == 5.0
    assert parent.sum() == 5.0


def test_empty_array_argument():
    assert len_of(np.zeros(0)) == 0
    assert len_of(np.zeros((0, 3))) == 0
    assert iterate_sum(np.zeros(0, np.int64)) == 0


# ---------------------------------------------------------------------------------------------
# read-only arrays


@njit
def read_only_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def test_read_only_array_can_be_read():
    a = np.arange(5.0)
    a.setflags(write=False)
    assert read_only_sum(a) == 10.0
    assert first(a) == 0.0


def test_read_only_array_item_assignment_is_typing_error():
    a = np.arange(5.0)
    a.setflags(write=False)
    with pytest.raises(TypingError, match="read-only"):
        set_item(a, 0, 1.0)
    assert a[0] == 0.0


@njit
def set_slice_of(a):
    a[1:] = 0


@njit
def aug_assign_whole(a):
    a += 1


@njit
def write_through_view(a):
    v = a[1:]
    v[0] = 5


@njit
def write_through_transpose(a):
    a.T[0] = 5


@njit
def fill_zero(a):
    a.fill(0)


@pytest.mark.parametrize(
    "f", [set_slice_of, aug_assign_whole, write_through_view, write_through_transpose]
)
def test_read_only_array_writes_are_typing_errors(f):
    a = np.arange(1.0, 4.0)
    a.setflags(write=False)
    with pytest.raises(TypingError):
        f(a)
    assert_array_same(a, np.arange(1.0, 4.0))


def test_read_only_array_fill_is_typing_error():
    a = np.arange(1.0, 4.0)
    a.setflags(write=False)
    try:
        with pytest.raises(TypingError):
            fill_zero(a)
    finally:
        assert_array_same(a, np.arange(1.0, 4.0))


def test_read_only_typeof():
    a = np.arange(5.0)
    a.setflags(write=False)
    assert "readonly" in str(taipan.typeof(a))


@njit
def sum_and_item_4d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                for m in range(a.shape[3]):
                    s += a[i, j, k, m]
    return s, a[1, 2, 0, 1], a.shape, a.strides


def test_4d_strided_array():
    a = np.arange(2 * 3 * 4 * 5.0).reshape(2, 3, 4, 5)[:, ::-1, ::2]
    assert sum_and_item_4d(a) == sum_and_item_4d.py_func(a)


def test_zero_strided_broadcast_view():
    a = np.broadcast_to(np.arange(3.0), (4, 3))  # read-only, strides (0, 8)
    assert total_loop_2d(a) == a.sum()
    assert attributes(a) == attributes.py_func(a)


# ---------------------------------------------------------------------------------------------
# unsupported dtypes


@pytest.mark.parametrize(
    ("array", "mentions"),
    [
        (np.zeros(3, dtype="M8[5s]"), "datetime64"),  # multiples of a unit: not held
        (np.zeros(3, dtype="m8[10ms]"), "timedelta64"),
        (np.zeros(3, dtype=">f8"), "byte order"),
        (np.zeros(3, dtype=">i4"), "byte order"),
        (np.zeros(3, dtype=object), "object"),
        (np.zeros(3, dtype=">U3"), "byte order"),  # native <U3 is a str dtype now
    ],
    ids=[
        "datetime",
        "timedelta",
        "big-endian-f8",
        "big-endian-i4",
        "object",
        "big-endian-str",
    ],
)
def test_unsupported_dtype_is_typing_error_naming_argument(array, mentions):
    @njit
    def takes_array(value, arr):
        return arr[0]

    with pytest.raises(TypingError, match=r"argument 1 \(arr\)") as info:
        takes_array(1, array)
    assert mentions in str(info.value)


# ---------------------------------------------------------------------------------------------
# attributes


@njit
def attributes(a):
    return a.shape, a.strides, a.ndim, a.size, a.itemsize, a.nbytes


@njit
def len_of(a):
    return len(a)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_attributes_each_dtype(dtype):
    a = sample(dtype, (3, 4))
    assert attributes(a) == attributes.py_func(a)


@pytest.mark.parametrize("name_index", range(5))
def test_attributes_each_layout(name_index):
    name, a = layouts(sample("int16", (3, 4)))[name_index]
    assert attributes(a) == attributes.py_func(a), name
    assert len_of(a) == 3


@pytest.mark.parametrize(
    "a",
    [
        np.zeros(5, np.int8)[::-1],
        np.zeros((0,)),
        np.zeros((0, 3)),
        np.zeros((3, 0), np.complex64),
        np.zeros((2, 3, 4), np.float32)[:, ::2, 1:],
        np.zeros(()),
        np.zeros((), np.uint16),
    ],
)
def test_attributes_special_shapes(a):
    assert attributes(a) == attributes.py_func(a)


@pytest.mark.parametrize("a", [np.zeros(5, np.int8)[::-1], np.zeros((0, 3)), np.ones((4, 2, 3))])
def test_len(a):
    assert len_of(a) == len(a)


def test_len_of_0d_array_is_an_error_not_a_crash(tmp_path):
    result = run_script(
        """
        import numpy as np
        from taipan import njit

        @njit
        def len_of(a):
            return len(a)

        try:
            len_of(np.zeros(()))
        except Exception as error:
            print("raised", type(error).__name__)
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "raised" in result.stdout


@njit
def transpose_attr(a):
    return a.T


@njit
def real_part(a):
    return a.real


@njit
def imag_part(a):
    return a.imag


@njit
def empty_of_same_dtype(a, n):
    return np.empty(n, a.dtype)


@njit
def zeros_of_same_dtype(a, n):
    return np.zeros(n, dtype=a.dtype)


@pytest.mark.parametrize("name_index", range(5))
def test_T_is_a_view(name_index):
    name, a = layouts(sample("float64", (3, 4)))[name_index]
    t = transpose_attr(a)
    assert_array_same(t, a.T)
    t[1, 2] = -1.0
    assert a[2, 1] == -1.0, name


def test_T_of_1d_and_3d():
    a = np.arange(5)
    assert_array_same(transpose_attr(a), a.T)
    b = np.arange(24).reshape(2, 3, 4)
    assert_array_same(transpose_attr(b), b.T)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
def test_real_imag_of_real_arrays(dtype):
    a = sample(dtype, (3, 2))
    assert_array_same(real_part(a), a.real)
    assert_array_same(imag_part(a), a.imag)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_imag_of_complex_array_is_a_view(dtype):
    a = sample(dtype, (3, 2))
    im = imag_part(a)
    assert_array_same(im, a.imag)
    im[1, 1] = 123.0
    assert a[1, 1].imag == 123.0


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_real_of_complex_array_is_a_view(dtype):
    a = sample(dtype, (3, 2))
    re = real_part(a)
    assert_array_same(re, a.real)
    re[0, 1] = 55.0
    assert a[0, 1].real == 55.0


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dtype_attribute_in_constructors(dtype):
    a = sample(dtype, (2,))
    out = empty_of_same_dtype(a, 4)
    assert out.dtype == a.dtype and out.shape == (4,)
    out = zeros_of_same_dtype(a, 3)
    assert_array_same(out, np.zeros(3, a.dtype))


# ---------------------------------------------------------------------------------------------
# iteration


@njit
def iterate_sum(a):
    s = 0
    for x in a:
        s += x
    return s


@njit
def iterate_rows(a):
    out = np.zeros(a.shape[1])
    for row in a:
        for j in range(row.shape[0]):
            out[j] += row[j] * 2
    return out


@njit
def iterate_rows_count(a):
    n = 0
    for row in a:
        n += row.size
    return n


@njit
def iterate_write_rows(a):
    k = 0
    for row in a:
        row[0] = k
        k += 1  # noqa: SIM113 - enumerate over arrays is not what is tested


@pytest.mark.parametrize("name_index", range(3))
def test_iterate_1d(name_index):
    name, a = layouts_1d(sample("int64", (7,)))[name_index]
    assert iterate_sum(a) == a.sum(), name


def test_iterate_0d_is_an_error():
    with pytest.raises((TypingError, TypeError)):
        iterate_sum(np.array(1.0))


def test_iterate_empty_and_bool():
    assert iterate_sum(np.zeros(0, np.int64)) == 0
    a = np.array([True, False, True])
    assert iterate_sum(a) == 2


@pytest.mark.parametrize("name_index", range(5))
def test_iterate_rows_2d(name_index):
    _, a = layouts(sample("float64", (3, 4)))[name_index]
    compare(iterate_rows, a)


def test_iterate_rows_3d_and_write_through_rows():
    a = np.ones((2, 3, 4))
    assert iterate_rows_count(a) == 24
    b = np.zeros((4, 3))
    iterate_write_rows(b)
    assert_array_same(b[:, 0], np.arange(4.0))


# ---------------------------------------------------------------------------------------------
# eager signatures


def test_eager_void_2d_c_contiguous():
    @njit("void(float64[:, ::1], int64)")
    def fill_value(a, v):
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                a[i, j] = v

    a = np.zeros((2, 3))
    assert fill_value(a, 4) is None
    assert_array_same(a, np.full((2, 3), 4.0))
    with pytest.raises(TypeError):
        fill_value(np.zeros(3), 1)  # wrong ndim
    with pytest.raises(TypeError):
        fill_value(np.zeros((2, 2, 2)), 1)
    with pytest.raises(TypeError):
        fill_value(np.zeros((2, 3), order="F"), 1)  # not C-contiguous
    with pytest.raises(TypeError):
        fill_value(np.zeros((2, 3), np.float32), 1)  # other dtype


@njit("float64(float64[:])")
def eager_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def test_eager_any_layout_accepts_strided_and_rejects_wrong_ndim():
    assert eager_sum(np.arange(8.0)[::2]) == 12.0
    assert eager_sum(np.arange(4.0)[::-1]) == 6.0
    with pytest.raises(TypeError):
        eager_sum(np.ones((2, 2)))
    with pytest.raises(TypeError):
        eager_sum(np.ones(()))


def test_eager_any_layout_accepts_contiguous():
    assert eager_sum(np.arange(4.0)) == 6.0
    assert eager_sum(np.ones(3, order="F")) == 3.0


def test_array_type_spellings():
    assert str(taipan.float64[:]) == "array(float64, 1d, A)"
    assert str(taipan.float64[:, ::1]) == "array(float64, 2d, C)"
    assert str(taipan.float64[::1, :]) == "array(float64, 2d, F)"
    assert str(taipan.typeof(np.zeros((2, 2)))) == "array(float64, 2d, C)"
    assert str(taipan.typeof(np.zeros((2, 2), order="F"))) == "array(float64, 2d, F)"
    assert str(taipan.typeof(np.zeros((2, 3))[:, 1:])) == "array(float64, 2d, A)"
    assert str(taipan.typeof(np.zeros((), np.int32))) == "array(int32, 0d, C)"


# ---------------------------------------------------------------------------------------------
# array types across control flow and globals


@njit
def return_self_or_view(a, flag):
    if flag:
        return a
    return a[::2]


@njit
def rebind_to_view(a, flag):
    v = a
    if not flag:
        v = a[::2]
    return v.sum()


@njit
def halve_until_one(a):
    v = a
    while v.size > 1:
        v = v[::2]
    return v[0]


@njit
def return_self_or_new(a, flag):
    if flag:
        return a
    return np.zeros(3)


def test_same_layout_branches_unify():
    a = np.arange(3.0)
    assert return_self_or_new(a, True) is a
    assert_array_same(return_self_or_new(a, False), np.zeros(3))


def test_contiguous_and_strided_layouts_unify():
    a = np.arange(8.0)
    assert_array_same(return_self_or_view(a, False), a[::2])
    assert return_self_or_view(a, True) is a
    assert rebind_to_view(a, False) == a[::2].sum()
    assert halve_until_one(a) == 0.0


GLOBAL_ARRAY = np.arange(5.0)


@njit
def read_global_array(i):
    return GLOBAL_ARRAY[i] * 2


def test_global_array_is_a_constant():
    assert read_global_array(3) == 6.0
