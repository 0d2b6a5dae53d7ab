"""``for x in literal_unroll(t)`` over tuples whose items differ in type: one copy of the loop
body per item, each typed with its item's type, constant strings kept literal (record field
names). Every result is compared with the Python function's; allocating calls run inside
``no_allocation_leak``."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import literal_unroll, njit
from taipan.errors import TypingError

# --- heterogeneous tuples -----------------------------------------------------------------------


def describe_items(t):
    out = []
    for x in literal_unroll(t):
        out.append(str(x) if not isinstance(x, np.ndarray) else "array")
    return out


def test_heterogeneous_tuple_argument():
    f = njit(describe_items)
    # isinstance on arrays is decided per copy, so the array copy takes the other branch.
    for t in [(1, "a", 2.5), (True, -0.0, "xyz", 7), ("only",)]:
        with no_allocation_leak():
            assert f(t) == f.py_func(t)


def sum_lengths(t):
    total = 0
    for x in literal_unroll(t):
        total += len(x)
    return total


def test_items_with_references():
    f = njit(sum_lengths)
    t = (np.zeros(3), "abcd", [1, 2], np.ones((2, 5)))
    with no_allocation_leak():
        assert f(t) == f.py_func(t)
        assert f(("", np.zeros(0))) == 0


def typed_items(t):
    acc = 0.0
    for x in literal_unroll(t):
        y = x * 2  # y is the copy's own variable: int64 in one, float64 or an array in another
        if isinstance(y, np.ndarray):
            acc += y.sum()
        else:
            acc += y
    return acc


def test_each_copy_types_its_own_variables():
    f = njit(typed_items)
    t = (1, 2.5, np.arange(4.0), np.int32(-3))
    with no_allocation_leak():
        assert f(t) == f.py_func(t)


def make_tuple_inside():
    out = 0.0
    for x in literal_unroll((1, 2.5, np.zeros(3) + 1.0, True)):
        out += x.sum() if isinstance(x, np.ndarray) else x
    return out


def test_tuple_built_in_the_function():
    f = njit(make_tuple_inside)
    with no_allocation_leak():
        assert f() == f.py_func()


GLOBAL_ITEMS = (3, "text", 0.25, None)


def global_tuple():
    n = 0.0
    for x in literal_unroll(GLOBAL_ITEMS):
        if x is None:
            n += 100
        elif isinstance(x, str):
            n += len(x)
        else:
            n += x
    return n


def test_global_tuple():
    f = njit(global_tuple)
    with no_allocation_leak():
        assert f() == f.py_func()


def test_closure_tuple():
    items = ("ab", 4, 1.5)

    def closure():
        n = 0.0
        for x in literal_unroll(items):
            if isinstance(x, str):
                n += len(x)
            else:
                n += x
        return n

    f = njit(closure)
    with no_allocation_leak():
        assert f() == closure()


# --- control flow -------------------------------------------------------------------------------


def break_at_string(t):
    seen = 0
    for x in literal_unroll(t):
        if isinstance(x, str):
            break
        seen += 1
    else:
        seen = -1
    return seen


def continue_past_floats(t):
    total = 0
    for x in literal_unroll(t):
        if isinstance(x, float):
            continue
        total += 1
    return total


def test_break_continue_and_else():
    for f in (njit(break_at_string), njit(continue_past_floats)):
        for t in [(1, 2.5, "a", 3), (1, 2.5, 3), (0.5, "b"), ("c",), (1.5, 2.5, True)]:
            assert f(t) == f.py_func(t), (f, t)


def first_float(t):
    for x in literal_unroll(t):
        if isinstance(x, float):
            return x
    return -1.0


def test_return_from_a_copy():
    f = njit(first_float)
    for t in [(1, 2.5, 3.5), (1, "a"), (-0.0, 1)]:
        got, expected = f(t), f.py_func(t)
        assert got == expected and np.signbit(got) == np.signbit(expected)


def nested(a, b):
    out = []
    for x in literal_unroll(a):
        for y in literal_unroll(b):
            out.append(str(x) + str(y))
    return out


def test_nested_unrolls():
    f = njit(nested)
    with no_allocation_leak():
        assert f((1, "a"), (2.5, "b", 3)) == f.py_func((1, "a"), (2.5, "b", 3))


def carried_value(t):
    # `last` crosses from one copy to the next, so it keeps one name (and unifies).
    last = 0.0
    total = 0.0
    for x in literal_unroll(t):
        total += last
        last = x
    return total + last


def test_values_carried_between_copies():
    f = njit(carried_value)
    for t in [(1, 2.5, True), (4,), (0.5, 7, -3)]:
        assert f(t) == f.py_func(t)


def target_read_after_loop(t):
    for x in literal_unroll(t):
        pass
    return x


def test_target_read_after_the_loop():
    f = njit(target_read_after_loop)
    assert f((1, 2.5)) == 2.5
    with pytest.raises(TypingError, match="cannot unify"):
        f((1.5, "a"))


# --- homogeneous containers stay ordinary loops ---------------------------------------------------


def sum_items(t):
    total = 0
    for x in literal_unroll(t):
        total += x
    return total


def test_homogeneous_tuple_and_list():
    f = njit(sum_items)
    assert f((1, 2, 3)) == 6
    assert f((0.5, -1.5)) == -1.0
    with no_allocation_leak():
        assert f([4, 5, 6]) == 15
    assert f(()) == 0


def test_literal_unroll_as_a_value():
    @njit
    def passthrough(t):
        u = literal_unroll(t)
        return u

    assert passthrough((1, 2.5)) == (1, 2.5)


# --- string literals: record field names -----------------------------------------------------------

RECORD = np.dtype([("e", np.int64), ("f", np.float64), ("g", np.int32)])
FIELDS = ("e", "f")


def read_fields(rec):
    out = 0.0
    for name in literal_unroll(("e", "f", "g")):
        out += rec[name]
    return out


def read_global_fields(rec):
    out = 0.0
    for name in literal_unroll(FIELDS):
        out += rec[name]
    return out


def write_fields(rec):
    fs = ("e", "g")
    for name in literal_unroll(fs):
        rec[name] = 10
    return rec["e"] + rec["g"]


def constant_local_field(rec):
    fs = ("e", "f")
    f = fs[1]
    return rec[f]


def constant_global_field(rec):
    f = FIELDS[-2]
    return rec[f]


def test_field_names_from_literal_unroll():
    arr = np.array([(1, 2.5, -3), (4, 5.5, 6)], dtype=RECORD)
    for function in (read_fields, read_global_fields, constant_local_field, constant_global_field):
        f = njit(function)
        assert f(arr[1]) == function(arr[1]), function
    f = njit(write_fields)
    a, b = arr.copy(), arr.copy()
    assert f(a[0]) == write_fields(b[0])
    assert (a == b).all()


def test_field_names_from_closure_and_array_views():
    arr = np.array([(1, 2.5, -3), (4, 5.5, 6)], dtype=RECORD)
    names = arr.dtype.names

    def total(a):
        out = np.zeros(a.shape[0])
        for name in literal_unroll(names):
            out += a[name]
        return out

    with no_allocation_leak():
        np.testing.assert_array_equal(njit(total)(arr), total(arr))


def test_unknown_field_name_is_a_typing_error():
    arr = np.zeros(2, dtype=RECORD)

    @njit
    def missing(rec):
        out = 0.0
        for name in literal_unroll(("e", "zz")):
            out += rec[name]
        return out

    with pytest.raises(TypingError, match="zz"):
        missing(arr[0])


def test_string_literal_copies_print_their_text(capsys):
    @njit
    def show():
        for s in literal_unroll(("a", 1, "b")):
            print(s)

    show()
    assert capsys.readouterr().out == "a\n1\nb\n"


# --- literal lists: list literals whose items differ in type ---------------------------------------


def literal_list_basics():
    l = ["a", 1, "a", 2.5, "b", True]
    return len(l), l[0], l[3], l[-1], l.count("a"), l.count(1), l.count(2.5)


def literal_list_contains():
    l = ["a", 1, "b", 2]
    out = []
    for x in literal_unroll(("a", "d", 2, 6, 1.0)):
        out.append(x in l)
    return out


def literal_list_unrolled():
    l = [1, "xy", 2.5, np.arange(3)]
    total = 0.0
    for x in literal_unroll(l):
        if isinstance(x, str):
            total += len(x)
        elif isinstance(x, np.ndarray):
            total += x.sum()
        else:
            total += x
    return total


def literal_list_unify(x):
    if x > 3:
        l = ["a", 1]
    else:
        l = ["b", 2]
    return l[0], l[1], l.copy()[0]


def test_literal_lists():
    for function in (literal_list_basics, literal_list_contains, literal_list_unrolled):
        f = njit(function)
        with no_allocation_leak():
            assert f() == function(), function
    f = njit(literal_list_unify)
    for x in (-100, 100):
        assert f(x) == literal_list_unify(x)


def test_literal_list_returned_as_a_list():
    @njit
    def make():
        return [1, "a", 2.5]

    with no_allocation_leak():
        got = make()
        assert type(got) is list and got == [1, "a", 2.5]


def test_homogeneous_list_literals_stay_lists():
    @njit
    def make():
        a = [1, 2.5]  # unify to float64, as Numba does
        a.append(3)
        return a

    with no_allocation_leak():
        assert make() == [1.0, 2.5, 3.0]


@pytest.mark.parametrize(
    "body",
    [
        "l[0] = 'b'",
        "l.append(2)",
        "l.extend([2, 3])",
        "l.insert(0, 2)",
        "l.remove('a')",
        "l.pop()",
        "l.clear()",
        "l.sort()",
        "l.reverse()",
    ],
)
def test_literal_list_mutation_is_refused(body):
    namespace = {}
    exec(f"def mutate():\n    l = ['a', 1]\n    {body}\n", namespace)  # noqa: S102
    with pytest.raises(TypingError, match="Cannot mutate a literal list"):
        njit(namespace["mutate"])()


def test_literal_list_refusals():
    @njit
    def dynamic_index(i):
        l = ["a", 1]
        return l[i]

    with pytest.raises(TypingError, match="Cannot __getitem__ on a literal list"):
        dynamic_index(0)

    @njit
    def sliced():
        l = ["a", "b", 1]
        return l[:2]

    with pytest.raises(TypingError, match="Cannot __getitem__ on a literal list"):
        sliced()

    @njit
    def index():
        l = ["a", 1]
        return l.index("a")

    with pytest.raises(TypingError, match="list.index is unsupported for literal lists"):
        index()

    @njit
    def not_unified(x):
        if x > 3:
            l = ["a", 1, 2j]
        else:
            l = ["b", 2]
        return l[0]

    with pytest.raises(TypingError, match="LiteralList"):
        not_unified(100)


def test_loops_over_nothing():
    # The body of a loop over an empty tuple never runs, so it is neither typed nor lowered.
    @njit
    def empty_loops(t):
        n = 0
        for x in ():
            n += x
        for i in zip():
            n += 100
            if i:
                break
        else:
            n += 1
        for x in literal_unroll(t):
            n += len(x)
            if n:
                break
        else:
            n += 10
        return n

    assert empty_loops(()) == empty_loops.py_func(()) == 11


def test_literal_lists_add_as_lists():
    @njit
    def added():
        return ["a", 1] + ["b", 2.5]

    with no_allocation_leak():
        got = added()
        assert type(got) is list and got == ["a", 1, "b", 2.5]

    @njit
    def with_a_tuple():
        return ["a", 1] + (2.5,)

    with pytest.raises(TypingError):
        with_a_tuple()


def test_literal_lists_are_not_tuples():
    @njit
    def as_tuple():
        return tuple(["a", 1])  # noqa: C409 (tuple() of a literal list is the test)

    @njit
    def compared():
        return ["a", 1] == ["a", 1], ["a", 1] < ["a", 2], ["a", 1] != ["b", 1]

    assert as_tuple() == ("a", 1) and type(as_tuple()) is tuple
    assert compared() == compared.py_func()

    @njit
    def against_a_tuple():
        return ["a", 1] == ("a", 1)  # False in Python: refused rather than compared as tuples

    with pytest.raises(TypingError, match="cannot compare"):
        against_a_tuple()

    @njit
    def printed():
        print(["a", 1])

    with pytest.raises(TypingError, match="cannot print"):
        printed()


def test_literal_lists_are_unhashable():
    @njit
    def as_key():
        return {["a", 1]: 1}

    with pytest.raises(TypingError):
        as_key()
