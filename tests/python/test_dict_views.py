"""Dict views in compiled code and on taipan.typed.Dict: d.keys(), d.values() and d.items() are
live views as in CPython (their length follows the dict, `in` reads it, iterating a dict or a
view while the dict changes size raises RuntimeError), compared with CPython, with no memory
block left behind."""

import numpy as np
import pytest
from numpy_checks import check_outcome as check
from numpy_checks import no_allocation_leak

from taipan import njit, typed, types
from taipan.errors import TypingError, UnsupportedError


def length_follows(n):
    d = {i: float(i) for i in range(n)}
    k, v, it = d.keys(), d.values(), d.items()
    before = (len(k), len(v), len(it), bool(k))
    d[100] = 1.0
    d[101] = 2.0
    del d[0]
    return before, (len(k), len(v), len(it), bool(k))


def membership(n):
    d = {i: i * 0.5 for i in range(n)}
    k, v, it = d.keys(), d.values(), d.items()
    d[-5] = 7.0
    return (
        -5 in k,
        3 in k,
        n in k,
        7.0 in v,
        0.5 in v,
        -1.0 not in v,
        (-5, 7.0) in it,
        (1, 0.5) in it,
        (1, 0.75) in it,
        (n + 10, 1.0) not in it,
    )


def string_membership():
    d = {"a": "x", "bb": "y"}
    return "a" in d, "x" in d.values(), ("bb", "y") in d.items(), "z" in d


def iterate_views(n):
    d = {i * 3 % 7: float(i) for i in range(n)}
    out = []
    for k in d.keys():  # noqa: SIM118 - keys() is what is tested
        out.append(float(k))
    for v in d.values():
        out.append(v)  # noqa: PERF402 - a loop is what is tested
    for k, v in d.items():
        out.append(k + v)
    return out


def consumers(n):
    d = {i * 5 % 11: i * 1.5 for i in range(n)}
    pairs = []
    for i, (k, v) in enumerate(d.items()):
        pairs.append((i, k, v))
    zipped = []
    for k, v in d.items():
        zipped.append(k * v)
    return (
        list(d.keys()),
        sorted(d.values()),
        list(d.items()),
        sum(d.values()),
        sorted(d.keys()),
        pairs,
        zipped,
        sorted(set(d.keys())),
    )


def grow_while_iterating(n):
    d = {i: i for i in range(n)}
    for k in d:
        d[k + 100] = k
    return len(d)


def grow_while_iterating_items(n):
    d = {i: i for i in range(n)}
    for k, v in d.items():
        if k == n - 1:
            d[-1] = v  # after the last item: the next step still raises
    return len(d)


def shrink_while_iterating_values(n):
    d = {i: i for i in range(n)}
    total = 0
    for v in d.values():
        total += v
        if v == 1:
            d.pop(0)
    return total


def replace_keys_while_iterating(n):
    d = {i: i for i in range(n)}
    seen = []
    for k in d:
        seen.append(k)
        if k < 100:
            del d[k]
            d[k + 100] = k
    return seen


def change_values_while_iterating(n):
    d = {i: i for i in range(n)}
    for k in d:  # noqa: PLC0206 - iterating the dict is what is tested
        d[k] = d[k] * 10
    return [v for v in d.values()]


def break_and_else(n):
    d = {i: i for i in range(n)}
    found = -1
    for k in d.keys():  # noqa: SIM118 - keys() is what is tested
        if k == 2:
            found = k
            break
    else:
        found = -2
    return found


def empty_dict_views():
    d = {1: 2.0}
    del d[1]
    out = 0
    for _ in d.items():
        out += 1
    return out, len(d.keys()), 1 in d, bool(d.values())


def view_of_strings(n):
    d = {}
    for i in range(n):
        d["k" + str(i)] = [i, i + 1]
    out = []
    for k, v in d.items():
        out.append(k + ":" + str(len(v)))
    return out


def rebinds_the_dict(n):
    d = {i: i for i in range(n)}
    out = []
    for k, v in d.items():
        d = {100 + k: v}
        out.append(k + v)
    for k in d:
        d = {-1: 0}
        out.append(k)
    return out, len(d)


def comprehension_over_items(n):
    d = {i: i * i for i in range(n)}
    return [k + v for k, v in d.items() if v % 2 == 0]


@pytest.mark.parametrize(
    "function, args",
    [
        (length_follows, (4,)),
        (membership, (4,)),
        (string_membership, ()),
        (iterate_views, (9,)),
        (consumers, (8,)),
        (grow_while_iterating, (3,)),
        (grow_while_iterating_items, (3,)),
        (shrink_while_iterating_values, (4,)),
        (replace_keys_while_iterating, (3,)),
        (change_values_while_iterating, (4,)),
        (break_and_else, (5,)),
        (break_and_else, (2,)),
        (empty_dict_views, ()),
        (view_of_strings, (3,)),
        (comprehension_over_items, (6,)),
        (rebinds_the_dict, (4,)),
    ],
)
def test_dict_view(function, args):
    check(function, *args)


def test_view_returned_to_python_is_live():
    @njit
    def f(n):
        d = {i: i * 2.0 for i in range(n)}
        return d.keys(), d.values(), d.items(), d

    with no_allocation_leak():
        keys, values, items, d = f(3)
        assert list(keys) == [0, 1, 2]
        assert list(values) == [0.0, 2.0, 4.0]
        assert list(items) == [(0, 0.0), (1, 2.0), (2, 4.0)]
        d[7] = 1.0
        assert len(keys) == 4 and 7 in keys and (7, 1.0) in items and 1.0 in values
        del keys, values, items, d


def test_view_passed_to_jitted_function():
    @njit
    def count(view):
        total = 0
        for k in view:
            total += k
        return total, len(view)

    @njit
    def f(n):
        d = {i: 1 for i in range(n)}
        return count(d.keys())

    with no_allocation_leak():
        got = f(5)
    assert got == count.py_func({i: 1 for i in range(5)}.keys())


def test_typed_dict_views_from_python_are_live():
    d = typed.Dict.empty(types.int64, types.float64)
    keys, values, items = d.keys(), d.values(), d.items()
    assert len(keys) == 0
    d[1] = 1.5
    d[2] = 2.5
    assert len(keys) == 2 and len(values) == 2 and len(items) == 2
    assert 1 in keys and 3 not in keys and 2.5 in values and (2, 2.5) in items
    assert list(items) == [(1, 1.5), (2, 2.5)]
    assert keys & {2, 3} == {2}
    with pytest.raises(RuntimeError, match="changed size during iteration"):
        for k in d:
            d[k + 10] = 0.0
    with pytest.raises(RuntimeError, match="changed size during iteration"):
        for k in keys:
            del d[k]


def keys_view_operators(n, m):
    d = {i * 7 % 11: i for i in range(n)}
    e = {i * 3 % 13: 1.0 for i in range(m)}
    s = {i * 5 % 9 for i in range(m)}
    k, ek = d.keys(), e.keys()
    return (
        list(k | s),
        list(k & s),
        list(k - s),
        list(k ^ s),
        list(s | k),
        list(s & k),
        list(s - k),
        list(s ^ k),
        list(k & ek),
        list(ek & k),
        list(k | ek),
        list(k - [1, 2, 3]),
        list(k & [5, 1, 5, 100]),
    )


@pytest.mark.parametrize("n, m", [(0, 3), (5, 2), (6, 9), (12, 4)])
def test_keys_view_set_operators(n, m):
    check(keys_view_operators, n, m)


def test_set_operators_on_values_views_are_refused():
    def f(n):
        d = {i: i for i in range(n)}
        return d.values() & {1}

    with pytest.raises((TypingError, UnsupportedError)):
        njit(f)(3)


def test_arrays_as_values():
    def f(n):
        d = {i: np.arange(i) for i in range(n)}
        total = 0
        for a in d.values():
            total += a.sum()
        return total, len(d.values())

    check(f, 5)


def rebinds_the_iterated_list_and_array(n):
    items = [i * 1.5 for i in range(n)]
    out = []
    for x in items:
        items = [0.0] * 50
        out.append(x)
    a = np.arange(float(n))
    for x in a:
        a = np.zeros(50)
        out.append(x)
    return out, len(items), len(a)


def test_loops_hold_what_they_iterate():
    # A loop over a list or an array whose name the body rebinds walks the original, as in
    # CPython (it once walked freed memory).
    check(rebinds_the_iterated_list_and_array, 5)
