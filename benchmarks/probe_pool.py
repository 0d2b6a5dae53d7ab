"""The thread pool's start-up cost as loops see it: a parallel @vectorize, prange sums of 10**5
to 10**8 items and a parallel array expression, best of repeated calls in one process. Run it
with TAIPAN_POOL_SPIN=0 and with the default to see what spinning between jobs buys.

Usage: [TAIPAN_POOL_SPIN=0] python benchmarks/probe_pool.py
"""

import math
import time

import numpy as np

import taipan


def best(function, *arguments, repeats=30):
    function(*arguments)
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        function(*arguments)
        elapsed = time.perf_counter() - start
        result = elapsed if result is None else min(result, elapsed)
    return result * 1e3


@taipan.vectorize(["float32(float32, float32, float32)"], target="parallel")
def gaussian(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * 2.5066282746310002)


@taipan.njit(parallel=True)
def total(a):
    s = 0.0
    for i in taipan.prange(a.shape[0]):
        s += a[i]
    return s


@taipan.njit(parallel=True)
def expression(a, b, c):
    return a * b + np.sin(c)


def main():
    x = np.random.default_rng(0).random(10**6).astype(np.float32)
    print(f"gaussian parallel 10^6: {best(gaussian, x, np.float32(0), np.float32(1)):.3f} ms")
    for size in (10**5, 10**6, 10**8):
        a = np.random.default_rng(1).random(size)
        print(f"prange sum {size:.0e}: {best(total, a, repeats=10):.3f} ms")
    a, b, c = (np.random.default_rng(k).random(10**7) for k in range(3))
    print(f"a * b + np.sin(c) 10^7: {best(expression, a, b, c, repeats=10):.3f} ms")


if __name__ == "__main__":
    main()
