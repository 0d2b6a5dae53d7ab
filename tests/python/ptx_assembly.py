"""ptxas for the tests that check taipan's PTX without a GPU: where it is, a skip marker for
machines without it, and an assertion that it assembles a module for sm_90."""

import os
import shutil
import subprocess

import pytest

PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
needs_ptxas = pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")


def ptxas(ptx, tmp_path):
    """Asserts that ptxas assembles `ptx` for sm_90 (its messages are the failure's)."""
    source = tmp_path / "kernel.ptx"
    source.write_text(ptx)
    result = subprocess.run(
        [PTXAS, "-arch=sm_90", str(source), "-o", str(tmp_path / "kernel.cubin")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
