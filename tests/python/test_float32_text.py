"""str() and print() of a float32 in compiled code give NumPy's text for float32 scalars ('1.1',
'1e+07'), not the text of the double the value converts to ('1.100000023841858'); an f-string
field without a format spec keeps the double's text, as NumPy's float32.__format__ does. Each
result is compared with the Python function's, and the allocation counters must balance."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit

GLOBAL32 = np.float32(1.1)

EDGES = [
    0.0,
    -0.0,
    1.1,
    -1.1,
    0.1,
    2.5,
    1 / 3,
    1e-4,
    1.0001e-4,
    9.99e-5,
    0.00011,
    999999.9,
    999999.0,
    1e6,
    1234567.0,
    16777216.0,
    1e7,
    1e16,
    3.4028235e38,
    1.17549435e-38,
    1.4e-45,
    6e-45,
    65504.0,
    123.456,
    float("inf"),
    float("-inf"),
    float("nan"),
    -float("nan"),
]


def as_text(x):
    return str(x)


def as_string_field(x):
    return f"{x!s}|{x}|{x:.3f}"


def random_float32(count):
    bits = np.random.default_rng(7).integers(0, 2**32, size=count, dtype=np.uint64)
    return bits.astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("value", EDGES)
def test_str_of_float32_is_numpys(value):
    x = np.float32(value)
    with no_allocation_leak():
        got = njit(as_text)(x)
    assert got == as_text(x)


def test_str_of_random_float32_bit_patterns_is_numpys():
    compiled = njit(as_text)
    values = random_float32(20_000)
    with no_allocation_leak():
        got = [compiled(x) for x in values]
    assert got == [as_text(x) for x in values]


@pytest.mark.parametrize("value", [1.1, 1e7, 1e-5, 0.0, float("nan")])
def test_an_f_string_field_keeps_the_doubles_text_and_str_conversion_is_numpys(value):
    x = np.float32(value)
    with no_allocation_leak():
        got = njit(as_string_field)(x)
    assert got == as_string_field(x)


def test_float64_text_is_unchanged():
    for value in (1.1, 1e16, 1e-5, 0.0001, 123456789.0):
        with no_allocation_leak():
            assert njit(as_text)(value) == as_text(value)


def test_print_of_a_float32_is_numpys(capfd):
    def show(x, y):
        print(x, y, GLOBAL32)
        print(np.float32(2.5) * x)

    x, y = np.float32(1.1), np.float32(1e7)
    show(x, y)
    expected = capfd.readouterr().out
    with no_allocation_leak():
        njit(show)(x, y)
    assert capfd.readouterr().out == expected


def test_str_of_a_float32_global_constant_is_numpys():
    def text():
        return str(GLOBAL32)

    with no_allocation_leak():
        assert njit(text)() == text()
