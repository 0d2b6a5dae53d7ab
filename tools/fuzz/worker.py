"""The fuzzer's worker process: reads programs as JSON lines on stdin, compiles each with taipan,
runs it beside CPython and writes one JSON line of outcome per program on stdout. The parent
(``run.py``) sees a crash as this process dying and a hang as no answer within its timeout.

Outcomes: ``pass``; ``mismatch`` (value, exception type or final argument state differ);
``refused`` (taipan raised TypingError/UnsupportedError: ``refusal`` holds the message's
first line without its location); ``deviation`` (a mismatch that goes away when the statements
marked ``# deviation:`` are replaced by their neutral form: Numba's documented semantics);
``leak`` (the runtime's live block count grew); ``generator-bug`` (CPython itself failed
with an error the generator never means, e.g. NameError). ``crash`` and ``hang`` come from
the parent.

``TAIPAN_FUZZ_STANDIN=numba`` runs numba instead of taipan: only to check the fuzzer itself.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import linecache
import os
import re
import sys
import types

import numpy as np

from tools.fuzz.deviations import KNOWN_DEVIATIONS

if os.environ.get("TAIPAN_FUZZ_STANDIN") == "numba":
    import numba as compiler
    from numba.core.errors import TypingError, UnsupportedError

    REFUSALS: tuple = (TypingError, UnsupportedError)
    COMPILER_FAILURES: tuple = ()
    from numba import typed as typed_module
    from numba import types as compiler_types

    def live_blocks() -> int:
        return 0
else:
    import taipan as compiler
    from taipan import typed as typed_module
    from taipan import types as compiler_types
    from taipan.errors import InternalError, TypingError
    from taipan.runtime import live_blocks

    REFUSALS = (TypingError,)
    COMPILER_FAILURES = (InternalError,)

_CONFTEST = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "python", "conftest.py")
_spec = importlib.util.spec_from_file_location("taipan_tests_conftest", _CONFTEST)
_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_conftest)
same = _conftest.same  # the comparison the test suite uses

DEVIATION_MARK = re.compile(r"= (.*)  # deviation: (\w+) \| (.*)$", re.MULTILINE)
UNEXPECTED = (NameError, TypeError, AttributeError, OverflowError, RecursionError, SyntaxError)


def unexpected(program: dict, error) -> bool:
    """Whether CPython's ``error`` is one the generator never means. A NameError is, except
    reading a local the ``unbound_locals`` section leaves unassigned (named ``u<N>``): that
    UnboundLocalError, or NameError from a comprehension's scope, is what the section tests."""
    if (
        isinstance(error, NameError)
        and "unbound_locals" in program["features"]
        and re.search(r"'u\d+'", str(error))
    ):
        return False
    return isinstance(error, UNEXPECTED)


def deep_same(actual, expected) -> bool:
    """``same`` extended to the containers a program returns or mutates: lists, dicts (with
    their order), sets and NumPy arrays (dtype, shape, then items bitwise as ``same``)."""
    if isinstance(expected, tuple):
        return (
            isinstance(actual, tuple)
            and len(actual) == len(expected)
            and all(deep_same(a, e) for a, e in zip(actual, expected))
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, (list, typed_module.List))
            and len(actual) == len(expected)
            and all(deep_same(a, e) for a, e in zip(actual, expected))
        )
    if isinstance(expected, dict):
        if not isinstance(actual, (dict, typed_module.Dict)):
            return False
        pairs, wanted = list(actual.items()), list(expected.items())
        return len(pairs) == len(wanted) and all(
            deep_same(ak, ek) and deep_same(av, ev) for (ak, av), (ek, ev) in zip(pairs, wanted)
        )
    if isinstance(expected, (set, frozenset)):
        return isinstance(actual, (set, frozenset)) and actual == expected
    if isinstance(expected, np.ndarray):
        return (
            isinstance(actual, np.ndarray)
            and actual.dtype == expected.dtype
            and actual.shape == expected.shape
            and all(same(a, e) for a, e in zip(actual.ravel().tolist(), expected.ravel().tolist()))
        )
    return same(actual, expected)


def state(value):
    """A plain-Python view of an argument after the call, for reports."""
    if isinstance(value, typed_module.Dict):
        return dict(value.items())
    return value


def _to_compiled(value):
    """Arguments as compiled code takes them: a dict becomes a typed.Dict (as in Numba)."""
    if isinstance(value, dict):
        result = typed_module.Dict.empty(compiler_types.int64, compiler_types.int64)
        for key, item in value.items():
            result[key] = item
        return result
    return value


def load(source: str, filename: str, compiled: bool, parallel: bool) -> dict:
    """Exec the program; with ``compiled`` every function it defines is jitted."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"prange": compiler.prange if compiled else range, "__name__": "fuzz_program"}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated program
    if compiled:
        for name, value in list(namespace.items()):
            if isinstance(value, types.FunctionType) and value.__code__.co_filename == filename:
                wants_parallel = parallel and name == "f"
                namespace[name] = (
                    compiler.njit(value, parallel=True)
                    if wants_parallel
                    else (compiler.njit(value))
                )
    return namespace


def call(fn, args):
    try:
        return fn(*args), None
    except Exception as error:  # noqa: BLE001 - compared by the caller
        return None, error


def refusal_text(error: Exception) -> str:
    """The first line of a refusal, without the file:line:col it names."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    first = lines[0] if lines else type(error).__name__
    first = re.sub(r"^.*?:\d+:\d+:\s*", "", first)
    first = re.sub(r"^(File|At) .*?line \d+.*?:\s*", "", first)
    first = re.sub(r"\d+", "N", first)
    return f"{type(error).__name__}: {first}"[:120]


def compare(program: dict, source: str) -> dict:
    """Run ``source`` under CPython and taipan on every argument tuple of ``program``."""
    filename = f"<fuzz seed={program['seed']} index={program['index']} #{id(source)}>"
    expected_ns = load(source, filename, False, False)
    compiled_ns = load(source, filename + "jit", True, program["parallel"])
    arguments = program["args"]
    for position, py_args in enumerate(eval(arguments, {"np": np})):
        jit_args = tuple(_to_compiled(v) for v in eval(arguments, {"np": np})[position])
        expected, expected_error = call(expected_ns["f"], py_args)
        if unexpected(program, expected_error):
            return {"outcome": "generator-bug", "detail": f"CPython raised {expected_error!r}"}
        actual, actual_error = call(compiled_ns["f"], jit_args)
        where = f"arguments #{position}: {arguments}"
        if isinstance(actual_error, REFUSALS):
            return {"outcome": "refused", "refusal": refusal_text(actual_error)}
        if isinstance(actual_error, COMPILER_FAILURES):
            return {"outcome": "crash", "detail": f"{where}\ntaipan raised {actual_error!r}"}
        # what differs, in a form the minimiser keeps fixed while it shrinks the program
        signature = f"{_kind(expected, expected_error)} -> {_kind(actual, actual_error)}"
        if expected_error is not None and type(actual_error) is not type(expected_error):
            got = repr(actual_error) if actual_error is not None else f"returned {actual!r}"
            return {
                "outcome": "mismatch",
                "signature": signature,
                "detail": f"{where}\nCPython raised {expected_error!r}, taipan {got}",
            }
        if isinstance(expected_error, NameError) and str(actual_error) != str(expected_error):
            return {  # which variable, and the scope it is read from
                "outcome": "mismatch",
                "signature": signature,
                "detail": f"{where}\nCPython raised {expected_error!r}, taipan {actual_error!r}",
            }
        if expected_error is None and actual_error is not None:
            return {
                "outcome": "mismatch",
                "signature": signature,
                "detail": f"{where}\nCPython returned {expected!r}, taipan raised {actual_error!r}",
            }
        if expected_error is None and not deep_same(actual, expected):
            return {
                "outcome": "mismatch",
                "signature": "value differs",
                "detail": f"{where}\nCPython returned {expected!r}\ntaipan returned  {actual!r}"
                + _first_difference(actual, expected),
            }
        # the arguments' final state, after an exception too: taipan writes reflected lists
        # and sets back then, as they stand when the exception left the function
        for name, (after_py, after_jit) in enumerate(zip(py_args, jit_args)):
            if isinstance(after_py, (list, dict, set, np.ndarray)) and not deep_same(
                state(after_jit), after_py
            ):
                return {
                    "outcome": "mismatch",
                    "signature": f"argument {name} differs",
                    "detail": f"{where}\nargument {name} after the call: CPython "
                    f"{after_py!r}, taipan {state(after_jit)!r}",
                }
    return {"outcome": "pass"}


def _kind(value, error) -> str:
    return "value" if error is None else type(error).__name__


def _first_difference(actual, expected, path: str = "result") -> str:
    """Where two results first differ, with both items' repr (floats to all digits)."""
    if isinstance(expected, (tuple, list)) and isinstance(actual, (tuple, list)):
        for i, (a, e) in enumerate(zip(actual, expected)):
            if not deep_same(a, e):
                return _first_difference(a, e, f"{path}[{i}]")
    if (
        isinstance(expected, np.ndarray)
        and isinstance(actual, np.ndarray)
        and (actual.shape, actual.dtype) == (expected.shape, expected.dtype)
    ):
        pairs = zip(actual.ravel().tolist(), expected.ravel().tolist())
        for i, (a, e) in enumerate(pairs):
            if not same(a, e):
                return f"\nfirst difference: {path}.flat[{i}]: CPython {e!r}, taipan {a!r}"
    return f"\nfirst difference: {path}: CPython {expected!r}, taipan {actual!r}"


def neutralise(source: str) -> tuple[str, list[str]]:
    """``source`` with each deviation-marked right side replaced by its neutral form."""
    names = [m.group(2) for m in DEVIATION_MARK.finditer(source)]
    unknown = set(names) - set(KNOWN_DEVIATIONS)
    if unknown:
        raise ValueError(f"deviation markers not in KNOWN_DEVIATIONS: {sorted(unknown)}")
    return DEVIATION_MARK.sub(lambda m: f"= {m.group(3)}", source), sorted(set(names))


def run_one(program: dict) -> dict:
    before = live_blocks()
    result = compare(program, program["source"])
    if result["outcome"] == "mismatch" and "# deviation:" in program["source"]:
        neutral, names = neutralise(program["source"])
        second = compare(program, neutral)
        if second["outcome"] == "pass":
            result = {"outcome": "deviation", "deviations": names, "detail": result["detail"]}
        elif second["outcome"] == "mismatch":
            result = dict(second, source=neutral)
    gc.collect()
    if result["outcome"] == "pass" and live_blocks() != before:
        result = {"outcome": "leak", "detail": f"live blocks {before} -> {live_blocks()}"}
    return result


def main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # a program's print() must not corrupt the protocol
    for line in sys.stdin:
        program = json.loads(line)
        try:
            result = run_one(program)
        except Exception as error:  # noqa: BLE001 - the harness reports, never dies
            result = {"outcome": "generator-bug", "detail": f"harness: {error!r}"}
        result["index"] = program["index"]
        out.write(json.dumps(result) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
