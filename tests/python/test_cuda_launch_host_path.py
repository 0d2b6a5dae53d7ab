"""The host side of a repeated kernel launch runs no Python: ``kernel[1, 1](a)`` with a device
array, after its first launch, calls no Python function (``sys.setprofile`` sees none), and
the first launch of new argument types does go back to Python. Without a GPU this runs in a
child process against the stub driver of ``tools/cuda_stub`` (built here with the C compiler;
skipped without one): only the host path is observed, never a kernel's result."""

import ast
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from child_processes import child_python_path

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUB_SOURCE = ROOT / "tools" / "cuda_stub" / "libcuda_stub.c"

CHILD = """
import sys, warnings
import numpy as np
warnings.simplefilter("ignore")
from taipan import cuda

@cuda.jit
def empty(a, n):
    pass

a = cuda.device_array(16, np.float32)
b = cuda.device_array((4, 4), np.float64)
empty[1, 1](a, 1)  # compiles and loads
empty[2, 32](a, 1)  # a second configuration, launched once
seen = []

def watch(frame, event, argument):
    if event == "call":
        seen.append(frame.f_code.co_name)

sys.setprofile(watch)
for _ in range(100):
    empty[1, 1](a, 2)
    empty[2, 32](a, 3)
sys.setprofile(None)
steady = sorted(set(seen))
seen.clear()
sys.setprofile(watch)
empty[1, 1](b, 2)  # new argument types: Python compiles the kernel
sys.setprofile(None)
print(repr((steady, "specialize" in seen)))
"""


@pytest.fixture(scope="module")
def stub_driver(tmp_path_factory):
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        pytest.skip("no C compiler for the stub driver")
    library = tmp_path_factory.mktemp("cuda_stub") / "libcuda_stub.so"
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(STUB_SOURCE)],
        check=True,
        capture_output=True,
    )
    return library


def test_repeated_launches_run_no_python_and_new_types_do(stub_driver, tmp_path):
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    environment.update(
        TAIPAN_CUDA_DRIVER=str(stub_driver),
        TAIPAN_CUDA_STUB="1",
        PYTHONPATH=child_python_path(),
    )
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    steady, specialized = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert steady == []
    assert specialized
