"""Compile options are parsed once and honoured on every target: fastmath (True, or a flag set),
opt and max_registers reach the PTX, the LLVM IR and the driver's JIT as numba-cuda's do. PTX
is checked by ptxas (no GPU needed); the launches run where a GPU is present."""

import math
import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda, float32, float64, void

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

SIGNATURE = void(float32[:], float32[:])


def divide_and_root(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = math.sqrt(a[i]) / b[i]


def sine(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = math.sin(b[i]) + math.exp(b[i])


def instructions(ptx):
    return [line.split()[0] for line in ptx.splitlines() if line.strip() and line[0] == "\t"]


@needs_ptxas
def test_fastmath_true_gives_approximate_division_and_sqrt(tmp_path):
    ptx, _ = cuda.compile_ptx(divide_and_root, SIGNATURE, fastmath=True)
    ops = instructions(ptx)
    assert "div.approx.ftz.f32" in ops
    assert "sqrt.approx.ftz.f32" in ops
    assert "div.rn.f32" not in ops and "sqrt.rn.f32" not in ops
    ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("fastmath", [False, {"nnan"}, {"nnan", "ninf", "nsz", "contract"}])
def test_without_fastmath_true_division_and_sqrt_are_correctly_rounded(fastmath, tmp_path):
    ptx, _ = cuda.compile_ptx(divide_and_root, SIGNATURE, fastmath=fastmath)
    ops = instructions(ptx)
    assert "div.rn.f32" in ops
    assert "sqrt.rn.f32" in ops
    assert not any("approx" in op or "ftz" in op for op in ops)
    ptxas(ptx, tmp_path)


def test_pooled_target_machines_keep_each_compilation_s_options():
    """Target machines are pooled by configuration (target/TargetMachinePool): compilations
    alternating between fastmath and exact arithmetic, and between opt levels, must each get
    their own options, whatever machine the previous one returned."""
    for _ in range(3):
        fast = instructions(cuda.compile_ptx(divide_and_root, SIGNATURE, fastmath=True)[0])
        exact = instructions(cuda.compile_ptx(divide_and_root, SIGNATURE)[0])
        flags = instructions(cuda.compile_ptx(divide_and_root, SIGNATURE, fastmath={"nnan"})[0])
        assert "div.approx.ftz.f32" in fast and "div.rn.f32" not in fast
        assert "div.rn.f32" in exact and not any("approx" in op for op in exact)
        assert "div.rn.f32" in flags and not any("approx" in op for op in flags)


def test_kernel_decorator_fastmath_reaches_the_ptx():
    fast = cuda.jit(SIGNATURE, fastmath=True)(divide_and_root)
    exact = cuda.jit(SIGNATURE)(divide_and_root)
    assert "div.approx.ftz.f32" in fast.inspect_asm(SIGNATURE.args)
    assert "div.rn.f32" in exact.inspect_asm(SIGNATURE.args)


def test_fastmath_true_uses_fast_libdevice_functions():
    fast = cuda.jit(SIGNATURE, fastmath=True)(sine)
    exact = cuda.jit(SIGNATURE)(sine)
    # __nv_fast_sinf and __nv_fast_expf become the hardware's approximations.
    fast_ops = instructions(fast.inspect_asm(SIGNATURE.args))
    exact_ops = instructions(exact.inspect_asm(SIGNATURE.args))
    assert "sin.approx.ftz.f32" in fast_ops
    assert "ex2.approx.ftz.f32" in fast_ops
    assert "sin.approx.ftz.f32" not in exact_ops
    assert "sin.approx.f32" not in exact_ops


def float_instructions(ir):
    return [
        line.strip() for line in ir.splitlines() if re.search(r"= (fdiv|fmul|fadd|fsub) ", line)
    ]


@pytest.mark.parametrize(
    "flags, expected",
    [
        ({"nnan"}, ["nnan"]),
        ({"nnan", "arcp"}, ["nnan", "arcp"]),
        ({"ninf", "nsz"}, ["ninf", "nsz"]),
    ],
)
def test_flag_set_gives_exactly_those_flags_on_the_cpu(flags, expected):
    @taipan.njit(fastmath=flags)
    def divide(a, b):
        return a / b + a * b

    assert divide(3.0, 4.0) == 3.0 / 4.0 + 3.0 * 4.0
    lines = float_instructions(divide.inspect_llvm((float64, float64)))
    assert lines, "no float arithmetic in the IR"
    for line in lines:
        op = line.split("= ")[1].split()
        given = [word for word in op[1:] if word in {"nnan", "ninf", "nsz", "arcp", "contract"}]
        assert sorted(given) == sorted(expected), line
        assert "fast" not in op and "reassoc" not in op and "afn" not in op, line


def test_fastmath_true_gives_fast_on_the_cpu():
    @taipan.njit(fastmath=True)
    def divide(a, b):
        return a / b

    assert divide(1.0, 8.0) == 0.125
    lines = float_instructions(divide.inspect_llvm((float64, float64)))
    assert any("fdiv fast double" in line for line in lines), lines


def test_flag_set_gives_exactly_those_flags_on_cuda():
    kernel = cuda.jit(SIGNATURE, fastmath={"nnan", "arcp"})(divide_and_root)
    ir = kernel.inspect_llvm(SIGNATURE.args)
    divisions = [line for line in ir.splitlines() if " fdiv " in line]
    assert divisions
    for line in divisions:
        assert "fdiv nnan arcp float" in line, line
    assert "unsafe-fp-math" not in ir
    assert '"denormal-fp-math-f32"="preserve-sign' not in ir


def test_fastmath_true_marks_every_function_on_cuda():
    kernel = cuda.jit(SIGNATURE, fastmath=True)(divide_and_root)
    ir = kernel.inspect_llvm(SIGNATURE.args)
    assert "fdiv fast float" in ir
    assert '"unsafe-fp-math"="true"' in ir
    assert '"denormal-fp-math-f32"="preserve-sign,preserve-sign"' in ir


def test_unknown_fastmath_flag_is_refused():
    with pytest.raises(ValueError, match="unknown fastmath flag fastest"):
        cuda.compile_ptx(divide_and_root, SIGNATURE, fastmath={"fastest"})


def test_opt_false_leaves_the_ir_unoptimised():
    optimised = cuda.jit(SIGNATURE)(divide_and_root).inspect_llvm(SIGNATURE.args)
    plain = cuda.jit(SIGNATURE, opt=False)(divide_and_root).inspect_llvm(SIGNATURE.args)
    # O0 keeps the variables' allocas and the call of the status-returning function.
    assert "alloca" in plain and "alloca" not in optimised
    assert re.search(r"call i32 @taipan_divide_and_root_\w+\(", plain)
    assert not re.search(r"call i32 @taipan_divide_and_root_\w+\(", optimised)


@needs_ptxas
def test_opt_false_ptx_passes_ptxas(tmp_path):
    ptx, _ = cuda.compile_ptx(divide_and_root, SIGNATURE, opt=False)
    ptxas(ptx, tmp_path)
    ptx_fast, _ = cuda.compile_ptx(divide_and_root, SIGNATURE, opt=False, fastmath=True)
    assert "div.approx.ftz.f32" in ptx_fast
    ptxas(ptx_fast, tmp_path)


@needs_ptxas
def test_max_registers_reaches_ptx_and_the_driver(tmp_path):
    kernel = cuda.jit(SIGNATURE, max_registers=32)(divide_and_root)
    compiled = kernel.overloads[tuple(SIGNATURE.args)]
    assert compiled.max_registers == 32
    assert ".maxnreg 32" in compiled.ptx
    ptxas(compiled.ptx, tmp_path)
    unlimited = cuda.jit(SIGNATURE)(divide_and_root).overloads[tuple(SIGNATURE.args)]
    assert unlimited.max_registers == 0
    assert ".maxnreg" not in unlimited.ptx


def test_negative_max_registers_is_refused():
    with pytest.raises(ValueError, match="max_registers"):
        cuda.jit(SIGNATURE, max_registers=-4)(divide_and_root)


@needs_gpu
@pytest.mark.parametrize("options", [{"fastmath": True}, {"opt": False}, {"max_registers": 32}])
def test_kernels_with_options_run(options):
    kernel = cuda.jit(SIGNATURE, **options)(divide_and_root)
    a = np.linspace(1.0, 100.0, 1000).astype(np.float32)
    b = np.linspace(2.0, 5.0, 1000).astype(np.float32)
    expected = np.sqrt(a) / b
    kernel[8, 128](a, b)
    # fastmath's approximations are within a few ulps.
    np.testing.assert_allclose(a, expected, rtol=1e-5 if options.get("fastmath") else 1e-7)
