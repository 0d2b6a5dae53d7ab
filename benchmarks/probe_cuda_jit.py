"""How long the CUDA driver takes to turn PTX into machine code, which bounds a CUDA ufunc's
first call when the driver's JIT cache is cold (a probe for docs/performance.md, GPU host).

In a fresh process with ``CUDA_CACHE_DISABLE=1``: the first ``cuModuleLoadDataEx`` of a CUDA
ufunc's add kernel (as taipan emits it), the next loads of the same kernel under new names, an
empty kernel, the add kernel at each ``CU_JIT_OPTIMIZATION_LEVEL``, and (``--warm-up``) the
first load after an empty kernel was loaded on another thread. Run it a few times: each run is
one process.

Usage: python benchmarks/probe_cuda_jit.py [--warm-up]
"""

import ctypes
import os
import sys
import threading
import time

os.environ["CUDA_CACHE_DISABLE"] = "1"

from taipan import cuda, float32, void

JIT_OPTIMIZATION_LEVEL = 7  # CUjit_option


def add(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def main():
    ptx, _ = cuda.compile_ptx(add, void(float32[:], float32[:], float32[:]), cc=(9, 0))
    header = [line for line in ptx.splitlines() if line.startswith((".version", ".target"))]
    empty = "\n".join(header + [".address_size 64", ".visible .entry empty_kernel() { ret; }"])
    driver = ctypes.CDLL("libcuda.so.1")
    assert driver.cuInit(0) == 0
    device, context = ctypes.c_int(), ctypes.c_void_p()
    driver.cuDeviceGet(ctypes.byref(device), 0)
    assert driver.cuDevicePrimaryCtxRetain(ctypes.byref(context), device) == 0
    driver.cuCtxSetCurrent(context)
    loads = [0]

    def load_ms(text, level=None):
        # A new name each time, so that no cache of any kind can serve the load.
        loads[0] += 1
        data = text.replace("taipan", f"taipan{loads[0]}").replace("empty_kernel", f"e{loads[0]}")
        options = (ctypes.c_int * 1)(JIT_OPTIMIZATION_LEVEL) if level is not None else None
        values = (ctypes.c_void_p * 1)(level) if level is not None else None
        module = ctypes.c_void_p()
        start = time.perf_counter()
        status = driver.cuModuleLoadDataEx(
            ctypes.byref(module), data.encode() + b"\0", 0 if level is None else 1, options, values
        )
        elapsed = (time.perf_counter() - start) * 1e3
        assert status == 0, status
        driver.cuModuleUnload(module)
        return elapsed

    if "--warm-up" in sys.argv:

        def warm_up():
            driver.cuCtxSetCurrent(context)
            print(f"empty kernel on another thread: {load_ms(empty):.1f} ms")

        thread = threading.Thread(target=warm_up)
        thread.start()
        thread.join()
    print(f"add kernel ({len(ptx)} bytes of PTX), first load: {load_ms(ptx):.1f} ms")
    print("next loads:", ", ".join(f"{load_ms(ptx):.1f}" for _ in range(3)), "ms")
    print("empty kernel:", ", ".join(f"{load_ms(empty):.1f}" for _ in range(3)), "ms")
    for level in range(5):
        times = ", ".join(f"{load_ms(ptx, level):.1f}" for _ in range(3))
        print(f"add kernel at optimisation level {level}: {times} ms")


if __name__ == "__main__":
    main()
