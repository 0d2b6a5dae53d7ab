"""Slice objects as values in compiled code, as Numba has them: ``slice(...)`` built from
integers and None, passed in and returned, ``s.start``/``s.stop``/``s.step`` (Numba's integers,
None bounds filled in), ``s.indices(n)``, and slices indexing arrays, lists and strings, alone
or inside index tuples built at run time (``(slice(None),) * a.ndim``, ``tuple_setitem``), with
None and ``np.newaxis`` among them. Results are compared with CPython and NumPy over negative
steps, out-of-range bounds and empty selections; a zero step is CPython's ValueError where the
slice is used."""

import itertools
import sys

import numpy as np
import pytest
from conftest import assert_same

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks
from taipan.unsafe import tuple_setitem

BIG = sys.maxsize
BOUNDS = [None, -12, -3, -1, 0, 1, 2, 4, 11, 2**40]
STEPS = [None, -5, -2, -1, 1, 2, 3]


@njit
def make1(stop):
    return slice(stop)


@njit
def make2(start, stop):
    return slice(start, stop)


@njit
def make3(start, stop, step):
    return slice(start, stop, step)


@njit
def parts(start, stop, step):
    s = slice(start, stop, step)
    return s.start, s.stop, s.step


@njit
def indices(s, n):
    return s.indices(n)


@njit
def built_indices(start, stop, step, n):
    return slice(start, stop, step).indices(n)


@njit
def item(x, s):
    return x[s]


@njit
def item_built(x, start, stop, step):
    return x[slice(start, stop, step)]


@njit
def store_built(a, start, stop, step, value):
    a[slice(start, stop, step)] = value
    return a


def test_constructor_returns_python_slices():
    before = live_blocks()
    for start, stop, step in itertools.product(BOUNDS[:6], BOUNDS[:6], STEPS):
        assert make3(start, stop, step) == slice(start, stop, step)
        assert make2(start, stop) == slice(start, stop)
    for stop in BOUNDS:
        assert make1(stop) == slice(stop)
    assert live_blocks() == before


def test_slice_arguments_round_trip():
    @njit
    def same(s):
        return s

    for s in [slice(None), slice(3), slice(-2, None, -1), slice(None, None, 1), slice(1, 2, 3)]:
        got = same(s)
        assert got == s and (got.start, got.stop, got.step) == (s.start, s.stop, s.step)


def test_attributes_are_numbas_integers():
    # Numba's s.start/stop/step are intp: None bounds come back as the defaults it fills in
    # (CPython's PySlice_Unpack extremes), the step None as 1.
    assert parts(1, 5, 2) == (1, 5, 2)
    assert parts(None, None, None) == (0, BIG, 1)
    assert parts(None, None, -1) == (BIG, -BIG - 1, -1)
    assert parts(-3, None, -2) == (-3, -BIG - 1, -2)

    @njit
    def one(n):
        s = slice(n)
        return s.start, s.stop, s.step

    assert one(7) == (0, 7, 1)


@pytest.mark.parametrize("n", [0, 1, 5, 10])
def test_indices_match_cpython(n):
    for start, stop, step in itertools.product(BOUNDS, BOUNDS, STEPS):
        s = slice(start, stop, step)
        assert indices(s, n) == s.indices(n), s
        assert built_indices(start, stop, step, n) == s.indices(n), s


def test_indices_errors():
    assert_same(built_indices, 0, 5, 0, 4)  # ValueError: slice step cannot be zero
    assert_same(built_indices, 0, 5, 1, -1)  # ValueError: length should not be negative
    with pytest.raises(TypingError, match="cannot be interpreted as an integer"):
        built_indices(0, 5, 1, 2.5)


@pytest.mark.parametrize("length", [0, 1, 7])
def test_array_indexed_by_slice_values(length):
    a = np.arange(length, dtype=np.float64) * 1.5
    before = live_blocks()
    for start, stop, step in itertools.product(BOUNDS, BOUNDS, STEPS):
        s = slice(start, stop, step)
        np.testing.assert_array_equal(item(a, s), a[s])
        np.testing.assert_array_equal(item_built(a, start, stop, step), a[s])
    assert live_blocks() == before


def test_slice_values_on_2d_and_views_share_memory():
    a = np.arange(20.0).reshape(4, 5)
    for start, stop, step in itertools.product(BOUNDS[:6], BOUNDS[:6], STEPS):
        s = slice(start, stop, step)
        np.testing.assert_array_equal(item(a, s), a[s])
    view = item(a, slice(1, 3))
    view[0, 0] = -1.0
    assert a[1, 0] == -1.0


def test_store_through_slice_values():
    before = live_blocks()
    for start, stop, step in itertools.product(BOUNDS[:7], BOUNDS[:7], STEPS):
        a = np.zeros(9)
        expected = np.zeros(9)
        expected[slice(start, stop, step)] = 2.5
        np.testing.assert_array_equal(store_built(a, start, stop, step, 2.5), expected)
    assert live_blocks() == before


def test_zero_step_is_value_error_where_used():
    a = np.arange(5)
    assert_same(item_built, a, 0, 3, 0)
    assert_same(item_built, [1, 2, 3], 0, 3, 0)
    assert_same(item_built, "abc", 0, 3, 0)
    assert_same(store_built, a, 0, 3, 0, 1)
    # Building it is fine, as in CPython.
    assert make3(1, 2, 0) == slice(1, 2, 0)


@pytest.mark.parametrize("text", ["", "héllo wörld", "a😀bΩc"])
def test_strings_and_lists_by_built_slices(text):
    items = list(range(len(text) + 2))  # an empty list has no type to pass
    before = live_blocks()
    for start, stop, step in itertools.product(BOUNDS, BOUNDS, STEPS):
        assert item_built(text, start, stop, step) == text[start:stop:step]
        assert item_built(items, start, stop, step) == items[start:stop:step]
    assert live_blocks() == before


@njit
def tuple_index(a, s, i):
    return a[(s, i)], a[s, i], a[i, s]


@njit
def every_axis_reversed(a):
    index = (slice(None),) * a.ndim
    for axis in range(a.ndim):
        index = tuple_setitem(index, axis, slice(None, None, -1))
    return a[index]


@njit
def one_axis_stepped(a, axis, step):
    index = (slice(None),) * a.ndim
    index = tuple_setitem(index, axis, slice(None, None, step))
    return a[index]


@njit
def with_new_axes(a, s):
    return a[None, s, np.newaxis], a[(s, None)], a[(None, 1)]


def test_slices_inside_index_tuples():
    a = np.arange(24.0).reshape(4, 6)
    before = live_blocks()
    for s in [slice(None), slice(1, None, 2), slice(-1, None, -1), slice(10, 20)]:
        got = tuple_index(a, s, 2)
        expected = (a[(s, 2)], a[s, 2], a[2, s])
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)
        got = with_new_axes(a, s)
        expected = (a[None, s, np.newaxis], a[(s, None)], a[(None, 1)])
        for g, e in zip(got, expected):
            assert g.shape == e.shape
            np.testing.assert_array_equal(g, e)
    for shape in [(5,), (3, 4), (2, 3, 4)]:
        b = np.arange(np.prod(shape)).reshape(shape)
        np.testing.assert_array_equal(every_axis_reversed(b), b[(slice(None, None, -1),) * b.ndim])
        for axis in range(b.ndim):
            for step in [-2, -1, 2]:
                index = [slice(None)] * b.ndim
                index[axis] = slice(None, None, step)
                np.testing.assert_array_equal(one_axis_stepped(b, axis, step), b[tuple(index)])
    assert live_blocks() == before


def test_index_tuples_passed_in():
    a = np.arange(24).reshape(2, 3, 4)
    for index in [
        (slice(None), 1),
        (1, slice(None, None, -1), 2),
        (None, slice(1, None), 0, None),
        (slice(None), slice(None), slice(None)),
    ]:
        got = item(a, index)
        assert got.shape == a[index].shape
        np.testing.assert_array_equal(got, a[index])


def test_tuple_repetition_needs_a_known_count():
    @njit
    def repeated(a):
        return (1, 2) * 3, 2 * (slice(1),), (0,) * a.ndim, (5,) * -1

    got = repeated(np.zeros((2, 2)))
    assert got == ((1, 2) * 3, 2 * (slice(1),), (0, 0), ())

    @njit
    def unknown(n):
        return (1,) * n

    with pytest.raises(TypingError, match="can only be repeated by a constant"):
        unknown(3)


def test_bad_slice_arguments_are_typing_errors():
    @njit
    def floats(x):
        return slice(x)

    with pytest.raises(TypingError, match="slice\\(\\) takes integers or None"):
        floats(1.5)


def return_type(f):
    (signature,) = f.nopython_signatures
    return str(signature).rsplit("-> ", 1)[1]


def test_unit_step_slices_keep_c_layout():
    # Numba's rule (arraydecl.get_array_index_type): a unit-step slice innermost keeps C.
    a = np.arange(10, dtype=np.int32)
    b = np.arange(12.0).reshape(3, 4)

    def check(body, arg, layout):
        f = njit(body)
        f(arg, 2)
        assert return_type(f).endswith(f", {layout})"), (body, return_type(f))

    check(lambda a, n: a[:n], a, "C")
    check(lambda a, n: a[n:], a, "C")
    check(lambda a, n: a[1:n], a, "C")
    check(lambda a, n: a[::1], a, "C")
    check(lambda a, n: a[::n], a, "A")
    check(lambda a, n: a[::-1], a, "A")
    check(lambda a, n: a[slice(1, n)], a, "C")
    check(lambda a, n: a[slice(1, n, 2)], a, "A")
    check(lambda a, n: a[None, :n], a, "A")
    check(lambda b, n: b[1:n], b, "C")
    check(lambda b, n: b[n, :], b, "C")
    check(lambda b, n: b[n, 1:3], b, "C")
    check(lambda b, n: b[:, 1:n], b, "A")
    check(lambda b, n: b[:n, :], b, "A")
    check(lambda b, n: b[..., n], b, "A")
    check(lambda b, n: b[n, ...], b, "C")
    check(lambda b, n: b[:, n], b.T.copy(order="F"), "F")
    check(lambda b, n: b[1:n], b.T.copy(order="F"), "A")
    # A slice object passed in: Numba's slice2_type (step None or 1) keeps C.
    f = njit(lambda a, s: a[s])
    f(a, slice(1, 4))
    f(a, slice(1, 4, 1))
    f(a, slice(1, 4, 2))
    layouts = sorted(str(sig).rsplit("-> ", 1)[1] for sig in f.nopython_signatures)
    assert layouts == ["array(int32, 1d, A)", "array(int32, 1d, C)"]


def test_declared_contiguous_types_match():
    from taipan import int32

    @njit(int32[::1](int32[::1], int32))
    def head(a, n):
        return a[:n]

    @njit(locals={"rows": int32[:, ::1]})
    def top(b, n):
        rows = b[:n]
        return rows.sum()

    a = np.arange(10, dtype=np.int32)
    np.testing.assert_array_equal(head(a, 4), a[:4])
    b = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert top(b, 2) == b[:2].sum()


def test_slice_types_are_numbas():
    from taipan import typeof, types

    assert typeof(slice(3)) == types.slice2_type
    assert typeof(slice(1, 2, 1)) == types.slice2_type
    assert typeof(slice(1, 2, np.int64(1))) == types.slice2_type
    assert typeof(slice(None, None, -1)) == types.slice3_type
    assert isinstance(types.slice3_type, types.SliceType)
    assert str(types.slice2_type) == "slice2_type"


@njit
def list_store(items, start, stop, step, other):
    items[slice(start, stop, step)] = other
    return items


@njit
def list_delete(items, s):
    del items[s]
    return items


def test_list_stores_and_deletes_through_slice_values():
    before = live_blocks()
    for start, stop, step in itertools.product(BOUNDS[:7], BOUNDS[:7], STEPS):
        s = slice(start, stop, step)
        base = list(range(8))
        expected = base.copy()
        del expected[s]
        assert list_delete(base.copy(), s) == expected, s
        width = len(range(8)[s])
        values = [100, 101, 102][:width] if step not in (None, 1) else [100, 101, 102]
        for other in [values] if values else []:  # an empty list has no type to pass
            got, error = None, None
            try:
                got = list_store(base.copy(), start, stop, step, other)
            except ValueError as e:
                error = e
            try:
                wanted = base.copy()
                wanted[s] = other
            except ValueError:
                assert error is not None, s
                continue
            assert error is None and got == wanted, s
    assert_same(list_store, [1, 2, 3], 0, 3, 0, [4])
    assert live_blocks() == before


def test_repeated_tuples_share_their_items():
    @njit
    def repeated(n):
        t = 2 * (np.ones(n), "ab" * n)
        return t, t[2].sum()

    before = live_blocks()
    t, total = repeated(3)
    assert total == 3.0 and t[1] == t[3] == "ababab"
    t[0][0] = 5.0  # one array, twice in the tuple, as CPython's repetition shares it
    assert t[2][0] == 5.0
    del t
    assert live_blocks() == before
