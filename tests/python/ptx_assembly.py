"""ptxas for the tests that check taipan's PTX without a GPU: where it is, a skip marker for
machines without it, and an assertion that it assembles a module (for sm_90 unless told
another target)."""

import os
import shutil
import subprocess

import pytest

PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
needs_ptxas = pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")


def ptxas(ptx, tmp_path, *, arch="sm_90", relocatable=False):
    """Asserts that ptxas assembles `ptx` for `arch` (its messages are the failure's), and
    returns the path of what it wrote. `arch` may name any target (sm_90a, sm_100f...);
    `relocatable` gives an object (-c) whose foreign functions are left to the linker."""
    source = tmp_path / "kernel.ptx"
    source.write_text(ptx)
    output = tmp_path / ("kernel.o" if relocatable else "kernel.cubin")
    mode = ["-c"] if relocatable else []
    result = subprocess.run(
        [PTXAS, f"-arch={arch}", *mode, str(source), "-o", str(output)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return output
