"""@cfunc: native C entry points called through ctypes, cffi and SciPy's LowLevelCallable,
compared with the Python function; carray/farray views of a pointer; exceptions that C code
cannot catch; pickling by value with the object code."""

import ctypes
import math
import sys
import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python

import taipan
from taipan import carray, cfunc, farray, types
from taipan.errors import TypingError

SPECIALS = [0.0, -0.0, 1.5, -2.25, math.inf, -math.inf, math.nan, 1e308, 5e-324]


def same(a, b):
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b) if a == 0 else a == b


@cfunc("float64(float64, float64)")
def scaled_sum(x, y):
    return 2.0 * x + y


def test_a_cfunc_is_a_c_function_computing_what_python_does():
    assert isinstance(scaled_sum, taipan.CFunc)
    assert scaled_sum.address == ctypes.cast(scaled_sum.ctypes, ctypes.c_void_p).value
    for x in SPECIALS:
        for y in SPECIALS:
            assert same(scaled_sum.ctypes(x, y), scaled_sum.py_func(x, y)), (x, y)
            assert same(scaled_sum(x, y), scaled_sum.py_func(x, y))
    assert scaled_sum.native_name


@pytest.mark.parametrize(
    "signature, values",
    [
        ("int64(int64, int64)", [(3, 4), (-(2**62), 2**61), (0, -1)]),
        ("int32(int32, int32)", [(7, -9), (2**30, 2**30 - 1)]),
        ("uint8(uint8, uint8)", [(200, 100), (0, 255)]),
        ("float32(float32, float32)", [(1.5, 2.25), (-0.0, 0.0)]),
        ("boolean(int64, int64)", [(1, 2), (5, 5)]),
    ],
)
def test_integer_float_and_boolean_signatures(signature, values):
    def mix(a, b):
        return a * 2 + b

    def less(a, b):
        return a < b

    compiled = cfunc(signature)(less if signature.startswith("boolean") else mix)
    for a, b in values:
        expected = compiled.py_func(a, b)
        if signature.startswith("uint8"):
            expected %= 256
        if signature.startswith("int32"):
            expected = (expected + 2**31) % 2**32 - 2**31
        if signature.startswith("float32"):
            expected = float(np.float32(np.float32(a) * 2 + np.float32(b)))
        assert compiled(a, b) == expected


def test_carray_and_farray_view_a_pointer_without_copying():
    @cfunc(types.float64(types.CPointer(types.float64), types.int64, types.int64))
    def weighted(pointer, rows, columns):
        c = carray(pointer, (rows, columns))
        f = farray(pointer, (rows, columns))
        total = 0.0
        for i in range(rows):
            for j in range(columns):
                total += (i + 1) * (c[i, j] - f[i, j] * 0.5)
        c[0, 0] = -1.0  # written through to the caller's memory
        return total

    data = np.arange(12.0)
    expected = sum(
        (i + 1) * (data.reshape(3, 4)[i, j] - data.reshape(3, 4, order="F")[i, j] * 0.5)
        for i in range(3)
        for j in range(4)
    )
    pointer = data.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    assert weighted(pointer, 3, 4) == pytest.approx(expected)
    assert data[0] == -1.0
    # In Python, carray is the same view.
    view = carray(pointer, (3, 4))
    assert view.shape == (3, 4) and view[1, 2] == 6.0
    assert farray(pointer, (3, 4))[1, 2] == data.reshape(3, 4, order="F")[1, 2]


def test_a_void_pointer_needs_a_dtype():
    @cfunc(types.float64(types.voidptr, types.int64))
    def first_sum(pointer, n):
        a = carray(pointer, n, np.float64)
        return a.sum()

    data = np.array([1.0, 2.0, 4.0])
    assert first_sum(data.ctypes.data, 3) == 7.0
    with pytest.raises(TypingError, match="void pointer needs its dtype"):

        @cfunc(types.float64(types.voidptr, types.int64))
        def no_dtype(pointer, n):
            return carray(pointer, n).sum()


def test_scipy_integrates_through_a_low_level_callable():
    scipy_integrate = pytest.importorskip("scipy.integrate")
    from scipy import LowLevelCallable

    @cfunc("float64(float64)")
    def integrand(x):
        return math.exp(-x * x) * math.cos(3.0 * x)

    value, _ = scipy_integrate.quad(LowLevelCallable(integrand.ctypes), 0.0, 2.0)
    reference, _ = scipy_integrate.quad(integrand.py_func, 0.0, 2.0)
    assert value == pytest.approx(reference, rel=1e-12)

    @cfunc(types.float64(types.intc, types.CPointer(types.float64)))
    def with_parameters(n, xx):
        x, a, b = xx[0], xx[1], xx[2]
        return a * x + b

    value, _ = scipy_integrate.quad(LowLevelCallable(with_parameters.ctypes), 0.0, 1.0, (2.0, 3.0))
    assert value == pytest.approx(4.0)


def test_an_exception_inside_is_unraisable_and_the_result_is_zero(monkeypatch):
    caught = []
    monkeypatch.setattr(sys, "unraisablehook", lambda report: caught.append(report.exc_type))

    @cfunc("float64(int64)")
    def checked(i):
        if i < 0:
            raise ValueError("negative")
        return 1.0 / i

    assert checked(4) == 0.25
    assert checked(-1) == 0.0
    assert checked(0) == 0.0
    assert caught == [ValueError, ZeroDivisionError]


def test_unsupported_signatures_are_clear_errors():
    with pytest.raises(TypingError, match="cfunc's arguments are numbers, booleans, pointers"):
        cfunc(types.float64(types.unicode_type))(lambda s: len(s))
    with pytest.raises(TypingError, match="needs a return type"):
        cfunc((types.float64,))(lambda x: x)


def test_cffi_pointer():
    cffi = pytest.importorskip("cffi")
    assert cffi.FFI().typeof(scaled_sum.cffi).cname == "double(*)(double, double)"
    assert scaled_sum.cffi(1.0, 2.0) == 4.0


def test_cfuncs_pickle_by_reference_and_by_value_with_their_code(tmp_path):
    import pickle

    assert pickle.loads(pickle.dumps(scaled_sum)) is scaled_sum
    pytest.importorskip("cloudpickle")
    sender = textwrap.dedent(
        """
        import sys, cloudpickle
        from taipan import cfunc

        @cfunc("float64(float64)")
        def cube(x):
            return x * x * x

        sys.stdout.buffer.write(cloudpickle.dumps(cube))
        """
    )
    receiver = textwrap.dedent(
        """
        import pickle, sys
        cube = pickle.loads(sys.stdin.buffer.read())
        print(cube(3.0), "loading cached code" in dict(cube._compile().stage_times))
        """
    )
    env = child_environment()
    payload = run_python(["-c", sender], env=env, text=False).stdout
    result = run_python(["-c", receiver], env=env, input=payload, text=False)
    assert result.stdout.decode().split() == ["27.0", "True"]
