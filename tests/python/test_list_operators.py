"""List operators that change a list in place or order lists, compared with CPython running
``f.py_func``: ``l += iterable`` and ``l *= n`` (in place: another name for the list sees the
change, and a list passed in is changed for the caller), ``del l[i]``, ``del l[a:b:c]`` and
``< <= > >=`` between lists (lexicographic, then by length)."""

import copy

import pytest
from numpy_checks import no_allocation_leak, outcome

from taipan import njit
from taipan.errors import TypingError


def check(compiled, *args):
    """Each side gets its own copy of list arguments (the functions may change them)."""
    expected = outcome(compiled.py_func, *copy.deepcopy(args))
    with no_allocation_leak():
        got = outcome(compiled, *copy.deepcopy(args))
        assert got == expected, (args, got, expected)
        del got


@njit
def extend_in_place(n):
    items = [1, 2]
    alias = items
    items += [n]
    items += (n, -n)
    items += range(n)
    items += []
    return items, alias


@njit
def extend_with_itself(n):
    items = [0.5] * n
    items += items
    return items


@njit
def extend_widens(n):
    items = [1, 2]
    items += [n * 0.5]
    return items


@njit
def repeat_in_place(items, n):
    alias = items
    items *= n
    return alias


@njit
def extend_argument(items, n):
    items += [n, n]


@njit
def delete_item(n, i):
    items = [x * 1.5 for x in range(n)]
    del items[i]
    return items


@njit
def delete_slice(n, a, b, c):
    items = list(range(n))
    del items[a:b:c]
    return items


@njit
def delete_open_slices(n):
    items = list(range(n))
    del items[::2]
    more = list(range(n))
    del more[-2:]
    rest = list(range(n))
    del rest[:]
    return items, more, rest


@njit
def orderings(a, b):
    return a < b, a <= b, a > b, a >= b, a == b, a != b


@njit
def string_orderings(n):
    a = ["ab", "c" * n]
    b = ["ab", "c"]
    return a < b, a <= b, a > b, a >= b


@njit
def empty_orderings(n):
    items = [n]
    return [] < items, items <= [], [] >= []


@pytest.mark.parametrize("n", [0, 1, 3])
def test_extend_in_place(n):
    check(extend_in_place, n)
    check(extend_with_itself, n)
    check(extend_widens, n)


@pytest.mark.parametrize("n", [-2, 0, 1, 3])
def test_repeat_in_place(n):
    check(repeat_in_place, [1, 2, 3], n)
    check(repeat_in_place, [0.5], n)


def test_in_place_changes_reach_the_caller():
    items = [1, 2]
    expected = [1, 2]
    with no_allocation_leak():
        extend_argument(items, 7)
    extend_argument.py_func(expected, 7)
    assert items == expected


@pytest.mark.parametrize("i", [0, 2, -1, -4, 4, -5])
def test_delete_item(i):
    check(delete_item, 4, i)  # out of range: CPython's IndexError and message


@pytest.mark.parametrize(
    "a, b, c", [(1, 3, 1), (0, 10, 2), (-1, 0, -1), (None, None, -2), (5, 1, 1), (1, 6, 3)]
)
@pytest.mark.parametrize("n", [0, 1, 6])
def test_delete_slice(n, a, b, c):
    check(delete_slice, n, a, b, c)


def test_delete_slice_step_zero():
    check(delete_slice, 3, 0, 3, 0)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_delete_open_slices(n):
    check(delete_open_slices, n)


@pytest.mark.parametrize(
    "a, b",
    [
        ([1, 2], [1, 3]),
        ([1, 2], [1, 2]),
        ([1, 2, 0], [1, 2]),
        ([2], [1, 9, 9]),
        ([0.5, float("nan")], [0.5, 1.0]),
        ([-0.0], [0.0]),
        ([True, False], [True]),
    ],
)
def test_orderings(a, b):
    check(orderings, a, b)
    check(orderings, b, a)


@pytest.mark.parametrize("n", [0, 1, 2])
def test_string_and_empty_orderings(n):
    check(string_orderings, n)
    check(empty_orderings, n)


def test_unsupported_in_place_operator_is_a_typing_error():
    @njit
    def subtract(n):
        items = [n]
        items -= [n]
        return items

    with pytest.raises(TypingError, match="unsupported operand types for -="):
        subtract(1)


def test_ordering_with_a_non_list_is_a_typing_error():
    @njit
    def mixed(n):
        return [n] < n

    with pytest.raises(TypingError, match="'<' not supported between instances"):
        mixed(1)


@njit
def index_between(n, item, start, stop):
    items = [1, 2, 3, 1, 2, 3] * n
    return items.index(item, start, stop)


@njit
def index_from(n, item, start):
    items = [1.5, 2.5, 1.5] * n
    return items.index(item, start)


@pytest.mark.parametrize(
    "start, stop", [(0, 6), (1, 5), (-4, 100), (-100, 3), (4, 5), (3, 3), (5, 2), (7, 9)]
)
@pytest.mark.parametrize("item", [1, 3])
def test_index_between_bounds(item, start, stop):
    for n in (1, 2):
        expected = outcome(index_between.py_func, n, item, start, stop)
        with no_allocation_leak():
            got = outcome(index_between, n, item, start, stop)
        # Not found: ValueError, with Numba's message ("item not in list") where CPython names it
        assert got[0] == expected[0] and got[1] == expected[1]


@pytest.mark.parametrize("start", [0, 1, -1, 2])
def test_index_from(start):
    check(index_from, 2, 1.5, start)


@njit
def truth_of_containers(n):
    return bool([n] * n), bool((n, 1)), bool(()), bool(range(n)), bool({n: 1.5}), bool([])


@pytest.mark.parametrize("n", [0, 1, 3])
def test_bool_of_containers(n):
    check(truth_of_containers, n)


def test_identity_of_lists_is_a_typing_error():
    # A list passed twice is two blocks in compiled code, so `is` could not answer as Python
    # does: refused at compile time (was an internal error).
    @njit
    def same(a, b):
        return a is b

    with pytest.raises(TypingError, match="no object identity in compiled code"):
        same([1], [2])
