"""Compute capabilities newer than LLVM 19's NVPTX back end knows (sm_100, sm_120): taipan
compiles PTX for the newest architecture it knows below them, which the driver compiles for the
newer GPU (numba-cuda likewise picks the closest architecture NVVM supports). Before, sm_100's
warp intrinsics found no instructions and LLVM aborted the interpreter, so each case runs in a
child process."""

import os
import subprocess
import sys
import textwrap

import pytest
from child_processes import child_python_path

SOURCE = """
from taipan import cuda, int32, float64

def shuffles(a, b):
    i = cuda.threadIdx.x
    a[i] = cuda.shfl_sync(0xffffffff, b, 0) + cuda.shfl_up_sync(0xffffffff, b, 1)
    a[i] += cuda.shfl_down_sync(0xffffffff, b, 1) + cuda.shfl_xor_sync(0xffffffff, b, 1)

def votes(a, b):
    a[0] = cuda.all_sync(0xffffffff, b > 0) + cuda.ballot_sync(0xffffffff, b > 0)

def atomics(a, b):
    cuda.atomic.add(a, 0, b)

for function, types in ((shuffles, (int32[:], int32)), (votes, (int32[:], int32)),
                        (atomics, (float64[:], float64))):
    ptx, _ = cuda.compile_ptx(function, types, cc={cc})
    print([line for line in ptx.splitlines() if line.startswith(".target")][0])
"""


@pytest.mark.parametrize(
    "cc, target", [((10, 0), "sm_90"), ((12, 0), "sm_90"), ((9, 0), "sm_90"), ((8, 6), "sm_86")]
)
def test_newer_architectures_compile_for_the_newest_known(cc, target):
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SOURCE).format(cc=cc)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": child_python_path()},
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == [".target", target] * 3
