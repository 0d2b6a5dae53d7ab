"""ctypes foreign functions called from compiled code: libm and libc through their addresses,
pointers receiving arrays' data, C's small integer and bool conversions (a library compiled
here), and the errors for functions compiled code cannot call."""

import ctypes
import ctypes.util
import math
import shutil
import subprocess

import numpy as np
import pytest

from taipan import cuda, float64, njit, void
from taipan.errors import TypingError, UnsupportedError

libm = ctypes.CDLL(ctypes.util.find_library("m"))
libc = ctypes.CDLL(ctypes.util.find_library("c"))


def declare(library, name, argtypes, restype):
    """A function object of its own, so that tests never change each other's argtypes."""
    function = getattr(ctypes.CDLL(library._name), name)
    function.argtypes = argtypes
    function.restype = restype
    return function


c_cos = declare(libm, "cos", [ctypes.c_double], ctypes.c_double)
c_pow = declare(libm, "pow", [ctypes.c_double, ctypes.c_double], ctypes.c_double)
c_cosf = declare(libm, "cosf", [ctypes.c_float], ctypes.c_float)
c_memcpy = declare(
    libc, "memcpy", [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t], ctypes.c_void_p
)
c_memset = declare(libc, "memset", [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t], None)
c_srand = declare(libc, "srand", [ctypes.c_uint], None)
c_rand = declare(libc, "rand", [], ctypes.c_int)
c_labs = declare(libc, "labs", [ctypes.c_long], ctypes.c_long)


@njit
def call_cos(x):
    return c_cos(x)


@njit
def call_pow(x, y):
    return c_pow(x, y)


@njit
def call_cosf(x):
    return c_cosf(x)


@pytest.mark.parametrize("x", [0.0, 0.5, -2.25, 1e300, math.inf, math.nan])
def test_libm_cos_matches_math(x):
    expected = math.cos(x) if math.isfinite(x) else math.nan
    result = call_cos(x)
    assert result == expected or (math.isnan(result) and math.isnan(expected))


@pytest.mark.parametrize("x, y", [(2.0, 10.0), (2, 0.5), (-8.0, 3.0), (0.0, -1.0), (1.5, 2)])
def test_libm_pow_matches_math_and_converts_integers(x, y):
    expected = math.inf if x == 0.0 and y < 0 else math.pow(x, y)
    assert call_pow(x, y) == expected


def test_float_parameters_and_results_are_single_precision():
    assert call_cosf(0.75) == np.float32(np.cos(np.float32(0.75)))
    assert isinstance(call_cosf(0.75), float)


@njit
def copy_with_memcpy(source, target):
    c_memcpy(target, source, source.size * source.itemsize)
    return target


@njit
def fill_with_memset(a, value):
    c_memset(a, value, a.size)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
def test_memcpy_copies_array_data(dtype):
    source = np.arange(7, dtype=dtype)
    target = np.zeros(7, dtype=dtype)
    result = copy_with_memcpy(source, target)
    np.testing.assert_array_equal(target, source)
    assert result is target


def test_memset_void_result_fills_bytes():
    a = np.zeros(9, dtype=np.uint8)
    assert fill_with_memset(a, 7) is None
    np.testing.assert_array_equal(a, np.full(9, 7, np.uint8))


@njit
def seeded_rand(seed):
    c_srand(seed)
    return c_rand(), c_rand()


def test_void_function_then_int_result_match_ctypes():
    compiled = seeded_rand(12345)
    libc.srand(12345)
    assert compiled == (libc.rand(), libc.rand())


@njit
def call_labs(x):
    return c_labs(x)


def test_long_arguments():
    assert call_labs(-(2**40)) == 2**40
    assert call_labs(3) == 3


SMALL_TYPES_SOURCE = r"""
#include <stdbool.h>
#include <stdint.h>
int64_t widen_i8(int8_t x) { return x; }
int64_t widen_u16(uint16_t x) { return x; }
int64_t widen_bool(bool x) { return x ? 1 : 0; }
int8_t negate_i8(int8_t x) { return (int8_t)-x; }
bool is_positive(double x) { return x > 0; }
void scale(double *data, int64_t n, double factor) {
  for (int64_t i = 0; i < n; ++i) data[i] *= factor;
}
"""


@pytest.fixture(scope="module")
def small_types(tmp_path_factory):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler")
    folder = tmp_path_factory.mktemp("ctypes")
    (folder / "small.c").write_text(SMALL_TYPES_SOURCE)
    library_path = folder / "libsmall.so"
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", str(folder / "small.c"), "-o", str(library_path)],
        check=True,
    )
    library = ctypes.CDLL(str(library_path))
    signatures = {
        "widen_i8": ([ctypes.c_int8], ctypes.c_int64),
        "widen_u16": ([ctypes.c_uint16], ctypes.c_int64),
        "widen_bool": ([ctypes.c_bool], ctypes.c_int64),
        "negate_i8": ([ctypes.c_int8], ctypes.c_int8),
        "is_positive": ([ctypes.c_double], ctypes.c_bool),
        "scale": ([ctypes.POINTER(ctypes.c_double), ctypes.c_int64, ctypes.c_double], None),
    }
    for name, (argtypes, restype) in signatures.items():
        function = getattr(library, name)
        function.argtypes = argtypes
        function.restype = restype
    return library


def test_small_integers_and_bools_convert_as_in_c(small_types):
    widen_i8 = small_types.widen_i8
    widen_u16 = small_types.widen_u16
    widen_bool = small_types.widen_bool
    negate_i8 = small_types.negate_i8
    is_positive = small_types.is_positive

    @njit
    def run(a, b, c, d, x):
        return widen_i8(a), widen_u16(b), widen_bool(c), negate_i8(d), is_positive(x)

    assert run(-5, 65535, True, 100, 1.5) == run.py_func(-5, 65535, True, 100, 1.5)
    assert run(-128, 0, False, -128, -1.0) == (-128, 0, 0, -128, False)
    # Values wrap to the C type, as a signature's conversion does.
    assert run(200, 65536 + 3, True, 1, 0.0) == (-56, 3, 1, -1, False)


def test_typed_pointer_takes_array_data(small_types):
    scale = small_types.scale

    @njit
    def run(a):
        scale(a, a.size, 2.5)
        return a.sum()

    a = np.arange(6.0)
    assert run(a) == (np.arange(6.0) * 2.5).sum()
    np.testing.assert_array_equal(a, np.arange(6.0) * 2.5)


def test_typed_pointer_refuses_other_dtypes(small_types):
    scale = small_types.scale

    @njit
    def run(a):
        scale(a, a.size, 2.5)

    with pytest.raises(TypingError, match=r"argument 1 of scale\(\) must be float64\*"):
        run(np.arange(6, dtype=np.int64))


def test_wrong_argument_count_names_the_line():
    @njit
    def run(x):
        return c_pow(x)

    with pytest.raises(TypingError, match=r"pow\(\) takes 2 arguments but 1 were given") as info:
        run(1.0)
    assert "return c_pow(x)" in str(info.value)


def test_wrong_argument_type_names_the_line():
    @njit
    def run(a):
        return c_cos(a)

    with pytest.raises(TypingError, match=r"argument 1 of cos\(\) must be float64") as info:
        run(np.zeros(3))
    assert "return c_cos(a)" in str(info.value)


def test_function_without_argtypes_is_a_clear_error():
    unprototyped = ctypes.CDLL(ctypes.util.find_library("m")).sin

    @njit
    def run(x):
        return unprototyped(x)

    with pytest.raises(TypingError, match="ctypes function sin without argtypes") as info:
        run(1.0)
    assert "return unprototyped(x)" in str(info.value)


def test_unsupported_ctypes_type_is_a_clear_error():
    wide = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_wchar_p)(
        ctypes.cast(libm.cos, ctypes.c_void_p).value
    )

    @njit
    def run(x):
        return wide(x)

    with pytest.raises(TypingError, match="cannot pass the ctypes type c_wchar_p"):
        run(1.0)


def test_ctypes_function_in_a_kernel_is_refused():
    def kernel(out):
        out[0] = c_cos(out[0])

    with pytest.raises(UnsupportedError, match="ctypes function cos runs on the CPU"):
        cuda.compile_ptx(kernel, void(float64[:]))
