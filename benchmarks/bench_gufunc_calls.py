"""Gufuncs called from compiled code, taipan vs numba side by side.

A ``@guvectorize`` function called inside an ``@njit`` one: taipan builds the call's loop from
ordinary Python (src/taipan/gufunc_calls.py), whose per-row views must cost no reference
counting once inlined (target/RefcountPruning). Numba needs the outputs passed. Each library
in a fresh subprocess; reported: the first call (compilation included) and the best warm call
over ``--repeats``, and a rounded checksum, which must agree.

Usage: PYTHONPATH=src python benchmarks/bench_gufunc_calls.py [--rows 10000] [--repeats 50]
"""

from __future__ import annotations

import argparse

# benchmarks/ is sys.path[0] when this file is run as a script.
from common import compare_kernels

SNIPPET = """
import time
import numpy as np
import {lib}

@{lib}.guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def norm(x, out):
    s = 0.0
    for v in x:
        s += v * v
    out[0] = np.sqrt(s)

@{lib}.guvectorize(["void(float64[:, :], float64[:, :], float64[:, :])"], "(m,n),(n,p)->(m,p)")
def matmul(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s

@{lib}.njit
def norms(a):
    out = np.empty(a.shape[0])
    norm(a, out)
    return out

@{lib}.njit
def products(a, b):
    out = np.empty((a.shape[0], a.shape[1], b.shape[2]))
    matmul(a, b, out)
    return out

rng = np.random.default_rng(0)
rows = rng.random(({rows}, 8))
left = rng.random(({rows} // 10, 4, 3))
right = rng.random(({rows} // 10, 3, 5))
calls = {{
    "(n)->() norm, first call": lambda: norms(rows),
    "(n)->() norm, warm": lambda: norms(rows),
    "(m,n),(n,p)->(m,p) matmul, first call": lambda: products(left, right),
    "(m,n),(n,p)->(m,p) matmul, warm": lambda: products(left, right),
}}
results = {{}}
for name, call in calls.items():
    best = float("inf")
    for _ in range(1 if "first" in name else {repeats}):
        start = time.perf_counter()
        value = call()
        best = min(best, time.perf_counter() - start)
    results[name] = (best, round(float(value.sum()), 6))
report(results)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    compare_kernels(
        SNIPPET,
        f"gufuncs called from compiled code, {args.rows} rows (best of {args.repeats})",
        "checksum",
        rows=args.rows,
        repeats=args.repeats,
    )


if __name__ == "__main__":
    main()
