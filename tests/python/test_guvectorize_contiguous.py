"""@guvectorize's copy of the kernel for C-contiguous cores: the loop runs it when every array
operand's core strides describe a C-contiguous core (NumPy's rule) and some core extent is at
least 8, and the A-layout kernel otherwise (the shapes below have an extent of 8 or more where
they mean to reach the contiguous copy). Both must give the bits the other gives and the Python
function's: contiguous, transposed, reversed, broadcast (stride 0), extent-1 and empty cores,
scalar operands and outputs passed non-contiguous."""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak
from test_guvectorize import l2_norm, matmul, move_mean

from taipan import _core, guvectorize
from taipan.types import Array, float64, int64


def integer_matmul(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s


def axpy(a, b, out):
    for i in range(a.shape[0]):
        out[i] = 2.5 * a[i] + b[i]


def strided_copy(x):
    """The values of `x` in a view no core of which is contiguous (every other item of a
    larger buffer), so the loop runs the A-layout kernel on them."""
    buffer = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    view = buffer[..., ::2]
    view[...] = x
    return view


def python_matmul(gufunc, a, b):
    """The Python function over the outer dimension, as NumPy's gufunc would run it."""
    outer = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, outer + a.shape[-2:])
    b = np.broadcast_to(b, outer + b.shape[-2:])
    out = np.zeros(outer + (a.shape[-2], b.shape[-1]), a.dtype)
    for index in np.ndindex(*outer):
        gufunc.py_func(a[index], b[index], out[index])
    return out


@pytest.fixture(
    scope="module",
    params=[("float64", ":,::1"), ("int64", ":,::1"), ("float64", ":,:"), ("int64", ":,:")],
)
def typed_matmul(request):
    """A matmul gufunc whose signature types its cores 'C' (two kernel copies) or 'A' (one)."""
    dtype, layout = request.param
    signature = f"void({dtype}[{layout}], {dtype}[{layout}], {dtype}[{layout}])"
    kernel = matmul if dtype == "float64" else integer_matmul
    gufunc = guvectorize([signature], "(m,n),(n,p)->(m,p)")(kernel)
    gufunc.py_func = kernel
    return np.dtype(dtype), gufunc


def operands(dtype, *shapes):
    rng = np.random.default_rng(7)
    if dtype.kind == "i":
        return [rng.integers(-50, 50, shape).astype(dtype) for shape in shapes]
    return [rng.standard_normal(shape).astype(dtype) for shape in shapes]


def check_matmul(gufunc, a, b, out=None):
    """The gufunc's result on these operands is Python's, bit for bit, and the same as on
    strided copies of them (the A-layout kernel)."""
    expected = python_matmul(gufunc, a, b)
    with no_allocation_leak():
        result = gufunc(a, b) if out is None else gufunc(a, b, out)
        strided = gufunc(strided_copy(a), strided_copy(b))
    np.testing.assert_array_equal(result, expected, strict=True)
    np.testing.assert_array_equal(strided, expected, strict=True)
    if out is not None:
        assert result is out


def test_contiguous_cores(typed_matmul):
    dtype, gufunc = typed_matmul
    for n in (1, 3, 4, 5, 16):
        check_matmul(gufunc, *operands(dtype, (9, n, n), (9, n, n)))
    check_matmul(gufunc, *operands(dtype, (7, 3, 4), (7, 4, 9)))


def test_transposed_and_reversed_cores(typed_matmul):
    dtype, gufunc = typed_matmul
    a, b = operands(dtype, (6, 4, 3), (6, 4, 9))
    transposed = np.swapaxes(a, 1, 2)
    check_matmul(gufunc, transposed, b)
    check_matmul(gufunc, transposed[:, ::-1, :], b[:, :, ::-1])
    c = np.ascontiguousarray(transposed)
    check_matmul(gufunc, c[::-1], b[::-1])  # reversed outer dimension, contiguous cores


def test_broadcast_operands(typed_matmul):
    dtype, gufunc = typed_matmul
    a, b = operands(dtype, (6, 3, 4), (4, 9))
    check_matmul(gufunc, a, b)  # stride 0 on the outer dimension: cores still contiguous
    row = operands(dtype, (1, 9))[0]
    check_matmul(gufunc, a, np.broadcast_to(row, (4, 9)))  # stride 0 on a core dimension
    column = operands(dtype, (4, 1))[0]
    check_matmul(gufunc, a, np.broadcast_to(column, (4, 9)))


def test_extent_one_and_empty_cores(typed_matmul):
    dtype, gufunc = typed_matmul
    a, b = operands(dtype, (5, 3, 8), (5, 8, 9))
    check_matmul(gufunc, a[:, :1, :], b)  # extent 1 with a stride that is not 8 items
    check_matmul(gufunc, a, b[:, :, 2:3])  # (8, 1) core: stride 9 items where 1 is packed
    check_matmul(gufunc, a[:, :, :1], b[:, :1, ::2])
    check_matmul(gufunc, a[:, :0, :], b)  # empty cores, contiguous by NumPy's rule
    check_matmul(gufunc, a[:, :, :0], b[:, :0, :])
    check_matmul(gufunc, a[:0], b[:0])  # no outer elements


def test_outputs_passed_non_contiguous(typed_matmul):
    dtype, gufunc = typed_matmul
    a, b = operands(dtype, (4, 3, 4), (4, 4, 9))
    out = np.zeros((4, 9, 3), dtype).transpose(0, 2, 1)
    check_matmul(gufunc, a, b, out)
    out = np.zeros((4, 3, 18), dtype)[:, :, ::2]
    check_matmul(gufunc, a, b, out)
    out = np.zeros((4, 3, 9), dtype)
    check_matmul(gufunc, a, b, out)


@pytest.mark.parametrize("layout", ["::1", ":"])
def test_vectorisable_kernel_gives_the_same_bits(layout):
    signature = f"void(float64[{layout}], float64[{layout}], float64[{layout}])"
    gufunc = guvectorize([signature], "(n),(n)->(n)")(axpy)
    a, b = operands(np.dtype(np.float64), (5, 37), (5, 37))
    expected = 2.5 * a + b  # the same one rounding per operation as the Python function
    with no_allocation_leak():
        for x, y in [(a, b), (strided_copy(a), b), (a[:, ::-1], b[:, ::-1]), (a, b[0])]:
            np.testing.assert_array_equal(gufunc(x, y), 2.5 * x + y, strict=True)
    np.testing.assert_array_equal(gufunc(a, b), expected, strict=True)


def test_seed_kernels_on_both_copies():
    norm = guvectorize(["(float32[::1], float32[:])"], "(i)->()")(l2_norm)
    a = np.arange(24, dtype=np.float32).reshape(4, 6) * np.float32(0.37)
    with no_allocation_leak():
        result = norm(a)
        np.testing.assert_array_equal(norm(strided_copy(a)), result, strict=True)
        np.testing.assert_array_equal(norm(a[:, ::-1]), norm(strided_copy(a[:, ::-1])))
    # The compiled function sums in float64 (0.0 is a float64); NumPy's scalars in float32.
    expected = np.sqrt((a.astype(np.float64) ** 2).sum(1)).astype(np.float32)
    np.testing.assert_allclose(result, expected, rtol=1e-6)
    mean = guvectorize(["void(float64[::1], int64, float64[::1])"], "(n),()->(n)")(move_mean)
    x = np.arange(30.0).reshape(3, 10) ** 1.5  # cores of 10: the contiguous copy runs
    for window in (1, 3, 10):
        expected = np.zeros_like(x)
        for row, target in zip(x, expected):
            move_mean(row, window, target)
        with no_allocation_leak():
            np.testing.assert_array_equal(mean(x, window), expected)
            np.testing.assert_array_equal(mean(strided_copy(x), window), expected)
            out = np.zeros((10, 3)).T
            assert mean(x, window, out) is out
            np.testing.assert_array_equal(out, expected)


def kernel_copies(gufunc, argument_types):
    """How many copies of the kernel the loop's module defines."""
    compiler = gufunc._compiler
    job = compiler._job(None)
    job.pop("return_type")
    ir = _core.inspect(compiler.source(), list(argument_types), "llvm-unoptimized", **job)
    name = f"_{compiler.py_func.__name__}_"
    return sum(
        1
        for line in ir.splitlines()
        if line.startswith("define") and name in line and "_gufunc" not in line
    )


def add(x, y, out):
    out[0] = x + y


def test_a_contiguous_and_a_strided_copy_where_the_signature_types_a_core_contiguous():
    gufunc = guvectorize("(m,n),(n,p)->(m,p)")(matmul)
    any_layout, contiguous = Array(float64, 2, "A"), Array(float64, 2, "C")
    assert kernel_copies(gufunc, [any_layout] * 3) == 1  # all 'A': one kernel, as before
    assert kernel_copies(gufunc, [contiguous] * 3) == 2
    integers = Array(int64, 2, "C")
    assert kernel_copies(gufunc, [integers, contiguous, contiguous]) == 2
    scalars = guvectorize("(),()->()")(add)  # no core dimensions: one copy
    assert kernel_copies(scalars, [float64, float64, Array(float64, 1, "A")]) == 1


def test_a_signature_typed_contiguous_still_takes_strided_operands():
    """An operand typed 'C' by the signature that NumPy passes strided runs the 'A' copy (it was
    read as contiguous before, a silently wrong result, as in Numba 0.68)."""
    signature = "void(float64[:,::1], float64[:,::1], float64[:,::1])"
    gufunc = guvectorize([signature], "(m,n),(n,p)->(m,p)")(matmul)
    gufunc.py_func = matmul
    a, b = operands(np.dtype(np.float64), (5, 9, 4), (5, 9, 9))
    check_matmul(gufunc, np.swapaxes(a, 1, 2), b)
    check_matmul(gufunc, np.ascontiguousarray(np.swapaxes(a, 1, 2)), b)
    check_matmul(gufunc, np.swapaxes(a, 1, 2)[:, :, :3], b[:, :3, :3])  # small cores


def shuffled_copy(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i]
    np.random.shuffle(out)  # types only for C-contiguous arrays: there is no 'A' copy


def test_a_kernel_without_a_strided_copy_refuses_strided_operands():
    """A signature typed 'C' whose 'A' copy does not type keeps one kernel, which would read a
    strided operand as contiguous: the loop runs it on contiguous cores and raises ValueError
    for any other, instead of a silently wrong result."""
    gufunc = guvectorize(["void(float64[::1], float64[::1])"], "(n)->(n)")(shuffled_copy)
    x = np.arange(24.0).reshape(3, 8)
    with no_allocation_leak():
        out = gufunc(x)
        np.testing.assert_array_equal(np.sort(out, axis=1), x)  # each row a permutation
        single = np.zeros((3, 1))
        gufunc(x[:, ::8], single)  # extent 1: any stride is contiguous
        np.testing.assert_array_equal(single, x[:, ::8])
        gufunc(x[:, :0])  # empty cores
        for strided, given in [(x[:, ::2], None), (x[:, :4], strided_copy(np.zeros((3, 4))))]:
            with pytest.raises(ValueError, match=r"shuffled_copy\(\) is typed for contiguous"):
                gufunc(strided) if given is None else gufunc(strided, given)
