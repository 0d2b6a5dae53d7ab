"""Foreign device code: cuda.declare_device and @cuda.jit(link=[...]). Here (no GPU): the PTX of
calls in both conventions passes ptxas, NVRTC compiles .cu files, and bad declarations and
calls raise errors naming the user's line. On a GPU: kernels linked with .cu, .ptx, .cubin, .o
and .a files run, as in the seeds' declare_device example."""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import _core, cuda, float32, int32, jit, types, void
from taipan.cuda import linking
from taipan.errors import TypingError, UnsupportedError

NVCC = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
needs_nvrtc = pytest.mark.skipif(not _core.nvrtc_available(), reason="NVRTC not installed")
needs_nvcc = pytest.mark.skipif(not os.path.exists(NVCC), reason="nvcc not installed")

# The seeds' foreign function, in Numba's convention, plus one in the plain C convention and
# one taking a pointer to an array's data.
FUNCTIONS_CU = r"""
extern "C" __device__ int bar(int *retval, int a, int b) {
    *retval = a * b;
    return 0;
}

extern "C" __device__ float scale_c(float x, float factor) { return x * factor; }

extern "C" __device__ int sum_reduce(float *result, float *array, int n) {
    float total = 0.0f;
    for (int i = 0; i < n; ++i)
        total += array[i];
    *result = total;
    return 0;
}
"""

# bar in hand-written PTX: the .ptx route needs no compiler.
BAR_PTX = """
.version 8.0
.target sm_90
.address_size 64

.visible .func (.param .b32 func_retval0) bar(
    .param .b64 bar_param_0,
    .param .b32 bar_param_1,
    .param .b32 bar_param_2
)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [bar_param_0];
    ld.param.u32 %r1, [bar_param_1];
    ld.param.u32 %r2, [bar_param_2];
    mul.lo.s32 %r3, %r1, %r2;
    st.u32 [%rd1], %r3;
    mov.u32 %r4, 0;
    st.param.b32 [func_retval0+0], %r4;
    ret;
}
"""

bar = cuda.declare_device("bar", "int32(int32, int32)")
scale_c = cuda.declare_device("scale_c", "float32(float32, float32)", abi="c")
sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)")


def seed_foo(inp, out):
    i = cuda.grid(1)
    out[i] = bar(inp[i], 2)


def scale_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = scale_c(x[i], 3.0)


def reduce_kernel(values, out):
    out[0] = sum_reduce(values, len(values))


def extern_declaration(ptx, symbol):
    match = re.search(r"\.extern\s+\.func\s+(\([^)]*\)\s*)?" + symbol + r"\s*\(([^)]*)\)", ptx)
    assert match, ptx
    returns, parameters = match.group(1) or "", match.group(2)
    return returns, re.findall(r"\.param\s+\.(\w+)", parameters)


@needs_ptxas
def test_numba_convention_passes_result_pointer_then_arguments(tmp_path):
    ptx, _ = cuda.compile_ptx(seed_foo, void(int32[:], int32[:]))
    returns, parameters = extern_declaration(ptx, "bar")
    assert ".b32" in returns  # the status
    assert parameters == ["b64", "b32", "b32"]  # int *retval, int a, int b
    assert linking.external_symbols(ptx) == ["bar"]
    ptxas(ptx, tmp_path, relocatable=True)


@needs_ptxas
def test_c_convention_returns_the_value(tmp_path):
    ptx, _ = cuda.compile_ptx(scale_kernel, void(float32[:], float32[:]))
    returns, parameters = extern_declaration(ptx, "scale_c")
    assert ".f32" in returns or ".b32" in returns
    assert parameters in (["f32", "f32"], ["b32", "b32"])  # NVPTX spells floats .b32
    ptxas(ptx, tmp_path, relocatable=True)


@needs_ptxas
def test_arrays_pass_their_data_to_pointer_parameters(tmp_path):
    ptx, _ = cuda.compile_ptx(reduce_kernel, void(float32[:], float32[:]))
    _, parameters = extern_declaration(ptx, "sum_reduce")
    assert parameters == ["b64", "b64", "b32"]
    ptxas(ptx, tmp_path, relocatable=True)


def test_functions_the_driver_provides_need_no_link():
    def prints(out):
        print("value", out[0])

    ptx, _ = cuda.compile_ptx(prints, void(int32[:]))
    assert ".extern .func" in ptx and "vprintf" in ptx
    assert linking.external_symbols(ptx) == []


def test_void_results_and_the_pointer_types():
    assert str(types.CPointer(float32)) == "float32*"
    assert str(types.voidptr) == "void*"
    touch = cuda.declare_device("touch", "void(voidptr)", abi="c")

    def kernel(a):
        touch(a)

    ptx, _ = cuda.compile_ptx(kernel, void(float32[:]))
    returns, parameters = extern_declaration(ptx, "touch")
    assert returns == "" and parameters == ["b64"]


def test_declaration_errors():
    # numba-cuda declares array parameters: the declaration stands, a call is refused.
    takes_array = cuda.declare_device("f", "float32(float32[:])")

    def calls_it(out):
        out[0] = takes_array(out)

    with pytest.raises(TypingError, match=r"CPointer\(float32\)") as info:
        cuda.compile_ptx(calls_it, void(float32[:]))
    assert "out[0] = takes_array(out)" in str(info.value)
    with pytest.raises(TypeError, match="return type"):
        cuda.declare_device("f", (float32,))
    with pytest.raises(ValueError, match="abi"):
        cuda.declare_device("f", "float32(float32)", abi="fortran")
    with pytest.raises(TypeError, match="from a kernel"):
        bar(1, 2)
    assert "bar" in repr(bar) and "numba" in repr(bar)


def test_wrong_calls_name_the_line():
    def too_few(out):
        out[0] = bar(1)

    with pytest.raises(TypingError, match=r"takes 2 arguments but 1 were given") as info:
        cuda.compile_ptx(too_few, void(int32[:]))
    assert "out[0] = bar(1)" in str(info.value)

    def wrong_pointer(out):
        out[0] = sum_reduce(out, 3)

    with pytest.raises(TypingError, match=r"argument 1 of sum_reduce\(\) must be float32\*"):
        cuda.compile_ptx(wrong_pointer, void(int32[:]))

    def complex_argument(out):
        out[0] = bar(1j, 2)

    with pytest.raises(TypingError, match="must be int32"):
        cuda.compile_ptx(complex_argument, void(int32[:]))


def test_host_code_cannot_call_foreign_device_functions():
    @jit
    def host(a):
        return bar(a, 2)

    with pytest.raises(UnsupportedError, match="only be called from CUDA kernels"):
        host(3)


def test_link_files_are_checked_when_decorating(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.cu"):
        cuda.jit(link=[str(tmp_path / "missing.cu")])(seed_foo)
    other = tmp_path / "code.txt"
    other.write_text("")
    with pytest.raises(ValueError, match=r"expected a \.cu, \.ptx"):
        cuda.jit(link=[str(other)])(seed_foo)
    with pytest.raises(FileNotFoundError):
        cuda.declare_device("f", "int32(int32)", link=[str(tmp_path / "gone.ptx")])


@needs_nvrtc
def test_nvrtc_compiles_cu_files_to_relocatable_cubins(tmp_path):
    source = tmp_path / "functions.cu"
    source.write_text(FUNCTIONS_CU)
    cubin = linking.compile_cuda_source(str(source), 90)
    assert cubin[:4] == b"\x7fELF"
    assert linking.compile_cuda_source(str(source), 90) is cubin  # compiled once
    assert _core.nvrtc_version() >= (11, 2)


@needs_nvrtc
def test_nvrtc_errors_carry_the_log(tmp_path):
    source = tmp_path / "broken.cu"
    source.write_text('extern "C" __device__ int broken(int *r) { return undeclared; }\n')
    with pytest.raises(cuda.NvrtcCompilationError, match="undeclared") as info:
        linking.compile_cuda_source(str(source), 90)
    assert "broken.cu" in str(info.value)


def test_inspect_llvm_of_a_kernel():
    kernel = cuda.jit(void(int32[:], int32[:]))(seed_foo)
    ir = kernel.inspect_llvm(void(int32[:], int32[:]))
    assert 'target triple = "nvptx64-nvidia-cuda"' in ir
    assert re.search(r"declare .*@bar\(", ir)
    assert list(kernel.inspect_llvm()) == [(int32[:], int32[:])]


def test_inspect_sass_without_nvdisasm_says_so(monkeypatch):
    monkeypatch.setattr(linking.shutil, "which", lambda name: None)
    monkeypatch.setattr(linking.os, "access", lambda path, mode: False)
    kernel = cuda.jit(void(int32[:], int32[:]))(seed_foo)
    with pytest.raises(RuntimeError, match="nvdisasm"):
        kernel.inspect_sass()


# On the GPU.


def run_seed(kernel, n=64):
    inp = np.arange(n, dtype=np.int32)
    out = np.zeros_like(inp)
    kernel[1, n](inp, out)
    np.testing.assert_array_equal(out, inp * 2)


@pytest.fixture
def functions_cu(tmp_path):
    path = tmp_path / "functions.cu"
    path.write_text(FUNCTIONS_CU)
    return str(path)


def nvcc(tmp_path, source, *arguments):
    major, minor = cuda.get_current_device().compute_capability
    result = subprocess.run(
        [NVCC, f"-arch=sm_{major}{minor}", "-rdc=true", *arguments, source],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr


@needs_gpu
def test_seed_kernel_linked_with_a_cu_file(functions_cu):
    run_seed(cuda.jit("void(int32[:], int32[:])", link=[functions_cu])(seed_foo))


@needs_gpu
def test_seed_kernel_linked_with_ptx_and_cubin(tmp_path, functions_cu):
    ptx = tmp_path / "bar.ptx"
    ptx.write_text(BAR_PTX)
    run_seed(cuda.jit(link=[str(ptx)])(seed_foo))
    major, minor = cuda.get_current_device().compute_capability
    cubin = tmp_path / "functions.cubin"
    cubin.write_bytes(linking.compile_cuda_source(functions_cu, major * 10 + minor))
    run_seed(cuda.jit(link=[str(cubin)])(seed_foo))


@needs_gpu
@needs_nvcc
def test_seed_kernel_linked_with_object_and_library(tmp_path, functions_cu):
    nvcc(tmp_path, functions_cu, "-c", "-o", "jitlink.o")
    run_seed(cuda.jit(link=[str(tmp_path / "jitlink.o")])(seed_foo))
    nvcc(tmp_path, functions_cu, "-lib", "-o", "libjitlink.a")
    run_seed(cuda.jit(link=[str(tmp_path / "libjitlink.a")])(seed_foo))
    nvcc(tmp_path, functions_cu, "-fatbin", "-o", "jitlink.fatbin")
    run_seed(cuda.jit(link=[str(tmp_path / "jitlink.fatbin")])(seed_foo))


@needs_gpu
def test_c_convention_and_pointer_arguments_run(functions_cu):
    x = np.linspace(-2, 2, 100).astype(np.float32)
    out = np.zeros_like(x)
    cuda.jit(link=[functions_cu])(scale_kernel)[1, 128](x, out)
    np.testing.assert_allclose(out, x * 3)
    total = np.zeros(1, dtype=np.float32)
    cuda.jit(link=[functions_cu])(reduce_kernel)[1, 1](x, total)
    np.testing.assert_allclose(total[0], x.sum(), atol=1e-4)


@needs_gpu
def test_links_come_with_declarations_and_device_functions(functions_cu):
    twice = cuda.declare_device("bar", "int32(int32, int32)", link=[functions_cu])

    def uses_declaration(inp, out):
        i = cuda.grid(1)
        out[i] = twice(inp[i], 2)

    run_seed(cuda.jit(uses_declaration))

    @cuda.jit(device=True, link=[functions_cu])
    def helper(value):
        return bar(value, 2)

    def uses_helper(inp, out):
        i = cuda.grid(1)
        out[i] = helper(inp[i])

    run_seed(cuda.jit(uses_helper))


@needs_gpu
def test_unresolved_foreign_functions_raise_linker_errors(tmp_path):
    missing = cuda.declare_device("not_defined_anywhere", "int32(int32)")

    def calls_missing(out):
        out[0] = missing(1)

    out = np.zeros(1, dtype=np.int32)
    with pytest.raises(cuda.LinkerError, match="nothing is linked"):
        cuda.jit(calls_missing)[1, 1](out)
    ptx = tmp_path / "bar.ptx"
    ptx.write_text(BAR_PTX)
    with pytest.raises(cuda.LinkerError, match="not_defined_anywhere"):
        cuda.jit(link=[str(ptx)])(calls_missing)[1, 1](out)


@needs_gpu
def test_bad_cu_file_raises_at_the_first_launch(tmp_path):
    source = tmp_path / "broken.cu"
    source.write_text('extern "C" __device__ int bar(int *r, int a, int b) { return nope; }\n')
    kernel = cuda.jit(link=[str(source)])(seed_foo)
    with pytest.raises(cuda.NvrtcCompilationError, match="nope"):
        run_seed(kernel)


@needs_gpu
def test_inspect_sass_disassembles_the_linked_kernel(functions_cu):
    try:
        linking.find_nvdisasm()
    except RuntimeError:
        pytest.skip("nvdisasm not installed")
    kernel = cuda.jit("void(int32[:], int32[:])", link=[functions_cu])(seed_foo)
    sass = kernel.inspect_sass(void(int32[:], int32[:]))
    assert re.search(r"\bEXIT\b", sass) and re.search(r"IMAD|IMUL", sass), sass[:2000]


def test_compile_ptx_refuses_other_abis():
    with pytest.raises(UnsupportedError, match="abi='c'"):
        cuda.compile_ptx(seed_foo, void(int32[:], int32[:]), abi="c")
