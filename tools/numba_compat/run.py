#!/usr/bin/env python3
"""Runs Numba's own test suite on taipan through the ``numba`` shim, and reports per module how
many of the tests that pass as plain Python also pass under taipan.

    python tools/numba_compat/run.py                      # the "rest of the language" modules
    python tools/numba_compat/run.py --modules lists dicts --jobs 2 --timeout 600
    python tools/numba_compat/run.py --context            # also array_*, ufuncs, mathlib...

Numba's test modules come from the installed numba package when it has ``numba/tests`` (its
wheel does), else from ``pip download numba==VERSION --no-deps``. They are copied, with the shim
(``tools/numba_compat/shim/numba``), into a temporary folder that is put first on ``sys.path``;
nothing of Numba's is kept in the repository. Every module runs under pytest in two modes, in
subprocesses:

* ``python``: ``jit``/``njit`` return the function itself, so the tests run as plain Python. The
  tests that pass this way are the denominator: the others test Numba's internals or Numba's
  error messages, which taipan need not match.
* ``taipan``: the shim compiles with taipan.

A crash of the interpreter (a segfault: a bug to report) or a test that runs over
``--test-timeout`` fails that test only: the module is run again from the next test. Results go
to ``--out`` (default ``build/numba_compat``): ``results.json`` with every test's outcome and
``report.md`` with the per-module table, the most common failure reasons and the crashes. This
takes tens of minutes and is not part of CI.
"""

import argparse
import concurrent.futures
import datetime
import fnmatch
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SHIM = HERE / "shim" / "numba"
PLUGIN = HERE / "outcomes_plugin.py"

# The modules of "the rest of the language", and the current strengths (for context).
LANGUAGE_MODULES = [
    "lists",
    "dicts",
    "sets",
    "unicode",
    "comprehension",
    "generators",
    "exceptions",
    "try_except",
    "closure",
    "optional",
    "tuples",
    "iteration",
    "builtins",
    "operators",
    "record_dtype",
    "heapq",
    "looplifting",
]
CONTEXT_MODULES = ["array_*", "ufuncs", "mathlib", "np_functions"]
MODES = ("python", "taipan")
MAX_RESTARTS = 25
CRASH_NOISE = ("/_pytest/", "/pluggy/", "/unittest/", "<frozen runpy>", "/pytest/__main__")


def log(message):
    print(message, file=sys.stderr, flush=True)


# --- Numba's tests ------------------------------------------------------------------------


def installed_numba_version():
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return None


def find_numba_tests(version, workdir):
    """The ``numba/tests`` folder of Numba ``version``: the installed package's, or one
    unpacked from the wheel that pip downloads."""
    spec = importlib.util.find_spec("numba")  # finds without importing
    if (
        spec is not None
        and spec.submodule_search_locations
        and installed_numba_version() == version
    ):
        tests = Path(next(iter(spec.submodule_search_locations))) / "tests"
        if (tests / "support.py").exists():
            return tests
    download = workdir / "wheel"
    log(f"downloading numba=={version} (its wheel contains numba/tests)")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", f"numba=={version}", "--no-deps"]
        + ["--only-binary=:all:", "-q", "-d", str(download)],
        check=True,
    )
    wheel = next(download.glob("numba-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        members = [name for name in archive.namelist() if name.startswith("numba/tests/")]
        archive.extractall(download / "unpacked", members)
    return download / "unpacked" / "numba" / "tests"


def select_modules(tests_dir, patterns):
    """``test_<name>.py`` files matching the patterns (``lists``, ``array_*``), in order."""
    available = sorted(path.stem[len("test_") :] for path in tests_dir.glob("test_*.py"))
    chosen = []
    for pattern in patterns:
        matches = [name for name in available if fnmatch.fnmatchcase(name, pattern)]
        if not matches:
            log(f"warning: no Numba test module matches {pattern!r}")
        chosen += [name for name in matches if name not in chosen]
    return chosen


def build_tree(tree, tests_dir, modules):
    """The folder put first on ``sys.path``: the shim as ``numba``, Numba's test-support files
    (everything in ``numba/tests`` that is not a test module) and the chosen test modules."""
    shutil.copytree(SHIM, tree / "numba", ignore=shutil.ignore_patterns("__pycache__"))
    target = tree / "numba" / "tests"
    target.mkdir()
    for path in tests_dir.glob("*.py"):
        if not path.name.startswith("test_") or path.stem[len("test_") :] in modules:
            shutil.copy2(path, target / path.name)
    shutil.copy2(PLUGIN, tree / PLUGIN.name)
    (tree / "pytest.ini").write_text("[pytest]\n")  # keeps pytest off the repository's settings


# --- running one module in one mode ------------------------------------------------------


class ModuleRun:
    """Runs ``test_<module>.py`` in one mode, restarting after crashes and per-test timeouts."""

    def __init__(self, module, mode, tree, taipan_path, logs, timeout, test_timeout):
        self.module, self.mode, self.tree = module, mode, tree
        self.taipan_path, self.logs = taipan_path, logs
        self.timeout, self.test_timeout = timeout, test_timeout
        self.results = {}  # test id -> {"outcome", "reason"}
        self.tests = None  # every collected test id
        self.collect_errors = []
        self.collect_error_nodes = {}  # the file or test pytest could not collect -> reason
        self.crashes = []  # {"test", "signal", "log"}
        self.notes = []
        self.runs = 0
        self.seconds = 0.0

    def environment(self, outcomes, skip):
        env = dict(os.environ)
        paths = [str(self.tree)] + ([str(self.taipan_path)] if self.taipan_path else [])
        env.update(
            PYTHONPATH=os.pathsep.join(paths),
            NUMBA_SHIM_MODE=self.mode,
            NUMBA_COMPAT_OUTCOMES=str(outcomes),
            NUMBA_COMPAT_SKIP=str(skip),
            PYTHONUNBUFFERED="1",  # the log keeps what was printed before a crash
            OMP_NUM_THREADS="1",
            OPENBLAS_NUM_THREADS="1",
            MKL_NUM_THREADS="1",
        )
        return env

    def pytest_command(self):
        """pytest and the runner's own options (one process: xdist off)."""
        command = [sys.executable, "-m", "pytest", "-p", "outcomes_plugin"]
        command += ["-p", "no:cacheprovider", "-p", "no:warnings", "-p", "no:xdist"]
        # --capture=sys: file descriptor 2 stays the log, so faulthandler's report of a crash
        # (pytest enables it) is not lost in a capture file.
        command += ["-q", "--no-header", "-rN", "--capture=sys"]
        return command

    def pytest_targets(self):
        """What pytest is given after the runner's own options: the module's test file."""
        return [f"numba/tests/test_{self.module}.py"]

    def run(self):
        stem = f"{self.module}.{self.mode}"
        outcomes, skip, log_path = (
            self.logs / f"{stem}.jsonl",
            self.logs / f"{stem}.skip",
            self.logs / f"{stem}.log",
        )
        for path in (outcomes, skip, log_path):
            path.unlink(missing_ok=True)
        start = time.monotonic()
        deadline = start + self.timeout
        command = self.pytest_command() + self.pytest_targets()
        while True:
            self.runs += 1
            finished_before = len(self.results)
            skip.write_text("".join(f"{test}\n" for test in self.results))
            offset = outcomes.stat().st_size if outcomes.exists() else 0
            with open(log_path, "ab") as log_stream:
                process = subprocess.Popen(
                    command,
                    cwd=self.tree,
                    env=self.environment(outcomes, skip),
                    stdout=log_stream,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
                killed = self.watch(process, outcomes, offset, deadline)
            records = read_records(outcomes, offset)
            running, done = self.absorb(records)
            if done and not killed:
                if process.returncode < 0:
                    self.note_crash(None, process.returncode, log_path, "at interpreter exit")
                break
            if killed == "module timeout":
                if running:
                    self.results[running] = {"outcome": "timeout", "reason": "module timeout"}
                self.mark_rest("not run", f"module timeout ({self.timeout:.0f} s)")
                break
            if killed == "test timeout":
                reason = f"test timeout ({self.test_timeout:.0f} s)"
                self.results[running] = {"outcome": "timeout", "reason": reason}
            elif running is not None:
                self.note_crash(running, process.returncode, log_path, "")
            else:
                # Died with no test running: while importing the module, or between tests (in a
                # class's teardown, say). Runs again only if this run got something done.
                where = "before any test" if self.tests is None else "between tests"
                self.note_crash(None, process.returncode, log_path, where)
                if self.tests is None or len(self.results) == finished_before:
                    self.mark_rest("not run", f"interpreter died {where}")
                    break
            if self.tests is not None and not set(self.tests) - set(self.results):
                break
            if self.runs > MAX_RESTARTS:
                self.mark_rest("not run", f"more than {MAX_RESTARTS} restarts")
                break
        self.seconds = time.monotonic() - start
        return self

    def watch(self, process, outcomes, offset, deadline):
        """Waits for the process; kills it (and says why) past the module's deadline or when one
        test runs longer than the per-test limit."""
        running_since = None
        while True:
            try:
                process.wait(timeout=0.5)
                return None
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            last = last_event(outcomes, offset)
            if last is not None and last.get("event") == "start":
                if running_since is None or running_since[0] != last["test"]:
                    running_since = (last["test"], now)
            else:
                running_since = None
            why = None
            if now > deadline:
                why = "module timeout"
            elif running_since and now - running_since[1] > self.test_timeout:
                why = "test timeout"
            if why:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
                return why

    def absorb(self, records):
        """Takes a run's records in; returns (the test that was running at the end, whether the
        session finished)."""
        running, done = None, False
        for record in records:
            event = record["event"]
            if event == "collected":
                if self.tests is None:
                    self.tests = record["tests"]
            elif event == "collect_error":
                self.collect_errors.append(record["reason"])
                self.collect_error_nodes[record.get("node", "")] = record["reason"]
            elif event == "start":
                running = record["test"]
            elif event == "finish":
                self.results[record["test"]] = {
                    "outcome": record["outcome"],
                    "reason": record["reason"],
                }
                running = None
            elif event == "done":
                done = True
        return running, done

    def note_crash(self, test, returncode, log_path, where):
        name = signal_name(returncode)
        lines = log_path.read_text(errors="replace").splitlines() if log_path.exists() else []
        fatal = [index for index, line in enumerate(lines) if "Fatal Python error" in line]
        if fatal:
            # faulthandler's report: the innermost frames, less pytest's and unittest's.
            first = lines[fatal[-1]]
            excerpt = [first[first.index("Fatal Python error") :]] + [
                line
                for line in lines[fatal[-1] + 1 : fatal[-1] + 40]
                if line.strip()
                and not any(noise in line for noise in CRASH_NOISE)
                and not line.startswith("Extension modules")
            ][:10]
        else:
            excerpt = lines[-10:]
        self.crashes.append({"test": test, "signal": name, "where": where, "log": excerpt})
        if test is not None:
            self.results[test] = {"outcome": "crashed", "reason": f"interpreter crash ({name})"}

    def mark_rest(self, outcome, reason):
        for test in self.tests or []:
            self.results.setdefault(test, {"outcome": outcome, "reason": reason})
        if self.tests is None:
            self.notes.append(reason)

    def summary(self):
        return {
            "tests": self.tests,
            "results": self.results,
            "collect_errors": self.collect_errors,
            "collect_error_nodes": self.collect_error_nodes,
            "crashes": self.crashes,
            "notes": self.notes,
            "runs": self.runs,
            "seconds": round(self.seconds, 1),
        }


def read_records(path, offset):
    if not path.exists():
        return []
    with open(path, encoding="utf-8", errors="replace") as stream:
        stream.seek(offset)
        records = []
        for line in stream:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pass  # a line cut short by a crash
        return records


def last_event(path, offset):
    """The last complete record of the run that started at ``offset``."""
    try:
        with open(path, "rb") as stream:
            size = stream.seek(0, os.SEEK_END)
            stream.seek(max(offset, size - 8192))
            lines = stream.read().splitlines()
    except FileNotFoundError:
        return None
    for line in reversed(lines):
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            continue
    return None


def signal_name(returncode):
    if returncode is not None and returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return f"exit status {returncode}"


# --- the report --------------------------------------------------------------------------


def reason_key(reason):
    """Groups failure messages: quoted names and numbers are left out."""
    key = re.sub(r"^(\w+: cannot compile) \w+:", r"\1 …:", reason)  # taipan names the function
    key = re.sub(r"argument (\d+) \(\w+\)", r"argument \1 (…)", key)
    key = re.sub(r"'[^']*'", "'…'", key)
    key = re.sub(r'"[^"]*"', '"…"', key)
    key = re.sub(r"(?<![\w.])[-+]?\d+(\.\d+)?(e[-+]?\d+)?j?\b", "N", key)
    key = re.sub(r"0x[0-9a-f]+", "0x…", key)
    return key[:200]


def compare(results, modules):
    """Per module: the tests that pass in plain Python, and which of them pass under taipan,
    with the reasons of those that do not."""
    rows, failures, crashes = [], [], []
    for module in modules:
        plain = results[module].get("python")
        compiled = results[module].get("taipan")
        row = {"module": module, "tests": 0, "plain": 0, "taipan": 0, "crashed": 0, "timeout": 0}
        if plain is None or compiled is None:
            rows.append(row)
            continue
        row["tests"] = len(plain["tests"] or compiled["tests"] or [])
        passing = [t for t, r in plain["results"].items() if r["outcome"] == "passed"]
        row["plain"] = len(passing)
        module_error = None
        if compiled["collect_errors"] or not compiled["tests"]:
            module_error = "module did not import: " + (
                compiled["collect_errors"][0] if compiled["collect_errors"] else "no tests"
            )
        for test in passing:
            result = compiled["results"].get(test)
            if result is None:
                reason = module_error or "not run under taipan"
            elif result["outcome"] == "passed":
                row["taipan"] += 1
                continue
            elif result["outcome"] == "skipped":
                reason = "skipped under taipan: " + result["reason"]
            else:
                reason = result["reason"] or result["outcome"]
            failures.append((module, test, reason))
        # Crashes and timeouts of any test (crashes are bugs whatever plain Python does).
        outcomes = Counter(r["outcome"] for r in compiled["results"].values())
        row["crashed"], row["timeout"] = outcomes["crashed"], outcomes["timeout"]
        row["taipan_only"] = sum(
            1
            for t, r in compiled["results"].items()
            if r["outcome"] == "passed" and plain["results"].get(t, {}).get("outcome") != "passed"
        )
        row["module_error"] = module_error
        rows.append(row)
        for mode in MODES:
            for crash in results[module][mode]["crashes"]:
                crashes.append({"module": module, "mode": mode, **crash})
    return rows, failures, crashes


def share(passed, total):
    return f"{100.0 * passed / total:.1f}%" if total else "–"


def _table(rows):
    """The per-module table, with a total row for each kind of module present."""
    lines = [
        (
            "| module | tests | pass as plain Python | of those, pass under taipan | share |"
            " taipan crashes | taipan timeouts |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    totals = defaultdict(Counter)
    for row in rows:
        kind = "language" if row["module"] in LANGUAGE_MODULES else "context"
        for key in ("tests", "plain", "taipan", "crashed", "timeout"):
            totals[kind][key] += row[key]
        note = ""
        if row.get("module_error"):
            note = " (does not import)" if not row["plain"] else " (does not import under taipan)"
        lines.append(
            f"| {row['module']}{note} | {row['tests']} | {row['plain']} | {row['taipan']} | "
            f"{share(row['taipan'], row['plain'])} | {row['crashed']} | {row['timeout']} |"
        )
    labels = {"language": "all language modules", "context": "all context modules"}
    if len(totals) == 1:
        labels = {kind: "all" for kind in totals}
    for kind in ("language", "context"):
        if kind in totals:
            total = totals[kind]
            lines.append(
                f"| **{labels[kind]}** | {total['tests']} | {total['plain']} | "
                f"{total['taipan']} | **{share(total['taipan'], total['plain'])}** | "
                f"{total['crashed']} | {total['timeout']} |"
            )
    return "\n".join(lines), totals


def _reasons(failures, top):
    """The failure reasons of the tests that pass as plain Python, most common first."""
    groups = defaultdict(list)
    for module, test, reason in failures:
        groups[reason_key(reason)].append((module, test, reason))
    ranked = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    lines = [
        (
            "| tests | reason (first line of the exception; quoted names and numbers left out) |"
            " most common '…' | modules | e.g. |"
        ),
        "| ---: | --- | --- | --- | --- |",
    ]
    for key, members in ranked[:top]:
        modules = Counter(module for module, _, _ in members)
        spread = ", ".join(f"{name} {count}" for name, count in modules.most_common(4))
        quoted = Counter(
            name for _, _, reason in members for name in re.findall(r"'([^']{1,40})'", reason)
        )
        names = ", ".join(f"{name} {count}" for name, count in quoted.most_common(5))
        example = members[0][1].split("::", 1)[-1]
        lines.append(
            f"| {len(members)} | {md_cell(key)} | {md_cell(names)} | {spread} | "
            f"`{md_cell(example, code=True)}` |"
        )
    if len(ranked) > top:
        rest = sum(len(members) for _, members in ranked[top:])
        lines.append(f"| {rest} | ({len(ranked) - top} other reasons) | | | |")
    return "\n".join(lines)


def _crashes(crashes):
    lines = []
    for crash in crashes:
        where = crash["test"] or f"({crash['where']})"
        lines.append(f"- {crash['mode']} mode, `{crash['module']}`: `{where}`: {crash['signal']}")
        if crash["log"]:
            lines += ["", "  ```", *(f"  {line}" for line in crash["log"]), "  ```"]
    return "\n".join(lines) if lines else "None."


def render_report(rows, failures, crashes, meta, top):
    table, totals = _table(rows)
    language = [failure for failure in failures if failure[0] in LANGUAGE_MODULES]
    context = [failure for failure in failures if failure[0] not in LANGUAGE_MODULES]
    main = totals.get("language") or totals.get("context") or Counter()
    header = [
        f"- Command: `{meta['command']}`",
        f"- Date: {meta['date']}",
        f"- Numba's tests: numba {meta['numba_version']} ({meta['numba_tests']})",
        f"- taipan: {meta['taipan']}",
        f"- Python {meta['python']}, NumPy {meta['numpy']}, {meta['machine']}",
        (
            f"- Overall{' (language modules)' if 'language' in totals else ''}: "
            f"{main['taipan']} of the {main['plain']} tests that pass as plain Python pass "
            f"under taipan ({share(main['taipan'], main['plain'])})."
        ),
    ]
    parts = ["## Results", "", *header, "", table, ""]
    if language:
        parts += ["## Most common failure reasons (language modules)", "", _reasons(language, top)]
        parts.append("")
    if context:
        parts += ["## Most common failure reasons (context modules)", "", _reasons(context, top)]
        parts.append("")
    parts += ["## Interpreter crashes", "", _crashes(crashes), ""]
    return "\n".join(parts)


def md_cell(text, code=False):
    text = text.replace("|", "\\|").replace("\n", " ")
    return text.replace("`", "'") if code else text


# --- main --------------------------------------------------------------------------------


def taipan_location(option):
    """The folder to put on ``sys.path`` for taipan: given, or the repository's ``src`` when it
    holds a built extension, or none (the installed taipan)."""
    if option:
        return Path(option).resolve()
    source = REPO / "src"
    if list((source / "taipan").glob("_core*.so")):
        return source
    return None


def describe_taipan(path):
    if path is None:
        spec = importlib.util.find_spec("taipan")
        return f"installed package ({spec.origin if spec else 'not found'})"
    try:
        commit = subprocess.run(
            ["git", "-C", str(path), "log", "-1", "--format=%h %cs"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown commit"
    return f"{path} (commit {commit})"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--modules",
        nargs="+",
        default=None,
        help="Numba test modules without 'test_' (patterns allowed); default: the language ones",
    )
    parser.add_argument("--context", action="store_true", help="also " + ", ".join(CONTEXT_MODULES))
    parser.add_argument("--jobs", type=int, default=2, help="modules run at once (default 2)")
    parser.add_argument(
        "--timeout", type=float, default=900, help="seconds per module and mode (default 900)"
    )
    parser.add_argument(
        "--test-timeout", type=float, default=120, help="seconds per test (default 120)"
    )
    parser.add_argument("--out", default=str(REPO / "build" / "numba_compat"))
    parser.add_argument("--numba-version", default=None, help="default: the installed numba's")
    parser.add_argument("--numba-tests", default=None, help="a numba/tests folder to use")
    parser.add_argument("--taipan-path", default=None, help="folder to import taipan from")
    parser.add_argument("--top", type=int, default=30, help="failure reasons listed")
    parser.add_argument("--keep", action="store_true", help="keep the temporary test tree")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="write the report again from --out's results.json, running nothing",
    )
    return parser.parse_args(argv)


def write_report(out, modules, results, meta, top):
    rows, failures, crashes = compare(results, modules)
    report = render_report(rows, failures, crashes, meta, top)
    (out / "report.md").write_text(report)
    everything = {"meta": meta, "rows": rows, "failures": failures, "crashes": crashes}
    everything["modules"] = results
    (out / "results.json").write_text(json.dumps(everything, indent=1))
    print(report)
    log(f"written: {out / 'report.md'}, {out / 'results.json'}")


def main(argv=None):
    options = parse_arguments(argv)
    if options.report_only:
        out = Path(options.out)
        saved = json.loads((out / "results.json").read_text())
        modules = [row["module"] for row in saved["rows"]]
        write_report(out, modules, saved["modules"], saved["meta"], options.top)
        return
    version = options.numba_version or installed_numba_version()
    if version is None and options.numba_tests is None:
        sys.exit("numba is not installed: give --numba-version (or --numba-tests)")
    out = Path(options.out)
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="numba_compat_"))
    try:
        tests_dir = (
            Path(options.numba_tests) if options.numba_tests else find_numba_tests(version, workdir)
        )
        patterns = list(options.modules or LANGUAGE_MODULES)
        if options.context:
            patterns += CONTEXT_MODULES
        modules = select_modules(tests_dir, patterns)
        tree = workdir / "tree"
        tree.mkdir()
        build_tree(tree, tests_dir, modules)
        taipan_path = taipan_location(options.taipan_path)
        log(f"{len(modules)} modules from {tests_dir}; taipan: {describe_taipan(taipan_path)}")

        results = defaultdict(dict)
        lock = threading.Lock()

        def one(module, mode):
            run = ModuleRun(
                module, mode, tree, taipan_path, logs, options.timeout, options.test_timeout
            ).run()
            with lock:
                results[module][mode] = run.summary()
                outcomes = Counter(r["outcome"] for r in run.results.values())
                crashes = f", {len(run.crashes)} crashes" if run.crashes else ""
                log(f"{module:>16} {mode:>6}: {dict(outcomes)} in {run.seconds:.0f} s{crashes}")

        # The taipan runs take longer: start them first.
        jobs = [(module, mode) for mode in reversed(MODES) for module in modules]
        with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
            for future in [pool.submit(one, module, mode) for module, mode in jobs]:
                future.result()

        meta = {
            "command": "python tools/numba_compat/run.py " + " ".join(argv or sys.argv[1:]),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "numba_version": version,
            "numba_tests": "the installed package's numba/tests"
            if options.numba_tests is None and "wheel" not in str(tests_dir)
            else str(tests_dir),
            "taipan": describe_taipan(taipan_path),
            "python": platform.python_version(),
            "numpy": importlib.metadata.version("numpy"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        }
        write_report(
            out, modules, {module: results[module] for module in modules}, meta, options.top
        )
    finally:
        if options.keep:
            log(f"test tree kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
