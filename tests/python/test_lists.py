"""Lists in compiled code (Numba's reflected lists): literals, appends, indexing, iteration,
methods, lists returned to Python and lists passed in (changes reflected back)."""

import pytest
from numpy_checks import no_allocation_leak

from taipan import njit


def literal_len():
    values = [1, 2, 3]
    return len(values)


def negative_index():
    values = [1, 2, 3]
    return values[-1] + values[0]


def append_unifies():
    values = []
    values.append(1.5)
    values.append(2)
    return values[1]


def iterate():
    total = 0
    for x in [1, 2, 3]:
        total += x
    return total


def set_item():
    values = [1, 2]
    values[0] = 5
    return values[0]


def pop_last():
    values = [1, 2, 3]
    return values.pop() + len(values)


def returned():
    return [1, 2, 3]


@pytest.mark.parametrize(
    "function", [literal_len, negative_index, append_unifies, iterate, set_item, pop_last, returned]
)
def test_matches_python(function):
    compiled = njit(function)
    with no_allocation_leak():
        assert compiled() == function()


def append_to(values):
    values.append(4)
    return len(values)


def test_argument_changes_are_reflected():
    compiled = njit(append_to)
    mine, theirs = [1, 2, 3], [1, 2, 3]
    with no_allocation_leak():
        assert compiled(mine) == append_to(theirs)
    assert mine == theirs


def extend_insert_sort_reverse():
    values = [3, 1]
    values.extend([4, 5])
    values.insert(0, 9)
    values.sort()
    first = values[0]
    values.reverse()
    return first * 100 + values[0] * 10 + len(values)


def operators():
    a = [1, 2] + [3]
    b = [1, 2] * 3
    return len(a) + len(b) + (2 in a) + ([1, 2] == [1, 2]) + a[1:3][0]


def builtins_over_lists():
    values = [3, 1, 2, 2]
    ordered = sorted(values)
    return ordered[1] + len(list(range(5))) + sum(values) + values.count(2) + values.index(1)


def tuples_arrays_nested():
    pairs = [(1, 2.0), (3, 4.0)]
    nested = [[1, 2], [3]]
    return pairs[1][1] + nested[1][0] + [1, 2].copy()[1]


@pytest.mark.parametrize(
    "function", [extend_insert_sort_reverse, operators, builtins_over_lists, tuples_arrays_nested]
)
def test_methods_and_operators(function):
    compiled = njit(function)
    with no_allocation_leak():
        assert compiled() == function()


def out_of_range():
    values = [1, 2]
    return values[5]


def test_index_error_matches_cpython():
    with pytest.raises(IndexError, match="list index out of range"):
        njit(out_of_range)()


def length(values):
    return len(values)


def test_empty_and_heterogeneous_arguments_raise():
    from taipan.errors import TypingError

    with pytest.raises(TypingError, match="cannot type empty list"):
        njit(length)([])
    with pytest.raises(TypingError, match="heterogeneous"):
        njit(length)([1, "a"])


def test_lists_on_the_gpu_are_unsupported():
    import numpy as np

    from taipan import cuda
    from taipan.errors import UnsupportedError

    @cuda.jit
    def kernel(out):
        values = [1, 2]
        out[0] = values[0]

    with pytest.raises(UnsupportedError, match="not supported on the GPU"):
        kernel[1, 1](np.zeros(1))


def strings_built_and_searched(n):
    words = ["a", "bb"]
    more = []
    for i in range(n):
        more.append("x" * i)
    more.append("z")
    words.extend(more)
    words.remove("a")
    words.insert(1, "ins")
    return (
        words,
        len(words),
        words[2],
        "bb" in words,
        "q" not in words,
        words.index("z"),
        words.count("x"),
        words == ["bb"],
        words.pop(),
        words[::-1],
    )


@pytest.mark.parametrize("n", [0, 1, 4])
def test_lists_of_strings_from_literals_and_appends(n):
    compiled = njit(strings_built_and_searched)
    with no_allocation_leak():
        assert compiled(n) == strings_built_and_searched(n)


def test_a_list_of_strings_passed_in_is_reflected():
    def rename(words):
        words.append("new")
        words[0] = "first"
        return words[0] + words[-1]

    compiled = njit(rename)
    ours, theirs = ["p", "q"], ["p", "q"]
    with no_allocation_leak():
        assert compiled(ours) == rename(theirs)
    assert ours == theirs


# A list, set, dict view or range as a condition: true when not empty, as in Python.


@njit
def containers_as_conditions(n):
    items = list(range(n))
    seen = set(items)
    count = 0
    while items:
        items.pop()
        count += 1
    return (
        bool(items),
        (1 if seen else 0),
        (1 if range(n) else 0),
        (1 if {1: n}.keys() else 0),
        count,
        not seen,
    )


@pytest.mark.parametrize("n", [0, 1, 3])
def test_containers_as_conditions(n):
    with no_allocation_leak():
        assert containers_as_conditions(n) == containers_as_conditions.py_func(n)


# Reflection of a list argument: its changes reach the caller's list after an exception too, a
# returned argument is the caller's own list, and items the call left alone keep their identity.


@njit
def append_then_raise(items):
    items.append(42)
    raise ZeroDivisionError


def test_a_list_argument_is_reflected_after_an_exception():
    ours, theirs = [1, 2, 3], [1, 2, 3]
    with pytest.raises(ZeroDivisionError):
        append_then_raise.py_func(theirs)
    with no_allocation_leak(), pytest.raises(ZeroDivisionError):
        append_then_raise(ours)
    assert ours == theirs == [1, 2, 3, 42]


@njit
def maybe_replaced(items, other):
    if other[0]:
        items = [11.0, 22.0, 33.0]
    items.pop()
    items[0] = 42.0
    return items, other


@pytest.mark.parametrize("flag", [0.0, 1.0])
def test_a_returned_list_argument_is_the_callers_list(flag):
    ours, theirs = [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]
    other = [flag]
    expected = maybe_replaced.py_func(theirs, other)
    with no_allocation_leak():
        got = maybe_replaced(ours, other)
        assert got == expected and ours == theirs
        assert (got[0] is ours) == (expected[0] is theirs)
        assert got[1] is other
        del got


@njit
def untouched(items):
    return len(items)


@pytest.mark.parametrize("items", [[12.5j, -1j], [1.5, 2.5], ["text", "more"], [10**15, 7]])
def test_items_the_call_left_alone_keep_their_identity(items):
    identities = [id(x) for x in items]
    with no_allocation_leak():
        untouched(items)
    assert [id(x) for x in items] == identities


# l[i] op= v: the item read, combined and stored back (numbers and strings), as in Python.


@njit
def augmented_items(n, step):
    counts = [0] * n
    for i in range(3 * n):
        counts[i % n] += i
    counts[-1] *= 2
    floats = [1.0, 2.0]
    floats[0] -= 0.5
    floats[1] /= 4
    words = ["a", "b"]
    words[0] += "x"
    words[1] *= 3
    strided = list(range(10))[1:9:step]
    for i in range(len(strided)):
        strided[i] += 100
    return counts, floats, words, strided


@pytest.mark.parametrize("step", [1, 2, -3])
def test_augmented_assignment_of_list_items(step):
    with no_allocation_leak():
        assert augmented_items(4, step) == augmented_items.py_func(4, step)
