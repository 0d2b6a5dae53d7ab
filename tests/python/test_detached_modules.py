"""Modules that sys.modules does not hold under their name (made with types.ModuleType, as
numba-cuda's test_device_func does, or replaced there since): compiled code reads their
attributes from the module object itself (functions, jitted functions, constants), as Numba
does; a missing attribute is a TypingError naming the module."""

import math
import sys
from types import ModuleType

import numpy as np
import pytest

from taipan import cuda, int64, njit, void
from taipan.errors import TypingError


@njit
def add(a, b):
    return a + b


DETACHED = ModuleType("detached_w34")
DETACHED.add = add
DETACHED.scale = 3
DETACHED.sqrt = math.sqrt


def test_a_global_module_object():
    @njit
    def f(x):
        return DETACHED.add(x, DETACHED.scale) + DETACHED.sqrt(16.0)

    assert f(2) == 9.0


def test_a_closure_module_object():
    def make():
        inner = ModuleType("inner_w34")
        inner.add = add

        @njit
        def g(x):
            return inner.add(x, 1)

        return g

    assert make()(41) == 42


def test_a_module_replaced_in_sys_modules():
    replaced = ModuleType("replaced_w34")
    replaced.value = 7
    sys.modules["replaced_w34"] = ModuleType("replaced_w34")  # another object under the name
    try:

        @njit
        def h():
            return replaced.value

        assert h() == 7
    finally:
        del sys.modules["replaced_w34"]


def test_a_missing_attribute_names_the_module():
    @njit
    def missing():
        return DETACHED.nothing_here

    with pytest.raises(
        TypingError, match="module 'detached_w34.*' has no attribute 'nothing_here'"
    ):
        missing()


def test_kernels_call_a_cpu_dispatcher_through_a_module(tmp_path):
    mymod = ModuleType("mymod")
    mymod.add = add

    def kernel(ary):
        i = cuda.grid(1)
        ary[i] = mymod.add(ary[i], 1)

    ptx, _ = cuda.compile_ptx(kernel, void(int64[:]))
    assert ".entry" in ptx
    if cuda.is_available():
        ary = np.arange(10)
        cuda.jit(kernel)[1, ary.size](ary)
        np.testing.assert_equal(ary, np.arange(10) + 1)
