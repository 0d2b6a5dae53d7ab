"""Where a prange sum's time goes, taipan against Numba: sizes from 10**5 to 10**8 and 1, 4 and
all threads (a probe for docs/performance.md, not a target table).

Usage: python benchmarks/probe_prange.py
"""

import time

import numba
import numpy as np

import taipan


def total_taipan(a):
    s = 0.0
    for i in taipan.prange(a.shape[0]):
        s += a[i]
    return s


def total_numba(a):
    s = 0.0
    for i in numba.prange(a.shape[0]):
        s += a[i]
    return s


def best(function, a, repeats=7):
    function(a)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(a)
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    t = taipan.njit(parallel=True)(total_taipan)
    n = numba.njit(parallel=True)(total_numba)
    maximum = taipan.get_num_threads()
    print(f"threads available: taipan {maximum}, numba {numba.get_num_threads()}")
    for size in (10**5, 10**6, 10**7, 10**8):
        a = np.random.default_rng(0).random(size)
        for threads in sorted({1, min(4, maximum), maximum}):
            taipan.set_num_threads(threads)
            numba.set_num_threads(threads)
            tt, nn = best(t, a), best(n, a)
            print(
                f"size {size:>9} threads {threads:>2}: taipan {tt * 1e3:8.3f} ms  "
                f"numba {nn * 1e3:8.3f} ms  ratio {tt / nn:5.2f}"
            )


if __name__ == "__main__":
    main()
