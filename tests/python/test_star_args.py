"""``*args`` and keyword-only parameters in jitted functions: called from Python (the extra
positional arguments arrive as one tuple, heterogeneous or empty) and from compiled code, where
``f(*t)`` spreads a tuple variable into positional arguments. Every result is compared with the
Python function's, and the runtime's allocation counters must balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import no_allocation_leak, outcome

from taipan import njit
from taipan.errors import TypingError, UnsupportedError


def check(function, *args, **kwargs):
    expected = outcome(function.py_func, *args, **kwargs)
    with no_allocation_leak():
        got = outcome(function, *args, **kwargs)
        if got[0] == "value" and isinstance(got[1], np.ndarray):
            np.testing.assert_array_equal(got[1], expected[1])
            got = None  # the returned array is freed here, inside the counted region
    if got is not None:
        assert got == expected


@njit
def add_two(*args):
    return args[0] + args[1]


@njit
def count(*args):
    return len(args)


@njit
def total(*args):
    s = 0.0
    for x in args:
        s += x
    return s


@njit
def first_and_rest(a, *rest):
    return a * len(rest)


@njit
def passes_on(*args):
    return add_two(*args)


@njit
def packs_again(*args):
    return count(*args) + count(1, *args) + count()


@njit
def spreads(t):
    return add_two(*t)


@njit
def keyword_only(a, *, b=2, c=0.5):
    return a * b + c


@njit
def calls_keyword_only(x):
    return keyword_only(x) + keyword_only(x, b=3) + keyword_only(x, c=1.5, b=1)


@njit
def star_and_keyword(a, *args, scale=1):
    return (a + len(args)) * scale


@njit
def returns_args(*args):
    return args


@pytest.mark.parametrize(
    "args", [(1, 2), (1, 2.5), (True, 3), (2.5, -1.0), ("ab", "cd"), (np.arange(3), 1.5)]
)
def test_heterogeneous_pairs(args):
    check(add_two, *args)
    check(passes_on, *args)
    check(spreads, args)


@pytest.mark.parametrize("args", [(), (1,), (1, 2.5, True), ("a", np.zeros(2), 3)])
def test_len_and_empty(args):
    check(count, *args)
    check(packs_again, *args)
    check(returns_args, *[a for a in args if not isinstance(a, np.ndarray)])


@pytest.mark.parametrize("args", [(1.0,), (1, 2, 3), (0.5, 0.25)])
def test_iteration_over_homogeneous_args(args):
    check(total, *args)


def test_iteration_over_no_args_skips_the_body():
    # A loop over an empty tuple runs no iteration: the result is the start value, as in Python.
    check(total)


def test_leading_parameter():
    check(first_and_rest, 3)
    check(first_and_rest, 3, 1, 2.5)
    check(first_and_rest, 2.5, "x")


def test_keyword_only_parameters():
    check(keyword_only, 3)
    check(keyword_only, 3, b=4)
    check(keyword_only, 3, c=2, b=1.5)
    check(calls_keyword_only, 2)
    check(star_and_keyword, 1, 2, 3)
    check(star_and_keyword, 1, 2, 3, scale=2.5)
    with pytest.raises(TypeError):
        keyword_only(1, 2)
    with pytest.raises(TypeError):
        add_two(1, 2, b=3)


def test_star_on_a_non_tuple_is_a_typing_error():
    @njit
    def f(a):
        return add_two(*a)

    with pytest.raises(TypingError, match="needs a tuple"):
        f(np.arange(2))


def test_star_into_a_builtin_spreads_the_tuple():
    # Refused until f0ac2fb spread `f(*t)` into library functions; now as in Python.
    @njit
    def f(t):
        return max(*t)

    for t in ((1, 2), (3, 9, 2), (1.5, -2.0)):
        assert f(t) == f.py_func(t)


def test_star_on_an_expression_spreads_its_value():
    # Was refused ("only on a variable"); f(*expr) of any tuple-valued expression now spreads
    # it, as Python does (numba-cuda's complex(*cmath.polar(z))).
    @njit
    def f(t):
        return add_two(*(t + t))

    assert f((1,)) == f.py_func((1,))
    assert f((2.5,)) == f.py_func((2.5,))


def test_kwargs_is_unsupported():
    @njit
    def f(**kwargs):
        return 1

    with pytest.raises(UnsupportedError, match=r"\*\*kwargs"):
        f()


# *args in a jitclass's constructor and static methods: the extra arguments arrive as a tuple,
# from Python and from compiled code alike.


def _summing_class():
    from taipan import float64, jitclass

    @jitclass([("total", float64), ("count", float64)])
    class Summing:
        def __init__(self, first, *rest):
            self.total = first
            for x in rest:
                self.total += x
            self.count = 1 + len(rest)

        @staticmethod
        def add_all(*args):
            s = 0
            for x in args:
                s += x
            return s

        def mean(self):
            return self.total / self.count

    return Summing


Summing = _summing_class()


@njit
def build_and_read(a, b, c):
    s = Summing(a, b, c)
    return s.total, s.count, s.mean(), Summing.add_all(a, b), s.add_all(), Summing(a).count


def test_jitclass_constructor_and_static_method_with_star_args():
    check(build_and_read, 1.0, 2.0, 4.5)
    with no_allocation_leak():
        made = Summing(1.0, 2.0, 3.0)  # from Python: bound by the constructor's signature
        assert (made.total, made.count) == (6.0, 3.0)
        assert Summing.add_all(1, 2, 3) == 6
        del made
