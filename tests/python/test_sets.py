"""Sets in compiled code (Numba's reflected sets): set(), set(iterable), literals,
comprehensions, every method and operator, sets passed in (changes show in the caller's set)
and returned. The table follows CPython's setobject.c, so iteration order is compared with
CPython's, not only the contents. Sets in CUDA kernels stay refused (frozenset: test_frozenset.py)."""

import random

import numpy as np
import pytest
from numpy_checks import check_in_order as check
from numpy_checks import no_allocation_leak

from taipan import cuda, float64, njit, void
from taipan.errors import TypingError, UnsupportedError

# Construction ---------------------------------------------------------------------------------


def empty_set():
    s = set()
    return len(s), bool(s)


def set_of_range(n):
    return set(range(n))


def set_of_iterable(items):
    s = set(items)
    return len(s), list(s)


def literal():
    s = {3, 1, 2, 1}  # noqa: B033 (a repeated key is added once)
    return s


def literal_of_strings(first):
    # A non-constant item: CPython folds an all-constant display into a frozenset constant,
    # whose order after a .pyc round trip depends on the hash seed of the process that wrote it.
    return {first, "a", "c", "a"}  # noqa: B033


def literal_of_tuples():
    s = {(1, 2), (3, 4), (1, 2)}
    return list(s)


def comprehension(n):
    return {i % 7 - 3 for i in range(n) if i != 4}


def set_from_generator(n):
    return set(i * i for i in range(n))  # noqa: C401 (set() consuming a generator)


def set_of_set(n):
    a = set(range(n))
    b = set(a)
    b.add(-1)
    return len(a), list(b)


def widened_by_adds(n):
    s = set()
    for i in range(n):
        s.add(i * 1.5)
    return s


@pytest.mark.parametrize(
    "function, args",
    [
        (empty_set, ()),
        (set_of_range, (0,)),
        (set_of_range, (20,)),
        (set_of_iterable, ([5, 3, 5, -1, 2**40],)),
        (set_of_iterable, (np.array([1.5, -0.0, 0.0, 2.5, 1.5]),)),
        (set_of_iterable, (np.arange(30, dtype=np.int32),)),
        (set_of_iterable, ("hello world",)),
        (set_of_iterable, ((4, 4, 2),)),
        (set_of_iterable, (["x", "y", "x"],)),
        (set_of_iterable, ([True, False, True],)),
        (literal, ()),
        (literal_of_strings, ("b",)),
        (literal_of_tuples, ()),
        (comprehension, (30,)),
        (set_from_generator, (12,)),
        (set_of_set, (40,)),
        (widened_by_adds, (25,)),
    ],
)
def test_construction_matches_python(function, args):
    check(function, *args)


# Methods --------------------------------------------------------------------------------------


def element_methods(keys, removed):
    s = set(keys)
    for k in removed:
        s.discard(k)
    s.add(keys[0])
    c = s.copy()
    c.add(keys[-1])
    popped = [s.pop() for _ in range(min(2, len(s)))]
    s.remove(keys[-1]) if keys[-1] in s else None
    out = list(s), popped, list(c), keys[0] in s, keys[-1] not in c
    s.clear()
    s.add(keys[0])
    return out, list(s), len(s)


def remove_missing(n):
    s = set(range(n))
    s.remove(n + 1)
    return len(s)


def remove_missing_string(word):
    s = {"a", "b"}
    s.remove(word)
    return len(s)


def pop_empty():
    s = {1}
    s.pop()
    return s.pop()


def binary_methods(a, b):
    x, y = set(a), set(b)
    u = x.copy()
    u.update(y)
    i = x.copy()
    i.intersection_update(y)
    d = x.copy()
    d.difference_update(y)
    s = x.copy()
    s.symmetric_difference_update(y)
    return (
        list(x.union(y)),
        list(x.intersection(y)),
        list(x.difference(y)),
        list(x.symmetric_difference(y)),
        list(u),
        list(i),
        list(d),
        list(s),
        x.issubset(y),
        x.issuperset(y),
        x.isdisjoint(y),
    )


def methods_with_iterables(a, items):
    x = set(a)
    u = x.copy()
    u.update(items)
    i = x.copy()
    i.intersection_update(items)
    d = x.copy()
    d.difference_update(range(3))
    s = x.copy()
    s.symmetric_difference_update(items)
    return (
        list(x.union(items)),
        list(x.intersection(items)),
        list(x.difference(items)),
        list(x.symmetric_difference(items)),
        list(u),
        list(i),
        list(d),
        list(s),
        x.issubset(items),
        x.issuperset(items),
        x.isdisjoint(items),
    )


def operators(a, b):
    x, y = set(a), set(b)
    u = x.copy()
    u |= y
    i = x.copy()
    i &= y
    d = x.copy()
    d -= y
    s = x.copy()
    s ^= y
    return (
        list(x | y),
        list(x & y),
        list(x - y),
        list(x ^ y),
        list(y - x),
        list(u),
        list(i),
        list(d),
        list(s),
        x == y,
        x != y,
        x < y,
        x <= y,
        x > y,
        x >= y,
        x == x.copy(),
        x <= x,  # noqa: PLR0124
        x < x,  # noqa: PLR0124
    )


def self_operations(a):
    x = set(a)
    u = x | x
    i = x & x
    d = x - x
    s = x ^ x
    x.update(x)
    y = set(a)
    y.difference_update(y)
    z = set(a)
    z.symmetric_difference_update(z)
    return list(u), list(i), len(d), len(s), list(x), len(y), len(z)


PAIRS = [
    ([1, 2, 3, 4], [3, 4, 5]),
    ([1, 2], [1, 2, 3]),
    ([], [1]),
    ([7], []),
    (list(range(-50, 50, 3)), list(range(0, 200, 7))),
    ([2**62, -(2**62), 5, -1, -2], [-1, 5, 2**61 - 1]),
    ([0.5, -0.0, 1e300, 2.25], [0.0, 2.25, float("inf")]),
    (["a", "bb", "ccc", "é"], ["bb", "zz", "é", "a"]),
    (list(range(1000)), list(range(990, 1010))),
]


@pytest.mark.parametrize("a, b", [p for p in PAIRS if p[0] and p[1]])
def test_element_methods_match_python(a, b):
    check(element_methods, a, b)


@pytest.mark.parametrize("a, b", PAIRS)
def test_methods_and_operators_match_python(a, b):
    if not a or not b:
        a, b = (a or [1]), (b or [2])  # a typed empty list cannot be passed in
    check(binary_methods, a, b)
    check(operators, a, b)
    check(self_operations, a)


@pytest.mark.parametrize(
    "a, items", [([1, 2, 3], [3, 9, 1, 9]), (list(range(40)), (5, 1, 77)), ([4, 8], np.arange(6))]
)
def test_methods_take_iterables(a, items):
    check(methods_with_iterables, a, items)


def test_missing_keys_raise_key_error():
    with no_allocation_leak(), pytest.raises(KeyError) as error:
        njit(remove_missing)(5)
    assert error.value.args == (6,)
    with no_allocation_leak(), pytest.raises(KeyError) as error:
        njit(remove_missing_string)("zz")
    assert error.value.args == ("zz",)
    with no_allocation_leak(), pytest.raises(KeyError, match="pop from an empty set"):
        njit(pop_empty)()


# Iteration order ------------------------------------------------------------------------------


def churn(keys, removed, extra):
    s = set()
    steps = []
    for k in keys:
        s.add(k)
    steps.append(list(s))
    for r in removed:
        s.discard(r)
    steps.append(list(s))
    for k in extra:
        s.add(k)
    steps.append(list(s))
    pops = []
    for _ in range(min(3, len(s))):
        pops.append(s.pop())
    steps.append(pops)
    total = 0
    for k in s:
        total += 1
    return steps, len(s), total


def _random_keys(kind, count, rng):
    if kind == "small ints":
        return [rng.randint(-40, 40) for _ in range(count)]
    if kind == "large ints":
        return [rng.randint(-(2**63), 2**63 - 1) for _ in range(count)]
    if kind == "floats":
        return [rng.uniform(-1e3, 1e3) for _ in range(count)] + [-0.0, 1e308, 0.5]
    return [f"w{rng.randint(0, 300)}" for _ in range(count)]


@pytest.mark.parametrize("kind", ["small ints", "large ints", "floats", "strings"])
def test_iteration_order_matches_cpython_after_removals_and_growth(kind):
    rng = random.Random(kind)
    compiled = njit(churn)
    for count in (1, 5, 9, 40, 300):
        keys = _random_keys(kind, count, rng)
        removed = keys[:: rng.randint(1, 4)]
        extra = _random_keys(kind, count // 2 + 1, rng)
        with no_allocation_leak():
            got = compiled(keys, removed, extra)
        assert got == churn(keys, removed, extra), (kind, count)


# Sets across the boundary ---------------------------------------------------------------------


def add_and_discard(s, k):
    s.add(k)
    s.discard(-k)
    return len(s)


def read_only(s):
    total = 0
    for k in s:
        total += k
    return total, 3 in s


def returns_union(s, t):
    return s | t


def strings_in(words, probe):
    return probe in words, list(words)


def test_set_arguments_are_reflected():
    compiled = njit(add_and_discard)
    for start, k in [({1, 2, 3}, 5), ({1, -5, 9}, 5), (set(range(100)), 1000)]:
        mine, theirs = set(start), set(start)
        with no_allocation_leak():
            assert compiled(mine, k) == add_and_discard(theirs, k)
        assert mine == theirs and list(mine) == list(theirs)
        mine.add(12345)  # the caller's set stays an ordinary, consistent set
        theirs.add(12345)
        assert list(mine) == list(theirs)


def test_unchanged_set_arguments_keep_their_table():
    s = set(range(40))
    for k in range(0, 40, 3):
        s.discard(k)
    before = list(s)
    with no_allocation_leak():
        assert njit(read_only)(s) == read_only(s)
    assert list(s) == before


def test_sets_are_returned_as_python_sets():
    check(returns_union, {1, 2, 3}, {3, 4, 100})
    check(returns_union, {"a", "b"}, {"c"})
    check(strings_in, {"x", "yy", "zzz"}, "yy")
    s = {1, 9, 17, 25}
    s.discard(9)
    got = njit(returns_union)(s, {33})
    assert list(got) == list(returns_union(s, {33}))
    got.add(41)  # a consistent CPython set, dummies and all
    expected = returns_union(s, {33})
    expected.add(41)
    assert list(got) == list(expected)


def test_nan_keys_are_kept_apart():
    def nans(a):
        s = set(a)
        return len(s)

    check(nans, np.array([np.nan, np.nan, 1.0]))


# What stays unsupported -----------------------------------------------------------------------


def frozen():
    s = frozenset()
    return len(s)


def test_frozenset_compiles():
    # (test_frozenset.py covers it in depth)
    assert njit(frozen)() == 0


@pytest.mark.parametrize("value", [set(), frozenset()])
def test_untypable_set_arguments_are_refused(value):
    def size(s):
        return len(s)

    with pytest.raises((TypingError, UnsupportedError), match=r"argument 0 \(s\)"):
        njit(size)(value)


def test_mixed_key_types_are_typing_errors():
    def mixed():
        s = {1, 2}
        s.add("a")
        return len(s)

    with pytest.raises(TypingError):
        njit(mixed)()


def test_sets_in_cuda_kernels_are_unsupported():
    def kernel(x):
        s = set()
        x[0] = len(s)

    with pytest.raises(UnsupportedError, match="set"):
        cuda.compile_ptx(kernel, void(float64[:]))


def test_returning_a_set_argument_gives_back_the_callers_set():
    def grow(s, k):
        s.add(k)
        return s

    mine = {1.5, 2.5}
    with no_allocation_leak():
        got = njit(grow)(mine, 9.5)
    assert got is mine and mine == {1.5, 2.5, 9.5}


def test_adding_a_wider_key_to_a_typed_set_is_a_typing_error():
    def aliased():
        s = {1, 2}
        t = s
        t.add(2.5)
        return len(s)

    # Never a copy that `s` would not see: the key must fit the set's keys.
    with pytest.raises(TypingError, match="does not match"):
        njit(aliased)()


def tuples_of_strings(words):
    s = {("a", "b"), ("c", "d")}
    for w in words:
        s.add((w, w + "x"))
    s.discard(("a", "b"))
    popped = s.pop()
    u = s | {("zz", "y")}
    return list(s), popped, list(u), ("c", "d") in s


def test_keys_holding_strings_are_retained_and_released():
    check(tuples_of_strings, ["p", "q", "c"])
    mine, theirs = {"a", "b", "c"}, {"a", "b", "c"}
    with no_allocation_leak():
        assert njit(add_and_discard_string)(mine) == add_and_discard_string(theirs)
    assert list(mine) == list(theirs)


def add_and_discard_string(s):
    s.add("new")
    s.discard("a")
    return len(s)


def test_a_set_argument_inside_a_returned_tuple_is_the_callers_set():
    def maybe_replace(sa, sb):
        if len(sb) > 1:
            sa = {11.0, 22.0}
        sa.add(42.0)
        return sa, len(sb)

    for other in ({0.0}, {5.0, 6.0}):
        mine, theirs = {1.0, 2.0}, {1.0, 2.0}
        with no_allocation_leak():
            got = njit(maybe_replace)(mine, other)
        expected = maybe_replace(theirs, other)
        assert got == expected and mine == theirs
        assert (got[0] is mine) == (expected[0] is theirs)


def _set_literal_order_functions():
    """Literals whose items collide in an 8-slot table, so the order depends on how the set is
    built: CPython makes a literal of three or more constants from a frozenset constant."""

    def constants_collide():
        return list({5, 1, 9, -3})

    def folded_constants_collide():
        return list({1 + 4, 1, 3 * 3, -3, 17})

    def tuples_collide():
        return list({(1, 2), (9, 1), (1, 9), (17, 1)})

    def two_constants():
        return list({9, 1})

    return [constants_collide, folded_constants_collide, tuples_collide, two_constants]


@pytest.mark.parametrize("function", _set_literal_order_functions(), ids=lambda f: f.__name__)
def test_set_literal_iteration_order_matches_cpython(function):
    compiled = njit(function)
    with no_allocation_leak():
        assert compiled() == function()


def test_set_literal_with_a_name_keeps_the_order_of_adding():
    def names_are_not_constants(a):
        return list({5, a, 9, -3, 17})

    compiled = njit(names_are_not_constants)
    with no_allocation_leak():
        for a in (1, 25, -11, 0):
            assert compiled(a) == names_are_not_constants(a)
