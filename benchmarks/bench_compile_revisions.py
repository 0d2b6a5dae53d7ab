"""First-call (compile) times of this tree's taipan against another build of taipan, in one run.

Each measurement is a fresh process importing taipan and timing the first call of one of the
scalar and array benchmark functions (``bench_scalar.py``, ``bench_arrays.py``), or ``import
taipan`` and the first calls of ``bench_import.py`` (np.median, np.sum(a * a)); the two builds
alternate, and each figure is the best of ``--repeats``. The ratio is this tree over the
baseline: at most 1.0 means compiling got no slower.

Usage: python benchmarks/bench_compile_revisions.py --baseline /path/to/other/src \
           [--current /path/to/this/src] [--repeats 5]

Each path is a folder holding the ``taipan`` package with its built extension (as
``scripts/dev-build.sh`` leaves ``src/``); without ``--current`` the installed taipan is used.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_arrays
import bench_import
import bench_scalar
from common import Row, fmt_time, print_table, run_snippet


def snippets():
    for name in bench_scalar.FIRST_CALLS:
        yield (
            f"first call {bench_scalar.FIRST_CALLS[name]}",
            bench_scalar.compile_snippet("taipan", name),
        )
    for name in bench_arrays.COMPILE_INPUTS:
        yield f"first call {name}", bench_arrays.compile_snippet("taipan", name)
    yield from bench_import.COMPILE_ROWS.items()


def timed(code, source_folder):
    environment = dict(os.environ)
    if source_folder:
        environment["PYTHONPATH"] = source_folder
    saved = os.environ.copy()
    os.environ.clear()
    os.environ.update(environment)
    try:
        return run_snippet(code)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="src folder of the other build")
    parser.add_argument("--current", default=None, help="src folder of this build")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rows = []
    for label, code in snippets():
        current, baseline = [], []
        for _ in range(args.repeats):  # alternate, so load changes hit both alike
            current.append(timed(code, args.current))
            baseline.append(timed(code, args.baseline))
        # Row's columns are named taipan and numba; here they are this tree and the baseline.
        rows.append(Row(label, min(current), min(baseline), target=1.0))
    print_table("compile time: this tree (taipan column) / baseline (numba column)", rows)
    total_current = sum(r.taipan for r in rows)
    total_baseline = sum(r.numba for r in rows)
    print(
        f"total {fmt_time(total_current)} vs {fmt_time(total_baseline)}: "
        f"{total_current / total_baseline:.3f}"
    )
    return rows


if __name__ == "__main__":
    main()
