"""frozenset in compiled code: frozenset() and frozenset(iterable), the methods that do not
change a set and the operators (a frozenset on the left gives a frozenset, as in CPython),
frozensets passed in and returned (as frozensets, in CPython's iteration order). Methods that
would change one are TypingErrors, as CPython has no such attribute."""

import numpy as np
import pytest
from numpy_checks import check_in_order as check

from taipan import njit
from taipan.errors import TypingError


def empty():
    f = frozenset()
    return len(f), bool(f)


def of_range(n):
    return frozenset(range(n))


def of_list(items):
    return frozenset(items)


def of_literal(x):
    # A set display with a variable: CPython builds it item by item (a display of constants
    # is a folded constant whose order CPython's compiler rebuilds).
    return frozenset({5, x, 9, 1, -3})


def of_string(s):
    return frozenset(s)


def of_array(a):
    return frozenset(a)


def of_generator(n):
    return frozenset(i * i % 7 for i in range(n))


def of_frozenset(n):
    f = frozenset(range(n))
    return frozenset(f)


def membership(n):
    f = frozenset(range(0, n, 3))
    return 3 in f, 4 in f, 4 not in f, len(f)


def iterate(n):
    f = frozenset([x * 37 % 11 for x in range(n)])
    out = []
    for x in f:
        out.append(x)  # noqa: PERF402 - a loop is what is tested
    return out, sorted(f), list(f)


def operators(n):
    a = frozenset(range(n))
    b = {x for x in range(2, n + 3)}
    return a | b, a & b, a - b, a ^ b, b | a, b - a


def methods(n):
    a = frozenset(range(n))
    b = [x * 2 for x in range(n)]
    return (
        a.union(b),
        a.intersection(b),
        a.difference(b),
        a.symmetric_difference(b),
        a.issubset(b),
        a.issuperset(range(2)),
        a.isdisjoint([-1]),
        a.copy(),
    )


def comparisons(n):
    a = frozenset(range(n))
    b = set(range(n + 1))
    c = frozenset(range(n))
    return a == c, a != c, a == b, a < b, a <= b, a > b, a >= c


def augmented(n):
    a = frozenset(range(n))
    alias = a
    a |= {100, 101}
    a -= frozenset([0])
    a &= set(range(1, 101))
    a ^= {7, 200}
    return a, alias


def strings():
    return frozenset(["b", "a", "c"]) | frozenset(["a", "z"])


def tuples(n):
    return frozenset((i, i % 2) for i in range(n))


@pytest.mark.parametrize(
    "function, args",
    [
        (empty, ()),
        (of_range, (0,)),
        (of_range, (12,)),
        (of_list, ([3, -1, 3, 2**40, -(2**40)],)),
        (of_list, ([1.5, -0.0, 0.0, 2.0],)),
        (of_literal, (1,)),
        (of_string, ("mississippi",)),
        (of_array, (np.array([4, 1, 4, 9]),)),
        (of_generator, (20,)),
        (of_frozenset, (6,)),
        (membership, (10,)),
        (iterate, (15,)),
        (operators, (6,)),
        (methods, (5,)),
        (comparisons, (4,)),
        (augmented, (9,)),
        (strings, ()),
        (tuples, (5,)),
    ],
)
def test_frozenset(function, args):
    check(function, *args)


def test_frozenset_argument_and_result():
    def f(a, b):
        return a | b, a - b, len(a), 2 in a

    check(f, frozenset([1, 2, 3, 40]), frozenset([3, 4]))

    def unchanged(a):
        return a

    check(unchanged, frozenset(["x", "y", "zz"]))


def test_frozenset_argument_of_set_parameter_is_not_reflected():
    def f(a):
        return a.union([9])

    a = frozenset([1, 2])
    check(f, a)
    assert a == frozenset([1, 2])


def add(a):
    a.add(1)


def discard(a):
    a.discard(1)


def remove(a):
    a.remove(1)


def pop(a):
    a.pop()


def clear(a):
    a.clear()


def update(a):
    a.update([1])


def intersection_update(a):
    a.intersection_update([1])


@pytest.mark.parametrize(
    "mutation", [add, discard, remove, pop, clear, update, intersection_update]
)
def test_frozenset_mutation_is_refused(mutation):
    changed = njit(mutation)

    @njit
    def f(n):
        a = frozenset(range(n))
        changed(a)
        return len(a)

    with pytest.raises(TypingError, match="frozenset"):
        f(3)
    with pytest.raises(TypingError, match="frozenset"):
        changed(frozenset([1, 2]))


def test_set_and_frozenset_do_not_share_a_name():
    def f(n):
        a = set(range(n))
        if n > 2:
            a = frozenset(range(n))
        return len(a)

    with pytest.raises(TypingError):
        njit(f)(3)


# hash(frozenset) is CPython's frozenset_hash exactly (Objects/setobject.c): the xor of the
# items' shuffled hashes mixed with the size, so it equals hash() of the same frozenset in Python.


def hash_of(items):
    return hash(frozenset(items))


def hash_of_range(n):
    return hash(frozenset(range(n)))


@pytest.mark.parametrize(
    "items",
    [
        (1, 2, 3),
        (1, 1, 2),
        (-1, -2, 2**62, 5),
        (1.5, 2.0, -0.0),
        ("a", "bc", ""),
        ("é", "ß", "漢字"),
        ((1, "x"), (2, "y")),
        ((1, 2), (3, 4), (1, 2)),
    ],
)
def test_hash_equals_cpythons(items):
    check(hash_of, items)


@pytest.mark.parametrize("n", [0, 1, 2, 100, 1000])
def test_hash_of_empty_and_large_frozensets(n):
    check(hash_of_range, n)
