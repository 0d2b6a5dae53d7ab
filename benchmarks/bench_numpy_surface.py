"""NumPy functions of Numba's "Supported NumPy features" page that taipan gained for issue 31,
taipan vs numba side by side.

* first call: one function that calls five of them (``np.partition``, ``np.cov``,
  ``np.roll``, ``np.unique``, ``np.interp``), in a fresh process right after importing the
  library, best of ``--repeats`` processes (target: at most 0.1x Numba's);
* warm call: each function on 10**6 elements in its own compiled function, best of 5 rounds of
  an auto-ranged number of calls after a warm-up call; every function is measured in one
  process per library, the median of ``--repeats`` such processes, the libraries taking turns
  (target: at most 1.0x Numba's). Both
  libraries' results are compared (a checksum); a mismatch shows as ERR.

    python benchmarks/bench_numpy_surface.py [--repeats 3] [--only partition cov]
"""

from __future__ import annotations

import argparse
import statistics
import textwrap

from common import BenchError, Row, alternating_runs, print_results, run_snippet

FIRST_TARGET = 0.1
WARM_TARGET = 1.0

# name: (setup on 10**6 elements, the call on the arguments a, b, ...)
CASES = {
    "partition": ("a = rng.random(10**6)", "np.partition(a, 500_000)"),
    "cov": ("a = rng.random((4, 250_000))", "np.cov(a)"),
    "corrcoef": ("a = rng.random((4, 250_000))", "np.corrcoef(a)"),
    "roll": ("a = rng.random(10**6)", "np.roll(a, 12345)"),
    "unique": ("a = rng.integers(0, 1000, 10**6)", "np.unique(a)"),
    "interp": (
        "a = rng.random(10**6)\nb = np.linspace(0, 1, 1000)\nc = np.sin(b)",
        "np.interp(a, b, c)",
    ),
    "digitize": ("a = rng.random(10**6)\nb = np.linspace(0, 1, 100)", "np.digitize(a, b)"),
    "bincount": ("a = rng.integers(0, 1000, 10**6)", "np.bincount(a)"),
    "histogram": ("a = rng.random(10**6)", "np.histogram(a, 50)[0]"),
    "convolve": ("a = rng.random(10**6)\nb = rng.random(11)", "np.convolve(a, b)"),
    "cross": ("a = rng.random((333_333, 3))\nb = rng.random((333_333, 3))", "np.cross(a, b)"),
    "nan_to_num": ("a = rng.random(10**6)\na[::7] = np.nan", "np.nan_to_num(a)"),
    "diff": ("a = rng.random(10**6)", "np.diff(a)"),
    "searchsorted": (
        "a = np.sort(rng.random(10**5))\nb = rng.random(10**6)",
        "np.searchsorted(a, b)",
    ),
    "isin": ("a = rng.integers(0, 10**4, 10**6)\nb = np.arange(0, 10**4, 3)", "np.isin(a, b)"),
    "round": ("a = rng.random(10**6) * 100", "np.round(a, 2)"),
}

WARM = """
import numpy as np
import {lib}
rng = np.random.default_rng(0)
results = {{}}
{cases}
report(results)
"""

# One case inside WARM: its data, its compiled function, a warm-up call, then the timing.
WARM_CASE = """
def case_{name}():
{setup}

    @{lib}.njit
    def run({names}):
        return {call}

    args = ({names},)
    result = run(*args)
    warm = warm_seconds(lambda: run(*args))
    values = np.asarray(result, dtype=np.float64).ravel()
    results[{name!r}] = {{"warm": warm, "check": [values.size, float(np.nansum(values))]}}


case_{name}()
"""


FIRST = """
import time
import numpy as np
import {lib}

@{lib}.njit
def five(a, b, c):
    p = np.partition(a, 3)
    v = np.cov(np.vstack((a, b)))
    r = np.roll(a, 2)
    u = np.unique(np.round(a * 10))
    i = np.interp(c, np.sort(a), b)
    return p[3] + v[0, 1] + r[0] + u.size + i.sum()

rng = np.random.default_rng(0)
a, b, c = rng.random(50), rng.random(50), rng.random(10)
start = time.perf_counter()
value = five(a, b, c)
report({{"first": time.perf_counter() - start, "value": float(value)}})
"""


def same(ours, theirs):
    return ours[0] == theirs[0] and abs(ours[1] - theirs[1]) <= 1e-9 * max(1.0, abs(theirs[1]))


def measure_first(repeats):
    results = {}
    for lib in ("taipan", "numba"):
        try:
            runs = [run_snippet(FIRST.format(lib=lib)) for _ in range(repeats)]
        except BenchError as exc:
            results[lib] = str(exc)
            continue
        results[lib] = (min(run["first"] for run in runs) * 1e9, runs[0]["value"])
    ours, theirs = results["taipan"], results["numba"]
    if (
        isinstance(ours, tuple)
        and isinstance(theirs, tuple)
        and abs(ours[1] - theirs[1]) > 1e-9 * max(1.0, abs(theirs[1]))
    ):
        ours = f"result differs from Numba's: {ours[1]} vs {theirs[1]}"
    values = [value if isinstance(value, str) else value[0] for value in (ours, theirs)]
    return Row("partition+cov+roll+unique+interp", values[0], values[1], FIRST_TARGET)


def argument_names(setup):
    """The arguments a case's function takes: the arrays its setup makes (a, b, c)."""
    return ", ".join(sorted({line.split(" =")[0] for line in setup.splitlines()} & set("abc")))


def warm_snippet(lib, names):
    cases = []
    for name in names:
        setup, call = CASES[name]
        cases.append(
            WARM_CASE.format(
                lib=lib,
                name=name,
                setup=textwrap.indent(setup, "    "),
                call=call,
                names=argument_names(setup),
            )
        )
    return WARM.format(lib=lib, cases="".join(cases))


def measure_warm(names, repeats):
    """Every case in one process per library and repeat (the libraries taking turns); a row
    per case with the median of the repeats."""
    runs = alternating_runs(lambda lib: run_snippet(warm_snippet(lib, names)), repeats)
    rows = []
    for name in names:
        results = {
            lib: lib_runs.splitlines()[-1][:120]
            if isinstance(lib_runs, str)
            else {
                "warm": statistics.median([r[name]["warm"] for r in lib_runs]),
                "check": lib_runs[0][name]["check"],
            }
            for lib, lib_runs in runs.items()
        }
        ours, theirs = results["taipan"], results["numba"]
        if (
            isinstance(ours, dict)
            and isinstance(theirs, dict)
            and not same(ours["check"], theirs["check"])
        ):
            ours = f"result differs from Numba's: {ours['check']} vs {theirs['check']}"
        values = [v if isinstance(v, str) else v["warm"] * 1e9 for v in (ours, theirs)]
        rows.append(
            Row(f"np.{name} 10**6", values[0], values[1], WARM_TARGET, note=f"median of {repeats}")
        )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes per library")
    parser.add_argument("--only", nargs="+", default=None, help="functions (e.g. partition)")
    options = parser.parse_args()
    names = [name for name in CASES if options.only is None or name in options.only]
    print_results("first call in a fresh process", [measure_first(options.repeats)])
    print_results("warm call", measure_warm(names, options.repeats))


if __name__ == "__main__":
    main()
