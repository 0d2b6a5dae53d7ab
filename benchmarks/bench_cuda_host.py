"""CUDA host-API benchmarks on the GPU host: transfers against CuPy, passing CuPy arrays and
torch tensors to kernels against taipan's own arrays, and device-array creation against
numba-cuda. Every figure comes from a fresh process.

    python benchmarks/bench_cuda_host.py
"""

from __future__ import annotations

import sys

from bench_cuda import PRELUDE
from common import Row, measure, print_results, run_snippet

BEST_OF = """
import time
def best_of(action, repeats, number=1):
    best = None
    for _ in range(repeats):
        t = time.perf_counter_ns()
        for _ in range(number):
            action()
        sync()
        ns = (time.perf_counter_ns() - t) / number
        best = ns if best is None else min(best, ns)
    return best
"""

BYTES = 512 * 2**20

TRANSFER = {
    "taipan": """
import numpy as np
from taipan import cuda
sync = cuda.synchronize
n = NBYTES // 4
host = cuda.pinned_array(n, np.float32) if PINNED else np.empty(n, np.float32)
host[:] = 1
out = cuda.pinned_array(n, np.float32) if PINNED else None
device = cuda.to_device(host)
if DIRECTION == "to device":
    report(best_of(lambda: cuda.to_device(host), 5))
else:
    report(best_of(lambda: device.copy_to_host(out), 5))
""",
    "cupy": """
import numpy as np
import cupy as cp
sync = cp.cuda.Device().synchronize
n = NBYTES // 4
def pinned():
    memory = cp.cuda.alloc_pinned_memory(NBYTES)
    return np.frombuffer(memory, np.float32, n)
host = pinned() if PINNED else np.empty(n, np.float32)
host[:] = 1
out = pinned() if PINNED else None
device = cp.asarray(host)
if DIRECTION == "to device":
    report(best_of(lambda: cp.asarray(host), 5))
else:
    report(best_of(lambda: device.get(out=out), 5))
""",
}

KERNEL = """
@cuda.jit
def touch(a):
    if cuda.grid(1) == 0:
        a[0] = 1.0
"""

ARGUMENT = {
    "cupy": "import cupy as cp\na = cp.zeros(16, cp.float32)\n",
    "torch": "import torch\na = torch.zeros(16, dtype=torch.float32, device='cuda')\n",
}

# The foreign argument and the library's own device array are timed in one process, in
# alternating rounds: launch overhead moves by 10% between processes, more than the difference
# measured here.
LAUNCH = """
sync = cuda.synchronize
own = cuda.device_array(16, np.float32)
touch[1, 32](a)
touch[1, 32](own)
foreign = mine = None
for _ in range(5):
    f = best_of(lambda: touch[1, 32](a), 1, 2000)
    o = best_of(lambda: touch[1, 32](own), 1, 2000)
    foreign = f if foreign is None else min(foreign, f)
    mine = o if mine is None else min(mine, o)
report([foreign, mine])
"""

INTERFACE_READ = """
sync = lambda: None
report(best_of(lambda: a.__cuda_array_interface__, 5, 2000))
"""

CREATE = """
sync = cuda.synchronize
cuda.device_array(256, np.float32)
report(best_of(lambda: cuda.device_array(256, np.float32), 5, 5000))
"""


def transfer(lib, direction, pinned):
    code = BEST_OF + TRANSFER[lib].replace("NBYTES", str(BYTES)).replace(
        "PINNED", str(pinned)
    ).replace("DIRECTION", repr(direction))
    return run_snippet(code, timeout=300)


def launch(lib, argument):
    return run_snippet(PRELUDE[lib] + BEST_OF + KERNEL + ARGUMENT[argument] + LAUNCH)


def gigabytes_per_second(ns):
    return f"{BYTES / ns:.1f} GB/s" if isinstance(ns, (int, float)) else ns


def main():
    rows = []
    for pinned in (False, True):
        for direction in ("to device", "to host"):
            mine = measure(lambda d=direction, p=pinned: transfer("taipan", d, p))
            cupy = measure(lambda d=direction, p=pinned: transfer("cupy", d, p))
            memory = "pinned" if pinned else "pageable"
            rows.append(
                Row(
                    f"512 MB {direction}, {memory} (reference: CuPy)",
                    mine,
                    cupy,
                    target=1 / 0.95,
                    note=f"taipan {gigabytes_per_second(mine)}, CuPy {gigabytes_per_second(cupy)}",
                )
            )
    for argument in ("cupy", "torch"):
        mine = measure(lambda a=argument: launch("taipan", a))
        numba = measure(lambda a=argument: launch("numba", a))
        read = measure(
            lambda a=argument: run_snippet(
                PRELUDE["taipan"] + BEST_OF + ARGUMENT[a] + INTERFACE_READ
            )
        )
        numba_ratio = (
            f"numba-cuda {numba[0] / numba[1]:.2f}x its own arrays"
            if isinstance(numba, list)
            else f"numba-cuda: {numba}"
        )
        rows.append(
            Row(
                f"launch with a {argument} array (reference: taipan device array, same process)",
                mine[0] if isinstance(mine, list) else mine,
                mine[1] if isinstance(mine, list) else mine,
                target=1.3,
                note=f"{numba_ratio}; reading its interface alone: "
                + (f"{read / 1000:.2f} us" if isinstance(read, (int, float)) else read),
            )
        )
    rows.append(
        Row(
            "device_array of 1 KB (reference: numba-cuda)",
            measure(lambda: run_snippet(PRELUDE["taipan"] + BEST_OF + CREATE)),
            measure(lambda: run_snippet(PRELUDE["numba"] + BEST_OF + CREATE)),
            target=0.5,
        )
    )
    print_results("CUDA host API (ratio = taipan/reference; lower is better)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
