"""Where one compilation of a ``bench_compile_scaling.py`` function goes, stage by stage, with
the front end split into CPython's parse and verifying compile and taipan's reader (a probe for
docs/performance.md; no GPU needed).

In a fresh process: writes the generated function of N statements to a file of its own, warms up
with a small function that also resolves builtins (so the overload registry is imported), then
times (cpu) the first call or (cuda) reading the function and compiling it as a CUDA device
function to PTX for sm_90, and prints the total, the compiler's stage times and the front end's
parts. Run it a few times: each run is one process.

Usage: python benchmarks/probe_compile_stages.py N cpu|cuda
"""

import importlib
import os
import sys
import tempfile
import time

# benchmarks/ is sys.path[0] when this file is run as a script.
from bench_compile_scaling import generate_function

import taipan
from taipan import _core, cuda, float64, frontend, int64

FRONT_END_PARTS = {}


def timed(name, function):
    """``function``, adding the seconds each call takes to FRONT_END_PARTS[name]."""

    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            FRONT_END_PARTS[name] = FRONT_END_PARTS.get(name, 0) + time.perf_counter() - start

    return wrapper


def main():
    n, mode = int(sys.argv[1]), sys.argv[2]
    directory = tempfile.mkdtemp(prefix="taipan-stages-")
    with open(os.path.join(directory, f"generated_{n}.py"), "w") as f:
        f.write(generate_function("g", n))
    sys.path.insert(0, directory)
    frontend._verified_source = timed("verified source", frontend._verified_source)
    frontend._compile_tree = timed("python compile", frontend._compile_tree)
    frontend._parse_at = timed("ast.parse", frontend._parse_at)
    _core.read_function = timed("taipan reader", _core.read_function)
    module = importlib.import_module(f"generated_{n}")

    @taipan.njit
    def tiny(a, x):
        return abs(a) + max(x, 1.0)

    tiny(1, 2.0)
    cuda.compile_ptx(tiny.py_func, (int64, float64), device=True, cc=(9, 0))
    FRONT_END_PARTS.clear()
    if mode == "cpu":
        function = taipan.njit(module.g)
        start = time.perf_counter()
        function(3, 0.5)
        end = time.perf_counter()
        stages = list(next(iter(function.get_metadata().values()))["timers"].items())
    else:
        from taipan.cuda.compiler import compile_source

        options = {"debug": False, "lineinfo": False, "fastmath": False, "opt": True}
        start = time.perf_counter()
        source = frontend.read_function(module.g, options)
        read = time.perf_counter()
        result = compile_source(source, (int64, float64), 90, device=True)
        end = time.perf_counter()
        stages = [("front end", read - start)] + list(result[-2])
    print(
        f"{mode} {n}: total {1e3 * (end - start):.1f} ms |",
        " ".join(f"{name.replace('optimization: ', 'o:')}={s * 1e3:.1f}" for name, s in stages),
        "|",
        " ".join(f"{name}={s * 1e3:.1f}" for name, s in FRONT_END_PARTS.items()),
    )


if __name__ == "__main__":
    main()
