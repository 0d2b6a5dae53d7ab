"""typed.List benchmarks, taipan vs numba side by side (issue 13: "beyond Numba").

Measures, for each library, each in a fresh subprocess (best of several repeats, after a warm-up
that compiles what needs compiling):
  * ``typed.List(python_list)`` of 10**6 ints (target: taipan at least 10x faster than numba);
  * 10**5 ``append`` calls from Python onto a typed List, beside a Python list's append (target:
    within 3x of the Python list);
  * a compiled loop summing a list of 1000 arrays of 100 float64, given a typed List and given a
    reflected (Python) list of the same arrays (target: the typed list as fast as the reflected);
Every result is checked against plain Python before it is timed.

Usage: python benchmarks/bench_typed_list.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

PROGRAM = r"""
import json, time
import numpy as np
import {lib}
from {lib}.typed import List

REPEATS = {repeats}

def best(action, repeats=REPEATS):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)

results = {{}}
items = list(range(10**6))
assert list(List(items[:10])) == items[:10]
List(items[:10])  # warm-up: numba compiles here
results["construct_1e6"] = best(lambda: List(items))

def append_typed():
    tl = List()
    append = tl.append
    for i in range(10**5):
        append(i)
    return tl

def append_python():
    pl = []
    append = pl.append
    for i in range(10**5):
        append(i)
    return pl

assert list(append_typed()) == append_python()
results["append_1e5"] = best(append_typed)
results["python_append_1e5"] = best(append_python)

@{lib}.njit
def sum_arrays(arrays):
    s = 0.0
    for a in arrays:
        for v in a:
            s += v
    return s

rng = np.random.default_rng(0)
arrays = [rng.random(100) for _ in range(1000)]
typed_arrays = List(arrays)
expected = sum(float(a.sum()) for a in arrays)
assert abs(sum_arrays(typed_arrays) - expected) < 1e-6
results["typed_arrays_loop"] = best(lambda: sum_arrays(typed_arrays))
import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # numba's reflected-list deprecation warning
    assert abs(sum_arrays(arrays) - expected) < 1e-6
    results["reflected_arrays_loop"] = best(lambda: sum_arrays(arrays))
print(json.dumps(results))
"""


def run(lib: str, repeats: int) -> dict:
    output = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(lib=lib, repeats=repeats)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    taipan = run("taipan", arguments.repeats)
    numba = run("numba", arguments.repeats)
    print(f"{'measure':<28}{'taipan':>12}{'numba':>12}{'numba/taipan':>14}")
    for key in taipan:
        ratio = numba[key] / taipan[key]
        print(f"{key:<28}{taipan[key] * 1e3:>10.2f}ms{numba[key] * 1e3:>10.2f}ms{ratio:>13.1f}x")
    print()
    print(
        "construction: numba/taipan = "
        f"{numba['construct_1e6'] / taipan['construct_1e6']:.1f}x (target >= 10x)"
    )
    print(
        "append: taipan typed.List / Python list = "
        f"{taipan['append_1e5'] / taipan['python_append_1e5']:.2f}x (target <= 3x)"
    )
    print(
        "list of arrays in compiled code: typed / reflected = "
        f"{taipan['typed_arrays_loop'] / taipan['reflected_arrays_loop']:.2f}x (target <= 1x); "
        f"taipan typed / numba typed = "
        f"{taipan['typed_arrays_loop'] / numba['typed_arrays_loop']:.2f}x"
    )


if __name__ == "__main__":
    main()
