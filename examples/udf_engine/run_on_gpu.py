"""The UDF engine on a GPU: the talk's ``haversine_dist`` applied to 10**7 rows through PTX
linked into a kernel template, and to the same rows on the CPU through a cfunc; prints the
compile and run times and checks the results against NumPy and against each other.

    python examples/udf_engine/run_on_gpu.py [--rows 10000000] [--repeats 5] [--link ptx]

Times (seconds, medians of ``--repeats`` runs where repeated):
- GPU compile: the row function to PTX (``cuda.compile(device=True, abi="c")``), then the
  kernel template's first launch (its compilation, the link with the row function's PTX, the
  module's load; over the rows, so it includes one run);
- GPU run: a launch over the rows with the columns already on the device, synchronised;
- GPU run with transfers: the columns copied in, the launch, the results copied out;
- CPU compile: the cfunc and the loop calling it; CPU run: the loop over the rows;
- NumPy: the same formula on whole columns, for scale.

Exits with status 1 when a result differs from NumPy's by more than 1e-9 relative (libdevice's
and the C library's sin/cos/asin may differ in the last bit) or the CPU run differs from
Python's own evaluation of the function on sampled rows by more than 4 ulp.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from haversine import haversine_dist, haversine_numpy
from udf_engine import ColumnStore

from taipan import cuda, float64


def seconds(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def device_name():
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--link",
        choices=("ptx", "device"),
        default="ptx",
        help="the row function as linked PTX (the default) or as a taipan device function "
        "(what the CUDA simulator runs)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    lat1 = rng.uniform(-90.0, 90.0, args.rows)
    lon1 = rng.uniform(-180.0, 180.0, args.rows)
    target = (51.4779, -0.0015)  # Greenwich
    store = ColumnStore({"lat1": lat1, "lon1": lon1})
    failures = []
    print(f"device: {device_name()}; {args.rows} rows; link={args.link}")

    start = time.perf_counter()
    expected = haversine_numpy(lat1, lon1, *target)
    numpy_seconds = time.perf_counter() - start

    # GPU: PTX of the row function linked into the kernel template.
    start = time.perf_counter()
    compiled = store.compile(haversine_dist, (float64, float64), target="cuda", link=args.link)
    compile_seconds = time.perf_counter() - start
    device_columns = store.to_device()
    out = cuda.device_array(args.rows)
    start = time.perf_counter()
    compiled.run(device_columns, out, target)
    cuda.synchronize()
    first_launch = time.perf_counter() - start

    def gpu_run():
        compiled.run(device_columns, out, target)
        cuda.synchronize()

    gpu_seconds = seconds(gpu_run, args.repeats)

    def gpu_with_transfers():
        columns = [cuda.to_device(lat1), cuda.to_device(lon1)]
        result = cuda.device_array(args.rows)
        compiled.run(columns, result, target)
        return result.copy_to_host()

    transfer_seconds = seconds(gpu_with_transfers, args.repeats)
    gpu = out.copy_to_host()

    # CPU: the cfunc, called from a compiled loop through its address.
    start = time.perf_counter()
    cpu_compiled = store.compile(haversine_dist, (float64, float64), target="cpu")
    cpu_compile = time.perf_counter() - start
    cpu = np.empty(args.rows)
    start = time.perf_counter()
    cpu_compiled.run([lat1, lon1], cpu, target)
    cpu_first = time.perf_counter() - start
    cpu_seconds = seconds(lambda: cpu_compiled.run([lat1, lon1], cpu, target), args.repeats)

    for name, result in (("GPU", gpu), ("CPU", cpu)):
        error = np.max(np.abs(result - expected) / np.maximum(np.abs(expected), 1e-300))
        ok = error <= 1e-9
        print(
            f"{'PASS' if ok else 'FAIL'}  {name} results vs NumPy: max relative error {error:.3g}"
        )
        if not ok:
            failures.append(name)
    sample = rng.integers(0, args.rows, 1000)
    rows = np.rec.fromarrays([lat1[sample], lon1[sample]], dtype=store.row_dtype)
    python = np.array([haversine_dist(row, *target) for row in rows])
    # x ** 2 compiles to x * x (as in Numba); CPython's pow() may differ from it by one ulp.
    ulps = np.max(np.abs(python.view(np.int64) - cpu[sample].view(np.int64)))
    same = ulps <= 4
    print(f"{'PASS' if same else 'FAIL'}  CPU results = Python's on 1000 sampled rows: {ulps} ulp")
    if not same:
        failures.append("CPU vs Python")
    agree = np.max(np.abs(gpu - cpu))
    print(f"      GPU vs CPU: max absolute difference {agree:.3g} km")

    print()
    print("| step | seconds |")
    print("|---|---:|")
    for step, value in compiled.timings.items():
        print(f"| GPU: {step} | {value:.4f} |")
    print(f"| GPU: compile (the row function, the template defined) | {compile_seconds:.4f} |")
    print(
        f"| GPU: first launch (template compiled, linked, loaded, one run) | {first_launch:.4f} |"
    )
    print(f"| GPU: run over {args.rows} rows (columns on the device) | {gpu_seconds:.5f} |")
    print(f"| GPU: run with transfers (columns in, results out) | {transfer_seconds:.4f} |")
    print(f"| CPU: compile (cfunc and the loop calling it) | {cpu_compile:.4f} |")
    print(f"| CPU: first run (the loop's compilation, one run) | {cpu_first:.4f} |")
    print(f"| CPU: run over {args.rows} rows (one thread) | {cpu_seconds:.4f} |")
    print(f"| NumPy: the formula over whole columns | {numpy_seconds:.4f} |")
    print(f"rows per second: GPU {args.rows / gpu_seconds:.3g}, CPU {args.rows / cpu_seconds:.3g}")
    print(f"{len(failures)} failed: {failures}" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
