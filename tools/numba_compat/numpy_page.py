#!/usr/bin/env python3
"""Measures taipan against every entry of Numba's "Supported NumPy features" page.

    PYTHONPATH=src python tools/numba_compat/numpy_page.py            # writes docs/numpy_support.md
    PYTHONPATH=src python tools/numba_compat/numpy_page.py --only numpy.diag numpy.roll
    python tools/numba_compat/numpy_page.py --taipan-path /tmp/frozen/src   # a copy of taipan

The page (Numba's ``docs/source/reference/numpysupported.rst``, copied in ``data/``) is read
for its entries: the ``:func:``/``:meth:``/``:attr:``/``:class:`` bullets, the rows of the
ufunc tables, the scalar kinds and the features its prose names (record subtyping, indexing
forms, the ``flags`` and ``flat`` objects...). Each entry has probes in
``numpy_page_probes.py``: small functions compiled with ``taipan.njit``, run, and compared with
the same function run by CPython with NumPy (or with a NumPy reference where Numba documents
behaviour NumPy lacks). An entry is ✅ when every probe agrees, partial when some do, ❌ when
none does or it has no probe, and n/a when the installed NumPy no longer has the function (the
probe cannot be compared).

Probes run in a child process, so that a crash or a hang fails one entry only; the child is
started again from the next entry.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import selectors
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PAGE = HERE / "data" / "numpysupported.rst"
OUTPUT = REPO / "docs" / "numpy_support.md"

# Prose features of the page: (heading the page must hold, entry names under it).
PROSE_FEATURES = [
    ("Scalar types", ["scalar.view (bitcast to a same-width dtype)"]),
    (
        "Scalar types",
        [
            "record member lookup with a constant string",
            "record member lookup with a string of a global tuple",
            "record member lookup with literal_unroll",
        ],
    ),
    ("Record subtyping", ["record subtyping"]),
    (
        "Array access",
        [
            "array iteration",
            "basic indexing and slicing",
            "None / np.newaxis in an index",
            "fancy indexing: adjacent array indices",
            "fancy indexing: separated array indices",
            "fancy indexing: multidimensional index arrays",
        ],
    ),
    ("Linear algebra", ["the @ operator"]),
    ("Structured array access", ["record field by attribute (get and set)"]),
    ("The ``flags`` object", ["flags.contiguous", "flags.c_contiguous", "flags.f_contiguous"]),
    ("The ``flat`` object", ["flat iteration", "flat indexing"]),
    ("Literal arrays", ["np.array of a nested tuple"]),
    ("Generator Objects", ["numpy.random.Generator argument"]),
]


def _heading_of(lines: list[str], index: int) -> str:
    """The title of the section holding line ``index`` (a line followed by an underline)."""
    for i in range(index, 0, -1):
        underline = lines[i].strip()
        title = lines[i - 1].strip()
        is_rule = underline and len(set(underline)) == 1 and underline[0] in "=-'~^"
        if is_rule and title and len(underline) >= len(title):
            return title
    return ""


def read_entries(page: Path = PAGE) -> list[dict]:
    """The page's entries in its order: name, section and the page's own note on it."""
    lines = page.read_text().splitlines()
    text = "\n".join(lines)
    entries: list[dict] = []
    seen: set[str] = set()

    def add(name: str, section: str, note: str) -> None:
        if name not in seen:
            seen.add(name)
            entries.append({"name": name, "section": section, "note": note.strip()})

    in_unsupported = False
    for index, line in enumerate(lines):
        section = _heading_of(lines, index)
        if line.startswith("The following scalar types and features are not supported"):
            in_unsupported = True
        elif in_unsupported and line.startswith("The operations supported"):
            in_unsupported = False
        bold = re.match(r"\* \*\*(.+?):?\*\*:?(.*)", line)
        if bold and section == "Scalar types" and not in_unsupported:
            add("scalar: " + bold.group(1).rstrip(":"), section, bold.group(2))
            continue
        role = re.match(r"\s*\* :(func|meth|attr|class):`~?([^`]+)`(.*)", line)
        if role:
            name = role.group(2)
            note = role.group(3)
            for follow in lines[index + 1 : index + 4]:  # a note continued on indented lines
                if follow.startswith("  ") and not follow.strip().startswith("*"):
                    note += " " + follow.strip()
                else:
                    break
            if name.startswith("numpy.ndarray."):
                name = "ndarray." + name.split(".", 2)[2]
            elif name.startswith("np."):
                name = "numpy." + name[3:]
            elif name.startswith("numpy.random.Generator()."):
                name = "Generator." + name.split(".")[-1].rstrip("()")
            name = name.rstrip("()")
            add(name, section, note)
            continue
        row = re.match(r"^ (\w+)(?: \(\*\))?\s+Yes\s+(Yes|No)\s*$", line)
        if row:
            note = "" if row.group(2) == "Yes" else "Numba: not supported in nopython mode"
            add("ufunc " + row.group(1), section, note)
    for heading, names in PROSE_FEATURES:
        if heading not in text:
            raise SystemExit(f"the page has no section {heading!r}: update PROSE_FEATURES")
        for name in names:
            add(name, heading, "")
    return entries


# ----------------------------------------------------------------------------------------------
# The child: runs the probes of entries [start:] and prints one JSON line per entry.


def _worker(start: int, names: list[str]) -> None:
    sys.path.insert(0, str(HERE))
    import numpy_page_probes as probes

    entries = read_entries()
    for entry in entries[start:]:
        if names and entry["name"] not in names:
            continue
        began = time.perf_counter()
        print(json.dumps({"started": entry["name"]}), flush=True)
        outcome = probes.measure(entry["name"])
        outcome["seconds"] = round(time.perf_counter() - began, 2)
        outcome["name"] = entry["name"]
        print(json.dumps(outcome), flush=True)


def _run_child(command: list[str], env: dict, timeout: float, results: dict) -> tuple:
    """Runs one child, filing its outcomes in ``results``: (the entry it was running when it
    stopped or None, whether it hung, its exit status, the end of its stderr)."""
    with tempfile.TemporaryFile(mode="w+") as errors:
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        selector = selectors.DefaultSelector()
        selector.register(child.stdout, selectors.EVENT_READ)
        current, hung = None, False
        while True:
            if not selector.select(timeout):
                hung = True
                child.kill()
                break
            line = child.stdout.readline()
            if not line:
                break
            message = json.loads(line)
            if "started" in message:
                current = message["started"]
                continue
            results[message["name"]] = message
            current = None
        child.wait()
        errors.seek(0)
        return current, hung, child.returncode, errors.read()[-3000:]


def _run_all(names: list[str], timeout: float, taipan_path: Path) -> dict[str, dict]:
    """Every entry's outcome, running the children and restarting one after a crash/hang."""
    order = [e["name"] for e in read_entries()]
    results: dict[str, dict] = {}
    start = 0
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(taipan_path), *filter(None, [env.get("PYTHONPATH")])])
    while start < len(order):
        command = [sys.executable, __file__, "--worker", str(start), "--only", *names]
        current, hung, status, stderr = _run_child(command, env, timeout, results)
        if current is None:
            if status:  # the child failed before its first entry (taipan's import)
                raise SystemExit(f"the probing process failed:\n{stderr}")
            break
        why = f"hang (no answer in {timeout:.0f} s)" if hung else f"crash (exit status {status})"
        results[current] = {"name": current, "status": "❌", "reason": why}
        print(f"{current}: {why}", file=sys.stderr)
        start = order.index(current) + 1
    return results


def write_markdown(results: dict[str, dict], path: Path) -> None:
    import numpy as np

    import taipan

    entries = read_entries()
    counts: dict[str, int] = {}
    rows_by_section: dict[str, list[str]] = {}
    for entry in entries:
        outcome = results.get(entry["name"])
        if outcome is None:
            continue
        counts[outcome["status"]] = counts.get(outcome["status"], 0) + 1
        note = entry["note"].replace("|", "\\|")
        reason = outcome.get("reason", "").replace("|", "\\|").replace("\n", " ")
        probes = outcome.get("probes", 0)
        name = entry["name"].replace("|", "\\|")
        rows_by_section.setdefault(entry["section"] or "(top)", []).append(
            f"| `{name}` | {outcome['status']} | {probes} | {reason} | {note} |"
        )
    total = sum(counts.values())
    lines = [
        "# NumPy support, measured against Numba's page",
        "",
        "Every entry of Numba's \"Supported NumPy features\" page (Numba main's",
        "`docs/source/reference/numpysupported.rst`, copied in",
        "[tools/numba_compat/data/](../tools/numba_compat/data/numpysupported.rst)) with its status",
        "under taipan, *measured*: each entry has small probes (in",
        "[tools/numba_compat/numpy_page_probes.py](../tools/numba_compat/numpy_page_probes.py)),",
        "functions compiled with `taipan.njit`, run and compared with the same function run by",
        "CPython with NumPy (arrays: shape, dtype and values; floats to a few ulps). ✅: every",
        "probe agrees; partial: some do (the reason names the first that does not); ❌: none",
        "does; n/a: the installed NumPy no longer has it, so there is nothing to compare with.",
        "",
        "Regenerate with `PYTHONPATH=src python tools/numba_compat/numpy_page.py` (a few",
        "minutes; a crash or hang fails one entry only).",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with NumPy "
        f"{np.__version__}, Python {sys.version.split()[0]}, taipan "
        f"{getattr(taipan, '__version__', '?')}: "
        + ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
        + f" of {total} entries.",
        "",
    ]
    for section, rows in rows_by_section.items():
        lines += [f"## {section}", "", "| entry | status | probes | reason | page's note |"]
        lines += ["| --- | --- | ---: | --- | --- |", *rows, ""]
    path.write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="entry names to probe")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=300, help="seconds per entry")
    parser.add_argument("--list", action="store_true", help="print the page's entries and stop")
    parser.add_argument("--out", type=Path, default=OUTPUT)
    parser.add_argument(
        "--taipan-path",
        type=Path,
        default=REPO / "src",
        help="the folder taipan is imported from (a frozen copy while the shared build relinks)",
    )
    parser.add_argument("--json", type=Path, help="also write every outcome as JSON here")
    arguments = parser.parse_args()
    if arguments.worker is not None:
        _worker(arguments.worker, arguments.only)
        return
    if arguments.list:
        for entry in read_entries():
            print(f"{entry['section']:<30} {entry['name']}")
        return
    results = _run_all(arguments.only, arguments.timeout, arguments.taipan_path)
    for name, outcome in results.items():
        if outcome["status"] != "✅":
            print(f"{outcome['status']} {name}: {outcome.get('reason', '')}")
    if arguments.json:
        arguments.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    if not arguments.only:
        write_markdown(results, arguments.out)
        print(f"wrote {arguments.out}")


if __name__ == "__main__":
    main()
