"""iter(x) and next(it) as values: iter() makes a generator over what `for` gives, so next()
(with and without a default), for loops, list() and the other consumers of generators advance
one iterator, each item read once; StopIteration at the end as CPython raises it. Results are
compared with the Python function's."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit


def two_items(x):
    it = iter(x)
    return next(it), next(it)


def with_default(x):
    it = iter(x)
    a = next(it, -1)
    b = next(it, -1)
    c = next(it, -1)
    return a, b, c


def test_next_over_iterables():
    f = njit(two_items)
    g = njit(with_default)
    cases = [
        (1, 42, 5),
        [3.5, -0.0, 7.0],
        np.arange(5),
        np.array([2.5, 1.5]),
    ]
    for x in cases:
        with no_allocation_leak():
            assert f(x) == two_items(x)
            assert g(x) == with_default(x)


def test_ranges_strings_and_dict_keys():
    @njit
    def over_range(n):
        it = iter(range(n))
        return next(it, -1), next(it, -1)

    @njit
    def over_string(s):
        it = iter(s)
        return next(it), next(it)

    @njit
    def over_keys():
        d = {3: 1.0, 1: 2.0, 2: 3.0}
        it = iter(d)
        return next(it), next(it)

    with no_allocation_leak():
        for n in (0, 1, 5):
            assert over_range(n) == over_range.py_func(n)
        for s in ("ab", "héllo"):
            assert over_string(s) == over_string.py_func(s)
        assert over_keys() == over_keys.py_func()


def test_stop_iteration():
    f = njit(two_items)
    with pytest.raises(StopIteration):
        f((1,))
    with no_allocation_leak(), pytest.raises(StopIteration):
        f(np.zeros(1))


def test_stop_iteration_caught_in_compiled_code():
    @njit
    def count(x):
        it = iter(x)
        n = 0
        while True:
            try:
                next(it)
            except StopIteration:
                break
            n += 1
        return n

    for x in [(1, 2, 3), [1.5], np.arange(0)]:
        with no_allocation_leak():
            assert count(x) == count.py_func(x)


def test_iterator_shared_by_consumers():
    @njit
    def split(n):
        it = iter(range(n))
        first = next(it)
        rest = list(it)
        return first, rest

    @njit
    def loop_after_next(a):
        it = iter(a)
        head = next(it)
        total = 0.0
        for x in it:
            total += x
        return head, total

    with no_allocation_leak():
        assert split(5) == split.py_func(5)
        a = np.array([1.0, 2.0, 4.0])
        assert loop_after_next(a) == loop_after_next.py_func(a)


def test_iter_of_an_iterator_is_itself():
    @njit
    def twice(n):
        it = iter(range(n))
        same = iter(it)
        return next(it), next(same), next(it)

    assert twice(5) == twice.py_func(5)


def double(x):
    return 2 * x


def test_map_and_filter_results_as_values():
    doubled = njit(double)

    @njit
    def mapped(a):
        m = map(doubled, a)
        first = next(m)
        return first, list(m)

    @njit
    def filtered(a):
        f = filter(None, a)
        return list(f)

    with no_allocation_leak():
        a = np.array([1.0, 0.0, -2.0, 0.0, 3.5])
        assert mapped(a) == mapped.py_func(a)
        assert filtered(a) == filtered.py_func(a)
        assert filtered([0, 1, 2]) == [1, 2]


def test_zip_of_an_iterator_as_a_value():
    @njit
    def first_exhausted(n):
        it = iter(range(7))
        front = list(zip(range(n), it))  # zip takes from range(n) first, so nothing is lost
        back = list(it)
        return front, back

    with no_allocation_leak():
        for n in (0, 3, 9):
            assert first_exhausted(n) == first_exhausted.py_func(n)
