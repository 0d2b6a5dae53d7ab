"""float16 (NumPy's half) scalars and arrays on the CPU."""

import numpy as np

from taipan import njit, typeof


@njit
def axpy(a, x, y):
    return a * x + y


@njit
def halve(values):
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        out[i] = values[i] / np.float16(2)
    return out


def test_typeof_half():
    assert str(typeof(np.float16(1))) == "float16"
    assert str(typeof(np.zeros(3, np.float16))) == "array(float16, 1d, C)"


def test_half_scalars_and_arrays():
    x = np.array([1.0, 2.5, -3.0], np.float16)
    result = axpy(np.float16(2), x, x)
    assert result.dtype == np.float16
    np.testing.assert_array_equal(result, axpy.py_func(np.float16(2), x, x))
    np.testing.assert_array_equal(halve(x), x / np.float16(2))
