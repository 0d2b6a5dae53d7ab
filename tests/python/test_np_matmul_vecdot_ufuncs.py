"""np.matmul and np.vecdot called as NumPy's generalized ufuncs: every number dtype and bool
(the promoted loop type; integers wrap, booleans give any pair both true), 1-D operands
promoted and removed, vecdot conjugating its first operand, any layout, an output argument
filled by broadcasting with NumPy's same_kind check, stacks broadcast against each other, and
the refusals (scalars, a narrower output, mismatched inner sizes). Compared with NumPy;
counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8", "c8", "c16"]


@taipan.njit
def matmul(a, b):
    return np.matmul(a, b)


@taipan.njit
def matmul_into(a, b, out):
    return np.matmul(a, b, out)


@taipan.njit
def matmul_keyword(a, b, out):
    np.matmul(a, b, out=out)


@taipan.njit
def vecdot(a, b):
    return np.vecdot(a, b)


@taipan.njit
def vecdot_into(a, b, out):
    np.vecdot(a, b, out)


def operands(dtype):
    a = np.arange(12) % 5 - 1
    b = np.arange(12)[::-1] % 7 - 2
    if dtype[0] == "c":
        return (a + 1j * (a[::-1] - 2)).astype(dtype), (b - 0.5j * b).astype(dtype)
    if dtype[0] == "u" or dtype == "?":
        return np.abs(a).astype(dtype), np.abs(b).astype(dtype)
    if dtype[0] == "i" and dtype != "i1":
        return (a * 3000).astype(dtype), (b * 2000).astype(dtype)  # int16 products wrap
    return a.astype(dtype), b.astype(dtype)


def check(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape
    if expected.ndim:
        assert got.dtype == expected.dtype
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=1e-5 if expected.itemsize <= 8 else 1e-12)
    else:
        assert got.astype(expected.dtype).tolist() == expected.tolist()


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_shapes_and_layouts(dtype):
    a, b = operands(dtype)
    before = live_blocks()
    for x, y in [
        (a, b),
        (a.reshape(3, 4), b.reshape(4, 3)),
        (a.reshape(3, 4), b[:4]),
        (a[:3], b.reshape(3, 4)),
        (a.reshape(4, 3).T, b.reshape(3, 4).T),  # Fortran-ordered views
        (a[::2].reshape(2, 3), b[::-2].reshape(3, 2)),  # strided copies
        (a[:0].reshape(0, 3), b[:6].reshape(3, 2)),  # empty results
        (a[:6].reshape(2, 3), b[:0].reshape(3, 0)),
    ]:
        check(matmul(x, y), np.matmul(x, y))
    assert live_blocks() == before


@pytest.mark.parametrize("dtype", DTYPES)
def test_vecdot_conjugates_the_first_operand(dtype):
    a, b = operands(dtype)
    before = live_blocks()
    check(vecdot(a, b), np.vecdot(a, b))
    check(vecdot(a[::-3], b[1::3]), np.vecdot(a[::-3], b[1::3]))
    check(vecdot(a[:0], b[:0]), np.vecdot(a[:0], b[:0]))
    assert live_blocks() == before


@pytest.mark.parametrize("dtype", ["?", "i1", "u8", "f4", "c16"])
def test_outputs_broadcast_and_cast_same_kind(dtype):
    a, b = operands(dtype)
    before = live_blocks()
    # Numba's loop tests: 1-D inputs and an output of eight items, each the product.
    for out_dtype in [dtype, "f8", "c16"]:
        if not np.can_cast(np.result_type(a, b), out_dtype, "same_kind"):
            continue
        got, expected = np.zeros(8, out_dtype), np.zeros(8, out_dtype)
        assert matmul_into(a[:8], b[:8], got) is got
        np.matmul(a[:8], b[:8], expected)
        check(got, expected)
        got, expected = np.zeros(8, out_dtype), np.zeros(8, out_dtype)
        vecdot_into(a[:8], b[:8], got)
        np.vecdot(a[:8], b[:8], expected)
        check(got, expected)
    x, y = a.reshape(3, 4), b.reshape(4, 3)
    got, expected = np.zeros((2, 3, 3), dtype), np.zeros((2, 3, 3), dtype)
    matmul_keyword(x, y, got)
    np.matmul(x, y, out=expected)
    check(got, expected)
    assert live_blocks() == before


@pytest.mark.parametrize("dtype", ["?", "i1", "u4", "f4", "c16"])
def test_stacks_broadcast(dtype):
    rng = np.random.default_rng(5)
    before = live_blocks()
    for a_shape, b_shape in [
        ((3, 2, 4), (4, 5)),
        ((2, 4), (3, 4, 5)),
        ((3, 1, 2, 4), (5, 4, 2)),
        ((4,), (3, 4, 5)),
        ((3, 2, 4), (4,)),
        ((0, 2, 3), (3, 4)),
        ((1, 2, 3), (4, 3, 2)),
    ]:
        x = rng.integers(-3, 4, a_shape).astype(dtype)
        y = rng.integers(-3, 4, b_shape).astype(dtype)
        check(matmul(x, y), np.matmul(x, y))
    for a_shape, b_shape in [((3, 4), (4,)), ((2, 1, 4), (3, 4)), ((0, 4), (4,))]:
        x = rng.integers(-3, 4, a_shape).astype(dtype)
        y = rng.integers(-3, 4, b_shape).astype(dtype)
        check(vecdot(x, y), np.vecdot(x, y))
    x, y = rng.integers(-3, 4, (2, 3, 4)).astype(dtype), rng.integers(-3, 4, (4, 2)).astype(dtype)
    got, expected = np.zeros((2, 3, 2), dtype), np.zeros((2, 3, 2), dtype)
    matmul_keyword(x, y, got)
    np.matmul(x, y, out=expected)
    check(got, expected)
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        matmul(x, y.T)
    assert live_blocks() == before


def test_refusals():
    floats = np.ones(4)
    with pytest.raises(TypingError, match="Cannot cast ufunc 'matmul' output"):
        matmul_into(floats, floats, np.zeros(4, np.int64))
    with pytest.raises(TypingError, match="Cannot cast ufunc 'vecdot' output"):
        vecdot_into(floats + 1j, floats, np.zeros(4))
    with pytest.raises(TypingError, match="takes arrays"):
        matmul(1.0, floats)
    with pytest.raises(TypingError, match="read-only"):
        readonly = np.zeros(4)
        readonly.flags.writeable = False
        matmul_into(floats, floats, readonly)
    for function, x, y in [
        (matmul, np.ones((2, 3)), np.ones((2, 3))),
        (vecdot, np.ones(3), np.ones(4)),
    ]:
        with pytest.raises(ValueError):
            function.py_func(x, y)
        with pytest.raises(ValueError, match="mismatch in its core dimension"):
            function(x, y)
