"""Gufuncs called from compiled code through taipan.gufunc_calls, whose implementation is
ordinary Python compiled by taipan (no source text): several outputs, scalar outputs with and
without loop dimensions, broadcasting of extent-1 loop axes, a core dimension named twice, three
loop dimensions, casts of inputs, passed outputs; each result equals the gufunc's own (NumPy's
machinery) called from Python."""

import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python
from numpy_checks import no_allocation_leak

import taipan
from taipan import guvectorize


def sum_and_max(v, total, largest):
    s = 0.0
    m = v[0]
    for x in v:
        s += x
        m = max(m, x)
    total[0] = s
    largest[0] = m


def trace(m, out):
    s = 0.0
    for i in range(m.shape[0]):
        s += m[i, i]
    out[0] = s


def scale(v, factor, out):
    for i in range(v.shape[0]):
        out[i] = v[i] * factor


def outer(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[0]):
            out[i, j] = a[i] * b[j]


SUM_AND_MAX = guvectorize(["void(float64[:], float64[:], float64[:])"], "(n)->(),()")(sum_and_max)
TRACE = guvectorize(["void(float64[:,:], float64[:])"], "(n,n)->()")(trace)
SCALE = guvectorize(
    ["void(float32[:], float32, float32[:])", "void(float64[:], float64, float64[:])"],
    "(n),()->(n)",
)(scale)
OUTER = guvectorize(["void(float64[:], float64[:], float64[:,:])"], "(m),(n)->(m,n)")(outer)

RNG = np.random.default_rng(30)


def check(compiled, *args):
    with no_allocation_leak():
        actual = compiled(*args)
        expected = compiled.py_func(*args)
        if isinstance(expected, tuple):
            assert isinstance(actual, tuple) and len(actual) == len(expected)
        else:
            actual, expected = (actual,), (expected,)
        for got, wanted in zip(actual, expected):
            np.testing.assert_allclose(got, wanted, rtol=1e-14)
            assert np.shape(got) == np.shape(wanted)
            assert np.asarray(got).dtype == np.asarray(wanted).dtype
        del actual, got


@pytest.mark.parametrize("shape", [(5,), (3, 5), (2, 3, 5), (2, 1, 3, 5)])
def test_several_outputs(shape):
    check(taipan.njit(lambda v: SUM_AND_MAX(v)), RNG.standard_normal(shape))


def test_several_outputs_passed():
    v = RNG.standard_normal((4, 6))

    def passed(v, total, largest):
        return SUM_AND_MAX(v, total, largest)

    compiled = taipan.njit(passed)
    total, largest = np.zeros(4), np.zeros(4)
    with no_allocation_leak():
        result = compiled(v, total, largest)
        del result
    np.testing.assert_allclose(total, v.sum(axis=1), rtol=1e-14)
    np.testing.assert_array_equal(largest, v.max(axis=1))


@pytest.mark.parametrize("shape", [(3, 3), (4, 3, 3), (2, 2, 3, 3)])
def test_a_core_dimension_named_twice(shape):
    check(taipan.njit(lambda m: TRACE(m)), RNG.standard_normal(shape))


def test_a_core_dimension_named_twice_must_agree():
    compiled = taipan.njit(lambda m: TRACE(m))
    with pytest.raises(ValueError, match="core dimension 1 of operand 1"):
        compiled(np.ones((2, 3)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_scalar_operands_and_casts(dtype):
    # The factor has the array's type (a Python int would be a weak scalar to NumPy, int64 in
    # compiled code); an int64 array is cast to the float64 loop.
    v = (RNG.standard_normal((3, 4)) * 10).astype(dtype)
    factor = v.dtype.type(2)
    check(taipan.njit(lambda v, f: SCALE(v, f)), v, factor)
    check(taipan.njit(lambda v, f: SCALE(v, f)), v[0], factor)


def test_extent_one_loop_axes_broadcast():
    a = RNG.standard_normal((1, 3, 4))
    b = RNG.standard_normal((5, 1, 2))
    check(taipan.njit(lambda a, b: OUTER(a, b)), a, b)
    check(taipan.njit(lambda a, b: OUTER(a, b)), a[0, 0], b)


def test_strided_views():
    a = RNG.standard_normal((6, 8))
    check(taipan.njit(lambda a, b: OUTER(a, b)), a[::2, ::3], a[1::2, 1::2])


def test_no_source_text_is_generated():
    # A fresh process: calling a gufunc from compiled code imports nothing that builds source.
    source = textwrap.dedent(
        """
        import sys

        import numpy as np

        import taipan
        from taipan import guvectorize

        def total(v, out):
            s = 0.0
            for x in v:
                s += x
            out[0] = s

        g = guvectorize(["void(float64[:], float64[:])"], "(n)->()")(total)
        f = taipan.njit(lambda v: g(v))
        assert f(np.ones((2, 3))).tolist() == [3.0, 3.0]
        assert "taipan.numpy_library._generate" not in sys.modules
        print("ok")
        """
    )
    result = run_python(["-c", source], env=child_environment(), timeout=240)
    assert "ok" in result.stdout, result.stdout + result.stderr
