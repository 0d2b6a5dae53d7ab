"""Recursion that typing cannot settle says so in Numba's words (numba-cuda's test_recursion
checks them): a function whose every return recurses is "runaway recursion", and one whose
return type grows with each level "does not converge". On the CPU and in CUDA kernels."""

import pytest

from taipan import cuda, njit, void
from taipan.errors import TypingError


@njit
def runaway(x):
    return runaway(x)


@njit
def growing(n):
    if n <= 0:
        return None
    return (n, growing(n - 1))


@njit
def settles(n):
    if n <= 0:
        return 0
    return settles(n - 1) + 1


@pytest.mark.parametrize(
    "function, message",
    [
        (runaway, "cannot type infer runaway recursion: no return of runaway() gives a value"),
        (growing, "Return type of recursive function does not converge: 'growing' returns"),
    ],
)
def test_recursion_that_does_not_settle_on_the_cpu(function, message):
    with pytest.raises(TypingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        function(3)


def test_recursion_that_settles_still_compiles():
    assert settles(5) == 5


@cuda.jit(device=True)
def runaway_device(x):
    return runaway_device(x)


@cuda.jit(device=True)
def growing_device(n):
    if n <= 0:
        return None
    return (n, growing_device(n - 1))


def calls_runaway():
    runaway_device(1)


def calls_growing():
    growing_device(100)


@pytest.mark.parametrize(
    "kernel, message",
    [
        (calls_runaway, "cannot type infer runaway recursion"),
        (calls_growing, "Return type of recursive function does not converge"),
    ],
)
def test_recursion_that_does_not_settle_in_kernels(kernel, message):
    with pytest.raises(TypingError, match=message):
        cuda.compile_ptx(kernel, void())
