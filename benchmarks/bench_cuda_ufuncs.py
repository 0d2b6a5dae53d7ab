"""The CUDA library layer on the GPU host: CUDA ufuncs (``@vectorize(..., target='cuda')``) and
``cuda.reduce``, taipan against numba-cuda in the same run.

Every figure comes from a fresh process per library. numba-cuda 0.30 needs ``np.row_stack``,
which NumPy 2.5 removed, so the numba snippets restore it first. ``NUMBA_PYTHON=/path/python``
runs the numba snippets with another interpreter (where numba-cuda is installed for it alone).

    python benchmarks/bench_cuda_ufuncs.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from common import Row, measure, print_results, run_snippet

PRELUDE = {
    "taipan": "import numpy as np\nfrom taipan import cuda, vectorize\n",
    "numba": (
        "import warnings\nimport numpy as np\nnp.row_stack = np.vstack\n"
        "from numba import cuda, vectorize\n"
        "from numba.core.errors import NumbaPerformanceWarning\n"
        "warnings.simplefilter('ignore', NumbaPerformanceWarning)\n"
    ),
}

UFUNCS = """
import math, time

@vectorize(['float32(float32, float32)'], target='cuda')
def add_ufunc(x, y):
    return x + y

@vectorize(['float32(float32)'], target='cuda')
def normalize(grayscales):
    return grayscales / 255

@vectorize(['float32(float32, float32)'], target='cuda')
def weigh(values, weights):
    return values * weights

@vectorize(['float32(float32)'], target='cuda')
def activate(values):
    return (math.exp(values) - math.exp(-values)) / (math.exp(values) + math.exp(-values))

@cuda.reduce
def sum_reduce(a, b):
    return a + b

def best(call, rounds, number):
    result = None
    for _ in range(rounds):
        t = time.perf_counter_ns()
        for _ in range(number):
            call()
        cuda.synchronize()
        ns = (time.perf_counter_ns() - t) / number
        result = ns if result is None else min(result, ns)
    return result
"""

DEVICE_IN_OUT = """
n = 10**6
x = cuda.to_device(np.arange(n, dtype=np.float32))
y = cuda.to_device(np.ones(n, np.float32))
out = cuda.device_array(n, np.float32)
add_ufunc(x, y, out=out)
cuda.synchronize()
assert out.copy_to_host()[12345] == 12346.0
report(best(lambda: add_ufunc(x, y, out=out), ROUNDS, 2000))
"""

DEVICE_ALLOCATING = """
n = 10**6
x = cuda.to_device(np.arange(n, dtype=np.float32))
y = cuda.to_device(np.ones(n, np.float32))
r = add_ufunc(x, y)
cuda.synchronize()
assert r.copy_to_host()[12345] == 12346.0
report(best(lambda: add_ufunc(x, y), ROUNDS, 1000))
"""

HOST = """
n = 10**6
x = np.arange(n, dtype=np.float32)
y = np.ones(n, np.float32)
assert add_ufunc(x, y)[12345] == 12346.0
report(best(lambda: add_ufunc(x, y), ROUNDS, 50))
"""

FIRST_CALL = """
# first call
import time
x = cuda.to_device(np.arange(1000, dtype=np.float32))
y = cuda.to_device(np.ones(1000, np.float32))
cuda.synchronize()
t = time.perf_counter_ns()

@vectorize(['float32(float32, float32)'], target='cuda')
def first_add(a, b):
    return a + b

r = first_add(x, y)
cuda.synchronize()
ns = time.perf_counter_ns() - t
assert r.copy_to_host()[10] == 11.0
report(ns)
"""

REDUCE = """
n = 2**24
values = np.random.default_rng(0).random(n)
d = cuda.to_device(values)
got = sum_reduce(d)
assert abs(got - values.sum()) < 1e-6 * n, (got, values.sum())
report(best(lambda: sum_reduce(d), ROUNDS, 200))
"""

FIRST_REDUCE = """
# first call
import time
d = cuda.to_device(np.arange(10_000, dtype=np.float64))
cuda.synchronize()
t = time.perf_counter_ns()

@cuda.reduce
def first_sum(a, b):
    return a + b

got = first_sum(d)
ns = time.perf_counter_ns() - t
assert got == 10_000 * 9_999 / 2
report(ns)
"""

HIDDEN_LAYER = """
n = SIZE
greyscales = np.floor(np.random.uniform(0, 255, n).astype(np.float32))
weights = np.random.normal(.5, .1, n).astype(np.float32)

def create_hidden_layer(n, greyscales, weights, exp, normalize, weigh, activate):
    greyscales_device = cuda.to_device(greyscales)
    weights_device = cuda.to_device(weights)
    normalized = cuda.device_array(n, np.float32)
    weighted = cuda.device_array(n, np.float32)
    activated = cuda.device_array(n, np.float32)
    normalize(greyscales_device, out=normalized)
    weigh(normalized, weights_device, out=weighted)
    activate(weighted, out=activated)
    return activated.copy_to_host()

small = 1000
check = create_hidden_layer(small, greyscales[:small], weights[:small], math.exp, normalize,
                            weigh, activate)
assert np.allclose(check, np.tanh(greyscales[:small] / 255 * weights[:small]), atol=1e-6)
result = None
for _ in range(ROUNDS):
    t = time.perf_counter_ns()
    a = create_hidden_layer(n, greyscales, weights, math.exp, normalize, weigh, activate)
    ns = time.perf_counter_ns() - t
    result = ns if result is None else min(result, ns)
assert isinstance(a, np.ndarray) and a.shape == (n,)
report(result)
"""


# First calls are measured with the driver's JIT cache off (both libraries), so the PTX is
# compiled for the GPU as in a program's first run, not loaded from ~/.nv/ComputeCache.
COLD = "import os\nos.environ['CUDA_CACHE_DISABLE'] = '1'\n"
# With ``cache_dir`` the driver's JIT cache is on, in a folder of the benchmark's own: a program's
# second run, which is what users see by default (the driver keeps SASS for PTX it has seen).
WARM = (
    "import os\nos.environ.pop('CUDA_CACHE_DISABLE', None)\nos.environ['CUDA_CACHE_PATH'] = {!r}\n"
)


def snippet(lib, body, rounds, cache_dir=None):
    if cache_dir is not None:
        driver_cache = WARM.format(cache_dir)
    else:
        driver_cache = COLD if "# first call" in body else ""
    return driver_cache + PRELUDE[lib] + UFUNCS + body.replace("ROUNDS", str(rounds))


def interpreter(lib):
    return os.environ.get("NUMBA_PYTHON") if lib == "numba" else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    rounds = 3 if args.quick else 7

    def both(body, repeats=1, warm_driver_cache=False, **kwargs):
        """Each library's time for ``body``; with ``warm_driver_cache`` a first process fills
        a driver JIT cache of the library's own and the following ones are timed."""
        results = []
        for lib in ("taipan", "numba"):

            def run(lib=lib):
                if not warm_driver_cache:
                    code = snippet(lib, body, rounds)
                    return min(
                        run_snippet(code, python=interpreter(lib), **kwargs) for _ in range(repeats)
                    )
                # The same script at the same path, as a program's second run: the driver's
                # cache is keyed by the PTX, whose symbols name the function's file.
                with tempfile.TemporaryDirectory(prefix=f"driver-cache-{lib}-") as cache:
                    code = snippet(lib, body, rounds, cache_dir=cache)
                    again = dict(python=interpreter(lib), directory=cache, **kwargs)
                    run_snippet(code, **again)
                    return min(run_snippet(code, **again) for _ in range(repeats))

            results.append(measure(run))
        return results

    def absolute(value, limit_us):
        """A note judging a time against an absolute limit."""
        if not isinstance(value, (int, float)):
            return f"absolute target <= {limit_us} us"
        verdict = "PASS" if value <= limit_us * 1e3 else "MISS"
        return f"absolute target <= {limit_us} us: {verdict}"

    rows = []
    taipan, numba = both(DEVICE_IN_OUT)
    rows.append(
        Row(
            "CUDA ufunc 10^6 float32 device arrays in/out",
            taipan,
            numba,
            note=absolute(taipan, 30) + " (launch + 12 MB at HBM speed)",
        )
    )
    taipan, numba = both(DEVICE_ALLOCATING)
    rows.append(
        Row(
            "CUDA ufunc 10^6 float32 device arrays in, result allocated",
            taipan,
            numba,
            note="a cuMemAlloc and a deferred cuMemFree per call",
        )
    )
    taipan, numba = both(HOST)
    rows.append(Row("CUDA ufunc 10^6 float32 host arrays", taipan, numba, target=0.5))
    taipan, numba = both(FIRST_CALL, repeats=1 if args.quick else 3)
    rows.append(
        Row(
            "CUDA ufunc first call (compile+launch) in a fresh process",
            taipan,
            numba,
            target=0.1,
            note="driver JIT cache off",
        )
    )
    taipan, numba = both(FIRST_CALL, repeats=1 if args.quick else 3, warm_driver_cache=True)
    rows.append(
        Row(
            "CUDA ufunc first call, driver JIT cache warm (a second run)",
            taipan,
            numba,
            note="taipan still compiles to PTX; the driver reuses its SASS",
        )
    )
    taipan, numba = both(REDUCE)
    rows.append(
        Row(
            "cuda.reduce sum 2^24 float64 device array",
            taipan,
            numba,
            note=absolute(taipan, 80),
        )
    )
    taipan, numba = both(FIRST_REDUCE, repeats=1 if args.quick else 3)
    rows.append(
        Row(
            "first cuda.reduce call (compile+launch), fresh process",
            taipan,
            numba,
            target=0.1,
            note="driver JIT cache off",
        )
    )
    taipan, numba = both(FIRST_REDUCE, repeats=1 if args.quick else 3, warm_driver_cache=True)
    rows.append(
        Row(
            "first cuda.reduce call, driver JIT cache warm (a second run)",
            taipan,
            numba,
            note="taipan still compiles to PTX; the driver reuses its SASS",
        )
    )
    size = 10**8
    body = HIDDEN_LAYER.replace("SIZE", str(size)).replace("ROUNDS", "2" if args.quick else "3")
    taipan, numba = both(body, timeout=600)
    rows.append(
        Row("hidden-layer assessment with CUDA ufuncs, 10^8 float32", taipan, numba, target=1.0)
    )
    print_results("CUDA ufuncs and cuda.reduce (ratio = taipan/numba-cuda; lower is better)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
