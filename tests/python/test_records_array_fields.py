"""Records with array fields on the CPU: a field of shape (2, 3) read as an array that is a view
into the record (so writes reach the caller's array), assigned from arrays, scalars and
broadcasts, returned; nested records and subarrays of records ([('items', rec, 3)]); arrays of
records and single records as globals (frozen at compile time, as Numba freezes them);
iteration over record arrays; records as arguments and return values. Each case is compared
with the Python function on a copy of the data, and the runtime's blocks are counted."""

import numpy as np
import pytest

from taipan import njit
from taipan.runtime import live_blocks

FIELD_DTYPES = [np.int32, np.int64, np.uint8, np.float32, np.float64, np.complex128, np.bool_]


def with_array(dtype, aligned=False):
    return np.dtype([("a", dtype, (2, 3)), ("b", np.float64), ("c", np.int16)], align=aligned)


def sample(dtype, n=4, aligned=False):
    rec = with_array(dtype, aligned)
    values = np.zeros(n, rec)
    values["a"] = (np.arange(n * 6).reshape(n, 2, 3) % 5).astype(dtype)
    values["b"] = np.arange(n) + 0.5
    values["c"] = -np.arange(n)
    return values


def check(function, *arguments):
    """The compiled result and the arguments after the call equal Python's on copies."""
    compiled = njit(function)
    before = live_blocks()
    expected_arguments = [a.copy() if isinstance(a, np.ndarray) else a for a in arguments]
    expected = function(*expected_arguments)
    got = compiled(*arguments)
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
    elif isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)
    elif isinstance(expected, np.void):
        assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
    else:
        assert got == expected
    for g, e in zip(arguments, expected_arguments):
        if isinstance(e, np.ndarray):
            np.testing.assert_array_equal(g, e)
    del got
    assert live_blocks() == before


# --- array fields: read, views, assignment, return -------------------------------------------


def read_field(x, i):
    return x[i]["a"]


def read_item(x, i):
    return x[i]["a"][1, 2]


def read_row(x, i):
    return x[i]["a"][1]


def field_of_all(x):
    return x["a"]


def field_column(x):
    return x["a"][:, 1, :]


def field_sum(x, i):
    return x[i]["a"].sum()


def field_shape(x, i):
    return x[i]["a"].shape, x[i]["a"].size, len(x[i]["a"])


def field_arithmetic(x):
    return x[0]["a"] * 2 + x[1]["a"]


def field_copy_then_write(x):
    c = x[0]["a"].copy()
    c[0, 0] = 1
    return c


def write_through_view(x, i):
    v = x[i]["a"]
    v[1, 2] = 4
    v[0, :] = 3
    return x


def assign_whole(x, i, values):
    x[i]["a"] = values
    return x


def assign_scalar(x, i):
    x[i]["a"] = 1
    return x


def assign_from_other_record(x):
    x[0]["a"] = x[3]["a"]
    return x


def assign_field_of_all(x):
    x["a"][:, 0, 0] = 2
    return x


@pytest.mark.parametrize("dtype", FIELD_DTYPES)
@pytest.mark.parametrize("aligned", [False, True])
def test_array_fields_read_as_views(dtype, aligned):
    x = sample(dtype, aligned=aligned)
    for function in (read_field, read_item, read_row, field_sum):
        check(function, x, 2)
    check(field_of_all, x)
    check(field_column, x)
    check(field_shape, x, 1)
    check(field_copy_then_write, x)
    if dtype is not np.bool_:
        check(field_arithmetic, x)


@pytest.mark.parametrize("dtype", FIELD_DTYPES)
def test_array_fields_written(dtype):
    check(write_through_view, sample(dtype), 1)
    check(assign_whole, sample(dtype), 2, (np.arange(6).reshape(2, 3) % 2).astype(dtype))
    check(assign_whole, sample(dtype), 0, np.ones(3, dtype))  # broadcast over rows
    check(assign_scalar, sample(dtype), 3)
    check(assign_from_other_record, sample(dtype))
    check(assign_field_of_all, sample(dtype))


def test_assigning_a_wrong_shape_raises_like_numpy():
    x = sample(np.int32)
    with pytest.raises(ValueError, match="broadcast"):
        njit(assign_whole)(x, 0, np.ones((3, 3), np.int32))


def test_attribute_access_on_recarrays():
    def attributes(x):
        x[1].a[0, 1] = 9
        return x.a[1], x[2].b, x.b.sum()

    check(attributes, sample(np.float64).view(np.recarray))


FLOAT_RECORD = with_array(np.float64)


def test_record_views_keep_the_array_alive():
    def view_of(i):
        x = np.zeros(3, FLOAT_RECORD)
        x["a"][i] = 7.0
        return x[i]["a"]

    before = live_blocks()
    view = njit(view_of)(1)
    np.testing.assert_array_equal(view, np.full((2, 3), 7.0))
    del view
    assert live_blocks() == before


# --- nested records and subarrays of records -------------------------------------------------

INNER = np.dtype([("p", np.int16), ("q", np.float64, (2,))], align=True)
OUTER = np.dtype([("x", np.float32), ("inner", INNER)], align=True)
ITEM = np.dtype([("some_field", np.int32)])
ITEMS = np.dtype([("items", ITEM, 3)])
PAIR = np.dtype([("a", "i8"), ("b", "i4")])
GRID = np.dtype([("x", "?"), ("y", np.dtype((PAIR, (2, 2))))])


def nested_sample():
    x = np.zeros(3, OUTER)
    x["x"] = [1.5, 2.5, 3.5]
    x["inner"]["p"] = [4, 5, 6]
    x["inner"]["q"] = [[1, 2], [3, 4], [5, 6]]
    return x


def nested_read(x):
    return x[1]["inner"]["q"][1] + x[0]["inner"]["p"] + x[2]["x"]


def nested_write(x):
    x[1]["inner"]["q"][0] = 5.0
    x[0]["inner"]["p"] = 3
    return x


def nested_view(x):
    return x["inner"]["q"]


def nested_record_return(x, i):
    return x[i]["inner"]


def first(x):
    return x[0]


def grid_walk(x):
    total = 0
    for r in x:
        y = r["y"]
        total += y[1, 0]["a"] + y[0, 1]["b"]
        y[1, 1]["a"] = 99
    return total


def test_nested_records():
    check(nested_read, nested_sample())
    check(nested_write, nested_sample())
    check(nested_view, nested_sample())
    check(nested_record_return, nested_sample(), 2)


def test_subarrays_of_records_are_numba_s_issue_3158():
    items = np.asarray([([(0,), (1,), (2,)],), ([(3,), (4,), (5,)],)], dtype=ITEMS)
    check(first, items)
    grid = np.zeros(2, GRID)
    grid["y"]["a"] = np.arange(8).reshape(2, 2, 2)
    grid["y"]["b"] = np.arange(8).reshape(2, 2, 2) * 10
    check(first, grid)
    check(grid_walk, grid)


def test_string_fields_are_read_as_str():
    strings = np.zeros(2, np.dtype([("name", "U5"), ("n", np.int32)]))
    strings[0]["name"] = "abcde"

    def read_name(x):
        return x[0]["name"]

    assert njit(read_name)(strings) == read_name(strings)  # test_fixed_width_strings.py: more


# --- globals -------------------------------------------------------------------------------

GLOBAL_RECORDS = sample(np.int32).view(np.recarray)
GLOBAL_NESTED = nested_sample()
GLOBAL_RECORD = np.zeros(1, OUTER)[0]
GLOBAL_RECORD["x"] = 2.25
GLOBAL_RECORD["inner"]["q"] = [7.0, 8.0]


def global_field_sum():
    return GLOBAL_RECORDS[1]["a"].sum() + GLOBAL_RECORDS["b"].sum()


def global_copy(out):
    for i in range(len(out)):
        out[i] = GLOBAL_RECORDS[i]
    return out


def global_extract(a, b):
    for i in range(len(a)):
        a[i] = GLOBAL_RECORDS[i].b
        b[i] = GLOBAL_RECORDS[i].a[1, 1]
    return a, b


def global_iteration():
    total = 0.0
    for r in GLOBAL_RECORDS:
        total += r.b * r.a[0, 2]
    return total


def global_nested():
    return GLOBAL_NESTED[1]["inner"]["q"].sum() + GLOBAL_NESTED["x"][2]


def global_record_read(x):
    return x["x"] == GLOBAL_RECORD["x"], GLOBAL_RECORD["inner"]["q"][1]


def global_record_written():
    r = GLOBAL_RECORD
    r["x"] = 100.0
    return r["x"]


def test_global_arrays_of_records():
    check(global_field_sum)
    check(global_copy, np.zeros(4, GLOBAL_RECORDS.dtype))
    check(global_extract, np.zeros(4), np.zeros(4, np.int32))
    check(global_iteration)
    check(global_nested)


def test_global_record():
    probe = np.zeros(1, OUTER)[0]
    probe["x"] = 2.25
    check(global_record_read, probe)
    # A write goes to this call's copy (as Numba's stack copy of a constant record): the
    # Python object is untouched, and the next call sees the frozen value again.
    compiled = njit(global_record_written)
    assert compiled() == 100.0
    assert GLOBAL_RECORD["x"] == 2.25
    assert njit(global_record_read)(probe) == (True, 8.0)


# --- iteration, arguments and return values --------------------------------------------------


def iterate(x):
    total = 0.0
    for r in x:
        total += r["b"] * r["a"][1, 2] + r["c"]
    return total


def iterate_2d(x):
    total = 0.0
    for row in x:
        for r in row:
            total += r["b"]
    return total


def enumerate_records(x):
    out = np.zeros(len(x))
    for i, r in enumerate(x):
        out[i] = r["a"].sum() + i
    return out


def record_argument(r):
    return r["b"] + r["a"][0, 1]


def record_argument_written(r, v):
    r["a"][1] = v
    r["c"] = 7


def pick(x, i, j):
    return x[i] if x[i]["b"] > x[j]["b"] else x[j]


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_iteration_over_record_arrays(dtype):
    x = sample(dtype, n=5)
    check(iterate, x)
    check(iterate_2d, np.zeros((2, 3), x.dtype))
    check(enumerate_records, x)
    check(iterate, x[::2])  # a strided view


def test_records_as_arguments_and_return_values():
    x = sample(np.float64)
    check(record_argument, x[1])
    r = x[2]
    njit(record_argument_written)(r, 4.0)
    np.testing.assert_array_equal(x[2]["a"][1], [4.0, 4.0, 4.0])
    assert x[2]["c"] == 7
    check(pick, sample(np.float64), 1, 3)
    check(first, sample(np.float64))
