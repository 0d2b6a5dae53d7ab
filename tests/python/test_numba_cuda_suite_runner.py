"""tools/numba_compat/cuda_suite.py (numba-cuda's test suite on taipan; run by hand on the GPU
host, not by CI): how it counts and how it starts each side. The denominator is the tests that
pass with numba-cuda (or, without a baseline side, those that ran under taipan); a test that
passes only under taipan is not counted; a module that did not import is named as the reason;
out-of-scope modules are totalled apart. The baseline side never sees the shim, the taipan side
finds it first, and xdist is on for both."""

import importlib.util
import pathlib
import sys
import types

import pytest

TOOLS = pathlib.Path(__file__).resolve().parents[2] / "tools" / "numba_compat"


@pytest.fixture(scope="module")
def suite():
    """The runner, loaded from its file (it imports ``run.py`` and ``libraries.py`` beside it),
    taken out of ``sys.modules`` and ``sys.path`` again afterwards."""
    saved_path = list(sys.path)
    try:
        spec = importlib.util.spec_from_file_location("cuda_suite", TOOLS / "cuda_suite.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path[:] = saved_path
        sys.modules.pop("run", None)
        sys.modules.pop("libraries", None)


def summary(results, collect_error_nodes=None):
    return {
        "tests": list(results),
        "results": {
            test: {"outcome": outcome, "reason": reason}
            for test, (outcome, reason) in results.items()
        },
        "collect_errors": list((collect_error_nodes or {}).values()),
        "collect_error_nodes": collect_error_nodes or {},
        "crashes": [],
        "seconds": 1.0,
    }


A, B, OUT = "cudapy/test_a.py", "cudadrv/test_b.py", "cudapy/test_ir.py"


def test_counts_against_the_tests_that_pass_with_numba_cuda(suite):
    baseline = summary(
        {
            f"{A}::T::a": ("passed", ""),
            f"{A}::T::b": ("passed", ""),
            f"{A}::T::c": ("failed", "AssertionError: x"),
            f"{A}::T::d": ("passed", ""),
            f"{A}::T::e": ("skipped", "needs cc 9.0"),
            f"{B}::T::f": ("passed", ""),
            f"{OUT}::T::g": ("passed", ""),
        }
    )
    taipan = summary(
        {
            f"{A}::T::a": ("passed", ""),
            f"{A}::T::b": ("failed", "TypingError: no implementation of cuda.x"),
            f"{A}::T::c": ("passed", ""),  # passes only under taipan: not counted
            f"{A}::T::d": ("crashed", "worker 'gw1' crashed while running"),
            f"{A}::T::e": ("passed", ""),
            f"{OUT}::T::g": ("failed", "ShimUnsupported: numba.cuda.core.ir"),
        },
        collect_error_nodes={B: "ImportError: cannot import name 'x'"},
    )
    rows, failures = suite.compare({"numba-cuda": baseline, "taipan": taipan}, [A, B, OUT])
    by_module = {row["module"]: row for row in rows}
    assert (by_module[A]["tests"], by_module[A]["baseline"], by_module[A]["taipan"]) == (5, 3, 1)
    assert by_module[A]["crashed"] == 1
    assert (by_module[B]["baseline"], by_module[B]["taipan"]) == (1, 0)
    assert by_module[OUT]["scope"] == "out" and by_module[A]["scope"] == "in"
    reasons = {test: reason for _, test, reason in failures}
    assert reasons == {
        f"{A}::T::b": "TypingError: no implementation of cuda.x",
        f"{A}::T::d": "worker 'gw1' crashed while running",
        f"{B}::T::f": "module did not import: ImportError: cannot import name 'x'",
        f"{OUT}::T::g": "ShimUnsupported: numba.cuda.core.ir",
    }
    table, totals = suite._table(rows, "with numba-cuda")
    assert totals["in"]["baseline"] == 4 and totals["in"]["taipan"] == 1
    assert totals["out"]["baseline"] == 1 and totals["out"]["taipan"] == 0
    assert "| **all in scope** | 6 | 4 | 1 | **25.0%** | 1 | 0 |" in table
    assert f"| {OUT} (out of scope) | 1 | 1 | 0 | 0.0% | 0 | 0 |" in table


def test_a_class_out_of_scope_is_a_row_of_its_own(suite, monkeypatch):
    monkeypatch.setitem(suite.OUT_OF_SCOPE, f"{A}::Internals", "an internal class")
    results = {
        f"{A}::T::a": ("passed", ""),
        f"{A}::Internals::b": ("passed", ""),
        f"{A}::Internals::c": ("passed", ""),
    }
    baseline = summary(results)
    taipan = summary({**results, f"{A}::Internals::c": ("failed", "ShimUnsupported: x")})
    rows, failures = suite.compare({"numba-cuda": baseline, "taipan": taipan}, [A])
    by_module = {row["module"]: row for row in rows}
    assert (by_module[A]["baseline"], by_module[A]["taipan"], by_module[A]["scope"]) == (1, 1, "in")
    internals = by_module[f"{A}::Internals"]
    assert (internals["baseline"], internals["taipan"], internals["scope"]) == (2, 1, "out")
    assert failures == [(f"{A}::Internals", f"{A}::Internals::c", "ShimUnsupported: x")]


def test_without_a_baseline_the_tests_that_ran_are_the_denominator(suite):
    taipan = summary(
        {
            f"{A}::T::a": ("passed", ""),
            f"{A}::T::b": ("failed", "TypingError: x"),
            f"{A}::T::c": ("skipped", "Libdevice functions are not supported on cudasim"),
            f"{A}::T::d": ("timeout", "test timeout"),
        }
    )
    rows, failures = suite.compare({"taipan": taipan}, [A], baseline_side=None)
    row = rows[0]
    assert (row["tests"], row["baseline"], row["taipan"], row["skipped"]) == (4, 3, 1, 1)
    assert row["timeout"] == 1
    assert [test for _, test, _ in failures] == [f"{A}::T::b", f"{A}::T::d"]


def test_selects_folders_files_and_patterns(suite, tmp_path):
    for name in ("cudapy/test_a.py", "cudapy/test_b.py", "cudadrv/test_c.py", "nrt/test_d.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "cudapy" / "support.py").write_text("")
    assert suite.select_files(tmp_path, ["cudapy"]) == ["cudapy/test_a.py", "cudapy/test_b.py"]
    assert suite.select_files(tmp_path, ["cudadrv/test_c.py", "nrt"]) == [
        "cudadrv/test_c.py",
        "nrt/test_d.py",
    ]
    assert suite.select_files(tmp_path, ["cudapy/test_b*"]) == ["cudapy/test_b.py"]


def side(suite, tmp_path, name, simulator):
    options = types.SimpleNamespace(timeout=60.0, test_timeout=30.0, jobs=16, simulator=simulator)
    tree, support = tmp_path / "tree", tmp_path / "support"
    return suite.SideRun(
        name, tmp_path / "tests", ["cudapy/test_a.py"], tree, support, options, None, tmp_path
    )


@pytest.mark.parametrize("simulator", [False, True])
def test_each_side_is_started_as_it_must_be(suite, tmp_path, monkeypatch, simulator):
    monkeypatch.setenv("TAIPAN_ENABLE_CUDASIM", "1")  # never inherited: --simulator decides
    baseline = side(suite, tmp_path, "numba-cuda", simulator)
    ours = side(suite, tmp_path, "taipan", simulator)
    base_env = baseline.environment(tmp_path / "o", tmp_path / "s")
    our_env = ours.environment(tmp_path / "o", tmp_path / "s")
    assert str(tmp_path / "tree") not in base_env["PYTHONPATH"].split(":")
    assert our_env["PYTHONPATH"].split(":")[:2] == [
        str(tmp_path / "tree"),
        str(tmp_path / "support"),
    ]
    for env in (base_env, our_env):
        assert env.get("NUMBA_ENABLE_CUDASIM") == ("1" if simulator else None)
        assert "TAIPAN_ENABLE_CUDASIM" not in env
        assert env["CUDA_SUITE_TEST_TIMEOUT"] == "30.0"
    # Both run in the support folder (the tree's numba must not shadow numba-cuda's).
    assert baseline.tree == ours.tree == tmp_path / "support"
    command = ours.pytest_command() + ours.pytest_targets()
    assert "no:xdist" not in command and command[command.index("-n") + 1] == "16"
    assert "cuda_compat_plugin" in command and "--import-mode=importlib" in command
    assert "--continue-on-collection-errors" in command
    assert command[-1] == str(tmp_path / "tests" / "cudapy/test_a.py")


def test_the_plugin_and_the_filecheck_stand_in(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TOOLS / "cuda_support"))
    for name in [name for name in sys.modules if name.startswith("filecheck")]:
        monkeypatch.delitem(sys.modules, name)
    from filecheck.matcher import Matcher
    from filecheck.parser import pattern_for_opts

    with pytest.raises(RuntimeError, match="filecheck is not installed"):
        Matcher()
    with pytest.raises(RuntimeError, match="filecheck is not installed"):
        pattern_for_opts()
    spec = importlib.util.spec_from_file_location(
        "cuda_compat_plugin", TOOLS / "cuda_support" / "cuda_compat_plugin.py"
    )
    plugin = importlib.util.module_from_spec(spec)
    import numpy as np

    had_row_stack = hasattr(np, "row_stack")
    try:
        spec.loader.exec_module(plugin)
        assert np.row_stack is not None  # the alias where NumPy removed it
    finally:
        if not had_row_stack and hasattr(np, "row_stack"):
            # The alias must not outlive the test: the NumPy library's manifest checks what
            # this NumPy has (the H200 host's NumPy 2.5 saw vstack registered twice).
            del np.row_stack
    for name in [name for name in sys.modules if name.startswith("filecheck")]:
        monkeypatch.delitem(sys.modules, name)
