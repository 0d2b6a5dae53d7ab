"""Kernel code that needed the host runtime or was missing:

* ``cuda.ldca/ldcg/ldcs/ldlu/ldcv(array, i)`` and ``cuda.stcg/stcs/stwb/stwt(array, i, v)``:
  one element loaded or stored with a PTX cache operator (``ld.global.ca.b32`` ...), for arrays
  indexed by an int or a tuple of ints and for CPointers, integer and float dtypes, with
  numba-cuda's error messages;
* ``round(x, ndigits)`` and complex ``**`` on the device, where they were refused as needing
  the host runtime: ``taipan_round_ndigits`` and ``taipan_complex_pow`` get device definitions
  (round: numba-cuda's algorithm, scale by a power of ten, round half to even, scale back;
  power: CPython's complex_pow from libdevice).

Without a GPU: the PTX (instructions, ptxas), the errors, the simulator; launches are marked
``cuda``."""

import numpy as np
import pytest
from child_processes import run_in_simulator
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float32, float64, int32, intp, typeof, types, void
from taipan.errors import TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
DTYPES += [np.float32, np.float64]
LOADS = ["ca", "cg", "cs", "lu", "cv"]
STORES = ["cg", "cs", "wb", "wt"]


def load_kernels(op):
    load = getattr(cuda, "ld" + op)

    def load_1d(r, x):
        for i in range(len(r)):
            r[i] = load(x, i)

    def load_2d(r, x):
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                r[i, j] = load(x, (i, j))

    def load_pointer(ptr, r, n):
        for i in range(n):
            r[i] = load(ptr, i)

    return load_1d, load_2d, load_pointer


def store_kernels(op):
    store = getattr(cuda, "st" + op)

    def store_1d(r, x):
        for i in range(len(r)):
            store(r, i, x[i])

    def store_2d(r, x):
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                store(r, (i, j), x[i, j])

    def store_pointer(ptr, values, n):
        for i in range(n):
            store(ptr, i, values[i])

    return store_1d, store_2d, store_pointer


@needs_ptxas
@pytest.mark.parametrize("op", LOADS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_loads_emit_the_cache_operator(op, dtype, tmp_path):
    x1, x2 = np.zeros(5, dtype), np.zeros((3, 4), dtype)
    bits = np.dtype(dtype).itemsize * 8
    load_1d, load_2d, load_pointer = load_kernels(op)
    for function, signature in [
        (load_1d, (typeof(x1), typeof(x1))),
        (load_2d, (typeof(x2), typeof(x2))),
        (load_pointer, (types.CPointer(typeof(x1).dtype), typeof(x1), intp)),
    ]:
        ptx, _ = cuda.compile_ptx(function, signature)
        assert f"ld.global.{op}.b{bits}" in ptx
        ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("op", STORES)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_stores_emit_the_cache_operator(op, dtype, tmp_path):
    x1, x2 = np.zeros(5, dtype), np.zeros((3, 4), dtype)
    bits = np.dtype(dtype).itemsize * 8
    store_1d, store_2d, store_pointer = store_kernels(op)
    for function, signature in [
        (store_1d, (typeof(x1), typeof(x1))),
        (store_2d, (typeof(x2), typeof(x2))),
        (store_pointer, (types.CPointer(typeof(x1).dtype), typeof(x1), intp)),
    ]:
        ptx, _ = cuda.compile_ptx(function, signature)
        assert f"st.global.{op}.b{bits}" in ptx
        ptxas(ptx, tmp_path)


def test_a_store_converts_the_value_to_the_dtype():
    def store_int_into_float(r):
        cuda.stcg(r, 0, 3)

    ptx, _ = cuda.compile_ptx(store_int_into_float, (float32[::1],))
    assert "st.global.cg.b32" in ptx
    assert "1077936128" in ptx or "0f40400000" in ptx  # 3.0f's bits


def float_index(x):
    cuda.ldcs(x, 1.0)


def two_indices(x):
    cuda.ldcs(x, (1, 2))


def scalar_index(x):
    cuda.ldcs(x, 1)


def one_index_tuple(x):
    cuda.ldcs(x, (1,))


def load_complex(x):
    cuda.ldca(x, 0)


def store_complex(x):
    cuda.stwt(x, 0, 1.0)


def load_scalar(x):
    cuda.ldcg(x, 0)


def tuple_index_of_pointer(x):
    cuda.stcs(x, (0, 1), 1)


@pytest.mark.parametrize(
    "function, signature, message",
    [
        (float_index, (float32[::1],), "float64 is not a valid index"),
        (two_indices, (float32[::1],), "Expected 1 indices, got 2"),
        (scalar_index, (float32[:, ::1],), "Expected 2 indices, got a scalar"),
        (one_index_tuple, (float32[:, ::1],), "Expected 2 indices, got 1"),
        (load_complex, (types.complex64[::1],), "ldca requires array of integer or float"),
        (store_complex, (types.complex128[::1],), "stwt requires array of integer or"),
        (load_scalar, (float64,), "ldcg operates on arrays or pointers"),
        (tuple_index_of_pointer, (types.CPointer(int32),), "Pointers only support scalar"),
    ],
)
def test_misuse_is_a_typing_error_with_numba_cudas_message(function, signature, message):
    with pytest.raises(TypingError, match=message):
        cuda.compile_ptx(function, signature)


def test_cache_operators_in_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def copy(r, x):
            for i in range(x.shape[0]):
                for j in range(x.shape[1]):
                    cuda.stwb(r, (i, j), cuda.ldcv(x, (i, j)) + 1)

        x = np.arange(12.0).reshape(3, 4)
        r = np.zeros_like(x)
        copy[1, 1](r, x)
        assert (r == x + 1).all()
        print("ok")
        """,
    )


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_cache_operators_on_the_gpu(dtype):
    for op in LOADS:
        _, load_2d, _ = load_kernels(op)
        x = np.arange(12).astype(dtype).reshape(3, 4)
        r = np.zeros_like(x)
        cuda.jit(load_2d)[1, 1](r, x)
        np.testing.assert_equal(r, x)
    for op in STORES:
        store_1d, _, _ = store_kernels(op)
        x = np.arange(5).astype(dtype)
        r = np.zeros_like(x)
        cuda.jit(store_1d)[1, 1](r, x)
        np.testing.assert_equal(r, x)


# --- round(x, ndigits) -------------------------------------------------------------------------


def round_to(out, x, ndigits):
    out[0] = round(x, ndigits)


@needs_ptxas
@pytest.mark.parametrize("scalar", [float32, float64])
def test_round_with_ndigits_compiles_for_the_device(scalar, tmp_path):
    ptx, _ = cuda.compile_ptx(round_to, void(scalar[::1], scalar, int32))
    assert "cvt.rni.f64" in ptx  # half to even, in double precision
    assert "taipan_round_ndigits" not in ptx  # defined on the device, inlined
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@needs_gpu
def test_round_with_ndigits_on_the_gpu_matches_python():
    kernel = cuda.jit(void(float64[::1], float64, int32))(round_to)
    out = np.zeros(1)
    rng = np.random.default_rng(123)
    values = list(rng.random(32)) + [0.5425, np.inf, -np.inf, 0.0, -0.0, 2.5, -3.5]
    for value in values:
        for ndigits in range(-5, 6):
            kernel[1, 1](out, value, ndigits)
            assert out[0] == round(value, ndigits) or (np.isnan(out[0]) and np.isnan(value))
    big = np.finfo(np.float64).max
    kernel[1, 1](out, big, 12)
    assert out[0] == big  # the scaled value overflows: x itself
    for value, ndigits in [(1.5, -400), (-1.5, -309), (1.5, 400)]:
        kernel[1, 1](out, value, ndigits)
        assert out[0] == round(value, ndigits)
        assert np.signbit(out[0]) == np.signbit(round(value, ndigits))


# --- complex ** complex ------------------------------------------------------------------------


def raise_to(out, a, b):
    out[0] = a**b


def raise_in_place(out, a, b):
    a **= b
    out[0] = a


@needs_ptxas
@pytest.mark.parametrize("function", [raise_to, raise_in_place])
@pytest.mark.parametrize("scalar", [types.complex64, types.complex128])
def test_complex_power_compiles_for_the_device(function, scalar, tmp_path):
    ptx, _ = cuda.compile_ptx(function, void(scalar[::1], scalar, scalar))
    assert "taipan_complex_pow" not in ptx  # defined on the device, inlined
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@needs_gpu
def test_complex_power_on_the_gpu_matches_python():
    kernel = cuda.jit(void(types.complex128[::1], types.complex128, types.complex128))(raise_to)
    out = np.zeros(1, np.complex128)
    bases = [1 + 2j, -0.5 + 0.25j, 3.0 + 0j, 1e-3 - 4j, 0j]
    exponents = [0j, 2 + 0j, -3 + 0j, 0.5 + 0j, 1.5 - 2j, 100 + 0j, -100 + 0j, 1j]
    for base in bases:
        for exponent in exponents:
            if base == 0 and (exponent.imag != 0 or exponent.real < 0):
                continue  # ZeroDivisionError on the host; recorded only by debug kernels
            kernel[1, 1](out, base, exponent)
            expected = base**exponent
            assert out[0] == pytest.approx(expected, rel=1e-14, abs=1e-300), (base, exponent)
