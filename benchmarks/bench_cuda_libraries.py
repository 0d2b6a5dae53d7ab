"""CUDA library benchmarks on the GPU host: taipan.cuda.random against numba-cuda's
xoroshiro128+, taipan.cuda.fft and taipan.cuda.blas against CuPy (both call cuFFT and cuBLAS,
so these measure the wrappers' overhead around the same library calls).

Every figure comes from a fresh process per library; GPU times are wall-clock around the work
and a synchronisation, best of several runs after a warm-up. The "numba" column holds the
reference: numba-cuda for the random numbers, CuPy for FFT and GEMM. numba-cuda 0.30 needs
``np.row_stack``, which NumPy 2.5 removed, so its snippets restore it first.

    python benchmarks/bench_cuda_libraries.py [--quick]
"""

from __future__ import annotations

import argparse
import sys

from common import Row, measure, print_results, run_snippet

# --- Monte Carlo pi: 2**20 generators drawing 96 points each, about 10**8 samples ----------

PI_PRELUDE = {
    "taipan": (
        "import numpy as np\nfrom taipan import cuda\n"
        "from taipan.cuda.random import create_xoroshiro128p_states, "
        "xoroshiro128p_uniform_float32\n"
    ),
    "numba": (
        "import numpy as np\nnp.row_stack = getattr(np, 'row_stack', np.vstack)\n"
        "from numba import cuda\n"
        "from numba.cuda.random import create_xoroshiro128p_states, "
        "xoroshiro128p_uniform_float32\n"
    ),
}

PI_BODY = """
import math, time

@cuda.jit
def compute_pi(rng_states, iterations, out):
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x**2 + y**2 <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations

@cuda.jit
def compute_pi_products(rng_states, iterations, out):
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x * x + y * y <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations

def timed(kernel):
    best = None
    for _ in range(REPEATS):
        t = time.perf_counter_ns()
        kernel[blocks, threads](states, iterations, out)
        cuda.synchronize()
        ns = time.perf_counter_ns() - t
        best = ns if best is None else min(best, ns)
    return best

threads, blocks, iterations = 256, 4096, 96
n = threads * blocks
t = time.perf_counter_ns()
states = create_xoroshiro128p_states(n, seed=1)
cuda.synchronize()
first_init = time.perf_counter_ns() - t
t = time.perf_counter_ns()
states = create_xoroshiro128p_states(n, seed=1)
cuda.synchronize()
init = time.perf_counter_ns() - t
out = cuda.device_array(n, np.float32)
t = time.perf_counter_ns()
compute_pi[blocks, threads](states, iterations, out)
cuda.synchronize()
first = time.perf_counter_ns() - t
best = timed(compute_pi)
pi = float(out.copy_to_host().astype(np.float64).mean())
assert abs(pi - math.pi) < 1e-2, pi
states = create_xoroshiro128p_states(n, seed=1)
compute_pi_products[blocks, threads](states, iterations, out)
products = timed(compute_pi_products)
pi_products = float(out.copy_to_host().astype(np.float64).mean())
report({"kernel": best, "products": products, "init": init, "first_init": first_init,
        "first": first, "pi": pi, "pi_products": pi_products})
"""

# --- FFT of 2**24 complex64 ------------------------------------------------------------------

FFT = {
    "taipan": """
import numpy as np, time
from taipan import cuda
from taipan.cuda import fft
x = np.random.default_rng(0).standard_normal(2**24).astype(np.complex64)
d = cuda.to_device(x)
y = fft.fft(d)
cuda.synchronize()
check = y.copy_to_host()[:4096]
""",
    "cupy": """
import numpy as np, time
import cupy as cp
x = np.random.default_rng(0).standard_normal(2**24).astype(np.complex64)
d = cp.asarray(x)
y = cp.fft.fft(d)
cp.cuda.Device().synchronize()
check = y[:4096].get()
""",
}
FFT_TIMING = """
expected = np.fft.fft(x)[:4096]
assert np.abs(check - expected).max() < 1e-2 * np.abs(expected).max()
best = None
for _ in range(REPEATS):
    t = time.perf_counter_ns()
    y = CALL
    SYNC
    ns = time.perf_counter_ns() - t
    best = ns if best is None else min(best, ns)
report(best)
"""

# --- GEMM, 4096 x 4096 float32 ---------------------------------------------------------------

GEMM = {
    "taipan": """
import numpy as np, time
from taipan import cuda
from taipan.cuda import blas
n = 4096
rng = np.random.default_rng(0)
a_host = rng.random((n, n), dtype=np.float32)
b_host = rng.random((n, n), dtype=np.float32)
a, b = cuda.to_device(a_host), cuda.to_device(b_host)
c = cuda.device_array((n, n), np.float32)
blas.gemm("N", "N", 1.0, a, b, 0.0, c)
cuda.synchronize()
check = c[:8, :8].copy_to_host()
""",
    "cupy": """
import numpy as np, time
import cupy as cp
n = 4096
rng = np.random.default_rng(0)
a_host = rng.random((n, n), dtype=np.float32)
b_host = rng.random((n, n), dtype=np.float32)
a, b = cp.asarray(a_host), cp.asarray(b_host)
c = cp.empty((n, n), np.float32)
cp.matmul(a, b, out=c)
cp.cuda.Device().synchronize()
check = c[:8, :8].get()
""",
}
GEMM_TIMING = """
expected = a_host[:8].astype(np.float64) @ b_host[:, :8].astype(np.float64)
assert np.abs(check - expected).max() < 1e-2 * np.abs(expected).max()
best = None
for _ in range(REPEATS):
    t = time.perf_counter_ns()
    CALL
    SYNC
    ns = time.perf_counter_ns() - t
    best = ns if best is None else min(best, ns)
report(best)
"""

CALLS = {
    ("fft", "taipan"): ("fft.fft(d)", "cuda.synchronize()"),
    ("fft out", "taipan"): ("fft.fft(d, out)", "cuda.synchronize()"),
    ("fft out", "cupy"): ("cp.fft.fft(d)", "cp.cuda.Device().synchronize()"),
    ("fft", "cupy"): ("cp.fft.fft(d)", "cp.cuda.Device().synchronize()"),
    ("gemm", "taipan"): ('blas.gemm("N", "N", 1.0, a, b, 0.0, c)', "cuda.synchronize()"),
    ("gemm", "cupy"): ("cp.matmul(a, b, out=c)", "cp.cuda.Device().synchronize()"),
}


def library_snippet(what, lib, repeats):
    setup = (FFT if what.startswith("fft") else GEMM)[lib]
    if what == "fft out" and lib == "taipan":
        setup += "out = cuda.device_array_like(d)\n"
    timing = FFT_TIMING if what.startswith("fft") else GEMM_TIMING
    call, sync = CALLS[(what, lib)]
    return setup + timing.replace("CALL", call).replace("SYNC", sync).replace(
        "REPEATS", str(repeats)
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    repeats = 5 if args.quick else 20

    rows = []
    pi = {
        lib: measure(
            lambda lib=lib: run_snippet(
                PI_PRELUDE[lib] + PI_BODY.replace("REPEATS", str(repeats)), timeout=600
            )
        )
        for lib in ("taipan", "numba")
    }

    def field(lib, name):
        value = pi[lib]
        return value[name] if isinstance(value, dict) else value

    def same(name):
        both = isinstance(pi["taipan"], dict) and isinstance(pi["numba"], dict)
        return both and pi["taipan"][name] == pi["numba"][name]

    estimate = field("taipan", "pi")
    note = f"pi ~ {estimate:.6f}" if isinstance(estimate, float) else ""
    if not same("pi"):
        note += ", differs from numba-cuda's (x**2 is powf)"
    products_note = "the same pi as numba-cuda" if same("pi_products") else "PI DIFFERS"
    rows.append(
        Row(
            "xoroshiro128+ Monte Carlo pi, 1.0e8 samples: kernel",
            field("taipan", "kernel"),
            field("numba", "kernel"),
            target=1.0,
            note=note,
        )
    )
    rows.append(
        Row(
            "  the same with x * x + y * y instead of x**2 + y**2",
            field("taipan", "products"),
            field("numba", "products"),
            target=1.0,
            note=products_note + "; the first row's x**2 is libdevice's powf in taipan",
        )
    )
    rows.append(
        Row(
            "  states for 2**20 generators (CPU init + copy)",
            field("taipan", "init"),
            field("numba", "init"),
            target=1.5,
        )
    )
    rows.append(
        Row(
            "  first init (compiles the CPU initialisation)",
            field("taipan", "first_init"),
            field("numba", "first_init"),
        )
    )
    rows.append(
        Row(
            "  first launch (compiles the kernel)",
            field("taipan", "first"),
            field("numba", "first"),
        )
    )
    for what, name in (
        ("fft", "cuda.fft.fft, 2**24 complex64 (vs CuPy)"),
        ("fft out", "  into a preallocated out= (CuPy allocates from its pool)"),
        ("gemm", "cuda.blas.gemm, 4096^2 float32 (vs CuPy)"),
    ):
        taipan, cupy = (
            measure(
                lambda lib=lib, what=what: run_snippet(
                    library_snippet(what, lib, repeats), timeout=600
                )
            )
            for lib in ("taipan", "cupy")
        )
        note = ""
        if what == "fft":
            note = "both take the result from a stream-ordered memory pool"
        if what == "gemm" and isinstance(taipan, (int, float)):
            note = f"taipan {2 * 4096**3 / taipan / 1e3:.1f} TFLOP/s"
        rows.append(Row(name, taipan, cupy, target=round(1 / 0.95, 3), note=note))
    print_results("CUDA libraries (ratio = taipan / numba-cuda or CuPy; lower is better)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
