"""Calls from compiled code to a jitted function given explicit signatures: Numba's closed
compilation. Such a dispatcher compiles no other signatures, so a call converts its arguments
to the signature that takes them best and the result to that signature's return type, as a
call from Python does. (taipan used to compile the callee again for the caller's argument
types: `add(1.5, 2.5)` of an `int64(int64, int64)` function gave 4.0 where Numba gives 3.)"""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit(["int64(int64, int64)"])
def add_ints(a, b):
    return a + b


@taipan.njit
def call_add_ints(x, y):
    return add_ints(x, y)


@pytest.mark.parametrize(
    "x, y", [(1.5, 2.5), (-1.7, 0.9), (3, 4), (True, 2), (np.float32(2.75), np.int8(-3))]
)
def test_arguments_convert_as_from_python(x, y):
    assert call_add_ints(x, y) == add_ints(x, y)
    assert type(call_add_ints(x, y)) is type(add_ints(x, y))


def test_numba_result():
    # Numba: int64(int64, int64) called with 1.5 and 2.5 truncates both (1 + 2).
    assert call_add_ints(1.5, 2.5) == 3


@taipan.njit(["float64(float64)", "int64(int64)"])
def halve(x):
    return x // 2


@taipan.njit
def call_halve(x):
    return halve(x)


@pytest.mark.parametrize("value", [7, np.int32(7), 7.0, np.float32(7.5), np.int16(9)])
def test_best_signature_is_chosen(value):
    assert call_halve(value) == halve(value)
    assert type(call_halve(value)) is type(halve(value))


@taipan.njit(["float32(float64)"])
def narrowed(x):
    return x * 3.0


@taipan.njit
def call_narrowed(x):
    return narrowed(x)


def test_declared_return_type_converts_the_result():
    value = 0.1
    assert call_narrowed(value) == narrowed(value)
    assert call_narrowed(value) == np.float32(0.1 * 3.0)
    assert call_narrowed(value) != 0.1 * 3.0  # float32 rounding is kept


@taipan.njit(["float64(float64[:])"])
def total(a):
    return a.sum()


@taipan.njit
def call_total(a):
    return total(a)


def test_array_signature_takes_other_layouts():
    a = np.arange(10.0)
    before = live_blocks()
    assert call_total(a[::2]) == total(a[::2]) == a[::2].sum()
    assert live_blocks() == before


@taipan.njit(["float64(float64[:])"])
def first(a):
    return a[0]


@taipan.njit
def call_first_with_ints(a):
    return first(a)


def test_no_signature_takes_the_arguments():
    with pytest.raises(TypingError, match="No matching definition"):
        call_first_with_ints(np.arange(3))


@taipan.njit(["int64(int64)"])
def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


@taipan.njit
def call_factorial(x):
    return factorial(x)


def test_recursion_inside_the_signatures():
    assert factorial(10) == 3628800
    assert call_factorial(10.9) == factorial(10.9) == 3628800


@taipan.njit
def lazily_compiled(a, b):
    return a + b


@taipan.njit
def call_lazy(x, y):
    return lazily_compiled(x, y)


def test_dispatchers_without_signatures_specialise():
    assert call_lazy(1.5, 2.5) == 4.0
    assert call_lazy(1, 2) == 3


def test_ambiguous_signatures_are_an_error_as_from_python():
    # uint8 converts safely to both int64 and float64: Numba calls that ambiguous.
    with pytest.raises(TypeError, match="Ambiguous"):
        halve(np.uint8(9))
    with pytest.raises(TypingError, match="Ambiguous overloading for halve"):
        call_halve(np.uint8(9))
