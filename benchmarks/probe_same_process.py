"""Warm rows near 1.0 in separate processes, timed in ONE process: the same source compiled
by taipan and by Numba, the two called in turn, best of N calls each. In separate processes
(bench_arrays, bench_libraries) such a row moves a few percent either way with where each
process lands; here both share the core, the caches and the clock. create_fractal's and
higuchi_fd's hot loops are the same instructions in both compilers.

Kernels: bench_arrays' create_fractal (Mandelbrot, 800x600, 200 iterations); the loop of
antropy's ``_higuchi_fd`` (antropy 0.1.x, BSD-3-Clause, as bench_libraries' higuchi_fd row
calls it) on 10**5 normal samples, kmax 10; and antropy's ``_numba_sampen`` with its signature
(sample_entropy's row: 4,000 samples, order 2, r = 0.2 standard deviations).

Usage: python benchmarks/probe_same_process.py [--rounds 15]
"""

import argparse
import importlib.util
import os
import tempfile
import time

import numpy as np

# bench_arrays' kernels, as that benchmark times them (benchmarks/ is sys.path[0] here).
from bench_arrays import FUNCTIONS

SOURCE = """
import numpy as np
from math import floor, log
import {lib}


@{lib}.njit
def higuchi(x, kmax):
    n_times = x.size
    lk = np.empty(kmax)
    y_reg = np.empty(kmax)
    for k in range(1, kmax + 1):
        lm = np.empty((k,))
        for m in range(k):
            ll = 0
            n_max = floor((n_times - m - 1) / k)
            n_max = int(n_max)
            for j in range(1, n_max):
                ll += abs(x[m + j * k] - x[m + (j - 1) * k])
            ll /= k
            ll *= (n_times - 1) / (k * n_max)
            lm[m] = ll
        m_lm = 0
        for m in range(k):
            m_lm += lm[m]
        m_lm /= k
        lk[k - 1] = m_lm
        y_reg[k - 1] = log(m_lm)
    return y_reg


@{lib}.jit(
    (
        {lib}.types.Array({lib}.types.float64, 1, "C", readonly=True),
        {lib}.types.int32,
        {lib}.types.float64,
    ),
    nopython=True,
)
def sampen(sequence, order, r):
    size = sequence.size
    numerator = 0
    denominator = 0
    for offset in range(1, size - order):
        n_numerator = int(abs(sequence[order] - sequence[order + offset]) >= r)
        n_denominator = 0
        for idx in range(order):
            n_numerator += abs(sequence[idx] - sequence[idx + offset]) >= r
            n_denominator += abs(sequence[idx] - sequence[idx + offset]) >= r
        if n_numerator == 0:
            numerator += 1
        if n_denominator == 0:
            denominator += 1
        prev_in_diff = int(abs(sequence[order] - sequence[offset + order]) >= r)
        for idx in range(1, size - offset - order):
            out_diff = int(abs(sequence[idx - 1] - sequence[idx + offset - 1]) >= r)
            in_diff = int(abs(sequence[idx + order] - sequence[idx + offset + order]) >= r)
            n_numerator += in_diff - out_diff
            n_denominator += prev_in_diff - out_diff
            prev_in_diff = in_diff
            if n_numerator == 0:
                numerator += 1
            if n_denominator == 0:
                denominator += 1
    if denominator == 0:
        return 0
    elif numerator == 0:
        return np.inf
    else:
        return -log(numerator / denominator)
"""

LIBS = ("taipan", "numba")


def compiled(lib):
    """The kernels compiled by `lib`, from a module file (both compilers read source text)."""
    path = os.path.join(tempfile.mkdtemp(), f"kernels_{lib}.py")
    fractal = [FUNCTIONS[name].format(jit=f"@{lib}.njit") for name in ("mandel", "create_fractal")]
    with open(path, "w") as file:
        file.write("\n".join([SOURCE.format(lib=lib), *fractal]))
    spec = importlib.util.spec_from_file_location(f"kernels_{lib}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="calls of each side, in turn")
    rounds = parser.parse_args().rounds
    modules = {lib: compiled(lib) for lib in LIBS}
    image = np.zeros((600, 800), dtype=np.int32)
    samples = np.random.default_rng(0).standard_normal(10**5)
    short = np.random.default_rng(0).standard_normal(4000)
    tolerance = 0.2 * short.std(ddof=0)
    short.flags.writeable = False  # antropy's signature takes a read-only array
    cases = {
        "create_fractal 800x600, 200 iters": lambda m: m.create_fractal(
            -2.0, 1.0, -1.0, 1.0, image, 200
        ),
        "higuchi_fd loop 10**5, kmax 10": lambda m: m.higuchi(samples, 10),
        "sample_entropy loop 4000": lambda m: np.array(m.sampen(short, np.int32(2), tolerance)),
    }
    for name, call in cases.items():
        results = {lib: call(modules[lib]).copy() for lib in LIBS}  # compiles; checks agree
        np.testing.assert_array_equal(results["taipan"], results["numba"])
        best = dict.fromkeys(LIBS, float("inf"))
        for _ in range(rounds):
            for lib in LIBS:
                start = time.perf_counter()
                call(modules[lib])
                best[lib] = min(best[lib], time.perf_counter() - start)
        print(
            f"{name}: taipan {best['taipan'] * 1e3:.3f} ms, numba {best['numba'] * 1e3:.3f} ms, "
            f"ratio {best['taipan'] / best['numba']:.3f} (best of {rounds}, one process)"
        )


if __name__ == "__main__":
    main()
