"""cache=True and link= files: the disk cache's key covers a kernel's source, not what the files
it links hold, so a kernel loaded after they changed would run their old code. Such kernels are
refused with numba-cuda's RuntimeError ("Cannot pickle CUDACodeLibrary with linking files"),
at decoration for an eager signature and at the first compile otherwise, and nothing is
written; without cache=True they compile as before. Runs without a GPU (PTX only)."""

import pytest

import taipan
from taipan import cuda, float32, void

PTX = ".version 8.0\n.target sm_90\n.address_size 64\n"


@pytest.fixture
def linked(tmp_path, monkeypatch):
    monkeypatch.setattr(taipan.config, "CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "extra.ptx"
    path.write_text(PTX)
    return str(path)


def assert_nothing_cached(tmp_path):
    assert not list(tmp_path.rglob("*.taipan"))


def test_an_eager_kernel_with_link_files_is_refused_at_decoration(linked, tmp_path):
    with pytest.raises(RuntimeError, match="Cannot pickle CUDACodeLibrary with linking files"):

        @cuda.jit("void()", cache=True, link=[linked])
        def kernel():
            pass

    assert_nothing_cached(tmp_path)


def test_a_lazy_kernel_with_link_files_is_refused_at_its_first_compile(linked, tmp_path):
    @cuda.jit(cache=True, link=[linked])
    def kernel(out):
        out[0] = 1.0

    with pytest.raises(RuntimeError, match=r'kernel "[\w.<>]*kernel" links .*extra\.ptx'):
        kernel.specialize_for([float32[::1]])
    assert_nothing_cached(tmp_path)


def test_files_linked_through_a_device_function_count_too(linked, tmp_path):
    @cuda.jit(device=True, link=[linked])
    def helper(x):
        return x + 1.0

    with pytest.raises(RuntimeError, match=r"links .*extra\.ptx"):

        @cuda.jit(void(float32[::1]), cache=True)
        def calls(out):
            out[0] = helper(out[0])

    assert_nothing_cached(tmp_path)


def test_without_cache_a_kernel_with_link_files_compiles(linked, tmp_path):
    @cuda.jit("void()", link=[linked])
    def kernel():
        pass

    assert kernel.signatures
    assert_nothing_cached(tmp_path)


def test_cache_without_link_files_still_writes(tmp_path, monkeypatch):
    monkeypatch.setattr(taipan.config, "CACHE_DIR", str(tmp_path / "cache"))

    @cuda.jit("void(float32[::1])", cache=True)
    def kernel(out):
        out[0] = 2.0

    assert list(tmp_path.rglob("*.taipan"))
