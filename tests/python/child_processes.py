"""The PYTHONPATH of the Python child processes tests start: taipan from the directory this
process imported it from, then the test's own directories, then the inherited PYTHONPATH (where
a host keeps packages such as dask outside site-packages)."""

import os

import taipan

TAIPAN_DIRECTORY = os.path.dirname(os.path.dirname(os.path.abspath(taipan.__file__)))


def child_python_path(*directories) -> str:
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([TAIPAN_DIRECTORY, *map(str, directories), *inherited])


def run_in_simulator(directory, source, timeout=300):
    """Runs `source` (dedented) as a script in a child process under taipan's CUDA simulator,
    with no TAIPAN_/NUMBA_ settings inherited and the tests' folder importable, and checks that
    it exited cleanly having printed only "ok"."""
    import pathlib
    import subprocess
    import sys
    import textwrap

    script = pathlib.Path(directory) / "simulated.py"
    script.write_text(textwrap.dedent(source))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    tests = os.path.dirname(os.path.abspath(__file__))
    env.update(TAIPAN_ENABLE_CUDASIM="1", PYTHONPATH=child_python_path(tests))
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout + result.stderr
