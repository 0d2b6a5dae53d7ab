"""``with objmode(...)`` blocks in ``cache=True`` functions: the code names each block's call
site by a load-time symbol (the block's id and a digest of its text, the boxed argument types),
which a later process resolves after typing the function again, so the code is cached and loaded
there like any other (Numba's TestCachingOverloadObjmode). A block whose text changed between
processes is a miss, compiled again."""

import json
import textwrap

import numpy as np
from child_processes import child_environment, run_python

LIBRARY = """
import numpy as np
from taipan import njit, objmode
from taipan.extending import overload

SCALE = 3.0


def python_sum(a, b):
    return float(np.sum(a + b))


def do_sum(a, b):
    return python_sum(a, b)


@overload(do_sum)
def _do_sum(a, b):
    def impl(a, b):
        with objmode(y="float64"):
            y = python_sum(a, b)
        return y

    return impl


@njit(cache=True)
def scaled(x):
    with objmode(y="float64"):
        y = float(x) * SCALE + BODY_OFFSET
    return y + 1.0


@njit(cache=True)
def twin_a(x):
    with objmode(y="int64"):
        y = x * 10
    return y


@njit(cache=True)
def twin_b(x):
    with objmode(y="int64"):
        y = x * 10
    return -y


@njit(cache=True)
def through_overload(n):
    a = np.arange(n)
    return do_sum(a, a)


@njit(cache=True)
def fills(a):
    with objmode():
        a[:] = np.arange(a.size) * 2
    return a.sum()


@njit(cache=True)
def callee(x):
    with objmode(y="unicode_type"):
        y = "v" + str(x)
    return y


@njit(cache=True)
def caller(x):
    return callee(x) + "!"


@njit(cache=True)
def raises(x):
    with objmode():
        if x < 0:
            raise ValueError("negative: " + str(x))
    return x
"""

PROGRAM = """
import json
import numpy as np
from taipan.runtime import live_blocks
import library

before = live_blocks()
results = {
    "scaled": [library.scaled(2), library.scaled(2.5)],
    "twins": [library.twin_a(4), library.twin_b(4)],
    "overload": library.through_overload(20),
    "fills": library.fills(np.zeros(5)),
    "caller": library.caller(7),
    "raises": library.raises(3),
}
try:
    library.raises(-2)
except ValueError as error:
    results["error"] = str(error)
functions = ["scaled", "twin_a", "twin_b", "through_overload", "fills", "callee", "caller",
             "raises"]
results["stats"] = {name: list(getattr(library, name).stats) for name in functions}
results["leaked"] = live_blocks() - before
print(json.dumps(results))
"""


def write_library(directory, offset):
    text = LIBRARY.replace("BODY_OFFSET", repr(offset))
    (directory / "library.py").write_text(textwrap.dedent(text))


def run_program(directory):
    env = child_environment(
        directory, settings="no_cache", TAIPAN_CACHE_DIR=str(directory / "cache")
    )
    result = run_python(["-c", PROGRAM], cwd=directory, env=env)
    assert "Cannot cache" not in result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def expected(offset):
    a = np.arange(20)
    return {
        "scaled": [2 * 3.0 + offset + 1.0, 2.5 * 3.0 + offset + 1.0],
        "twins": [40, -40],
        "overload": float(np.sum(a + a)),
        "fills": float(np.sum(np.arange(5) * 2)),
        "caller": "v7!",
        "raises": 3,
        "error": "negative: -2",
        "leaked": 0,
    }


def without_stats(results):
    return {key: value for key, value in results.items() if key != "stats"}


def test_objmode_blocks_are_loaded_from_the_cache_by_a_later_process(tmp_path):
    write_library(tmp_path, 0.0)
    first = run_program(tmp_path)
    assert without_stats(first) == expected(0.0)
    # scaled has two specialisations (int64, float64), callee none of its own (caller's code
    # holds it), the others one each
    assert first["stats"].pop("scaled") == [0, 2]
    assert first["stats"].pop("callee") == [0, 0]
    assert all(stats == [0, 1] for stats in first["stats"].values())
    second = run_program(tmp_path)
    assert without_stats(second) == expected(0.0)
    assert second["stats"].pop("scaled") == [2, 0]
    assert second["stats"].pop("callee") == [0, 0]
    assert all(stats == [1, 0] for stats in second["stats"].values())


def test_a_block_whose_text_changed_is_compiled_again(tmp_path):
    write_library(tmp_path, 0.0)
    assert run_program(tmp_path)["scaled"] == [7.0, 8.5]
    write_library(tmp_path, 0.25)
    for cached in (tmp_path / "__pycache__").glob("library*.pyc"):
        cached.unlink()
    changed = run_program(tmp_path)
    assert without_stats(changed) == expected(0.25)
    assert changed["stats"]["scaled"] == [0, 2]  # the old code names a block that is gone
    assert changed["stats"]["twin_a"] == [1, 0]  # the other blocks did not change
