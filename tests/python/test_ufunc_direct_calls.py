"""The direct call path of taipan's numpy.ufunc objects: a call on same-shaped, contiguous, native
ndarrays of a loop's exact types runs the loop without NumPy's dispatch. Every result, dtype,
warning and exception must be what NumPy's own path gives; the reference is the same ufunc
called with a keyword (`casting='same_kind'`, the default), which the direct path hands to NumPy,
and the scalar Python function element by element."""

import sys
import warnings

import numpy as np
import pytest
from test_vectorize import scaled_difference

from taipan import vectorize

TARGETS = ["cpu", "parallel"]


def numpy_path(ufunc, *arguments):
    """The call as NumPy's own machinery runs it (a keyword argument skips the direct path)."""
    return ufunc(*arguments, casting="same_kind")


def assert_identical(actual, expected):
    assert type(actual) is type(expected)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    assert actual.flags.c_contiguous == expected.flags.c_contiguous
    np.testing.assert_array_equal(actual, expected)
    if expected.dtype.kind == "f":
        assert np.array_equal(np.signbit(actual), np.signbit(expected))


SIGNATURES = [
    "int8(int8, int8)",
    "int32(int32, int32)",
    "int64(int64, int64)",
    "uint64(uint64, uint64)",
    "float32(float32, float32)",
    "float64(float64, float64)",
    "complex128(complex128, complex128)",
]

DTYPES = [np.int8, np.int32, np.int64, np.uint64, np.float32, np.float64, np.complex128]


@pytest.fixture(scope="module", params=TARGETS)
def difference(request):
    return vectorize(SIGNATURES, target=request.param)(scaled_difference)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(10,), (1,), (0,), (3, 4), (2, 0, 3), (1000,)])
def test_every_loop_type_and_shape_matches_numpys_path(difference, dtype, shape):
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(shape) * 50).astype(dtype)
    b = (rng.standard_normal(shape) * 50).astype(dtype)
    with np.errstate(all="ignore"):
        assert_identical(difference(a, b), numpy_path(difference, a, b))
        if a.size and np.dtype(dtype).kind != "u":  # Python's ints do not wrap as uint64 does
            expected = np.vectorize(scaled_difference, otypes=[dtype])(a, b)
            np.testing.assert_array_equal(difference(a, b), expected)


def test_special_values_and_signed_zeros(difference):
    a = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e308, -1e-308, 5e-324])
    b = np.array([1.0, np.inf, 1.0, -0.0, 0.0, -1e308, 1e-308, -5e-324])
    with np.errstate(all="ignore"):
        assert_identical(difference(a, b), numpy_path(difference, a, b))


def test_calls_numpy_resolves_with_casts_or_broadcasting_take_numpys_path(difference):
    """Mixed types, scalars, 0-d arrays, broadcasting, strided, byte-swapped, misaligned and
    subclassed operands, out= and where=: NumPy's path, with NumPy's result."""
    a = np.arange(12.0).reshape(3, 4)
    buffer = np.zeros(8 * 12 + 1, np.uint8)
    misaligned = np.frombuffer(buffer.data, np.float64, 12, offset=1).reshape(3, 4)

    class Sub(np.ndarray):
        pass

    cases = [
        (a, np.arange(12, dtype=np.int32).reshape(3, 4)),
        (a, 2.0),
        (np.array(3.0), np.array(1.0)),
        (a, a[0]),
        (a[:, ::2], a[:, 1::2]),
        (a.T, a.T),
        (a.astype(">f8"), a),
        (misaligned, a),
        (a.view(Sub), a),
        (np.float32(1.5), np.float32(0.5)),
    ]
    for x, y in cases:
        got, expected = difference(x, y), numpy_path(difference, x, y)
        assert type(got) is type(expected)
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        np.testing.assert_array_equal(got, expected)
    out = np.empty((3, 4))
    assert difference(a, a, out=out) is out
    where = difference(a, 1.0, where=a > 5, out=np.zeros((3, 4)))
    np.testing.assert_array_equal(where, np.where(a > 5, (a - 1.0) * 0.5, 0.0))


def test_loop_resolution_follows_numpy_when_several_loops_accept_the_types():
    """float32 inputs with a float64 loop listed first: whichever loop NumPy resolves, the direct
    path runs the same one."""
    ufunc = vectorize(["float64(float64, float64)", "float32(float32, float32)"])(scaled_difference)
    a = np.linspace(0, 1, 10, dtype=np.float32)
    assert_identical(ufunc(a, a[::-1].copy()), numpy_path(ufunc, a, a[::-1].copy()))
    integers = np.arange(10, dtype=np.int16)  # cast by NumPy: its path
    assert_identical(ufunc(integers, integers), numpy_path(ufunc, integers, integers))


def divide(x, y):
    return x / y


@pytest.mark.parametrize("target", TARGETS)
def test_floating_point_errors_follow_errstate(target):
    ufunc = vectorize(["float64(float64, float64)"], target=target)(divide)
    a, b = np.array([1.0, 0.0, -1.0]), np.zeros(3)
    calls = [ufunc, lambda x, y: numpy_path(ufunc, x, y)]
    for call in calls:
        with pytest.warns(RuntimeWarning) as record:
            call(a, b)
        messages = sorted(str(w.message) for w in record)
        assert any("divide by zero encountered in divide" in m for m in messages), messages
        assert any("invalid value encountered in divide" in m for m in messages), messages
        with (
            np.errstate(divide="raise", invalid="ignore"),
            pytest.raises(FloatingPointError, match="divide by zero"),
        ):
            call(a, b)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("error")
            np.testing.assert_array_equal(call(a, b), a / b)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            call(a, np.ones(3))  # flags raised by an earlier call are not reported again
    # The last element runs on a worker thread of the 'parallel' target: its flags count too.
    tail = np.ones(100_000)
    tail[-1] = 0.0
    for call in calls:
        with pytest.warns(RuntimeWarning, match="invalid value encountered in divide"):
            call(np.zeros(100_000), tail)
    with np.errstate(all="ignore"):
        np.float64(1.0) / np.float64(0.0)  # leaves the divide-by-zero flag set
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ufunc(a, np.ones(3))


def test_no_reference_is_leaked():
    ufunc = vectorize(["float64(float64, float64)"])(scaled_difference)
    a = np.arange(10.0)
    ufunc(a, a)
    before = sys.getrefcount(a)
    for _ in range(1000):
        ufunc(a, a)
    assert sys.getrefcount(a) == before
    result = ufunc(a, a)
    assert sys.getrefcount(result) == 2  # the name and the argument of getrefcount


def test_dynamic_ufuncs_take_the_direct_path_too():
    @vectorize
    def halve(x):
        return x * 0.5

    for dtype in (np.float64, np.int64, np.float32):
        x = np.arange(10).astype(dtype)
        assert_identical(halve(x), numpy_path(halve.ufunc, x))
