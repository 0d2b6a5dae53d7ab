"""Shared helpers for the taipan-vs-numba benchmarks.

Every measurement that involves a JIT library runs in a fresh ``python`` subprocess: the
snippet does its own timing with ``time.perf_counter_ns`` and prints the result on a line
starting with ``RESULT_MARKER``.  This keeps import/compile measurements cold and keeps the two
libraries (each with its own copy of LLVM) out of one process.

``TAIPAN_BENCH_STANDIN=numba`` makes the "taipan" side import numba instead (``import numba as
taipan``).  It exists ONLY to validate these scripts before taipan is importable; the ratios
are then ~1 and say nothing about taipan.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass

LIBS = ("taipan", "numba")
RESULT_MARKER = "__BENCH_RESULT__"
STANDIN = os.environ.get("TAIPAN_BENCH_STANDIN", "")


class BenchError(RuntimeError):
    """A benchmark subprocess crashed, timed out or reported an error."""


def import_line(lib: str) -> str:
    """The statement that imports ``lib`` under its own name (honours the stand-in)."""
    if lib == "taipan" and STANDIN:
        if STANDIN != "numba":
            raise SystemExit(f"TAIPAN_BENCH_STANDIN={STANDIN!r}: only 'numba' is supported")
        return "import numba as taipan"
    return f"import {lib}"


def best_of(fn, repeats: int = 5, number: int = 1) -> float:
    """Best (minimum) time in ns per call of ``fn()`` over ``repeats`` rounds of ``number``."""
    best = None
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        for _ in range(number):
            fn()
        t = (time.perf_counter_ns() - t0) / number
        best = t if best is None else min(best, t)
    return best


# Injected into every snippet: the warm time of a call, measured the same way for both libraries.
WARM_SECONDS = """
def warm_seconds(call, least=0.2, rounds=5):
    \"\"\"Best seconds per call of ``call()`` over ``rounds`` rounds, each of as many calls as
    take at least ``least`` seconds (a power of 4, at most 10**6).\"\"\"
    import time as _time
    number = 1
    while True:
        start = _time.perf_counter()
        for _ in range(number):
            call()
        if _time.perf_counter() - start >= least or number >= 10**6:
            break
        number *= 4
    best = None
    for _ in range(rounds):
        start = _time.perf_counter()
        for _ in range(number):
            call()
        seconds = (_time.perf_counter() - start) / number
        best = seconds if best is None else min(best, seconds)
    return best
"""


def run_snippet(
    code: str,
    *,
    timeout: float = 600,
    as_file: bool = True,
    python=None,
    directory=None,
    env=None,
):
    """Run ``code`` in a fresh interpreter and return the JSON value it reports.

    The snippet reports with ``report(value)`` (injected helper).  With ``as_file`` the code is
    written to a ``.py`` file, so a compiler that reads function source (``inspect``) works;
    otherwise it runs with ``python -c``.  ``python`` names another interpreter than this
    one.  With ``directory`` the file is written there, so runs of the same code share one
    path, as a program run again does (otherwise each run gets a fresh temporary folder).
    ``env`` replaces the environment of the interpreter.
    Raises ``BenchError`` on a crash, timeout or missing result.
    """
    interpreter = python or sys.executable
    prelude = (
        "import json as _json\n"
        "def report(value):\n"
        f"    print({RESULT_MARKER!r}, _json.dumps(value), flush=True)\n"
    ) + WARM_SECONDS
    source = prelude + textwrap.dedent(code)
    with tempfile.TemporaryDirectory(prefix="taipan-bench-") as tmp:
        if as_file:
            path = os.path.join(directory or tmp, "bench_snippet.py")
            with open(path, "w") as f:
                f.write(source)
            cmd = [interpreter, path]
        else:
            cmd = [interpreter, "-c", source]
        try:
            proc = subprocess.run(
                cmd, check=False, capture_output=True, text=True, timeout=timeout, env=env
            )
        except subprocess.TimeoutExpired as exc:
            raise BenchError(f"timed out after {timeout:g} s") from exc
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            value = json.loads(line[len(RESULT_MARKER) :])
            if isinstance(value, dict) and "error" in value:
                raise BenchError(value["error"])
            return value
    tail = (proc.stderr.strip().splitlines() or ["<no output>"])[-1]
    if proc.returncode < 0:
        raise BenchError(f"killed by signal {-proc.returncode}: {tail}")
    raise BenchError(f"exit status {proc.returncode}: {tail}")


def fresh_best(code: str, repeats: int, **kwargs) -> float:
    """Minimum over ``repeats`` fresh processes of the number each one reports."""
    return min(run_snippet(code, **kwargs) for _ in range(repeats))


def alternating_runs(measure, repeats: int, libs=LIBS) -> dict:
    """``measure(lib)`` ``repeats`` times per library, the libraries taking turns and the first
    to go alternating from round to round, so that a machine whose speed drifts (other work,
    frequency scaling) weighs on both sides alike. Returns each library's list of results, or
    the message of the first BenchError it raised."""
    results = {lib: [] for lib in libs}
    for round_index in range(repeats):
        order = libs if round_index % 2 == 0 else tuple(reversed(libs))
        for lib in order:
            if isinstance(results[lib], str):
                continue
            try:
                results[lib].append(measure(lib))
            except BenchError as exc:
                results[lib] = str(exc)
    return results


def compare_kernels(snippet: str, title: str, value_label: str, **fields) -> None:
    """Runs ``snippet`` once per library (taipan, then numba), each in a fresh interpreter with
    ``{lib}`` and ``fields`` formatted in, and prints the two side by side. The snippet reports
    a dict of kernel name to ``(best seconds, value)``; the values must agree between the
    libraries (the kernels computed the same thing)."""
    results = {}
    for lib in ("taipan", "numba"):
        try:
            results[lib] = run_snippet(snippet.format(lib=lib, **fields), as_file=False)
        except BenchError as exc:
            raise SystemExit(f"{lib} failed: {exc}") from exc
    width = max(len(name) for name in results["taipan"]) + 2
    print(title)
    print(f"{'kernel':<{width}}{'taipan ms':>12}{'numba ms':>12}{'ratio':>9}{value_label:>10}")
    for name in results["taipan"]:
        (ours, value), (theirs, their_value) = results["taipan"][name], results["numba"][name]
        assert value == their_value, (name, value, their_value)
        print(
            f"{name:<{width}}{ours * 1e3:>12.2f}{theirs * 1e3:>12.2f}{ours / theirs:>9.2f}{value:>10}"
        )


# -- reporting ---------------------------------------------------------------------------------


@dataclass
class Row:
    """One comparison line: taipan and numba values (ns, or an error string) and a target."""

    name: str
    taipan: float | str | None
    numba: float | str | None
    target: float | None = None  # maximum allowed taipan/numba ratio
    unit: str = "time"  # "time" (ns, auto-scaled) or a literal unit for raw numbers
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if isinstance(self.taipan, (int, float)) and isinstance(self.numba, (int, float)):
            return self.taipan / self.numba if self.numba else None
        return None

    @property
    def status(self) -> str:
        if self.target is None:
            return ""
        if self.ratio is None:
            return "ERROR"
        return "PASS" if self.ratio <= self.target else "MISS"


def fmt_time(ns: float) -> str:
    if ns >= 1e9:
        return f"{ns / 1e9:.3f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.1f} ns"


def _cell(value, unit: str) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return "ERR: " + (value if len(value) <= 40 else value[:37] + "...")
    return fmt_time(value) if unit == "time" else f"{value:.3g} {unit}"


def print_table(title: str, rows: list[Row], file=None) -> None:
    """Print ``rows`` as an aligned table with ratio, target and PASS/MISS columns."""
    file = file or sys.stdout
    header = ("benchmark", "taipan", "numba", "taipan/numba", "target", "status", "note")
    cells = []
    for r in rows:
        cells.append(
            (
                r.name,
                _cell(r.taipan, r.unit),
                _cell(r.numba, r.unit),
                "-" if r.ratio is None else f"{r.ratio:.3f}",
                "-" if r.target is None else f"<= {r.target:g}",
                r.status,
                r.note,
            )
        )
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
    line = "  ".join("-" * w for w in widths)
    print(f"\n== {title} ==", file=file)
    if STANDIN:
        print(
            f"   (TAIPAN_BENCH_STANDIN={STANDIN}: 'taipan' is {STANDIN}; validation only)",
            file=file,
        )
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(), file=file)
    print(line, file=file)
    for c in cells:
        print("  ".join(v.ljust(w) for v, w in zip(c, widths)).rstrip(), file=file)
    # Full error messages, which the table truncates.
    for r in rows:
        for lib, v in (("taipan", r.taipan), ("numba", r.numba)):
            if isinstance(v, str) and len(v) > 40:
                print(f"   {r.name} [{lib}]: {v}", file=file)
    file.flush()


def row_line(row: Row) -> str:
    """One row on a line of its own (taipan, numba, ratio, status), for a script that prints
    each row as soon as it is measured."""
    ratio = "-" if row.ratio is None else f"{row.ratio:.3f}"
    status = f" {row.status}" if row.status else ""
    return (
        f"{row.name}: taipan {_cell(row.taipan, row.unit)}, numba {_cell(row.numba, row.unit)}, "
        f"ratio {ratio}{status}"
    )


def summarize(rows: list[Row]) -> tuple[int, int, int]:
    """Counts of (PASS, MISS, ERROR) among rows with a target."""
    statuses = [r.status for r in rows if r.target is not None]
    return statuses.count("PASS"), statuses.count("MISS"), statuses.count("ERROR")


def print_results(title: str, rows: list[Row]) -> None:
    """The table, then one line counting PASS, MISS and ERROR."""
    print_table(title, rows)
    passed, missed, errors = summarize(rows)
    print(f"\nsummary: {passed} PASS, {missed} MISS, {errors} ERROR")


def measure(fn):
    """Call ``fn()``; return its value, or the error message of a BenchError."""
    try:
        return fn()
    except BenchError as exc:
        return str(exc)
