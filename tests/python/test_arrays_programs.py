"""Whole programs over arrays, ported from the seed examples: NaN compaction, a triple-loop
matrix multiply, and a Mandelbrot set rendered into a 2-D int32 image."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import assert_array_same

from taipan import njit
from taipan.runtime import get_allocation_stats


@njit
def nan_compact(x):
    out = np.empty_like(x)
    out_index = 0
    for element in x:
        if not np.isnan(element):
            out[out_index] = element
            out_index += 1
    return out[:out_index]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_nan_compact(dtype):
    rng = np.random.default_rng(0)
    a = rng.uniform(size=10_000).astype(dtype)
    a[a < 0.2] = np.nan
    result = nan_compact(a)
    np.testing.assert_equal(result, a[~np.isnan(a)])
    assert result.dtype == a.dtype


def test_nan_compact_edge_cases():
    assert_array_same(nan_compact(np.zeros(0)), np.zeros(0))
    assert_array_same(nan_compact(np.full(5, np.nan)), np.zeros(0))
    a = np.arange(5.0)
    assert_array_same(nan_compact(a), a)
    b = np.array([np.nan, 1.0, np.nan, 2.0, np.inf, np.nan])
    assert_array_same(nan_compact(b), np.array([1.0, 2.0, np.inf]))
    assert_array_same(nan_compact(b[::-1]), np.array([np.inf, 2.0, 1.0]))


def test_nan_compact_result_is_a_view_of_its_own_buffer():
    a = np.array([1.0, np.nan, 3.0])
    result = nan_compact(a)
    assert not np.shares_memory(result, a)
    result[0] = -1.0
    assert a[0] == 1.0


def test_nan_compact_does_not_leak():
    a = np.array([1.0, np.nan, 3.0])
    nan_compact(a)
    before = get_allocation_stats()
    for _ in range(1000):
        nan_compact(a)
    after = get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free == 1000


@njit
def matmul(A, B):
    n, k = A.shape
    k2, m = B.shape
    if k != k2:
        raise ValueError("shapes do not align")
    C = np.zeros((n, m), dtype=A.dtype)
    for i in range(n):
        for j in range(m):
            acc = A[0, 0] * 0
            for p in range(k):
                acc += A[i, p] * B[p, j]
            C[i, j] = acc
    return C


@pytest.mark.parametrize(("n", "k", "m"), [(1, 1, 1), (3, 4, 5), (8, 8, 8), (17, 3, 9), (0, 3, 2)])
def test_matmul_float(n, k, m):
    rng = np.random.default_rng(n * 100 + k * 10 + m)
    A = rng.standard_normal((n, k))
    B = rng.standard_normal((k, m))
    np.testing.assert_allclose(matmul(A, B), A @ B, rtol=1e-12, atol=1e-12)


def test_matmul_int_exact():
    A = np.arange(12).reshape(3, 4)
    B = np.arange(20).reshape(4, 5) - 7
    assert_array_same(matmul(A, B), A @ B)


def test_matmul_layouts():
    rng = np.random.default_rng(5)
    A = rng.standard_normal((6, 4))
    B = rng.standard_normal((4, 5))
    expected = A @ B
    for a in (np.asfortranarray(A), A[::-1][::-1], np.repeat(A, 2, axis=1)[:, ::2]):
        for b in (np.asfortranarray(B), B.T.copy().T, np.repeat(B, 2, axis=0)[::2]):
            np.testing.assert_allclose(matmul(a, b), expected, rtol=1e-12, atol=1e-12)


def test_matmul_shape_mismatch():
    with pytest.raises(ValueError, match="shapes do not align"):
        matmul(np.ones((2, 3)), np.ones((2, 3)))


def test_matmul_complex():
    A = np.array([[1 + 1j, 2], [0, 1 - 2j]])
    B = np.array([[1, 1j], [3, -1]])
    np.testing.assert_allclose(matmul(A, B), A @ B, rtol=1e-14)


@njit
def mandel(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return max_iters


@njit
def create_fractal(min_x, max_x, min_y, max_y, image, iters):
    height = image.shape[0]
    width = image.shape[1]
    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    for x in range(width):
        real = min_x + x * pixel_size_x
        for y in range(height):
            imag = min_y + y * pixel_size_y
            color = mandel(real, imag, iters)
            image[y, x] = color
    return image


def mandelbrot_reference(min_x, max_x, min_y, max_y, height, width, iters):
    """Vectorised NumPy reference with the same arithmetic as the loop version."""
    xs = min_x + np.arange(width) * ((max_x - min_x) / width)
    ys = min_y + np.arange(height) * ((max_y - min_y) / height)
    c = xs[None, :] + 1j * ys[:, None]
    z = np.zeros_like(c)
    out = np.full(c.shape, iters, np.int32)
    active = np.ones(c.shape, bool)
    for i in range(iters):
        z[active] = z[active] * z[active] + c[active]
        escaped = active & ((z.real * z.real + z.imag * z.imag) >= 4)
        out[escaped] = i
        active &= ~escaped
    return out


@pytest.mark.parametrize(("height", "width", "iters"), [(24, 36, 20), (10, 7, 50), (1, 1, 5)])
def test_mandelbrot(height, width, iters):
    image = np.zeros((height, width), dtype=np.int32)
    result = create_fractal(-2.0, 1.0, -1.0, 1.0, image, iters)
    assert result is image
    expected = mandelbrot_reference(-2.0, 1.0, -1.0, 1.0, height, width, iters)
    assert_array_same(image, expected)
    python_image = np.zeros((height, width), dtype=np.int32)
    create_fractal.py_func(-2.0, 1.0, -1.0, 1.0, python_image, iters)
    assert_array_same(image, python_image)


def test_mandelbrot_into_fortran_and_view():
    expected = mandelbrot_reference(-2.0, 1.0, -1.0, 1.0, 12, 16, 30)
    image = np.zeros((12, 16), dtype=np.int32, order="F")
    create_fractal(-2.0, 1.0, -1.0, 1.0, image, 30)
    assert_array_same(image, expected)
    big = np.full((24, 40), -1, dtype=np.int32)
    create_fractal(-2.0, 1.0, -1.0, 1.0, big[::2, 4:20], 30)
    assert_array_same(big[::2, 4:20], expected)
    assert (big[1::2] == -1).all() and (big[:, :4] == -1).all() and (big[:, 20:] == -1).all()


def test_in_place_matrix_product_is_refused_not_a_crash():
    # Found by Numba's own test suite (test_imatmul_npm): this used to crash the interpreter.
    from taipan import njit
    from taipan.errors import UnsupportedError

    @njit
    def in_place(x, y):
        x @= y
        return x

    for shape in ((3,), (2, 2)):
        with pytest.raises(UnsupportedError, match=r"a @= b.*write a = a @ b"):
            in_place(np.ones(shape, np.float32), np.ones(shape, np.float32))
