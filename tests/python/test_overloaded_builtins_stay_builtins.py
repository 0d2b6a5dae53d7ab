"""A library function that overloads were registered for (Numba's documented @overload(len)
of tuples; taipan's own bytes values overload len) stays that function wherever compiled code
reads it: `len(t) == 2` of a tuple still prunes the branch that cannot type, `sum = len` is a
builtin value, enumerate/zip still iterate in step, and a call tries the overloads first, then
taipan's own implementation. Before, every test run after such a registration in one process
saw an overload object instead (test_branch_pruning_constants and test_comprehensions failed
in a worker that had run test_extending or a.tobytes()). Run in a fresh interpreter, so that the
registrations do not depend on what this test process imported before."""

import textwrap

from child_processes import child_environment, run_python

SCRIPT = textwrap.dedent(
    """
    import collections
    import numpy as np
    import taipan
    from taipan import types
    from taipan.errors import UnsupportedError
    from taipan.extending import overload
    from taipan.runtime import live_blocks

    @overload(len)
    def tuple_len(seq):  # Numba's documented example
        if isinstance(seq, types.BaseTuple):
            n = len(seq)
            return lambda seq: n + 100  # (distinct from the builtin's answer, to be seen)

    @overload(min)
    def never(a, b, c, d, e):  # takes five arguments: min(x, y) stays the library's
        return None

    Point = collections.namedtuple("Point", ("x", "y"))

    @taipan.njit
    def lengths(t, a, l):
        return len(t), len(a), len(l)

    @taipan.njit
    def tuple_length(t):
        if len(t) == 2:  # pruned for a pair: its third item is never typed
            return t[0] + t[1]
        return t[0] + t[1] + t[2]

    @taipan.njit
    def shadowed(n):
        sum = len
        return sum(i for i in range(n))

    @taipan.njit
    def in_step(a):
        total = 0
        for i, (x, y) in enumerate(zip(a, a[::-1])):
            total += i * x - y
        return total

    @taipan.njit
    def as_value(f, a):
        return f(a)

    @taipan.njit
    def classes(p):
        return isinstance(p, Point), isinstance(p, tuple), min(p.x, p.y)

    before = live_blocks()
    assert lengths((1, 2.5, 3), np.zeros(7), [1, 2]) == (103, 7, 2)
    assert tuple_length((1, 2)) == 3
    assert tuple_length((1, 2, 3)) == 6
    try:
        shadowed(3)
        raise AssertionError("sum = len was compiled")
    except UnsupportedError as error:
        assert "only supported as the argument of the builtin sum()" in str(error), error
    a = np.arange(5)
    assert in_step(a) == in_step.py_func(a)
    assert as_value(len, np.zeros(4)) == 4
    assert classes(Point(3, 2)) == (True, True, 2)
    assert live_blocks() == before
    print("ok")
    """
)


def test_overloaded_library_functions_stay_library_functions():
    done = run_python(["-c", SCRIPT], env=child_environment(), timeout=300)
    assert done.stdout.strip() == "ok"
