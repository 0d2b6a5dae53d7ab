"""CUDA C++ given to link= that needs the arch-specific variant of the device's architecture
(sm_90a's tensormap instructions): NVRTC compiles it for sm_<cc>a when the portable sm_<cc>
refuses it, and the kernel linking it is linked for that variant (CUjit_target
CU_COMPUTE_ACCELERATED_TARGET_BASE + cc), as numba-cuda builds for sm_90a on such devices.
Portable code is compiled and linked as before; an error names the first compilation's
problem. The compilations need NVRTC; the launch needs a GPU of compute capability 9.0."""

import numpy as np
import pytest

from taipan import _core, cuda, types
from taipan.cuda import linking
from taipan.cuda.api.errors import NvrtcCompilationError

needs_nvrtc = pytest.mark.skipif(not _core.nvrtc_available(), reason="NVRTC was not found")

TENSORMAP = """
extern "C" __device__ int set_descriptor(int *out, int *smem) {
    unsigned usmem = __cvta_generic_to_shared(smem);
    asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 2;" :: "r"(usmem));
    return 0;
}
"""
PORTABLE = 'extern "C" __device__ int twice(int *r, int x) { *r = 2 * x; return 0; }'


@needs_nvrtc
def test_code_needing_sm_90a_compiles_for_it_and_links_for_it():
    source = cuda.CUSource(TENSORMAP)
    cubin, arch_specific = linking._compiled(source, 90)
    assert cubin[:4] == b"\x7fELF" and arch_specific
    assert linking.link_target([source], 90) == 0x10000 + 90
    assert linking.link_target([cuda.CUSource(PORTABLE), source], 90) == 0x10000 + 90


@needs_nvrtc
def test_portable_code_keeps_the_portable_target(tmp_path):
    path = tmp_path / "twice.cu"
    path.write_text(PORTABLE)
    for link in (cuda.CUSource(PORTABLE), str(path)):
        assert linking._compiled(link, 90)[1] is False
        assert linking.link_target([link], 90) == 0


@needs_nvrtc
def test_below_9_0_there_is_no_variant_to_try():
    with pytest.raises(NvrtcCompilationError, match="tensormap.replace"):
        linking.compile_cuda_source(cuda.CUSource(TENSORMAP), 80)


@needs_nvrtc
def test_an_error_names_the_first_compilations_problem():
    broken = cuda.CUSource('extern "C" __device__ int f(int *r) { *r = missing; return 0; }')
    with pytest.raises(NvrtcCompilationError, match='identifier "missing" is undefined'):
        linking.compile_cuda_source(broken, 90)


@pytest.mark.skipif(
    not cuda.is_available() or cuda.get_current_device().compute_capability != (9, 0),
    reason="needs a GPU of compute capability 9.0 (sm_90a)",
)
@needs_nvrtc
def test_a_kernel_runs_code_linked_for_sm_90a():
    cffi = pytest.importorskip("cffi")
    ffi = cffi.FFI()
    set_descriptor = cuda.declare_device(
        "set_descriptor", types.int32(types.CPointer(types.int32)), link=[cuda.CUSource(TENSORMAP)]
    )

    @cuda.jit
    def kernel(a):
        shared = cuda.shared.array(1, dtype=np.int32)
        set_descriptor(ffi.from_buffer(shared))
        shared[0] = 2
        cuda.syncthreads()
        a[0] = shared[0]

    a = np.ones(1, dtype=np.int32)
    kernel[1, 1](a)
    assert a[0] == 2
