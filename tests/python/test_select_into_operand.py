"""Conditional updates of a loop-carried float (``if not isnan(a): s += a``), which LLVM turns into
``select c, s + a, s``, are compiled as ``s + select(c, a, -0.0)`` (target/SelectIntoOperand):
the results are CPython's bit for bit across signed zeros, infinities, NaNs and denormals, for
+, - and * in both arms and float32/float64, in loops and in gufunc loops; the optimised IR
carries the select into the operand."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from taipan import guvectorize, njit

EDGES = [0.0, -0.0, 1.5, -2.25, math.inf, -math.inf, math.nan, 5e-324, -5e-324, 1e308, -1e-310]


def bits(value):
    """The value's bits, every NaN as one (LLVM keeps no NaN payload of two NaN operands)."""
    return b"nan" if math.isnan(value) else struct.pack("<d", value)


@njit
def skip_nan_sum(a):
    s = -0.0
    for x in a:
        if not math.isnan(x):
            s += x
    return s


@njit
def subtract_when_positive(a, start):
    s = start
    for x in a:
        if x > 0:
            s -= x
    return s


@njit
def scale_unless_zero(a, start):
    s = start
    for x in a:
        if x != 0:
            s *= x
    return s


@njit
def add_in_else_arm(a, start):
    s = start
    for x in a:
        s = s if math.isnan(x) else x + s  # the add in the false arm, x on the left
    return s


@njit
def decayed_mean(a, alpha):
    """numbagg's move_exp_nanmean's recurrence."""
    numer = denom = 0.0
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        numer *= 1.0 - alpha
        denom *= 1.0 - alpha
        if not np.isnan(a[i]):
            numer += a[i]
            denom += 1.0
        out[i] = numer / denom
    return out


def sequences():
    rng = np.random.default_rng(4)
    yield np.array(EDGES)
    for _ in range(40):
        yield rng.choice(EDGES + [0.5, -0.5, 3.0], size=int(rng.integers(0, 12)))
    yield np.array([-0.0, -0.0])
    yield np.array([math.nan, -0.0])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_results_are_pythons_bit_for_bit(dtype):
    for values in sequences():
        a = values.astype(dtype)
        assert bits(skip_nan_sum(a)) == bits(skip_nan_sum.py_func(a))
        for start in (-0.0, 0.0, 2.0, math.inf, math.nan):
            for f in (subtract_when_positive, scale_unless_zero, add_in_else_arm):
                with np.errstate(all="ignore"):
                    expected = f.py_func(a, dtype(start))
                assert bits(float(f(a, dtype(start)))) == bits(float(expected)), (f, a, start)


def test_the_recurrence_of_move_exp_nanmean():
    rng = np.random.default_rng(0)
    a = rng.standard_normal(1000)
    a[1::7] = np.nan  # the first value is a number: denom > 0 from there
    a[3] = -0.0
    with np.errstate(all="ignore"):
        expected = decayed_mean.py_func(a, 0.1)
    assert [bits(x) for x in decayed_mean(a, 0.1)] == [bits(x) for x in expected]


def test_the_select_moves_into_the_operand():
    skip_nan_sum(np.zeros(2))
    ir = skip_nan_sum.inspect_llvm(skip_nan_sum.signatures[0])
    assert "double -0.000000e+00" in ir  # select c, x, -0.0 feeding the add


def test_gufunc_loops_of_the_same_form():
    @guvectorize(["(float64[:], float64[:])"], "(n)->(n)")
    def running_nansum(a, out):
        s = 0.0
        for i in range(a.shape[0]):
            if not np.isnan(a[i]):
                s += a[i]
            out[i] = s

    a = np.array([1.0, math.nan, -0.0, 2.5, math.inf, math.nan, -math.inf])
    with np.errstate(all="ignore"):
        result = running_nansum(a)
    reference = np.empty_like(a)
    s = 0.0
    for i, x in enumerate(a):
        if not math.isnan(x):
            s += x
        reference[i] = s
    assert [bits(x) for x in result] == [bits(x) for x in reference]
