"""`import taipan` and first-compile times: medians (and minima) over fresh processes.

Rows: the time of ``import taipan`` in a fresh interpreter (with ``site``, and with ``python -S``,
which leaves out what ``site`` and ``.pth`` files import first, such as ``re``), and the first
call (compile and run) of a function using a NumPy function written in Python (``np.median``,
from ``taipan.numpy_library``) and of one using only C++-implemented NumPy (``np.sum(a * a)``).

With ``--baseline`` the same rows are measured for another build in the same run, processes of
the two alternating, so that load on the machine hits both alike.

Usage: python benchmarks/bench_import.py [--current SRC] [--baseline OTHER_SRC] [--repeats 15]

Each SRC is a folder holding the ``taipan`` package with its built extension (``src/`` of a
development tree); without ``--current`` the taipan this interpreter imports is used. Child
processes run without PYTHONDONTWRITEBYTECODE, after one warm-up run each, so that they import
from ``.pyc`` files as an installed taipan does.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

MARKER = "__BENCH_RESULT__"
PRELUDE = f"def report(value):\n    print({MARKER!r}, value, flush=True)\n"

# label -> (interpreter flags, snippet reporting nanoseconds with report()).
SNIPPETS = {
    "import taipan": (
        (),
        """
        import time
        t0 = time.perf_counter_ns()
        import taipan
        report(time.perf_counter_ns() - t0)
        """,
    ),
    "import taipan (python -S)": (
        ("-S",),
        """
        import time
        t0 = time.perf_counter_ns()
        import taipan
        report(time.perf_counter_ns() - t0)
        """,
    ),
    "first call np.median(a)": (
        (),
        """
        import time
        import numpy as np
        import taipan

        @taipan.njit
        def median(a):
            return np.median(a)

        a = np.arange(101.0)
        t0 = time.perf_counter_ns()
        median(a)
        report(time.perf_counter_ns() - t0)
        """,
    ),
    "first call np.sum(a * a)": (
        (),
        """
        import time
        import numpy as np
        import taipan

        @taipan.njit
        def sum_of_squares(a):
            return np.sum(a * a)

        a = np.arange(101.0)
        t0 = time.perf_counter_ns()
        sum_of_squares(a)
        report(time.perf_counter_ns() - t0)
        """,
    ),
}

# The rows bench_compile_revisions.py adds (it runs snippets without interpreter flags).
COMPILE_ROWS = {label: code for label, (flags, code) in SNIPPETS.items() if not flags}


def run(code, flags=(), source_folder=None):
    """Nanoseconds reported by ``code`` run as a file in a fresh interpreter."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if source_folder:
        environment["PYTHONPATH"] = os.path.abspath(source_folder)
    with tempfile.TemporaryDirectory(prefix="taipan-bench-") as folder:
        path = os.path.join(folder, "snippet.py")
        with open(path, "w") as file:
            file.write(PRELUDE + textwrap.dedent(code))
        process = subprocess.run(
            [sys.executable, *flags, path],
            check=False,
            capture_output=True,
            text=True,
            env=environment,
            timeout=600,
        )
    for line in process.stdout.splitlines():
        if line.startswith(MARKER):
            return int(line.split()[1])
    raise RuntimeError(f"{code!r} failed:\n{process.stderr}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--current", default=None, help="src folder of this build")
    parser.add_argument("--baseline", default=None, help="src folder of another build")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    builds = [("current", args.current)]
    if args.baseline:
        builds.append(("baseline", args.baseline))
    results = {}
    for label, (flags, code) in SNIPPETS.items():
        times = {name: [] for name, _ in builds}
        for _name, folder in builds:
            run(code, flags, folder)  # warm-up: writes .pyc files, fills the disk cache
        for _ in range(args.repeats):
            for name, folder in builds:
                times[name].append(run(code, flags, folder))
        results[label] = {name: (statistics.median(v), min(v)) for name, v in times.items()}
    width = max(len(label) for label in SNIPPETS)
    print(f"median (and minimum) of {args.repeats} fresh processes, in ms")
    header = f"{'':<{width}}  {'current':>16}"
    if args.baseline:
        header += f"  {'baseline':>16}  {'ratio of medians':>16}"
    print(header)
    for label, figures in results.items():
        median, least = figures["current"]
        line = f"{label:<{width}}  {median / 1e6:7.2f} ({least / 1e6:6.2f})"
        if args.baseline:
            base_median, base_least = figures["baseline"]
            line += f"  {base_median / 1e6:7.2f} ({base_least / 1e6:6.2f})"
            line += f"  {median / base_median:16.2f}"
        print(line)
    return results


if __name__ == "__main__":
    main()
