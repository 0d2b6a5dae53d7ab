#!/usr/bin/env python3
"""Runs numba-cuda's own test suite twice: with numba-cuda itself (the baseline), and through
the shim that maps ``numba.cuda`` onto ``taipan.cuda``; reports per test module how many of
the tests that pass with numba-cuda also pass with taipan.

    python tools/numba_compat/cuda_suite.py --jobs 16                  # the GPU host
    python tools/numba_compat/cuda_suite.py --simulator --sides taipan --jobs 2 --select cudapy
    python tools/numba_compat/cuda_suite.py --report-only --out build/numba_cuda_compat

The tests come from the numba-cuda release given (``--numba-cuda-version``, default 0.30.4):
the installed package's ``numba/cuda/tests`` when it is that version, else its wheel
(``pip download numba-cuda==VERSION --no-deps``). Nothing of numba-cuda is kept in the
repository. Each side runs in one pytest session spread over ``--jobs`` pytest-xdist workers:

* ``numba-cuda``: the installed numba-cuda, its test files where it installed them.
* ``taipan``: a copy of the tests inside the shim (``shim/numba``, whose ``numba.cuda`` is
  taipan.cuda; numba-cuda's import finder, installed by its .pth file, is taken off
  ``sys.meta_path`` by the shim so that it cannot send ``numba.cuda`` to numba-cuda).

Both sides load ``cuda_support/cuda_compat_plugin.py`` (``np.row_stack`` on NumPy 2.5, the
fixture numba-cuda's repository conftest gives, a per-test limit in the workers) and, where
the ``filecheck`` package is not installed, a stand-in for it. With ``--simulator`` both sides
run with ``NUMBA_ENABLE_CUDASIM=1`` (numba-cuda's simulator, taipan's simulator); a side that
cannot be imported (numba-cuda needs cuda-bindings) is reported as such, and the taipan side's
share is then over the tests that ran (passed or failed) under taipan.

Test modules of numba-cuda's internals (its IR, typing context, front end passes, NVVM
bindings) are listed in OUT_OF_SCOPE with the reason; they run, but are counted apart. Output:
``report.md`` (per module table, failure reasons grouped by their first line, crashes),
``results.json`` and the pytest logs under ``--out`` (default build/numba_cuda_compat).
"""

import argparse
import datetime
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import libraries  # the real-library runner: its snapshot of taipan
import run as numba_suite  # the runner of Numba's own suite, beside this file

REPO = numba_suite.REPO
SUPPORT = HERE / "cuda_support"
SIDES = ("numba-cuda", "taipan")
DEFAULT_SELECT = ("cudadrv", "cudapy", "nocuda", "nrt", "doc_examples", "cudasim", "core")

# Modules that test numba-cuda's internals rather than its public API, and why.
OUT_OF_SCOPE = {
    "cudapy/test_analysis.py": "numba-cuda's IR analysis passes (CFGraph, dead branch pruning)",
    "cudapy/test_byteflow.py": "numba-cuda's bytecode flow analysis",
    "cudapy/test_ir.py": "numba-cuda's IR classes",
    "cudapy/test_ir_utils.py": "numba-cuda's IR utilities",
    "cudapy/test_typeinfer.py": "numba-cuda's typing.Context and type inference internals",
    "cudapy/test_typeconv.py": "numba-cuda's type conversion tables",
    "cudapy/test_make_function_to_jit_function.py": "numba-cuda's IR rewrite of make_function",
    "cudadrv/test_nvvm_driver.py": "the NVVM bindings (taipan compiles with LLVM's NVPTX)",
    "cudadrv/test_inline_ptx.py": "llvmlite IR with inline PTX given to NVVM",
    "nocuda/test_nvvm.py": "the NVVM bindings",
    "nocuda/test_function_resolution.py": "numba-cuda's typing.Context resolution",
    "nocuda/test_dummyarray.py": "numba-cuda's internal dummyarray",
    "nocuda/test_library_lookup.py": "numba-cuda's CUDA library search internals",
    "core/test_itanium_mangler.py": "numba-cuda's C++ name mangler",
    "core/test_serialize.py": "numba-cuda's serialization internals",
    # Classes of a module whose other tests are in scope: counted as rows of their own.
    "cudapy/test_flow_control.py::TestCFGraph": "numba-cuda's CFGraph (as test_analysis.py)",
    "cudapy/test_flow_control.py::TestRealCodeDomFront": (
        "numba-cuda's ControlFlowAnalysis on bytecode (dominance frontiers)"
    ),
}


def log(message):
    numba_suite.log(message)


# --- numba-cuda's tests -------------------------------------------------------------------


def installed_numba_cuda():
    """(version, the installed numba_cuda/numba/cuda folder) or (None, None)."""
    try:
        version = importlib.metadata.version("numba-cuda")
    except importlib.metadata.PackageNotFoundError:
        return None, None
    spec = importlib.util.find_spec("numba_cuda")
    if spec is None or not spec.submodule_search_locations:
        return version, None
    return version, Path(next(iter(spec.submodule_search_locations))) / "numba" / "cuda"


def find_cuda_package(version, workdir):
    """The ``numba/cuda`` folder of numba-cuda ``version`` (its tests and libdevicefuncs.py):
    the installed package's, or one unpacked from the wheel pip downloads."""
    installed, folder = installed_numba_cuda()
    if installed == version and folder is not None and (folder / "tests").is_dir():
        return folder
    download = workdir / "wheel"
    log(f"downloading numba-cuda=={version} (its wheel contains numba/cuda/tests)")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", f"numba-cuda=={version}", "--no-deps"]
        + ["--only-binary=:all:", "-q", "-d", str(download)],
        check=True,
    )
    wheel = next(download.glob("numba_cuda-*.whl"))
    prefix = "numba_cuda/numba/cuda/"
    with zipfile.ZipFile(wheel) as archive:
        members = [
            name
            for name in archive.namelist()
            if name.startswith(prefix + "tests/") or name == prefix + "libdevicefuncs.py"
        ]
        archive.extractall(download / "unpacked", members)
    return download / "unpacked" / "numba_cuda" / "numba" / "cuda"


def select_files(tests_dir, patterns):
    """The test files (relative to ``tests_dir``) under the folders or files chosen:
    ``cudapy``, ``cudapy/test_atomics.py``, ``cudapy/test_a*``."""
    files = sorted(
        str(path.relative_to(tests_dir))
        for path in tests_dir.rglob("test_*.py")
        if "__pycache__" not in path.parts
    )
    chosen = []
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        matches = [
            name
            for name in files
            if name == pattern
            or name.startswith(pattern + "/")
            or Path(name).match(pattern)
            or Path(name).match(pattern + ".py")
        ]
        if not matches:
            log(f"warning: no numba-cuda test file matches {pattern!r}")
        chosen += [name for name in matches if name not in chosen]
    return chosen


def build_tree(tree, cuda_package):
    """The folder put first on ``sys.path`` for the taipan side: the shim as ``numba`` with
    numba-cuda's tests (and its libdevice table, which they read) inside its ``numba.cuda``;
    and the support folder both sides load the plugins from."""
    shutil.copytree(numba_suite.SHIM, tree / "numba", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(
        cuda_package / "tests",
        tree / "numba" / "cuda" / "tests",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    table = cuda_package / "libdevicefuncs.py"
    if table.exists():
        shutil.copy2(table, tree / "numba" / "cuda" / "libdevicefuncs.py")
    support = tree.parent / "support"
    support.mkdir()
    shutil.copy2(numba_suite.PLUGIN, support / numba_suite.PLUGIN.name)
    shutil.copy2(SUPPORT / "cuda_compat_plugin.py", support / "cuda_compat_plugin.py")
    if importlib.util.find_spec("filecheck") is None:
        shutil.copytree(
            SUPPORT / "filecheck",
            support / "filecheck",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    (support / "pytest.ini").write_text("[pytest]\n")  # pytest's settings: none of the repository's
    return support


# --- one side -----------------------------------------------------------------------------


class SideRun(numba_suite.ModuleRun):
    """One side's pytest session over every chosen file, spread over xdist workers; restarts
    (after the session itself dies) go on without the tests already done."""

    def __init__(self, side, tests_dir, files, tree, support, options, taipan_path, logs):
        # The sessions run in the support folder: in the tree, python -m pytest would put the
        # shim's numba first on the baseline's path too.
        super().__init__(
            side,
            side,
            support,
            taipan_path,
            logs,
            options.timeout,
            # the workers limit each test themselves; this only catches a stuck session
            max(options.test_timeout * 4, 600),
        )
        self.tests_dir, self.files, self.support, self.shim_tree = tests_dir, files, support, tree
        self.jobs, self.simulator = options.jobs, options.simulator
        self.per_test = options.test_timeout

    def environment(self, outcomes, skip):
        env = super().environment(outcomes, skip)
        paths = [str(self.support)]
        if self.mode == "taipan":
            paths = [str(self.shim_tree), *paths]
            if self.taipan_path:
                paths.append(str(self.taipan_path))
        if os.environ.get("PYTHONPATH"):
            paths.append(os.environ["PYTHONPATH"])
        env["PYTHONPATH"] = os.pathsep.join(paths)
        env["NUMBA_SHIM_MODE"] = "taipan"
        env["CUDA_SUITE_TEST_TIMEOUT"] = str(self.per_test)
        for name in ("NUMBA_ENABLE_CUDASIM", "TAIPAN_ENABLE_CUDASIM"):
            env.pop(name, None)
        if self.simulator:
            env["NUMBA_ENABLE_CUDASIM"] = "1"
        return env

    def pytest_targets(self):
        # A module that does not import must not stop the session's other modules.
        options = ["-p", "cuda_compat_plugin", "--import-mode=importlib"]
        options += ["--continue-on-collection-errors"]
        options += ["-o", "consider_namespace_packages=true", "--rootdir", str(self.tests_dir)]
        if self.jobs > 1:
            options += ["-p", "xdist", "-n", str(self.jobs), "--dist", "loadfile"]
        return options + [str(self.tests_dir / name) for name in self.files]

    def pytest_command(self):
        """run.py's pytest command with xdist allowed, and pytest's settings from the support
        folder's empty pytest.ini (none of the repository's or numba-cuda's)."""
        command = super().pytest_command()
        index = command.index("no:xdist")
        del command[index - 1 : index + 1]
        return command + ["-c", str(self.support / "pytest.ini")]


# --- the report ---------------------------------------------------------------------------


def module_of(test):
    """``cudapy/test_atomics.py`` of ``cudapy/test_atomics.py::TestX::test_y``, or
    ``module::TestX`` where OUT_OF_SCOPE names that class alone."""
    parts = test.split("::")
    if len(parts) > 2 and "::".join(parts[:2]) in OUT_OF_SCOPE:
        return "::".join(parts[:2])
    return parts[0]


def compare(results, files, baseline_side="numba-cuda"):
    """Per module: the tests that pass on the baseline side, and which of them pass under
    taipan, with the reasons of those that do not. Without a baseline (the simulator here),
    the tests that passed or failed under taipan are the denominator."""
    base = results.get(baseline_side)
    ours = results.get("taipan") or {"results": {}, "collect_error_nodes": {}, "tests": None}
    rows, failures = {}, []
    for name in files:
        rows[name] = {
            "module": name,
            "tests": 0,
            "baseline": 0,
            "taipan": 0,
            "crashed": 0,
            "timeout": 0,
            "skipped": 0,
            "scope": "out" if name in OUT_OF_SCOPE else "in",
        }
    for name in OUT_OF_SCOPE:
        if "::" in name and name.split("::")[0] in rows:
            rows[name] = dict(rows[name.split("::")[0]], module=name, scope="out")
    universe = set(ours["results"])
    if base is not None:
        universe |= set(base["results"])
    for test in sorted(universe):
        row = rows.get(module_of(test))
        if row is None:
            continue
        row["tests"] += 1
        mine = ours["results"].get(test)
        if base is not None:
            theirs = base["results"].get(test)
            if not theirs or theirs["outcome"] != "passed":
                continue
        elif not mine or mine["outcome"] not in ("passed", "failed", "crashed", "timeout"):
            if mine and mine["outcome"] == "skipped":
                row["skipped"] += 1
            continue
        row["baseline"] += 1
        if mine is None:
            module_file = test.split("::", 1)[0]
            reason = ours["collect_error_nodes"].get(module_file) or "not run under taipan"
            if module_file in ours["collect_error_nodes"]:
                reason = "module did not import: " + reason
        elif mine["outcome"] == "passed":
            row["taipan"] += 1
            continue
        elif mine["outcome"] == "skipped":
            reason = "skipped under taipan: " + mine["reason"]
        else:
            reason = mine["reason"] or mine["outcome"]
            if mine["outcome"] in ("crashed", "timeout"):
                row[mine["outcome"] if mine["outcome"] == "timeout" else "crashed"] += 1
        failures.append((module_of(test), test, reason))
    # Tests a module's import error kept from being collected at all.
    for node, reason in ours["collect_error_nodes"].items():
        row = rows.get(node)
        if row is not None and row["tests"] == 0:
            row["module_error"] = reason
    return list(rows.values()), failures


def _table(rows, baseline_label):
    header = (
        f"| module | tests | pass {baseline_label} | of those, pass under taipan | share |"
        " taipan crashes | taipan timeouts |"
    )
    lines = [header, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    totals = defaultdict(Counter)
    for row in rows:
        for key in ("tests", "baseline", "taipan", "crashed", "timeout"):
            totals[row["scope"]][key] += row[key]
        note = " (did not import under taipan)" if row.get("module_error") else ""
        note += " (out of scope)" if row["scope"] == "out" else ""
        lines.append(
            f"| {row['module']}{note} | {row['tests']} | {row['baseline']} | {row['taipan']} | "
            f"{numba_suite.share(row['taipan'], row['baseline'])} | {row['crashed']} | "
            f"{row['timeout']} |"
        )
    for scope, label in (("in", "all in scope"), ("out", "out of scope")):
        total = totals.get(scope)
        if total:
            lines.append(
                f"| **{label}** | {total['tests']} | {total['baseline']} | {total['taipan']} | "
                f"**{numba_suite.share(total['taipan'], total['baseline'])}** | "
                f"{total['crashed']} | {total['timeout']} |"
            )
    return "\n".join(lines), totals


def render_report(rows, failures, crashes, meta, top):
    baseline_label = meta.get("baseline_label", "with numba-cuda")
    table, totals = _table(rows, baseline_label)
    in_scope = totals.get("in", Counter())
    header = [
        f"- Command: `{meta['command']}`",
        f"- Date: {meta['date']}",
        f"- numba-cuda's tests: numba-cuda {meta['numba_cuda_version']} ({meta['tests']})",
        f"- taipan: {meta['taipan']}",
        f"- Python {meta['python']}, NumPy {meta['numpy']}, {meta['machine']}",
        f"- Sides: {meta['sides']}; {'CUDA simulator' if meta['simulator'] else 'GPU'}",
        (
            f"- In scope: {in_scope['taipan']} of the {in_scope['baseline']} tests that pass "
            f"{baseline_label} pass under taipan "
            f"({numba_suite.share(in_scope['taipan'], in_scope['baseline'])})."
        ),
    ]
    scoped = [failure for failure in failures if failure[0] not in OUT_OF_SCOPE]
    out = "\n".join(f"- `{name}`: {why}" for name, why in sorted(OUT_OF_SCOPE.items()))
    parts = ["## Results", "", *header, "", table, ""]
    parts += ["## Most common failure reasons (in scope)", "", numba_suite._reasons(scoped, top)]
    parts += ["", "## Out of scope (numba-cuda's internals)", "", out, ""]
    parts += ["## Interpreter crashes", "", numba_suite._crashes(crashes), ""]
    return "\n".join(parts)


def write_report(out, files, results, meta, top):
    rows, failures = compare(results, files, meta.get("baseline_side", "numba-cuda"))
    crashes = [
        {"module": side, "mode": side, **crash}
        for side, summary in results.items()
        for crash in summary.get("crashes", [])
    ]
    report = render_report(rows, failures, crashes, meta, top)
    (out / "report.md").write_text(report)
    everything = {"meta": meta, "files": files, "rows": rows, "failures": failures}
    everything["sides"] = results
    (out / "results.json").write_text(json.dumps(everything, indent=1))
    print(report)
    log(f"written: {out / 'report.md'}, {out / 'results.json'}")


# --- main ---------------------------------------------------------------------------------


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--numba-cuda-version", default="0.30.4")
    parser.add_argument("--tests", default=None, help="a numba/cuda folder holding tests/")
    parser.add_argument(
        "--select",
        nargs="+",
        default=list(DEFAULT_SELECT),
        help="test folders or files under numba/cuda/tests (patterns allowed)",
    )
    parser.add_argument("--sides", nargs="+", default=list(SIDES), choices=SIDES)
    parser.add_argument("--simulator", action="store_true", help="NUMBA_ENABLE_CUDASIM=1")
    parser.add_argument("--jobs", type=int, default=16, help="pytest-xdist workers per side")
    parser.add_argument("--timeout", type=float, default=540, help="seconds per side")
    parser.add_argument("--test-timeout", type=float, default=120, help="seconds per test")
    parser.add_argument("--out", default=str(REPO / "build" / "numba_cuda_compat"))
    parser.add_argument("--taipan-path", default=None, help="folder to import taipan from")
    parser.add_argument("--top", type=int, default=40, help="failure reasons listed")
    parser.add_argument("--keep", action="store_true", help="keep the temporary tree")
    parser.add_argument("--report-only", action="store_true", help="report --out's results")
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the sides --out's results.json has that this run does not run (one side a "
        "command on a host that limits a command's time)",
    )
    return parser.parse_args(argv)


def main(argv=None):
    options = parse_arguments(argv)
    out = Path(options.out)
    if options.report_only:
        saved = json.loads((out / "results.json").read_text())
        write_report(out, saved["files"], saved["sides"], saved["meta"], options.top)
        return
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="numba_cuda_compat_"))
    try:
        cuda_package = (
            Path(options.tests)
            if options.tests
            else find_cuda_package(options.numba_cuda_version, workdir)
        )
        tree = workdir / "tree"
        tree.mkdir()
        support = build_tree(tree, cuda_package)
        files = select_files(cuda_package / "tests", options.select)
        taipan_path = numba_suite.taipan_location(options.taipan_path)
        described = numba_suite.describe_taipan(taipan_path)
        log(f"{len(files)} test files from {cuda_package}; taipan: {described}")
        # One build from start to end: the shared tree may be relinked during a run.
        taipan_path = libraries.snapshot_taipan(taipan_path, workdir)
        results = {}
        saved = out / "results.json"
        if options.merge and saved.exists():
            earlier = json.loads(saved.read_text())
            results = {
                name: result
                for name, result in earlier["sides"].items()
                if name not in options.sides and earlier["meta"]["simulator"] == options.simulator
            }
        for side in options.sides:  # one after the other: each uses every worker
            tests_dir = (
                tree / "numba" / "cuda" / "tests" if side == "taipan" else cuda_package / "tests"
            )
            run = SideRun(side, tests_dir, files, tree, support, options, taipan_path, logs)
            run.run()
            results[side] = run.summary()
            outcomes = Counter(r["outcome"] for r in run.results.values())
            log(f"{side:>10}: {dict(outcomes)} in {run.seconds:.0f} s")
        baseline_side = "numba-cuda" if "numba-cuda" in results else None
        meta = {
            "command": "python tools/numba_compat/cuda_suite.py " + " ".join(argv or sys.argv[1:]),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "numba_cuda_version": options.numba_cuda_version,
            "tests": str(cuda_package / "tests"),
            "taipan": described,
            "python": platform.python_version(),
            "numpy": importlib.metadata.version("numpy"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "sides": ", ".join(results),
            "simulator": options.simulator,
            "baseline_side": baseline_side,
            "baseline_label": "with numba-cuda"
            if baseline_side
            else "or fail under taipan (no baseline side)",
        }
        write_report(out, files, results, meta, options.top)
    finally:
        if options.keep:
            log(f"tree kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
