"""Named tuple members in compiled code (taipan.namedtuples): ``_fields`` of a class and of an
instance, ``_make`` of tuples and lists, ``_asdict``, ``_replace``, field defaults (of
``namedtuple(..., defaults=...)`` and ``typing.NamedTuple``), and two classes sharing a name
staying apart. Results are compared with the Python function's, class included, and the
runtime's allocation counters must balance."""

import collections
import typing

import pytest
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError

Point = collections.namedtuple("Point", "x y")
Defaults = collections.namedtuple("Defaults", "a b c", defaults=(2, 3.5))


class Typed(typing.NamedTuple):
    u: int
    v: float = 1.5
    w: str = "w"


def _same_name_classes():
    first = collections.namedtuple("Same", "a b")
    second = collections.namedtuple("Same", "b a")
    return first, second


SameFirst, SameSecond = _same_name_classes()


def check(function, *args):
    expected = function(*args)
    with no_allocation_leak():
        got = njit(function)(*args)
        if isinstance(expected, dict):
            got = dict(got)  # a compiled dict comes back as a typed dict
        assert type(got) is type(expected)
        assert got == expected
        if isinstance(expected, tuple):
            assert [type(item) for item in got] == [type(item) for item in expected]
        del got


def fields_of_class_and_instance(p):
    return Point._fields, p._fields, Defaults._fields


def make_from_a_tuple(t):
    return Point._make(t), Point(0, 0)._make((t[1], t[0]))


def make_from_a_list(n):
    return Point._make([n, n + 1])


def as_dict(p):
    return p._asdict()


def replaced(p):
    return p._replace(y=-1), p._replace(x=p.y, y=p.x)


def with_defaults(a):
    return Defaults(a), Defaults(a, 7), Defaults(a, c=0.5), Defaults(c=1.0, a=a, b=a)


def typed_defaults(u):
    return Typed(u), Typed(u, 2.5), Typed(u, w="x")


def same_names(a):
    return SameFirst(a, 2.5), SameSecond(a, 4.5), (SameSecond(1, 2), SameFirst(3, 4))


@pytest.mark.parametrize(
    ("function", "args"),
    [
        (fields_of_class_and_instance, (Point(1, 2),)),
        (make_from_a_tuple, ((3, 4.5),)),
        (make_from_a_list, (5,)),
        (as_dict, (Point(1, 2),)),
        (replaced, (Point(1, 2),)),
        (with_defaults, (1,)),
        (typed_defaults, (3,)),
        (same_names, (1,)),
    ],
)
def test_members_match_python(function, args):
    check(function, *args)


def test_make_of_a_list_of_another_length_is_cpythons_type_error():
    def make(items):
        return Point._make(items)

    with pytest.raises(TypeError, match="Expected 2 arguments, got 3"):
        make([1, 2, 3])
    with no_allocation_leak(), pytest.raises(TypeError, match="Expected 2 arguments, got 3"):
        njit(make)([1, 2, 3])


def test_make_of_a_tuple_of_another_length_is_a_typing_error():
    with pytest.raises(TypingError, match="expected 2 items, got 3"):
        njit(lambda: Point._make((1, 2, 3)))()


def test_missing_field_without_a_default_is_a_typing_error():
    with pytest.raises(TypingError, match="missing"):
        njit(lambda: Defaults())()
    with pytest.raises(TypingError, match="missing required argument"):
        njit(lambda: Point(1))()


def test_same_name_classes_box_back_into_their_own_class():
    got = njit(same_names)(1)
    assert type(got[0]) is SameFirst and type(got[1]) is SameSecond
    assert got[1]._fields == ("b", "a")
