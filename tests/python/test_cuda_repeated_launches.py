"""Repeated launches of a configured kernel: a launch of argument types launched before runs
from CudaLauncher's call slot without nanobind's argument handling (``launchKnown`` in
bindings/CudaLaunch.cpp), and everything else goes the general way (``_general_launch``). Each
case launches several times so that later launches take the common path, and compares every
launch's result with NumPy's; what must not take it (host arrays, pre-launch callbacks added
later, new argument types, many arguments, a closed context, keyword arguments) is checked
to behave as the first launch does. Needs a GPU (marker ``cuda``)."""

import os
import subprocess
import sys

import numpy as np
import pytest
from child_processes import child_python_path

from taipan import cuda
from taipan.errors import TypingError
from taipan.runtime import live_blocks

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU"),
]


@cuda.jit
def axpy(out, x, y, factor):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = factor * x[i] + y[i]


@cuda.jit
def add_step(values, step):
    i = cuda.grid(1)
    if i < values.size:
        values[i] += step


@cuda.jit
def nine(out, a, b, c, d, e, f, g, h):
    out[0] = a[0] + b[0] + c[0] + d[0] + e[0] + f[0] + g[0] + h[0]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.complex128])
def test_each_repeated_launch_computes_numpys_result(dtype):
    before = live_blocks()
    x = (np.arange(50) % 7).astype(dtype)
    y = (np.arange(50) % 5).astype(dtype)
    out = cuda.device_array(50, dtype)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    configured = axpy[2, 32]
    for factor in (dtype(2), dtype(3), dtype(5), dtype(-1)):
        configured(out, dx, dy, factor)
        np.testing.assert_array_equal(out.copy_to_host(), factor * x + y)
    for factor in (dtype(7), dtype(0)):  # subscripted afresh each time, as programs do
        axpy[2, 32](out, dx, dy, factor)
        np.testing.assert_array_equal(out.copy_to_host(), factor * x + y)
    del out, dx, dy
    assert live_blocks() == before


def test_python_scalars_of_the_launched_types_repeat_the_launch():
    values = cuda.to_device(np.zeros(10, np.int64))
    for step in (1, 2, 3, -4):
        add_step[1, 32](values, step)
    np.testing.assert_array_equal(values.copy_to_host(), np.full(10, 2, np.int64))


def test_new_argument_types_after_known_ones_compile_and_launch():
    ints = cuda.to_device(np.zeros(10, np.int64))
    floats = cuda.to_device(np.zeros(10, np.float64))
    for _ in range(2):
        add_step[1, 32](ints, 1)
        add_step[1, 32](floats, 0.5)
    np.testing.assert_array_equal(ints.copy_to_host(), np.full(10, 2, np.int64))
    np.testing.assert_array_equal(floats.copy_to_host(), np.full(10, 1.0))


def test_host_arrays_in_a_repeated_launch_are_copied_back_each_time():
    values = np.zeros(10, np.int64)
    for _ in range(3):
        add_step[1, 32](values, 2)
    np.testing.assert_array_equal(values, np.full(10, 6, np.int64))
    device = cuda.to_device(np.zeros(10, np.int64))
    add_step[1, 32](device, 1)  # device and host arrays of one type, alternating
    add_step[1, 32](values, 1)
    add_step[1, 32](device, 1)
    np.testing.assert_array_equal(values, np.full(10, 7, np.int64))
    np.testing.assert_array_equal(device.copy_to_host(), np.full(10, 2, np.int64))


def test_more_arguments_than_the_inline_ones_launch_each_time():
    out = cuda.device_array(1, np.int64)
    parts = [cuda.to_device(np.array([k], np.int64)) for k in range(1, 9)]
    for _ in range(3):
        nine[1, 1](out, *parts)
        assert out.copy_to_host()[0] == 36


def test_callbacks_added_after_known_launches_run_at_the_next_one():
    values = cuda.to_device(np.zeros(4, np.int64))
    configured = add_step[1, 32]
    configured(values, 1)
    configured(values, 1)
    calls = []
    configured.pre_launch_callbacks.append(lambda kernel, config: calls.append(config.griddim))
    configured(values, 1)
    configured(values, 1)
    assert calls == [(1, 1, 1), (1, 1, 1)]
    np.testing.assert_array_equal(values.copy_to_host(), np.full(4, 4, np.int64))


def test_keyword_arguments_are_refused_on_every_launch():
    values = cuda.to_device(np.zeros(4, np.int64))
    configured = add_step[1, 32]
    configured(values, 1)
    with pytest.raises(TypeError):
        configured(values, step=1)
    with pytest.raises(TypeError):
        configured(values=values, step=1)
    configured(values, 1)
    np.testing.assert_array_equal(values.copy_to_host(), np.full(4, 2, np.int64))


def test_a_value_of_no_kernel_type_after_known_launches_is_reported():
    values = cuda.to_device(np.zeros(4, np.int64))
    add_step[1, 32](values, 1)
    with pytest.raises(TypingError, match="object"):
        add_step[1, 32](values, object())
    add_step[1, 32](values, 1)
    np.testing.assert_array_equal(values.copy_to_host(), np.full(4, 2, np.int64))


CLOSE_AND_LAUNCH = """
import numpy as np
from taipan import cuda

@cuda.jit
def add_step(values, step):
    i = cuda.grid(1)
    if i < values.size:
        values[i] += step

values = cuda.to_device(np.zeros(4, np.int64))
add_step[1, 32](values, 1)
add_step[1, 32](values, 1)
assert values.copy_to_host().tolist() == [2, 2, 2, 2]
del values
cuda.close()
values = cuda.to_device(np.zeros(4, np.int64))
for _ in range(2):
    add_step[1, 32](values, 3)
assert values.copy_to_host().tolist() == [6, 6, 6, 6]
print("ok")
"""


def test_launches_after_cuda_close_load_the_kernel_again(tmp_path):
    # In a child process: closing the context here would free other tests' device arrays.
    environment = dict(os.environ, PYTHONPATH=child_python_path())
    done = subprocess.run(
        [sys.executable, "-c", CLOSE_AND_LAUNCH],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr


def test_every_way_of_calling_a_configuration_launches():
    values = cuda.to_device(np.zeros(4, np.int64))
    configured = add_step[1, 32]
    configured(values, 1)  # vectorcall
    type(configured).__call__(configured, values, 1)  # the call slot
    configured(*(values, 1))  # a call with a tuple of arguments
    add_step.__getitem__((1, 32))(values, 1)  # the class's __getitem__ called by name
    assert add_step.__getitem__((1, 32)) is configured
    np.testing.assert_array_equal(values.copy_to_host(), np.full(4, 4, np.int64))
