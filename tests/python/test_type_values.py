"""Classes and builtins as values: type(x) of numbers and strings is the class's conversion
(`type(x)(3)`), and classes or builtin functions passed as arguments (`f(float, 3)`) are called
as the globals of the same name would be. Results are compared with the Python function's."""

import math

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError


def convert_like(a, b):
    return type(a)(b)


def test_type_of_a_value_called():
    f = njit(convert_like)
    for a, b in [(1.5, 2), (1, 2.5), (1.5j, 2), (True, 2), (2.5j, False), ("s", 7)]:
        got, expected = f(a, b), convert_like(a, b)
        assert type(got) is type(expected) and got == expected, (a, b)
    # NumPy scalar results come back as Python numbers, as Numba returns them.
    assert f(np.float32(1.5), 2.1) == np.float32(2.1)
    assert f(np.int8(1), -7.9) == np.int8(-7)


def apply(constructor, x):
    return constructor(x)


def test_classes_and_builtins_as_arguments():
    f = njit(apply)
    for constructor, x in [(float, 3), (int, -2.7), (bool, 0.0), (complex, 2)]:
        got, expected = f(constructor, x), apply(constructor, x)
        assert type(got) is type(expected) and got == expected, constructor
    assert f(math.sqrt, 16.0) == 4.0
    assert f(np.float32, 0.1) == np.float32(0.1)
    assert f(np.int16, 300.9) == 300


def test_unsupported_type_is_a_typing_error():
    @njit
    def of_array(a):
        return type(a)

    with pytest.raises(TypingError, match="type\\(\\) of a value of type array"):
        of_array(np.zeros(2))


def test_getattr_of_a_module():
    @njit
    def constants():
        return getattr(np, "pi"), getattr(math, "e")  # noqa: B009 (getattr is the test)

    assert constants() == constants.py_func()

    @njit
    def module_in_a_variable(x):
        m = np
        return m.sqrt(x)

    assert module_in_a_variable(16.0) == 4.0
