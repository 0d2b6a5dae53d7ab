"""Named tuples (collections.namedtuple and typing.NamedTuple classes) in compiled code: passed in
and returned (boxed back into the same class), made by calling the class (positional and keyword
arguments), attributes, indexing, unpacking, len, iteration and comparison as tuples. Results are
compared with the Python function's, class included."""

import collections
import typing

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError

Point = collections.namedtuple("Point", ("x", "y", "z"))
Point2 = collections.namedtuple("Point2", ("x", "y", "z"))
Rect = collections.namedtuple("Rect", ("width", "height"))


class Pair(typing.NamedTuple):
    first: int
    second: float


def same(got, expected):
    assert type(got) is type(expected)
    assert got == expected


def attributes(p):
    return p.z, p.y, p.x


def test_attributes_of_an_argument():
    f = njit(attributes)
    for args in [(4, 5, 6), (4, 5.5, 6j), (-0.0, "s", True)]:
        p = Point(*args)
        same(f(p), attributes(p))


def make_point(a, b, c):
    return Point(a, b, c)


def make_point_keywords(a, b, c):
    return Point(z=c, y=b, x=a)


def make_point_mixed(a, b, c):
    return Point(a, z=c, y=b)


def test_construct_and_return():
    for function in (make_point, make_point_keywords, make_point_mixed):
        f = njit(function)
        for args in [(4, 5, 6), (4, 5.5, 6j), (1, "two", 3.0)]:
            with no_allocation_leak():
                same(f(*args), function(*args))


def test_typing_named_tuple_class():
    @njit
    def make(a, b):
        p = Pair(a, b)
        return p, p.first + p.second

    with no_allocation_leak():
        got = make(3, 0.5)
    same(got[0], Pair(3, 0.5))
    assert got[1] == 3.5
    same(njit(lambda p: p)(Pair(1, 2.0)), Pair(1, 2.0))


def as_tuple_operations(p):
    a, b, c = p
    total = 0
    for item in p:
        total += item
    return len(p), p[0], p[-1], a + b + c, total, p == (a, b, c), p < (a, b, c + 1)


def test_tuple_operations():
    f = njit(as_tuple_operations)
    for args in [(1, 2, 3), (-5, 0, 5)]:
        p = Point(*args)
        assert f(p) == as_tuple_operations(p)


def test_comparisons_between_named_tuples():
    @njit
    def compare(p, q):
        return p == q, p != q, p < q, p >= q

    for a, b in [((1, 2, 3), (1, 2, 3)), ((1, 2, 3), (1, 2, 4)), ((2, 0, 0), (1, 9, 9))]:
        assert compare(Point(*a), Point(*b)) == compare.py_func(Point(*a), Point(*b))


def test_classes_are_distinct_specialisations():
    @njit
    def identity(x):
        return x

    for value in [(1, 2, 3), Point(1, 2, 3), Point2(1, 2, 3)]:
        same(identity(value), value)
    assert len(identity.signatures) == 3


def make_with_references(n):
    r = Rect(list(range(n)), np.zeros(n + 1))
    return Point(r, len(r.width), len(r.height))


def test_items_with_references():
    f = njit(make_with_references)
    for n in (3, 0):
        with no_allocation_leak():
            got = f(n)
            expected = make_with_references(n)
            assert type(got) is Point and type(got.x) is Rect
            assert got.x.width == expected.x.width
            np.testing.assert_array_equal(got.x.height, expected.x.height)
            assert got[1:] == expected[1:]
            del got  # its array is the block the call allocated


def test_string_item_in_constructor():
    @njit
    def make():
        return Rect(10, "somestring")

    with no_allocation_leak():
        same(make(), Rect(10, "somestring"))


def test_unification_of_one_class():
    @njit
    def call(i, j):
        if j == 0:
            result = Rect(i, -321)
        else:
            result = Rect(i, j)
        return result

    same(call(123, 1321), Rect(123, 1321))
    same(call(123, 0), Rect(123, -321))


def test_type_of_named_tuple_makes_instances():
    @njit
    def rebuild(p, a, b, c):
        return type(p)(a, b, c)

    same(rebuild(Point(1, 2, 3), 4, 5.5, 6), Point(4, 5.5, 6))


def test_construction_errors():
    @njit
    def missing(a):
        return Point(a, 1)

    with pytest.raises(TypingError, match="missing required argument: 'z'"):
        missing(1)

    @njit
    def unknown(a):
        return Point(a, 1, w=2)

    with pytest.raises(TypingError, match="unexpected keyword argument 'w'"):
        unknown(1)

    @njit
    def twice(a):
        return Point(a, 1, 2, x=2)

    with pytest.raises(TypingError, match="multiple values for argument 'x'"):
        twice(1)

    @njit
    def too_many(a):
        return Point(a, 1, 2, 3)

    with pytest.raises(TypingError, match="takes 3 positional arguments but 4"):
        too_many(1)


def test_isinstance():
    @njit
    def check(p):
        return isinstance(p, Point), isinstance(p, tuple), isinstance(p, list)

    assert check(Point(1, 2, 3)) == (True, True, False)

    @njit
    def literal_list():
        return isinstance([1, "a"], list), isinstance([1, "a"], tuple)

    assert literal_list() == (True, False)


def test_type_of_named_tuple_with_starred_arguments():
    @njit
    def rebuild(p, *args):
        return type(p)(*args)

    for args in [(4, 5, 6), (4, 5.5, 6j)]:
        same(rebuild(Point(1, 2, 3), *args), Point(*args))


def test_class_passed_as_an_argument():
    @njit
    def make(cls, a, b):
        return cls(a, b)

    same(make(Rect, 1, 2.5), Rect(1, 2.5))
    same(make(Pair, 1, 2.5), Pair(1, 2.5))


def test_replace():
    @njit
    def replaced(p, v):
        q = p._replace(y=v)
        return q, p._replace(z=v, x=-1)

    for v in (7, 2.5):
        got = replaced(Point(1, 2, 3), v)
        expected = replaced.py_func(Point(1, 2, 3), v)
        same(got[0], expected[0])
        same(got[1], expected[1])


def test_named_tuples_in_containers_keep_their_class():
    @njit
    def containers():
        d = {1: Rect(1, 2.5)}
        k = {Rect(3, 4): 1.5}
        l = [Rect(5, 6.0)]
        return d, k, l

    with no_allocation_leak():
        d, k, l = containers()
        same(d[1], Rect(1, 2.5))
        assert [type(key) for key in k] == [Rect]
        same(l[0], Rect(5, 6.0))
        del d, k, l


def test_tuple_of_a_named_tuple_is_a_tuple():
    @njit
    def plain(p):
        return tuple(p)

    got = plain(Rect(1, 2))
    assert type(got) is tuple and got == (1, 2)


def test_print_shows_the_class_and_fields(capsys):
    @njit
    def printed(p, q):
        print(p, q, Rect(3, -0.5))

    printed(Rect(1, 2.5), Pair(7, 1e300))
    printed.py_func(Rect(1, 2.5), Pair(7, 1e300))
    compiled, python = capsys.readouterr().out.splitlines()
    assert compiled == python
