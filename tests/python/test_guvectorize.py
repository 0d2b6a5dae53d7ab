"""@guvectorize: generalized numpy.ufuncs over taipan-compiled loops, on 'cpu' and 'parallel':
the seeds' l2_norm, a batched matmul and a moving mean, scalar operands, outputs passed or
allocated, inputs written in place, the dynamic form, and clear errors."""

import math

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

import taipan
from taipan import guvectorize
from taipan.errors import TypingError

TARGETS = ["cpu", "parallel"]


def l2_norm(vec, out):
    acc = 0.0
    for value in vec:
        acc += value**2
    out[0] = math.sqrt(acc)


def matmul(a, b, out):
    m, n = a.shape
    p = b.shape[1]
    for i in range(m):
        for j in range(p):
            s = 0.0
            for k in range(n):
                s += a[i, k] * b[k, j]
            out[i, j] = s


def move_mean(a, window, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        if i >= window:
            s -= a[i - window]
        out[i] = s / min(i + 1, window)


def python_gufunc(py_func, *inputs, out_shape, dtype):
    """The Python function applied over the outer dimension, as NumPy's gufunc would."""
    first = np.asarray(inputs[0])
    outer = first.shape[: first.ndim - 1] if first.ndim else ()
    out = np.zeros(outer + out_shape, dtype)
    for index in np.ndindex(*outer):
        view = out[index] if out_shape else out[index + (None,)][..., :1].reshape(1)
        py_func(*(np.asarray(x)[index] if np.ndim(x) > 1 else x for x in inputs), view)
        if not out_shape:
            out[index] = view[0]
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_seed_l2_norm(target):
    norm = guvectorize(["(float32[:], float32[:])"], "(i)->()", target=target)(l2_norm)
    assert isinstance(norm, np.ufunc) and norm.signature == "(i)->()"
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    with no_allocation_leak():
        result = norm(a)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(
        result, np.sqrt((a.astype(np.float64) ** 2).sum(1)).astype(np.float32)
    )
    assert norm(a[:, ::2]).tolist() == norm(np.ascontiguousarray(a[:, ::2])).tolist()
    assert norm(np.zeros((0, 4), np.float32)).shape == (0,)


@pytest.mark.parametrize("target", TARGETS)
def test_batched_matmul(target):
    gufunc = guvectorize(
        ["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)", target=target
    )(matmul)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((7, 3, 4)), rng.standard_normal((7, 4, 5))
    np.testing.assert_allclose(gufunc(a, b), a @ b, rtol=1e-13)
    out = np.empty((7, 3, 5))
    assert gufunc(a, b, out) is out
    np.testing.assert_allclose(out, a @ b, rtol=1e-13)
    np.testing.assert_allclose(gufunc(a, b[0]), a @ b[0], rtol=1e-13)  # broadcast outer dims
    transposed = np.swapaxes(rng.standard_normal((7, 4, 3)), 1, 2)  # non-contiguous core
    np.testing.assert_allclose(gufunc(transposed, b), transposed @ b, rtol=1e-13)
    with pytest.raises(ValueError):
        gufunc(a, a)  # core dimensions disagree: NumPy's check


@pytest.mark.parametrize("target", TARGETS)
def test_moving_mean_with_a_scalar_operand(target):
    gufunc = guvectorize(["void(float64[:], int64, float64[:])"], "(n),()->(n)", target=target)(
        move_mean
    )
    x = np.arange(20.0).reshape(2, 10) ** 1.5
    expected = np.array(
        [python_gufunc(move_mean, row, 3, out_shape=(10,), dtype=float)[()] for row in x]
    )
    np.testing.assert_array_equal(gufunc(x, 3), expected)
    windows = np.array([2, 5])
    np.testing.assert_array_equal(gufunc(x, windows)[1], gufunc(x[1], 5))


def double_in_place(a, out):
    for i in range(a.shape[0]):
        a[i] *= 2
    out[0] = a.shape[0]


def test_inputs_written_in_place_are_seen_by_the_caller():
    gufunc = guvectorize(["void(float64[:], float64[:])"], "(n)->()", writable_args=(0,))(
        double_in_place
    )
    a = np.arange(6.0).reshape(2, 3)
    assert gufunc(a).tolist() == [3.0, 3.0]
    assert a.tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]


def total(a, out):
    s = 0
    for v in a:
        s += v
    out[0] = s


def test_dynamic_gufunc_compiles_per_operand_types():
    gufunc = guvectorize("(n)->()")(total)
    assert isinstance(gufunc, taipan.GUFunc) and gufunc.signature == "(n)->()"
    with pytest.raises(TypeError, match="pass the outputs"):
        gufunc(np.arange(3.0))
    out = np.zeros(2)
    gufunc(np.arange(6.0).reshape(2, 3), out)
    assert out.tolist() == [3.0, 12.0]
    assert gufunc.types == ["d->d"]
    out_int = np.zeros(2, np.int64)
    gufunc(np.arange(6).reshape(2, 3), out_int)
    assert out_int.tolist() == [3, 12]
    assert gufunc.types == ["d->d", "l->l"]
    assert gufunc(np.arange(4.0)) == 6.0  # a loop exists now: NumPy allocates the output


def index_past_the_end(a, out):
    out[0] = a[a.shape[0]]


@pytest.mark.parametrize("target", TARGETS)
def test_an_error_inside_raises(target):
    gufunc = guvectorize(
        ["void(float64[:], float64[:])"], "(n)->()", target=target, boundscheck=True
    )(index_past_the_end)
    with pytest.raises(IndexError):
        gufunc(np.zeros((4, 3)))


def test_bad_layouts_and_signatures_get_clear_errors():
    with pytest.raises(TypingError, match="operands"):
        guvectorize(["void(float64[:], float64[:])"], "(n),(n)->()")(l2_norm)
    with pytest.raises(ValueError, match="layout"):
        guvectorize(["void(float64[:], float64[:])"], "(n)->()->()")(l2_norm)
    with pytest.raises(TypingError, match="core dimensions"):
        guvectorize(["void(float64[:,:], float64[:])"], "(n)->()")(l2_norm)
    with pytest.raises(TypingError, match="returns void"):
        guvectorize(["float64(float64[:], float64[:])"], "(n)->()")(l2_norm)


@pytest.mark.parametrize("target", TARGETS)
def test_compiled_code_calls_gufuncs_as_numpy_does(target):
    norm = guvectorize(["void(float64[:], float64[:])"], "(n)->()", target=target)(l2_norm)
    product = guvectorize(
        ["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)", target=target
    )(matmul)
    mean = guvectorize(
        ["void(float64[:], int64, float64[:])", "void(float32[:], int64, float32[:])"],
        "(n),()->(n)",
        target=target,
    )(move_mean)

    def calls(x, a, b, window):
        return norm(x), product(a, b), mean(x, window), norm(x[0]), product(a[0], b)

    compiled = taipan.njit(calls)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((6, 9))
    a, b = rng.standard_normal((5, 3, 4)), rng.standard_normal((4, 2))
    with no_allocation_leak():
        for actual, expected in zip(compiled(x, a, b, 3), calls(x, a, b, 3)):
            np.testing.assert_allclose(actual, expected, rtol=1e-13)
            assert np.shape(actual) == np.shape(expected)
        for actual, expected in zip(
            compiled(x[:, ::2], a[::2], b, 2), calls(x[:, ::2], a[::2], b, 2)
        ):
            np.testing.assert_allclose(actual, expected, rtol=1e-13)
        # inputs of other dtypes are cast to the loop's; an int array takes the float64 loop
        ints = np.arange(12).reshape(3, 4)
        np.testing.assert_allclose(taipan.njit(lambda v: norm(v))(ints), norm(ints))
        np.testing.assert_allclose(
            taipan.njit(lambda v: mean(v, 2))(x.astype(np.float32)), mean(x.astype(np.float32), 2)
        )
        # outputs passed are written and returned
        out = np.zeros(6)
        result = taipan.njit(lambda v, o: norm(v, o))(x, out)
        np.testing.assert_allclose(out, norm(x))
        assert result is not None
        del actual, expected, result


def test_gufunc_calls_from_compiled_code_check_shapes():
    product = guvectorize(["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)")(
        matmul
    )
    call = taipan.njit(lambda a, b: product(a, b))
    with pytest.raises(ValueError, match="core dimension"):
        call(np.ones((2, 3)), np.ones((4, 2)))
    with pytest.raises(ValueError, match="broadcast"):
        call(np.ones((3, 2, 3)), np.ones((2, 3, 2)))
    with pytest.raises(ValueError, match="wrong shape"):
        taipan.njit(lambda a, b, o: product(a, b, o))(
            np.ones((3, 2, 3)), np.ones((3, 2)), np.ones((2, 2, 2))
        )
    with pytest.raises(TypingError, match="no loop"):
        call(np.ones((2, 2), np.complex128), np.ones((2, 2)))

    dynamic = guvectorize("(n)->()")(total)
    with pytest.raises(TypingError, match="pass the outputs"):
        taipan.njit(lambda v: dynamic(v))(np.ones(3))
    out = np.zeros(2)
    taipan.njit(lambda v, o: dynamic(v, o))(np.ones((2, 3)), out)
    np.testing.assert_array_equal(out, [3.0, 3.0])
