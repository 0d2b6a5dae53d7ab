"""CUDA benchmarks on the GPU host: taipan.cuda against numba-cuda in the same run.

Every figure comes from a fresh process per library. numba-cuda 0.30 needs ``np.row_stack``,
which NumPy 2.5 removed, so the numba snippets restore it first.

    python benchmarks/bench_cuda.py [--quick]
"""

from __future__ import annotations

import argparse
import sys

from common import Row, measure, print_results, run_snippet

PRELUDE = {
    "taipan": "import numpy as np\nfrom taipan import cuda\n",
    "numba": "import numpy as np\nnp.row_stack = np.vstack\nfrom numba import cuda\n",
}

KERNELS = """
@cuda.jit
def empty(a):
    pass

@cuda.jit
def vector_add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]

TPB = 16

@cuda.jit
def matmul_naive(a, b, c):
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        total = 0.0
        for k in range(a.shape[1]):
            total += a[i, k] * b[k, j]
        c[i, j] = total

@cuda.jit
def matmul_shared(a, b, c):
    sa = cuda.shared.array((TPB, TPB), np.float32)
    sb = cuda.shared.array((TPB, TPB), np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    blocks = cuda.gridDim.x
    total = 0.0
    for i in range(blocks):
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
"""


def snippet(lib, body):
    return PRELUDE[lib] + KERNELS + "import time\n" + body


LAUNCH = """
a = cuda.device_array(16, np.float32)
empty[1, 1](a)
cuda.synchronize()
best = None
for _ in range(5):
    t = time.perf_counter_ns()
    for _ in range(2000):
        empty[1, 1](a)
    cuda.synchronize()
    ns = (time.perf_counter_ns() - t) / 2000
    best = ns if best is None else min(best, ns)
report(best)
"""

FIRST = """
a = cuda.device_array(16, np.float32)
t = time.perf_counter_ns()
vector_add[1, 16](a, a, a)
cuda.synchronize()
report(time.perf_counter_ns() - t)
"""

VECTOR = """
n = 2**27
x = cuda.to_device(np.ones(n, np.float32))
y = cuda.to_device(np.ones(n, np.float32))
out = cuda.device_array(n, np.float32)
vector_add[1024, 256](x, y, out)
cuda.synchronize()
best = None
for _ in range(10):
    t = time.perf_counter_ns()
    vector_add[132 * 16, 256](x, y, out)
    cuda.synchronize()
    ns = time.perf_counter_ns() - t
    best = ns if best is None else min(best, ns)
assert float(out.copy_to_host()[123]) == 2.0
report(best)
"""

MATMUL = """
n = 4096
a = cuda.to_device(np.random.default_rng(0).random((n, n), dtype=np.float32))
b = cuda.to_device(np.random.default_rng(1).random((n, n), dtype=np.float32))
c = cuda.device_array((n, n), np.float32)
kernel = KERNEL
blocks = (n // TPB, n // TPB)
kernel[blocks, (TPB, TPB)](a, b, c)
cuda.synchronize()
best = None
for _ in range(3):
    t = time.perf_counter_ns()
    kernel[blocks, (TPB, TPB)](a, b, c)
    cuda.synchronize()
    ns = time.perf_counter_ns() - t
    best = ns if best is None else min(best, ns)
report(best)
"""


def generated_device_function(statements):
    lines = ["@cuda.jit(device=True)", "def body(x, k):", "    y = x", "    m = k"]
    for i in range(statements):
        kind = i % 4
        if kind == 0:
            lines.append(f"    y = y * 1.0001 + {i % 7}.5")
        elif kind == 1:
            lines.append(f"    m = (m * 3 + {i}) % 1009")
        elif kind == 2:
            lines += [
                "    if m % 2 == 0:",
                f"        y = y - {i % 5}.25",
                "    else:",
                "        y = y + 0.5",
            ]
        else:
            lines += ["    for j in range(3):", "        y = y + j * 0.125"]
    lines += [
        "    return y + m",
        "",
        "@cuda.jit",
        "def call(out, k):",
        "    out[0] = body(out[0], k)",
        "",
    ]
    return "\n".join(lines)


SCALING = """
out = cuda.device_array(1, np.float64)
t = time.perf_counter_ns()
call[1, 1](out, 3)
cuda.synchronize()
report(time.perf_counter_ns() - t)
"""


def cuda_cpp_bandwidth():
    """The grid-stride vector add in CUDA C++ (through CuPy's RawKernel), as GB/s."""
    code = '''
import cupy as cp, time
kernel = cp.RawKernel(r"""
extern "C" __global__ void add(const float *x, const float *y, float *out, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    out[i] = x[i] + y[i];
}""", "add")
n = 2**27
x = cp.ones(n, cp.float32); y = cp.ones(n, cp.float32); out = cp.empty(n, cp.float32)
kernel((1024,), (256,), (x, y, out, cp.int64(n))); cp.cuda.Device().synchronize()
best = None
for _ in range(10):
    t = time.perf_counter_ns()
    kernel((132 * 16,), (256,), (x, y, out, cp.int64(n)))
    cp.cuda.Device().synchronize()
    ns = time.perf_counter_ns() - t
    best = ns if best is None else min(best, ns)
report(best)
'''
    return run_snippet(code, timeout=300)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)

    def both(body, **kwargs):
        return [
            measure(lambda lib=lib: run_snippet(snippet(lib, body), **kwargs))
            for lib in ("taipan", "numba")
        ]

    rows = []
    taipan, numba = both(LAUNCH)
    rows.append(
        Row(
            "launch overhead, empty kernel, 1 device array",
            taipan,
            numba,
            note="target <= 3.5 us absolute",
        )
    )
    taipan, numba = both(FIRST)
    rows.append(Row("first compile + launch (fresh process)", taipan, numba, target=0.12 / 0.38))
    taipan, numba = both(VECTOR)
    cpp = measure(cuda_cpp_bandwidth)
    gigabytes = 3 * 4 * 2**27 / 1e9
    note = f"CUDA C++: {cpp}" if isinstance(cpp, str) else ""
    if isinstance(cpp, (int, float)) and isinstance(taipan, (int, float)):
        note = (
            f"taipan {gigabytes / (taipan / 1e9):.0f} GB/s, CUDA C++ "
            f"{gigabytes / (cpp / 1e9):.0f} GB/s, taipan/C++ time {taipan / cpp:.3f}"
        )
    rows.append(Row("grid-stride vector add, 2**27 float32", taipan, numba, target=1.0, note=note))
    if not args.quick:
        for name in ("matmul_shared", "matmul_naive"):
            taipan, numba = both(MATMUL.replace("KERNEL", name))
            rows.append(Row(f"{name}, 4096^2 float32", taipan, numba, target=1.0))
    sizes = (25, 100) if args.quick else (25, 100, 400, 1600)
    for size in sizes:
        body = generated_device_function(size) + SCALING
        taipan, numba = both(body, timeout=900)
        rows.append(
            Row(f"compile, device function of {size} statements", taipan, numba, target=0.15)
        )
    print_results("CUDA (ratio = taipan/numba-cuda; lower is better)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
