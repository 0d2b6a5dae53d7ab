"""Overloads registered for a builtin function (cuda.bf16's of math.log, math.sqrt...) leave
the builtin's other uses as they were: calls their typing functions' parameters do not take
(math.log(x, base)) go to taipan's library function, and the builtin passed as a value is
still the builtin. Before, a process that had imported cuda.bf16 refused both (found on the
GPU host, where the whole suite runs in few processes). Run in a fresh interpreter, so that
the registrations do not depend on what this test process imported before."""

import textwrap

from child_processes import child_environment, run_python

SCRIPT = textwrap.dedent(
    """
    import math
    import taipan
    from taipan.cuda import bf16  # registers overloads of math.log, math.sqrt, ...
    from taipan.extending import overload

    @overload(math.hypot)
    def one_argument_hypot(x):  # a user's overload taking fewer arguments than the builtin
        return None

    @taipan.njit
    def log_base(x, b):
        return math.log(x, b)

    @taipan.njit
    def hypot(x, y):
        return math.hypot(x, y)

    @taipan.njit
    def apply(function, x):
        return function(x)

    assert log_base(8.0, 2.0) == log_base.py_func(8.0, 2.0)
    assert log_base(10.0, 10.0) == 1.0
    assert hypot(3.0, 4.0) == 5.0
    assert apply(math.sqrt, 16.0) == 4.0
    assert apply(math.log, math.e) == apply.py_func(math.log, math.e)
    # Domain errors give C's result, as in Numba (tests/python/test_builtins_math.py).
    assert log_base(0.0, 2.0) == -math.inf
    print("ok")
    """
)


def test_builtins_keep_working_beside_their_overloads():
    done = run_python(["-c", SCRIPT], env=child_environment(), timeout=300)
    assert done.stdout.strip() == "ok"
