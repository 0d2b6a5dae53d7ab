"""overload(..., target=...): an overload for one target ('cpu', or 'cuda'/'gpu') is chosen
over a generic one when compiling for that target and is absent elsewhere, as Numba resolves
numba-cuda's target-specific overloads. Each implementation multiplies by its own prime, so
the product says which ones a call reached (numba-cuda's test_overload scheme)."""

import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, int32, njit, void
from taipan.errors import TypingError
from taipan.extending import overload


def target_overloaded(x):
    pass


def cuda_only(x):
    pass


def calls_target_overloaded(x):
    pass


@overload(target_overloaded, target="generic")
def _generic(x):
    def impl(x):
        x[0] *= 23

    return impl


@overload(target_overloaded, target="cuda")
def _cuda(x):
    def impl(x):
        x[0] *= 29

    return impl


@overload(target_overloaded, target="cpu")
def _cpu(x):
    def impl(x):
        x[0] *= 31

    return impl


@overload(cuda_only, target="gpu")
def _cuda_only(x):
    def impl(x):
        x[0] *= 37

    return impl


@overload(calls_target_overloaded)  # generic by default
def _calls(x):
    def impl(x):
        x[0] *= 41
        target_overloaded(x)

    return impl


def kernel(x):
    calls_target_overloaded(x)
    cuda_only(x)


@njit
def on_the_cpu(x):
    calls_target_overloaded(x)


@njit
def cuda_only_on_the_cpu(x):
    cuda_only(x)


def test_the_cpu_takes_its_own_overload_before_the_generic_one():
    x = np.ones(1, np.int32)
    on_the_cpu(x)
    assert x[0] == 41 * 31


def test_an_overload_for_the_gpu_is_absent_on_the_cpu():
    with pytest.raises(TypingError, match="cuda_only"):
        cuda_only_on_the_cpu(np.ones(1, np.int32))


@needs_ptxas
def test_kernels_take_the_cuda_overloads(tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, void(int32[::1]))
    # 41 * 29 * 37 folded into one multiplication: neither 23 nor 31 took part.
    assert re.search(rf"\b{41 * 29 * 37}\b", ptx), ptx
    ptxas(ptx, tmp_path)


def test_an_unknown_target_is_refused():
    with pytest.raises(ValueError, match="unknown overload target 'tpu'"):
        overload(cuda_only, target="tpu")


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_kernels_take_the_cuda_overloads_on_the_gpu():
    x = np.ones(1, np.int32)
    cuda.jit(kernel)[1, 1](x)
    assert x[0] == 41 * 29 * 37
