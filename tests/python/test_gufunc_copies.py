"""@guvectorize loops that compile a copy of themselves for the core sizes they meet
(runtime/GufuncSpecialization): once the generic loop has run TAIPAN_GUFUNC_SPECIALIZE_MS on
one tuple of small core sizes, calls of those sizes run a copy whose core sizes are constants.
The copy must give the generic loop's bits (and the Python function's) for every operand
layout, raise what it raises, and never run for other sizes. Here the threshold is 0 ms: a
size tuple's second call compiles its copy."""

import threading

import numpy as np
import pytest
from numpy_checks import no_allocation_leak
from test_guvectorize import matmul, move_mean
from test_guvectorize_contiguous import integer_matmul, python_matmul, shuffled_copy, strided_copy

from taipan import _core, config, guvectorize


@pytest.fixture
def copies_at_once(monkeypatch):
    """Gufuncs built while this is active compile a copy on a core size's second call."""
    monkeypatch.setattr(config, "GUFUNC_SPECIALIZE_MS", 0.0)


def build(kernel, signatures, layout, **options):
    gufunc = guvectorize(signatures, layout, **options)(kernel)
    gufunc.py_func = kernel
    return gufunc


def copies(gufunc):
    """The core sizes of each loop's copies."""
    return [[tuple(sizes) for sizes in loop] for loop in _core.gufunc_copies(gufunc)]


def operands(dtype, *shapes, seed=3):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return [rng.integers(-50, 50, shape).astype(dtype) for shape in shapes]
    return [rng.standard_normal(shape).astype(dtype) for shape in shapes]


MATMUL_SIGNATURES = [
    "void(float64[:,:], float64[:,:], float64[:,:])",
    "void(int64[:,::1], int64[:,::1], int64[:,::1])",
]


@pytest.mark.parametrize("m,n,p", [(4, 4, 4), (3, 3, 3), (2, 3, 5), (1, 16, 1), (16, 2, 16)])
@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_a_copy_gives_the_generic_loops_bits(copies_at_once, dtype, m, n, p):
    kernel = matmul if dtype == "float64" else integer_matmul
    gufunc = build(kernel, MATMUL_SIGNATURES, "(m,n),(n,p)->(m,p)")
    loop = 0 if dtype == "float64" else 1
    a, b = operands(dtype, (9, m, n), (9, n, p))
    expected = python_matmul(gufunc, a, b)
    with no_allocation_leak():
        first = gufunc(a, b)  # the generic loop, timing (m, n, p)
        assert copies(gufunc)[loop] == []
        second = gufunc(a, b)  # compiles the copy and runs it
        third = gufunc(a, b)
    assert copies(gufunc)[loop] == [(m, n, p)]
    for result in (first, second, third):
        np.testing.assert_array_equal(result, expected, strict=True)


def test_the_copy_takes_every_operand_layout(copies_at_once):
    gufunc = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    a, b = operands("float64", (6, 4, 4), (6, 4, 4))
    gufunc(a, b)
    gufunc(a, b)
    assert copies(gufunc) == [[(4, 4, 4)]]
    transposed = np.swapaxes(a, 1, 2)
    row = operands("float64", (1, 4))[0]
    cases = [
        (transposed, b),
        (transposed[:, ::-1, :], b[:, :, ::-1]),
        (strided_copy(a), strided_copy(b)),
        (a[::-1], b[::-1]),
        (a, b[0]),  # stride 0 on the outer dimension
        (a, np.broadcast_to(row, (4, 4))),  # stride 0 on a core dimension
        (a[:0], b[:0]),  # no outer elements
    ]
    with no_allocation_leak():
        for x, y in cases:
            np.testing.assert_array_equal(gufunc(x, y), python_matmul(gufunc, x, y), strict=True)
        out = np.zeros((6, 4, 8))[:, :, ::2]
        assert gufunc(a, b, out) is out
        np.testing.assert_array_equal(out, python_matmul(gufunc, a, b), strict=True)
    assert copies(gufunc) == [[(4, 4, 4)]]


def test_nan_inf_and_signed_zeros_give_the_same_bits(copies_at_once):
    gufunc = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    generic = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    a, b = operands("float64", (40, 3, 3), (40, 3, 3))
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e308, -1e308, 5e-324])
    rng = np.random.default_rng(1)
    a.flat[rng.integers(0, a.size, 60)] = rng.choice(specials, 60)
    b.flat[rng.integers(0, b.size, 60)] = rng.choice(specials, 60)
    with np.errstate(all="ignore"):
        expected = generic(a, b)
        gufunc(a, b)
        result = gufunc(a, b)
    assert copies(gufunc) == [[(3, 3, 3)]] and copies(generic) == [[]]
    np.testing.assert_array_equal(result.view(np.int64), expected.view(np.int64))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(result, python_matmul(gufunc, a, b))


def test_sizes_without_a_copy(copies_at_once):
    gufunc = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    for shapes in [((3, 17, 2), (3, 2, 2)), ((3, 0, 2), (3, 2, 2)), ((3, 2, 0), (3, 0, 2))]:
        a, b = operands("float64", *shapes)
        with no_allocation_leak():
            for _ in range(3):
                np.testing.assert_array_equal(gufunc(a, b), python_matmul(gufunc, a, b))
    assert copies(gufunc) == [[]]


def test_at_most_four_copies_a_loop(copies_at_once):
    gufunc = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    for n in range(1, 8):
        a, b = operands("float64", (5, n, n), (5, n, n))
        with no_allocation_leak():
            for _ in range(2):
                np.testing.assert_array_equal(gufunc(a, b), python_matmul(gufunc, a, b))
    assert copies(gufunc) == [[(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)]]


def test_parallel_target(copies_at_once):
    gufunc = build(matmul, MATMUL_SIGNATURES, "(m,n),(n,p)->(m,p)", target="parallel")
    a, b = operands("float64", (3000, 4, 4), (3000, 4, 4))
    expected = python_matmul(gufunc, a, b)
    with no_allocation_leak():
        for _ in range(3):
            np.testing.assert_array_equal(gufunc(a, b), expected, strict=True)
        np.testing.assert_array_equal(gufunc(a[:20], b[:20]), expected[:20])
    assert copies(gufunc) == [[(4, 4, 4)], []]


def test_scalar_operands_and_one_core_dimension(copies_at_once):
    gufunc = build(move_mean, ["void(float64[:], int64, float64[:])"], "(n),()->(n)")
    x = np.arange(40.0).reshape(4, 10) ** 1.5
    for window in (1, 3, 10):
        expected = np.zeros_like(x)
        for row, target in zip(x, expected):
            move_mean(row, window, target)
        with no_allocation_leak():
            for _ in range(2):
                np.testing.assert_array_equal(gufunc(x, window), expected, strict=True)
                np.testing.assert_array_equal(gufunc(strided_copy(x), window), expected)
    assert copies(gufunc) == [[(10,)]]


def test_a_copy_of_a_layout_checked_loop_still_refuses_strided_operands(copies_at_once):
    gufunc = build(shuffled_copy, ["void(float64[::1], float64[::1])"], "(n)->(n)")
    x = np.arange(24.0).reshape(3, 8)
    with no_allocation_leak():
        for _ in range(3):
            np.testing.assert_array_equal(np.sort(gufunc(x), axis=1), x)
    assert copies(gufunc) == [[(8,)]]
    wide = np.arange(48.0).reshape(3, 16)[:, ::2]
    with (
        no_allocation_leak(),
        pytest.raises(ValueError, match=r"shuffled_copy\(\) is typed for contiguous"),
    ):
        gufunc(wide)


def checked_inverse(x, out):
    for i in range(x.shape[0]):
        if x[i] == 0:
            raise ZeroDivisionError("no inverse of 0")
        out[i] = 1 // x[i]


def test_an_exception_raised_in_the_copy(copies_at_once):
    gufunc = build(checked_inverse, ["void(int64[:], int64[:])"], "(n)->(n)")
    good = np.arange(1, 13, dtype=np.int64).reshape(3, 4)
    with no_allocation_leak():
        for _ in range(3):
            np.testing.assert_array_equal(gufunc(good), 1 // good)
    assert copies(gufunc) == [[(4,)]]
    bad = good.copy()
    bad[1, 2] = 0
    with no_allocation_leak(), pytest.raises(ZeroDivisionError, match="no inverse of 0"):
        gufunc(bad)
    np.testing.assert_array_equal(gufunc(good), 1 // good)


def test_calls_from_several_threads(copies_at_once):
    gufunc = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    shapes = [((200, n, n), (200, n, n)) for n in (2, 3, 4)]
    inputs = [operands("float64", *pair, seed=n) for n, pair in enumerate(shapes)]
    expected = [python_matmul(gufunc, a, b) for a, b in inputs]
    failures = []

    def work(index):
        a, b = inputs[index % 3]
        for _ in range(20):
            if not np.array_equal(gufunc(a, b), expected[index % 3]):
                failures.append(index)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    with no_allocation_leak():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # A call that finds another thread compiling runs the generic loop rather than wait, so
        # under load one size's threads may finish before any of its calls got the lock. With
        # the lock free, a size's first call notes it as a candidate (if no call had) and its
        # second compiles the copy: two more calls each make every copy.
        for (a, b), want in zip(inputs, expected):
            for _ in range(2):
                assert np.array_equal(gufunc(a, b), want)
    assert failures == []
    assert sorted(copies(gufunc)[0]) == [(2, 2, 2), (3, 3, 3), (4, 4, 4)]


def test_off_and_the_default_threshold(monkeypatch):
    a, b = operands("float64", (10, 4, 4), (10, 4, 4))
    monkeypatch.setattr(config, "GUFUNC_SPECIALIZE_MS", None)
    off = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    monkeypatch.setattr(config, "GUFUNC_SPECIALIZE_MS", 1e9)
    late = build(matmul, MATMUL_SIGNATURES[:1], "(m,n),(n,p)->(m,p)")
    for gufunc in (off, late):
        with no_allocation_leak():
            for _ in range(5):
                np.testing.assert_array_equal(gufunc(a, b), python_matmul(gufunc, a, b))
        assert copies(gufunc) == [[]]


def test_dynamic_gufuncs_make_copies_too(copies_at_once):
    gufunc = guvectorize("(m,n),(n,p)->(m,p)")(matmul)
    a, b = operands("float64", (7, 3, 3), (7, 3, 3))
    out = np.zeros((7, 3, 3))
    with no_allocation_leak():
        for _ in range(3):
            gufunc(a, b, out)
            np.testing.assert_array_equal(out, python_matmul(gufunc, a, b))
    assert copies(gufunc.ufunc) == [[(3, 3, 3)]]


def test_gufunc_copies_refuses_other_objects():
    with pytest.raises(TypeError, match="gufunc taipan built"):
        _core.gufunc_copies(np.add)
