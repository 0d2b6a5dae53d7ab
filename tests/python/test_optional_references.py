"""Optional values of reference types (Numba's Optional(array) and friends): a variable, argument
or result that is an array, string, list, dict, set or a tuple of them on some paths and None on
others. `is None` narrows, None or a value reaches Python, and nothing leaks on either path."""

import numpy as np
import pytest
from numpy_checks import check_outcome as check
from numpy_checks import no_allocation_leak

from taipan import njit
from taipan.errors import TypingError


def array_or_none(n):
    if n > 0:
        return np.arange(n) * 1.5
    return None


def string_or_none(n):
    s = None
    if n > 1:
        s = "ab" * n
    return s


def list_or_none(n):
    out = None
    if n % 2 == 0:
        out = [i for i in range(n)]
    return out


def tuple_of_array_or_none(n):
    r = None
    if n:
        r = (np.zeros(n), "x" * n)
    return r


def narrowed(n):
    a = None
    if n > 2:
        a = np.ones(n)
    if a is not None:
        return a.sum() + len(a)
    return -1.0


def reassigned(n):
    a = np.arange(3.0)
    total = 0.0
    for i in range(n):
        if i % 2:
            a = None
        else:
            a = np.arange(float(i))
        if a is not None:
            total += a.sum()
    return total, a


def read_none_raises(n):
    a = None
    if n > 0:
        a = np.arange(n)
    return a[0]


def attribute_of_optional(n, do_it):
    opt = None
    if do_it:
        opt = np.arange(n)
    return opt.shape[0]


def dict_get_array(n):
    d = {i: np.arange(i) for i in range(n)}
    got = d.get(2)
    missing = d.get(n + 5)
    return got, missing is None


def pop_with_none_default(n):
    d = {i: i * 0.5 for i in range(n)}
    got = d.pop(1, None)
    missing = d.pop(n + 1, None)
    return got, missing, len(d)


def conditional_expression(n):
    s = "value" if n > 0 else None
    return s


@pytest.mark.parametrize(
    "function, args",
    [
        (array_or_none, (4,)),
        (array_or_none, (0,)),
        (string_or_none, (3,)),
        (string_or_none, (1,)),
        (list_or_none, (4,)),
        (list_or_none, (3,)),
        (tuple_of_array_or_none, (2,)),
        (tuple_of_array_or_none, (0,)),
        (narrowed, (5,)),
        (narrowed, (1,)),
        (reassigned, (0,)),
        (reassigned, (4,)),
        (reassigned, (5,)),
        (read_none_raises, (3,)),
        (attribute_of_optional, (5, True)),
        (dict_get_array, (4,)),
        (pop_with_none_default, (3,)),
        (conditional_expression, (1,)),
        (conditional_expression, (0,)),
    ],
)
def test_optional_reference(function, args):
    check(function, *args)


def test_read_of_none_array_raises_type_error():
    with pytest.raises(TypeError, match="got None"):
        njit(read_none_raises)(0)


def test_optional_array_argument():
    # Numba's test_optional::test_optional_array
    def pyfunc(x, y):
        if y is None:
            return x
        else:
            y[0] += x
            return y[0]

    cfunc = njit("(float32, optional(float32[:]))")(pyfunc)
    cy = np.array([12.3], dtype=np.float32)
    py = cy.copy()
    with no_allocation_leak():
        got = cfunc(1.0, cy)
        none = cfunc(1.0, None)
    assert got == pytest.approx(pyfunc(1.0, py))
    np.testing.assert_array_equal(py, cy)
    assert none == pytest.approx(pyfunc(1.0, None))


def test_optional_array_argument_error():
    cfunc = njit("(optional(int32[:]),)")(lambda y: y[0])
    with pytest.raises(TypeError, match=r"expected array\(int32, 1d, A\), got None"):
        cfunc(None)
    assert cfunc(np.array([0xABCD], dtype=np.int32)) == 0xABCD


def test_optional_array_returned_through_jitted_callee():
    inner = njit(array_or_none)

    @njit
    def outer(n):
        a = inner(n)
        if a is None:
            return 0.0
        return a.sum()

    with no_allocation_leak():
        assert outer(3) == array_or_none(3).sum()
        assert outer(0) == 0.0


def test_optional_of_generator_is_refused():
    def gen(n):
        yield n

    g = njit(gen)

    def f(n):
        x = None
        if n:
            x = g(n)
        return x

    with pytest.raises(TypingError):
        njit(f)(1)


def test_optional_tuple_unpacks_narrowed():
    # Numba's test_optional::test_optional_unpack
    def pyfunc(x):
        if x is None:
            return None
        a, b = x
        return a, b

    cfunc = njit("(optional(UniTuple(int64, 2)),)")(pyfunc)
    assert cfunc(None) is None
    assert cfunc((1, 2)) == (1, 2)


def bare_return(x):
    if x is None:
        return
    else:
        a, b = x
        return a, b


def falls_off_the_end(n):
    if n > 0:
        return np.arange(n)


def test_bare_return_of_an_optional_function_is_none():
    # Numba's test_optional_unpack: a bare `return` once gave the result slot's garbage.
    cfunc = njit("(optional(UniTuple(int64, 2)),)")(bare_return)
    assert cfunc(None) is None
    assert cfunc((1, 2)) == (1, 2)
    check(falls_off_the_end, 0)
    check(falls_off_the_end, 3)

    @njit
    def scalar(x):
        if x < 0:
            return
        return x

    assert scalar(-1) is None
    assert scalar(3) == 3


@njit
def optional_length(s):
    if s is None:
        return 0
    return len(s)


def reassigned_in_loops(n):
    s = None
    total = 0
    for i in range(n):
        if i % 3 == 0:
            s = None
        else:
            s = "x" * i
        total += optional_length(s)
    items = None
    for i in range(n):
        if i % 2:
            items = [i, i + 1]
        else:
            items = None
    pair = None
    if n > 2:
        pair = (np.ones(2), "ab")
    return total, items, pair is None


@pytest.mark.parametrize("n", [0, 2, 7])
def test_optional_references_in_loops_and_callees(n):
    check(reassigned_in_loops, n)
