"""The CUDA simulator: taipan's (TAIPAN_ENABLE_CUDASIM=1) against Numba's (NUMBA_ENABLE_CUDASIM=1)
on the same kernels, each library in a fresh process. No GPU is needed.

Kernels: a grid-stride add over 10^4 elements, a shared-memory block reduction with
syncthreads, a histogram with atomics and a tiled 64x64 matrix multiply. Each result is checked
against NumPy; the figure is the best of --repeats launches after one warm-up launch, with the
arrays already on the (simulated) device.

    PYTHONPATH=src python benchmarks/bench_cuda_simulator.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys

from common import Row, print_results, run_snippet

PRELUDE = {
    "taipan": (
        "import os\nos.environ['TAIPAN_ENABLE_CUDASIM'] = '1'\n"
        "import numpy as np\nfrom taipan import cuda\nfrom taipan import float32\n"
    ),
    "numba": (
        "import os\nos.environ['NUMBA_ENABLE_CUDASIM'] = '1'\n"
        "import numpy as np\nfrom numba import cuda\nfrom numba import float32\n"
    ),
}

KERNELS = """
import time

TPB = 16
BLOCK = 256
BINS = 16


@cuda.jit
def add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


@cuda.jit
def block_sum(values, partial):
    cache = cuda.shared.array(BLOCK, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    cache[t] = values[i] if i < values.shape[0] else 0
    cuda.syncthreads()
    step = BLOCK // 2
    while step > 0:
        if t < step:
            cache[t] += cache[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = cache[0]


@cuda.jit
def histogram(values, counts):
    i = cuda.grid(1)
    if i < values.shape[0]:
        index = int(values[i] * BINS)
        if index >= BINS:
            index = BINS - 1
        cuda.atomic.add(counts, index, 1)


@cuda.jit
def matmul(a, b, c):
    sa = cuda.shared.array((TPB, TPB), float32)
    sb = cuda.shared.array((TPB, TPB), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    total = 0.0
    for i in range(cuda.gridDim.x):
        sa[tx, ty] = 0.0
        sb[tx, ty] = 0.0
        if x < a.shape[0] and ty + i * TPB < a.shape[1]:
            sa[tx, ty] = a[x, ty + i * TPB]
        if y < b.shape[1] and tx + i * TPB < b.shape[0]:
            sb[tx, ty] = b[tx + i * TPB, y]
        cuda.syncthreads()
        for j in range(TPB):
            total += sa[tx, j] * sb[j, ty]
        cuda.syncthreads()
    if x < c.shape[0] and y < c.shape[1]:
        c[x, y] = total


def best(launch, repeats):
    launch()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        launch()
        times.append(time.perf_counter_ns() - start)
    return min(times)


rng = np.random.default_rng(0)
"""

CASES = {
    "grid-stride add, 10^4 float32, [32, 128]": """
n = 10_000
x = rng.random(n, dtype=np.float32)
d_x = cuda.to_device(x)
d_out = cuda.device_array_like(x)
ns = best(lambda: add[32, 128](d_x, d_x, d_out), REPEATS)
np.testing.assert_array_equal(d_out.copy_to_host(), x + x)
report(ns)
""",
    "block reduction, shared + syncthreads, 16 x 256": """
n = 16 * BLOCK
values = rng.random(n, dtype=np.float32)
d_values = cuda.to_device(values)
d_partial = cuda.device_array(16, np.float32)
ns = best(lambda: block_sum[16, BLOCK](d_values, d_partial), REPEATS)
np.testing.assert_allclose(d_partial.copy_to_host(), values.reshape(16, BLOCK).sum(1), rtol=1e-4)
report(ns)
""",
    "histogram, atomics, 10^4 values, [40, 256]": """
values = rng.random(10_000)
d_values = cuda.to_device(values)
d_counts = cuda.to_device(np.zeros(BINS, np.int64))
def run():
    d_counts.copy_to_device(np.zeros(BINS, np.int64))
    histogram[40, 256](d_values, d_counts)
ns = best(run, REPEATS)
expected, _ = np.histogram(values, bins=BINS, range=(0, 1))
np.testing.assert_array_equal(d_counts.copy_to_host(), expected)
report(ns)
""",
    "tiled matmul 64x64, shared + syncthreads, (4, 4) x (16, 16)": """
a = rng.random((64, 64), dtype=np.float32)
b = rng.random((64, 64), dtype=np.float32)
d_a = cuda.to_device(a)
d_b = cuda.to_device(b)
d_c = cuda.device_array((64, 64), np.float32)
ns = best(lambda: matmul[(4, 4), (TPB, TPB)](d_a, d_b, d_c), REPEATS)
np.testing.assert_allclose(d_c.copy_to_host(), a @ b, rtol=1e-4)
report(ns)
""",
}


def measure(lib, case, repeats):
    code = PRELUDE[lib] + KERNELS + CASES[case].replace("REPEATS", str(repeats))
    try:
        return run_snippet(code, timeout=900)
    except Exception as error:  # noqa: BLE001 (shown in the table)
        return f"error: {error}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5, help="launches timed per kernel")
    parser.add_argument("--only", help="run only the kernels whose name contains this text")
    args = parser.parse_args(argv)
    rows = []
    for case in CASES:
        if args.only and args.only not in case:
            continue
        taipan = measure("taipan", case, args.repeats)
        numba = measure("numba", case, args.repeats)
        rows.append(Row(case, taipan, numba, target=1.0))
        print(f"  {case}: taipan {taipan}, numba {numba}", file=sys.stderr, flush=True)
    print_results("CUDA simulator: one launch (taipan / numba, lower is better)", rows)


if __name__ == "__main__":
    main()
