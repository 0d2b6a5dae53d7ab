"""Real Numba libraries on taipan: the main functions of numbagg, numba-stats, resampy,
quantecon, dcor and antropy, each imported unchanged, with Numba and with taipan standing in
for ``numba`` through the shim of ``tools/numba_compat`` (``NUMBA_SHIM_MODE=taipan``), side by
side in one run.

Per function and library, in ``--repeats`` fresh processes, the two libraries taking turns: the
first call, timed with the import of the library (numba-stats compiles its signatures when it
is imported, numbagg when called; both libraries' disk caches point at an empty folder), best
of the processes; and the warm call, each process's best of 5 rounds of an auto-ranged number
of calls, the median of the processes (one process's warm time moves by tens of percent on a
busy machine). Before the clock starts, each process has imported ``numpy``, ``numba`` and the
library's dependencies: the modules of other packages that importing the library loads under
both compilers (found by one probe per side for each package's import lines; for antropy that
is about a second of scikit-learn and SciPy, the same on both sides), so the first call times
the compilers. Every package's modules have their bytecode, as after a pip install. The two
libraries' results are compared (a checksum of the returned arrays); a mismatch shows as ERR.
Each function's rows are printed (and flushed) as soon as they are measured, so a run cut off
by a timeout keeps them; the two tables follow at the end.

    python benchmarks/bench_libraries.py                 # every function (several minutes)
    python benchmarks/bench_libraries.py --only numbagg  # the functions of one package
    python benchmarks/bench_libraries.py --rows norm.cdf kaiser_best  # rows by name
    python benchmarks/bench_libraries.py --repeats 5     # five processes per side and function
    python benchmarks/bench_libraries.py --taipan-path /tmp/other  # another build's taipan

The packages are the versions that ``tools/numba_compat/libraries.py`` pins, installed (without
their dependencies) under ``build/numba_libraries/site`` by that runner's store; this script
installs them there too when they are missing.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from common import BenchError, Row, alternating_runs, print_results, row_line, run_snippet

REPO = Path(__file__).resolve().parent.parent
TOOLS = REPO / "tools" / "numba_compat"
SHIM_ROOT = TOOLS / "shim"  # holds the shim's ``numba`` package

FIRST_TARGET = 0.2
WARM_TARGET = 1.0


@dataclass(frozen=True)
class Case:
    package: str  # a key of libraries.PACKAGES
    name: str
    setup: str  # imports (timed with the first call: a library may compile when imported), data
    call: str  # one expression, the function's call


CASES = [
    Case(
        "numbagg",
        "numbagg move_mean 10**6, window 20",
        "import numbagg\nx = rng.standard_normal(10**6)",
        "numbagg.move_mean(x, window=20)",
    ),
    Case(
        "numbagg",
        "numbagg move_std 1000x1000, window 20",
        "import numbagg\nx = rng.standard_normal((1000, 1000))",
        "numbagg.move_std(x, window=20)",
    ),
    Case(
        "numbagg",
        "numbagg move_exp_nanmean 10**6, alpha 0.1",
        "import numbagg\nx = rng.standard_normal(10**6)\nx[::7] = np.nan",
        "numbagg.move_exp_nanmean(x, alpha=0.1)",
    ),
    Case(
        "numbagg",
        "numbagg group_nansum 10**6, 1000 groups",
        "import numbagg\nx = rng.standard_normal(10**6)\nx[::7] = np.nan\n"
        "labels = rng.integers(0, 1000, 10**6)",
        "numbagg.group_nansum(x, labels)",
    ),
    Case(
        "numbagg",
        "numbagg group_nanmean 10**6, 1000 groups",
        "import numbagg\nx = rng.standard_normal(10**6)\nx[::7] = np.nan\n"
        "labels = rng.integers(0, 1000, 10**6)",
        "numbagg.group_nanmean(x, labels)",
    ),
    Case(
        "numba-stats",
        "numba-stats norm.pdf 10**6",
        "from numba_stats import norm\nx = rng.standard_normal(10**6)",
        "norm.pdf(x, 0.5, 1.5)",
    ),
    Case(
        "numba-stats",
        "numba-stats norm.cdf 10**6",
        "from numba_stats import norm\nx = rng.standard_normal(10**6)",
        "norm.cdf(x, 0.5, 1.5)",
    ),
    Case(
        "numba-stats",
        "numba-stats expon.pdf 10**6",
        "from numba_stats import expon\nx = rng.exponential(size=10**6)",
        "expon.pdf(x, 0.0, 2.0)",
    ),
    Case(
        "numba-stats",
        "numba-stats t.pdf 10**6",
        "from numba_stats import t\nx = rng.standard_normal(10**6)",
        "t.pdf(x, 5.0, 0.0, 1.0)",
    ),
    Case(
        "resampy",
        "resampy kaiser_best 44.1->22.05 kHz, 10 s",
        "import resampy\nx = rng.standard_normal(441000)",
        "resampy.resample(x, 44100, 22050, filter='kaiser_best')",
    ),
    Case(
        "resampy",
        "resampy kaiser_fast 44.1->16 kHz, 10 s",
        "import resampy\nx = rng.standard_normal(441000)",
        "resampy.resample(x, 44100, 16000, filter='kaiser_fast')",
    ),
    Case(
        "quantecon",
        "quantecon gth_solve 200x200",
        "from quantecon.markov import gth_solve\nP = rng.random((200, 200))\n"
        "P /= P.sum(axis=1, keepdims=True)",
        "gth_solve(P)",
    ),
    Case(
        "quantecon",
        "quantecon MarkovChain.simulate 10**6 steps",
        "from quantecon.markov import MarkovChain\nP = rng.random((50, 50))\n"
        "P /= P.sum(axis=1, keepdims=True)\nmc = MarkovChain(P)",
        "mc.simulate(ts_length=10**6, init=0, random_state=1234)",
    ),
    Case(
        "quantecon",
        "quantecon optimize.newton cos(x) - x",
        "from numba import njit\nfrom quantecon.optimize import newton\n"
        "f = njit(lambda x: np.cos(x) - x)\nfp = njit(lambda x: -np.sin(x) - 1.0)",
        "newton(f, 1.0, fp).root",
    ),
    Case(
        "quantecon",
        "quantecon optimize.brentq x**3 - 2x - 5",
        "from numba import njit\nfrom quantecon.optimize import brentq\n"
        "f = njit(lambda x: x**3 - 2.0 * x - 5.0)",
        "brentq(f, 2.0, 3.0).root",
    ),
    Case(
        "dcor",
        "dcor distance_correlation mergesort 10**5",
        "import dcor\nx = rng.standard_normal(10**5)\ny = x + rng.standard_normal(10**5)",
        "dcor.distance_correlation(x, y, method='mergesort')",
    ),
    # 4,000 samples: antropy runs its compiled _numba_sampen below 5,000 and scikit-learn's
    # KDTree (no compiled code at all) from 5,000 on, where this row used to sit.
    Case(
        "antropy",
        "antropy sample_entropy 4000",
        "import antropy\nx = rng.standard_normal(4000)",
        "antropy.sample_entropy(x)",
    ),
    Case(
        "antropy",
        "antropy higuchi_fd 10**5",
        "import antropy\nx = rng.standard_normal(10**5)",
        "antropy.higuchi_fd(x)",
    ),
]

SNIPPET = """
import os, sys, time
import numpy as np
import numba
if {shim!r} and not numba.__file__.startswith({shim_root!r}):
    raise SystemExit("the shim is not the numba imported: " + numba.__file__)
rng = np.random.default_rng(0)
for _module in {dependencies!r}:  # the library's own imports of other packages, untimed
    try:
        __import__(_module)
    except Exception:
        pass

def call():
    return {call}

try:
    start = time.perf_counter()
{imports}
    imported = time.perf_counter() - start
{data}
    start = time.perf_counter()
    result = call()
    first = imported + time.perf_counter() - start
except Exception as error:
    report({{"error": type(error).__name__ + ": " + (str(error).splitlines() or [""])[0]}})
    raise SystemExit(1)

warm = warm_seconds(call)
values = np.asarray(result, dtype=np.float64).ravel()
finite = values[np.isfinite(values)]
report({{"first": first, "warm": warm, "check": [values.size, int(finite.size),
        float(finite.sum()), float(np.abs(finite).sum())]}})
"""


def package_paths(names):
    """Installs (once) and returns each package's folders, with the test-only requirements'
    folder (antropy needs scikit-learn, dcor array-api-compat), through the runner's store. On
    a machine without a package registry, a package that is not in the store maps to the
    reason instead (its rows say so), and requirements that cannot be installed are left out
    (a package that imports one fails with Python's own ImportError in its rows)."""
    import subprocess

    sys.path.insert(0, str(TOOLS))
    import libraries  # tools/numba_compat/libraries.py

    store = libraries.Store(REPO / "build" / "numba_libraries")
    paths = {}
    for name in names:
        package = libraries.PACKAGES[name]
        try:
            paths[name] = [store.installed(name, package)]
        except (subprocess.CalledProcessError, OSError) as exc:
            paths[name] = f"not installed here ({type(exc).__name__})"
            continue
        try:
            if package.requires:
                paths[name].append(store.test_requirements(name, package.requires))
        except (subprocess.CalledProcessError, OSError):
            print(f"{name}: test requirements not installed", file=sys.stderr, flush=True)
        # Bytecode, as a pip install writes it (the store installs with --no-compile): without
        # it both sides would compile the library's modules from source in every process
        # where PYTHONDONTWRITEBYTECODE is set, a cost no installed library has.
        for folder in paths[name]:
            compileall.compile_dir(str(folder), quiet=1)
    return paths


def environment(lib, paths, cache_dir, taipan_path):
    env = dict(os.environ)
    front = [SHIM_ROOT] if lib == "taipan" else []
    taipan_src = [taipan_path] if lib == "taipan" and taipan_path else []
    env["PYTHONPATH"] = os.pathsep.join(str(path) for path in front + paths + taipan_src)
    env.pop("NUMBA_SHIM_MODE", None)
    if lib == "taipan":
        env["NUMBA_SHIM_MODE"] = "taipan"
    # Nothing from an earlier run's disk cache: each process compiles what it calls.
    env["NUMBA_CACHE_DIR"] = env["TAIPAN_CACHE_DIR"] = cache_dir
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


DEPENDENCIES_SNIPPET = """
import sys
import numpy, numba
before = set(sys.modules)
{imports}
report(sorted(name for name in set(sys.modules) - before
              if name.split(".")[0] not in {excluded!r}))
"""


def split_setup(case):
    """(the import lines, the other lines) of a case's setup."""
    lines = case.setup.splitlines()
    imports = [line for line in lines if line.startswith(("import ", "from "))]
    return imports, [line for line in lines if line not in imports]


def dependencies(package, imports, paths, taipan_path):
    """The modules of other packages that a package's `imports` (a case's import lines) load
    on both sides: imported before the clock starts, as numpy and numba are, so that the
    first-call row times the compilers and not (for antropy) a second of scikit-learn's
    import, the same on both sides. Modules that only one side loads (a compiler's own lazy
    imports) stay timed."""
    own = {line.split()[1].split(".")[0] for line in imports}
    snippet = DEPENDENCIES_SNIPPET.format(
        imports="\n".join(imports), excluded=sorted(own | {"numba", "taipan", "llvmlite"})
    )
    loaded = []
    for lib in ("taipan", "numba"):
        with tempfile.TemporaryDirectory(prefix="bench-libraries-cache-") as cache_dir:
            env = environment(lib, paths[package], cache_dir, taipan_path)
            try:
                loaded.append(set(run_snippet(snippet, env=env, timeout=900)))
            except BenchError:
                return []
    return sorted(loaded[0] & loaded[1])


def measure_case(case, lib, paths, taipan_path, preloaded):
    """One fresh process's first call, warm call (seconds) and checksum; raises BenchError."""
    imports, data = split_setup(case)
    snippet = SNIPPET.format(
        shim=lib == "taipan",
        shim_root=str(SHIM_ROOT),
        dependencies=preloaded,
        imports="\n".join("    " + line for line in imports),
        data="\n".join("    " + line for line in data),
        call=case.call,
    )
    with tempfile.TemporaryDirectory(prefix="bench-libraries-cache-") as cache_dir:
        env = environment(lib, paths[case.package], cache_dir, taipan_path)
        return run_snippet(snippet, env=env, timeout=900)


def summarize_runs(runs):
    """(best first call, median warm call, checksum) of one library's processes, or the error."""
    if isinstance(runs, str):
        return runs
    return (
        min(r["first"] for r in runs),
        statistics.median([r["warm"] for r in runs]),
        runs[-1]["check"],
    )


def same_result(ours, theirs):
    """The checksums agree: sizes and finite counts exactly, the sums to 1e-9 relative."""
    if ours[:2] != theirs[:2]:
        return False
    return all(abs(a - b) <= 1e-9 * max(1.0, abs(b)) for a, b in zip(ours[2:], theirs[2:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=None, help="packages (e.g. numbagg)")
    parser.add_argument(
        "--rows", nargs="+", default=None, help="rows whose name contains one of these words"
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="fresh processes per library and function"
    )
    parser.add_argument(
        "--taipan-path",
        default=None,
        help="the folder holding the taipan package to measure (default: the repository's src)",
    )
    options = parser.parse_args()
    cases = [
        case
        for case in CASES
        if (options.only is None or case.package in options.only)
        and (options.rows is None or any(word in case.name for word in options.rows))
    ]
    paths = package_paths(sorted({case.package for case in cases}))
    import libraries  # tools/numba_compat/libraries.py, on sys.path since package_paths

    with tempfile.TemporaryDirectory(prefix="bench-libraries-") as workdir:
        # One build of taipan for the whole run: the shared build may be relinked meanwhile.
        taipan_path = libraries.snapshot_taipan(
            libraries.numba_suite.taipan_location(options.taipan_path), Path(workdir)
        )
        # The shim's bytecode too (the snapshot has taipan's): Numba's installed modules have
        # theirs, whatever PYTHONDONTWRITEBYTECODE says.
        compileall.compile_dir(str(SHIM_ROOT), quiet=1)
        first_rows, warm_rows = measure_all(cases, paths, options.repeats, taipan_path)
    print_results("first call in a fresh process (import of the library + first call)", first_rows)
    print_results("warm call", warm_rows)


def measure_all(cases, paths, repeats, taipan_path):
    first_rows, warm_rows = [], []
    # The dependencies of each package's import lines, probed once: a package's rows mostly
    # share them, and the Numba side's probe compiles what the library compiles on import.
    probed = {}
    for case in cases:
        if isinstance(paths[case.package], str):
            measured = dict.fromkeys(("taipan", "numba"), paths[case.package])
        else:
            imports = tuple(split_setup(case)[0])
            key = (case.package, imports)
            if key not in probed:
                probed[key] = dependencies(case.package, imports, paths, taipan_path)
            preloaded = probed[key]
            runs = alternating_runs(
                lambda lib, case=case, preloaded=preloaded: measure_case(
                    case, lib, paths, taipan_path, preloaded
                ),
                repeats,
            )
            measured = {lib: summarize_runs(lib_runs) for lib, lib_runs in runs.items()}
        ours, theirs = measured["taipan"], measured["numba"]
        if (
            isinstance(ours, tuple)
            and isinstance(theirs, tuple)
            and not same_result(ours[2], theirs[2])
        ):
            ours = f"result differs from Numba's: {ours[2]} vs {theirs[2]}"
        first, warm = [], []
        for value in (ours, theirs):
            first.append(value if isinstance(value, str) else value[0] * 1e9)
            warm.append(value if isinstance(value, str) else value[1] * 1e9)
        first_rows.append(Row(case.name, first[0], first[1], FIRST_TARGET))
        warm_rows.append(Row(case.name, warm[0], warm[1], WARM_TARGET, note=f"median of {repeats}"))
        # Each case as soon as it is measured: a run cut off by a timeout keeps what it measured
        # (the tables come at the end).
        print(f"warm  {row_line(warm_rows[-1])}", flush=True)
        print(f"first {row_line(first_rows[-1])}", flush=True)
    return first_rows, warm_rows


if __name__ == "__main__":
    main()
