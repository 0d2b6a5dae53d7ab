"""Scalar benchmarks, taipan vs numba side by side.

Measures, for each library (every number from fresh subprocesses):
  * ``import <lib>`` time (best of N fresh ``python -c`` processes);
  * first-call (compile) time of hypot, monte_carlo_pi, mandel and fib, each in a fresh
    process right after importing the library (best of N);
  * call overhead of ``hypot(3.0, 4.0)`` (ns per call in a Python loop, loop overhead
    included, best of several repeats; ``math.hypot`` shown for reference);
  * steady-state run time of ``monte_carlo_pi(10**6)``.

Targets are maxima of the ratio taipan/numba.

Usage: python benchmarks/bench_scalar.py [--import-repeats 5] [--compile-repeats 3] [--quick]

TAIPAN_BENCH_STANDIN=numba makes the "taipan" side import numba.  It exists ONLY to validate
this script before taipan is importable (ratios are then ~1).
"""

from __future__ import annotations

import argparse

# benchmarks/ is sys.path[0] when this file is run as a script.
from common import LIBS, Row, fmt_time, fresh_best, import_line, measure, print_table

TARGET_IMPORT = 0.15
TARGET_COMPILE = 0.1
TARGET_CALL = 0.6
TARGET_RUN = 1.0

# Function sources; "{lib}" becomes the library's module name.
FUNCTIONS = {
    "hypot": """
@{lib}.njit
def hypot(x, y):
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)
""",
    "monte_carlo_pi": """
@{lib}.njit
def monte_carlo_pi(nsamples):
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x**2 + y**2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples
""",
    "mandel": """
@{lib}.njit
def mandel(real, imag, max_iters):
    c = complex(real, imag)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return 255
""",
    "fib": """
@{lib}.njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
""",
}

FIRST_CALLS = {
    "hypot": "hypot(3.0, 4.0)",
    "monte_carlo_pi": "monte_carlo_pi(10)",
    "mandel": "mandel(-0.5, 0.5, 20)",
    "fib": "fib(10)",
}


def _header(lib: str, *names: str) -> str:
    parts = ["import math", "import random", "import time", import_line(lib)]
    parts += [FUNCTIONS[n].format(lib=lib) for n in names]
    return "\n".join(parts) + "\n"


def import_snippet(lib: str) -> str:
    return (
        "import time\n"
        "t0 = time.perf_counter_ns()\n"
        f"{import_line(lib)}\n"
        "t1 = time.perf_counter_ns()\n"
        "report(t1 - t0)\n"
    )


def compile_snippet(lib: str, name: str) -> str:
    return _header(lib, name) + (
        "t0 = time.perf_counter_ns()\n"
        f"{FIRST_CALLS[name]}\n"
        "t1 = time.perf_counter_ns()\n"
        "report(t1 - t0)\n"
    )


CALL_LOOP = """
def per_call(f, n):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        f(3.0, 4.0)
    return (time.perf_counter_ns() - t0) / n

"""


def call_snippet(lib: str | None, calls: int, repeats: int) -> str:
    if lib is None:  # CPython reference: math.hypot
        head, fn = "import math\nimport time\n", "math.hypot"
    else:
        head, fn = _header(lib, "hypot") + "hypot(3.0, 4.0)\n", "hypot"
    return head + CALL_LOOP + f"report(min(per_call({fn}, {calls}) for _ in range({repeats})))\n"


def run_snippet_mc(lib: str, repeats: int) -> str:
    return _header(lib, "monte_carlo_pi") + (
        "monte_carlo_pi(10)\n"
        "best = None\n"
        f"for _ in range({repeats}):\n"
        "    t0 = time.perf_counter_ns()\n"
        "    monte_carlo_pi(10**6)\n"
        "    t = time.perf_counter_ns() - t0\n"
        "    best = t if best is None else min(best, t)\n"
        "report(best)\n"
    )


def main(argv=None) -> list[Row]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--import-repeats", type=int, default=5)
    ap.add_argument("--compile-repeats", type=int, default=3)
    ap.add_argument("--calls", type=int, default=200_000, help="calls per overhead repeat")
    ap.add_argument("--run-repeats", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=600, help="per-process timeout (s)")
    ap.add_argument("--quick", action="store_true", help="fewer repeats (smoke test)")
    args = ap.parse_args(argv)
    if args.quick:
        args.import_repeats = args.compile_repeats = args.run_repeats = 2
        args.calls = 50_000
    to = args.timeout

    rows: list[Row] = []

    def both(make, repeats, **kw):
        return [
            measure(lambda lib=lib: fresh_best(make(lib), repeats, timeout=to, **kw))
            for lib in LIBS
        ]

    # Import time: fresh `python -c`, best of N.
    t, n = both(import_snippet, args.import_repeats, as_file=False)
    rows.append(Row("import", t, n, TARGET_IMPORT))

    # First-call compile time, fresh process per measurement.
    for name in FUNCTIONS:
        t, n = both(lambda lib, name=name: compile_snippet(lib, name), args.compile_repeats)
        rows.append(Row(f"first call {FIRST_CALLS[name]}", t, n, TARGET_COMPILE))

    # Call overhead.
    ref = measure(lambda: fresh_best(call_snippet(None, args.calls, 5), 1, timeout=to))
    t, n = both(lambda lib: call_snippet(lib, args.calls, 5), 1)
    ref_note = f"math.hypot: {fmt_time(ref)}" if not isinstance(ref, str) else f"math.hypot: {ref}"
    rows.append(Row("call hypot(3.0, 4.0) per call", t, n, TARGET_CALL, note=ref_note))

    # Steady-state run time.
    t, n = both(lambda lib: run_snippet_mc(lib, args.run_repeats), 1)
    rows.append(Row("run monte_carlo_pi(10**6)", t, n, TARGET_RUN))

    print_table("scalar benchmarks (ratio = taipan/numba; lower is better)", rows)
    return rows


if __name__ == "__main__":
    main()
