"""Python's operator module, isinstance, callable and getattr in compiled code, against the
interpreter (f.py_func) on numbers, tuples and arrays."""

import operator

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError, UnsupportedError

BINARY = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.eq,
    operator.ne,
]
INTEGER_ONLY = [operator.lshift, operator.rshift, operator.and_, operator.or_, operator.xor]


def call_binary(function):
    def f(a, b):
        return function(a, b)

    return f


@pytest.mark.parametrize("function", BINARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("a, b", [(7, 3), (-7, 3), (2.5, -0.5), (3, 2.0), (-0.0, 1.5)])
def test_binary_functions_are_their_operators(function, a, b):
    f = njit(call_binary(function))
    assert f(a, b) == f.py_func(a, b)
    assert type(f(a, b)) is type(f.py_func(a, b))


@pytest.mark.parametrize("function", INTEGER_ONLY, ids=lambda f: f.__name__)
def test_integer_operators(function):
    f = njit(call_binary(function))
    for a, b in [(12, 3), (-12, 2), (True, False)]:
        assert f(a, b) == f.py_func(a, b)


def test_binary_functions_on_arrays_broadcast_and_free_their_results():
    f = njit(call_binary(operator.mul))
    a, b = np.arange(6.0).reshape(2, 3), np.array([1.0, -1.0, 0.5])
    with no_allocation_leak():
        np.testing.assert_array_equal(f(a, b), a * b)


def unary(a):
    return operator.neg(a), operator.pos(a), operator.abs(a), operator.not_(a), operator.truth(a)


@pytest.mark.parametrize("a", [3, -4, 0, 2.5, -0.0, True])
def test_unary_functions(a):
    f = njit(unary)
    assert f(a) == f.py_func(a)


def test_invert_and_inv():
    f = njit(lambda a: (operator.invert(a), operator.inv(a)))
    assert f(5) == f.py_func(5)


def in_place(x, y):
    z = x
    z = operator.iadd(z, y)
    z = operator.imul(z, 2)
    return z


def test_in_place_functions_change_arrays_and_rebind_numbers():
    f = njit(in_place)
    assert f(3, 4) == f.py_func(3, 4)
    ours, theirs = np.arange(3.0), np.arange(3.0)
    with no_allocation_leak():
        result = f(ours, 1.0)
    expected = f.py_func(theirs, 1.0)
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(ours, theirs)  # changed in place, as NumPy's += does


def items(a, i, v, t):
    operator.setitem(a, i, v)
    return operator.getitem(a, i), operator.contains(t, 2), operator.is_(None, None)


def test_item_functions_and_contains():
    f = njit(items)
    ours, theirs = np.zeros(4), np.zeros(4)
    assert f(ours, 2, 5.5, (1, 2, 3)) == f.py_func(theirs, 2, 5.5, (1, 2, 3))
    np.testing.assert_array_equal(ours, theirs)


def classify(x):
    if isinstance(x, bool):
        return 0
    if isinstance(x, (int, np.integer)):
        return 1
    if isinstance(x, float):
        return 2
    if isinstance(x, np.ndarray):
        return 3
    if isinstance(x, tuple):
        return 4
    if isinstance(x, str):
        return 5
    return 6


@pytest.mark.parametrize("x", [True, 3, np.int16(2), 2.5, np.ones(2), (1, 2.0), "s", 1j])
def test_isinstance_is_decided_from_the_type(x):
    f = njit(classify)
    assert f(x) == f.py_func(x)


def pruned(x):
    if isinstance(x, np.ndarray):
        return x.sum()  # never typed for a number
    return x + 1.0


def test_isinstance_prunes_the_branch_not_taken():
    f = njit(pruned)
    assert f(2) == f.py_func(2)
    assert f(np.ones(3)) == f.py_func(np.ones(3))


class Mine:
    pass


def test_isinstance_of_a_users_class_is_refused_at_the_line():
    f = njit(lambda x: isinstance(x, Mine))
    with pytest.raises(UnsupportedError) as error:
        f(1)
    assert "isinstance() with the class" in str(error.value)
    assert "lambda x: isinstance(x, Mine)" in str(error.value)


@njit
def helper(x):
    return x


def test_callable_and_getattr():
    f = njit(lambda a: (callable(a), callable(helper), getattr(a, "ndim"), getattr(a, "size")))  # noqa: B009
    a = np.ones((2, 3))
    assert f(a) == f.py_func(a) == (False, True, 2, 6)


def test_getattr_needs_a_constant_name():
    f = njit(lambda a, name: getattr(a, name))
    with pytest.raises(TypingError) as error:
        f(np.ones(2), "ndim")
    assert "getattr() needs a constant attribute name" in str(error.value)
