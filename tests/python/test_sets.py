"""Sets in compiled code. Not built yet (issue 13): every set construct must be refused with an
UnsupportedError naming the construct and the user's line, on the CPU and in CUDA kernels, never
a crash or a wrong answer. These tests pin that down until the Set kind lands."""

import numpy as np
import pytest

from taipan import cuda, float64, njit, void
from taipan.errors import UnsupportedError


def set_call():
    s = set()
    return len(s)


def set_of_range(n):
    s = set(range(n))
    return len(s)


def set_of_array(a):
    s = set(a)
    return len(s)


def literal():
    s = {1, 2}
    return len(s)


def comprehension(n):
    s = {i % 3 for i in range(n)}
    return len(s)


def frozen():
    s = frozenset()
    return len(s)


@pytest.mark.parametrize(
    "function, args, construct",
    [
        (set_call, (), "set is not supported"),
        (set_of_range, (4,), "set is not supported"),
        (set_of_array, (np.arange(3.0),), "set is not supported"),
        (literal, (), "set literals are not supported"),
        (comprehension, (5,), "set comprehensions are not supported"),
        (frozen, (), "frozenset is not supported"),
    ],
)
def test_set_constructs_are_unsupported_at_their_line(function, args, construct):
    with pytest.raises(UnsupportedError, match=construct) as error:
        njit(function)(*args)
    line = function.__code__.co_firstlineno + 1
    assert f"line {line}" in str(error.value)
    assert "s = " in str(error.value)  # the source line is shown


@pytest.mark.parametrize("value", [set(), {1, 2}, {0.0, float("nan")}, frozenset({3})])
def test_set_arguments_are_unsupported(value):
    def size(s):
        return len(s)

    with pytest.raises(UnsupportedError, match=r"argument 0 \(s\) is a (set|frozenset)"):
        njit(size)(value)
    assert size(value) == len(value)  # the Python function is untouched


def test_sets_in_cuda_kernels_are_unsupported():
    def kernel(x):
        s = set()
        x[0] = len(s)

    with pytest.raises(UnsupportedError, match="set is not supported"):
        cuda.compile_ptx(kernel, void(float64[:]))
