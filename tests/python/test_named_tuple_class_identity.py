"""Two named tuple classes of one qualified name (a factory calling namedtuple("P", ...) twice)
are different classes in compiled code too: isinstance() decides on the registry's name of each
class (NamedTupleBoxing: "module.P", then "module.P#2"), which the resolver now uses for the
class as the instances' type does. Before, both classes were "module.P", and isinstance(a, B)
was True where Python says False."""

import collections

import pytest

from taipan import njit, typeof
from taipan.errors import UnsupportedError
from taipan.runtime import live_blocks


def make_point_class():
    return collections.namedtuple("P", ("x", "y"))


A = make_point_class()
B = make_point_class()


@pytest.fixture(autouse=True)
def no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


def test_classes_of_one_name_are_distinct_types():
    assert typeof(A(1, 2)) != typeof(B(1, 2))
    assert typeof(A(1, 2)) == typeof(A(3, 4))


@njit
def is_a(p):
    return isinstance(p, A)


@njit
def is_b(p):
    return isinstance(p, B)


def test_isinstance_of_own_class_and_of_tuple():
    @njit
    def check(p):
        return isinstance(p, A), isinstance(p, tuple), isinstance(p, list)

    assert check(A(1, 2)) == check.py_func(A(1, 2)) == (True, True, False)
    assert is_b(B(1.5, 2)) is True


def test_the_other_class_of_the_same_name_is_not_taken_for_it():
    # Python says False; taipan cannot see a named tuple class's bases while compiling, so it
    # refuses rather than answer (it answered True).
    with pytest.raises(UnsupportedError, match="P#2|isinstance"):
        is_b(A(1, 2))
    with pytest.raises(UnsupportedError, match=r"the value is NamedUniTuple\(int64 x 2, P"):
        is_a(B(1, 2))


def test_instances_box_back_into_their_own_class():
    @njit
    def rebuild(p):
        return type(p)(p.y, p.x), p

    for cls in (A, B):
        made, same = rebuild(cls(1, 2))
        assert type(made) is cls and type(same) is cls
        assert made == (2, 1)
