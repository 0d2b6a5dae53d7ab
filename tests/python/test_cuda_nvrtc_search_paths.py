"""config.CUDA_NVRTC_EXTRA_SEARCH_PATHS (numba-cuda's setting, NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS):
more folders, ':'-separated, where NVRTC finds the headers of the CUDA C++ given to link=, read
at each compilation (a source compiled under other paths is compiled again). The compilations
need NVRTC only; the launch needs a GPU."""

import os
import subprocess
import sys

import numpy as np
import pytest
from child_processes import child_python_path

from taipan import _core, config, cuda, float32
from taipan.cuda import linking
from taipan.cuda.api.errors import NvrtcCompilationError

needs_nvrtc = pytest.mark.skipif(not _core.nvrtc_available(), reason="NVRTC was not found")
needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

SOURCE = """
#include <scale.cuh>
#include <shift.cuh>

extern "C" __device__ int scale_and_shift(float *ret, float x)
{
    *ret = shift(scale(x));
    return 0;
}
"""


@pytest.fixture
def source(tmp_path):
    """A .cu file whose two headers are in two folders of their own."""
    for folder, header, body in [
        ("first", "scale.cuh", "__device__ float scale(float x) { return 3.0f * x; }"),
        ("second", "shift.cuh", "__device__ float shift(float x) { return x + 0.5f; }"),
    ]:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / header).write_text(body + "\n")
    path = tmp_path / "src" / "scale_and_shift.cu"
    path.parent.mkdir()
    path.write_text(SOURCE)
    return path


def paths(tmp_path, *folders):
    return ":".join(str(tmp_path / folder) for folder in folders)


@needs_nvrtc
def test_headers_are_found_only_on_the_extra_paths(source, tmp_path, monkeypatch):
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", "")
    with pytest.raises(NvrtcCompilationError, match="scale.cuh"):
        linking.compile_cuda_source(str(source), 90)
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", paths(tmp_path, "first"))
    with pytest.raises(NvrtcCompilationError, match="shift.cuh"):
        linking.compile_cuda_source(str(source), 90)
    monkeypatch.setattr(
        config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", paths(tmp_path, "first", "second") + ":"
    )
    cubin = linking.compile_cuda_source(str(source), 90)
    assert cubin[:4] == b"\x7fELF"


@needs_nvrtc
def test_a_source_compiled_under_other_paths_compiles_again(source, tmp_path, monkeypatch):
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", paths(tmp_path, "first", "second"))
    assert linking.compile_cuda_source(str(source), 90)
    # The same source, its headers no longer found: not the cubin compiled before.
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", paths(tmp_path, "second"))
    with pytest.raises(NvrtcCompilationError, match="scale.cuh"):
        linking.compile_cuda_source(str(source), 90)


def test_numba_cudas_variable_sets_it(tmp_path):
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("TAIPAN_", "NUMBA_"))
    }
    environment.update(NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS="/a:/b", PYTHONPATH=child_python_path())
    code = "from taipan import config; print(config.CUDA_NVRTC_EXTRA_SEARCH_PATHS)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.strip() == "/a:/b"


@needs_gpu
@needs_nvrtc
def test_a_kernel_links_code_whose_headers_are_on_the_extra_paths(source, tmp_path, monkeypatch):
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", paths(tmp_path, "first", "second"))
    scale_and_shift = cuda.declare_device("scale_and_shift", float32(float32), link=str(source))

    @cuda.jit
    def kernel(x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = scale_and_shift(x[i])

    x = np.linspace(-2, 2, 100, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1, 128](x, out)
    # NVRTC may contract 3 * x + 0.5 into one fused multiply-add (rounded once).
    np.testing.assert_allclose(out, np.float32(3) * x + np.float32(0.5), rtol=1e-6, atol=1e-7)
