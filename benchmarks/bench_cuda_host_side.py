"""taipan's host side of CUDA, timed on a machine without a GPU: a launch of an empty kernel
with one device array (``k[1, 1](a)``, and its two halves) and the first call of a CUDA ufunc,
against the stub driver of ``tools/cuda_stub`` (built here under ``build/cuda_stub``), which
answers every driver call at once. The driver's own time (``cuLaunchKernel``, the PTX JIT) is
not in these figures: they are what taipan adds to it, to compare one build with another.

Each figure comes from fresh processes (``--processes``, default 5), each the best of rounds;
the median over processes is printed, with the spread.

    python benchmarks/bench_cuda_host_side.py [--processes N] [--taipan-path SRC]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUB_SOURCE = ROOT / "tools" / "cuda_stub" / "libcuda_stub.c"
STUB_LIBRARY = ROOT / "build" / "cuda_stub" / "libcuda_stub.so"

LAUNCH = """
import time, warnings
import numpy as np
warnings.simplefilter("ignore")
from taipan import cuda

@cuda.jit
def empty(a):
    pass

a = cuda.device_array(16, np.float32)
empty[1, 1](a)
configured = empty[1, 1]

def whole(n):
    for _ in range(n):
        empty[1, 1](a)

def configure(n):
    for _ in range(n):
        empty[1, 1]

def call(n):
    for _ in range(n):
        configured(a)

for name, loop in (("launch", whole), ("configure", configure), ("call", call)):
    best = None
    for _ in range(9):
        start = time.perf_counter_ns()
        loop(20000)
        ns = (time.perf_counter_ns() - start) / 20000
        best = ns if best is None else min(best, ns)
    print("RESULT", name, best)
"""

UFUNC_FIRST_CALL = """
import time, warnings
import numpy as np
warnings.simplefilter("ignore")
from taipan import cuda, vectorize

x = cuda.to_device(np.arange(1000, dtype=np.float32))
cuda.synchronize()
wall, cpu = time.perf_counter_ns(), time.process_time_ns()

@vectorize(["float32(float32, float32)"], target="cuda")
def first_add(a, b):
    return a + b

r = first_add(x, x)
cuda.synchronize()
print("RESULT ufunc_first_wall", time.perf_counter_ns() - wall)
print("RESULT ufunc_first_cpu", time.process_time_ns() - cpu)
assert r.shape == (1000,)
"""

ROWS = (
    ("launch", "k[1, 1](a), empty kernel, one device array", 1e3, "ns"),
    ("configure", "  of which k[1, 1] (the configuration)", 1e3, "ns"),
    ("call", "  of which the configured call", 1e3, "ns"),
    ("ufunc_first_wall", "CUDA ufunc first call (decorate + call), wall", 1e6, "ms"),
    ("ufunc_first_cpu", "CUDA ufunc first call, process CPU time", 1e6, "ms"),
)


def build_stub() -> Path:
    """The stub driver, compiled again when its source is newer than the library."""
    if STUB_LIBRARY.exists() and STUB_LIBRARY.stat().st_mtime >= STUB_SOURCE.stat().st_mtime:
        return STUB_LIBRARY
    STUB_LIBRARY.parent.mkdir(parents=True, exist_ok=True)
    compiler = os.environ.get("CC", "cc")
    command = [compiler, "-O2", "-shared", "-fPIC", "-fvisibility=hidden"]
    subprocess.run([*command, "-o", str(STUB_LIBRARY), str(STUB_SOURCE)], check=True)
    return STUB_LIBRARY


def run(code: str, python: str, library: Path, source: Path) -> dict[str, float]:
    """The RESULT lines of `code` run in a fresh process against the stub driver, importing
    taipan from `source`."""
    environment = dict(os.environ, TAIPAN_CUDA_DRIVER=str(library), TAIPAN_CUDA_STUB="1")
    environment.pop("TAIPAN_ENABLE_CUDASIM", None)
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(source), environment.get("PYTHONPATH")])
    )
    # From an empty folder: a file in the current one must not shadow a module.
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [python, "-c", code],
            check=False,
            cwd=folder,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
    if done.returncode != 0:
        raise RuntimeError(f"benchmark process failed:\n{done.stdout}\n{done.stderr}")
    results = {}
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            _, name, value = line.split()
            results[name] = float(value)
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument(
        "--taipan-path",
        type=Path,
        default=ROOT / "src",
        help="the folder holding the taipan package (a frozen copy of another build)",
    )
    args = parser.parse_args(argv)
    library = build_stub()
    samples: dict[str, list[float]] = {}
    # Alternating the two scripts spreads the machine's load over both.
    for _ in range(args.processes):
        for code in (LAUNCH, UFUNC_FIRST_CALL):
            for name, value in run(code, args.python, library, args.taipan_path).items():
                samples.setdefault(name, []).append(value)
    print(f"taipan's host side of CUDA against the stub driver, {args.processes} processes")
    print(f"{'benchmark':52} {'median':>10} {'min':>10} {'max':>10}")
    for name, label, scale, unit in ROWS:
        values = samples[name]
        if unit == "ns":
            shown = [statistics.median(values), min(values), max(values)]
            cells = [f"{v:8.0f} {unit}" for v in shown]
        else:
            shown = [v / scale for v in (statistics.median(values), min(values), max(values))]
            cells = [f"{v:7.2f} {unit}" for v in shown]
        print(f"{label:52} {cells[0]:>10} {cells[1]:>10} {cells[2]:>10}")


if __name__ == "__main__":
    main()
