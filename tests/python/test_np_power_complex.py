"""Complex power on each path against its own reference: np.power (and an array's `**`, which
is np.power) gives NumPy's npy_cpow value bit for bit in the loop's own precision, NaN and zero
signs included (a zero base: 0 for a positive real exponent part, NaN parts otherwise, 1 for a
zero exponent; other bases: NumPy's repeated squaring and division, C's cpow/cpowf); a scalar
`**` follows CPython (ZeroDivisionError for 0 to a negative or complex power). The device
compiles np.power with CPython's algorithm and NumPy's zero-base values."""

import itertools
import math

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda, types, void
from taipan.runtime import live_blocks

NAN = math.nan
INF = math.inf

ZERO_BASES = [0j, complex(0.0, -0.0), complex(-0.0, 0.0), complex(-0.0, -0.0)]
EXPONENTS = [
    2 + 0j,
    -2 + 0j,
    1j,
    -1j,
    2 + 1j,
    -2 - 1j,
    0.5 + 0j,
    1e-300 + 0j,
    complex(0.0, -0.0),
    0j,
    complex(-0.0, -0.0),
    complex(NAN, 0.0),
    complex(0.0, NAN),
    complex(INF, 0.0),
    complex(-INF, 0.0),
    complex(INF, -3.0),
]


@taipan.njit
def power_ufunc(a, b):
    return np.power(a, b)


@taipan.njit
def power_into(a, b, out):
    np.power(a, b, out)


@taipan.njit
def power_operator(a, b):
    return a**b


def bits(values):
    """The raw words of complex values: equal bits, NaN payloads and zero signs included."""
    array = np.atleast_1d(np.asarray(values))
    return array.view(np.uint64 if array.dtype == np.complex128 else np.uint32).tolist()


def numpy_power(a, b, dtype):
    with np.errstate(all="ignore"):
        return np.power(np.asarray(a, dtype), np.asarray(b, dtype))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_np_power_of_a_zero_base_is_numpys_value_bit_for_bit(dtype):
    pairs = list(itertools.product(ZERO_BASES, EXPONENTS))
    a = np.array([p[0] for p in pairs], dtype)
    b = np.array([p[1] for p in pairs], dtype)
    expected = numpy_power(a, b, dtype)
    before = live_blocks()
    got = power_ufunc(a, b)
    assert got.dtype == expected.dtype
    assert bits(got) == bits(expected)
    out = np.empty_like(a)
    power_into(a, b, out)
    assert bits(out) == bits(expected)
    # The array operator is np.power.
    assert bits(power_operator(a, b)) == bits(expected)
    del got
    assert live_blocks() == before


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_np_power_of_zero_base_scalars(dtype):
    for base, exponent in itertools.product(ZERO_BASES, EXPONENTS):
        a, b = dtype(base), dtype(exponent)
        # A returned scalar is boxed as a Python complex (as Numba does): compare its bits in
        # the loop's own width.
        got = np.asarray(power_ufunc(a, b), dtype)
        expected = numpy_power(a, b, dtype)
        assert bits(got) == bits(expected), (base, exponent, got, expected)


def test_np_power_broadcasts_a_zero_base_array_against_exponents():
    a = np.zeros((3, 1), np.complex128)
    b = np.array([1 + 0j, -1 + 0j, 1j, 0j])
    assert bits(power_ufunc(a, b)) == bits(numpy_power(a, b, np.complex128))
    assert bits(power_ufunc(a, b[::-1])) == bits(numpy_power(a, b[::-1], np.complex128))


def test_scalar_operator_follows_cpython():
    for base, exponent in itertools.product(ZERO_BASES, EXPONENTS):
        try:
            expected = base**exponent
        except ZeroDivisionError as error:
            with pytest.raises(ZeroDivisionError, match="0.0 to a negative or complex power"):
                power_operator(base, exponent)
            assert "negative or complex power" in str(error)
            continue
        got = power_operator(base, exponent)
        assert bits(np.complex128(got)) == bits(np.complex128(expected)), (base, exponent)


def test_scalar_operator_with_a_constant_exponent():
    def zero_to_minus_one(a):
        return a ** complex(-1.0, 0.0)

    compiled = taipan.njit(zero_to_minus_one)
    with pytest.raises(ZeroDivisionError, match="0.0 to a negative or complex power"):
        compiled(0j)
    assert compiled(2j) == zero_to_minus_one(2j)


SPECIAL = [
    2 + 0j,
    -2 + 0j,
    1j,
    -1 + 0j,
    0.5 + 0j,
    2.5 + 0j,
    1.5 + 1.5j,
    -99j,
    -99 + 0j,
    101 + 0j,
    complex(INF, 0.0),
    complex(-INF, 1.0),
    complex(NAN, 1.0),
    complex(NAN, 0.0),
    complex(1e30, 1e30),
]


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_np_power_of_other_bases_is_numpys_value_bit_for_bit(dtype):
    # NumPy's npy_cpow in the loop's own precision: repeated squaring for integral exponents
    # below 100 (its own complex division for negative ones), the C library's cpow otherwise.
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(2000) + 1j * rng.standard_normal(2000)) * 3
    for b in [
        rng.standard_normal(2000) + 1j * rng.standard_normal(2000),
        np.round(rng.standard_normal(2000) * 40) + 0j,
        rng.standard_normal(2000) + 0j,
    ]:
        x, y = a.astype(dtype), b.astype(dtype)
        assert bits(power_ufunc(x, y)) == bits(numpy_power(x, y, dtype))
    pairs = list(itertools.product(SPECIAL + ZERO_BASES, SPECIAL))
    x = np.array([p[0] for p in pairs], dtype)
    y = np.array([p[1] for p in pairs], dtype)
    assert bits(power_ufunc(x, y)) == bits(numpy_power(x, y, dtype))


def test_scalar_operator_of_other_bases_follows_cpython():
    rng = np.random.default_rng(7)
    a = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    b = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    for x, y in zip(a[:8], b[:8]):
        assert abs(
            power_operator(complex(x), complex(y)) - complex(x) ** complex(y)
        ) <= 1e-14 * abs(complex(x) ** complex(y))


def numpy_power_on_the_device(out, a, b):
    out[0] = np.power(a, b)


@needs_ptxas
@pytest.mark.parametrize("scalar", [types.complex64, types.complex128])
def test_np_power_compiles_for_the_device(scalar, tmp_path):
    # The device has no C library: NumPy's power there is CPython's algorithm (defined in the
    # module, as taipan_complex_pow), with NumPy's zero-base values selected around it.
    ptx, _ = cuda.compile_ptx(numpy_power_on_the_device, void(scalar[::1], scalar, scalar))
    assert "taipan_numpy_complex_pow" not in ptx
    ptxas(ptx, tmp_path)
