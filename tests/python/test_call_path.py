"""The dispatcher's call path: a call with plain arguments (numbers, arrays, tuples of them)
runs in dispatcherVectorcall itself, unboxing floats, ints and arrays inline; every other call
goes the general way. Both give the results and errors the Python function gives, whatever form
the arguments come in (subclasses, NumPy scalars, conversions of explicit signatures)."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest
from conftest import assert_raises_same, assert_same

from taipan import njit
from taipan.runtime import live_blocks


@njit
def hypot(x, y):
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)


@njit
def mixed(i, x, flag, z):
    return (i * 2 + int(flag), x / 2.0, z * 1j)


@njit
def shapes(a, b, c):
    return a.shape[0] + b.shape[0] * 10 + c.shape[0] * 100


@njit
def total(a):
    s = 0.0
    for v in a:
        s += v
    return s


@njit
def pair_sum(t):
    return t[0] + t[1]


@njit
def fails(x):
    if x < 0:
        raise ValueError("negative", x)
    return x


@njit(nogil=True)
def released(x, a):
    return x + a.sum()


class Real(float):
    pass


class Whole(int):
    pass


@pytest.mark.parametrize(
    "args",
    [
        (3.0, 4.0),
        (-3.0, 4.0),
        (Real(3.0), 4.0),
        (np.float64(3.0), np.float64(4.0)),
        (3, 4.0),
        (True, 4.0),
        (3.0, 0.0),
    ],
    ids=repr,
)
def test_scalar_arguments_in_every_form(args):
    assert_same(hypot, *args)


def test_an_error_of_a_plain_call():
    assert_raises_same(hypot, 0.0, 0.0, message="division by zero")  # Numba's words


@pytest.mark.parametrize(
    "args",
    [
        (1, 2.5, True, 3.0),
        (Whole(7), 2.5, False, 1.5),
        (np.int64(-4), np.float32(2.5), np.bool_(True), 2.0),
        (2**40, -0.0, 0, -1.5),
    ],
    ids=repr,
)
def test_ints_floats_booleans_complex(args):
    assert_same(mixed, *args)


def test_arrays_of_every_layout_and_readonly():
    before = live_blocks()
    a = np.arange(10.0)
    b = np.ones(3)
    c = np.arange(7, dtype=np.int32)
    assert_same(shapes, a, b, c)
    assert_same(shapes, a[::2], b[::-1], c[1:])
    readonly = a.copy()
    readonly.flags.writeable = False
    assert_same(shapes, readonly, b, c)
    assert_same(total, np.asfortranarray(np.arange(6.0)))
    assert_same(total, np.arange(6.0).view(np.ndarray))
    assert live_blocks() == before


def test_a_tuple_argument():
    assert_same(pair_sum, (1.5, 2.5))
    assert_same(pair_sum, (1, 2))


def test_an_exception_from_a_plain_call_keeps_its_arguments():
    assert_same(fails, 2.0)
    error = assert_raises_same(fails, -2.0)
    assert error.args == ("negative", -2.0)
    assert_same(fails, 3.0)  # the kept exception does not leak into a later call


def test_an_explicit_signature_converts_what_it_is_given():
    @njit("float64(float64, int64)")
    def scaled(x, n):
        return x * n

    # The declared return type holds; an int or a bool for x is converted (its key is not the
    # compiled argument types), a value beyond int64 for n raises as unboxing it does.
    for args, expected in (((2.5, 4), 10.0), ((2, 4), 8.0), ((True, 3), 3.0), ((2.5, -3), -7.5)):
        result = scaled(*args)
        assert type(result) is float and result == expected
    with pytest.raises(OverflowError):
        scaled(2.5, 2**63 + 1)


def test_a_nogil_call_from_threads():
    a = np.arange(1000.0)
    results = []

    def work():
        results.extend(released(float(i), a) for i in range(200))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == sorted(float(i) + a.sum() for i in range(200) for _ in range(4))


def test_keywords_defaults_and_unsupported_arguments_take_the_general_way():
    @njit
    def scaled(x, factor=2.0):
        return x * factor

    assert_same(scaled, 3.0)
    assert_same(scaled, 3.0, factor=4.0)
    assert_same(scaled, x=3.0)
    assert_same(hypot, 3.0, 4.0)
    with pytest.raises(TypeError):
        hypot(3.0)
    with pytest.raises(TypeError):
        hypot(3.0, 4.0, 5.0)
