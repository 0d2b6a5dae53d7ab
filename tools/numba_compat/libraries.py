#!/usr/bin/env python3
"""Runs the test suites of real Numba libraries twice: with Numba, and with taipan standing in
for ``numba`` through the shim, and reports per package how many of the tests that pass with
Numba also pass with taipan.

    python tools/numba_compat/libraries.py                        # every package below
    python tools/numba_compat/libraries.py --packages numbagg numba-stats --jobs 1
    python tools/numba_compat/libraries.py --report-only          # the report again, no run

Each package's release source (its sdist from PyPI, which is the git tag's tree and holds the
tests) is downloaded and unpacked under ``build/numba_libraries`` and installed there with
``pip install --no-deps --target``; the test-only requirements go to a folder of their own
there too. Nothing of the packages is kept in the repository. A run copies the unpacked source,
with the installed package over it, into a temporary folder and runs its tests under pytest in
two modes:

* ``numba``: the real Numba installed in this Python.
* ``taipan``: the shim (``tools/numba_compat/shim/numba``) first on ``sys.path``, so that
  ``import numba`` gives taipan's API under Numba's names. The shim never hands back the plain
  Python function, so a test passes in this mode only if taipan compiled what it calls.

The Numba side does not change between runs of taipan: its results are kept in
``build/numba_libraries/cache`` and reused (``--rerun-numba`` runs it again). Crashes and tests
that run past ``--test-timeout`` are handled as in ``run.py``: that test fails, and the suite
goes on from the next test.
"""

import argparse
import compileall
import concurrent.futures
import dataclasses
import datetime
import importlib.metadata
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run as numba_suite  # the runner of Numba's own suite, beside this file

REPO = numba_suite.REPO
MODES = ("numba", "taipan")


@dataclasses.dataclass(frozen=True)
class Package:
    """A library on PyPI and how its test suite is run."""

    version: str
    tests: tuple  # test paths in the source tree, as its own pytest configuration gives them
    options: tuple = ()  # pytest options of its own configuration that the runs keep
    requires: tuple = ()  # test-only requirements beyond what this Python has
    why: str = ""  # what it is, for the report
    # (owner/name on GitHub, tag): what the test paths hold at the release's tag and the sdist
    # leaves out (quantecon's sdist has no quantecon/tests, antropy's no tests/utils.py) is
    # added, from a mirror of the repository (see --mirrors). The sdist's files are kept.
    git: tuple = ()


PACKAGES = {
    "resampy": Package(
        "0.4.3", ("tests",), why="audio resampling (signal)", git=("bmcfee/resampy", "0.4.3")
    ),
    "numba-stats": Package(
        "1.11.0",
        ("tests",),
        why="probability distributions (statistics)",
        git=("HDembinski/numba-stats", "v1.11.0"),
    ),
    "numbagg": Package(
        "0.9.4",
        ("numbagg",),
        options=("--doctest-modules", "--benchmark-disable"),
        requires=("pytest-benchmark", "py-cpuinfo"),
        why="moving-window and grouped aggregations (time series)",
        git=("numbagg/numbagg", "v0.9.4"),
    ),
    "quantecon": Package(
        "0.11.4",
        ("quantecon",),
        why="economics: Markov chains, games, optimize",
        git=("QuantEcon/QuantEcon.py", "v0.11.4"),
    ),
    "dcor": Package(
        "0.7",
        ("dcor",),
        options=("--doctest-modules",),
        requires=("array-api-compat", "array-api-strict", "joblib", "pytest-cov", "coverage"),
        why="distance correlation and energy statistics (statistics)",
        git=("vnmabus/dcor", "0.7"),
    ),
    # 0.1.9: its sdist leaves out tests/utils.py, which the tag has; the mirror at hand has no
    # later tag.
    "antropy": Package(
        "0.1.9",
        ("tests",),
        requires=("scikit-learn", "threadpoolctl", "joblib", "narwhals"),
        why="entropy and fractal dimensions of time series",
        git=("raphaelvallat/antropy", "v0.1.9"),
    ),
    # pytest-cases, which one of its test files imports, does not load under pytest 9: that
    # file does not import in either mode.
    "numba-celltree": Package(
        "0.4.2",
        ("tests",),
        requires=("matplotlib", "contourpy", "cycler", "fonttools", "kiwisolver", "pillow"),
        why="cell trees: spatial search on unstructured meshes (geometry)",
        git=("Deltares/numba_celltree", "0.4.2"),
    ),
}


def log(message):
    numba_suite.log(message)


def pip(*arguments):
    env = dict(os.environ, PIP_ROOT_USER_ACTION="ignore", PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([sys.executable, "-m", "pip", *arguments, "-q"], check=True, env=env)


# --- getting the packages ---------------------------------------------------------------


class Store:
    """``build/numba_libraries``: the downloads, the unpacked sources, the installed packages,
    the test-only requirements and the cached Numba results."""

    def __init__(self, root):
        self.root = Path(root)
        self.downloads = self.root / "downloads"
        self.cache = self.root / "cache"
        self.testdeps = self.root / "testdeps"
        for folder in (self.downloads, self.cache):
            folder.mkdir(parents=True, exist_ok=True)

    def sdist(self, name, package):
        """The release's source archive, downloaded once."""
        archive = self.find_sdist(name, package)
        if archive is None:
            log(f"downloading {name}=={package.version} (its sdist holds the tests)")
            pip(
                "download",
                f"{name}=={package.version}",
                "--no-deps",
                "--no-binary",
                name,  # the build requirements may come as wheels
                "-d",
                str(self.downloads),
            )
            archive = self.find_sdist(name, package)
        if archive is None:
            sys.exit(f"pip gave no sdist of {name}=={package.version} in {self.downloads}")
        return archive

    def find_sdist(self, name, package):
        wanted = f"{name}-{package.version}.tar.gz".lower().replace("-", "_")
        for candidate in self.downloads.glob("*.tar.gz"):
            if candidate.name.lower().replace("-", "_") == wanted:
                return candidate
        return None

    def source(self, name, package):
        """The unpacked release: the folder of the archive's single top-level entry."""
        archive = self.sdist(name, package)
        target = self.root / "src"
        folder = target / archive.name[: -len(".tar.gz")]
        if not folder.exists():
            target.mkdir(exist_ok=True)
            with tarfile.open(archive) as stream:
                stream.extractall(target, filter="data")
        return folder

    def installed(self, name, package):
        """The package installed (with no dependencies) into a folder of its own."""
        archive = self.sdist(name, package)
        folder = self.root / "site" / archive.name[: -len(".tar.gz")]
        if not any(folder.glob("*.dist-info")):
            log(f"installing {name}=={package.version} into {folder}")
            shutil.rmtree(folder, ignore_errors=True)
            pip("install", "--no-deps", "--no-compile", "--target", str(folder), str(archive))
        return folder

    def test_requirements(self, name, requirements):
        """Installs what a suite needs beyond this Python's packages, once, into a folder of
        the package's own (a pytest plugin among them is loaded by every session that sees
        it)."""
        folder = self.testdeps / name
        stamp = folder / ".installed"
        done = set(stamp.read_text().split()) if stamp.exists() else set()
        missing = [name for name in requirements if name not in done]
        if missing:
            log(f"installing test requirements: {' '.join(missing)}")
            pip("install", "--no-deps", "--target", str(folder), *missing)
            stamp.write_text("\n".join(sorted(done | set(missing))) + "\n")
        return folder


def build_tree(tree, source, installed, package, mirrors):
    """The folder a suite runs in: the release's source with the installed package over it
    (so generated files such as a version module are there), and the test paths from the git
    tag where the package names one."""
    shutil.copytree(source, tree, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(
        installed, tree, dirs_exist_ok=True, ignore=shutil.ignore_patterns("bin", "__pycache__")
    )
    if package.git:
        repository, tag = package.git
        mirror = Path(mirrors) / repository.replace("/", "+") / "repo"
        if not mirror.exists():
            sys.exit(
                f"no mirror of {repository} in {mirrors}: this machine reaches PyPI, not "
                f"GitHub; bring it with the fetch tool (github:{repository}) or give --mirrors"
            )
        archive = subprocess.run(
            ["git", "--git-dir", str(mirror), "archive", tag, "--", *package.tests],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(
            ["tar", "-x", "--skip-old-files", "-C", str(tree)], input=archive, check=True
        )


# --- running a suite in one mode --------------------------------------------------------


class LibraryRun(numba_suite.ModuleRun):
    """A package's suite in one mode, with ``run.py``'s handling of crashes and hangs."""

    def __init__(self, name, package, mode, tree, paths, logs, options):
        super().__init__(name, mode, tree, None, logs, options.timeout, options.test_timeout)
        self.package = package
        self.paths = paths  # sys.path entries before the tree: the shim or the plugin

    def pytest_targets(self):
        # The package's own addopts are dropped (they name coverage and cache plugins); the
        # options the suite needs are in ``Package.options``.
        return [
            "-o",
            "addopts=",
            "--rootdir",
            str(self.tree),
            "--continue-on-collection-errors",
            *self.package.options,
            *self.package.tests,
        ]

    def environment(self, outcomes, skip):
        env = super().environment(outcomes, skip)
        env["PYTHONPATH"] = os.pathsep.join(str(path) for path in self.paths)
        if self.mode == "taipan":
            env["NUMBA_SHIM_MODE"] = "taipan"
            env["NUMBA_SHIM_VERSION"] = importlib.metadata.version("numba")
        else:
            env.pop("NUMBA_SHIM_MODE", None)
        return env


def run_package(name, package, mode, store, workdir, logs, options, taipan_path):
    source = store.source(name, package)
    installed = store.installed(name, package)
    testdeps = store.test_requirements(name, package.requires) if package.requires else None
    root = Path(tempfile.mkdtemp(prefix=f"{name}.{mode}.", dir=workdir))
    tree = root / "tree"
    build_tree(tree, source, installed, package, options.mirrors)
    front = root / "front"  # the plugin, and in taipan mode the shim as ``numba``
    front.mkdir()
    shutil.copy2(numba_suite.PLUGIN, front / numba_suite.PLUGIN.name)
    if mode == "taipan":
        shutil.copytree(
            numba_suite.SHIM, front / "numba", ignore=shutil.ignore_patterns("__pycache__")
        )
    paths = [front, tree] + ([testdeps] if testdeps else [])
    if mode == "taipan" and taipan_path:
        paths.append(taipan_path)
    run = LibraryRun(name, package, mode, tree, paths, logs, options).run()
    summary = run.summary()
    summary["version"] = package.version
    return summary


def snapshot_taipan(taipan_path, workdir):
    """A copy of the taipan package that the run imports: the shared build is relinked and its
    Python files edited while a run goes on, and a suite must see one build from start to
    end. Retries while the extension does not import (a link in progress)."""
    if taipan_path is None:
        return None
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    target = workdir / "taipan_snapshot"

    def other_builds(folder, names):
        return [
            name
            for name in names
            if name == "__pycache__" or (name.startswith("_core.") and not name.endswith(suffix))
        ]

    for attempt in range(20):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(Path(taipan_path) / "taipan", target / "taipan", ignore=other_builds)
        check = subprocess.run(
            [sys.executable, "-c", "import taipan"],
            env=dict(os.environ, PYTHONPATH=str(target)),
            capture_output=True,
            text=True,
            check=False,
        )
        if check.returncode == 0:
            # Bytecode, as a pip install writes it: Numba's modules have theirs, and a machine
            # that sets PYTHONDONTWRITEBYTECODE would otherwise compile taipan's Python files
            # from source in every process (10-40 ms of each first call on the VM).
            compileall.compile_dir(str(target), quiet=1)
            return target
        log(f"taipan does not import from the snapshot (attempt {attempt + 1}), waiting")
        time.sleep(15)
    sys.exit("taipan does not import: " + check.stderr.strip().splitlines()[-1])


# --- the report -------------------------------------------------------------------------


def failure_reason(test, result, collect_errors):
    """Why a test that passes with Numba does not pass with taipan."""
    if result is None:
        for node, reason in collect_errors.items():
            if node and test.startswith(node.split("::")[0]):
                return "test file did not import: " + reason
        return "not run under taipan"
    if result["outcome"] == "skipped":
        return "skipped under taipan: " + result["reason"]
    return result["reason"] or result["outcome"]


def compare(results, names):
    rows, failures, crashes = [], [], []
    for name in names:
        numba_side, taipan_side = results[name].get("numba"), results[name].get("taipan")
        row = {"package": name, "version": PACKAGES[name].version}
        if numba_side is None or taipan_side is None:
            rows.append(row | {"tests": 0, "numba": 0, "taipan": 0, "crashed": 0, "timeout": 0})
            continue
        passing = [t for t, r in numba_side["results"].items() if r["outcome"] == "passed"]
        compiled = taipan_side["results"]
        errors = taipan_side.get("collect_error_nodes", {})
        row["tests"] = len(numba_side["tests"] or [])
        row["numba"] = len(passing)
        row["taipan"] = 0
        for test in passing:
            result = compiled.get(test)
            if result is not None and result["outcome"] == "passed":
                row["taipan"] += 1
            else:
                failures.append((name, test, failure_reason(test, result, errors)))
        outcomes = Counter(r["outcome"] for r in compiled.values())
        row["crashed"], row["timeout"] = outcomes["crashed"], outcomes["timeout"]
        row["taipan_only"] = sum(
            1
            for t, r in compiled.items()
            if r["outcome"] == "passed"
            and numba_side["results"].get(t, {}).get("outcome") != "passed"
        )
        row["numba_crashed"] = sum(
            1 for r in numba_side["results"].values() if r["outcome"] in ("crashed", "timeout")
        )
        row["seconds"] = {mode: results[name][mode]["seconds"] for mode in MODES}
        rows.append(row)
        for mode in MODES:
            for crash in results[name][mode]["crashes"]:
                crashes.append({"module": name, "mode": mode, **crash})
    return rows, failures, crashes


def table(rows):
    lines = [
        (
            "| package | tests | pass with Numba | of those, pass with taipan | share |"
            " taipan crashes | taipan hangs | pass only with taipan |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    total = Counter()
    for row in rows:
        for key in ("tests", "numba", "taipan", "crashed", "timeout", "taipan_only"):
            total[key] += row.get(key, 0)
        lines.append(
            f"| {row['package']} {row['version']} | {row['tests']} | {row['numba']} | "
            f"{row['taipan']} | {numba_suite.share(row['taipan'], row['numba'])} | "
            f"{row['crashed']} | {row['timeout']} | {row.get('taipan_only', 0)} |"
        )
    lines.append(
        f"| **all** | {total['tests']} | {total['numba']} | {total['taipan']} | "
        f"**{numba_suite.share(total['taipan'], total['numba'])}** | {total['crashed']} | "
        f"{total['timeout']} | {total['taipan_only']} |"
    )
    return "\n".join(lines)


def per_package_causes(failures, names, top):
    """Each package's most common failure reasons, one line each."""
    parts = []
    for name in names:
        groups = Counter(
            numba_suite.reason_key(reason) for package, _, reason in failures if package == name
        )
        if not groups:
            continue
        parts.append(f"- **{name}**:")
        for key, count in groups.most_common(top):
            parts.append(f"  - {count}: `{numba_suite.md_cell(key, code=True)}`")
        rest = sum(groups.values()) - sum(count for _, count in groups.most_common(top))
        if rest:
            parts.append(f"  - {rest}: {len(groups) - top} other reasons")
    return "\n".join(parts) if parts else "None."


def render_report(rows, failures, crashes, meta, names, top):
    header = [
        f"- Command: `{meta['command']}`",
        f"- Date: {meta['date']}",
        f"- Numba {meta['numba_version']}; taipan: {meta['taipan']}",
        f"- Python {meta['python']}, NumPy {meta['numpy']}, {meta['machine']}",
        f"- Measured: {meta['measured']}",
    ]
    parts = ["## Results", "", *header, "", table(rows), ""]
    parts += ["## Most common failure reasons, all packages", ""]
    parts += [numba_suite._reasons(failures, top), ""]
    parts += ["## Failure reasons per package", "", per_package_causes(failures, names, 8), ""]
    parts += ["## Interpreter crashes", "", numba_suite._crashes(crashes), ""]
    return "\n".join(parts)


def write_report(out, names, results, meta, top):
    rows, failures, crashes = compare(results, names)
    report = render_report(rows, failures, crashes, meta, names, top)
    (out / "report.md").write_text(report)
    everything = {"meta": meta, "rows": rows, "failures": failures, "crashes": crashes}
    everything["packages"] = results
    (out / "results.json").write_text(json.dumps(everything, indent=1))
    print(report)
    log(f"written: {out / 'report.md'}, {out / 'results.json'}")


# --- main -------------------------------------------------------------------------------


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--packages", nargs="+", default=list(PACKAGES), choices=list(PACKAGES), metavar="NAME"
    )
    parser.add_argument("--jobs", type=int, default=1, help="suites run at once (default 1)")
    parser.add_argument(
        "--timeout", type=float, default=2400, help="seconds per package and mode (default 2400)"
    )
    parser.add_argument(
        "--test-timeout", type=float, default=300, help="seconds per test (default 300)"
    )
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    parser.add_argument(
        "--rerun-numba", action="store_true", help="run the Numba side again, not from the cache"
    )
    parser.add_argument("--store", default=str(REPO / "build" / "numba_libraries"))
    parser.add_argument("--out", default=None, help="default: --store's folder")
    parser.add_argument("--taipan-path", default=None, help="folder to import taipan from")
    parser.add_argument(
        "--mirrors",
        default="/work/.mirror",
        help="folder of git mirrors (OWNER+NAME/repo) for packages whose tests come from a tag",
    )
    parser.add_argument("--top", type=int, default=30, help="failure reasons listed")
    parser.add_argument(
        "--report-only", action="store_true", help="write the report again from results.json"
    )
    return parser.parse_args(argv)


def saved_path(store, name, mode):
    return store.cache / f"{name}-{PACKAGES[name].version}.{mode}.json"


def load_saved(store, name, mode):
    """A mode's last results for a package (the Numba side only for the installed Numba)."""
    path = saved_path(store, name, mode)
    if not path.exists():
        return None
    saved = json.loads(path.read_text())
    if mode == "numba" and saved.get("numba_version") != importlib.metadata.version("numba"):
        return None
    return saved


def main(argv=None):
    options = parse_arguments(argv)
    store = Store(options.store)
    out = Path(options.out or options.store)
    out.mkdir(parents=True, exist_ok=True)
    if options.report_only:
        saved = json.loads((out / "results.json").read_text())
        names = [row["package"] for row in saved["rows"]]
        write_report(out, names, saved["packages"], saved["meta"], options.top)
        return
    logs = out / "logs"
    logs.mkdir(exist_ok=True)
    names = options.packages
    taipan_path = numba_suite.taipan_location(options.taipan_path)
    log(f"packages: {' '.join(names)}; taipan: {numba_suite.describe_taipan(taipan_path)}")
    # The Numba side is run only when no results of this Numba are kept (or --rerun-numba);
    # a mode left out of --modes is taken from its last run.
    results = defaultdict(dict)
    measured = defaultdict(dict)
    jobs = []
    for name in names:
        for mode in MODES:
            rerun = mode == "taipan" or options.rerun_numba
            saved = None if rerun and mode in options.modes else load_saved(store, name, mode)
            if saved is not None:
                results[name][mode] = saved["summary"]
                measured[name][mode] = saved["date"]
            elif mode in options.modes:
                jobs.append((name, mode))
    lock = threading.Lock()
    workdir = Path(tempfile.mkdtemp(prefix="numba_libraries_"))
    described = numba_suite.describe_taipan(taipan_path)
    if any(mode == "taipan" for _, mode in jobs):
        taipan_path = snapshot_taipan(taipan_path, workdir)

    def one(name, mode):
        package = PACKAGES[name]
        summary = run_package(name, package, mode, store, workdir, logs, options, taipan_path)
        with lock:
            results[name][mode] = summary
            now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            measured[name][mode] = now
            outcomes = Counter(r["outcome"] for r in summary["results"].values())
            crashes = f", {len(summary['crashes'])} crashes" if summary["crashes"] else ""
            log(f"{name:>16} {mode:>6}: {dict(outcomes)} in {summary['seconds']:.0f} s{crashes}")
            if summary["tests"] is not None:  # kept only when pytest got as far as its tests
                record = {
                    "numba_version": importlib.metadata.version("numba"),
                    "taipan": described,
                    "date": now,
                    "summary": summary,
                }
                saved_path(store, name, mode).write_text(json.dumps(record))

    try:
        # Sources and installs first, in this thread (pip is not run twice at once).
        for name in names:
            store.source(name, PACKAGES[name])
            store.installed(name, PACKAGES[name])
        with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
            for future in [pool.submit(one, name, mode) for name, mode in jobs]:
                future.result()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    meta = {
        "command": "python tools/numba_compat/libraries.py " + " ".join(argv or sys.argv[1:]),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "numba_version": importlib.metadata.version("numba"),
        "measured": "; ".join(
            f"{name}: " + ", ".join(f"{mode} {date}" for mode, date in measured[name].items())
            for name in names
        ),
        "taipan": described,
        "python": platform.python_version(),
        "numpy": importlib.metadata.version("numpy"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
    }
    write_report(out, names, {name: results[name] for name in names}, meta, options.top)


if __name__ == "__main__":
    main()
