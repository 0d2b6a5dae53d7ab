"""String-building benchmark, taipan vs numba side by side (issue 13's "string-building loop").

Three kernels, each compiled with ``njit`` in a fresh subprocess per library (each library has
its own LLVM): ``s += str(i % 10)`` in a loop (a new string per step in both libraries),
``'-'.join`` of a list of ``str(i)``, and an f-string per item (Numba has no format specs in f-strings) joined at the
end. Reported: the steady-state time of one call (best of ``--repeats`` after a warm-up call that
compiles) and the length of the result, which must agree.

Usage: python benchmarks/bench_strings.py [--n 100000] [--repeats 5]
"""

from __future__ import annotations

import argparse

# benchmarks/ is sys.path[0] when this file is run as a script.
from common import compare_kernels

SNIPPET = """
import time
import {lib}


@{lib}.njit
def concatenate(n):
    s = ''
    for i in range(n):
        s += str(i % 10)
    return len(s)


@{lib}.njit
def join_numbers(n):
    parts = [str(i) for i in range(n)]
    return len('-'.join(parts))


@{lib}.njit
def format_items(n):
    parts = []
    for i in range(n):
        parts.append(f"{{i}}:{{i * 2}}")
    return len(','.join(parts))


results = {{}}
for name, function, n in (("s += str(i % 10)", concatenate, {n} // 10),
                          ("'-'.join(str(i))", join_numbers, {n}),
                          ("f-string per item", format_items, {n})):
    length = function(n)
    best = float("inf")
    for _ in range({repeats}):
        start = time.perf_counter()
        function(n)
        best = min(best, time.perf_counter() - start)
    results[name] = (best, length)
report(results)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    compare_kernels(
        SNIPPET,
        f"string building, n = {args.n} (best of {args.repeats})",
        "length",
        n=args.n,
        repeats=args.repeats,
    )


if __name__ == "__main__":
    main()
