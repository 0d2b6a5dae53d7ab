"""The disk cache says what it does. Code naming values each process has its own of (NumPy's
AxisError and LinAlgError, LAPACK's routines through ctypes) names them by load-time symbols, so
np.sort, np.argsort (every kind) and np.linalg.inv are cached, loaded by a later process and sent
in pickles, and so are objmode blocks; what must stay in one process (an exception class made
in a function, a ctypes callback) warns once per function, as Numba's "Cannot cache compiled
function"; a TAIPAN_CACHE_DIR that cannot be written falls back to the user's cache directory
with a warning."""

import ctypes
import json
import math
import os
import warnings

import numpy as np
import pytest
from child_processes import child_environment, run_python

import taipan
from taipan import config, objmode
from taipan.errors import NumbaWarning, TaipanWarning
from taipan.runtime import live_blocks

KINDS = ("quicksort", "mergesort", "heapsort", "stable")

LIBRARY = """
import numpy as np
from taipan import njit

@njit(cache=True)
def sort_along(a, axis):
    return np.sort(a, axis=axis)

@njit(cache=True)
def argsorts(a):
    return (np.argsort(a), np.argsort(a, kind="quicksort"), np.argsort(a, kind="mergesort"),
            np.argsort(a, kind="heapsort"), np.argsort(a, kind="stable"))

@njit(cache=True)
def sort_kinds(a):
    return (np.sort(a, kind="quicksort"), np.sort(a, kind="mergesort"),
            np.sort(a, kind="heapsort"), np.sort(a, kind="stable"))

@njit(cache=True)
def inverse(m):
    return np.linalg.inv(m)
"""

PROGRAM = """
import json, warnings
import numpy as np
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import library
    a = np.array([[3.0, np.nan, 1.0, 2.0, 1.0], [0.5, -1.0, 4.0, -1.0, 2.0]])
    v = np.array([2.0, 1.0, np.nan, 1.0, -3.0, 2.0])
    m = np.array([[4.0, 7.0, 1.0], [2.0, 6.0, 0.0], [1.0, 2.0, 5.0]])
    results = {
        "sort0": library.sort_along(a, 0).tolist(),
        "sort1": library.sort_along(a, 1).tolist(),
        "argsorts": [x.tolist() for x in library.argsorts(v)],
        "sort_kinds": [x.tolist() for x in library.sort_kinds(v)],
        "inverse": library.inverse(m).tolist(),
    }
    try:
        library.sort_along(a, 5)
    except Exception as error:
        results["axis_error"] = [type(error).__module__, type(error).__qualname__, str(error)]
    try:
        library.inverse(np.ones((2, 2)))
    except Exception as error:
        results["singular"] = [type(error).__module__, type(error).__qualname__, str(error)]
functions = {"sort_along": library.sort_along, "argsorts": library.argsorts,
             "sort_kinds": library.sort_kinds, "inverse": library.inverse}
results["stats"] = {name: list(f.stats) for name, f in functions.items()}
results["loaded"] = {
    name: all("loading cached code" in f.get_metadata(s)["timers"] and
              "code generation" not in f.get_metadata(s)["timers"] for s in f.signatures)
    for name, f in functions.items()
}
results["warnings"] = [str(w.message) for w in caught]
print(json.dumps(results))
"""


def run_program(directory, **environment):
    """program.py of `directory` in a fresh interpreter, its cache beside it: (its JSON
    report, its stderr)."""
    env = child_environment(directory, settings="no_cache", **environment)
    result = run_python([directory / "program.py"], cwd=directory, env=env)
    return json.loads(result.stdout.splitlines()[-1]), result.stderr


def expected_results():
    a = np.array([[3.0, np.nan, 1.0, 2.0, 1.0], [0.5, -1.0, 4.0, -1.0, 2.0]])
    v = np.array([2.0, 1.0, np.nan, 1.0, -3.0, 2.0])
    m = np.array([[4.0, 7.0, 1.0], [2.0, 6.0, 0.0], [1.0, 2.0, 5.0]])
    return {
        "sort0": np.sort(a, axis=0).tolist(),
        "sort1": np.sort(a, axis=1).tolist(),
        # taipan's sorts are stable whatever the kind: NumPy's stable order is the reference.
        "argsorts": [np.argsort(v, kind="stable").tolist()] * 5,
        "sort_kinds": [np.sort(v, kind=kind).tolist() for kind in KINDS],
        "inverse": np.linalg.inv(m).tolist(),
    }


def same(left, right):
    """Equal nested lists, NaN equal to NaN."""
    if isinstance(left, list):
        return (
            isinstance(right, list)
            and len(left) == len(right)
            and all(same(a, b) for a, b in zip(left, right))
        )
    if isinstance(left, float) and math.isnan(left):
        return isinstance(right, float) and math.isnan(right)
    return left == right


def test_sort_argsort_and_inv_are_cached_and_load_in_a_later_process(tmp_path):
    (tmp_path / "library.py").write_text(LIBRARY)
    (tmp_path / "program.py").write_text(PROGRAM)
    expected = expected_results()
    first, _ = run_program(tmp_path)
    second, _ = run_program(tmp_path)
    for results in (first, second):
        for name, value in expected.items():
            assert same(results[name], value), (name, results[name], value)
        assert results["axis_error"][:2] == ["numpy.exceptions", "AxisError"]
        assert "out of bounds" in results["axis_error"][2]
        assert results["singular"][:2] == ["numpy.linalg", "LinAlgError"]
        assert results["warnings"] == []
    assert all(misses >= 1 and hits == 0 for hits, misses in first["stats"].values())
    assert not any(first["loaded"].values())
    # The later process compiled nothing: every specialisation came from the cache.
    assert all(hits >= 1 and misses == 0 for hits, misses in second["stats"].values())
    assert all(second["loaded"].values()), second["loaded"]
    names = os.listdir(tmp_path / "__pycache__")
    for function in ("sort_along", "argsorts", "sort_kinds", "inverse"):
        assert any(name.startswith(f"library.{function}-") for name in names), function


def test_the_cached_code_names_the_exception_classes_and_lapack_by_symbol(tmp_path):
    """The object code holds no address: the same bytes run in every process."""
    (tmp_path / "library.py").write_text(LIBRARY)
    (tmp_path / "program.py").write_text(PROGRAM)
    run_program(tmp_path)
    folder = tmp_path / "__pycache__"
    inverse = b"".join(p.read_bytes() for p in folder.glob("library.inverse-*.taipan"))
    assert b"taipan.load:exception:numpy.linalg:LinAlgError" in inverse
    assert b"taipan.load:foreign:" in inverse
    sort_along = b"".join(p.read_bytes() for p in folder.glob("library.sort_along-*.taipan"))
    assert b"taipan.load:exception:numpy.exceptions:AxisError" in sort_along


ERRORS_LIBRARY = """
from taipan import njit

class Overdrawn(ValueError):
    pass

class Accounts:
    class Frozen(Exception):
        pass

Frozen = Accounts.Frozen  # found again by its qualified name, Accounts.Frozen

@njit(cache=True)
def withdraw(balance, amount):
    if amount > balance:
        raise Overdrawn("short by", amount - balance)
    if amount < 0:
        raise Frozen("negative amount")
    return balance - amount

@njit(cache=True)
def withdraw_or_zero(balance, amount):
    try:
        return withdraw(balance, amount)
    except Overdrawn:
        return 0.0
"""

ERRORS_PROGRAM = """
import json
from bank import Accounts, Overdrawn, withdraw, withdraw_or_zero
outcome = [withdraw(10.0, 4.0), withdraw_or_zero(1.0, 4.0), withdraw_or_zero(9.0, 4.0)]
try:
    withdraw(1.0, 4.0)
except Overdrawn as error:
    outcome.append(["Overdrawn", list(error.args)])
try:
    withdraw(1.0, -4.0)
except Accounts.Frozen as error:
    outcome.append(["Frozen", str(error)])
stats = [list(withdraw.stats), list(withdraw_or_zero.stats)]
print(json.dumps([outcome, stats]))
"""


def test_user_exception_classes_of_a_module_are_raised_and_caught_by_cached_code(tmp_path):
    (tmp_path / "bank.py").write_text(ERRORS_LIBRARY)
    (tmp_path / "program.py").write_text(ERRORS_PROGRAM)
    expected = [6.0, 0.0, 5.0, ["Overdrawn", ["short by", 3.0]], ["Frozen", "negative amount"]]
    first, _ = run_program(tmp_path)
    second, _ = run_program(tmp_path)
    assert first == [expected, [[0, 1], [0, 1]]]
    # The later process loaded both functions and resolved the classes by name.
    assert second == [expected, [[1, 0], [1, 0]]]


def uncacheable_warnings(function, *calls):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for arguments in calls:
            function(*arguments)
    return [str(w.message) for w in caught if issubclass(w.category, TaipanWarning)]


@pytest.fixture
def cache_directory(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_an_objmode_block_is_cached_without_a_warning(cache_directory):
    # Its call sites are load-time symbols (tests/python/test_objmode_cache.py loads them in
    # other processes).
    @taipan.njit(cache=True)
    def with_objmode(x):
        with objmode(y="float64"):
            y = float(x) * 2.0
        return y + 1.0

    before = live_blocks()
    messages = uncacheable_warnings(with_objmode, (1.5,), (2,), (2.5,))
    assert with_objmode(1.5) == with_objmode.py_func(1.5) == 4.0
    assert with_objmode(2) == 5.0
    assert messages == []
    assert len(list(cache_directory.glob("*.taipan"))) == 2  # float64 and int64
    assert live_blocks() == before
    assert NumbaWarning is TaipanWarning


def test_an_exception_class_made_in_a_function_is_not_cached_and_says_so(cache_directory):
    class Local(Exception):
        pass

    @taipan.njit(cache=True)
    def raises_local(n):
        if n < 0:
            raise Local("negative")
        return n

    messages = uncacheable_warnings(raises_local, (3,), (4.0,))
    assert raises_local(3) == 3
    with pytest.raises(Local, match="negative"):
        raises_local(-1)
    assert len(messages) == 1
    assert messages[0].startswith(f'Cannot cache compiled function "{raises_local.__qualname__}"')
    assert "Local" in messages[0] and "cannot find by its name" in messages[0]
    assert not list(cache_directory.glob("*.taipan"))


def test_a_ctypes_callback_is_not_cached_and_a_library_function_is(cache_directory):
    callback = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(lambda x: x + 1.0)
    libm = ctypes.CDLL("libm.so.6")
    cos = libm.cos
    cos.argtypes, cos.restype = [ctypes.c_double], ctypes.c_double

    @taipan.njit(cache=True)
    def calls_callback(x):
        return callback(x)

    @taipan.njit(cache=True)
    def calls_cos(x):
        return cos(x)

    messages = uncacheable_warnings(calls_callback, (1.0,))
    assert calls_callback(1.0) == 2.0
    assert len(messages) == 1 and "by its address" in messages[0]
    assert uncacheable_warnings(calls_cos, (0.5,)) == []
    assert calls_cos(0.5) == math.cos(0.5)
    assert any(p.name.startswith("test_cache_honesty.") for p in cache_directory.iterdir())


FALLBACK_PROGRAM = """
import warnings
warnings.simplefilter("always")
from taipan import njit

@njit(cache=True)
def twice(x):
    return 2 * x

print(twice(21), twice.stats.cache_misses)
"""


def run_fallback(tmp_path, configured):
    (tmp_path / "program.py").write_text(FALLBACK_PROGRAM)
    user = tmp_path / "user"
    env = child_environment(
        tmp_path, settings="no_cache", TAIPAN_CACHE_DIR=str(configured), XDG_CACHE_HOME=str(user)
    )
    result = run_python([tmp_path / "program.py"], cwd=tmp_path, env=env, timeout=120)
    assert result.stdout.split() == ["42", "1"]
    assert "Cannot cache compiled code in TAIPAN_CACHE_DIR" in result.stderr
    assert result.stderr.count("Cannot cache compiled code") == 1
    assert str(user / "taipan") in result.stderr
    assert any(p.name.startswith("program.twice-") for p in (user / "taipan").iterdir())
    assert not (tmp_path / "__pycache__").exists() or not list(
        (tmp_path / "__pycache__").glob("*.taipan")
    )


def test_a_cache_dir_that_is_a_file_falls_back_with_a_warning(tmp_path):
    configured = tmp_path / "a-file"
    configured.write_text("not a directory")
    run_fallback(tmp_path, configured)


def test_a_cache_dir_under_a_file_falls_back_with_a_warning(tmp_path):
    (tmp_path / "a-file").write_text("not a directory")
    run_fallback(tmp_path, tmp_path / "a-file" / "cache")


def test_a_read_only_cache_dir_falls_back_with_a_warning(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes to read-only folders")
    configured = tmp_path / "read-only"
    configured.mkdir()
    configured.chmod(0o500)
    try:
        run_fallback(tmp_path, configured)
    finally:
        configured.chmod(0o700)


SENDER = """
import sys
import cloudpickle
import numpy as np
from taipan import njit

@njit
def sorted_rows(a, axis):
    return np.sort(a, axis=axis), np.argsort(a[0], kind="heapsort")

sorted_rows(np.ones((2, 3)), 1)
sys.stdout.buffer.write(cloudpickle.dumps(sorted_rows))
"""

RECEIVER = """
import pickle, sys
import numpy as np
from taipan import float64, int64, types

sorted_rows = pickle.loads(sys.stdin.buffer.read())
a = np.array([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]])
rows, order = sorted_rows(a, 1)
timers = sorted_rows.get_metadata((types.float64[:, ::1], int64))["timers"]
try:
    sorted_rows(a, 3)
    error = "none"
except Exception as caught:
    error = type(caught).__qualname__
print(rows.tolist(), order.tolist(), error)
print("loading cached code" in timers, "code generation" in timers)
"""


def test_a_pickled_function_using_np_sort_carries_its_code(tmp_path):
    pytest.importorskip("cloudpickle")
    (tmp_path / "sender.py").write_text(SENDER)
    (tmp_path / "receiver.py").write_text(RECEIVER)
    env = child_environment(tmp_path, settings="no_cache")
    payload = run_python(["sender.py"], cwd=tmp_path, env=env, text=False).stdout
    result = run_python(["receiver.py"], cwd=tmp_path, env=env, input=payload, text=False)
    first, second = result.stdout.decode().splitlines()[:2]
    assert first == "[[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]] [1, 2, 0] AxisError"
    # The receiver typed the function (to check the job hash) and ran no LLVM.
    assert second == "True False"
