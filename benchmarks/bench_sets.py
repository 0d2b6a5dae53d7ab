"""Set benchmark, taipan vs numba side by side: unique counts and membership over 10**6 items.

Three kernels, each compiled with ``njit`` in a fresh subprocess per library (each library has
its own LLVM): the number of distinct values among 10**6 int64s (``len(set(a))``), the same
built with ``add`` in a loop, and membership of 10**6 string probes in a set of 10**4 strings
(the strings made with ``str`` in the loop). Reported: the steady-state time of one call (best
of ``--repeats``, after a warm-up call that compiles) and the result, which must agree.

Usage: python benchmarks/bench_sets.py [--items 1000000] [--repeats 5]
"""

from __future__ import annotations

import argparse

# benchmarks/ is sys.path[0] when this file is run as a script.
from common import compare_kernels

SNIPPET = """
import time
import numpy as np
import {lib}

@{lib}.njit
def unique_count(values):
    return len(set(values))

@{lib}.njit
def unique_by_add(values):
    seen = set()
    for v in values:
        seen.add(v)
    return len(seen)

@{lib}.njit
def string_membership(values):
    words = set()
    for i in range(10_000):
        words.add(str(i * 7))
    hits = 0
    for v in values:
        if str(v) in words:
            hits += 1
    return hits

rng = np.random.default_rng(0)
values = rng.integers(0, 200_000, {items}).astype(np.int64)
results = {{}}
for name, function in (
    ("unique count", unique_count),
    ("unique by add", unique_by_add),
    ("string membership", string_membership),
):
    answer = function(values)
    best = float("inf")
    for _ in range({repeats}):
        start = time.perf_counter()
        function(values)
        best = min(best, time.perf_counter() - start)
    results[name] = (best, answer)
report(results)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    compare_kernels(
        SNIPPET,
        f"sets over {args.items} items (best of {args.repeats})",
        "result",
        items=args.items,
        repeats=args.repeats,
    )


if __name__ == "__main__":
    main()
