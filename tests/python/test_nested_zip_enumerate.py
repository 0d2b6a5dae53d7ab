"""zip() and enumerate() nested in a for loop's header (`enumerate(zip(a, b))`,
`zip(enumerate(a), b)`): iterated in step, building no generator, so they compile for GPUs too
(numba-cuda's test_iterators); the items are CPython's, over arrays, lists, ranges and strings,
with enumerate's start, the shortest iterable ending the loop, and break/else. zip() of one
iterable gives 1-tuples."""

import numpy as np
import pytest
from conftest import assert_same
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float64, int32, njit, void
from taipan.runtime import live_blocks


def enumerate_zip(x, y):
    total = 0.0
    count = 0
    for i, (xv, yv) in enumerate(zip(x, y)):
        total += i * 1000 + xv * 10 + yv
        count += 1
    return total, count


def zip_enumerate(x, y):
    total = 0.0
    count = 0
    for (i, xv), yv in zip(enumerate(x), y):
        total += i * 1000 + xv * 10 + yv
        count += 1
    return total, count


def enumerate_zip_started(x, y, start):
    total = 0.0
    for i, pair in enumerate(zip(x, y), start):
        total += i * 1000 + pair[0] * 10 + pair[1]
    return total


def zip_of_two_enumerates(x, y):
    total = 0.0
    for (i, xv), (j, yv) in zip(enumerate(x), enumerate(y, 5)):
        total += i * 1000 + j * 100 + xv * 10 + yv
    return total


def broken_early(x, y):
    last = -1
    for i, (xv, yv) in enumerate(zip(x, y)):
        if xv > 2:
            break
        last = i
    else:
        last = 100
    return last


def single_zip(x):
    total = 0.0
    for item in zip(x):
        total += item[0]
    return total


ARRAYS = [
    (np.arange(5.0), np.arange(5.0) * 2),
    (np.arange(7, dtype=np.int32), np.arange(3.0)),  # the shorter ends it
    (np.zeros(0), np.arange(4.0)),
]


@pytest.mark.parametrize("function", [enumerate_zip, zip_enumerate, zip_of_two_enumerates])
@pytest.mark.parametrize("x, y", ARRAYS)
def test_over_arrays(function, x, y):
    compiled = njit(function)
    before = live_blocks()
    assert_same(compiled, x, y)
    assert live_blocks() == before


@pytest.mark.parametrize("start", [0, 3, -2])
def test_with_a_start(start):
    x, y = np.arange(4.0), np.arange(6.0)
    assert_same(njit(enumerate_zip_started), x, y, start)


@pytest.mark.parametrize("x", [np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 2.0])])
def test_break_and_else(x):
    y = np.arange(5.0)
    assert_same(njit(broken_early), x, y)


def test_lists_ranges_and_strings():
    def mixed(n, word):
        values = [1.5, 2.5, 3.5]
        total = 0.0
        for i, (a, b, c) in enumerate(zip(values, range(n), word)):
            total += i + a + b + len(c)
        for (i, a), b in zip(enumerate(range(n, 0, -1)), values):
            total += i * a * b
        return total

    compiled = njit(mixed)
    for n in (0, 2, 5):
        before = live_blocks()
        assert_same(compiled, n, "abcd")
        assert live_blocks() == before


@pytest.mark.parametrize("x", [np.arange(3.0), np.zeros(0)])
def test_zip_of_one_iterable_gives_one_tuples(x):
    assert_same(njit(single_zip), x)

    def over_range(n):
        total = 0
        for item in zip(range(n)):
            total += item[0]
        return total

    assert_same(njit(over_range), len(x))


def test_a_generator_beside_a_nested_zip_still_works():
    def numbers(n):
        for i in range(n):
            yield i * 2

    generator = njit(numbers)

    def beside(x, y):
        total = 0.0
        for g, (a, b) in zip(generator(4), zip(x, y)):
            total += g + a * b
        return total

    x, y = np.arange(5.0), np.arange(5.0)
    expected = sum(g + a * b for g, (a, b) in zip(numbers(4), zip(x, y)))
    assert njit(beside)(x, y) == expected


KERNEL_PAIRS = ["enumerate(zip(x, y))", "zip(enumerate(x), y)"]


def kernel_source(header):
    target = "i, (xv, yv)" if header.startswith("enumerate") else "(i, xv), yv"
    return (
        "def kernel(x, y, error):\n"
        "    count = 0\n"
        f"    for {target} in {header}:\n"
        "        if i != count:\n"
        "            error[0] = 1\n"
        "        if xv != x[i]:\n"
        "            error[0] = 2\n"
        "        if yv != y[i]:\n"
        "            error[0] = 3\n"
        "        count += 1\n"
        "    if count != len(x):\n"
        "        error[0] = 4\n"
    )


@needs_ptxas
@pytest.mark.parametrize("header", KERNEL_PAIRS)
def test_kernels_compile_without_generators(header, tmp_path):
    namespace = {}
    exec(kernel_source(header), namespace)  # noqa: S102
    ptx, _ = cuda.compile_ptx(namespace["kernel"], void(float64[:], float64[:], int32[:]))
    ptxas(ptx, tmp_path)


@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
@pytest.mark.parametrize("header", KERNEL_PAIRS)
def test_kernels_run_on_the_gpu(header):
    namespace = {}
    exec(kernel_source(header), namespace)  # noqa: S102
    kernel = cuda.jit(namespace["kernel"])
    x = np.arange(10.0)
    error = np.zeros(1, np.int32)
    kernel[1, 1](x, x * 2, error)
    assert error[0] == 0
