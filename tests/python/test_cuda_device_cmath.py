"""cmath in kernels and device functions: the unary functions (``taipan_cmath_unary``) and
``cmath.rect`` (``taipan_cmath_rect``) have device definitions written in Python
(taipan/cuda/device_runtime.py, CPython's cmathmodule.c ported), linked into a kernel's module
when it calls them; ``complex(*cmath.polar(z))`` spreads a call's tuple.

Without a GPU the library itself is compiled for the CPU and compared with CPython's ``cmath``
over a grid of special values (infinities, NaN, signed zeros, huge, tiny and subnormal parts):
values within a few ulps, special values and zero signs exactly, and the error each raises
(ValueError, OverflowError) as the status. Kernels calling every function are compiled to PTX
and assembled by ptxas; launches are marked by ``needs_gpu``."""

import cmath
import itertools
import math
import struct

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda
from taipan.cuda import device_runtime

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

PARTS = [-math.inf, -1e308, -3.5, -1.0, -1e-310, -0.0, 0.0, 1e-310, 1e-300, 0.5, 1.0, 1.5]
PARTS += [math.pi, 1e10, 1e300, math.inf, math.nan]
GRID = list(itertools.product(PARTS, PARTS))
STATUS = {None: 0, ValueError: 1, OverflowError: 2}


def ulps_apart(a, b):
    """How many doubles lie between a and b; 0 for two NaNs, a large number for another sign
    of zero or an infinity against a number."""
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else 1 << 62
    if a == b:
        return 0 if math.copysign(1.0, a) == math.copysign(1.0, b) else 1 << 62
    if math.isinf(a) or math.isinf(b):
        return 1 << 62
    bits_a = struct.unpack("<q", struct.pack("<d", a))[0]
    bits_b = struct.unpack("<q", struct.pack("<d", b))[0]
    return abs(bits_a - bits_b)


def expected(function, *arguments):
    """(status, value) of CPython: the value is None where it raises."""
    try:
        return 0, function(*arguments)
    except (ValueError, OverflowError) as error:
        return STATUS[type(error)], None


def assert_like_cpython(got, want_status, want, where, ulps=4):
    status, real, imag = got
    assert int(status) == want_status, where
    if want is not None:
        assert ulps_apart(real, want.real) <= ulps, (where, real, want)
        assert ulps_apart(imag, want.imag) <= ulps, (where, imag, want)
        if not (math.isfinite(want.real) and math.isfinite(want.imag)):
            assert ulps_apart(real, want.real) == 0 and ulps_apart(imag, want.imag) == 0, where


@pytest.fixture(scope="module")
def unary_on_cpu():
    return taipan.njit(device_runtime.cmath_unary)


@pytest.mark.parametrize("number, name", list(enumerate(device_runtime.FUNCTION_NAMES)))
def test_unary_functions_match_cpython_on_special_values(unary_on_cpu, number, name):
    function = getattr(cmath, name)
    for x, y in GRID:
        status, value = expected(function, complex(x, y))
        assert_like_cpython(unary_on_cpu(number, x, y), status, value, (name, x, y))


def test_rect_matches_cpython_on_special_values():
    rect = taipan.njit(device_runtime.cmath_rect)
    for r, phi in GRID:
        status, value = expected(cmath.rect, r, phi)
        assert_like_cpython(rect(r, phi), status, value, ("rect", r, phi), ulps=2)


def test_log_with_a_base_reports_only_cpythons_errors():
    """cmath.log(z, base): CPython reports the base's error and a base of 1 (a zero divisor) as
    ValueError, never z's (log(0j, 1j) is nan+infj); on the CPU and in kernels alike."""
    log = taipan.njit(lambda z, base: cmath.log(z, base))
    parts = [-math.inf, -1.0, -0.0, 0.0, 1.0, math.pi, math.inf, math.nan]
    values = [complex(x, y) for x, y in itertools.product(parts, parts)]
    for z, base in itertools.product(values, values):
        status, want = expected(cmath.log, z, base)
        try:
            got = log(z, base)
        except ValueError:
            assert status == 1, (z, base)
            continue
        assert status == 0, (z, base, got)
        assert ulps_apart(got.real, want.real) <= 3 and ulps_apart(got.imag, want.imag) <= 3, (
            z,
            base,
            got,
            want,
        )


def test_function_numbers_are_the_runtimes():
    """The library's numbering is runtime/PythonMath.h's CmathFunction: the CPU's compiled call
    passes the number the device library reads."""
    for number, name in enumerate(device_runtime.FUNCTION_NAMES):
        function = getattr(cmath, name)
        compiled = taipan.njit(lambda z, function=function: function(z))
        compiled(1 + 1j)
        llvm = next(iter(compiled.inspect_llvm().values()))
        assert f"@taipan_cmath_unary(i32 {number}," in llvm.replace("i32 noundef", "i32"), name


def test_a_symbol_outside_the_library_has_no_ir():
    from taipan.cuda.compiler import device_library_ir

    assert device_library_ir("taipan_device_nothing", 90) is None


def unary_kernel(name, complex_type):
    """A kernel calling cmath.<name> through a device function, as numba-cuda's tests do."""
    function = getattr(cmath, name)

    def call(z):
        return function(z)

    device = cuda.jit(f"{complex_type}({complex_type})", device=True)(call)

    def kernel(out, a):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = device(a[i])

    return kernel


def rect_kernel(out, r, phi):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = cmath.rect(r[i], phi[i])


def polar_kernel(out, a):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = complex(*cmath.polar(a[i]))


@needs_ptxas
@pytest.mark.parametrize("complex_type", ["complex128", "complex64"])
@pytest.mark.parametrize("name", device_runtime.FUNCTION_NAMES)
def test_kernels_calling_cmath_assemble(name, complex_type, tmp_path):
    kernel = unary_kernel(name, complex_type)
    ptx, _ = cuda.compile_ptx(kernel, f"void({complex_type}[::1], {complex_type}[::1])")
    assert "taipan_cmath_unary" not in ptx  # the adapter is inlined, nothing is left to link
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_rect_and_polar_kernels_assemble(tmp_path):
    ptx, _ = cuda.compile_ptx(rect_kernel, "void(complex128[::1], float64[::1], float64[::1])")
    ptxas(ptx, tmp_path)
    ptx, _ = cuda.compile_ptx(polar_kernel, "void(complex128[::1], complex128[::1])")
    ptxas(ptx, tmp_path)


@needs_ptxas
def test_a_ufunc_on_complex_numbers_assembles(tmp_path):
    def kernel(out, a):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = np.sin(a[i]) + np.arctanh(a[i])

    ptx, _ = cuda.compile_ptx(kernel, "void(complex128[::1], complex128[::1])")
    ptxas(ptx, tmp_path)


def test_star_of_a_call_spreads_its_tuple():
    @taipan.njit
    def polar_as_complex(z):
        return complex(*cmath.polar(z))

    def add3(a, b, c):
        return a + 10 * b + 100 * c

    jitted_add3 = taipan.njit(add3)

    @taipan.njit
    def spread(x):
        return jitted_add3(x, *divmod(x, 3))

    for z in [1 + 2j, complex(-0.0, 0.0), complex(math.inf, math.nan), -3.5j]:
        got = polar_as_complex(z)
        want = complex(*cmath.polar(z))
        assert ulps_apart(got.real, want.real) <= 1 and ulps_apart(got.imag, want.imag) <= 1
    assert spread(7) == add3(7, *divmod(7, 3))


@needs_gpu
@pytest.mark.parametrize("name", device_runtime.FUNCTION_NAMES)
def test_kernels_match_cpython(name):
    values = [complex(x, y) for x, y in GRID]
    for complex_type, dtype, ulps in [("complex128", np.complex128, 4)]:
        kernel = cuda.jit(f"void({complex_type}[::1], {complex_type}[::1])")(
            unary_kernel(name, complex_type)
        )
        a = np.array(values, dtype=dtype)
        out = np.zeros_like(a)
        kernel[1, len(a)](out, a)
        function = getattr(cmath, name)
        for z, got in zip(values, out):
            _, want = expected(function, z)
            if want is not None:
                got = complex(got)
                assert_like_cpython((0, got.real, got.imag), 0, want, (name, z), ulps)


@needs_gpu
def test_rect_kernel_matches_cpython():
    pairs = [(r, phi) for r, phi in GRID if expected(cmath.rect, r, phi)[1] is not None]
    r = np.array([p[0] for p in pairs])
    phi = np.array([p[1] for p in pairs])
    out = np.zeros(len(pairs), dtype=np.complex128)
    cuda.jit(rect_kernel)[1, len(pairs)](out, r, phi)
    for (x, y), got in zip(pairs, out):
        want = cmath.rect(x, y)
        assert_like_cpython((0, got.real, got.imag), 0, want, ("rect", x, y), 2)
