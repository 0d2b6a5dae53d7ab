"""The driver's PTX compiler warms up on another thread while the first kernel compiles
(CudaModules::startJitWarmUp, started by taipan.cuda.launcher.start_jit_warm_up): a process
that closes its contexts, exits or forks right after a compile, with the warm-up possibly still
running, goes on as without it, and kernels compiled then launch and compute NumPy's result.
Each case runs in a child process (a close would free other tests' arrays). Needs a GPU
(marker ``cuda``)."""

import os
import subprocess
import sys

import pytest
from child_processes import child_python_path

from taipan import cuda

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU"),
]

PRELUDE = """
import os
import numpy as np
from taipan import cuda

def make_kernel(step):
    @cuda.jit
    def add(values):
        i = cuda.grid(1)
        if i < values.size:
            values[i] += step
    return add

values = cuda.to_device(np.zeros(8, np.int64))  # a context, so that the warm-up starts
"""


def run_child(body, tmp_path):
    environment = dict(os.environ, PYTHONPATH=child_python_path())
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + body],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_close_right_after_the_first_compile_waits_for_the_warm_up(tmp_path):
    out = run_child(
        """
first = make_kernel(1)
first[1, 32](values)          # compiles (the warm-up starts), loads, launches
cuda.close()                  # the warm-up thread is joined before contexts go
values = cuda.to_device(np.zeros(8, np.int64))
second = make_kernel(2)
second[1, 32](values)
second[1, 32](values)
print(values.copy_to_host().tolist())
""",
        tmp_path,
    )
    assert out.strip() == str([4] * 8)


def test_a_process_exiting_as_its_first_kernel_compiles_exits_cleanly(tmp_path):
    out = run_child(
        """
kernel = make_kernel(1)
kernel.specialize_for([cuda.devicearray._array_type(np.dtype(np.int64), 1, "C", False)])
print("compiled")
""",
        tmp_path,
    )
    assert out.strip() == "compiled"


def test_a_fork_after_the_first_compile_leaves_the_parent_launching(tmp_path):
    out = run_child(
        """
kernel = make_kernel(3)
kernel[1, 32](values)
pid = os.fork()
if pid == 0:
    os._exit(0)  # the child has no warm-up thread to wait for
os.waitpid(pid, 0)
kernel[1, 32](values)
print(values.copy_to_host().tolist())
""",
        tmp_path,
    )
    assert out.strip() == str([6] * 8)
