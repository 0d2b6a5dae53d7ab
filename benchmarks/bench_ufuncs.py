"""Ufunc benchmarks, taipan vs numba side by side: @vectorize and @guvectorize.

Each number comes from a fresh subprocess per library (results checked against NumPy first):
  * the course's ``gaussian_pdf`` @vectorize over 10**6 float32, ``target='cpu'`` and
    ``target='parallel'`` (best of repeats after a warm-up call);
  * the compile time of a @vectorize with two signatures (right after importing the library);
  * the call overhead of an eager ufunc on a 10-element array;
  * a @guvectorize batched 4x4 matmul over 10**6 matrices (``target='cpu'``), best of six
    calls, with taipan's copies for the call's core sizes and without (the generic loop).

Run the parallel row on the GPU host's 16 cores as well as here (the thread count is printed).

Usage: python benchmarks/bench_ufuncs.py [--repeats 5] [--quick]
"""

from __future__ import annotations

import argparse

from common import LIBS, Row, fresh_best, import_line, measure, print_table

GAUSSIAN = """
import math
import time
import numpy as np
{import_line}

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)

@{lib}.vectorize(["float32(float32, float32, float32)"], target={target!r})
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)

x = np.random.default_rng(0).uniform(-3, 3, size={size}).astype(np.float32)
mean, sigma = np.float32(0.0), np.float32(1.0)
expected = (np.exp(-0.5 * ((x.astype(np.float64) - 0) / 1) ** 2) / (2 * math.pi) ** 0.5)
assert np.allclose(gaussian_pdf(x, mean, sigma), expected, rtol=1e-5, atol=1e-7)
best = None
for _ in range({repeats}):
    t0 = time.perf_counter_ns()
    for _ in range(10):
        gaussian_pdf(x, mean, sigma)
    t = (time.perf_counter_ns() - t0) / 10
    best = t if best is None else min(best, t)
report(best)
"""

COMPILE = """
import time
t0 = time.perf_counter_ns()
{import_line}
import numpy as np
t1 = time.perf_counter_ns()

@{lib}.vectorize(["float64(float64, float64)", "float32(float32, float32)"])
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)

t2 = time.perf_counter_ns()
assert rel_diff(np.float64(3.0), np.float64(1.0)) == 1.0
report(t2 - t1)
"""

OVERHEAD = """
import time
import numpy as np
{import_line}

@{lib}.vectorize(["float64(float64, float64)"])
def add(x, y):
    return x + y

a = np.arange(10.0)
add(a, a)
best = None
for _ in range({repeats}):
    t0 = time.perf_counter_ns()
    for _ in range(100_000):
        add(a, a)
    t = (time.perf_counter_ns() - t0) / 100_000
    best = t if best is None else min(best, t)
report(best)
"""

GU_MATMUL = """
import os
import time
import numpy as np
os.environ["TAIPAN_GUFUNC_SPECIALIZE_MS"] = {copies!r}
{import_line}

@{lib}.guvectorize(["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)")
def matmul(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s

rng = np.random.default_rng(0)
a, b = rng.standard_normal(({count}, 4, 4)), rng.standard_normal(({count}, 4, 4))
assert np.allclose(matmul(a, b), a @ b)
best = None
for _ in range({repeats}):
    t0 = time.perf_counter_ns()
    matmul(a, b)
    t = time.perf_counter_ns() - t0
    best = t if best is None else min(best, t)
report(best)
"""

THREADS = """
{import_line}
report({lib}.get_num_threads() if hasattr({lib}, "get_num_threads") else 0)
"""


def _both(snippet: str, repeats: int, processes: int, **fields) -> dict:
    values = {}
    for lib in LIBS:
        code = snippet.format(import_line=import_line(lib), lib=lib, repeats=repeats, **fields)
        values[lib] = measure(lambda code=code: fresh_best(code, processes))
    return values


def main(argv=None) -> list[Row]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="fewer repeats and processes")
    args = ap.parse_args(argv)
    repeats = 2 if args.quick else args.repeats
    processes = 1 if args.quick else 3
    size = 10**6
    rows = []
    threads = _both(THREADS, 1, 1)
    for target, goal in (("cpu", 1.0), ("parallel", 0.5)):
        values = _both(GAUSSIAN, repeats, processes, target=target, size=size)
        note = f"{threads['taipan']} threads" if target == "parallel" else ""
        rows.append(
            Row(
                f"vectorize gaussian_pdf, 10^6 float32, {target}",
                values["taipan"],
                values["numba"],
                goal,
                note=note,
            )
        )
    values = _both(COMPILE, 1, processes)
    rows.append(
        Row("compile a vectorize with 2 signatures", values["taipan"], values["numba"], 0.1)
    )
    values = _both(OVERHEAD, repeats, processes)
    rows.append(Row("ufunc call on a 10-element array", values["taipan"], values["numba"], 0.5))
    count = 10**5 if args.quick else 10**6
    # taipan's loop compiles a copy for the core sizes it meets once its generic loop has run
    # 20 ms on them (TAIPAN_GUFUNC_SPECIALIZE_MS): six calls reach the steady state either way.
    for copies, label in (("20", ""), ("off", ", generic loop only")):
        values = _both(GU_MATMUL, max(repeats, 6), processes, count=count, copies=copies)
        rows.append(
            Row(
                f"guvectorize 4x4 matmul over {count:.0e}{label}",
                values["taipan"],
                values["numba"],
                1.0,
            )
        )
    print_table("ufuncs: @vectorize and @guvectorize", rows)
    return rows


if __name__ == "__main__":
    main()
