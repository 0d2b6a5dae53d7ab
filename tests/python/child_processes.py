"""The Python child processes tests start: their PYTHONPATH (taipan from the directory this
process imported it from, then the test's own directories, then the inherited PYTHONPATH, where
a host keeps packages such as dask outside site-packages), their environment, and one way to
run them and check that they exited cleanly."""

import os
import pathlib
import subprocess
import sys
import textwrap

import taipan

TAIPAN_DIRECTORY = os.path.dirname(os.path.dirname(os.path.abspath(taipan.__file__)))


def child_python_path(*directories) -> str:
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([TAIPAN_DIRECTORY, *map(str, directories), *inherited])


CACHE_SETTINGS = ("TAIPAN_CACHE_DIR", "NUMBA_CACHE_DIR")


def child_environment(*directories, settings="inherit", **variables) -> dict:
    """os.environ for a child Python with taipan and `directories` on its PYTHONPATH, then
    `variables`. `settings` says which of this process's TAIPAN_/NUMBA_ settings the child
    sees: "inherit" all of them, "no_cache" all but the cache folder (the child's cache goes
    beside its script), "none" none (a child that must see only the settings it is given)."""
    if settings == "inherit":
        environment = dict(os.environ)
    elif settings == "no_cache":
        environment = {k: v for k, v in os.environ.items() if k not in CACHE_SETTINGS}
    elif settings == "none":
        environment = {
            k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))
        }
    else:
        raise ValueError(f"settings must be 'inherit', 'no_cache' or 'none', not {settings!r}")
    environment["PYTHONPATH"] = child_python_path(*directories)
    environment.update(variables)
    return environment


def run_python(arguments, *, env, cwd=None, input=None, timeout=300, text=True):
    """Runs `python *arguments` (a script's path and its arguments, or "-c" and code) and
    checks that it exited with status 0, the assertion showing the end of its stderr. Returns
    the CompletedProcess (stdout and stderr as str, or bytes when `text` is false)."""
    result = subprocess.run(
        [sys.executable, *map(str, arguments)],
        cwd=cwd,
        env=env,
        input=input,
        capture_output=True,
        text=text,
        timeout=timeout,
        check=False,
    )
    stderr = result.stderr if text else result.stderr.decode(errors="replace")
    assert result.returncode == 0, stderr[-3000:]
    return result


def run_in_simulator(directory, source, timeout=300):
    """Runs `source` (dedented) as a script in a child process under taipan's CUDA simulator,
    with no TAIPAN_/NUMBA_ settings inherited and the tests' folder importable, and checks that
    it exited cleanly having printed only "ok"."""
    script = pathlib.Path(directory) / "simulated.py"
    script.write_text(textwrap.dedent(source))
    tests = os.path.dirname(os.path.abspath(__file__))
    env = child_environment(tests, settings="none", TAIPAN_ENABLE_CUDASIM="1")
    result = run_python([script], cwd=directory, env=env, timeout=timeout)
    assert result.stdout.strip() == "ok", result.stdout + result.stderr
