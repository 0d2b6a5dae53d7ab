"""Record (structured) dtypes: arrays of records as arguments (C, F, A layouts and views), fields
read and written (`a[i].x`, `a[i]['x']`, `r.x = v`), field views (`a.x`), record scalars passed
by reference, records returned, iterated, nested records and subarray fields, np.empty with a
record dtype, np.recarray; compared with `f.py_func`, with the allocation counters."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from numpy_checks import no_allocation_leak
from ptx_assembly import PTXAS, ptxas

import taipan
from taipan import cuda, njit, types
from taipan.errors import TypingError, UnsupportedError

PACKED = np.dtype([("a", np.int32), ("b", np.float64), ("c", np.int8), ("d", np.complex64)])
ALIGNED = np.dtype(
    [("a", np.int32), ("b", np.float64), ("c", np.int8), ("d", np.complex64)], align=True
)
INNER = np.dtype([("p", np.int16), ("q", np.float32)])
NESTED = np.dtype([("x", np.float64), ("inner", INNER), ("flag", np.bool_)])
SUBARRAY = np.dtype([("n", np.int64), ("v", np.float64, (3,)), ("m", np.int32, (2, 2))])
RECORD_DTYPE = np.dtype([("x", np.float64), ("y", np.int64)])


def filled(dtype, n=7):
    """An array of `n` records of `dtype` whose number fields hold distinct values."""
    a = np.zeros(n, dtype)
    rng = np.random.default_rng(3)
    for name in dtype.names:
        field = a[name]
        if field.dtype.fields is not None:
            for inner in field.dtype.names:
                field[inner] = rng.integers(-50, 50, field[inner].shape)
        elif field.dtype == np.bool_:
            field[...] = rng.integers(0, 2, field.shape).astype(bool)
        else:
            field[...] = rng.integers(-50, 50, field.shape)
    return a.view(np.recarray)  # whose records, unlike numpy.void, read fields as attributes


def same_records(x, y):
    """Field by field (NumPy's copies leave an aligned dtype's padding undefined)."""
    assert x.dtype == y.dtype and x.shape == y.shape
    for name in x.dtype.names:
        a, b = np.asarray(x[name]), np.asarray(y[name])
        if a.dtype.names:
            same_records(a, b)
        else:
            np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------------------
# Types


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED])
def test_record_type_layout_matches_numpy(dtype):
    record = taipan.from_dtype(dtype)
    assert isinstance(record, types.Record)
    assert record.size == dtype.itemsize
    assert record.aligned == dtype.isalignedstruct
    for name in dtype.names:
        offset = dtype.fields[name][1]
        assert record.fields[name][1] == offset
    assert taipan.typeof(np.zeros(3, dtype)).dtype == record
    assert taipan.typeof(np.zeros(3, dtype)[0]) == record


def test_record_display_is_numbas():
    record = taipan.from_dtype(np.dtype([("a", np.int32), ("b", np.float64)]))
    assert str(record) == "Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False)"
    aligned = taipan.from_dtype(np.dtype([("a", np.int32), ("b", np.float64)], align=True))
    assert str(aligned) == "Record(a[type=int32;offset=0],b[type=float64;offset=8];16;True)"
    assert str(taipan.typeof(np.zeros((2, 2), PACKED))).endswith(", 2d, C)")


def test_record_type_constructors():
    record = types.Record(
        [("a", {"type": types.int32, "offset": 0}), ("b", {"type": types.float64, "offset": 8})],
        16,
        True,
    )
    assert record == taipan.from_dtype(np.dtype([("a", "i4"), ("b", "f8")], align=True))
    struct = types.Record.make_c_struct([("a", types.int32), ("b", types.float64)])
    assert struct == record
    assert types.Array(record, 1, "C") == taipan.typeof(
        np.zeros(2, np.dtype([("a", "i4"), ("b", "f8")], align=True))
    )


def test_nested_and_subarray_types():
    nested = taipan.from_dtype(NESTED)
    assert nested.fields["inner"][0] == taipan.from_dtype(INNER)
    sub = taipan.from_dtype(SUBARRAY)
    assert isinstance(sub.fields["v"][0], types.NestedArray)
    assert sub.fields["m"][0].shape == (2, 2)


def test_signature_with_record_types():
    record = taipan.from_dtype(RECORD_DTYPE)

    @njit(types.float64(record[:], types.int64))
    def field_sum(a, i):
        return a[i].x + a[i].y

    a = filled(RECORD_DTYPE)
    assert field_sum(a, 2) == field_sum.py_func(a, 2)


# ---------------------------------------------------------------------------------------------
# Reading fields


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED])
def test_read_fields_by_attribute_and_name(dtype):
    @njit
    def read(a, i):
        r = a[i]
        return r.a + r.b * 2 + a[i].c + a[i]["b"] + r["a"], a[i].d

    a = filled(dtype)
    with no_allocation_leak():
        for i in range(-len(a), len(a)):
            assert read(a, i) == read.py_func(a, i)


FIELD_NAME = "b"


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED])
def test_fields_named_by_constants_and_positions(dtype):
    name = "c"

    @njit
    def read(a, i):
        r = a[i]
        return r[FIELD_NAME] + r[name] + r[0] * 3 + r[1], a[FIELD_NAME][i], a[name].sum()

    a = filled(dtype)
    with no_allocation_leak():
        for i in range(len(a)):
            assert read(a, i) == read.py_func(a, i)


def test_record_index_out_of_range_or_not_constant_is_a_typing_error():
    @njit
    def past_end(a):
        return a[0][4]

    with pytest.raises(TypingError, match="record index 4 is out of range"):
        past_end(filled(PACKED))

    @njit
    def by_value(a, j):
        return a[0][j]

    with pytest.raises(TypingError, match="constant field name or position"):
        by_value(filled(PACKED), 1)


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED])
def test_loop_over_fields(dtype):
    @njit
    def total(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i].b * a[i].a - a[i].c
        return s

    a = filled(dtype, 50)
    assert total(a) == total.py_func(a)
    view = a[::3]  # a non-contiguous array of records
    assert total(view) == total.py_func(view)
    assert taipan.typeof(view).layout == "A"


def test_iterating_records():
    @njit
    def total(a):
        s = 0.0
        for r in a:
            s += r.x * r.y
        return s

    a = filled(RECORD_DTYPE, 20)
    with no_allocation_leak():
        assert total(a) == total.py_func(a)
        assert total(a[::-2]) == total.py_func(a[::-2])


@pytest.mark.parametrize("order", ["C", "F"])
def test_two_dimensional_arrays_of_records(order):
    @njit
    def read(a):
        s = 0.0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                s += a[i, j].x - 2 * a[i, j]["y"]
        return s

    a = (
        np.asfortranarray(filled(RECORD_DTYPE, 12).reshape(3, 4))
        if order == "F"
        else (filled(RECORD_DTYPE, 12).reshape(3, 4))
    )
    assert taipan.typeof(a).layout == order
    assert read(a) == read.py_func(a)
    assert read(a.T) == read.py_func(a.T)


# ---------------------------------------------------------------------------------------------
# Writing fields


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED])
def test_assign_fields(dtype):
    def write(a):
        for i in range(a.shape[0]):
            a[i].a = i * 3
            a[i]["b"] = a[i].a / 4
            r = a[i]
            r.c = -i
            r.d = complex(i, -i)
            a[i].b += 1.5
            r["a"] -= 1

    expected = filled(dtype)
    actual = expected.copy()
    write(expected)
    with no_allocation_leak():
        njit(write)(actual)
    same_records(actual, expected)


def test_assign_field_of_strided_view():
    def write(a):
        for r in a:
            r.y = r.y * 10 + 1

    expected = filled(RECORD_DTYPE, 20)
    actual = expected.copy()
    write(expected[1::3])
    njit(write)(actual[1::3])
    same_records(actual, expected)


def test_assign_whole_records():
    def copy_back(a):
        for i in range(a.shape[0] - 1):
            a[i] = a[i + 1]
        a[-1] = a[0]

    expected = filled(PACKED)
    actual = expected.copy()
    copy_back(expected)
    njit(copy_back)(actual)
    same_records(actual, expected)


def test_store_of_wrong_type_is_a_typing_error():
    @njit
    def bad(a, b):
        a[0] = b[0]

    with pytest.raises(TypingError):
        bad(filled(PACKED), filled(ALIGNED))

    @njit
    def complex_into_int(a):
        a[0].a = 1j

    with pytest.raises(TypingError):
        complex_into_int(filled(PACKED))


def test_unknown_field_is_a_typing_error_naming_the_fields():
    @njit
    def bad(a):
        return a[0].nope

    with pytest.raises(TypingError, match="no field 'nope'.*'a', 'b', 'c', 'd'"):
        bad(filled(PACKED))

    @njit
    def bad_view(a):
        return a["nope"]

    with pytest.raises(TypingError, match="no field 'nope'"):
        bad_view(filled(PACKED))


# ---------------------------------------------------------------------------------------------
# Field views


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED])
def test_field_views(dtype):
    @njit
    def views(a):
        return a.b, a["a"], a.b.sum(), a["c"][2:]

    a = filled(dtype, 9)
    with no_allocation_leak():
        got = views(a)
        want = views.py_func(a)
        for x, y in zip(got, want):
            np.testing.assert_array_equal(x, y)
        assert got[0].base is not None  # a view of the argument's memory
        del got


def test_writing_through_field_view():
    def scale(a):
        b = a.x
        b *= 2
        a["y"][:] = 7

    expected = filled(RECORD_DTYPE)
    actual = expected.copy()
    scale(expected)
    njit(scale)(actual)
    same_records(actual, expected)


def test_field_view_of_two_dimensional_non_contiguous():
    @njit
    def col(a):
        return a.y[:, 1].sum() + a[1:, ::2].x.sum()

    a = filled(RECORD_DTYPE, 24).reshape(4, 6)[:, ::2]
    assert col(a) == col.py_func(a)


def test_array_attributes_still_win_over_fields():
    shaped = np.dtype([("shape", np.int64), ("size", np.float64)])

    @njit
    def f(a):
        return a.shape[0], a.size, a[0]["shape"]

    a = filled(shaped, 4)
    assert f(a) == f.py_func(a)


# ---------------------------------------------------------------------------------------------
# Record scalars and results


def test_record_scalar_argument_is_passed_by_reference():
    @njit
    def bump(r):
        r.x += 1.0
        r["y"] = 42
        return r.x

    a = filled(RECORD_DTYPE)
    b = a.copy()
    assert bump(a[2]) == bump.py_func(b[2])
    same_records(a, b)


def test_record_returned_is_a_numpy_void():
    @njit
    def pick(a, i):
        return a[i]

    a = filled(PACKED)
    got = pick(a, 3)
    assert isinstance(got, np.void)
    assert got.dtype == PACKED
    assert got.tobytes() == a[3].tobytes()

    @njit
    def pair(a):
        return a[0], a[-1].b

    got = pair(a)
    assert got[0].tobytes() == a[0].tobytes() and got[1] == a[-1].b


def test_records_passed_between_compiled_functions():
    @njit
    def norm(r):
        return r.x * r.x + r.y

    @njit
    def set_y(r, v):
        r.y = v

    @njit
    def total(a):
        s = 0.0
        for i in range(len(a)):
            set_y(a[i], i)
            s += norm(a[i])
        return s

    expected = filled(RECORD_DTYPE)
    actual = expected.copy()
    assert total(actual) == total.py_func(expected)
    same_records(actual, expected)


# ---------------------------------------------------------------------------------------------
# Nested records and subarray fields


def test_nested_records():
    def work(a):
        s = 0.0
        for r in a:
            r.inner.q = r.inner.p * 0.5 + r.x
            s += r["inner"]["q"] + r.flag
        a[0].inner = a[1].inner
        return s

    expected = filled(NESTED)
    actual = expected.copy()
    with no_allocation_leak():
        assert njit(work)(actual) == work(expected)
    same_records(actual, expected)


def test_nested_record_view():
    @njit
    def inner_view(a):
        return a.inner.p.sum(), a["inner"]["q"][1]

    a = filled(NESTED)
    assert inner_view(a) == inner_view.py_func(a)


def test_subarray_fields():
    def work(a):
        s = 0.0
        for r in a:
            v = r.v
            s += v[0] + v[2] * r.n + r.m[1, 0]
            r.v[1] = s
        return s, a.v.sum(), a.m[:, 0, 1].sum()

    expected = filled(SUBARRAY)
    actual = expected.copy()
    with no_allocation_leak():
        assert njit(work)(actual) == work(expected)
    same_records(actual, expected)


# ---------------------------------------------------------------------------------------------
# Creating arrays of records


def test_empty_and_zeros_with_a_global_record_dtype():
    def make(n):
        a = np.zeros(n, dtype=RECORD_DTYPE)
        b = np.empty(n, RECORD_DTYPE)
        for i in range(n):
            a[i]["x"] = i / 2
            a[i]["y"] = i * i
            b[i] = a[i]
        return b

    with no_allocation_leak():
        got = njit(make)(5)
        want = make(5)
        same_records(got, want)
        del got


def test_ones_of_record_dtype_is_refused():
    @njit
    def make(n):
        return np.ones(n, RECORD_DTYPE)

    with pytest.raises(UnsupportedError, match="record dtype"):
        make(3)


def test_recarray_argument():
    @njit
    def total(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i].x + a.y[i]
        return s

    rec = filled(RECORD_DTYPE).view(np.recarray)
    assert total(rec) == total.py_func(rec)
    assert total(rec[0:1]) == total.py_func(rec[0:1])


def test_unsupported_field_types_explain_themselves():
    @njit
    def f(a):
        return a[0].n

    objects = np.zeros(2, np.dtype([("n", np.int64), ("s", object)]))
    with pytest.raises(Exception, match="record dtype"):
        f(objects)


def test_string_fields_are_carried_and_read():
    strings = np.dtype([("n", np.int64), ("s", "U3"), ("b", "S2")])
    record = taipan.from_dtype(strings)
    assert str(record) == (
        "Record(n[type=int64;offset=0],s[type=[unichr x 3];offset=8],"
        "b[type=[char x 2];offset=20];22;False)"
    )

    def copy_and_count(a):
        a[1] = a[0]
        return a[0]["n"] + a["n"][1]

    expected = np.zeros(2, strings)
    expected[0] = (5, "abc", b"xy")
    actual = expected.copy()
    assert njit(copy_and_count)(actual) == copy_and_count(expected)
    same_records(actual, expected)

    @njit
    def read(a):
        return a[0].s

    assert read(actual) == "abc"  # read as a str (test_fixed_width_strings.py has the rest)


def test_pickled_record_types_round_trip():
    import pickle

    for dtype in (PACKED, ALIGNED, NESTED, SUBARRAY):
        record = taipan.from_dtype(dtype)
        assert pickle.loads(pickle.dumps(record)) == record
        array_type = taipan.typeof(np.zeros(2, dtype))
        assert pickle.loads(pickle.dumps(array_type)) == array_type


# ---------------------------------------------------------------------------------------------
# CUDA: arrays of records in kernels share the CPU's lowering (PTX checked by ptxas)


def record_kernel(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i].b * a[i]["a"] + a.c[i]
        a[i].a = i


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
@pytest.mark.parametrize("dtype", [PACKED, ALIGNED])
def test_kernel_over_records_compiles_to_ptx(dtype, tmp_path):
    record = taipan.from_dtype(dtype)
    ptx, _ = cuda.compile_ptx(record_kernel, types.void(record[:], types.float64[:]))
    # an aligned record's fields are read with their natural width, a packed one's bytewise
    loads = re.findall(r"\tld(?:\.global)?\.(\w+)", ptx)
    assert ("f64" in loads) == dtype.isalignedstruct, loads
    ptxas(ptx, tmp_path)


GLOBAL_RECORDS = np.zeros(3, RECORD_DTYPE)


def test_global_array_of_records_is_frozen_as_numba_freezes_it():
    @njit
    def f():
        return GLOBAL_RECORDS[0].x

    assert f() == GLOBAL_RECORDS[0]["x"]


def test_np_shape_and_size_of_subarray_fields_arrays_and_numbers():
    @njit
    def shapes(r, a, x):
        return np.shape(r.m), np.size(r.m), np.shape(r.v), np.shape(a), np.size(a), np.shape(x)

    records = filled(SUBARRAY)
    with no_allocation_leak():
        for a in (np.zeros(3), np.zeros((2, 3))[:, ::2], np.zeros((2, 3, 4), order="F")):
            assert shapes(records[1], a, 2.5) == shapes.py_func(records[1], a, 2.5)

    @njit
    def of_tuple(t):
        return np.size(t)

    with pytest.raises(TypingError, match="takes an array or a number"):
        of_tuple((1, 2))
