"""Complex power with a zero base, on each path against its own reference: np.power (and an
array's `**`, which is np.power) gives NumPy's npy_cpow value bit for bit, NaN and zero signs
included (0 for a positive real exponent part, NaN parts otherwise, 1 for a zero exponent);
a scalar `**` follows CPython (ZeroDivisionError for a negative or complex exponent)."""

import itertools
import math

import numpy as np
import pytest

import taipan
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


def test_nonzero_bases_keep_their_values():
    # Away from a zero base nothing changed: both paths agree with their references within an
    # ulp (NumPy's libm cpow and CPython's _Py_c_pow may differ in the last bit).
    rng = np.random.default_rng(7)
    a = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    b = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    np.testing.assert_allclose(power_ufunc(a, b), numpy_power(a, b, np.complex128), rtol=1e-14)
    for x, y in zip(a[:8], b[:8]):
        assert abs(
            power_operator(complex(x), complex(y)) - complex(x) ** complex(y)
        ) <= 1e-14 * abs(complex(x) ** complex(y))
