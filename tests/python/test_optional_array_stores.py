"""An optional value (Optional(T): a function returning a number or None) stored into an
array: its number is stored, cast as Numba casts an optional, and a None raises Python's
TypeError before any element is written (NumPy refuses to store None in a number array), for
every kind of store: one element, slices, index arrays, masks, `...`. numba-cuda's
test_ssa stores such a result into an array in a kernel."""

import numpy as np
import pytest

from taipan import cuda, int32, njit, void


@njit
def maybe(x):
    if x > 0:
        return x
    return None


STORES = [
    "res[0] = r",
    "res[:] = r",
    "res[1:3] = r",
    "res[np.array([0, 2])] = r",
    "res[res > 100] = r",
    "res[0, ...] = r",
]


def store_function(statement):
    namespace = {"maybe": maybe, "np": np}
    exec(f"def f(res, x):\n    r = maybe(x)\n    {statement}\n", namespace)  # noqa: S102
    return namespace["f"]


@pytest.mark.parametrize("statement", STORES)
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.uint8])
def test_a_number_is_stored(statement, dtype):
    from taipan.runtime import live_blocks

    function = store_function(statement)
    compiled = njit(function)
    expected = np.zeros(4, dtype)
    got = np.zeros(4, dtype)
    function(expected, 3)
    before = live_blocks()
    compiled(got, 3)
    assert live_blocks() == before
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("statement", STORES)
def test_none_raises_before_anything_is_written(statement):
    compiled = njit(store_function(statement))
    res = np.arange(4)
    with pytest.raises(TypeError, match="expected int64, got None"):
        compiled(res, -1)
    np.testing.assert_array_equal(res, np.arange(4))


def test_the_none_branch_of_an_is_none_test():
    @njit
    def narrowed(res, x):
        r = maybe(x)
        if r is None:
            res[0] = 99
        else:
            res[0] = r

    res = np.zeros(1, np.int64)
    narrowed(res, 5)
    assert res[0] == 5
    narrowed(res, -5)
    assert res[0] == 99


def test_a_kernel_stores_a_device_function_s_optional_result():
    @cuda.jit(device=True)
    def device_maybe(x):
        if x > 0:
            return x
        return None

    def kernel(res, x):
        r = device_maybe(x)
        if r is None:
            res[0] = 99
        else:
            res[0] = r

    ptx, _ = cuda.compile_ptx(kernel, void(int32[:], int32))
    assert ".entry" in ptx
