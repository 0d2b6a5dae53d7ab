"""CUDA kernels and device functions contract x * y + z into one fma.rn, with or without
fastmath, as NVVM and nvcc (-fmad=true) do, so that taipan's PTX and results are numba-cuda's;
the CPU target never contracts (its results are Python's, bit for bit). Checked on the PTX
(assembled by ptxas for sm_90), without a GPU."""

import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda

FLOAT_TYPES = ("float16", "float32", "float64")
SUFFIX = {"float16": "f16", "float32": "f32", "float64": "f64"}


def multiply_add_kernel(r, a, b, c):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = a[i] * b[i] + c[i]


def multiply_subtract_kernel(r, a, b, c):
    i = cuda.grid(1)
    if i < r.size:
        product = a[i] * b[i]  # contraction crosses statements, as NVVM's does
        r[i] = c[i] - product


def multiply_add(a, b, c):
    return a * b + c


def float_instructions(ptx, suffix):
    """The PTX's arithmetic instructions on `suffix` (f16, f32, f64) values, by opcode."""
    return re.findall(rf"\b((?:fma|mul|add|sub)(?:\.\w+)*?\.{suffix})\b", ptx)


def kernel_ptx(kernel, type_name, **options):
    signature = f"void({', '.join([type_name + '[::1]'] * 4)})"
    ptx, _ = cuda.compile_ptx(kernel, signature, cc=(9, 0), **options)
    return ptx


@needs_ptxas
@pytest.mark.parametrize("type_name", FLOAT_TYPES)
@pytest.mark.parametrize("kernel", [multiply_add_kernel, multiply_subtract_kernel])
def test_kernels_contract_by_default(kernel, type_name, tmp_path):
    ptx = kernel_ptx(kernel, type_name)
    suffix = SUFFIX[type_name]
    assert float_instructions(ptx, suffix) == [f"fma.rn.{suffix}"], ptx
    ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("type_name", FLOAT_TYPES)
def test_device_functions_contract_by_default(type_name, tmp_path):
    ptx, _ = cuda.compile_ptx(
        multiply_add, f"{type_name}({type_name}, {type_name}, {type_name})", device=True
    )
    assert float_instructions(ptx, SUFFIX[type_name]) == [f"fma.rn.{SUFFIX[type_name]}"]
    ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("type_name", ["float16", "float32"])
def test_fastmath_keeps_its_flags(type_name, tmp_path):
    """fastmath=True still flushes subnormals (ftz), on top of the contraction."""
    ptx = kernel_ptx(multiply_add_kernel, type_name, fastmath=True)
    suffix = SUFFIX[type_name]
    assert float_instructions(ptx, suffix) == [f"fma.rn.ftz.{suffix}"], ptx
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_fastmath_keeps_approximate_division(tmp_path):
    def divide(r, a, b, c):
        r[0] = a[0] / b[0] + c[0]

    precise = kernel_ptx(divide, "float32")
    fast = kernel_ptx(divide, "float32", fastmath=True)
    assert "div.rn.f32" in precise and "div.approx" not in precise
    assert "div.approx.ftz.f32" in fast or "div.full.ftz.f32" in fast, fast
    ptxas(fast, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("operator, opcode", [("+", "add"), ("-", "sub"), ("*", "mul")])
def test_lone_operations_leave_ptxas_free_to_fuse(operator, opcode, tmp_path):
    """Without .rn (which forbids ptxas' own fusion), as NVVM writes them: numba-cuda's
    test_fp16_binary_ptx and test_h{add,sub,mul}_ptx look for add.f16, sub.f16, mul.f16."""
    namespace = {}
    exec(f"def k(r, a, b):\n    r[0] = a {operator} b\n", namespace)  # noqa: S102
    for type_name in FLOAT_TYPES:
        ptx, _ = cuda.compile_ptx(
            namespace["k"], f"void({type_name}[::1], {type_name}, {type_name})", cc=(9, 0)
        )
        assert f"{opcode}.{SUFFIX[type_name]}" in ptx, ptx
    ptxas(ptx, tmp_path)


# x * x + c where the rounded product cancels c exactly: 0.0 unfused, the product's rounding
# error (a tiny nonzero) fused.
CANCELLING = [
    (np.float64, 1.0 + 2.0**-27, -(1.0 + 2.0**-26)),
    (np.float32, 1.0 + 2.0**-12, -(1.0 + 2.0**-11)),
]


@pytest.mark.parametrize("dtype, x, c", CANCELLING)
def test_cpu_does_not_contract(dtype, x, c):
    compiled = taipan.njit(multiply_add)
    x, c = dtype(x), dtype(c)
    expected = compiled.py_func(x, x, c)
    got = compiled(x, x, c)
    assert expected == 0.0
    assert np.asarray(got, dtype=dtype).tobytes() == np.asarray(expected, dtype=dtype).tobytes()


@pytest.mark.parametrize("dtype, x, c", CANCELLING)
def test_cpu_arrays_do_not_contract(dtype, x, c):
    @taipan.njit
    def multiply_add_arrays(r, a, b, c):
        for i in range(r.shape[0]):
            r[i] = a[i] * b[i] + c[i]

    a = np.full(64, x, dtype=dtype)
    cs = np.full(64, c, dtype=dtype)
    got = np.empty_like(a)
    expected = np.empty_like(a)
    multiply_add_arrays(got, a, a, cs)
    multiply_add_arrays.py_func(expected, a, a, cs)
    assert not expected.any()
    assert got.tobytes() == expected.tobytes()


@needs_ptxas
@pytest.mark.parametrize("type_name", FLOAT_TYPES)
def test_opt_false_does_not_contract(type_name, tmp_path):
    """opt=False rounds the product and the sum separately, as NVVM's -opt=0 (numba-cuda's
    test_device_noopt); fastmath still contracts there."""
    signature = f"{type_name}({type_name}, {type_name}, {type_name})"
    suffix = SUFFIX[type_name]
    ptx, _ = cuda.compile_ptx(multiply_add, signature, device=True, opt=False)
    assert f"fma.rn.{suffix}" not in ptx
    assert f"mul.rn.{suffix}" in ptx and f"add.rn.{suffix}" in ptx, ptx
    ptxas(ptx, tmp_path)
    fast, _ = cuda.compile_ptx(multiply_add, signature, device=True, opt=False, fastmath=True)
    assert re.search(rf"fma\.rn(\.ftz)?\.{suffix}", fast), fast
