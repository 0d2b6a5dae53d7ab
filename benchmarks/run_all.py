"""Run every taipan-vs-numba benchmark and print the tables and a PASS/MISS summary.

Usage: python benchmarks/run_all.py [--quick] [--sizes 25,100,400,1600] [--timeout 600]
                                    [--strict]

TAIPAN_BENCH_STANDIN=numba makes the "taipan" side import numba.  It exists ONLY to validate
the scripts before taipan is importable (ratios are then ~1).
"""

from __future__ import annotations

import argparse
import sys
import time

# benchmarks/ is sys.path[0] when this file is run as a script.
import bench_arrays
import bench_compile_scaling
import bench_scalar
from common import STANDIN, summarize


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--quick", action="store_true", help="fewer repeats and sizes 25,100 (smoke test)"
    )
    ap.add_argument("--sizes", default=None, help="compile-scaling sizes, comma-separated")
    ap.add_argument("--timeout", type=float, default=600, help="per-process timeout in s")
    ap.add_argument(
        "--strict",
        action="store_true",
        help="exit with status 1 if any target is missed or errored",
    )
    args = ap.parse_args(argv)

    start = time.perf_counter()
    print(f"python {sys.version.split()[0]} ({sys.executable})")
    scalar_argv = ["--timeout", str(args.timeout)] + (["--quick"] if args.quick else [])
    sizes = args.sizes or ("25,100" if args.quick else None)
    scaling_argv = ["--timeout", str(args.timeout)] + (["--sizes", sizes] if sizes else [])
    scaling_argv += ["--repeats", "1"] if args.quick else []

    rows = bench_scalar.main(scalar_argv)
    rows += bench_arrays.main(scalar_argv)
    rows += bench_compile_scaling.main(scaling_argv)

    passed, missed, errors = summarize(rows)
    print(
        f"\nsummary: {passed} PASS, {missed} MISS, {errors} ERROR "
        f"({time.perf_counter() - start:.0f} s)"
    )
    if STANDIN:
        print(
            f"note: TAIPAN_BENCH_STANDIN={STANDIN} was set; 'taipan' was {STANDIN}, so these "
            "ratios only validate the scripts."
        )
    return 1 if args.strict and (missed or errors) else 0


if __name__ == "__main__":
    sys.exit(main())
