"""Dict benchmark, taipan vs numba side by side: a word count over 10**6 tokens.

Two kernels, each compiled with ``njit`` in a fresh subprocess per library (each library has its
own LLVM): integer tokens (an int64 array of values below 10**4, counted in a dict of int64 to
int64), and string tokens (each integer turned into a string with ``str`` in the loop, counted
in a dict of strings). Reported: the steady-state time of one call (best of ``--repeats``, after a
warm-up call that compiles) and the number of distinct keys, which must agree.

Usage: python benchmarks/bench_dicts.py [--tokens 1000000] [--repeats 5]
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
def count_ints(tokens):
    counts = {{}}
    for t in tokens:
        if t in counts:
            counts[t] += 1
        else:
            counts[t] = 1
    return len(counts)

@{lib}.njit
def count_strings(tokens):
    counts = {{}}
    for t in tokens:
        w = str(t)
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 1
    return len(counts)

rng = np.random.default_rng(0)
tokens = rng.integers(0, 10_000, {tokens}).astype(np.int64)
results = {{}}
for name, function in (("int tokens", count_ints), ("string tokens", count_strings)):
    keys = function(tokens)
    best = float("inf")
    for _ in range({repeats}):
        start = time.perf_counter()
        function(tokens)
        best = min(best, time.perf_counter() - start)
    results[name] = (best, keys)
report(results)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    compare_kernels(
        SNIPPET,
        f"word count over {args.tokens} tokens (best of {args.repeats})",
        "keys",
        tokens=args.tokens,
        repeats=args.repeats,
    )


if __name__ == "__main__":
    main()
