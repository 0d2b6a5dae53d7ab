"""Compile-time scaling with function size, taipan vs numba side by side.

Generates functions of N statements (default N = 25, 100, 400, 1600, 6400; arithmetic on a few
float/int locals, if/else, short ``for`` loops over ``range(3)``) into a ``.py`` file in a temp
dir.  For each size and library, a fresh process imports the library, compiles a tiny warm-up
function, then times (cpu) the first call (compile + run) of the generated function and (cuda)
compiling it as a CUDA device function to PTX for sm_90.  Each point is the best of --repeats
(3) such processes, every process's time in the note: one process's time moves by up to x1.5
on a loaded machine, and a fresh host's first process also reads the compiler's code from disk.  A crash, timeout or exception (numba
may hit RecursionError on big functions) is reported for that size instead of aborting the run;
Numba is skipped at larger sizes once it takes over 2 minutes.  Also printed: the growth factor
between consecutive sizes next to n*log(n)'s, and taipan's three largest compile stages
(get_metadata()["timers"]).  Target: taipan/numba <= 0.05 at every size.

The generated functions have no loops after lowering, so taipan compiles their first call as a
first tier at level 0 (tiered compilation, TAIPAN_TIER_UP_CALLS; the level-3 code replaces it
after 100,000 calls).  Run with TAIPAN_TIER_UP_CALLS=0 to time the level-3 compile instead.

Usage: python benchmarks/bench_compile_scaling.py [--sizes 25,100,400,1600,6400] [--modes cpu,cuda]

TAIPAN_BENCH_STANDIN=numba makes the "taipan" side import numba.  It exists ONLY to validate
this script before taipan is importable (ratios are then ~1).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import tempfile

# benchmarks/ is sys.path[0] when this file is run as a script.
from common import LIBS, Row, import_line, measure, print_table, run_snippet

TARGET_RATIO = 0.05
DEFAULT_SIZES = (25, 100, 400, 1600, 6400)
NUMBA_LIMIT_S = 120  # Numba runs only up to the size where it takes under 2 minutes
MODULE = "taipan_bench_generated"
FLOATS = ("f0", "f1", "f2", "f3")
INTS = ("k0", "k1", "k2")


def _float_stmt(rng: random.Random) -> str:
    t, u, v = rng.choice(FLOATS), rng.choice(FLOATS), rng.choice(FLOATS)
    kind = rng.randrange(4)
    if kind == 0:  # |c1| + |c2| <= 1 keeps values bounded however often this runs
        c1, c2 = rng.choice((0.5, -0.5, 0.25)), rng.choice((0.5, 0.25, -0.375))
        return f"{t} = {u} * {c1} + {v} * {c2} - {rng.choice((0.1, 1.5, 2.0))}"
    if kind == 1:
        return f"{t} = {u} / (abs({v}) + 1.0) + {rng.choice((0.5, 3.0))}"
    if kind == 2:
        return f"{t} = {u} * 0.5 + {rng.choice(INTS)} * 0.001"
    return f"{t} = max({u}, {v}) * 0.75 - min({u}, {v}) * 0.125"


def _int_stmt(rng: random.Random) -> str:
    t, u, v = rng.choice(INTS), rng.choice(INTS), rng.choice(INTS)
    if rng.random() < 0.5:
        return f"{t} = ({u} * {rng.randint(2, 9)} + {v} - {rng.randint(1, 5)}) % 1009"
    return f"{t} = {u} // {rng.randint(2, 5)} + {v} % {rng.randint(3, 7)}"


def _simple(rng: random.Random) -> str:
    return _float_stmt(rng) if rng.random() < 0.6 else _int_stmt(rng)


def generate_function(name: str, n: int, seed: int = 0) -> str:
    """Source of ``def name(a, x)`` whose body has exactly ``n`` statements (compound
    statement headers count as one; ``else:`` does not)."""
    rng = random.Random(seed * 100_003 + n)
    body = [
        "k0 = a % 1009",
        "k1 = (a + 1) % 1009",
        "k2 = 3",
        "f0 = x",
        "f1 = x * 0.5",
        "f2 = 1.0",
        "f3 = 2.0",
    ]
    count = len(body)
    while count < n:
        left = n - count
        roll = rng.random()
        if roll < 0.15 and left >= 3:  # if/else
            inner = rng.randint(2, min(4, left - 1))
            first = rng.randint(1, inner - 1)
            if rng.random() < 0.5:
                body.append(f"if {rng.choice(FLOATS)} < {rng.choice(FLOATS)}:")
            else:
                body.append(f"if {rng.choice(INTS)} % 2 == 0:")
            body += ["    " + _simple(rng) for _ in range(first)]
            body.append("else:")
            body += ["    " + _simple(rng) for _ in range(inner - first)]
            count += 1 + inner
        elif roll < 0.25 and left >= 2:  # short for loop
            inner = rng.randint(1, min(3, left - 1))
            body.append("for j in range(3):")
            body += ["    " + _simple(rng) for _ in range(inner - 1)]
            body.append(f"    {rng.choice(FLOATS)} = {rng.choice(FLOATS)} * 0.5 + j * 0.25")
            count += 1 + inner
        else:
            body.append(_simple(rng))
            count += 1
    body.append("return f0 + f1 + f2 + f3 + k0 + k1 + k2")
    return f"def {name}(a, x):\n" + "".join(f"    {line}\n" for line in body)


CPU_SNIPPET = """
import sys
import time
sys.path.insert(0, {tmpdir!r})
{import_line}
import {module} as gen


@{lib}.njit
def tiny(a, x):
    return a + x


tiny(1, 2.0)  # warm-up: library initialisation is not part of the measurement
f = {lib}.njit(gen.{func})
try:
    t0 = time.perf_counter_ns()
    value = f(3, 0.5)
    t1 = time.perf_counter_ns()
except BaseException as exc:
    report({{"error": type(exc).__name__ + ": " + str(exc)[:200]}})
else:
    stages = {{}}
    if "{lib}" == "taipan" and hasattr(f, "get_metadata"):
        stages = next(iter(f.get_metadata().values()))["timers"]
    report({{"ns": t1 - t0, "value": value, "expected": gen.{func}(3, 0.5), "stages": stages}})
"""

# A CUDA device function compiled to PTX for sm_90 (no GPU needed): the same generated code.
CUDA_SNIPPET = """
import sys
import time
sys.path.insert(0, {tmpdir!r})
{import_line}
import numpy as np
if not hasattr(np, "row_stack"):  # numba-cuda 0.30 still calls it; NumPy 2.5 removed it
    np.row_stack = np.vstack
from {lib} import cuda, float64, int64
import {module} as gen


def tiny(a, x):
    return a + x


cuda.compile_ptx(tiny, (int64, float64), device=True, cc=(9, 0))  # warm-up
try:
    t0 = time.perf_counter_ns()
    ptx, _ = cuda.compile_ptx(gen.{func}, (int64, float64), device=True, cc=(9, 0))
    t1 = time.perf_counter_ns()
except BaseException as exc:
    report({{"error": type(exc).__name__ + ": " + str(exc)[:200]}})
else:
    report({{"ns": t1 - t0, "value": 0.0, "expected": 0.0, "stages": {{}}}})
"""

MODES = {"cpu": ("first call", CPU_SNIPPET), "cuda": ("CUDA device function to PTX", CUDA_SNIPPET)}


def _growth(times: list, i: int) -> str:
    if i == 0:
        return ""
    a, b = times[i - 1], times[i]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0:
        return f"x{b / a:.2f}"
    return "?"


def _stage_summary(stages: dict) -> str:
    """The three largest stages of a taipan compilation, in ms."""
    largest = sorted(stages.items(), key=lambda item: -item[1])[:3]
    return ", ".join(f"{name} {seconds * 1e3:.0f} ms" for name, seconds in largest)


def main(argv=None) -> list[Row]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--sizes",
        default=",".join(map(str, DEFAULT_SIZES)),
        help="comma-separated statement counts (default %(default)s)",
    )
    ap.add_argument("--timeout", type=float, default=600, help="per-process timeout in s")
    ap.add_argument(
        "--numba-limit",
        type=float,
        default=NUMBA_LIMIT_S,
        help="skip Numba at larger sizes once it takes longer than this (s)",
    )
    ap.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="fresh processes per point, best of (default %(default)s)",
    )
    ap.add_argument("--modes", default="cpu,cuda", help="cpu, cuda or both (default %(default)s)")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    rows = []
    with tempfile.TemporaryDirectory(prefix="taipan-scaling-") as tmpdir:
        with open(os.path.join(tmpdir, f"{MODULE}.py"), "w") as f:
            f.write("".join(generate_function(f"big_{n}", n) + "\n\n" for n in sizes))
        for mode in args.modes.split(","):
            label, snippet = MODES[mode]
            rows += _scale(label, snippet, sizes, tmpdir, args)
    print_table("compile-time scaling (a generated function, fresh process)", rows)
    return rows


def _scale(label, snippet, sizes, tmpdir, args) -> list[Row]:
    """One row per size for one mode: taipan and Numba, growth factors and taipan's stages."""
    times = {lib: [] for lib in LIBS}
    notes = []
    numba_gave_up = False
    for n in sizes:
        values, note = {}, []
        for lib in LIBS:
            if lib == "numba" and numba_gave_up:
                times[lib].append("skipped (failed or over the limit at a smaller size)")
                continue
            code = snippet.format(
                tmpdir=tmpdir, import_line=import_line(lib), module=MODULE, lib=lib, func=f"big_{n}"
            )
            timeout = args.numba_limit if lib == "numba" else args.timeout

            def one(code=code, lib=lib, timeout=timeout, values=values, note=note):
                result = fresh_best_result(code, args.repeats, timeout)
                values[lib] = (result["value"], result["expected"])
                if len(result["all_ns"]) > 1:  # the spread the best was taken from
                    runs = "/".join(f"{ns / 1e6:.1f}" for ns in result["all_ns"])
                    note.append(f"{lib} runs {runs} ms")
                if result["stages"]:
                    note.append("taipan: " + _stage_summary(result["stages"]))
                return result["ns"]

            times[lib].append(measure(one))
            if lib == "numba" and not isinstance(times[lib][-1], (int, float)):
                numba_gave_up = True
        for lib, (got, expected) in values.items():
            if not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-9):
                note.append(f"{lib} returned {got!r}, CPython {expected!r}")
        notes.append(note)

    rows = []
    for i, n in enumerate(sizes):
        note = list(notes[i])
        if i > 0:
            nlogn = (n * math.log(n)) / (sizes[i - 1] * math.log(sizes[i - 1]))
            note.insert(
                0,
                f"growth: taipan {_growth(times['taipan'], i)}, "
                f"numba {_growth(times['numba'], i)}, n*log(n) x{nlogn:.2f}",
            )
        rows.append(
            Row(
                f"{label}, {n} statements",
                times["taipan"][i],
                times["numba"][i],
                TARGET_RATIO,
                note="; ".join(note),
            )
        )
    return rows


def fresh_best_result(code: str, repeats: int, timeout: float) -> dict:
    """Best of ``repeats`` fresh processes of a snippet that reports a dict with ``ns``; its
    ``all_ns`` holds every process's time."""
    results = [run_snippet(code, timeout=timeout) for _ in range(max(repeats, 1))]
    best = dict(min(results, key=lambda r: r["ns"]))
    best["all_ns"] = [r["ns"] for r in results]
    return best


if __name__ == "__main__":
    main()
