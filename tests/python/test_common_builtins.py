"""Everyday Python that compiled code used to refuse (issue 28, item 10): min() and max() of any
comparable items with key= and default=, sorted() and list.sort() with key= or of tuples and
strings, reversed(), f(*(a, b)), str.join of a generator expression, a dict or a set consumed
whole (list(d), sum(s)) and narrowing an Optional by a conditional expression. Each compiled
result is compared with CPython's (f.py_func), and every test that allocates checks that the
runtime's blocks are all freed."""

import math

import numpy as np
import pytest
from conftest import assert_same

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks


def assert_same_on_copies(f, items):
    """f(copy of items) as CPython and compiled give it, and the list each leaves behind."""
    expected_list, actual_list = list(items), list(items)
    expected = f.py_func(expected_list)
    assert f(actual_list) == expected
    assert actual_list == expected_list


@pytest.fixture
def no_leak():
    """Asserts that the test frees every block compiled code allocated in it."""
    before = live_blocks()
    yield
    assert live_blocks() == before


@njit
def negative(x):
    return -x


@njit
def second(pair):
    return pair[1]


@njit
def length(text):
    return len(text)


# ---------------------------------------------------------------------------------------------
# min() and max()


@njit
def min_of(items):
    return min(items)


@njit
def max_of(items):
    return max(items)


@njit
def min_by_key(items):
    return min(items, key=negative)


@njit
def max_by_key(items):
    return max(items, key=negative)


@njit
def min_with_default(items):
    return min(items, default=-1)


@njit
def max_with_default_none(items):
    return max(items, default=None)


@njit
def min_by_lambda(items):
    return min(items, key=lambda x: abs(x - 3))


@pytest.mark.parametrize("items", [[3, 1, 2], [5], [2, 2, 1, 1], [-4, 7, 0]])
def test_min_and_max_of_a_list(no_leak, items):
    for f in (min_of, max_of, min_by_key, max_by_key, min_with_default, max_with_default_none):
        assert_same(f, items)
    assert_same(min_by_lambda, items)


@njit
def min_of_prefix(items, count):
    return min(items[:count])


@njit
def max_of_prefix(items, count):
    return max(items[:count], key=negative)


@njit
def extremes_of_prefix_or_default(items, count):
    part = items[:count]
    return min(part, default=-1), max(part, default=None), min(part, key=negative, default=7)


def test_min_and_max_of_an_empty_list_raise_cpythons_value_error(no_leak):
    # Empty lists cannot be passed in (their item type is unknown): a prefix is cut inside.
    for count in (0, 1, 3):
        assert_same(min_of_prefix, [4, 2, 9], count)  # CPython's ValueError and message
        assert_same(max_of_prefix, [4, 2, 9], count)
        assert_same(extremes_of_prefix_or_default, [4, 2, 9], count)


def test_min_and_max_of_floats_keep_cpythons_nan_behaviour(no_leak):
    for items in ([1.0, math.nan, 0.5], [math.nan, 2.0, 1.0], [2.0, -0.0, 0.0]):
        for f in (min_of, max_of, min_by_key, max_by_key):
            assert_same(f, items)


def test_ties_keep_the_first_item(no_leak):
    @njit
    def first_of_shortest(words):
        return min(words, key=length), max(words, key=length)

    assert_same(first_of_shortest, ["bb", "a", "c", "dd", "ee"])

    @njit
    def first_pair(pairs):
        return min(pairs, key=second), max(pairs, key=second)

    assert_same(first_pair, [(1, 5), (2, 3), (3, 5), (4, 3)])


def test_min_and_max_of_tuples(no_leak):
    @njit
    def of_arguments(a, b, c):
        return min(a, b, c), max(a, b, c), min(a, b, key=second)

    assert_same(of_arguments, (1, 2), (1, 1), (0, 9))
    assert_same(of_arguments, (2.5, 1.0), (2.5, 1.0), (2.5, -1.0))

    @njit
    def of_list(pairs):
        return min(pairs), max(pairs)

    assert_same(of_list, [(3, 1), (1, 4), (1, 2), (5, 0)])


def test_min_and_max_of_strings(no_leak):
    @njit
    def words(items, text):
        return min(items), max(items), min(text), max(text), min(items, key=length)

    assert_same(words, ["pear", "apple", "fig"], "taipan")


def test_min_and_max_of_arrays_sets_dicts_and_generator_expressions(no_leak):
    @njit
    def of_containers(a):
        s = {3, 1, 2}
        d = {5: 1.0, -2: 2.0}
        return (
            min(a, key=negative),
            max(a, default=0.0),
            min(s),
            max(s, key=negative),
            min(d),
            max(d, default=0),
            min((x * x for x in a), key=negative),
            max((x for x in a if x > 100.0), default=-1.0),
        )

    assert_same(of_containers, np.array([1.5, -2.0, 4.0]))


def test_min_and_max_of_several_numbers_are_unchanged(no_leak):
    @njit
    def numbers(a, b):
        return min(a, b), max(a, b, 2), min((a, b)), max(range(a)), min(x for x in (a, b))

    assert_same(numbers, 4, 9)


def test_default_of_another_type_is_refused():
    @njit
    def f(items):
        return min(items, default=0.5)

    with pytest.raises(TypingError, match="default of type float64 over items of type int64"):
        f([1, 2])


def test_default_with_several_arguments_is_refused():
    @njit
    def f(a, b):
        return min(a, b, default=0)

    with pytest.raises(TypingError, match="Cannot specify a default for min"):
        f(1, 2)


# ---------------------------------------------------------------------------------------------
# sorted() and list.sort() with key=, and of items other than numbers


@njit
def sorted_by_key(items):
    return sorted(items, key=second), sorted(items, key=second, reverse=True)


def test_sorted_with_a_key_is_stable(no_leak):
    pairs = [(i, (i * 7) % 5) for i in range(23)]
    assert_same(sorted_by_key, pairs)
    assert_same(sorted_by_key, [(1, 1)])

    @njit
    def of_prefix(items, count):
        part = items[:count]
        return sorted(part, key=second), sorted(part, key=second, reverse=True)

    assert_same(of_prefix, pairs, 0)
    assert_same(of_prefix, pairs, 2)


def test_sorted_with_a_lambda_key(no_leak):
    @njit
    def by_distance(items, centre):
        return sorted(items, key=lambda x: abs(x - 10)), sorted(items, key=negative)

    assert_same(by_distance, [12, 8, 10, 3, 17, 9, 11], 10)
    assert_same(by_distance, [2.5, -1.0, 10.0, 9.5], 10)


def test_sorted_of_tuples_and_strings(no_leak):
    @njit
    def ordered(pairs, words):
        return (
            sorted(pairs),
            sorted(pairs, reverse=True),
            sorted(words),
            sorted(words, key=length),
            sorted(words, key=None, reverse=True),
        )

    assert_same(ordered, [(2, 1), (1, 2), (1, 1), (2, 0)], ["pear", "fig", "apple", "kiwi"])


def test_sorted_of_a_generator_expression_with_a_key(no_leak):
    @njit
    def f(n):
        return sorted((i * 37 % 11 for i in range(n)), key=negative)

    assert_same(f, 20)


def test_list_sort_with_a_key_changes_the_callers_list(no_leak):
    @njit
    def sort_in_place(items):
        items.sort(key=second)
        return len(items)

    items = [(i, (i * 5) % 3) for i in range(10)]
    expected = sorted(items, key=lambda p: p[1])
    assert sort_in_place(items) == 10
    assert items == expected

    @njit
    def sort_words(words):
        words.sort(key=length, reverse=True)
        first = words.copy()
        words.sort()
        return first, words

    assert_same_on_copies(sort_words, ["bb", "a", "ccc", "dd", "e"])

    @njit
    def sort_numbers(values):
        values.sort(key=negative)
        first = values.copy()
        values.sort(reverse=True)  # numbers without a key: the library's sort
        return first, values

    assert_same_on_copies(sort_numbers, [3, 1, 2, 5, 2])


def test_sort_keyword_only_arguments():
    @njit
    def f(items):
        return sorted(items, second)

    with pytest.raises(TypingError):
        f([(1, 2)])


# ---------------------------------------------------------------------------------------------
# reversed()


def test_reversed_range(no_leak):
    @njit
    def backwards(start, stop, step):
        return [x for x in reversed(range(start, stop, step))]

    for arguments in [(0, 10, 1), (0, 10, 3), (10, 0, -1), (10, -7, -4), (5, 5, 1), (3, 9, 7)]:
        assert_same(backwards, *arguments)

    @njit
    def loop(n):
        total = 0
        for i in reversed(range(n)):
            total = total * 10 + i
        return total

    assert_same(loop, 6)
    assert_same(loop, 0)


def test_reversed_range_at_the_int64_limits_raises_rather_than_wraps():
    @njit
    def backwards(start, stop, step):
        return [x for x in reversed(range(start, stop, step))]

    smallest, largest = -(2**63), 2**63 - 1
    assert_same(backwards, smallest + 3, smallest + 9, 3)  # one step inside the limit
    assert_same(backwards, largest - 3, largest - 9, -3)
    assert_same(backwards, smallest + 2, smallest + 9, 3)  # loops never step past their stop
    assert_same(backwards, largest - 2, largest - 9, -3)
    # CPython's ints do not wrap; a stop just past a start at the limit would: refused, never
    # wrong.
    for arguments in [
        (smallest, smallest + 3, 1),
        (smallest, smallest + 9, 3),
        (largest, largest - 3, -1),
        (largest, largest - 9, -3),
    ]:
        with pytest.raises(OverflowError):
            backwards(*arguments)


def test_reversed_sequences(no_leak):
    @njit
    def backwards(items, text, pair, a):
        return (
            [x for x in reversed(items)],
            [c for c in reversed(text)],
            [x for x in reversed(pair)],
            [x for x in reversed(a)],
        )

    assert_same(backwards, [1, 2, 3], "abc", (4, 5), np.arange(4.0))
    assert_same(backwards, [1], "", (4,), np.arange(0.0))

    @njit
    def of_prefix(items, count):
        return [x for x in reversed(items[:count])]

    assert_same(of_prefix, [1, 2], 0)


def test_reversed_in_a_for_loop_with_enumerate(no_leak):
    @njit
    def weighted(items):
        total = 0
        for i, x in enumerate(reversed(items)):
            total += i * x
        return total

    assert_same(weighted, [3, 1, 4, 1, 5])


def test_reversed_stops_when_the_list_shrinks(no_leak):
    @njit
    def shrink(n):
        items = [i for i in range(n)]
        seen = []
        for x in reversed(items):
            seen.append(x)
            if len(items) > 2:
                items.pop()
                items.pop()
        return seen

    assert_same(shrink, 7)
    assert_same(shrink, 8)


def test_next_of_reversed(no_leak):
    @njit
    def last(items):
        return next(reversed(items))

    assert_same(last, [1, 2, 3])


# ---------------------------------------------------------------------------------------------
# f(*(a, b)), str.join of a generator expression


@njit
def difference(a, b, c=0):
    return a - b - c


def test_star_of_a_tuple_or_list_display(no_leak):
    @njit
    def f(a, b):
        return (
            difference(*(a, b)),
            difference(a, *(b, 1)),
            difference(*[a, b], c=2),
            max(*(a, b)),
            min(*(a, b, a - a)),
        )

    assert_same(f, 10, 3)
    assert_same(f, 1.5, 2.5)


def test_join_of_a_generator_expression(no_leak):
    @njit
    def joined(n, words):
        return ", ".join(str(i) for i in range(n)), "".join(w.upper() for w in words if w)

    assert_same(joined, 4, ["a", "", "bc"])
    assert_same(joined, 0, [""])


# ---------------------------------------------------------------------------------------------
# dicts and sets consumed whole, Optional narrowing


def test_list_sorted_and_sum_of_a_dict(no_leak):
    @njit
    def of_dict(n):
        d = {}
        for i in range(n):
            d[(i * 7) % 5] = i
        return list(d), sorted(d), sum(d), any(d), all(d)

    assert_same(of_dict, 6)
    assert_same(of_dict, 0)


def test_sum_of_a_set(no_leak):
    @njit
    def of_set(n):
        s = {1, 2, n}
        t = {0.5, 1.5}
        return sum(s), sum(t), sum(s, 10)

    assert_same(of_set, 2)
    assert_same(of_set, 7)


def test_optional_narrowed_by_a_conditional_expression(no_leak):
    @njit
    def first_positive(items):
        found = None
        for x in items:
            if x > 0 and found is None:
                found = x
        value = found if found is not None else -1
        return value * 2, (found if found is not None else -1) + 1

    assert_same(first_positive, [-1, 3, 5])
    assert_same(first_positive, [-1, -3])


# ---------------------------------------------------------------------------------------------
# zip() and enumerate() outside a for loop's header, and nested in one


def test_zip_and_enumerate_of_lists_and_arrays_as_values(no_leak):
    @njit
    def pairs(a, b, words):
        return (
            list(zip(a, b)),
            list(zip(a, words, b)),
            list(enumerate(words)),
            list(enumerate(b, 10)),
            [x * y for x, y in list(zip(a, b))],
        )

    assert_same(pairs, [1, 2, 3], np.arange(5.0), ["a", "b"])
    assert_same(pairs, [1, 2, 3], np.arange(2.0), ["a", "b", "c", "d"])


def test_enumerate_of_zip_in_a_for_loop(no_leak):
    @njit
    def weighted(a):
        total = 0.0
        for i, (x, y) in enumerate(zip(a, a[::-1])):
            total += i * x * y
        return total

    assert_same(weighted, np.arange(6.0))
    assert_same(weighted, np.arange(0.0))

    @njit
    def nested(items, text):
        first = []
        for i, (x, c) in enumerate(zip(items, text), 1):
            first.append((i, x, c))
        second = []
        for k, (j, x) in zip(range(10, 20), enumerate(items)):
            second.append((k, j, x))
        return first, second

    assert_same(nested, [5, 6, 7], "xy")


def test_zip_stops_at_the_shortest(no_leak):
    @njit
    def shortest(a, b, n):
        return list(zip(a, b, range(n)))

    for n in (0, 1, 2, 10):
        assert_same(shortest, [1, 2, 3], [4.0, 5.0], n)


def test_zip_and_enumerate_of_tuples_are_unchanged(no_leak):
    @njit
    def of_tuples(t, u):
        return tuple(zip(t, u)), tuple(enumerate(t)), list(zip((1, 2), [3, 4]))

    assert_same(of_tuples, (1, "a"), (2.5, 3))
