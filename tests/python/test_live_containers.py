"""Containers are read live and shared, never copied: iteration re-reads a list's length at each
step (a body may grow or shrink it), a subscript evaluates its index before the lookup, one
Python list passed twice is one compiled list, a closure fills its parent's empty list, and a
set whose size changes under a loop raises as CPython does (issue 28, item 2). An item type that
nothing ever gives is a TypingError, never a crash (item 3)."""

import textwrap

import pytest
from child_processes import child_environment, run_python
from conftest import assert_raises_same, same

from taipan import njit, typed
from taipan.errors import TypingError
from taipan.runtime import live_blocks


def _copies(args):
    return [list(a) if isinstance(a, list) else set(a) if isinstance(a, set) else a for a in args]


def check_with_mutations(function, *args):
    """The result and the final state of every list/set argument agree with CPython's."""
    compiled = njit(function)
    expected_args, actual_args = _copies(args), _copies(args)
    before = live_blocks()
    actual, expected = compiled(*actual_args), function(*expected_args)
    assert same(actual, expected), (actual, expected)
    assert actual_args == expected_args
    assert live_blocks() == before


def pop_while_walking(items):
    total = 0
    for x in items:
        total += x
        if len(items) > 2:
            items.pop()
    return total


def clear_while_walking(items):
    seen = 0
    for x in items:
        seen += x
        items.clear()
    return seen


def delete_while_walking(items):
    seen = 0
    for x in items:
        seen = seen * 10 + x
        if len(items) > 1:
            del items[0]
    return seen


def worklist(items):
    total = 0
    for x in items:
        total += x
        if x < 20:
            items.append(x * 2 + 1)
    return total


def enumerate_growing(items):
    total = 0
    for i, x in enumerate(items):
        total += i * x
        if x < 10:
            items.append(x + 3)
    return total


def enumerate_shrinking(items):
    total = 0
    for i, x in enumerate(items):
        total += i + x
        items.pop()
    return total


def zip_growing(items):
    total = 0
    for x, y in zip(items, items):
        total += x * y
        if x < 6:
            items.append(x + 2)
    return total


def strings_popped(n):
    words = [str(i) * (i + 1) for i in range(n)]
    text = ""
    for word in words:
        text += word
        words.pop()
    return text, len(words)


def strings_cleared(n):
    words = [str(i) * 3 for i in range(n)]
    text = ""
    for word in words:
        text += word
        words.clear()
    return text


def bfs(n):
    edges = {0: [1, 2], 1: [3], 2: [3, 4], 3: [5], 4: [5], 5: [0]}
    seen = [0]
    order = []
    for node in seen:
        order.append(node)
        for other in edges[node]:
            if other not in seen and other < n:
                seen.append(other)
    return order


@pytest.mark.parametrize(
    "function, args",
    [
        (pop_while_walking, ([1, 2, 3, 4, 5],)),
        (clear_while_walking, ([7, 8, 9],)),
        (delete_while_walking, ([1, 2, 3, 4],)),
        (worklist, ([1, 2, 3],)),
        (enumerate_growing, ([1, 2],)),
        (enumerate_shrinking, ([1, 2, 3, 4, 5],)),
        (zip_growing, ([1, 2],)),
        (strings_popped, (5,)),
        (strings_cleared, (4,)),
        (bfs, (6,)),
    ],
)
def test_iteration_reads_the_live_length(function, args):
    check_with_mutations(function, *args)


def comprehension_over_growing(items):
    return [x + len(items) for x in items]


def test_typed_list_walked_while_it_grows():
    @njit
    def grow(items):
        total = 0
        for x in items:
            total += x
            if x < 10:
                items.append(x + 4)
        return total

    before = live_blocks()
    items = typed.List([1, 2])
    assert grow(items) == grow.py_func([1, 2])
    assert list(items) == [1, 2, 5, 6, 9, 10, 13]
    del items
    assert live_blocks() == before


@njit
def append_and_last(items):
    items.append(len(items) * 10)
    return len(items) - 1


def subscript_after_its_index(items):
    return items[append_and_last(items)]


def store_after_its_index(items):
    items[append_and_last(items)] = -1
    return items[-1]


def delete_after_its_index(items):
    del items[append_and_last(items)]
    return len(items)


def slice_after_its_bounds(items):
    return items[: append_and_last(items) + 1]


@pytest.mark.parametrize(
    "function",
    [
        subscript_after_its_index,
        store_after_its_index,
        delete_after_its_index,
        slice_after_its_bounds,
    ],
)
def test_the_index_is_evaluated_before_the_lookup(function):
    check_with_mutations(function, [4, 5])


def append_through_one(a, b):
    a.append(99)
    b.append(100)
    return len(a) + len(b)


def add_through_one(a, b):
    a.add(7)
    return len(b)


def test_one_list_passed_twice_is_one_list():
    before = live_blocks()
    shared = [1, 2]
    expected = [1, 2]
    assert njit(append_through_one)(shared, shared) == append_through_one(expected, expected)
    assert shared == expected == [1, 2, 99, 100]
    shared_set, expected_set = {1}, {1}
    assert njit(add_through_one)(shared_set, shared_set) == add_through_one(
        expected_set, expected_set
    )
    assert shared_set == expected_set
    assert live_blocks() == before


def closure_fills_list(n):
    found = []

    def add(x):
        found.append(x * x)

    for i in range(n):
        add(i)
    return found


def closure_fills_dict(n):
    table = {}

    def put(k):
        table[k] = k + 0.5

    for i in range(n):
        put(i)
    return len(table), table[n - 1]


def closure_fills_set(n):
    members = set()

    def put(k):
        members.add(k % 3)

    for i in range(n):
        put(i)
    return len(members)


def callee_fills(items, x):
    items.append(x)


def jitted_callee_fills(n):
    items = []
    for i in range(n):
        callee_fills(items, i)
    return items


@pytest.mark.parametrize(
    "function", [closure_fills_list, closure_fills_dict, closure_fills_set, jitted_callee_fills]
)
def test_an_empty_container_is_shared_with_what_fills_it(function):
    global callee_fills
    plain = callee_fills
    expected = function(5)
    callee_fills = njit(plain)
    try:
        before = live_blocks()
        actual = njit(function)(5)
        assert same(actual, expected), (actual, expected)
        assert live_blocks() == before
    finally:
        callee_fills = plain


def set_grows_while_walked(s):
    total = 0
    for k in s:
        total += k
        s.add(k + 100)
    return total


def set_shrinks_while_walked(s):
    for k in s:
        s.discard(k)
    return len(s)


def set_same_size(s):
    total = 0
    for k in s:
        total += k
        s.add(k)  # already there: the size does not change
    return total


@pytest.mark.parametrize("function", [set_grows_while_walked, set_shrinks_while_walked])
def test_set_changed_size_during_iteration(function):
    before = live_blocks()
    assert_raises_same(njit(function), {1, 2, 3}, exc_type=RuntimeError)
    assert live_blocks() == before


def test_set_walked_without_size_change():
    check_with_mutations(set_same_size, {1, 2, 3})


def sorted_reverse_of_untyped():
    items = []
    return sorted(items, reverse=True)


def loop_over_untyped():
    items = []
    for x in items:
        return x
    return 0


def returned_untyped():
    items = []
    return items


def max_of_untyped():
    items = []
    return max(items)


@pytest.mark.parametrize(
    "function", [sorted_reverse_of_untyped, loop_over_untyped, returned_untyped, max_of_untyped]
)
def test_an_item_type_nothing_gives_is_a_typing_error(function, tmp_path):
    # In a child process: these used to kill the interpreter.
    program = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(__file__.rsplit("/", 1)[0])!r})
        from taipan import njit
        from taipan.errors import TypingError
        import test_live_containers as cases
        try:
            njit(cases.{function.__name__})()
        except TypingError as error:
            assert "test_live_containers.py" in str(error), error
            print("TypingError")
        """
    )
    done = run_python(["-c", program], env=child_environment(), timeout=120)
    assert done.stdout.strip() == "TypingError"


def test_empty_containers_need_no_item_type_for_their_size():
    def sizes():
        s = set()
        d = {}
        return len(s), bool(s), not d, len(d)

    assert njit(sizes)() == sizes()
    with pytest.raises(TypingError, match="Cannot infer the type of variable 'items'"):
        njit(returned_untyped)()


def continue_from_for_else(s):
    found = 0
    for i in range(6):
        for j in range(sum(s) * i % 3):  # sum(s) walks a list made of the set's keys
            found += j
        else:  # noqa: PLW0120 - the else's jump is what is tested
            continue
    return found


def break_from_for_else(s):
    found = 0
    for i in range(6):
        for j in sorted(s):
            found += j
        else:  # noqa: PLW0120 - the else's jump is what is tested
            break
    return found


def break_under_a_test_that_made_a_list(items):
    total = 0
    for x in items:
        if len(sorted(items)) > x:
            break
        total += x
    return total


@pytest.mark.parametrize(
    "function, argument",
    [
        (continue_from_for_else, {2, 13, 23}),
        (break_from_for_else, {4, 5}),
        (break_under_a_test_that_made_a_list, [5, 1, 9]),
    ],
)
def test_break_and_continue_release_what_unfinished_statements_made(function, argument):
    # Found by tools/fuzz (seed 2026, program 84008): a continue in a for-else's else left the
    # inner loop's list of set keys alive.
    check_with_mutations(function, argument)
