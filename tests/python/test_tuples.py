"""Tuples: building, unpacking, indexing, iterating, returning, and tuple arguments."""

from __future__ import annotations

import math

import pytest
from conftest import assert_same

import taipan
from taipan import njit


@njit
def build(a, b):
    return (a, b, a + b)


@njit
def build_mixed(a, x):
    return a, x, a > 0, a * 1j


@njit
def single(a):
    return (a,)


@njit
def nested(a, b):
    return (a, (b, a), ((a + b,),))


@njit
def unpack(t):
    a, b, c = t
    return c, b, a


@njit
def swap(a, b):
    a, b = b, a
    return a, b


@njit
def rotate(a, b, c):
    a, b, c = b, c, a
    return a, b, c


@njit
def unpack_nested(t):
    (a, b), c = t
    return a + b + c


@njit
def index_const(t):
    return t[0], t[1], t[2], t[-1], t[-2], t[-3]


@njit
def index_hetero(t):
    return t[0] * 2, t[1] * 2.0, t[-1]


@njit
def slice_tuple(t):
    return t[1:], t[:2], t[::-1], t[::2]


@njit
def iterate_sum(t):
    total = 0
    for v in t:
        total += v
    return total


@njit
def iterate_float(t):
    total = 0.0
    count = 0
    for v in t:
        if v < 0:
            continue
        total += v * v
        count += 1
    return total, count


@njit
def iterate_break(t, stop):
    last = -1
    for v in t:
        if v == stop:
            break
        last = v
    return last


@njit
def index_loop(t):
    total = 0
    for i in range(len(t)):
        total += t[i] * (i + 1)
    return total


@njit
def length(t):
    return len(t)


@njit
def divmod_pair(a, b):
    q = a // b
    r = a % b
    return q, r


@njit
def use_divmod_pair(a, b):
    q, r = divmod_pair(a, b)
    return q * b + r


@njit
def tuple_compare(s, t):
    return s == t, s != t, s < t, s <= t, s > t, s >= t


@njit
def tuple_equal(s, t):
    return s == t, s != t


@njit
def tuple_add(s, t):
    return s + t


@njit
def tuple_contains(t, x):
    return x in t, x not in t


@njit
def empty_tuple():
    return ()


@njit
def tuple_arg_passthrough(t):
    return t


@njit
def tuple_in_loop(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@njit
def enumerate_tuple(t):
    total = 0
    for i, v in enumerate(t):
        total += i * v
    return total


@njit
def zip_tuples(t, s):
    total = 0
    for u, w in zip(t, s):
        total += u * w
    return total


@njit
def tuple_hash_like(t):
    h = 17
    for v in t:
        h = (h * 31 + v) % 1000000007
    return h


def test_build():
    assert_same(build, 1, 2)
    assert_same(build, 1.5, -2.5)
    assert_same(build_mixed, 3, 0.5)
    assert_same(build_mixed, -3, math.nan)
    assert_same(single, 7)
    assert_same(single, 7.5)
    assert_same(nested, 1, 2)
    assert_same(nested, 1.0, 2)


def test_unpack():
    assert_same(unpack, (1, 2, 3))
    assert_same(unpack, (1.5, 2, True))
    assert_same(swap, 1, 2)
    assert_same(swap, 1.5, -2.5)
    # Each assignment has its own type (Numba's SSA): the swapped values keep theirs
    assert_same(swap, 3, 2.5)
    assert_same(rotate, 1, 2, 3)
    assert_same(unpack_nested, ((1, 2), 3))
    assert_same(unpack_nested, ((1.5, 2), 3))


def test_constant_index():
    assert_same(index_const, (10, 20, 30))
    assert_same(index_const, (1.5, -2.5, math.inf))
    assert_same(index_hetero, (3, 1.5, True))
    assert_same(index_hetero, (3, 1.5, 2 + 3j))


def test_slicing():
    assert_same(slice_tuple, (1, 2, 3, 4, 5))
    assert_same(slice_tuple, (1, 2.5, 3))


@pytest.mark.parametrize(
    "t", [(1, 2, 3), (5,), (-1, -2, -3, -4, -5, -6, -7, -8), (2**61, 2**61, -(2**62))]
)
def test_iterate_unituple(t):
    assert_same(iterate_sum, t)
    assert_same(index_loop, t)
    assert_same(length, t)


def test_iterate_floats():
    assert_same(iterate_float, (1.5, -2.0, 3.0, 0.0, -0.0))
    assert_same(iterate_sum, (0.5, 0.25, 0.125))
    assert_same(iterate_break, (1, 2, 3, 4), 3)
    assert_same(iterate_break, (1, 2, 3, 4), 9)


def test_iterate_empty_tuple():
    assert_same(length, ())


def test_len():
    assert_same(length, (1, 2.0, True))
    assert_same(length, ((1, 2), (3, 4)))


def test_return_several_values():
    for a, b in [(7, 2), (-7, 2), (7, -2), (0, 5)]:
        assert_same(divmod_pair, a, b)
        assert_same(use_divmod_pair, a, b)


def test_tuple_equality():
    for s, t in [((1, 2), (1, 2)), ((1, 2), (1, 3)), ((1.5, 2.5), (1.5, 2.0))]:
        assert_same(tuple_equal, s, t)


def test_tuple_equality_mixed_element_types():
    assert_same(tuple_equal, (1.5, 2), (1.5, 2.0))


def test_tuple_equality_different_lengths():
    assert_same(tuple_equal, (1, 2), (1,))


def test_tuple_comparisons():
    for s, t in [((1, 2), (1, 2)), ((1, 2), (1, 3)), ((2, 0), (1, 9)), ((1.5, 2), (1.5, 2.0))]:
        assert_same(tuple_compare, s, t)


def test_tuple_concatenation():
    assert_same(tuple_add, (1, 2), (3,))
    assert_same(tuple_add, (1, 2.5), (True, 3))


def test_tuple_contains():
    assert_same(tuple_contains, (1, 2, 3), 2)
    assert_same(tuple_contains, (1, 2, 3), 5)
    assert_same(tuple_contains, (1.5, 2.5), 2.5)


def test_empty_tuple():
    assert_same(empty_tuple)


@pytest.mark.parametrize(
    "t",
    [
        (1, 2),
        (1.5, 2.5, 3.5),
        (1, 2.5, True, 3j),
        ((1, 2), (3.0, 4)),
        (-(2**63), 2**63 - 1),
        (math.nan, -0.0),
    ],
)
def test_tuple_roundtrip(t):
    assert_same(tuple_arg_passthrough, t)


def test_tuple_in_loop():
    for n in [0, 1, 2, 10, 90]:
        assert_same(tuple_in_loop, n)


def test_enumerate():
    assert_same(enumerate_tuple, (1, 2, 3))


def test_zip():
    assert_same(zip_tuples, (1, 2, 3), (4, 5, 6))
    assert_same(zip_tuples, (1, 2, 3), (4, 5))


def test_tuple_hash_like():
    assert_same(tuple_hash_like, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10))


def test_tuple_types():
    assert taipan.typeof((1, 2, 3)) == taipan.types.UniTuple(taipan.int64, 3)
    assert taipan.typeof((1, 2.0)) == taipan.types.Tuple([taipan.int64, taipan.float64])
    build(1, 2)
    assert str(build.nopython_signatures[0].return_type) == str(taipan.UniTuple(taipan.int64, 3))


def test_tuple_signature():
    @njit("float64(UniTuple(float64, 3))")
    def norm2(t):
        return t[0] * t[0] + t[1] * t[1] + t[2] * t[2]

    assert norm2((1.0, 2.0, 3.0)) == 14.0

    @njit(taipan.float64(taipan.Tuple([taipan.int64, taipan.float64])))
    def first_plus_second(t):
        return t[0] + t[1]

    assert first_plus_second((1, 2.5)) == 3.5


def test_out_of_range_constant_index_is_compile_error():
    @njit
    def f(t):
        return t[3]

    with pytest.raises(taipan.errors.TypingError):
        f((1, 2, 3))


def test_tuple_index_variable():
    @njit
    def f(t, i):
        return t[i]

    for i in (0, 1, 2, -1, -3):
        assert_same(f, (10, 20, 30), i)


def test_tuple_index_variable_out_of_range():
    @njit
    def f(t, i):
        return t[i]

    assert_same(f, (10, 20, 30), 3)
    assert_same(f, (10, 20, 30), -4)


@njit
def starred_displays(a, b):
    return (1, *a), (*a,), (1, *a, (1, 2), *b), (*a, *b), (*(), 2)


@njit
def tuple_constructor(a):
    return tuple(a), tuple(), tuple((a, 1))  # noqa: C408, C409 - the constructor under test


@pytest.mark.parametrize("a", [(4, 5), (4, 5.5), (), ("x", -0.0)])
@pytest.mark.parametrize("b", [(1,), (), (2.5, (3, 4))])
def test_starred_items_in_tuple_displays(a, b):
    assert starred_displays(a, b) == starred_displays.py_func(a, b)
    assert tuple_constructor(a) == tuple_constructor.py_func(a)


def test_starred_list_in_a_tuple_display_is_a_typing_error():
    @njit
    def from_list(items):
        return (*items,)

    with pytest.raises(taipan.errors.TypingError, match="unpacking .* takes tuples only"):
        from_list([4, 5])

    @njit
    def tuple_of_list(items):
        return tuple(items)

    with pytest.raises(taipan.errors.TypingError, match="length must be known while compiling"):
        tuple_of_list([4, 5])


@njit
def unrolled_sum(t):
    total = 0.0
    for x in taipan.literal_unroll(t):
        total += x
    return total


def test_literal_unroll_of_uniform_tuples():
    for t in [(1, 2, 3), (0.5, -0.0), (7,)]:
        assert unrolled_sum(t) == unrolled_sum.py_func(t)
    assert taipan.literal_unroll((1, "a")) == (1, "a")


def test_literal_unroll_of_heterogeneous_tuple():
    # One copy of the body per item (tests/python/test_literal_unroll.py has the rest).
    for t in [(1, 2.5), (True, 3, -0.5)]:
        assert unrolled_sum(t) == unrolled_sum.py_func(t)
