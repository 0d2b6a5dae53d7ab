"""`flag is True` of a constant flag decides its branch at compile time, as `if flag:` does
(Numba prunes both): True and False are singletons, so `is` between bools is their equality,
and a bool is never the same object as a number. The branch not taken is not typed, so it may
hold code that would not type for these arguments."""

import pytest
from conftest import assert_same

from taipan import njit

FALSE = False
TRUE = True
ONE = 1


def pruned(x):
    if FALSE is True:
        return x.no_such_attribute
    if TRUE is False:
        return x.no_such_attribute
    if ONE is True:  # an int is not True, whatever its value
        return x.no_such_attribute
    if FALSE is not False:
        return x.no_such_attribute
    if TRUE is not True:
        return x.no_such_attribute
    if TRUE is True and FALSE is False and ONE is not True:
        return x + 1
    return x.no_such_attribute


@pytest.mark.parametrize("x", [3, -2.5])
def test_identity_of_constant_bools_decides_the_branch(x):
    assert_same(njit(pruned), x)


def test_a_flag_from_an_enclosing_scope():
    def make(flag):
        def f(t):
            if flag is True:
                return t[0] + t[1]
            return t.no_such_attribute

        return njit(f)

    assert make(True)((2, 3)) == 5


def test_a_run_time_bool_is_still_compared_at_run_time():
    @njit
    def f(b):
        return 1 if b is True else 0

    assert f(True) == 1 and f(False) == 0
