"""Several ``literal_unroll`` loops with the same loop variable in one function: each loop's
copies rename the variable when its value cannot leave the loop (read again only after another
assignment), so the loops type independently. Results equal the Python function's."""

import numpy as np
import pytest
from conftest import assert_same
from numpy_checks import no_allocation_leak

from taipan import literal_unroll, njit
from taipan.errors import TypingError


def two_loops(t, u):
    total = 0.0
    for x in literal_unroll(t):
        total += x
    for x in literal_unroll(u):
        total += len(x)
    return total


def three_loops_and_a_body_variable(t, u):
    out = []
    for x in literal_unroll(t):
        y = x * 2
        out.append(str(y))
    for x in literal_unroll(u):
        y = len(x)
        out.append(str(y))
    for x in literal_unroll(t):
        out.append(str(x))
    return out


def loops_inside_an_if(t, u, flag):
    n = 0.0
    if flag:
        for x in literal_unroll(t):
            n += x
        for x in literal_unroll(u):
            n += len(x)
    else:
        for x in literal_unroll(u):
            n -= len(x)
    return n


def loops_inside_a_loop(t, u, times):
    n = 0.0
    for _ in range(times):
        for x in literal_unroll(t):
            n += x
        for x in literal_unroll(u):
            n += len(x)
    return n


def name_reused_after_the_loops(t, u):
    n = 0.0
    for x in literal_unroll(t):
        n += x
    for x in literal_unroll(u):
        n += len(x)
    x = 10  # assigned again before any read: no value of the loops leaves them
    return n + x


NUMBERS = (1, 2.5, True)
SIZED = ("ab", np.ones(3), (1, 2, 3, 4))


@pytest.mark.parametrize(
    "function, args",
    [
        (two_loops, (NUMBERS, SIZED)),
        (three_loops_and_a_body_variable, (NUMBERS, SIZED)),
        (loops_inside_an_if, (NUMBERS, SIZED, True)),
        (loops_inside_an_if, (NUMBERS, SIZED, False)),
        (loops_inside_a_loop, (NUMBERS, SIZED, 3)),
        (loops_inside_a_loop, (NUMBERS, SIZED, 0)),
        (name_reused_after_the_loops, (NUMBERS, SIZED)),
    ],
)
def test_same_loop_variable_in_several_loops(function, args):
    f = njit(function)
    with no_allocation_leak():
        assert_same(f, *args)


def test_a_value_leaving_the_loop_still_unifies():
    # The last item's value is read after the loop: the copies share the variable, so items
    # of different types cannot be unified, as before (and as in Numba).
    @njit
    def last_item(t):
        for x in literal_unroll(t):
            pass
        return x

    assert last_item((1, 2)) == 2
    with pytest.raises(TypingError):
        last_item((1, "a"))


def test_a_value_read_by_the_next_iteration_of_an_outer_loop_unifies():
    @njit
    def carried(t, times):
        n = 0
        for i in range(times):
            if i > 0:
                n += x  # noqa: F821 - the previous iteration's last item
            for x in literal_unroll(t):
                pass
        return n

    assert carried((1, 2), 3) == carried.py_func((1, 2), 3)
    with pytest.raises(TypingError):
        carried((1, "a"), 3)
