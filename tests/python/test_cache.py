"""cache=True: object code kept on disk by job hash and loaded by later processes without LLVM;
invalidated by an edit of a callee in another file; safe with concurrent writers; a corrupt file
is a miss that is written again; user exceptions are named by class, not by per-process id; the
directory follows TAIPAN_CACHE_DIR, else __pycache__, else the user cache directory."""

import os
import stat
import subprocess
import sys
import textwrap

import pytest
from child_processes import child_environment, child_python_path, run_python

CALLEE = """
SCALE = {scale}

from taipan import njit

@njit
def scale(x):
    return x * SCALE
"""

CALLER = """
import random
from taipan import njit
from callee import scale

class Mistake(Exception):
    pass

@njit(cache=True)
def total(n):
    s = 0.0
    for i in range(n):
        s += scale(i)
    return s

@njit(cache=True)
def raises_own(n):
    if n < 0:
        raise Mistake("negative")
    return n

if __name__ == "__main__":
    import sys
    print(total(10), total.stats.cache_hits, total.stats.cache_misses,
          "loading cached code" in total.get_metadata(total.signatures[0])["timers"])
    print(raises_own(3), raises_own.stats.cache_misses)
"""


def write_program(directory, scale=2.0):
    (directory / "callee.py").write_text(CALLEE.format(scale=scale))
    (directory / "caller.py").write_text(CALLER)


def script_words(directory, script, *arguments):
    """What `script` of `directory`, run in a fresh process, prints, split into words."""
    env = child_environment(directory, settings="no_cache")
    return run_python([script, *arguments], cwd=directory, env=env, timeout=120).stdout.split()


def run(directory, **environment):
    env = child_environment(directory, settings="no_cache", **environment)
    result = run_python([directory / "caller.py"], cwd=directory, env=env, timeout=120)
    first, second = result.stdout.splitlines()[:2]
    value, hits, misses, loaded = first.split()
    return float(value), int(hits), int(misses), loaded == "True", second


def cache_files(directory):
    folder = directory / "__pycache__"
    return sorted(p.name for p in folder.glob("*.taipan")) if folder.exists() else []


def test_a_later_process_loads_the_code(tmp_path):
    write_program(tmp_path)
    assert run(tmp_path)[:4] == (90.0, 0, 1, False)
    assert any(name.startswith("caller.total-") for name in cache_files(tmp_path))
    assert run(tmp_path)[:4] == (90.0, 1, 0, True)


def test_editing_a_callee_in_another_file_invalidates_the_caller(tmp_path):
    write_program(tmp_path, scale=2.0)
    assert run(tmp_path)[0] == 90.0
    assert run(tmp_path)[1] == 1
    write_program(tmp_path, scale=3.0)
    value, hits, misses, loaded, _ = run(tmp_path)
    assert (value, hits, misses, loaded) == (135.0, 0, 1, False)
    assert run(tmp_path)[:2] == (135.0, 1)


ATTRIBUTE_CALLER = """
from taipan import njit
import callee

@njit(cache=True)
def total(n):
    s = 0.0
    for i in range(n):
        s += callee.scale(i) + callee.SCALE
    return s

print(total(10), total.stats.cache_hits, total.stats.cache_misses)
"""


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("SCALE = 2.0", "SCALE = 3.0", 165.0),
        ("return x * SCALE", "return x * SCALE + 1.0", 120.0),
    ],
    ids=["constant", "function"],
)
def test_editing_what_the_caller_reads_through_a_module_invalidates_it(
    tmp_path, old, new, expected
):
    # callee.scale(i) and callee.SCALE: attributes of a module global, which the code key
    # (found without typing) must cover as it covers globals; a stale hit returned 110.0.
    write_program(tmp_path, scale=2.0)
    (tmp_path / "caller.py").write_text(ATTRIBUTE_CALLER)

    def outcome():
        output = script_words(tmp_path, "caller.py")
        return float(output[0]), int(output[1]), int(output[2])

    assert outcome() == (110.0, 0, 1)
    assert outcome() == (110.0, 1, 0)
    callee = tmp_path / "callee.py"
    callee.write_text(callee.read_text().replace(old, new))
    assert outcome() == (expected, 0, 1)
    assert outcome() == (expected, 1, 0)


def test_an_array_read_through_a_module_is_found_by_job_hash(tmp_path):
    # The code key cannot cover an array's values: a function reading one through a module
    # global (tables.TABLE[i]) is typed and found by job hash, which covers them.
    (tmp_path / "tables.py").write_text("import numpy as np\nTABLE = np.arange(4.0)\n")
    (tmp_path / "caller.py").write_text(
        "from taipan import njit\nimport tables\n\n"
        "@njit(cache=True)\ndef pick(i):\n    return tables.TABLE[i]\n\n"
        "print(pick(1), pick.stats.cache_hits, pick.stats.cache_misses)\n"
    )

    def outcome():
        output = script_words(tmp_path, "caller.py")
        return float(output[0]), int(output[1]), int(output[2])

    assert outcome() == (1.0, 0, 1)
    assert outcome() == (1.0, 1, 0)
    (tmp_path / "tables.py").write_text("import numpy as np\nTABLE = np.arange(4.0) * 10\n")
    assert outcome() == (10.0, 0, 1)  # a stale hit returned 1.0
    assert outcome() == (10.0, 1, 0)


def test_concurrent_writers_leave_a_readable_file(tmp_path):
    write_program(tmp_path)
    env = dict(os.environ, PYTHONPATH=child_python_path(tmp_path))
    processes = [
        subprocess.Popen(
            [sys.executable, str(tmp_path / "caller.py")],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err[-2000:]
        assert out.split()[0] == "90.0"
    assert not [p for p in (tmp_path / "__pycache__").iterdir() if p.suffix == ".tmp"]
    assert run(tmp_path)[:2] == (90.0, 1)


def test_a_corrupt_file_is_a_miss_and_is_written_again(tmp_path):
    write_program(tmp_path)
    run(tmp_path)
    # Two files: one found by the code key, one by the job hash (see caching.code_key).
    paths = sorted((tmp_path / "__pycache__").glob("caller.total-*.taipan"))
    assert len(paths) == 2
    originals = [path.read_bytes() for path in paths]
    for cut in (lambda d: d[: len(d) // 2], lambda d: b"garbage", lambda d: d[:40] + b"x" * 99):
        for path, data in zip(paths, originals):
            path.write_bytes(cut(data))
        assert run(tmp_path)[:3] == (90.0, 0, 1)
        assert run(tmp_path)[:2] == (90.0, 1)


def test_a_hit_by_code_key_reads_no_source_and_types_nothing(tmp_path):
    write_program(tmp_path)
    run(tmp_path)
    (tmp_path / "probe.py").write_text(
        "import caller\n"
        "caller.total(10)\n"
        "timers = caller.total.get_metadata(caller.total.signatures[0])['timers']\n"
        "print(sorted(timers), caller.total._source is None)\n"
    )
    env = child_environment(tmp_path, settings="no_cache")
    output = run_python(["probe.py"], cwd=tmp_path, env=env).stdout
    assert output.split("]")[0] == "['front end', 'loading cached code'"
    assert output.strip().endswith("True")


def test_a_function_reading_a_global_array_is_cached_by_job_hash_only(tmp_path):
    (tmp_path / "arrays.py").write_text(
        "import numpy as np\nfrom taipan import njit\nTABLE = np.arange(4.0)\n"
        "@njit(cache=True)\ndef lookup(i):\n    return TABLE[i] * 2\n"
    )
    (tmp_path / "probe.py").write_text(
        "import arrays\nprint(arrays.lookup(3), arrays.lookup.stats.cache_hits)\n"
    )
    assert script_words(tmp_path, "probe.py") == ["6.0", "0"]
    assert script_words(tmp_path, "probe.py") == ["6.0", "1"]
    assert len(list((tmp_path / "__pycache__").glob("arrays.lookup-*.taipan"))) == 1


def test_code_another_build_of_the_compiler_wrote_is_a_miss(tmp_path):
    """A rebuilt compiler of the same version may generate other code (a fixed bug): files
    written by another build are misses, by code key and by job hash alike."""
    (tmp_path / "arrays.py").write_text(
        "import numpy as np\nfrom taipan import njit\nTABLE = np.arange(4.0)\n"
        "@njit(cache=True)\ndef lookup(i):\n    return TABLE[i] * 2\n"
        "@njit(cache=True)\ndef twice(i):\n    return i * 2\n"
    )
    (tmp_path / "probe.py").write_text(
        "import sys\nfrom taipan import caching\n"
        "if len(sys.argv) > 1:\n"
        "    caching._host = caching._host_identity()[:-1] + (int(sys.argv[1]),)\n"
        "import arrays\n"
        "print(arrays.lookup(3), arrays.lookup.stats.cache_hits, arrays.twice(4),"
        " arrays.twice.stats.cache_hits)\n"
    )

    def probe(*build):
        return script_words(tmp_path, "probe.py", *build)

    assert probe() == ["6.0", "0", "8", "0"]
    assert probe() == ["6.0", "1", "8", "1"]
    assert probe("12345") == ["6.0", "0", "8", "0"]  # another build: compiled again


def test_code_raising_a_module_level_user_exception_is_cached(tmp_path):
    write_program(tmp_path)
    assert run(tmp_path)[4] == "3 1"
    # The code names the class by module and qualified name, resolved as a later process loads
    # it (test_cache_honesty.py has classes that stay per process).
    assert run(tmp_path)[4] == "3 0"
    assert any(name.startswith("caller.raises_own-") for name in cache_files(tmp_path))


def test_cache_directory_choice(tmp_path):
    write_program(tmp_path)
    chosen = tmp_path / "chosen"
    run(tmp_path, TAIPAN_CACHE_DIR=str(chosen))
    assert any(p.name.startswith("caller.total-") for p in chosen.iterdir())
    assert cache_files(tmp_path) == []
    if os.geteuid() == 0:
        pytest.skip("root writes to read-only folders")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__").chmod(stat.S_IRUSR | stat.S_IXUSR)
    user = tmp_path / "user"
    run(tmp_path, XDG_CACHE_HOME=str(user))
    assert any(p.name.startswith("caller.total-") for p in (user / "taipan").iterdir())


def test_cache_clear_removes_the_files(tmp_path):
    write_program(tmp_path)
    run(tmp_path)
    script = textwrap.dedent(
        """
        from caller import total
        total.cache_clear()
        """
    )
    env = dict(os.environ, PYTHONPATH=child_python_path(tmp_path))
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, check=True)
    assert not any(name.startswith("caller.total-") for name in cache_files(tmp_path))
