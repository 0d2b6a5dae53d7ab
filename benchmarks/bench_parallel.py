"""parallel=True benchmarks, taipan vs numba side by side: prange and parallel array expressions.

Each number comes from a fresh subprocess per library (results checked against NumPy first,
best of repeats after a warm-up call):
  * a ``prange`` sum of 10**8 float64 (``s += a[i]``), with the bandwidth it reaches (GB/s) and
    that bandwidth as a fraction of the machine's read bandwidth, measured as the best of
    NumPy's ``a.sum()`` and each library's parallel ``a.sum()`` (the fastest reads available);
  * the array expression ``a * b + np.sin(c)`` over 10**7 float64;
  * ``np.sum(a * b)`` over 10**7 float64 (Numba fuses the product into the reduction).

Run it on the GPU host's 16 cores as well as here (the thread count is printed).

Usage: python benchmarks/bench_parallel.py [--repeats 5] [--quick]
"""

from __future__ import annotations

import argparse

from common import LIBS, Row, fresh_best, import_line, measure, print_table

SETUP = """
import time
import numpy as np
{import_line}

def best(function, *args):
    function(*args)
    result = None
    for _ in range({repeats}):
        t0 = time.perf_counter_ns()
        function(*args)
        t = time.perf_counter_ns() - t0
        result = t if result is None else min(result, t)
    return result
"""

PRANGE_SUM = (
    SETUP
    + """
@{lib}.njit(parallel=True)
def total(a):
    s = 0.0
    for i in {lib}.prange(a.shape[0]):
        s += a[i]
    return s

a = np.random.default_rng(0).random({size})
assert abs(total(a) - a.sum()) <= 1e-9 * a.sum()
report(best(total, a))
"""
)

READ_BANDWIDTH = (
    SETUP
    + """
@{lib}.njit(parallel=True)
def whole(a):
    return a.sum()

a = np.random.default_rng(0).random({size})
report(min(best(whole, a), best(np.sum, a)))
"""
)

EXPRESSION = (
    SETUP
    + """
@{lib}.njit(parallel=True)
def expression(a, b, c):
    return a * b + np.sin(c)

rng = np.random.default_rng(0)
a, b, c = (rng.random({size}) for _ in range(3))
assert np.allclose(expression(a, b, c), a * b + np.sin(c))
report(best(expression, a, b, c))
"""
)

SUM_OF_PRODUCT = (
    SETUP
    + """
@{lib}.njit(parallel=True)
def dot(a, b):
    return np.sum(a * b)

rng = np.random.default_rng(0)
a, b = (rng.random({size}) for _ in range(2))
assert np.isclose(dot(a, b), np.dot(a, b))
report(best(dot, a, b))
"""
)

THREADS = """
{import_line}
report({lib}.get_num_threads())
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
    ap.add_argument("--quick", action="store_true", help="fewer repeats, processes and items")
    args = ap.parse_args(argv)
    repeats = 2 if args.quick else args.repeats
    processes = 1 if args.quick else 3
    big = 10**7 if args.quick else 10**8
    size = 10**6 if args.quick else 10**7
    threads = _both(THREADS, 1, 1)
    note = f"{threads['taipan']} threads"
    rows = []
    sums = _both(PRANGE_SUM, repeats, processes, size=big)
    rows.append(
        Row(f"prange sum of {big:.0e} float64", sums["taipan"], sums["numba"], 1.0, note=note)
    )
    reads = _both(READ_BANDWIDTH, repeats, processes, size=big)
    numbers = [v for v in (*reads.values(), *sums.values()) if isinstance(v, (int, float))]
    if len(numbers) == 4:
        bandwidth = 8 * big / min(reads.values())  # bytes per ns = GB/s
        achieved = {lib: 8 * big / sums[lib] for lib in LIBS}
        rows.append(
            Row(
                "  its bandwidth, GB/s (target >= 0.8 of the read bandwidth)",
                achieved["taipan"],
                achieved["numba"],
                unit="GB/s",
                note=f"read bandwidth {bandwidth:.1f} GB/s; taipan reaches "
                f"{achieved['taipan'] / bandwidth:.2f} of it",
            )
        )
    values = _both(EXPRESSION, repeats, processes, size=size)
    rows.append(
        Row(f"a * b + np.sin(c), {size:.0e} float64", values["taipan"], values["numba"], 1.0)
    )
    values = _both(SUM_OF_PRODUCT, repeats, processes, size=size)
    rows.append(Row(f"np.sum(a * b), {size:.0e} float64", values["taipan"], values["numba"], None))
    print_table("parallel=True: prange and array expressions", rows)
    return rows


if __name__ == "__main__":
    main()
