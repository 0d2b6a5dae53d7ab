"""tools/numba_compat/libraries.py (the real-library runner; not run by CI): how it counts. The
denominator is the tests that pass with Numba; a test that passes only with taipan, or that did
not run under taipan, is not counted as passing; failures keep the reason pytest gave, and the
tests of a file that did not import are attributed to that file's import error."""

import importlib.util
import pathlib
import sys

import pytest

TOOLS = pathlib.Path(__file__).resolve().parents[2] / "tools" / "numba_compat"


@pytest.fixture(scope="module")
def libraries():
    """The runner, loaded from its file (it imports ``run.py`` beside it); both are taken out
    of ``sys.modules`` and ``sys.path`` again afterwards."""
    saved_path = list(sys.path)
    try:
        spec = importlib.util.spec_from_file_location("libraries", TOOLS / "libraries.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path[:] = saved_path
        sys.modules.pop("run", None)


def summary(results, collect_error_nodes=None, crashes=()):
    return {
        "tests": list(results),
        "results": {
            test: {"outcome": outcome, "reason": reason}
            for test, (outcome, reason) in results.items()
        },
        "collect_errors": list((collect_error_nodes or {}).values()),
        "collect_error_nodes": collect_error_nodes or {},
        "crashes": list(crashes),
        "seconds": 1.0,
    }


def test_counts_against_the_tests_that_pass_with_numba(libraries):
    numba_side = summary(
        {
            "t.py::a": ("passed", ""),
            "t.py::b": ("passed", ""),
            "t.py::c": ("failed", "AssertionError: x"),
            "t.py::d": ("passed", ""),
            "t.py::e": ("passed", ""),
            "u.py::f": ("passed", ""),
        }
    )
    taipan_side = summary(
        {
            "t.py::a": ("passed", ""),
            "t.py::b": ("failed", "TypingError: cannot store 'x'"),
            "t.py::c": ("passed", ""),  # passes only with taipan: not counted
            "t.py::d": ("timeout", "test timeout (300 s)"),
            "t.py::e": ("crashed", "interpreter crash (SIGSEGV)"),
        },
        collect_error_nodes={"u.py": "ImportError: no module named 'x'"},
    )
    name = next(iter(libraries.PACKAGES))
    rows, failures, _ = libraries.compare(
        {name: {"numba": numba_side, "taipan": taipan_side}}, [name]
    )
    row = rows[0]
    assert (row["tests"], row["numba"], row["taipan"]) == (6, 5, 1)
    assert (row["crashed"], row["timeout"], row["taipan_only"]) == (1, 1, 1)
    reasons = {test: reason for _, test, reason in failures}
    assert reasons == {
        "t.py::b": "TypingError: cannot store 'x'",
        "t.py::d": "test timeout (300 s)",
        "t.py::e": "interpreter crash (SIGSEGV)",
        "u.py::f": "test file did not import: ImportError: no module named 'x'",
    }
    table = libraries.table(rows)
    assert "| 6 | 5 | 1 | 20.0% | 1 | 1 | 1 |" in table


def test_a_mode_that_did_not_run_counts_nothing(libraries):
    name = next(iter(libraries.PACKAGES))
    numba_side = summary({"t.py::a": ("passed", "")})
    rows, failures, _ = libraries.compare({name: {"numba": numba_side}}, [name])
    assert (rows[0]["numba"], rows[0]["taipan"]) == (0, 0) and failures == []


def test_every_package_names_its_release_and_tag(libraries):
    for name, package in libraries.PACKAGES.items():
        assert package.version and package.tests, name
        repository, tag = package.git
        assert "/" in repository and package.version in tag, name
