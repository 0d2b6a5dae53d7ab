"""Many threads compiling at once never deadlock (issue 28, item 1).

Each round is a fresh process: 16 threads wait at a barrier, then all call the same 40 lazily
compiled functions (scalar, array, ufunc, gufunc, parallel=True, cache=True, jitclass,
typed.List) in their own orders, so first calls race. The GIL switch interval is made tiny to
hand the GIL over inside compilations. A watchdog (faulthandler) dumps every thread's stack and
ends the process instead of letting it hang; the parent's timeout is the second net."""

import os
import subprocess
import sys
import textwrap

import pytest
from child_processes import child_python_path

ROUNDS = int(os.environ.get("TAIPAN_COMPILE_THREADS_ROUNDS", "50"))
THREADS = 16
WATCHDOG_SECONDS = 120

# Five functions of each of eight kinds: 40 distinct functions, each compiled on first call.
FUNCTIONS = textwrap.dedent(
    """
    import numpy as np
    from taipan import guvectorize, njit, prange, typed, types, vectorize
    from taipan.experimental import jitclass

    FUNCTIONS = []

    def case(expected):
        def register(function):
            FUNCTIONS.append((function, expected))
            return function
        return register
    """
)
for k in range(5):
    FUNCTIONS += textwrap.dedent(
        f"""
        @njit
        def scalar_{k}(x):
            return x * {k + 1} + 1
        case(lambda: scalar_{k}(3) == 3 * {k + 1} + 1)(scalar_{k})

        @njit
        def array_{k}(a):
            return (a * {k + 2}).sum()
        case(lambda: array_{k}(np.arange(4.0)) == 6.0 * {k + 2})(array_{k})

        @vectorize
        def ufunc_{k}(x):
            return x + {k}
        case(lambda: (ufunc_{k}(np.arange(3)) == np.arange(3) + {k}).all())(ufunc_{k})

        @guvectorize(["void(float64[:], float64[:])"], "(n)->()")
        def gufunc_{k}(a, out):
            out[0] = a.sum() + {k}
        case(lambda: gufunc_{k}(np.ones((2, 3)))[1] == 3.0 + {k})(gufunc_{k})

        @njit(parallel=True)
        def parallel_{k}(n):
            total = 0
            for i in prange(n):
                total += i + {k}
            return total
        case(lambda: parallel_{k}(100) == 4950 + 100 * {k})(parallel_{k})

        @njit(cache=True)
        def cached_{k}(x):
            return x - {k}
        case(lambda: cached_{k}(10) == 10 - {k})(cached_{k})

        @jitclass([("value", types.int64)])
        class Counter_{k}:
            def __init__(self, value):
                self.value = value

            def bump(self):
                self.value += {k + 1}
                return self.value

        @njit
        def use_class_{k}(n):
            c = Counter_{k}(n)
            c.bump()
            return c.bump()
        case(lambda: use_class_{k}(1) == 1 + 2 * {k + 1})(use_class_{k})

        @njit
        def typed_list_{k}(n):
            items = typed.List()
            for i in range(n):
                items.append(i * {k + 1})
            return len(items) + items[-1]
        case(lambda: typed_list_{k}(4) == 4 + 3 * {k + 1})(typed_list_{k})
        """
    )

RACE = textwrap.dedent(
    """
    import faulthandler, random, sys, threading
    faulthandler.dump_traceback_later({watchdog}, exit=True)  # every thread's stack, then exit
    sys.setswitchinterval(1e-6)
    import numpy as np
    import racing_functions
    functions = racing_functions.FUNCTIONS
    assert len(functions) == 40, len(functions)
    barrier = threading.Barrier({threads})
    failures = []

    def run(seed):
        order = list(functions)
        random.Random(seed).shuffle(order)
        barrier.wait()
        for function, expected in order:
            try:
                if not expected():
                    failures.append(f"{{function.__name__}}: wrong result")
            except Exception as error:  # reported, not raised: the parent prints them
                failures.append(f"{{function.__name__}}: {{error!r}}")

    threads = [threading.Thread(target=run, args=(i,)) for i in range({threads})]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    faulthandler.cancel_dump_traceback_later()
    print("\\n".join(failures) if failures else "ok")
    """
).format(watchdog=WATCHDOG_SECONDS, threads=THREADS)


@pytest.mark.parametrize("batch", range(5))
def test_threads_compiling_at_once_never_deadlock(batch, tmp_path):
    (tmp_path / "racing_functions.py").write_text(FUNCTIONS)
    env = dict(
        os.environ,
        PYTHONPATH=child_python_path(tmp_path),
        TAIPAN_CACHE_DIR=str(tmp_path / "cache"),
    )
    rounds = range(batch * ROUNDS // 5, (batch + 1) * ROUNDS // 5)
    for round_number in rounds:
        try:
            done = subprocess.run(
                [sys.executable, "-c", RACE],
                check=False,
                capture_output=True,
                text=True,
                timeout=WATCHDOG_SECONDS + 60,
                env=env,
                cwd=tmp_path,
            )
        except subprocess.TimeoutExpired as expired:
            pytest.fail(f"round {round_number} hung past the watchdog: {expired.stderr}")
        assert done.returncode == 0, (
            f"round {round_number} failed or was stopped by the watchdog (exit "
            f"{done.returncode}); its threads' stacks:\n{done.stderr[-8000:]}"
        )
        assert done.stdout.strip() == "ok", done.stdout
