"""Dicts in compiled code. Not built yet (issue 13): every dict construct must be refused with an
UnsupportedError naming the construct and the user's line, on the CPU and in CUDA kernels, never
a crash or a wrong answer. These tests pin that down until the Dict kind lands."""

import pytest

from taipan import cuda, float64, njit, void
from taipan.errors import UnsupportedError


def empty_then_store():
    d = {}
    d[1] = 2.0
    return len(d)


def literal():
    d = {1: 2.0}
    return len(d)


def comprehension(n):
    d = {i: 2 * i for i in range(n)}
    return len(d)


def dict_call():
    d = dict()  # noqa: C408 - the call is what is tested
    return len(d)


def dict_of_pairs():
    d = dict(((1, 2.0),))  # noqa: C406 - the call is what is tested
    return len(d)


@pytest.mark.parametrize(
    "function, args, construct",
    [
        (empty_then_store, (), "dict literals are not supported"),
        (literal, (), "dict literals are not supported"),
        (comprehension, (3,), "dict comprehensions are not supported"),
        (dict_call, (), "dict is not supported"),
        (dict_of_pairs, (), "dict is not supported"),
    ],
)
def test_dict_constructs_are_unsupported_at_their_line(function, args, construct):
    with pytest.raises(UnsupportedError, match=construct) as error:
        njit(function)(*args)
    line = function.__code__.co_firstlineno + 1
    assert f"line {line}" in str(error.value)
    assert "d = " in str(error.value)  # the source line is shown


@pytest.mark.parametrize("value", [{}, {1: 2.0}, {(1, 2): True}])
def test_dict_arguments_are_unsupported(value):
    def size(d):
        return len(d)

    with pytest.raises(UnsupportedError, match=r"argument 0 \(d\) is a dict"):
        njit(size)(value)
    assert size(value) == len(value)  # the Python function is untouched


def test_dicts_in_cuda_kernels_are_unsupported():
    def kernel(x):
        d = {1: 2.0}
        x[0] = len(d)

    with pytest.raises(UnsupportedError, match="dict literals are not supported"):
        cuda.compile_ptx(kernel, void(float64[:]))
