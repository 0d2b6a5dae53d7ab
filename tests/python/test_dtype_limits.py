"""np.iinfo / np.finfo and dtype attributes in compiled code: the dtype given as its class
(np.int32), a dtype object (a global) or an array's dtype (``np.finfo(a.dtype)``); and
``a.dtype.type(0)``, ``.itemsize``, ``.kind``, ``.char``, ``.name``, ``.str``, ``.alignment``.
Every value is compared with NumPy's."""

import numpy as np
import pytest

from taipan import TypingError, njit
from taipan.runtime import live_blocks

INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64, np.complex64, np.complex128]
FINFO_FIELDS = ["eps", "epsneg", "max", "min", "tiny", "resolution", "bits", "precision"]
FINFO_FIELDS += ["iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant"]


@njit
def integer_limits_of_array(a):
    info = np.iinfo(a.dtype)
    return info.min, info.max, info.bits


@pytest.mark.parametrize("dtype", INTEGERS)
def test_iinfo_of_an_arrays_dtype(dtype):
    a = np.zeros(1, dtype)
    expected = np.iinfo(dtype)
    assert integer_limits_of_array(a) == (expected.min, expected.max, expected.bits)


@njit
def int32_max():
    return np.iinfo(np.int32).max


@njit
def uint64_max_and_int8_min():
    return np.iinfo(np.uint64).max, np.iinfo(np.int8).min


def test_iinfo_of_a_class():
    assert int32_max() == np.iinfo(np.int32).max == int32_max.py_func()
    assert uint64_max_and_int8_min() == (2**64 - 1, -128)


@njit
def float_limits_of_array(a):
    info = np.finfo(a.dtype)
    return (
        info.eps,
        info.epsneg,
        info.max,
        info.min,
        info.tiny,
        info.resolution,
        info.bits,
        info.precision,
        info.iexp,
        info.machep,
        info.maxexp,
        info.minexp,
        info.negep,
        info.nexp,
        info.nmant,
    )


@pytest.mark.parametrize("dtype", FLOATS)
def test_finfo_of_an_arrays_dtype(dtype):
    info = np.finfo(dtype)
    result = float_limits_of_array(np.zeros(1, dtype))
    for field, value in zip(FINFO_FIELDS, result):
        expected = getattr(info, field)
        assert value == expected, field
        if isinstance(expected, np.floating):
            # The limits keep the type's precision, as in Numba: a float32's eps is float32.
            assert np.asarray(value).dtype.itemsize >= np.asarray(expected).dtype.itemsize


@njit
def float64_limits():
    return (
        np.finfo(np.float64).eps,
        np.finfo(np.float64).tiny,
        np.finfo(np.float64).max,
        np.finfo(np.float64).min,
        np.finfo(np.float64).resolution,
    )


def test_finfo_of_a_class():
    info = np.finfo(np.float64)
    assert float64_limits() == (info.eps, info.tiny, info.max, info.min, info.resolution)


FLOAT32 = np.dtype(np.float32)
INT16 = np.dtype("int16")


@njit
def limits_of_dtype_objects():
    return np.finfo(FLOAT32).eps, np.iinfo(INT16).max, FLOAT32.itemsize, INT16.kind


def test_limits_of_dtype_objects():
    assert limits_of_dtype_objects() == (
        np.finfo(np.float32).eps,
        np.iinfo(np.int16).max,
        4,
        "i",
    )


@njit
def eps_guarded_division(a, b):
    eps = np.finfo(a.dtype).eps
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] / max(b[i], eps)
    return out


def test_finfo_in_a_numerical_kernel():
    a, b = np.arange(4.0), np.array([0.0, 1.0, 1e-300, 2.0])
    before = live_blocks()
    np.testing.assert_array_equal(eps_guarded_division(a, b), eps_guarded_division.py_func(a, b))
    assert live_blocks() == before


def test_iinfo_of_a_float_type_is_refused():
    @njit
    def wrong(a):
        return np.iinfo(a.dtype).max

    with pytest.raises(TypingError, match="np.iinfo takes an integer type"):
        wrong(np.zeros(1))


def test_finfo_of_an_integer_type_is_refused():
    @njit
    def wrong(a):
        return np.finfo(a.dtype).eps

    with pytest.raises(TypingError, match="np.finfo takes a floating-point"):
        wrong(np.zeros(1, np.int64))


ALL_DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
ALL_DTYPES += ["M8[s]", "m8[ms]", "M8[D]"]


@njit
def dtype_attributes(a):
    d = a.dtype
    return d.itemsize, d.kind, d.char, d.name, d.str, d.alignment


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dtype_attributes(dtype):
    a = np.zeros(1, dtype)
    d = a.dtype
    assert dtype_attributes(a) == (d.itemsize, d.kind, d.char, d.name, d.str, d.alignment)


@njit
def zero_of_the_dtype(a):
    return a.dtype.type(0), a.dtype.type(2.75)


@pytest.mark.parametrize("dtype", ["?", "i1", "u4", "i8", "f4", "f8", "c16"])
def test_dtype_type_makes_a_scalar(dtype):
    a = np.zeros(1, dtype)
    result = zero_of_the_dtype(a)
    scalar = np.dtype(dtype).type
    expected = (scalar(0), scalar(2.75))
    assert result == expected


@njit
def array_of_the_dtype(a, n):
    out = np.empty(n, a.dtype)
    for i in range(n):
        out[i] = a.dtype.type(i) * 2
    return out


def test_dtype_type_in_a_loop():
    for dtype in [np.int16, np.float32, np.float64]:
        a = np.zeros(1, dtype)
        result = array_of_the_dtype(a, 5)
        expected = array_of_the_dtype.py_func(a, 5)
        assert result.dtype == expected.dtype
        np.testing.assert_array_equal(result, expected)


@njit
def dtype_called(a, n):
    zeros = np.zeros(n, np.dtype("int16"))
    return (
        np.dtype(np.float32).itemsize,
        np.dtype("i2").kind,
        np.dtype("float64").char,
        np.finfo(np.dtype(a.dtype)).eps,
        np.dtype(a.dtype).type(3),
        zeros,
    )


def test_np_dtype_called_in_compiled_code():
    a = np.ones(1, np.float32)
    *values, zeros = dtype_called(a, 3)
    *expected_values, expected_zeros = dtype_called.py_func(a, 3)
    assert values == expected_values
    assert zeros.dtype == expected_zeros.dtype
    np.testing.assert_array_equal(zeros, expected_zeros)


def test_np_dtype_of_strings_is_refused():
    @njit
    def strings():
        return np.dtype("U3").itemsize

    with pytest.raises(TypingError, match="np.dtype of"):
        strings()
