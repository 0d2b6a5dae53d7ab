"""Index-arithmetic kernels from real libraries, taipan vs numba side by side.

Two loops whose subscripts are integer arithmetic of ``range`` counters, copied from the
libraries that ``bench_libraries.py`` times: antropy 0.1.9 ``_higuchi_fd``
(``x[m + j * k] - x[m + (j - 1) * k]``, with its signature: a read-only C array and an int32)
and resampy 0.4.3 ``_resample_loop`` serial (``interp_win[offset + i * index_step]``,
``x[n - i]``; kaiser_best's table of 64 zero crossings x 512). Each library in a fresh
subprocess; reported: the best time of one warm call over ``--repeats`` and a rounded checksum,
which must agree. The loops' subscripts are where taipan puts ``nsw`` (ArrayLowering::
lowerIndexPiece): compare ``inspect_asm`` of the two for the strength-reduced inner loop.

Usage: PYTHONPATH=src python benchmarks/bench_index_arithmetic.py [--size 100000] [--repeats 100]
"""

from __future__ import annotations

import argparse

# benchmarks/ is sys.path[0] when this file is run as a script.
from common import compare_kernels

SNIPPET = """
import time
from math import floor
import numpy as np
import {lib}
from {lib} import types

@{lib}.jit((types.Array(types.float64, 1, "C", readonly=True), types.int32), nopython=True)
def higuchi(x, kmax):
    n_times = x.size
    total = 0.0
    for k in range(1, kmax + 1):
        for m in range(k):
            ll = 0
            n_max = floor((n_times - m - 1) / k)
            n_max = int(n_max)
            for j in range(1, n_max):
                ll += abs(x[m + j * k] - x[m + (j - 1) * k])
            ll /= k
            total += ll
    return total

@{lib}.njit
def resample(x, t_out, interp_win, interp_delta, num_table, scale, y):
    index_step = int(scale * num_table)
    nwin = interp_win.shape[0]
    n_orig = x.shape[0]
    for t in range(t_out.shape[0]):
        time_register = t_out[t]
        n = int(time_register)
        frac = scale * (time_register - n)
        index_frac = frac * num_table
        offset = int(index_frac)
        eta = index_frac - offset
        i_max = min(n + 1, (nwin - offset) // index_step)
        for i in range(i_max):
            weight = interp_win[offset + i * index_step] + eta * interp_delta[offset + i * index_step]
            y[t] += weight * x[n - i]
        frac = scale - frac
        index_frac = frac * num_table
        offset = int(index_frac)
        eta = index_frac - offset
        k_max = min(n_orig - n - 1, (nwin - offset) // index_step)
        for k in range(k_max):
            weight = interp_win[offset + k * index_step] + eta * interp_delta[offset + k * index_step]
            y[t] += weight * x[n + k + 1]

rng = np.random.default_rng(0)
x = rng.standard_normal({size})
t_out = np.arange({size} // 2) * 2.0
table = rng.standard_normal(64 * 512 + 1)
delta = np.diff(table, append=0.0)
y = np.zeros(t_out.size)
calls = {{
    "antropy _higuchi_fd kmax=10": lambda: higuchi(x, 10),
    "resampy _resample_loop 64x512": lambda: resample(x, t_out, table, delta, 512, 0.5, y),
}}
results = {{}}
for name, call in calls.items():
    call()
    best = float("inf")
    for _ in range({repeats} if name.startswith("antropy") else max(1, {repeats} // 20)):
        y[:] = 0.0
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    value = call() if name.startswith("antropy") else y.sum()
    results[name] = (best, round(float(value), 6))
report(results)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=100)
    args = parser.parse_args()
    compare_kernels(
        SNIPPET,
        f"index arithmetic, {args.size} samples (best of {args.repeats})",
        "checksum",
        size=args.size,
        repeats=args.repeats,
    )


if __name__ == "__main__":
    main()
