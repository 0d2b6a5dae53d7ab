"""NumPy-array benchmarks, taipan vs numba side by side.

Measures, for each library (every number from fresh subprocesses; the inputs are built with a
fixed seed, and each result is checked against NumPy before timing, so a wrong answer shows as
an error instead of a time):
  * steady-state run time of
      - ``nan_compact`` on 10**4 float64 with 20% NaN (NumPy ``a[~np.isnan(a)]`` as a note);
      - a triple-loop ``matmul`` (i-k-j order) of two 300x300 float64 into ``np.zeros((n, m))``;
      - ``create_fractal``: a Mandelbrot into an 800x600 int32 image, 200 iterations, calling
        the jitted scalar ``mandel`` per pixel (the classic Numba example);
      - ``a * b + np.sin(c)`` on 10**6 float64 (NumPy as a note);
      - ``a.sum()``, ``a.min()``, ``a.max()``, ``a.mean()``, ``a.std()``, ``a.argmax()`` on
        10**6 float64, one row each (NumPy as a note);
    each the best of several repeats of an auto-ranged number of calls, after a warm-up call,
    in ``--processes`` fresh processes per library taking turns, of which the median counts;
  * call overhead of a jitted function of 1 array argument (``a.shape[0]``) and of 3 array
    arguments (ns per call in a Python loop, loop overhead included);
  * first-call (compile) time of ``nan_compact`` and ``matmul``, each in a fresh process right
    after importing the library (best of N), on small inputs.

Targets are maxima of the ratio taipan/numba.

Usage: python benchmarks/bench_arrays.py [--compile-repeats 3] [--run-repeats 5] [--processes 3]
       [--quick]

TAIPAN_BENCH_STANDIN=numba makes the "taipan" side import numba.  It exists ONLY to validate
this script before taipan is importable (ratios are then ~1).
"""

from __future__ import annotations

import argparse
import statistics

# benchmarks/ is sys.path[0] when this file is run as a script.
from common import (
    LIBS,
    Row,
    alternating_runs,
    fmt_time,
    fresh_best,
    import_line,
    measure,
    print_table,
    run_snippet,
)

TARGET_RUN = 1.0
TARGET_CALL = 0.6
TARGET_COMPILE = 0.1

# Function sources; "{lib}" becomes the library's module name (jitted) and "{jit}" the decorator
# line ("@{lib}.njit"), empty for the plain-NumPy reference.
FUNCTIONS = {
    "nan_compact": """
{jit}
def nan_compact(x):
    out = np.empty_like(x)
    out_index = 0
    for element in x:
        if not np.isnan(element):
            out[out_index] = element
            out_index += 1
    return out[:out_index]
""",
    "matmul": """
{jit}
def matmul(a, b):
    n, k = a.shape
    m = b.shape[1]
    out = np.zeros((n, m))
    for i in range(n):
        for p in range(k):
            for j in range(m):
                out[i, j] += a[i, p] * b[p, j]
    return out
""",
    "mandel": """
{jit}
def mandel(x, y, max_iters):
    i = 0
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return 255
""",
    "create_fractal": """
{jit}
def create_fractal(min_x, max_x, min_y, max_y, image, iters):
    height = image.shape[0]
    width = image.shape[1]
    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    for x in range(width):
        real = min_x + x * pixel_size_x
        for y in range(height):
            imag = min_y + y * pixel_size_y
            color = mandel(real, imag, iters)
            image[y, x] = color
    return image
""",
    "elementwise": """
{jit}
def elementwise(a, b, c):
    return a * b + np.sin(c)
""",
    "one_array": """
{jit}
def one_array(a):
    return a.shape[0]
""",
    "three_arrays": """
{jit}
def three_arrays(a, b, c):
    return a.shape[0] + b.shape[0] + c.shape[0]
""",
}

REDUCTIONS = ("sum", "min", "max", "mean", "std", "argmax")
for _r in REDUCTIONS:
    FUNCTIONS[f"r_{_r}"] = f"""
{{jit}}
def r_{_r}(a):
    return a.{_r}()
"""

# Inputs (fixed seed) shared by the run, reference and compile snippets.
INPUTS = {
    "nan": """
rng = np.random.default_rng(0)
x = rng.random(10**4)
x[rng.random(10**4) < 0.2] = np.nan
""",
    "mat": """
rng = np.random.default_rng(0)
a = rng.random((300, 300))
b = rng.random((300, 300))
""",
    "vec3": """
rng = np.random.default_rng(0)
a = rng.random(10**6)
b = rng.random(10**6)
c = rng.random(10**6)
""",
    "vec": """
rng = np.random.default_rng(0)
a = rng.random(10**6) - 0.5
""",
}

# Timing helper run inside every snippet: best of `repeats` rounds, each of `number` calls,
# `number` chosen so that one round takes about 20 ms (at least 1 call).
TIMER = """
def bench(fn, repeats):
    t0 = time.perf_counter_ns()
    fn()
    once = max(time.perf_counter_ns() - t0, 1)
    number = max(1, int(2e7 // once))
    best = None
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        for _ in range(number):
            fn()
        t = (time.perf_counter_ns() - t0) / number
        best = t if best is None else min(best, t)
    return best


def check(ok, what):
    if not ok:
        report({"error": "wrong result: " + what})
        raise SystemExit(0)

"""


# Run-time workloads: (row name, input, jitted functions, call, NumPy expression, check of `got`
# against `ref`).  The NumPy expression gives `ref` for the check and is timed as a note; the
# fractal has none and is checked against the vectorised NumPy version in FRACTAL_REF instead.
WORKLOADS = [
    (
        "run nan_compact (10**4, 20% NaN)",
        "nan",
        ("nan_compact",),
        "nan_compact(x)",
        "x[~np.isnan(x)]",
        "np.array_equal(got, ref)",
    ),
    (
        "run matmul 300x300 (triple loop)",
        "mat",
        ("matmul",),
        "matmul(a, b)",
        "a @ b",
        "np.allclose(got, ref, rtol=1e-12, atol=1e-12)",
    ),
    (
        "run create_fractal 800x600, 200 iters",
        "frac",
        ("mandel", "create_fractal"),
        "create_fractal(-2.0, 1.0, -1.0, 1.0, image, 200)",
        None,
        "np.mean(got != ref) < 1e-3",
    ),
    (
        "run a * b + np.sin(c) (10**6)",
        "vec3",
        ("elementwise",),
        "elementwise(a, b, c)",
        "a * b + np.sin(c)",
        "np.allclose(got, ref, rtol=1e-12, atol=1e-15)",
    ),
]
for _r in REDUCTIONS:
    WORKLOADS.append(
        (
            f"run a.{_r}() (10**6)",
            "vec",
            (f"r_{_r}",),
            f"r_{_r}(a)",
            f"a.{_r}()",
            "got == ref"
            if _r in ("min", "max", "argmax")
            else "np.isclose(got, ref, rtol=1e-9, atol=1e-9)",
        )
    )

# Fractal: the image and a NumPy reference of it (vectorised escape-time loop, same arithmetic).
FRACTAL_INPUT = """
image = np.zeros((600, 800), dtype=np.int32)
"""
FRACTAL_REF = """
def fractal_ref(min_x, max_x, min_y, max_y, shape, iters):
    height, width = shape
    xs = min_x + np.arange(width) * ((max_x - min_x) / width)
    ys = min_y + np.arange(height) * ((max_y - min_y) / height)
    c = xs[None, :] + 1j * ys[:, None]
    z = np.zeros_like(c)
    out = np.full(shape, 255, dtype=np.int32)
    alive = np.ones(shape, dtype=bool)
    for i in range(iters):
        z[alive] = z[alive] * z[alive] + c[alive]
        esc = alive & (z.real * z.real + z.imag * z.imag >= 4)
        out[esc] = i
        alive &= ~esc
    return out


ref = fractal_ref(-2.0, 1.0, -1.0, 1.0, (600, 800), 200)
"""


def _header(lib: str | None, *names: str) -> str:
    parts = ["import time", "import numpy as np"]
    if lib is not None:
        parts.append(import_line(lib))
    jit = "" if lib is None else f"@{lib}.njit"
    parts += [FUNCTIONS[n].format(jit=jit) for n in names]
    return "\n".join(parts) + "\n" + TIMER


def run_time_snippet(lib: str, inp: str, names, call: str, ref, check: str, repeats: int):
    """Warm up, check ``call`` against the NumPy reference, then time it."""
    if inp == "frac":
        setup = FRACTAL_INPUT + FRACTAL_REF
    else:
        setup = INPUTS[inp] + f"ref = {ref}\n"
    return (
        _header(lib, *names)
        + setup
        + f"got = {call}\n"
        + f"check({check}, {call!r})\n"
        + f"report(bench(lambda: {call}, {repeats}))\n"
    )


def numpy_snippet(inp: str, expr: str, repeats: int) -> str:
    return _header(None) + INPUTS[inp] + f"report(bench(lambda: {expr}, {repeats}))\n"


CALL_LOOP = """
def per_call1(f, a, n):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        f(a)
    return (time.perf_counter_ns() - t0) / n


def per_call3(f, a, b, c, n):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        f(a, b, c)
    return (time.perf_counter_ns() - t0) / n

a = np.arange(10.0)
b = np.arange(10.0)
c = np.arange(10.0)
"""


def call_snippet(lib: str, nargs: int, calls: int, repeats: int) -> str:
    if nargs == 1:
        name, args, expect = "one_array", "a", "10"
    else:
        name, args, expect = "three_arrays", "a, b, c", "30"
    return (
        _header(lib, name)
        + CALL_LOOP
        + f"check({name}({args}) == {expect}, '{name}({args})')\n"
        + f"report(min(per_call{nargs}({name}, {args}, {calls}) for _ in range({repeats})))\n"
    )


COMPILE_INPUTS = {
    "nan_compact": ("x = np.array([1.0, np.nan, 2.0, np.nan, 3.0])\n", "nan_compact(x)"),
    "matmul": ("a = np.ones((4, 3))\nb = np.ones((3, 5))\n", "matmul(a, b)"),
}


def compile_snippet(lib: str, name: str) -> str:
    setup, call = COMPILE_INPUTS[name]
    return (
        _header(lib, name)
        + setup
        + "t0 = time.perf_counter_ns()\n"
        + f"{call}\n"
        + "t1 = time.perf_counter_ns()\n"
        + "report(t1 - t0)\n"
    )


def main(argv=None) -> list[Row]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compile-repeats", type=int, default=3)
    ap.add_argument("--run-repeats", type=int, default=5)
    ap.add_argument(
        "--processes", type=int, default=3, help="fresh processes per library for run times"
    )
    ap.add_argument("--calls", type=int, default=200_000, help="calls per overhead repeat")
    ap.add_argument("--timeout", type=float, default=600, help="per-process timeout (s)")
    ap.add_argument("--quick", action="store_true", help="fewer repeats (smoke test)")
    args = ap.parse_args(argv)
    if args.quick:
        args.compile_repeats = args.run_repeats = 2
        args.processes = 1
        args.calls = 50_000
    to = args.timeout

    rows: list[Row] = []

    def both(make, repeats=1):
        return [measure(lambda lib=lib: fresh_best(make(lib), repeats, timeout=to)) for lib in LIBS]

    def numpy_note(inp, expr):
        if expr is None or inp not in INPUTS:
            return ""
        v = measure(lambda: fresh_best(numpy_snippet(inp, expr, args.run_repeats), 1, timeout=to))
        return f"numpy {expr}: " + (fmt_time(v) if not isinstance(v, str) else f"ERR {v}")

    def median_of_processes(make):
        """Each library's median over ``--processes`` fresh processes, taking turns."""
        runs = alternating_runs(lambda lib: run_snippet(make(lib), timeout=to), args.processes)
        return [
            runs[lib] if isinstance(runs[lib], str) else statistics.median(runs[lib])
            for lib in LIBS
        ]

    # Steady-state run time.
    for name, inp, names, call, ref, check in WORKLOADS:
        t, n = median_of_processes(
            lambda lib, i=inp, f=names, c=call, r=ref, k=check: run_time_snippet(
                lib, i, f, c, r, k, args.run_repeats
            )
        )
        note = f"median of {args.processes}; " + numpy_note(inp, ref)
        rows.append(Row(name, t, n, TARGET_RUN, note=note.rstrip("; ")))

    # Call overhead with array arguments.
    for nargs, label in ((1, "call f(a) -> a.shape[0]"), (3, "call f(a, b, c)")):
        t, n = both(lambda lib, k=nargs: call_snippet(lib, k, args.calls, 5))
        rows.append(Row(f"{label} per call", t, n, TARGET_CALL))

    # First-call compile time, fresh process per measurement.
    for name, (_, call) in COMPILE_INPUTS.items():
        t, n = both(lambda lib, f=name: compile_snippet(lib, f), args.compile_repeats)
        rows.append(Row(f"first call {call}", t, n, TARGET_COMPILE))

    print_table("array benchmarks (ratio = taipan/numba; lower is better)", rows)
    return rows


if __name__ == "__main__":
    main()
