"""A ``@cuda.jit`` function a kernel calls lists the argument types it was called with among its
``signatures`` and ``overloads``, as numba-cuda's does (its code is compiled into the kernel's;
the overload is the device function compiled alone when looked at, whose ``library``
gives its LLVM IR). No GPU needed: kernels are compiled, not launched."""

import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float64, int32, void

times2 = cuda.declare_device("times2_called_overloads", "int32(int32)", abi="c")


@cuda.jit
def through_c(x):
    return times2(x)


@cuda.jit
def doubled(x):
    return x * 2


@cuda.jit(device=True)
def tripled(x):
    return x * 3


@cuda.jit
def calls_them(r, x):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = through_c(x[i]) + doubled(x[i]) + tripled(x[i])


def test_a_kernel_s_callees_list_the_types_it_called_them_with():
    before = {f: list(f.signatures) for f in (through_c, doubled, tripled)}
    calls_them.compile("void(int32[:], int32[:])")
    for function in (through_c, doubled, tripled):
        assert (int32,) in function.signatures
        assert (int32,) not in before[function]
    calls_them.compile("void(float64[:], float64[:])")
    assert (float64,) in doubled.signatures and (float64,) in tripled.signatures


def test_the_overload_is_the_device_function_compiled_alone(tmp_path):
    calls_them.compile("void(int32[:], int32[:])")
    compiled = through_c.overloads[(int32,)]
    ir = compiled.library.get_llvm_str()
    assert compiled.inspect_llvm() == ir
    # Numba's ABI: the status returned, 0 as nothing a C function does can raise.
    assert "ret i32 0" in ir and "call i32 @times2_called_overloads" in ir
    assert str(compiled.return_type) == "int32"
    for function in (doubled, tripled):
        overload = function.overloads[(int32,)]
        assert "ret i32 0" in overload.library.get_llvm_str()
        assert overload.type_annotation.typemap["x"] == int32


@needs_ptxas
def test_a_callee_still_launches_as_a_kernel_of_its_own(tmp_path):
    """Listing a called specialisation does not make the function a device function: compiled
    for kernel arguments, it is a kernel."""

    @cuda.jit
    def store(out):
        out[0] = 5

    @cuda.jit
    def caller(out):
        store(out)

    caller.compile("void(int32[:])")
    assert store.signatures == [(int32[:],)]
    kernel = store.compile("void(int32[:])")
    ptxas(kernel.ptx, tmp_path)
    assert ".entry" in kernel.ptx
    assert store.overloads[(int32[:],)] is kernel


def test_a_kernel_lists_no_called_types_of_its_own():
    @cuda.jit
    def alone(out):
        out[0] = 1.5

    alone.compile(void(float64[:]))
    assert alone.signatures == [(float64[:],)]
    assert list(alone.overloads) == [(float64[:],)]


def test_code_without_its_ir_says_so():
    from taipan.cuda.dispatcher import Kernel

    kernel = Kernel("", "k", None, "", "hash")
    with pytest.raises(NotImplementedError, match="LLVM IR"):
        kernel.library.get_llvm_str()
    with pytest.raises(NotImplementedError, match="LLVM IR"):
        kernel.inspect_llvm()


def test_a_kernel_s_own_ir_is_its_dispatcher_s():
    @cuda.jit
    def fill(out):
        out[0] = 7

    kernel = fill.compile("void(int32[:])")
    assert kernel.inspect_llvm() == fill.inspect_llvm((int32[:],))
    assert "store i32 7" in kernel.inspect_llvm()
