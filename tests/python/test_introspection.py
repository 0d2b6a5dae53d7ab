"""isinstance(), getattr() and hasattr() in compiled code, decided from types when the function
compiles (as Numba decides them): jitclass instances and optional ones against jitclasses and
builtin classes, getattr with a default, hasattr. Every result is compared with the Python
function's, and the runtime's allocation counters must balance."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import float64, int64, jitclass, njit
from taipan.errors import TypingError, UnsupportedError

NoneType = type(None)


@jitclass([("x", int64)])
class Counter:
    def __init__(self, x):
        self.x = x


@jitclass([("x", float64)])
class Gauge:
    def __init__(self, x):
        self.x = x


def check(function, *args):
    expected = function.py_func(*args)
    with no_allocation_leak():
        assert function(*args) == expected


@njit
def classify(value):
    return (
        isinstance(value, Counter),
        isinstance(value, Gauge),
        isinstance(value, (int, Counter)),
        isinstance(value, (float, str)),
        isinstance(value, object),
        isinstance(value, NoneType),
    )


@pytest.mark.parametrize(
    "make", [lambda: Counter(3), lambda: Gauge(2.5), lambda: 7, lambda: 1.5, lambda: "s"]
)
def test_isinstance_of_jitclass_instances_and_builtins(make):
    check(classify, make())


@njit
def optional_instance(flag):
    value = Counter(4) if flag else None
    return (
        isinstance(value, Counter),
        isinstance(value, NoneType),
        isinstance(value, Gauge),
        isinstance(value, (Counter, NoneType)),
        isinstance(value, (Gauge, NoneType)),
    )


@pytest.mark.parametrize("flag", [True, False])
def test_isinstance_of_an_optional_instance_is_decided_at_run_time(flag):
    check(optional_instance, flag)


@njit
def branch_on_class(value):
    if isinstance(value, Counter):
        return value.x * 2  # typed only for a Counter: a Gauge's branch is pruned
    return -1


def test_isinstance_prunes_the_branch_not_taken():
    check(branch_on_class, Counter(5))
    check(branch_on_class, Gauge(1.0))


def test_two_jitclasses_of_one_name_stay_distinct():
    def make(field_type):
        @jitclass([("v", field_type)])
        class Same:
            def __init__(self, v):
                self.v = v

        return Same

    first, second = make(int64), make(float64)

    @njit
    def is_first(value):
        return isinstance(value, first)

    assert is_first(first(1)) and is_first.py_func(first(1))
    assert not is_first(second(1.0)) and not is_first.py_func(second(1.0))


@njit
def with_default(value, default):
    return getattr(value, "__not_a_valid_attr__", default)


@pytest.mark.parametrize(
    ("value", "default"), [(1, None), (2.34, 20), ((5, 6, 7), "some_string"), ("s", 1.5)]
)
def test_getattr_with_a_default(value, default):
    check(with_default, value, default)


@njit
def existing_attributes(c):
    a = np.ones((2, 3))
    return (
        getattr(a, "ndim", -1),
        getattr(c, "x", -1),
        getattr(np, "pi", 0.0),
        getattr(c, "missing", "fallback"),
        hasattr(a, "shape"),
        hasattr(a, "no_such_attribute"),
        hasattr(c, "x"),
        hasattr(1, "real"),
    )


def test_getattr_and_hasattr_of_existing_and_missing_attributes():
    check(existing_attributes, Counter(9))


@njit
def hasattr_prunes(c):
    if hasattr(c, "x"):
        return c.x
    return c.y  # never typed: Counter has no y


def test_hasattr_prunes_the_branch_not_taken():
    check(hasattr_prunes, Counter(3))


def test_getattr_needs_a_literal_name():
    @njit
    def f(value, name):
        return getattr(value, name, 0)

    with pytest.raises(TypingError, match="literal string"):
        f(1, "real")


def test_getattr_without_a_default_of_a_missing_attribute_is_a_typing_error():
    @njit
    def f(value):
        return getattr(value, "missing")  # noqa: B009 - getattr is what is tested

    with pytest.raises(TypingError, match="missing"):
        f(1.5)


def test_getattr_and_hasattr_of_a_call_are_refused_not_skipped():
    # The call may decide the answer without evaluating its value, so a value with effects of
    # its own is refused (with the user's line) rather than silently not evaluated.
    @njit
    def g(counter):
        counter.x += 1
        return counter

    @njit
    def with_default(counter):
        return getattr(g(counter), "missing", 0)

    @njit
    def query(counter):
        return hasattr(g(counter), "x")

    for function in (with_default, query):
        with pytest.raises(UnsupportedError, match="assign the value to a variable") as error:
            function(Counter(1))
        assert "test_introspection.py" in str(error.value)
