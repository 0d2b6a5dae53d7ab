"""cuda.libdevice: every one of libdevice's functions that numba-cuda declares compiles in a
kernel (as numba-cuda's test_libdevice generates them: PTX loading parameters and storing to
global memory) to PTX that ptxas accepts, typed as numba-cuda types them; device functions call
them too; the simulator evaluates them (exact directed roundings, int32 wrapping); and, on a
GPU (marker ``cuda``), numba-cuda's three value tests."""

import numpy as np
import pytest
from child_processes import run_in_simulator
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, types
from taipan.cuda import libdevice
from taipan.cuda.api.libdevice_prototypes import PROTOTYPES, signature_of
from taipan.errors import TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
TYPES = {name: getattr(types, name) for name in ("int16", "int32", "int64", "float32", "float64")}


def kernel_calling(name):
    """numba-cuda's generated test function for libdevice's `name`: each result is stored into
    element 0 of an output array, the inputs are parameters; with its signature."""
    results, inputs = signature_of(name)
    arguments = ", ".join(f"a{i}" for i in range(len(inputs)))
    outputs = ", ".join(f"r{i}" for i in range(len(results)))
    stores = ", ".join(f"r{i}[0]" for i in range(len(results)))
    code = (
        "from taipan.cuda import libdevice\n"
        f"def pyfunc({', '.join(filter(None, [outputs, arguments]))}):\n"
        f"    ret = libdevice.{name}({arguments})\n"
        f"    {stores} = ret\n"
    )
    namespace = {}
    exec(code, namespace)  # noqa: S102
    signature = [TYPES[r][::1] for r in results] + [TYPES[i] for i in inputs]
    return namespace["pyfunc"], tuple(signature)


@needs_ptxas
@pytest.mark.parametrize("name", sorted(PROTOTYPES))
def test_every_function_compiles_in_a_kernel(name, tmp_path):
    pyfunc, signature = kernel_calling(name)
    ptx, return_type = cuda.compile_ptx(pyfunc, signature)
    assert return_type == types.none
    assert "ld.param" in ptx
    assert "st.global" in ptx  # the results reach the arrays (numba-cuda's check)
    assert ".extern .func" not in ptx  # libdevice is linked, nothing is left external
    ptxas(ptx, tmp_path)


@pytest.mark.parametrize("name", sorted(PROTOTYPES))
def test_result_types_are_numba_cudas(name):
    """The compiler's table (CudaLibdeviceTable.inc) agrees with the Python one: a device
    function returning the call has the prototype's result type (a tuple for outputs)."""
    results, inputs = signature_of(name)
    arguments = ", ".join(f"a{i}" for i in range(len(inputs)))
    namespace = {}
    exec(  # noqa: S102
        f"from taipan.cuda import libdevice\n"
        f"def call({arguments}):\n    return libdevice.{name}({arguments})\n",
        namespace,
    )
    _, return_type = cuda.compile_ptx(
        namespace["call"], tuple(TYPES[i] for i in inputs), device=True
    )
    expected = [TYPES[r] for r in results]
    if len(expected) == 1:
        assert return_type == expected[0]
    else:
        assert return_type == types.Tuple(expected)


@needs_ptxas
def test_device_functions_and_converted_arguments(tmp_path):
    """Called from a device function, with arguments of other types (int64 elements to int32
    parameters, an int to a float one), as numba-cuda's single signature converts them."""

    @cuda.jit(device=True)
    def fraction_and_exponent(x):
        fraction, exponent = libdevice.frexp(x)
        return fraction + libdevice.sad(exponent, 1, 2)

    def kernel(out, x, n):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = fraction_and_exponent(x[i]) + libdevice.sqrt(n) + libdevice.popcll(n)

    ptx, _ = cuda.compile_ptx(kernel, (types.float64[::1], types.float64[::1], types.int64))
    ptxas(ptx, tmp_path)


def test_unsupported_arguments_are_typing_errors():
    def wrong_count(out, x):
        out[0] = libdevice.sin(x, x)

    def complex_argument(out, z):
        out[0] = libdevice.sin(z)

    with pytest.raises(TypingError):
        cuda.compile_ptx(wrong_count, (types.float64[::1], types.float64))
    with pytest.raises(TypingError):
        cuda.compile_ptx(complex_argument, (types.float64[::1], types.complex128))


def test_calling_from_python_outside_a_kernel_raises():
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        libdevice.sin(1.0)


@needs_ptxas
def test_kernel_arrays_are_accessed_as_global_memory():
    """Array arguments of kernels are marked global, so their loads and stores are ld.global and
    st.global (no generic addressing), as numba-cuda's are."""

    def copy(out, x):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * 2

    ptx, _ = cuda.compile_ptx(copy, (types.float32[::1], types.float32[::1]))
    assert "ld.global" in ptx and "st.global" in ptx
    assert "st.f32" not in ptx and "ld.f32" not in ptx


# --- values in the simulator -------------------------------------------------------------------

SIMULATED = """
import math
import numpy as np
from taipan import cuda
from taipan.cuda import libdevice as L
from taipan.cuda.api.libdevice_prototypes import PROTOTYPES, signature_of

# numba-cuda's three value tests (test_sincos, test_frexp, test_sad)
@cuda.jit
def use_all(s, c, frac, exp, r, x, a, b, z):
    i = cuda.grid(1)
    if i < len(x):
        sr, cr = L.sincos(x[i])
        s[i] = sr
        c[i] = cr
        fracr, expr = L.frexp(x[i])
        frac[i] = fracr
        exp[i] = expr
        r[i] = L.sad(a[i], b[i], z[i])

x = np.linspace(1.0, 10.0, 100)
a, b, z = np.arange(0, 200, 2), np.arange(50, 150), np.arange(15, 115)
s, c, frac, r = (np.zeros_like(x), np.zeros_like(x), np.zeros_like(x), np.zeros_like(a))
exp = np.zeros(100, np.int32)
use_all[4, 32](s, c, frac, exp, r, x, a, b, z)
np.testing.assert_allclose(s, np.sin(x))
np.testing.assert_allclose(c, np.cos(x))
fe, ee = np.frexp(x)
assert (frac == fe).all() and (exp == ee).all()
assert (r == np.abs(a - b) + z).all()

f32 = np.float32
# directed roundings, exactly
assert L.fadd_rd(f32(1), f32(1e-8)) == f32(1) and L.fadd_ru(f32(1), f32(1e-8)) > f32(1)
assert L.fadd_rn(f32(1), f32(1e-8)) == f32(1)
assert L.dadd_rz(-1.0, -1e-20) == -1.0 and L.dadd_rd(-1.0, -1e-20) < -1.0
assert L.ddiv_rn(1.0, 3.0) == 1.0 / 3.0
assert L.fdiv_rd(1, 3) < L.fdiv_ru(1, 3)
assert L.dsqrt_rd(2.0) < math.sqrt(2.0) == L.dsqrt_rn(2.0) == L.dsqrt_ru(2.0)
assert L.ll2float_rz(2**24 + 1) == 2**24 and L.ll2float_ru(2**24 + 1) == 2**24 + 2
assert L.int2float_rn(2**24 + 3) == 2**24 + 4  # ties to even
assert L.fma(0.1, 10.0, -1.0) == 5.551115123125783e-17  # exact: 0.1 is not 1/10
assert L.fma(0.1, 10.0, -1.0) != 0.1 * 10.0 - 1.0
# conversions saturate, NaN gives 0, halves round as their mode says
assert L.double2int_rz(-2.7) == -2 and L.double2int_rd(-2.5) == -3
assert L.double2int_rn(2.5) == 2 and L.double2int_rn(3.5) == 4
assert L.double2int_rn(1e20) == 2**31 - 1 and L.double2int_rn(float("nan")) == 0
assert L.double2uint_rn(-1.0) == 0 and L.double2uint_rn(4e9) == np.int32(np.uint32(4000000000).view(np.int32))
assert L.llround(-2.5) == -3 and L.llrint(-2.5) == -2 and L.round(2.5) == 3.0
# integers: int32 wraps, unsigned forms compare and multiply as unsigned
assert L.brev(1) == -(2**31) and L.clz(1) == 31 and L.clzll(1) == 63 and L.ffs(8) == 4
assert L.popcll(-1) == 64 and L.abs(-(2**31)) == -(2**31)
assert L.umax(-1, 1) == -1 and L.max(-1, 1) == 1 and L.umulhi(-1, -1) == -2 and L.mulhi(-1, -1) == 0
assert L.byte_perm(0x03020100, 0x07060504, 0x5410) == 0x05040100
assert L.hadd(2**31 - 1, 2**31 - 1) == 2**31 - 1 and L.urhadd(-1, -1) == -1
assert L.mul24(2**23, 2) == -(2**24) and L.usad(1, 3, 10) == 12
# bits and halves
assert L.hiloint2double(L.double2hiint(1.5), L.double2loint(1.5)) == 1.5
assert L.longlong_as_double(L.double_as_longlong(-0.25)) == -0.25
assert L.float2half_rn(1.0) == 0x3C00 and L.half2float(0x3C00) == 1.0
# tuples in the order numba-cuda returns them
assert L.modf(3.25) == (0.25, 3.0) and L.remquo(10.0, 3.0) == (1.0, 3)
assert L.frexpf(f32(8)) == (0.5, 4) and L.sincospi(0.5) == (1.0, 0.0)
assert L.saturatef(2.0) == 1.0 and L.saturatef(float("nan")) == 0.0
assert abs(L.erfinv(0.5) - 0.4769362762044699) < 1e-12 and L.normcdf(0.0) == 0.5
assert abs(L.normcdfinv(0.975) - 1.959963984540054) < 1e-12
# every function but the Bessel ones evaluates, giving its prototype's types
kinds = {"int16": np.int16, "int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
for name in PROTOTYPES:
    results, inputs = signature_of(name)
    arguments = [kinds[t](1) for t in inputs]
    if name[0] in "jy" and name[1] in "01n":
        try:
            getattr(L, name)(*arguments)
        except NotImplementedError as error:
            assert name in str(error)
            continue
        raise AssertionError(name + " evaluated")
    value = getattr(L, name)(*arguments)
    values = value if len(results) > 1 else (value,)
    assert [type(v) for v in values] == [kinds[t] for t in results], name
print("ok")
"""


def test_simulator_evaluates_libdevice(tmp_path):
    run_in_simulator(tmp_path, SIMULATED)


# --- on a GPU: numba-cuda's value tests --------------------------------------------------------


def use_sincos(s, c, x):
    i = cuda.grid(1)
    if i < len(x):
        sr, cr = libdevice.sincos(x[i])
        s[i] = sr
        c[i] = cr


def use_frexp(frac, exp, x):
    i = cuda.grid(1)
    if i < len(x):
        fracr, expr = libdevice.frexp(x[i])
        frac[i] = fracr
        exp[i] = expr


def use_sad(r, x, y, z):
    i = cuda.grid(1)
    if i < len(x):
        r[i] = libdevice.sad(x[i], y[i], z[i])


@pytest.mark.cuda
@needs_gpu
def test_values_on_the_gpu():
    arr = np.arange(100, dtype=np.float64)
    sres, cres = np.zeros_like(arr), np.zeros_like(arr)
    cuda.jit(use_sincos)[4, 32](sres, cres, arr)
    np.testing.assert_allclose(np.cos(arr), cres)
    np.testing.assert_allclose(np.sin(arr), sres)
    arr = np.linspace(start=1.0, stop=10.0, num=100, dtype=np.float64)
    fracres, expres = np.zeros_like(arr), np.zeros(shape=arr.shape, dtype=np.int32)
    cuda.jit(use_frexp)[4, 32](fracres, expres, arr)
    frac_expect, exp_expect = np.frexp(arr)
    np.testing.assert_array_equal(frac_expect, fracres)
    np.testing.assert_array_equal(exp_expect, expres)
    x, y, z = np.arange(0, 200, 2), np.arange(50, 150), np.arange(15, 115)
    r = np.zeros_like(x)
    cuda.jit(use_sad)[4, 32](r, x, y, z)
    np.testing.assert_array_equal(np.abs(x - y) + z, r)
